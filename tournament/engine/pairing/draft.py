"""What every system hands back before tables and firsts are settled, and the shared steps:
the bye, Gibsonization, and pairing a group of players by a cost."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace

from tournament.engine.pairing.contention import best_finishes, gibsons
from tournament.engine.pairing.history import Field
from tournament.engine.pairing.matching import Matched, levels, min_cost_matching, unpairable
from tournament.engine.pairing.messages import Message, limit_words
from tournament.engine.pairing.model import PairingError, PairingWarning, SimulationTable
from tournament.engine.standings import PlayerId


@dataclass
class Table:
    a: PlayerId
    b: PlayerId | None  # None: a bye for `a`
    reasons: list[Message] = field(default_factory=list)
    first_fixed: bool = False  # a round robin's table says who goes first: `a`


@dataclass
class Draft:
    tables: list[Table] = field(default_factory=list)
    notes: list[Message] = field(default_factory=list)
    warnings: list[PairingWarning] = field(default_factory=list)
    cost: int = 0  # what the matchings cost, in their own units (for comparing solvers)
    simulation: SimulationTable | None = None  # a system that simulates the rounds left (COP)

    def taken(self) -> set[PlayerId]:
        return {p for t in self.tables for p in (t.a, t.b) if p is not None}


# --------------------------------------------------------------------------- byes


def bye_preference(fld: Field, pool: Sequence[PlayerId]) -> list[PlayerId]:
    """Who should get the bye, best first: the fewest byes, then the lowest placed (tsh's
    `bye_method = 'bottom_up'`)."""
    return sorted(pool, key=lambda p: (fld.byes(p), -fld.position[p]))


def bye_reason(fld: Field, player: PlayerId, pool: Sequence[PlayerId]) -> Message:
    fewest = min(fld.byes(p) for p in pool)
    had = fld.byes(player)
    if had > fewest:
        return Message("bye_more", player=fld.name(player), had=had)
    return Message("bye_lowest", had=had)


# --------------------------------------------------------------------------- matching a group


@dataclass
class Pricing:
    """A system's idea of a good pair, as levels from least to most important."""

    terms: Callable[[PlayerId, PlayerId], tuple[int, ...]]  # one number per level, low first
    bounds: tuple[int, ...]  # what each level can add up to over the round
    extra: Callable[[int], Iterable[int]] | None = None


def match_group(
    fld: Field,
    pool: Sequence[PlayerId],
    pricing: Pricing,
    draft: Draft,
    *,
    what: Message,
    reasons: Callable[[PlayerId, PlayerId], list[Message]],
) -> None:
    """Pair `pool` (standings order), with a bye if it is odd; raise PairingError if the repeat
    limit cannot be met (unless the rules' options say `relax_repeats`)."""
    relax = bool(fld.rules.options.get("relax_repeats", False))
    preference = bye_preference(fld, pool) if len(pool) % 2 else []
    bye_rank = {p: i for i, p in enumerate(preference)}
    matched = _match(fld, pool, pricing, bye_rank, over_limit=False)
    if matched is None and relax:
        matched = _match(fld, pool, pricing, bye_rank, over_limit=True)
        if matched is not None:
            over = [(a, b) for a, b in matched.pairs if not fld.allowed(a, b)]
            if over:
                draft.notes.append(
                    Message(
                        "repeats_relaxed",
                        limit=fld.rules.max_repeats,
                        what=what,
                        pairs=[[fld.name(a), fld.name(b)] for a, b in over],
                    )
                )
    if matched is None:
        raise PairingError(_explain(fld, pool, what))
    draft.cost += matched.cost
    for a, b in matched.pairs:
        draft.tables.append(Table(a, b, reasons(a, b)))
    if matched.bye is not None:
        draft.tables.append(Table(matched.bye, None, [bye_reason(fld, matched.bye, pool)]))
        draft.notes.append(_bye_note(fld, matched.bye, pool))


def _bye_note(fld: Field, player: PlayerId, pool: Sequence[PlayerId]) -> Message:
    had = fld.byes(player)
    fewest = min(fld.byes(p) for p in pool)
    who = fld.describe(player)
    if had > fewest:
        return Message("has_bye_more", player=who)
    if had == 0:
        return Message("has_bye_none", player=who)
    return Message("has_bye_fewest", player=who, had=had)


def _match(
    fld: Field,
    pool: Sequence[PlayerId],
    pricing: Pricing,
    bye_rank: dict[PlayerId, int],
    *,
    over_limit: bool,
) -> Matched | None:
    n = len(pool)
    rules = fld.rules
    met_max = max(fld.met.values(), default=0)
    # levels: the system's own, then going over the repeat limit, the bye, a forbidden pair.
    pairs_bound = n // 2 + 1
    weights = levels(*pricing.bounds, pairs_bound * (met_max + 1), n + 1, pairs_bound)
    own = weights[: len(pricing.bounds)]
    w_over, w_bye, w_forbidden = weights[len(pricing.bounds) :]

    def cost(a: PlayerId, b: PlayerId) -> int | None:
        met = fld.times_met(a, b)
        over = met - rules.max_repeats
        if over > 0 and not over_limit:
            return None
        total = sum(w * t for w, t in zip(own, pricing.terms(a, b), strict=True))
        if over > 0:
            total += w_over * over
        if rules.forbidden(a, b):
            total += w_forbidden
        return total

    def counts(a: PlayerId, b: PlayerId) -> bool:
        return not rules.forbidden(a, b)

    def bye_cost(p: PlayerId) -> int | None:
        return w_bye * bye_rank[p] if p in bye_rank else None

    return min_cost_matching(
        pool,
        cost,
        neighbours=int(rules.options.get("neighbours", 8)),
        counts=counts,
        extra=pricing.extra,
        bye_cost=bye_cost if n % 2 else None,
    )


