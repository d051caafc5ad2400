"""The pairing engine on plain players and results: Swiss, byes, firsts, repeats, Gibsons."""

from __future__ import annotations

import random

import pytest

from tests.tournament.engine.pairing_support import bye, field, games_of, numbered, pairs, sets, win
from tournament.engine.pairing import (
    SYSTEMS,
    PairingError,
    PairingRules,
    assign_firsts,
    check_pairings,
    pair_round,
)
from tournament.engine.pairing.history import build_field
from tournament.engine.pairing.systems import pair_swiss
from tournament.engine.standings import Game, GameKind, Player, standings

# --------------------------------------------------------------------------- Swiss


def test_round_one_swiss_plays_the_top_half_against_the_bottom_half() -> None:
    result = pair_round(field(*"ABCDEFGH"), [], 1, "swiss")

    assert pairs(result) == sets("AE", "BF", "CG", "DH")
    assert [p.table for p in result.pairings] == [1, 2, 3, 4]
    assert result.based_on == 0
    assert result.warnings == []


def test_swiss_keeps_players_on_the_same_wins_together() -> None:
    players = field(*"ABCDEFGH")
    round1 = [win("A", "E"), win("B", "F"), win("C", "G"), win("D", "H")]

    result = pair_round(players, [round1], 2, "swiss")

    # Winners A B C D (ranked by rating), losers E F G H: halves within each group.
    assert pairs(result) == sets("AC", "BD", "EG", "FH")


def test_swiss_steps_around_a_rematch_inside_a_score_group() -> None:
    players = field(*"ABCDEFGH")
    round1 = [win("A", "C"), win("B", "D"), win("E", "G"), win("F", "H")]

    result = pair_round(players, [round1], 2, "swiss")

    # A B E F won; A-E and B-F would be the halves, and none of them has met.
    assert pairs(result) == sets("AE", "BF", "CG", "DH")
    round2 = [win("A", "E"), win("B", "F"), win("C", "G"), win("D", "H")]

    third = pair_round(players, [round1, round2], 3, "swiss")

    # 2-0: A B; 1-1: C D E F; 0-2: G H. A-B fresh, G-H fresh; C E D F halves of the middle.
    assert pairs(third) == sets("AB", "CE", "DF", "GH")
    assert all(w.code != "rematch" for w in third.warnings)


def test_within_the_repeat_limit_wins_come_before_avoiding_a_rematch() -> None:
    players = field(*"ABCD")
    rounds = [[win("A", "B"), win("C", "D")], [win("A", "C"), win("B", "D")]]
    # Round 3: A 2-0, B 1-1, C 1-1, D 0-2. One repeat allowed: A-B and C-D are one win apart
    # each (rematches); A-D and B-C would put two wins between A and D.
    result = pair_round(players, rounds, 3, "swiss", PairingRules(max_repeats=1))

    assert pairs(result) == sets("AB", "CD")
    assert [w.code for w in result.warnings] == ["rematch", "rematch"]
    assert all("rematch: they have met 1 time(s)" in p.reasons for p in result.pairings)


def test_repeats_can_be_put_before_wins_as_tsh_orders_its_swiss() -> None:
    players = field(*"ABCD")
    rounds = [[win("A", "B"), win("C", "D")], [win("A", "C"), win("B", "D")]]
    rules = PairingRules(max_repeats=1, options={"swiss_priority": "repeats"})

    result = pair_round(players, rounds, 3, "swiss", rules)

    assert pairs(result) == sets("AD", "BC")
    assert [w.code for w in result.warnings] == ["rank_gap"]


def test_an_impossible_repeat_limit_is_refused_with_a_sentence_naming_the_players() -> None:
    players = field(*"ABCD")
    rounds = [
        [win("A", "B"), win("C", "D")],
        [win("A", "C"), win("B", "D")],
        [win("A", "D"), win("B", "C")],
    ]

    with pytest.raises(PairingError) as raised:
        pair_round(players, rounds, 4, "swiss")

    assert str(raised.value) == (
        "Round 4 cannot be paired by Swiss with no rematches: A, B, C, D have already met every "
        "other player the limit allows (3 possible opponents). Allow more repeats, or pair the "
        "round by hand."
    )


