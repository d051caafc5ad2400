"""Fixed schedules: round robins on Berger tables, and Initial Fontes.

Berger tables are FIDE's: with n players (n even; an odd field adds a bye as player n), round r
pairs the players whose numbers add up to r + 1 modulo n - 1, and player n meets the one left
over. In round 1 of eight: 1-8, 2-7, 3-6, 4-5; the NASPA Director Manual's seven-player table
starts "1-BYE 2-7 3-6 4-5" the same way. Who goes first is the table's white: player n in even
rounds; otherwise, of a and b, the one for whom (other - self) modulo n - 1 is odd. Each cycle
after the first repeats the table with the first player swapped.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from tournament.engine.pairing.draft import Draft, Table
from tournament.engine.pairing.history import Field
from tournament.engine.pairing.messages import Message
from tournament.engine.pairing.model import PairingError
from tournament.engine.standings import Player, PlayerId


def berger_round(n: int, r: int) -> list[tuple[int, int]]:
    """Round `r` (1-based, 1..n-1) of the Berger table for `n` players (even), as (first,
    second) pairs of 1-based player numbers, board 1 first."""
    if n < 2 or n % 2:
        raise ValueError(f"a Berger table needs an even number of players, not {n}")
    if not 1 <= r <= n - 1:
        raise ValueError(f"a Berger table for {n} has rounds 1 to {n - 1}, not {r}")
    m = n - 1

    def number(residue: int) -> int:
        return m if residue % m == 0 else residue % m

    pairs: list[tuple[int, int]] = []
    # Player n meets the player whose double is r + 1 modulo n - 1.
    lone = next(a for a in range(1, n) if (2 * a) % m == (r + 1) % m)
    pairs.append((n, lone) if r % 2 == 0 else (lone, n))
    for a in range(1, n):
        b = number(r + 1 - a)
        if a < b and a != lone:
            first = a if (b - a) % m % 2 == 1 else b
            pairs.append((first, b if first == a else a))
    # Board order as FIDE prints it: player n's board first, then the lone player's neighbours
    # on the circle (lone + k against lone - k), nearest first.
    head, rest = pairs[0], pairs[1:]
    rest.sort(key=lambda p: min((p[0] - lone) % m, (p[1] - lone) % m))
    return [head, *rest]


def rr_roster(fld: Field, start: int) -> list[PlayerId]:
    """The round robin's players by seed: everyone still in the division when it starts."""
    players = [
        p for p in fld.players if p.withdrawn_from_round is None or p.withdrawn_from_round > start
    ]
    return [p.id for p in sorted(players, key=_seed_key(fld.players))]


def _seed_key(players: Sequence[Player]) -> Callable[[Player], tuple[int, int]]:
    order = {p.id: i for i, p in enumerate(players)}
    return lambda p: (p.seed if p.seed else order[p.id] + 1, order[p.id])


def pair_round_robin(fld: Field, *, double: bool) -> Draft:
    start = int(fld.rules.options.get("start", 1))
    if start > fld.round_number:
        raise PairingError(
            f"the round robin starts in round {start}, after round {fld.round_number}"
        )
    roster = rr_roster(fld, start)
    return _fixed_tables(fld, [roster], fld.round_number - start + 1, double=double, label="rr")


