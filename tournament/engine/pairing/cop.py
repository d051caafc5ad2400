"""COP: the rounds that decide the prizes paired by who can still win what, as Woogles' COP
does it (woogles-io/liwords, pkg/pair/cop and pkg/pair/copdata).

The rounds left are simulated (`cop_sim`, read by `cop_data`) to find, for every player, the
best place they reach in at least `hopefulness_threshold` of the runs (their hopeful place),
the places they reach at all, who is Gibsonized and whether the leader has lost control of the
event to a contender. Then constraints (`CONSTRAINTS`) force or forbid pairs, weights
(`WEIGHTS`) price the others,
and a minimum-weight perfect matching pairs the round. Every pair carries its reasons, and the
simulation's table (each player's chance of each prize place) goes with the pairings.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, cast

from tournament.engine.pairing.cop_data import (
    OPTIONS,
    CopParams,
    Forced,
    Precomp,
    factor3,
    percent,
    precompute,
    read_params,
)
from tournament.engine.pairing.draft import Draft, Table
from tournament.engine.pairing.history import Field
from tournament.engine.pairing.matching import min_cost_matching, unpairable
from tournament.engine.pairing.messages import Message
from tournament.engine.pairing.model import PairingError, SimulationRow, SimulationTable
from tournament.engine.pairing.systems import pair_reasons
from tournament.engine.standings import PlayerId

MAJOR = 10**9
MINOR = MAJOR // 1000
LOWEST_CONTENDER_ONLY_ROUNDS = 4  # this many rounds left or fewer: the leader plays one player
FULL_GRAPH = 64  # up to this many players to pair, every pair is a candidate (as Woogles does)
NEIGHBOURS = 16  # beyond: the nearest allowed players each way, and the contenders' reach

# --------------------------------------------------------------------------- the round


@dataclass
class Round:
    """Everything the constraints and weights read, by place (rank); the bye is place n."""

    fld: Field
    params: CopParams
    pre: Precomp
    n: int
    add_bye: bool
    lowest_abs_casher: int
    lowest_hope_casher: int
    rounds_left: int
    pairings_left: int
    gibson_gets_bye: bool
    prepaired: dict[int, int]  # rank -> rank (itself: a bye)
    factor3: Forced | None
    hope_override: dict[int, int] = field(default_factory=dict)

    @property
    def bye(self) -> int:
        return self.n

    def gibsonized(self, r: int) -> bool:
        return r < self.n and self.pre.results.gibsonized[r]

    def group(self, r: int) -> int:
        return self.pre.results.gibson_groups[r] if r < self.n else 0

    def player(self, r: int) -> PlayerId:
        return self.pre.order[r]

    def met(self, i: int, j: int) -> int:
        if j == self.bye:
            return self.fld.byes(self.player(i))
        return self.fld.times_met(self.player(i), self.player(j))

    def player_class(self, r: int) -> int:
        return self.params.player_classes.get(self.player(r), 0)


Constraint = Callable[[Round], tuple[list[tuple[int, int, Message]], list[tuple[int, int]]]]


def _prepaired_rule(rd: Round) -> tuple[list[tuple[int, int, Message]], list[tuple[int, int]]]:
    nodes = rd.n + rd.add_bye
    return [], [(r, j) for r in rd.prepaired for j in range(nodes)]


def _koth(rd: Round) -> tuple[list[tuple[int, int, Message]], list[tuple[int, int]]]:
    """The last round: king of the hill among those who can still cash, then among those who
    can still win a class prize."""
    if rd.rounds_left != 1:
        return [], []
    pre, params = rd.pre, rd.params
    nodes = rd.n + rd.add_bye
    forced: list[tuple[int, int, Message]] = []
    noncontender = 0
    r = 0
    while r < nodes - 1:
        if rd.lowest_abs_casher < r:
            noncontender = r
            break
        if rd.bye in (r, r + 1) or rd.gibsonized(r) or rd.gibsonized(r + 1):
            r += 1
            continue
        forced.append((r, r + 1, Message("cop_koth", places=params.place_prizes)))
        r += 2
    n = rd.n
    cume = params.gibson_spread * 2
    for index, prizes in enumerate(params.class_prizes):
        cls = index + 1
        available = prizes
        for above in range(noncontender):
            if rd.player_class(above) == cls and pre.lowest[above] >= params.place_prizes:
                available -= 1
        if available < 1:
            continue
        ri = noncontender
        ahead = 0
        to_catch = -1
        while True:
            while ri < n and rd.player_class(ri) != cls:
                ri += 1
            rj = ri + 1
            while rj < n and rd.player_class(rj) != cls:
                rj += 1
            if rj >= n:
                break
            if not pre.sim.can_catch(1, cume, ri, rj):
                ri = rj
                ahead += 1
                if ahead == available:
                    break
                continue
            left = available - ahead
            if left == 2:
                to_catch = rj
            elif left == 1:
                to_catch = ri
            elif to_catch >= 0 and not pre.sim.can_catch(1, cume, to_catch, rj):
                break
            why = Message("cop_class_koth", cls=cls, prizes=prizes)
            forced.append((ri, rj, why))
            ahead += 2
            ri = rj + 1
    return forced, []


def _control_loss(rd: Round) -> tuple[list[tuple[int, int, Message]], list[tuple[int, int]]]:
    """The leader plays the lowest contender they have lost control to (or, with more than
    four rounds left after the first such round, that one or the one above)."""
    child = rd.pre.destinys_child
    if child < 0 or rd.factor3 is not None:
        return [], []
    params = rd.params
    also_above = (
        rd.rounds_left > LOWEST_CONTENDER_ONLY_ROUNDS
        and params.control_loss_activation_round != rd.fld.round_number
    )
    nodes = rd.n + rd.add_bye
    disallowed = [
        (0, r) for r in range(1, nodes) if not (r == child or (also_above and r == child - 1))
    ]
    return [], disallowed


def _gibson_groups(rd: Round) -> tuple[list[tuple[int, int, Message]], list[tuple[int, int]]]:
    groups = [rd.group(r) for r in range(rd.n)]
    return [], [(i, j) for i in range(rd.n) for j in range(i + 1, rd.n) if groups[i] != groups[j]]


def _gibson_bye(rd: Round) -> tuple[list[tuple[int, int, Message]], list[tuple[int, int]]]:
    if not rd.gibson_gets_bye:
        return [], []
    return [], [(r, rd.bye) for r in range(rd.n) if not rd.gibsonized(r)]


def _top_down_bye(rd: Round) -> tuple[list[tuple[int, int, Message]], list[tuple[int, int]]]:
    if not rd.params.top_down_byes or not rd.add_bye or rd.gibson_gets_bye:
        return [], []
    fewest = rd.params.rounds + 1
    chosen = -1
    for r in range(rd.n):
        had = rd.met(r, rd.bye)
        if had < fewest:
            fewest, chosen = had, r
    return [(chosen, rd.bye, Message("cop_top_down_bye", had=fewest))], []


def _factor3_rule(rd: Round) -> tuple[list[tuple[int, int, Message]], list[tuple[int, int]]]:
    if rd.factor3 is None:
        return [], []
    return [(a, b, rd.factor3.reason) for a, b in rd.factor3.pairs], []


CONSTRAINTS: tuple[tuple[str, Constraint], ...] = (
    ("prepaired", _prepaired_rule),
    ("koth", _koth),
    ("control loss", _control_loss),
    ("Gibson groups", _gibson_groups),
    ("Gibson bye", _gibson_bye),
    ("top-down byes", _top_down_bye),
    ("factor 3", _factor3_rule),
)


# --------------------------------------------------------------------------- weights


def _rank_difference(rd: Round, i: int, j: int) -> int:
    diff = j - i
    if (
        rd.pairings_left * 4 <= rd.params.rounds
        and not rd.gibsonized(i)
        and (i <= rd.lowest_hope_casher)
    ):
        return 0  # the fourth quarter: cashers are paired by the casher weight alone
    if rd.gibsonized(i) or rd.gibsonized(j) or i >= rd.params.place_prizes:
        return diff * diff
    return diff * diff * diff


def _contender(rd: Round, i: int) -> int:
    return rd.hope_override.get(i, rd.pre.lowest_hope_nth[i])


def _pair_with_casher(rd: Round, i: int, j: int) -> int:
    if rd.gibsonized(i) or rd.gibsonized(j) or i > rd.lowest_hope_casher:
        return 0
    lowest = _contender(rd, i)
    if j <= lowest or (lowest == i and i == j - 1):
        if rd.pairings_left * 4 > rd.params.rounds:
            return 0
        return 2 * abs(lowest - j) ** 3
    return MAJOR  # j cannot hopefully catch i


def _gibson_cashers(rd: Round, i: int, j: int) -> int:
    if rd.group(i) != 0 or rd.group(j) != 0 or (rd.gibsonized(i) and rd.gibsonized(j)):
        return 0
    if (rd.gibsonized(i) and j <= rd.lowest_abs_casher) or (
        rd.gibsonized(j) and i <= rd.lowest_abs_casher
    ):
        return MAJOR  # a Gibsonized player against someone who can still cash
    return 0


def _repeats(rd: Round, i: int, j: int) -> int:
    unit = 4 * int((rd.n / 3.0) ** 3)
    return ((1 << rd.met(i, j)) - 1) * unit


def _back_to_back(rd: Round, i: int, j: int) -> int:
    if i <= rd.lowest_hope_casher or j == rd.bye:
        return 0
    return MINOR if rd.fld.last_opponent(rd.player(i)) == rd.player(j) else 0


def _bye_repeats(rd: Round, i: int, j: int) -> int:
    if rd.params.allow_repeat_byes or j != rd.bye:
        return 0
    return MAJOR * rd.met(i, j)


WEIGHTS: tuple[tuple[str, Callable[[Round, int, int], int]], ...] = (
    ("rank difference", _rank_difference),
    ("pairing with a casher", _pair_with_casher),
    ("Gibson v casher", _gibson_cashers),
    ("repeats", _repeats),
    ("back-to-back", _back_to_back),
    ("bye repeats", _bye_repeats),
)


# --------------------------------------------------------------------------- pairing


def pair_cop(fld: Field) -> Draft:
    params = read_params(fld)
    rng = random.Random(params.seed)
    pre = precompute(fld, params, rng)
    f3 = factor3(fld, params, pre)
    rd = _round(fld, params, pre, f3)
    draft = Draft()
    draft.simulation = _table(fld, params, pre)
    draft.notes.extend(_notes(fld, params, pre, f3))

    forced: dict[tuple[int, int], Message] = {}
    disallowed: dict[tuple[int, int], str] = {}
    nodes = rd.n + rd.add_bye
    for name, rule in CONSTRAINTS:
        made, barred = rule(rd)
        for a, b in barred:
            disallowed.setdefault(_key(a, b), name)
        for a, b, why in made:
            # A forced pair: neither of the two may meet anyone else.
            forced.setdefault(_key(a, b), why)
            for x in (a, b):
                for y in range(nodes):
                    if y != x and _key(x, y) != _key(a, b):
                        disallowed.setdefault(_key(x, y), name)

    free = [r for r in range(rd.n) if r not in rd.prepaired]

    found = _match(rd, free, disallowed)
    if found is not None:
        # A chosen pair the casher weight barred: widen that player's contenders and retry.
        widened = {}
        for i, j in [*found[0], *([(found[1], rd.bye)] if found[1] is not None else [])]:
            if _pair_with_casher(rd, i, j) >= MAJOR and _contender(rd, i) + 1 < rd.n:
                widened[i] = _contender(rd, i) + 1
        if widened:
            rd.hope_override = widened
            found = _match(rd, free, disallowed)
    if found is None:
        raise PairingError(_overconstrained(rd, free, disallowed))
    pairs, bye, cost = found

    for r, other in sorted(rd.prepaired.items()):
        if other == r:
            draft.tables.append(Table(rd.player(r), None, [Message("cop_prepaired")]))
        elif r < other:
            reasons = [Message("cop_prepaired"), *pair_reasons(fld, rd.player(r), rd.player(other))]
            draft.tables.append(Table(rd.player(r), rd.player(other), reasons))
    for i, j in pairs:
        draft.tables.append(Table(rd.player(i), rd.player(j), _reasons(rd, i, j, forced)))
    if bye is not None:
        draft.tables.append(Table(rd.player(bye), None, _bye_reasons(rd, bye, forced)))
    draft.cost = cost
    return draft


def _match(
    rd: Round, free: list[int], disallowed: Mapping[tuple[int, int], str]
) -> tuple[list[tuple[int, int]], int | None, int] | None:
    """The minimum-weight perfect matching of the free places (and the bye), or None."""

    def weigh(i: int, j: int) -> int | None:
        if _key(i, j) in disallowed:
            return None
        return sum(w(rd, i, j) for _, w in WEIGHTS)

    # Woogles matches on the complete graph. Past FULL_GRAPH places that is slow in Python
    # (networkx's blossom: 15 s for 300 players), and needless: the rank difference is cubed,
    # so the best pairs are near each other but for the contenders and their lowest
    # contender, which `extra` adds; the neighbourhoods double when no perfect matching is found.
    position = {r: k for k, r in enumerate(free)}

    def extra(k: int) -> list[int]:
        r = free[k]
        if r > rd.lowest_hope_casher:
            return []
        reach = min(rd.n - 1, _contender(rd, r) + 1)
        return [position[j] for j in range(r + 1, reach + 1) if j in position]

    matched = min_cost_matching(
        free,
        lambda a, b: weigh(*_key(cast(int, a), cast(int, b))),
        neighbours=len(free) if len(free) <= FULL_GRAPH else NEIGHBOURS,
        extra=extra,
        bye_cost=(lambda r: weigh(cast(int, r), rd.bye)) if rd.add_bye else None,
    )
    if matched is None:
        return None
    pairs = [_key(cast(int, a), cast(int, b)) for a, b in matched.pairs]
    bye = None if matched.bye is None else cast(int, matched.bye)
    return pairs, bye, matched.cost


def _key(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def _round(fld: Field, params: CopParams, pre: Precomp, f3: Forced | None) -> Round:
    n = len(pre.order)
    rank = {p: r for r, p in enumerate(pre.order)}
    prepaired: dict[int, int] = {}
    forced_byes = 0
    for a, b in params.prepaired:
        ra = rank[a]
        rb = ra if b is None else rank[b]
        prepaired[ra], prepaired[rb] = rb, ra
        forced_byes += b is None
    add_bye = (n - forced_byes) % 2 == 1
    lowest_abs = 0
    for r, place in enumerate(pre.highest):
        if place < params.place_prizes:
            lowest_abs = r
    results = pre.results
    gibson_gets_bye = add_bye and any(
        results.gibsonized[r] and results.gibson_groups[r] == 0 for r in range(n)
    )
    return Round(
        fld=fld,
        params=params,
        pre=pre,
        n=n,
        add_bye=add_bye,
        lowest_abs_casher=lowest_abs,
        lowest_hope_casher=pre.lowest_hope_nth[params.place_prizes - 1],
        rounds_left=pre.initial_factor,
        pairings_left=params.rounds - (fld.round_number - 1),
        gibson_gets_bye=gibson_gets_bye,
        prepaired=prepaired,
        factor3=f3,
    )


def _overconstrained(rd: Round, free: list[int], disallowed: Mapping[tuple[int, int], str]) -> str:
    nodes = free + ([rd.bye] if rd.add_bye else [])

    def allowed(a: PlayerId, b: PlayerId) -> bool:
        return _key(cast(int, a), cast(int, b)) not in disallowed

    left = [cast(int, r) for r in unpairable(nodes, allowed) if r != rd.bye]
    names = ", ".join(rd.fld.name(rd.player(r)) for r in left) or "some players"
    return (
        f"Round {rd.fld.round_number} cannot be paired by COP: there are too many constraints "
        f"(players paired by hand, control loss, Gibson groups, king of the hill); {names} "
        "would be left unpaired. Change the pairs made by hand, or pair the round by hand."
    )


def _reasons(rd: Round, i: int, j: int, forced: Mapping[tuple[int, int], Message]) -> list[Message]:
    fld, pre = rd.fld, rd.pre
    a, b = rd.player(i), rd.player(j)
    out: list[Message] = []
    why = forced.get((i, j))
    if why is not None:
        out.append(why)
    elif rd.factor3 is None and i == 0 and pre.destinys_child == j:
        out.append(_control_loss_message(rd))
    elif rd.factor3 is None and i == 0 and pre.destinys_child == j + 1:
        out.append(
            Message(
                "cop_control_loss_above",
                leader=fld.name(pre.order[0]),
                player=fld.name(b),
                lowest=fld.name(pre.order[pre.destinys_child]),
            )
        )
    if rd.group(i) != 0 and rd.group(i) == rd.group(j):
        out.append(Message("cop_gibson_group", group=rd.group(i)))
    for r, who in ((i, a), (j, b)):
        if rd.gibsonized(r):
            out.append(Message("gibson_settled", player=fld.name(who), place=r + 1))
    casher = _pair_with_casher(rd, i, j)
    if casher >= MAJOR:
        out.append(Message("cop_cannot_catch", high=fld.name(a), low=fld.name(b)))
    elif not rd.gibsonized(i) and i <= rd.lowest_hope_casher and why is None:
        out.append(
            Message(
                "cop_hopeful",
                player=fld.name(a),
                place=pre.hopeful[i] + 1,
                other=fld.name(b),
                other_place=pre.hopeful[j] + 1,
            )
        )
    out.extend(pair_reasons(fld, a, b))
    return out


def _bye_reasons(rd: Round, r: int, forced: Mapping[tuple[int, int], Message]) -> list[Message]:
    why = forced.get((r, rd.bye))
    if why is not None:
        return [why]
    player = rd.fld.name(rd.player(r))
    if rd.gibson_gets_bye:
        return [Message("cop_gibson_bye", player=player, place=r + 1)]
    return [Message("cop_bye", player=player, had=rd.met(r, rd.bye))]


def _control_loss_message(rd: Round) -> Message:
    pre = rd.pre
    control = pre.control
    assert control is not None
    child = pre.destinys_child
    sims = rd.params.control_loss_sims
    total = pre.results.total
    return Message(
        "cop_control_loss",
        leader=rd.fld.name(pre.order[0]),
        chance=percent(pre.results.final_ranks[0][0], total),
        player=rd.fld.name(pre.order[child]),
        vs_first=percent(control.vs_first.get(child, 0), sims),
        vs_factor=percent(control.vs_factor.get(child, 0), sims),
    )


def _notes(fld: Field, params: CopParams, pre: Precomp, f3: Forced | None) -> list[Message]:
    results = pre.results
    notes = [
        Message(
            "cop_summary",
            sims=results.total,
            left=pre.initial_factor,
            seed=params.seed,
            leader=fld.name(pre.order[0]),
            chance=percent(results.final_ranks[0][0], results.total),
            threshold=round(100 * params.hopefulness_threshold, 2),
        )
    ]
    settled = [fld.describe(pre.order[r]) for r in range(len(pre.order)) if results.gibsonized[r]]
    if settled:
        notes.append(
            Message(
                "gibsonized", players=settled, left=pre.initial_factor, spread=params.gibson_spread
            )
        )
    if pre.destinys_child >= 0 and f3 is None:  # factor 3 pairs the top six instead
        notes.append(
            Message(
                "cop_control_loss_note",
                leader=fld.name(pre.order[0]),
                player=fld.name(pre.order[pre.destinys_child]),
            )
        )
    return notes


def _table(fld: Field, params: CopParams, pre: Precomp) -> SimulationTable:
    results = pre.results
    total = results.total
    places = params.place_prizes
    rows = [
        SimulationRow(
            player=p,
            chances=[results.final_ranks[r][k] / total for k in range(places)],
            hopeful=pre.hopeful[r] + 1,
            lowest=pre.lowest[r] + 1,
            gibsonized=results.gibsonized[r],
        )
        for r, p in enumerate(pre.order)
    ]
    return SimulationTable(sims=total, places=places, rows=rows, seed=params.seed)


def options_of(values: Mapping[str, Any]) -> dict[str, Any]:
    """The COP options set in `values` (a JSON object), unknown keys refused."""
    unknown = sorted(set(values) - set(OPTIONS))
    if unknown:
        raise PairingError(
            f"COP takes no option {', '.join(repr(k) for k in unknown)} "
            f"(its options: {', '.join(OPTIONS)})"
        )
    return dict(values)


__all__ = ["OPTIONS", "options_of", "pair_cop"]