def test_the_repeat_limit_is_relaxed_only_when_asked_and_the_notes_say_so() -> None:
    players = field(*"ABCD")
    rounds = [
        [win("A", "B"), win("C", "D")],
        [win("A", "C"), win("B", "D")],
        [win("A", "D"), win("B", "C")],
    ]

    result = pair_round(players, rounds, 4, "swiss", PairingRules(options={"relax_repeats": True}))

    assert len(pairs(result)) == 2
    assert any("repeat limit (no rematches) could not be met" in n for n in result.notes)
    assert {w.code for w in result.warnings} == {"repeat_limit"}


def test_withdrawn_players_are_not_paired() -> None:
    players = field(*"ABCD")
    players[1] = Player("B", "B", 1990, 2, withdrawn_from_round=2)
    round1 = [win("A", "B"), win("C", "D")]

    result = pair_round(players, [round1], 2, "swiss")

    assert "B" not in {p for pair in pairs(result) for p in pair}
    assert len(result.pairings) == 2  # A, C, D: one game and a bye


def test_a_forbidden_pair_is_kept_apart_when_it_can_be() -> None:
    rules = PairingRules(forbidden_pairs=[frozenset("AE")])

    result = pair_round(field(*"ABCDEFGH"), [], 1, "swiss", rules)

    assert frozenset("AE") not in pairs(result)
    assert all(w.code != "forbidden" for w in result.warnings)


def test_players_of_one_group_are_kept_apart() -> None:
    rules = PairingRules(groups={"A": "club1", "E": "club1", "B": "club2"})

    result = pair_round(field(*"ABCDEFGH"), [], 1, "swiss", rules)

    assert frozenset("AE") not in pairs(result)


def test_a_forbidden_pair_that_cannot_be_avoided_is_paired_with_a_warning() -> None:
    rules = PairingRules(forbidden_pairs=[frozenset("AB")])

    result = pair_round(field("A", "B"), [], 1, "swiss", rules)

    assert pairs(result) == sets("AB")
    assert [w.code for w in result.warnings] == ["forbidden"]
    assert any("forbidden pair" in r for r in result.pairings[0].reasons)


def test_an_unknown_system_is_refused() -> None:
    with pytest.raises(PairingError, match="no pairing system 'dutch'"):
        pair_round(field("A", "B"), [], 1, "dutch")


def test_the_pairing_needs_the_rounds_in_between() -> None:
    with pytest.raises(PairingError, match="needs the pairings of rounds 1 to 1; 0 given"):
        pair_round(field("A", "B"), [], 2, "swiss")


def test_pairings_already_made_count_as_meetings() -> None:
    players = field(*"ABCD")
    round1 = [win("A", "B"), win("C", "D")]
    round2_paired = [Game("A", "C", 0, 0), Game("B", "D", 0, 0)]

    # Round 3 from round 1's results (lag 2): A, C on 1 win would meet, but they are paired in 2.
    result = pair_round(players, [round1], 3, "swiss", paired=[round2_paired])

    assert pairs(result) == sets("AD", "BC")
    assert result.based_on == 1


def test_every_system_is_described() -> None:
    assert set(SYSTEMS) == {
        "swiss",
        "koth",
        "rr",
        "rr2",
        "fontes",
        "factor",
        "cp",
        "cop",
        "australian",
        "teamrr",
        "manual",
    }


def test_manual_pairs_nobody_and_says_so() -> None:
    result = pair_round(field("A", "B"), [], 1, "manual")

    assert result.pairings == []
    assert "paired by hand" in result.notes[0]


# --------------------------------------------------------------------------- byes