def _explain(fld: Field, pool: Sequence[PlayerId], what: str) -> str:
    limit = fld.rules.max_repeats
    left = unpairable(pool, lambda a, b: fld.allowed(a, b))
    stuck = [p for p in pool if all(not fld.allowed(p, q) for q in pool if q != p)]
    head = f"Round {fld.round_number} cannot be paired by {what} with {limit_words(limit)}: "
    if stuck:
        names = ", ".join(fld.name(p) for p in stuck)
        return (
            head + f"{names} {'has' if len(stuck) == 1 else 'have'} already met every other player "
            f"the limit allows ({len(pool) - 1} possible opponents). Allow more repeats, or pair "
            "the round by hand."
        )
    names = ", ".join(fld.name(p) for p in left) if left else "some players"
    return (
        head + f"whatever is tried, {names} would be left without an opponent they may still meet. "
        "Allow more repeats, or pair the round by hand."
    )


# --------------------------------------------------------------------------- Gibsonization


def gibsonize(fld: Field, pool: list[PlayerId], draft: Draft) -> list[PlayerId]:
    """Pair the players whose place is settled away from the contenders; return the rest."""
    found = gibsons(fld, pool)
    if not found:
        return pool
    rest = [p for p in pool if p not in found]
    draft.notes.append(
        Message(
            "gibsonized",
            players=[fld.describe(g) for g in found],
            left=fld.rounds_left,
            spread=fld.rules.gibson_spread_for(0),
        )
    )
    lowest = found[-1] if len(found) % 2 else None
    if lowest is not None:
        if len(pool) % 2 and fld.byes(lowest) <= min(fld.byes(p) for p in pool):
            place = fld.position[lowest] + 1
            draft.tables.append(
                Table(lowest, None, [Message("bye_gibson", player=fld.name(lowest), place=place)])
            )
            draft.notes.append(Message("gibson_takes_bye", player=fld.name(lowest)))
        else:
            victim, why = _victim(fld, lowest, rest)
            if victim is not None and why is not None:
                settled = Message(
                    "gibson_settled", player=fld.name(lowest), place=fld.position[lowest] + 1
                )
                draft.tables.append(Table(lowest, victim, [settled, why]))
                draft.notes.append(
                    Message(
                        "gibson_plays", player=fld.name(lowest), other=fld.name(victim), why=why
                    )
                )
                rest.remove(victim)
            else:
                rest.append(lowest)  # nobody left to play: the Gibson is paired with the rest
                rest.sort(key=lambda p: fld.position[p])
        found = found[:-1]
    if found:

        def terms(a: PlayerId, b: PlayerId) -> tuple[int, ...]:
            d = abs(fld.position[a] - fld.position[b])
            return (d, 2 * fld.times_met(a, b) + (fld.last_opponent(a) == b))

        bound = len(found) * len(fld.active)
        sub = Draft()
        pricing = Pricing(terms, (bound, (len(found) + 1) * (2 * fld.based_on + 2)))
        relaxed = fld.rules.options.get("relax_repeats")
        try:
            match_group(
                fld,
                found,
                pricing,
                sub,
                what=Message("by_gibson"),
                reasons=lambda a, b: _settled(fld, a, b),
            )
        except PairingError:
            if relaxed:
                raise
            # Gibsons meet each other whatever the repeat limit, as tsh pairs them (fewest repeats).
            loose = _with_options(fld, relax_repeats=True)
            match_group(
                loose,
                found,
                pricing,
                sub,
                what=Message("by_gibson"),
                reasons=lambda a, b: _settled(fld, a, b),
            )
        draft.tables.extend(sub.tables)
        draft.notes.extend(sub.notes)
    return rest


def _settled(fld: Field, a: PlayerId, b: PlayerId) -> list[Message]:
    return [
        Message(
            "gibsons_meet",
            a=fld.name(a),
            place_a=fld.position[a] + 1,
            b=fld.name(b),
            place_b=fld.position[b] + 1,
        )
    ]


def _victim(
    fld: Field, gibson: PlayerId, rest: list[PlayerId]
) -> tuple[PlayerId | None, Message | None]:
    if not rest:
        return None, None
    finishes = best_finishes(fld, [p for p in fld.active])
    last_prize = fld.last_prize_rank()
    out = [p for p in rest if finishes[p] > last_prize]
    rules = fld.rules

    def key(p: PlayerId) -> tuple[int, int, int]:
        return (
            int(rules.forbidden(gibson, p)),
            int(not fld.allowed(gibson, p)),
            fld.times_met(gibson, p),
        )

    if out:
        chosen = min(out, key=lambda p: (*key(p), fld.position[p]))
        met = fld.times_met(gibson, chosen)
        return chosen, Message("gibson_opponent_out", best=finishes[chosen], met=met)
    chosen = min(rest, key=lambda p: (*key(p), -fld.position[p]))
    return chosen, Message("gibson_opponent_lowest")


def _with_options(fld: Field, **options: object) -> Field:
    rules = replace(fld.rules, options={**fld.rules.options, **options})
    return replace(fld, rules=rules)
