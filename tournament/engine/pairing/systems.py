"""The pairing systems that work from the standings: Swiss, king of the hill, factor pairing,
contention pairing (tsh's Chew pairings) and the Australian draw."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from tournament.engine.pairing.contention import best_finishes, can_catch, gibsons, swing
from tournament.engine.pairing.draft import (
    Draft,
    Pricing,
    Table,
    bye_preference,
    bye_reason,
    gibsonize,
    match_group,
)
from tournament.engine.pairing.history import Field
from tournament.engine.pairing.messages import Message
from tournament.engine.pairing.model import PairingError
from tournament.engine.standings import PlayerId

RANK_GAP_PLACES = 10  # a pair this many places apart is pointed out in its reasons


def pair_reasons(fld: Field, a: PlayerId, b: PlayerId) -> list[Message]:
    ra, rb = fld.position[a] + 1, fld.position[b] + 1
    wa, wb = fld.wins(a), fld.wins(b)
    # Each figure in the order of the pair (a's, then b's): `pair_round` swaps them when b goes
    # first, so that "B v A: places 5 and 2" is B 5th and A 2nd.
    reasons = [Message("places", high=ra, low=rb)]
    reasons.append(
        Message("same_wins", wins=wa) if wa == wb else Message("wins_apart", more=wa, fewer=wb)
    )
    met = fld.times_met(a, b)
    if met:
        last = fld.last_opponent(a) == b
        reasons.append(Message("met_last_round" if last else "met_before", met=met))
    if abs(ra - rb) >= RANK_GAP_PLACES:
        reasons.append(Message("places_apart", gap=abs(ra - rb)))
    if fld.rules.forbidden(a, b):
        reasons.append(Message("forbidden_pair"))
    return reasons


def _repeat_term(fld: Field, a: PlayerId, b: PlayerId) -> int:
    return 2 * fld.times_met(a, b) + (fld.last_opponent(a) == b and b is not None)


def _repeat_bound(fld: Field, n: int) -> int:
    return (n // 2 + 1) * (2 * max(fld.met.values(), default=0) + 1)


# --------------------------------------------------------------------------- Swiss


def swiss_pricing(fld: Field, pool: Sequence[PlayerId]) -> Pricing:
    """Wins far above repeats far above place: players on the same wins meet, the top half of
    each score group against its bottom half (tsh's "ideal Swiss distance"), so that ranks within
    a group, which spread decides, set who meets whom. With `swiss_priority = 'repeats'` in the
    options, avoiding a repeat comes before keeping score groups together (tsh's NewSwiss order).
    """
    n = len(pool)
    index = {p: i for i, p in enumerate(pool)}
    wins = [fld.wins(p) for p in pool]
    size = Counter(wins)
    start: dict[float, int] = {}
    for i, w in enumerate(wins):
        start.setdefault(w, i)
    spread_of_wins = (max(wins) - min(wins)) if wins else 0
    repeats_first = fld.rules.options.get("swiss_priority", "wins") == "repeats"

    def terms(a: PlayerId, b: PlayerId) -> tuple[int, ...]:
        i, j = index[a], index[b]
        d = abs(i - j)
        place = abs(2 * d - size[wins[i]]) if wins[i] == wins[j] else 2 * d
        win = round(2 * abs(wins[i] - wins[j])) ** 2
        repeat = _repeat_term(fld, a, b)
        return (place, win, repeat) if repeats_first else (place, repeat, win)

    def extra(i: int) -> Iterable[int]:
        g = size[wins[i]]
        half = g // 2
        s = start[wins[i]]
        for target in (i + half, i - half, i + (g + 1) // 2, i - (g + 1) // 2):
            for j in range(target - 3, target + 4):
                if s <= j < s + g:
                    yield j

    win_bound = (n // 2 + 1) * round(2 * spread_of_wins + 2) ** 2
    place_bound = n * n + n
    repeat_bound = _repeat_bound(fld, n)
    bounds = (
        (place_bound, win_bound, repeat_bound)
        if repeats_first
        else (
            place_bound,
            repeat_bound,
            win_bound,
        )
    )
    return Pricing(terms, bounds, extra)


def pair_swiss(fld: Field, pool: list[PlayerId] | None = None, draft: Draft | None = None) -> Draft:
    draft = Draft() if draft is None else draft
    pool = gibsonize(fld, list(fld.active), draft) if pool is None else pool
    match_group(
        fld,
        pool,
        swiss_pricing(fld, pool),
        draft,
        what=Message("by_swiss"),
        reasons=lambda a, b: [Message("by_swiss"), *pair_reasons(fld, a, b)],
    )
    return draft


# --------------------------------------------------------------------------- KOTH and factor


def factor_pricing(fld: Field, pool: Sequence[PlayerId], factor: int) -> Pricing:
    """Places apart as near `factor` as can be (squared, so no pair is pushed far off), then
    fewer repeats and not last round's opponent, as tsh's KOTH orders its preferences; among
    equals, the higher-placed pairs get the nearer opponents (tsh pairs from the top down)."""
    n = len(pool)
    index = {p: i for i, p in enumerate(pool)}

    def terms(a: PlayerId, b: PlayerId) -> tuple[int, ...]:
        i, j = index[a], index[b]
        off = abs(abs(i - j) - factor)
        return (off * (n - min(i, j)), _repeat_term(fld, a, b), off * off)

    def extra(i: int) -> Iterable[int]:
        return (i + factor, i - factor, i + factor + 1, i - factor - 1)

    bounds = ((n // 2 + 1) * n * n, _repeat_bound(fld, n), (n // 2 + 1) * n * n)
    return Pricing(terms, bounds, extra)


def pair_factor(fld: Field, factor: int | None = None) -> Draft:
    if factor is None:
        factor = int(fld.rules.options.get("factor", 2))
    if factor < 1:
        raise PairingError(f"a pairing factor must be 1 or more, not {factor}")
    draft = Draft()
    pool = gibsonize(fld, list(fld.active), draft)
    label = Message("by_koth") if factor == 1 else Message("by_factor", factor=factor)
    match_group(
        fld,
        pool,
        factor_pricing(fld, pool, factor),
        draft,
        what=label,
        reasons=lambda a, b: [label, *pair_reasons(fld, a, b)],
    )
    return draft


def pair_koth(fld: Field) -> Draft:
    return pair_factor(fld, 1)


# --------------------------------------------------------------------------- contention (cp)

FLIGHT_CAPS = {1: 2, 2: 4, 3: 8}  # rounds left -> most contenders in a flight (tsh's default)
FLIGHT_CAP_LATER = 12


def flight_cap(fld: Field) -> int | None:
    if "flight_cap" in fld.rules.options:
        cap = fld.rules.options["flight_cap"]
        return None if cap is None else int(cap)
    left = fld.rounds_left or 0
    return FLIGHT_CAPS.get(left, FLIGHT_CAP_LATER)


def pair_contention(fld: Field) -> Draft:
    """tsh's Chew pairings in outline (§3.1): Gibsons first; then for each prize band from the
    top, the players whose best possible finish reaches the band (made even, at most the flight
    cap) play each other, pairs that can still catch each other first, nearest places next;
    everyone else is paired Swiss. With everyone still in contention it is a Swiss."""
    draft = Draft()
    if fld.rules.rounds_total is None:
        raise PairingError("contention pairing needs the number of rounds of the event")
    pool = gibsonize(fld, list(fld.active), draft)
    best = best_finishes(fld, fld.active)
    bands = list(fld.rules.prize_bands or [fld.last_prize_rank()])
    cap = flight_cap(fld)
    allowance = swing(fld)
    left = list(pool)
    for band in bands:
        contenders = [p for p in left if best[p] <= band]
        if not contenders:
            continue
        if len(contenders) >= len(left):
            break
        if len(contenders) % 2:
            others = [p for p in left if p not in contenders]
            contenders.append(others[0])
        # The flight: the top `cap` contenders, or as few more as it takes to pair them.
        sizes = [len(contenders)]
        if cap is not None and len(contenders) > cap:
            sizes = list(range(max(2, cap - cap % 2), len(contenders), 2)) + sizes
        sub = Draft()
        flight: list[PlayerId] = []
        for size in sizes:
            flight = sorted(contenders[:size], key=lambda p: fld.position[p])
            sub = Draft()
            if _pair_flight(fld, flight, band, allowance, sub):
                break
        else:
            draft.notes.append(Message("contention_unpaired", count=len(contenders), band=band))
            continue
        contenders = flight
        draft.tables.extend(sub.tables)
        draft.notes.append(
            Message("contention_flight", band=band, players=[fld.name(p) for p in flight])
        )
        left = [p for p in left if p not in contenders]
    return pair_swiss(fld, left, draft)


def _pair_flight(fld: Field, flight: list[PlayerId], band: int, allowance: int, sub: Draft) -> bool:
    n = len(flight)
    index = {p: i for i, p in enumerate(flight)}

    def terms(a: PlayerId, b: PlayerId) -> tuple[int, ...]:
        d = abs(index[a] - index[b])
        hi, lo = (a, b) if fld.position[a] < fld.position[b] else (b, a)
        return (d * d, _repeat_term(fld, a, b), int(not can_catch(fld, lo, hi, allowance)))

    pricing = Pricing(terms, ((n // 2 + 1) * n * n, _repeat_bound(fld, n), n // 2 + 1))
    try:
        match_group(
            fld,
            flight,
            pricing,
            sub,
            what=Message("by_contention", band=band),
            reasons=lambda a, b: [
                Message("in_contention", band=band),
                *pair_reasons(fld, a, b),
            ],
        )
    except PairingError:
        return False
    return True


# --------------------------------------------------------------------------- Australian draw

AUSTRALIAN_STEPS = 200_000


def pair_australian(fld: Field) -> Draft:
    """The Australian draw (as Woogles describes it): round 1 top half against bottom half;
    later, the top remaining player meets the highest-placed player they may meet, backtracking
    when a choice leaves the rest unpairable. A pair may not meet more often than the repeat
    limit since `reset_round` (option, 1 by default); when no draw exists the reset round moves
    on one round at a time, forgiving the oldest meetings first. The bye goes first, as
    everywhere: to the lowest-placed player with the fewest byes."""
    draft = Draft()
    pool = list(fld.active)
    rules = fld.rules
    bye: PlayerId | None = None
    if len(pool) % 2:
        bye = bye_preference(fld, pool)[0]
        draft.tables.append(Table(bye, None, [bye_reason(fld, bye, pool)]))
        draft.notes.append(Message("has_bye", player=fld.describe(bye)))
        pool.remove(bye)
    if fld.based_on == 0 and not any(
        any(s.opponent for s in seats) for seats in fld.seats.values()
    ):
        half = len(pool) // 2
        order = pool[:half]
        wanted = {a: pool[half + i] for i, a in enumerate(order)}
        if all(not rules.forbidden(a, b) for a, b in wanted.items()):
            for a, b in wanted.items():
                draft.tables.append(
                    Table(
                        a,
                        b,
                        [Message("australian_round_1"), *pair_reasons(fld, a, b)],
                    )
                )
            return draft
    reset = int(rules.options.get("reset_round", 1))
    while True:
        found = _australian_search(fld, pool, reset)
        if found is not None or reset >= fld.round_number:
            break
        reset += 1
    if found is None:
        # Only forbidden pairs stand in the way: pair as king of the hill, warnings follow.
        koth = factor_pricing(fld, pool, 1)
        match_group(
            fld,
            pool,
            koth,
            draft,
            what=Message("by_australian"),
            reasons=lambda a, b: [
                Message("australian_forbidden"),
                *pair_reasons(fld, a, b),
            ],
        )
        return draft
    if reset > int(rules.options.get("reset_round", 1)):
        draft.notes.append(Message("australian_forgiven", round=reset))
    for a, b in found:
        draft.tables.append(
            Table(
                a,
                b,
                [Message("australian_highest"), *pair_reasons(fld, a, b)],
            )
        )
    return draft


def _australian_search(
    fld: Field, pool: list[PlayerId], reset: int
) -> list[tuple[PlayerId, PlayerId]] | None:
    rules = fld.rules
    met_since: Counter[frozenset[PlayerId]] = Counter()
    for pid, seats in fld.seats.items():
        for number, seat in enumerate(seats, 1):
            if number >= reset and seat.opponent is not None:
                met_since[frozenset((pid, seat.opponent))] += 1
    # each meeting is seen from both sides
    ok = {
        (a, b)
        for i, a in enumerate(pool)
        for b in pool[i + 1 :]
        if met_since[frozenset((a, b))] // 2 <= rules.max_repeats and not rules.forbidden(a, b)
    }

    def allowed(a: PlayerId, b: PlayerId) -> bool:
        return (a, b) in ok or (b, a) in ok

    steps = 0
    pairs: list[tuple[PlayerId, PlayerId]] = []

    def search(rest: list[PlayerId]) -> bool:
        nonlocal steps
        if not rest:
            return True
        steps += 1
        if steps > AUSTRALIAN_STEPS:
            return False
        top = rest[0]
        for q in rest[1:]:
            if not allowed(top, q):
                continue
            remaining = [p for p in rest if p not in (top, q)]
            # A player left with nobody they may meet ends this branch at once.
            if any(not any(allowed(p, r) for r in remaining if r != p) for p in remaining):
                continue
            pairs.append((top, q))
            if search(remaining):
                return True
            pairs.pop()
        return False

    return list(pairs) if search(list(pool)) else None


def gibsons_of(fld: Field) -> list[PlayerId]:
    return gibsons(fld, fld.active)