def test_the_bye_goes_to_the_lowest_ranked_player() -> None:
    result = pair_round(field(*"ABCDE"), [], 1, "swiss")

    (the_bye,) = [p for p in result.pairings if p.second is None]
    assert the_bye.first == "E"
    assert the_bye.table == 0
    assert the_bye.reasons[0].startswith("bye: the lowest-placed player with no bye")
    assert any("E" in n and "bye" in n for n in result.notes)


def test_the_bye_skips_players_who_have_had_one() -> None:
    players = field(*"ABCDE")
    round1 = [win("A", "B"), win("C", "D"), bye("E")]
    # E is now 1-0; B and D lost; D is the lowest-placed player without a bye.
    result = pair_round(players, [round1], 2, "swiss")

    (the_bye,) = [p for p in result.pairings if p.second is None]
    assert the_bye.first == "D"


def test_no_second_bye_while_someone_has_none() -> None:
    players = numbered(5)
    rounds: list[list[Game]] = []
    had_bye: list[object] = []
    for number in range(1, 6):
        result = pair_round(players, rounds, number, "swiss", PairingRules(max_repeats=1))
        (the_bye,) = [p.first for p in result.pairings if p.second is None]
        had_bye.append(the_bye)
        rounds.append(games_of(result))

    assert sorted(had_bye) == [1, 2, 3, 4, 5]


def test_a_second_bye_by_hand_is_warned_about() -> None:
    players = field(*"ABC")
    rounds = [[win("A", "B"), bye("C")]]

    warnings = check_pairings(players, rounds, 2, [("A", "B"), ("C", None)], PairingRules())

    assert [(w.code, w.players) for w in warnings] == [
        ("rematch", ("A", "B")),
        ("repeat_limit", ("A", "B")),
        ("second_bye", ("C",)),
    ][1:]


# --------------------------------------------------------------------------- firsts


def test_the_player_with_fewer_firsts_goes_first() -> None:
    players = field(*"ABCD")
    rounds = [[win("A", "B", a_first=True), win("C", "D", a_first=True)]]

    result = pair_round(players, rounds, 2, "swiss")

    # A (first in round 1) meets C (first too)? No: winners A, C; losers B, D went second.
    by_table = {frozenset(p.players): p for p in result.pairings}
    assert by_table[frozenset("AC")].first == "C"  # level: C is lower placed
    assert by_table[frozenset("BD")].first == "D"
    assert assign_firsts(players, rounds, [("A", "B"), ("C", "D")]) == [("B", "A"), ("D", "C")]


def test_firsts_break_ties_by_who_went_second_more_recently() -> None:
    players = field(*"ABCD")
    rounds = [
        [win("A", "C", a_first=True), win("B", "D", a_first=True)],
        [win("C", "B", a_first=True), win("D", "A", a_first=True)],
    ]
    # A: first, second; C: second, first: level on starts and replies; A replied last.

    assert assign_firsts(players, rounds, [("C", "A")]) == [("A", "C")]


def test_firsts_count_games_given_from_both_sides_once() -> None:
    players = field("A", "B")
    rounds = [[Game("A", "B", 400, 300, first=True), Game("B", "A", 300, 400, first=False)]]

    assert assign_firsts(players, rounds, [("A", "B"), ("B", None)]) == [("B", "A"), ("B", None)]


def test_a_director_putting_the_wrong_player_first_is_warned() -> None:
    players = field("A", "B")
    rounds = [[win("A", "B", a_first=True)]]

    warnings = check_pairings(players, rounds, 2, [("A", "B")], PairingRules(max_repeats=1))

    assert [w.code for w in warnings] == ["rematch", "first_imbalance"]


def test_firsts_stay_balanced_over_an_event() -> None:
    players = numbered(10)
    rounds: list[list[Game]] = []
    rng = random.Random(3)
    for number in range(1, 9):
        result = pair_round(players, rounds, number, "swiss", PairingRules(max_repeats=1))
        winners = [p.second for p in result.pairings if p.second is not None and rng.random() < 0.5]
        rounds.append(games_of(result, winners))
    fld = build_field(players, rounds, 9, PairingRules())

    # Eight games each: nobody more than one start away from four.
    assert {fld.firsts(p.id) for p in players} <= {3, 4, 5}


