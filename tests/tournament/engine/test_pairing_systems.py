"""Round robins, KOTH, factor, Initial Fontes, contention pairing, the Australian draw, and
schedules (including tsh's autopair lines from a real config)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from tests.tournament.engine.pairing_support import field, games_of, numbered, pairs, sets, win
from tournament.engine.pairing import (
    PairingError,
    PairingRules,
    Schedule,
    berger_round,
    pair_round,
    parse_schedule,
    schedule_from_autopair,
)
from tournament.engine.standings import Game, Player
from tournament.interchange.tsh import read_config_file

CONFIG = (
    Path(__file__).resolve().parents[4]
    / "shared/corpus/tsh/e4c5_team_pairings/tournament1_config.tsh"
)

# --------------------------------------------------------------------------- round robin


def test_berger_tables_are_fides() -> None:
    assert berger_round(6, 1) == [(1, 6), (2, 5), (3, 4)]
    assert berger_round(6, 2) == [(6, 4), (5, 3), (1, 2)]
    assert berger_round(6, 3) == [(2, 6), (3, 1), (4, 5)]
    assert berger_round(6, 4) == [(6, 5), (1, 4), (2, 3)]
    assert berger_round(6, 5) == [(3, 6), (4, 2), (5, 1)]
    assert berger_round(8, 2) == [(8, 5), (6, 4), (7, 3), (1, 2)]


def _play_out(
    players: list[Player], system: str, rounds: int, **options: object
) -> list[list[Game]]:
    played: list[list[Game]] = []
    rules = PairingRules(max_repeats=9, options=options)
    for number in range(1, rounds + 1):
        played.append(games_of(pair_round(players, played, number, system, rules)))
    return played


@pytest.mark.parametrize("count", range(4, 21))
def test_a_round_robin_meets_everyone_once_with_byes_balanced(count: int) -> None:
    players = numbered(count)
    slots = count + count % 2
    played = _play_out(players, "rr", slots - 1)

    met: Counter[frozenset[object]] = Counter()
    byes: Counter[object] = Counter()
    for games in played:
        seen = [p for g in games for p in (g.player, g.opponent) if p is not None]
        assert sorted(seen) == list(range(1, count + 1))  # everyone once a round
        for g in games:
            if g.opponent is None:
                byes[g.player] += 1
            else:
                met[frozenset((g.player, g.opponent))] += 1
    assert len(met) == count * (count - 1) // 2
    assert set(met.values()) == {1}
    assert byes == (Counter(range(1, count + 1)) if count % 2 else Counter())


def test_round_one_of_a_seven_player_round_robin_is_the_naspa_table() -> None:
    result = pair_round(numbered(7), [], 1, "rr")

    assert [(p.first, p.second) for p in result.pairings] == [(2, 7), (3, 6), (4, 5), (1, None)]


def test_a_double_round_robin_plays_the_table_twice_with_firsts_swapped() -> None:
    players = numbered(6)
    played = _play_out(players, "rr2", 10)

    first_half = {(g.player, g.opponent) for r in played[:5] for g in r}
    second_half = {(g.opponent, g.player) for r in played[5:] for g in r}
    assert first_half == second_half
    assert len(first_half) == 15


def test_a_round_robin_block_counts_from_its_first_round() -> None:
    players = numbered(4)
    before = _play_out(players, "swiss", 2)

    result = pair_round(players, before, 3, "rr", PairingRules(max_repeats=9, options={"start": 3}))

    assert [(p.first, p.second) for p in result.pairings] == [(1, 4), (2, 3)]


def test_a_withdrawn_players_round_robin_opponent_gets_a_bye() -> None:
    players = numbered(4)
    players[3] = Player(4, "P4", 1996, 4, withdrawn_from_round=2)
    played = _play_out(players[:], "rr", 1)

    result = pair_round(players, played, 2, "rr")

    assert pairs(result) == sets([4 - 1], [1, 2])  # round 2: 4-3 and 1-2; 4 has gone
    assert any("withdrawn" in n for n in result.notes)


# --------------------------------------------------------------------------- KOTH and factor


def test_king_of_the_hill_pairs_neighbours() -> None:
    result = pair_round(field(*"ABCDEF"), [], 1, "koth")

    assert pairs(result) == sets("AB", "CD", "EF")


def test_king_of_the_hill_steps_around_a_rematch() -> None:
    players = field(*"ABCDEF")
    rounds = [[win("A", "B"), win("C", "D"), win("E", "F")]]

    # A C E on one win; B D F on none: A-C, E-B, D-F are the nearest fresh pairs ... by place
    # A C E B D F: A-C is places 1-2, E-B 3-4, D-F 5-6, and none of them has met.
    result = pair_round(players, rounds, 2, "koth")
    assert pairs(result) == sets("AC", "BE", "DF")

    rounds.append([win("A", "C"), win("E", "B"), win("D", "F")])
    # Places A E (2-0), C D (1-1), B F (0-2). A-E is fresh; C-D and D-F have met. From the
    # top, as tsh does: A-E, then C's nearest fresh opponent that leaves D and the rest
    # pairable: C-F, D-B (C-B would leave D-F).
    third = pair_round(players, rounds, 3, "koth")
    assert pairs(third) == sets("AE", "CF", "BD")


def test_factor_pairing_plays_one_against_one_plus_the_factor() -> None:
    rules = PairingRules(options={"factor": 2})

    result = pair_round(field(*"ABCDEFGH"), [], 1, "factor", rules)

    assert pairs(result) == sets("AC", "BD", "EG", "FH")


def test_factor_three_on_twelve() -> None:
    result = pair_round(numbered(12), [], 1, "factor", PairingRules(options={"factor": 3}))

    assert pairs(result) == sets((1, 4), (2, 5), (3, 6), (7, 10), (8, 11), (9, 12))


# --------------------------------------------------------------------------- Initial Fontes


def test_initial_fontes_plays_a_round_robin_in_groups_of_one_from_each_quarter() -> None:
    players = numbered(16)
    rules = PairingRules(options={"rounds": 3})
    played: list[list[Game]] = []
    for number in (1, 2, 3):
        played.append(games_of(pair_round(players, played, number, "fontes", rules)))

    met = {frozenset((g.player, g.opponent)) for r in played for g in r}
    # Group j holds the j-th player of each quarter: {1, 5, 9, 13}, {2, 6, 10, 14} …
    groups = [{j, j + 4, j + 8, j + 12} for j in range(1, 5)]
    expected = {frozenset((a, b)) for g in groups for a in g for b in g if a < b}
    assert met == expected


def test_initial_fontes_with_an_odd_field_and_leftovers_has_no_rematch() -> None:
    players = numbered(11)  # 12 slots with the bye: 3 groups of 4
    rules = PairingRules(options={"rounds": 3})
    played: list[list[Game]] = []
    for number in (1, 2, 3):
        played.append(games_of(pair_round(players, played, number, "fontes", rules)))
    meetings = [frozenset((g.player, g.opponent)) for r in played for g in r if g.opponent]
    assert len(meetings) == len(set(meetings))
    byes = [g.player for r in played for g in r if g.opponent is None]
    assert len(byes) == 3 and len(set(byes)) == 3

    fourteen = numbered(14)  # 3 groups of 4 and two left over, who join the last group
    played = []
    for number in (1, 2, 3):
        played.append(games_of(pair_round(fourteen, played, number, "fontes", rules)))
    meetings = [frozenset((g.player, g.opponent)) for r in played for g in r if g.opponent]
    assert len(meetings) == 21 and len(set(meetings)) == 21


def test_initial_fontes_refuses_an_even_number_of_rounds() -> None:
    with pytest.raises(PairingError, match="odd number of rounds"):
        pair_round(numbered(8), [], 1, "fontes", PairingRules(options={"rounds": 2}))


# --------------------------------------------------------------------------- contention


def _hunt() -> tuple[list[Player], list[list[Game]]]:
    # After 3 of 4 rounds (one prize): 1 is 3-0 +300; 2, 3 and 5 are 2-1 +100. One round at
    # 500 a game: 2, 3 and 5 can tie 1's 3-1 and make up 200 points; 4, 6, 7, 8 cannot.
    players = numbered(8)
    rounds = [
        [win(1, 5), win(2, 6), win(3, 7), win(4, 8)],
        [win(1, 2), win(3, 4), win(5, 6), win(7, 8)],
        [win(1, 3), win(2, 4), win(5, 7), win(6, 8)],
    ]
    return players, rounds


def test_contention_pairs_the_top_contenders_within_the_flight_cap() -> None:
    players, rounds = _hunt()
    rules = PairingRules(rounds_total=4, prize_bands=[1], max_repeats=1)

    result = pair_round(players, rounds, 4, "cp", rules)

    # One round left: a flight of two, the two highest contenders.
    assert result.opponent_of(1) == 2
    assert "In contention for places 1-1: P1, P2 (best possible finish within the band)." in (
        result.notes
    )
    assert result.pairings[0].reasons[0] == "contention: both can still finish in places 1-1"


def test_contention_without_a_cap_keeps_every_contender_among_contenders() -> None:
    players, rounds = _hunt()
    rules = PairingRules(
        rounds_total=4, prize_bands=[1], max_repeats=1, options={"flight_cap": None}
    )

    result = pair_round(players, rounds, 4, "cp", rules)

    contenders = {1, 2, 3, 5}
    assert sets((1, 2), (3, 5)) <= pairs(result)
    for p in result.pairings:
        assert (p.first in contenders) == (p.second in contenders)


def test_contention_widens_a_flight_that_cannot_be_paired_under_the_repeat_limit() -> None:
    players, rounds = _hunt()
    rules = PairingRules(rounds_total=4, prize_bands=[1], max_repeats=0)

    result = pair_round(players, rounds, 4, "cp", rules)

    # 1 has met 2, 3 and 5: no flight of contenders can hold 1, and everyone is paired Swiss.
    assert any("could not be paired among themselves" in n for n in result.notes)
    assert all(w.code not in ("rematch", "repeat_limit") for w in result.warnings)


def test_contention_is_a_swiss_while_everyone_is_in_contention() -> None:
    players = field(*"ABCDEFGH")
    rules = PairingRules(rounds_total=10)

    assert pairs(pair_round(players, [], 1, "cp", rules)) == pairs(
        pair_round(players, [], 1, "swiss", rules)
    )


def test_contention_needs_the_number_of_rounds() -> None:
    with pytest.raises(PairingError, match="number of rounds"):
        pair_round(field("A", "B"), [], 1, "cp")


# --------------------------------------------------------------------------- Australian


def test_the_australian_draw_opens_top_half_against_bottom_half() -> None:
    result = pair_round(field(*"ABCDEF"), [], 1, "australian")

    assert pairs(result) == sets("AD", "BE", "CF")


def test_the_australian_draw_gives_the_top_player_the_highest_fresh_opponent() -> None:
    players = field(*"ABCDEF")
    rounds = [[win("A", "D"), win("B", "E"), win("C", "F")]]
    # Places: A B C (1-0), D E F (0-1). A-B fresh; C-D fresh; E-F fresh.
    result = pair_round(players, rounds, 2, "australian")
    assert pairs(result) == sets("AB", "CD", "EF")

    rounds.append([win("A", "B"), win("C", "D"), win("E", "F")])
    # A 2-0; B C E 1-1; D F 0-2 → places A B C E D F (ratings within groups).
    # A: B met, C fresh → A-C; B: E met, D met?  B met A and E: B-D fresh → B-D; E-F met → E-F
    # would repeat, so backtrack: B-F? Top-down: A-C, B-D, E-F is blocked; B-F, E-D (met? no).
    third = pair_round(players, rounds, 3, "australian")
    assert pairs(third) == sets("AC", "BF", "DE")


# --------------------------------------------------------------------------- schedules


def test_a_schedule_says_which_system_pairs_each_round_from_which_results() -> None:
    schedule = parse_schedule(
        [
            {"rounds": "1-3", "system": "fontes"},
            {"rounds": "4-20", "system": "swiss", "repeats": 1},
            {"rounds": "21-23", "system": "cp", "lag": 2},
        ]
    )

    fontes = schedule.entry_for(2)
    assert (fontes.system, fontes.based_on, dict(fontes.options)) == (
        "fontes",
        1,
        {"start": 1, "rounds": 3},
    )
    swiss = schedule.entry_for(10)
    assert (swiss.system, swiss.based_on, swiss.repeats) == ("swiss", 9, 1)
    cp = schedule.entry_for(22)
    assert (cp.system, cp.based_on) == ("cp", 20)
    beyond = schedule.entry_for(24)
    # No entry: Swiss from the round before, under the division's own repeat limit.
    assert (beyond.system, beyond.based_on, beyond.repeats) == ("swiss", 23, None)


def test_a_schedule_takes_system_options_and_open_ranges() -> None:
    schedule = parse_schedule(
        [{"rounds": 1, "system": "factor", "factor": 3}, {"rounds": "2-", "system": "koth"}]
    )

    assert schedule.entry_for(1).options == {"factor": 3}
    assert schedule.entry_for(99).system == "koth"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([{"rounds": "1-5", "system": "swiss"}, {"rounds": "5-6", "system": "koth"}], "overlap"),
        ([{"rounds": "1-3", "system": "dutch"}], "unknown pairing system 'dutch'"),
        ([{"rounds": "3-1", "system": "swiss"}], "not a range"),
        ([{"rounds": "x", "system": "swiss"}], "should be like"),
        ([{"system": "swiss"}], "'rounds' and 'system' are both needed"),
        ([{"rounds": "1", "system": "swiss", "lag": 0}], "lag should be a whole number"),
        ([{"rounds": "1-", "system": "fontes"}], "needs a last round"),
        ("swiss", "a list of entries"),
    ],
)
def test_a_bad_schedule_is_refused_with_a_reason(data: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_schedule(data)  # type: ignore[arg-type]


def test_an_empty_schedule_pairs_swiss_from_the_round_before() -> None:
    entry = Schedule().entry_for(5)

    assert (entry.system, entry.based_on) == ("swiss", 4)


def test_autopair_lines_of_a_real_config_become_a_schedule() -> None:
    if not CONFIG.is_file():
        pytest.skip("the shared tsh corpus is not beside the project")
    config = read_config_file(CONFIG)

    entries = schedule_from_autopair(config.autopairs)

    assert entries == [
        {"rounds": "1-9", "system": "swiss", "repeats": 0, "lag": 1},
        {"rounds": "10-18", "system": "swiss", "repeats": 3, "lag": 1},
    ]
    schedule = parse_schedule(entries)
    assert schedule.entry_for(12).repeats == 3
    assert schedule.entry_for(1).based_on == 0


def test_autopair_commands_are_translated() -> None:
    entries = schedule_from_autopair(
        [
            "autopair a 0 1 if 3 a",
            "autopair a 3 4 ns 1 3 a",
            "autopair a 4 5 ns 1 4 a",
            "autopair a 18 20 koth 2 18 a",
            "autopair a 20 21 fp 3 1 20 a",
            "autopair a 21 22 cp 21 a",
            "autopair b 0 1 rr b",
        ],
        division="A",
    )

    assert entries == [
        {"rounds": "1-3", "system": "fontes", "lag": 1},
        {"rounds": "4-5", "system": "swiss", "repeats": 1, "lag": 1},
        {"rounds": "20", "system": "koth", "repeats": 2, "lag": 2},
        {"rounds": "21", "system": "factor", "factor": 3, "repeats": 1, "lag": 1},
        {"rounds": "22", "system": "cp", "lag": 1},
    ]
    assert schedule_from_autopair(["autopair b 0 1 rr b"]) == [
        {"rounds": "1-", "system": "rr", "lag": 1}
    ]
    with pytest.raises(ValueError, match="'pq' command"):
        schedule_from_autopair(["autopair a 0 1 pq a"])
