"""A team round robin.

A team round robin has each team's players meet every player of every other team. Teams meet
by a Berger table (a bye team when their number is odd); in a team match of k players a
side, the i-th player of the one team (by seed) meets the (i + c)-th of the other in its c-th
cycle, so that k cycles meet everyone. Interleaved (Woogles' option, liwords issue #1311), the
rounds go through every opposing team before any team is met again: round n is the Berger
table's round ((n - 1) mod (T - 1)) + 1 in cycle (n - 1) div (T - 1); not interleaved, a team
plays all k rounds against one team before the next. Who goes first: whoever has
started fewer games so far.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tournament.engine.pairing.draft import Draft, Table
from tournament.engine.pairing.history import Field
from tournament.engine.pairing.model import PairingError
from tournament.engine.pairing.roundrobin import berger_round, rr_roster
from tournament.engine.teams import PlayerId, TeamError


def team_round_robin(
    teams: Mapping[str, Sequence[PlayerId]], round_number: int, interleave: bool = True
) -> list[tuple[PlayerId, PlayerId | None]]:
    """Round `round_number` (1-based) of a team round robin: (goes first, goes second) pairs;
    a team against the bye team has byes. Teams are taken in the order given, each team's
    players by seed; every team must have as many players."""
    names = list(teams)
    sizes = {len(teams[t]) for t in names}
    if len(names) < 2:
        raise TeamError("a team round robin needs two teams at least")
    if len(sizes) != 1 or 0 in sizes:
        raise TeamError("every team of a team round robin must have as many players")
    k = sizes.pop()
    slots: list[str | None] = [*names, None] if len(names) % 2 else list(names)
    team_rounds = len(slots) - 1
    total = team_rounds * k
    if not 1 <= round_number <= total:
        raise TeamError(f"a team round robin of these teams has rounds 1 to {total}")
    firsts: dict[PlayerId, int] = {}
    pairs: list[tuple[PlayerId, PlayerId | None]] = []
    # Each round's firsts go to whoever has started fewer games so far (the board's first side
    # when level): every round before this one is laid out again, the same each time.
    for n in range(round_number):
        pairs = []
        for p, q in _round(teams, slots, k, team_rounds, n, interleave):
            if q is not None and firsts.get(q, 0) < firsts.get(p, 0):
                p, q = q, p
            if q is not None:
                firsts[p] = firsts.get(p, 0) + 1
            pairs.append((p, q))
    return pairs


def _round(
    teams: Mapping[str, Sequence[PlayerId]],
    slots: list[str | None],
    k: int,
    team_rounds: int,
    n: int,
    interleave: bool,
) -> list[tuple[PlayerId, PlayerId | None]]:
    """Round n + 1's pairs, sides not yet ordered."""
    if interleave:
        table_round, cycle = n % team_rounds, n // team_rounds
    else:
        table_round, cycle = n // k, n % k
    pairs: list[tuple[PlayerId, PlayerId | None]] = []
    for x, y in berger_round(len(slots), table_round + 1):
        one, two = slots[x - 1], slots[y - 1]
        if one is None or two is None:
            alone = one if one is not None else two
            assert alone is not None
            pairs += [(p, None) for p in teams[alone]]
            continue
        for i, p in enumerate(teams[one]):
            q = teams[two][(i + cycle) % k]
            pairs.append((p, q) if i % 2 == 0 else (q, p))
    return pairs


def pair_team_round_robin(fld: Field) -> Draft:
    """The pairing registry's `teamrr`: the players' teams are the division's `groups` (its
    same-team avoidance), each team's players by seed, the teams by name; the table starts in
    the schedule entry's first round (`start`)."""
    start = int(fld.rules.options.get("start", 1))
    groups = fld.rules.groups
    if not groups:
        raise PairingError("a team round robin needs the players' teams: avoid the same team")
    teams: dict[str, list[PlayerId]] = {}
    for pid in rr_roster(fld, start):
        team = groups.get(pid) or ""
        if not team:
            raise PairingError(f"{fld.name(pid)} has no team: a team round robin needs one")
        teams.setdefault(team, []).append(pid)
    interleave = str(fld.rules.options.get("interleave", "yes")).lower() not in ("no", "0")
    try:
        pairs = team_round_robin(
            dict(sorted(teams.items())), fld.round_number - start + 1, interleave
        )
    except TeamError as error:
        raise PairingError(str(error)) from None
    draft = Draft()
    active = set(fld.active)
    for a, b in pairs:
        if a in active and (b is None or b in active):
            draft.tables.append(Table(a, b, [], first_fixed=b is not None))
    return draft