def _fixed_tables(
    fld: Field, groups: Sequence[Sequence[PlayerId | None]], k: int, *, double: bool, label: str
) -> Draft:
    """Round k (1-based) of each group's Berger table; `label` names the table in the reasons
    ("rr" or "fontes", as `messages.LABELS` writes them)."""
    draft = Draft()
    active = set(fld.active)
    for group in groups:
        slots: list[PlayerId | None] = list(group)
        if len(slots) % 2:
            slots.append(None)
        n = len(slots)
        if n < 2:
            if slots and slots[0] is not None and slots[0] in active:
                draft.tables.append(Table(slots[0], None, [Message("table_alone", label=label)]))
            continue
        cycle, within = divmod(k - 1, n - 1)
        if cycle and not double:
            draft.notes.append(
                Message(
                    "table_again",
                    label=label,
                    players=len(group),
                    rounds=n - 1,
                    round=fld.round_number,
                    cycle=cycle + 1,
                )
            )
        elif cycle >= 2:
            draft.notes.append(Message("table_double_over", label=label, round=fld.round_number))
        for x, y in berger_round(n, within + 1):
            a, b = slots[x - 1], slots[y - 1]
            if cycle % 2:
                a, b = b, a
            where = {"label": label, "k": k, "x": x, "y": y}
            if a is None or b is None:
                present = a if b is None else b
                if present is not None and present in active:
                    draft.tables.append(Table(present, None, [Message("table_bye", **where)]))
                continue
            if a in active and b in active:
                draft.tables.append(Table(a, b, [Message("table_of", **where)], first_fixed=True))
            else:
                gone = a if a not in active else b
                present = b if gone == a else a
                if present in active:
                    why = Message("table_opponent_withdrawn", **where)
                    draft.tables.append(Table(present, None, [why]))
                    draft.notes.append(
                        Message(
                            "table_opponent_gone", player=fld.name(present), gone=fld.name(gone)
                        )
                    )
    missing = [p for p in fld.active if p not in draft.taken()]
    if missing:
        # Players who joined after the schedule was drawn: paired among themselves by place.
        for i in range(0, len(missing) - 1, 2):
            draft.tables.append(
                Table(missing[i], missing[i + 1], [Message("table_late_paired", label=label)])
            )
        if len(missing) % 2:
            draft.tables.append(Table(missing[-1], None, [Message("table_late_odd", label=label)]))
        draft.notes.append(
            Message("table_joined", players=[fld.name(p) for p in missing], label=label)
        )
    return draft


# --------------------------------------------------------------------------- Initial Fontes


def fontes_groups(fld: Field, rounds: int, start: int) -> list[list[PlayerId | None]]:
    """Groups of `rounds` + 1 players, one from each band of seeds (tsh §3.3).

    Players are taken in pre-event order (rating, then seed) and cut into `rounds` + 1 bands;
    group j gets the j-th player of each band (`draw = 'straight'`, the default), or the bands
    alternate direction (`'snaked'`), or are shuffled with `seed` (`'random'`, tsh's default
    draw). With an odd field a bye joins the bottom band. What does not divide evenly joins the
    last group, which then plays `rounds` rounds of its own longer Berger table: no rematches.
    """
    size = rounds + 1
    if size % 2:
        raise PairingError(
            f"Initial Fontes needs an odd number of rounds (groups of an even size), not {rounds}"
        )
    players = [
        p for p in fld.players if p.withdrawn_from_round is None or p.withdrawn_from_round > start
    ]
    order = {p.id: i for i, p in enumerate(fld.players)}
    seeded = sorted(players, key=lambda p: (-p.rating, p.seed or order[p.id] + 1, order[p.id]))
    slots: list[PlayerId | None] = [p.id for p in seeded]
    if len(slots) % 2:
        slots.append(None)
    count = max(1, len(slots) // size)
    main, leftover = slots[: count * size], slots[count * size :]
    bands = [main[i * count : (i + 1) * count] for i in range(size)]
    draw = str(fld.rules.options.get("draw", "straight"))
    if draw == "snaked":
        bands = [b if i % 2 == 0 else b[::-1] for i, b in enumerate(bands)]
    elif draw == "random":
        rng = random.Random(fld.rules.options.get("seed", 0))
        bands = [list(b) for b in bands]
        for b in bands[1:]:
            rng.shuffle(b)
    elif draw != "straight":
        raise PairingError(
            f"an Initial Fontes draw is 'straight', 'snaked' or 'random', not {draw!r}"
        )
    groups: list[list[PlayerId | None]] = [
        [band[j] for band in bands if j < len(band)] for j in range(count)
    ]
    groups[-1].extend(leftover)
    return groups  # None: the bye's slot in a group


def pair_fontes(fld: Field) -> Draft:
    start = int(fld.rules.options.get("start", 1))
    rounds = int(fld.rules.options.get("rounds", 3))
    k = fld.round_number - start + 1
    if not 1 <= k <= rounds:
        raise PairingError(
            f"Initial Fontes covers rounds {start} to {start + rounds - 1}, "
            f"not round {fld.round_number}"
        )
    groups = fontes_groups(fld, rounds, start)
    draft = _fixed_tables(fld, groups, k, double=False, label="fontes")
    sizes = sorted({len(g) for g in groups})
    draft.notes.append(Message("fontes", k=k, rounds=rounds, groups=len(groups), sizes=sizes))
    return draft
