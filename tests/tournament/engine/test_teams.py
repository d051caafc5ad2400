"""Team events: a 4-team round robin paired, interleaved, and its team standings."""

from __future__ import annotations

import itertools

import pytest

from tournament.engine.pairing.teamrr import team_round_robin
from tournament.engine.teams import Record, TeamError, team_standings

TEAMS = {
    "Lions": ["l1", "l2", "l3"],
    "Owls": ["o1", "o2", "o3"],
    "Foxes": ["f1", "f2", "f3"],
    "Crows": ["c1", "c2", "c3"],
}
TEAM_OF = {p: t for t, ps in TEAMS.items() for p in ps}


def _opposing(pairs: list) -> set[frozenset[str]]:
    return {frozenset((TEAM_OF[a], TEAM_OF[b])) for a, b in pairs}


def test_a_4_team_round_robin_meets_every_player_of_every_other_team_once() -> None:
    rounds = [team_round_robin(TEAMS, n) for n in range(1, 10)]  # 3 team rounds x 3 players
    with pytest.raises(TeamError, match="rounds 1 to 9"):
        team_round_robin(TEAMS, 10)
    met = [frozenset(pair) for pairs in rounds for pair in pairs]
    assert len(met) == len(set(met)) == 3 * 3 * 6  # 6 team matches of 9 games, no rematch
    everyone = [p for ps in TEAMS.values() for p in ps]
    for pairs in rounds:
        assert sorted(p for pair in pairs for p in pair) == sorted(everyone)  # all play
        assert all(TEAM_OF[a] != TEAM_OF[b] for a, b in pairs)  # never a team-mate
        # A round is whole team matches: each team meets one other team's players only.
        assert len(_opposing(pairs)) == 2
    # Interleaved: rounds 1-3 go through all three opposing teams before a team meets again.
    assert set().union(*(_opposing(rounds[n]) for n in range(3))) == {
        frozenset(pair) for pair in itertools.combinations(TEAMS, 2)
    }
    assert _opposing(rounds[3]) == _opposing(rounds[0])
    # Not interleaved: the same two teams meet three rounds running.
    blocks = [_opposing(team_round_robin(TEAMS, n, interleave=False)) for n in (1, 2, 3)]
    assert blocks[0] == blocks[1] == blocks[2]
    # Each player goes first in about half their games.
    firsts = {p: sum(1 for pairs in rounds for a, _ in pairs if a == p) for p in everyone}
    assert all(4 <= n <= 5 for n in firsts.values()), firsts


def test_team_standings_sum_wins_and_spread_in_the_order_chosen() -> None:
    records = [
        Record("l1", "Lions", 2, 1, 150),
        Record("l2", "Lions", 1, 2, -20),
        Record("o1", "Owls", 2, 1, -40),
        Record("o2", "Owls", 2, 1, 10),
        Record("f1", "Foxes", 1, 2, 300),
        Record("f2", "Foxes", 1, 2, 0),
        Record("x", "", 3, 0, 500),  # no team: left out
    ]
    by_wins = team_standings(records, "wins")
    assert [(r.rank, r.team, r.wins, r.losses, r.spread) for r in by_wins] == [
        (1, "Owls", 4, 2, -30),
        (2, "Lions", 3, 3, 130),
        (3, "Foxes", 2, 4, 300),
    ]
    by_spread = team_standings(records, "spread")
    assert [r.team for r in by_spread] == ["Foxes", "Lions", "Owls"]
    level = team_standings([Record("a", "A", 1, 0, 5), Record("b", "B", 1, 0, 5)])
    assert [(r.rank, r.team) for r in level] == [(1, "A"), (1, "B")]
    with pytest.raises(TeamError, match="order 'points'"):
        team_standings(records, "points")


def test_an_odd_number_of_teams_gives_a_team_a_bye_and_uneven_teams_are_refused() -> None:
    three = {"A": ["a1", "a2"], "B": ["b1", "b2"], "C": ["c1", "c2"]}
    pairs = team_round_robin(three, 1)
    assert sum(1 for _, b in pairs if b is None) == 2
    with pytest.raises(TeamError, match="as many players"):
        team_round_robin({"A": ["a1", "a2"], "B": ["b1"]}, 1)


def test_the_team_round_robin_is_a_pairing_system_of_the_registry() -> None:
    from tests.tournament.engine.pairing_support import field, games_of
    from tournament.engine.pairing import PairingError, PairingRules, pair_round

    names = [p for ps in TEAMS.values() for p in ps]
    players = field(*names)
    rules = PairingRules(groups=TEAM_OF)
    played: list = []
    seen: set[frozenset[str]] = set()
    for n in range(1, 10):
        result = pair_round(players, played, n, "teamrr", rules)
        games = {frozenset(p.players) for p in result.pairings}
        assert all(TEAM_OF[a] != TEAM_OF[b] for a, b in map(tuple, games))
        assert not games & seen  # no rematch in nine rounds
        seen |= games
        played.append(games_of(result))
    assert len(seen) == 54
    with pytest.raises(PairingError, match="needs the players' teams"):
        pair_round(players, [], 1, "teamrr", PairingRules())