# --------------------------------------------------------------------------- checks


def test_check_pairings_names_every_problem() -> None:
    players = field(*"ABCDE")
    players[4] = Player("E", "E", 1960, 5, withdrawn_from_round=2)
    rounds = [[win("A", "B"), win("C", "D"), bye("E")]]

    warnings = check_pairings(
        players, rounds, 2, [("A", "B"), ("A", "C"), ("E", None), ("Z", "D")], PairingRules()
    )

    codes = [(w.code, w.players) for w in warnings]
    assert ("withdrawn", ("E",)) in codes
    assert ("unknown_player", ("Z",)) in codes
    assert ("paired_twice", ("A",)) in codes
    assert ("repeat_limit", ("A", "B")) in codes
    assert ("extra_bye", ("E",)) in codes
    assert ("unpaired", ("D",)) not in codes  # D is in a pair, with an unknown opponent


def test_check_pairings_points_out_a_rank_gap_and_an_unpaired_player() -> None:
    players = field(*"ABCD")
    rounds = [[win("A", "B"), win("C", "D")], [win("A", "C"), win("B", "D")]]

    warnings = check_pairings(players, rounds, 3, [("D", "A")], PairingRules())

    assert [w.code for w in warnings] == ["unpaired", "unpaired", "rank_gap"]


# --------------------------------------------------------------------------- Gibson


def _six_rounds() -> list[list[Game]]:
    """Four rounds of a five-round event: A 4-0; B, D, E 2-2; C, F 1-3."""
    return [
        [win("A", "B"), win("C", "D"), win("E", "F")],
        [win("A", "C"), win("B", "E"), win("D", "F")],
        [win("A", "E"), win("F", "C"), win("D", "B")],
        [win("A", "F"), win("B", "C"), win("E", "D")],
    ]


def test_a_leader_who_cannot_be_caught_in_wins_is_gibsonized() -> None:
    result = pair_round(
        field(*"ABCDEF"), _six_rounds(), 5, "swiss", PairingRules(rounds_total=5, max_repeats=1)
    )

    assert result.notes[0].startswith("Gibsonized: A (1st, 4-0 +400) cannot be caught")


def test_the_gibson_plays_the_highest_placed_player_out_of_the_prizes() -> None:
    rules = PairingRules(rounds_total=5, max_repeats=1)

    result = pair_round(field(*"ABCDEF"), _six_rounds(), 5, "swiss", rules)

    # Everyone below A is out of first place; of them, D is the only one A has not met, and D
    # is 2-2, as high as anyone below A.
    assert result.opponent_of("A") == "D"
    table = next(p for p in result.pairings if "A" in p.players)
    assert table.reasons[0] == "Gibsonized: A's 1st place is settled"
    assert "highest-placed player who can no longer reach the prizes" in table.reasons[1]


def test_no_gibson_without_the_number_of_rounds() -> None:
    result = pair_round(field(*"ABCDEF"), _six_rounds(), 5, "swiss", PairingRules(max_repeats=1))

    assert not any("Gibsonized" in n for n in result.notes)


def test_a_leader_within_the_spread_allowance_is_not_gibsonized() -> None:
    players = field(*"ABCDEF")
    rounds = [
        [win("A", "D"), win("B", "E"), win("C", "F")],
        [win("A", "C"), win("B", "F"), win("E", "D")],
        [win("A", "E"), win("C", "B"), win("D", "F")],
        [win("A", "B"), win("C", "D"), win("E", "F")],
    ]
    # A is 4-0 +400, C 3-1 +200 with one round left: C can tie A on wins and losses, and 200
    # points of spread is less than the 1,000 one round can swing (2 x 500).
    result = pair_round(players, rounds, 5, "swiss", PairingRules(rounds_total=5))
    assert not any("Gibsonized" in n for n in result.notes)

    # With 100 points a game allowed, one round swings 200: a lead of exactly 200 is safe.
    tight = PairingRules(rounds_total=5, gibson_spread=100)
    gibsonized = pair_round(players, rounds, 5, "swiss", tight)
    assert gibsonized.notes[0].startswith("Gibsonized: A")

    # and a lead of 199 is not.
    rounds[3][0] = win("A", "B", 99)
    caught = pair_round(players, rounds, 5, "swiss", tight)
    assert not any("Gibsonized" in n for n in caught.notes)


def _forfeit(p: str) -> Game:
    return Game(p, None, -50, kind=GameKind.FORFEIT)


def test_two_gibsons_play_each_other() -> None:
    players = field(*"ABCD")
    rounds = [
        [win("A", "B", 300), _forfeit("C"), _forfeit("D")],
        [win("A", "C", 300), win("B", "D", 300)],
    ]
    # A 2-0 +600, B 1-1 0, C and D 0-2 -350; one round left, 100 points a game: A cannot be
    # caught, and B cannot be caught for 2nd. Both places are prizes: they meet, rematch or not.
    rules = PairingRules(rounds_total=3, gibson_spread=50, prize_bands=[2])

    result = pair_round(players, rounds, 3, "swiss", rules)

    assert pairs(result) == sets("AB", "CD")
    assert result.notes[0].startswith("Gibsonized: A (1st, 2-0 +600), B (2nd, 1-1 +0)")
    assert ("repeat_limit", {"A", "B"}) in [(w.code, set(w.players)) for w in result.warnings]


def test_an_odd_gibson_takes_the_bye_in_an_odd_field() -> None:
    players = numbered(5)
    rounds = [
        [win(1, 4), win(2, 5), bye(3)],
        [win(1, 2), win(3, 5), bye(4)],
        [win(1, 3), win(4, 2), bye(5)],
    ]
    # 1 is 3-0 +300; 3 and 4 are 2-1 +50; one round left at 50 a game: 1 cannot be caught,
    # has had no bye, and the field is odd.
    rules = PairingRules(rounds_total=4, gibson_spread=50, prize_bands=[1])

    result = pair_round(players, rounds, 4, "swiss", rules)

    assert result.opponent_of(1) is None
    assert "P1, Gibsonized, takes the bye." in result.notes


def test_a_gibson_paired_by_hand_with_a_contender_is_warned_about() -> None:
    rules = PairingRules(rounds_total=5, max_repeats=1, prize_bands=[2])

    warnings = check_pairings(
        field(*"ABCDEF"), _six_rounds(), 5, [("A", "B"), ("C", "D"), ("E", "F")], rules
    )

    assert ("gibson_contender", ("A", "B")) in [(w.code, w.players) for w in warnings]


# --------------------------------------------------------------------------- the matching


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_sparse_matching_finds_the_same_cost_as_the_complete_graph(seed: int) -> None:
    rng = random.Random(seed)
    players = numbered(rng.randint(60, 80))
    rounds: list[list[Game]] = []
    for number in range(1, 9):
        sparse = PairingRules(max_repeats=number % 2)
        dense = PairingRules(max_repeats=number % 2, options={"neighbours": 1000})
        cheap = pair_swiss(build_field(players, rounds, number, sparse))
        full = pair_swiss(build_field(players, rounds, number, dense))
        assert cheap.cost == full.cost
        result = pair_round(players, rounds, number, "swiss", sparse)
        winners = [p.second for p in result.pairings if p.second and rng.random() < 0.5]
        rounds.append(games_of(result, winners))


def test_standings_accept_a_game_given_from_both_sides_with_opposite_firsts() -> None:
    players = field("A", "B")
    rounds = [[Game("A", "B", 400, 300, first=True), Game("B", "A", 300, 400, first=False)]]

    table = standings(players, rounds)

    assert [(s.id, s.wins) for s in table] == [("A", 1), ("B", 0)]
