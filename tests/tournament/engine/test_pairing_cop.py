"""COP: Woogles' own COP tests that assert pairings (woogles-io/liwords, pkg/pair/cop/
cop_test.go at commit b790d24), on the events their requests are made from (`cop_support`).

Player numbers are Woogles' (from 0); `p[3] == 10` is Woogles' `resp.Pairings[3] == 10`. Each
test names the Woogles test and case it ports. The simulations are seeded (Woogles' seed where
its test sets one), but Spread's random numbers are not Go's: the pairs asserted are the ones
the constraints settle, which do not hang on the luck of a few runs.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.tournament.engine.cop_support import Event, as_pairings
from tournament.engine.pairing import PairingError, PairingRules, pair_round
from tournament.engine.standings import Game, Player


def cop(name: str, **options: Any) -> dict[int, int]:
    return Event(name).pairings(**options)


def refusal(name: str, **options: Any) -> str:
    with pytest.raises(PairingError) as caught:
        Event(name).pair(**options)
    return str(caught.value)


def koth_cashers(p: dict[int, int]) -> None:
    """The normal KOTH casher pairings of the Albany 3rd-Gibsonized event in its last round."""
    assert (p[0], p[1], p[2], p[9], p[12], p[15]) == (1, 0, 9, 2, 15, 12)


def with_classes(classes: dict[int, list[int]]) -> dict[int, int]:
    return {player: cls for cls, players in classes.items() for player in players}


# --------------------------------------------------------------------------- TestCOPErrors


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"rounds": 0}, "at least one round"),
        ({"class_prizes": [0]}, "at least one prize"),
        ({"class_prizes": [-1]}, "at least one prize"),
        ({"player_classes": {7: 2}}, "class 2 is not one of the 1 classes"),
        ({"player_classes": {7: -1}}, "class -1"),
        ({"gibson_spread": -100}, "Gibson spread cannot be negative"),
        ({"control_loss_threshold": 2.4}, "control loss threshold should be between 0 and 1"),
        ({"control_loss_threshold": -1.3}, "control loss threshold"),
        ({"hopefulness_threshold": 2.4}, "hopefulness threshold should be above 0"),
        ({"hopefulness_threshold": -1.3}, "hopefulness threshold"),
        ({"hopefulness_threshold": 0}, "hopefulness threshold"),
        ({"division_sims": 0}, "0 division sims are too few"),
        ({"division_sims": -1}, "too few"),
        ({"control_loss_sims": 0}, "0 control loss sims are too few"),
        ({"place_prizes": -1}, "-1 place prizes in a division of 8 players"),
        ({"place_prizes": 9}, "9 place prizes"),
        ({"control_loss_activation_round": 0}, "control loss cannot start before round 1"),
        ({"rounds": 0.5}, "rounds should be a whole number"),
        ({"class_prizes": 2}, "class_prizes should be a list"),
        ({"prepaired": [3]}, "prepaired should be a list of pairs"),
        ({"prepaired": [[3, 3], [3, 4]]}, "Dave is paired by hand twice"),
        ({"player_classes": {"Zoe": 1}}, "'Zoe' is not a player of this division"),
        ({"seed": "x"}, "seed should be a number"),
    ],
)
def test_refusals_are_sentences(options: dict[str, Any], words: str) -> None:
    # TestCOPErrors: Woogles' refusals of a request, as sentences.
    assert words in refusal("default", **options)


def test_all_rounds_paired_is_refused() -> None:
    event = Event("default")
    for _ in range(10):
        event.add_round({i: i ^ 1 for i in range(8)})
    assert "all 10 rounds of the event are paired" in refusal_of(event)


def refusal_of(event: Event, **options: Any) -> str:
    with pytest.raises(PairingError) as caught:
        event.pair(**options)
    return str(caught.value)


def test_cop_success() -> None:
    # TestCOPSuccess: the default request (8 players, no results) is paired.
    p = cop("default")
    assert sorted(p) == list(range(8)) and all(p[p[i]] == i for i in p)


# --------------------------------------------------------------------------- prepaired


def test_prepaired_players_are_kept() -> None:
    # TestCOPConstraintPolicies, "Prepaired players": Belleville after round 12.
    event = Event("belleville_csw_r12")
    event.prepaired = [[3, 10], [9, 11]]
    p = event.pairings(seed=1)
    assert (p[3], p[9], p[10], p[11]) == (10, 11, 3, 9)


def test_prepaired_players_with_a_bye_are_kept() -> None:
    # TestCOPConstraintPolicies, "Prepaired players": Albany, 3rd Gibsonized after round 25.
    event = Event("albany_3rd_gibsonized_r25")
    event.prepaired = [[3, 14], [20, 21]]
    p = event.pairings(seed=1)
    assert (p[0], p[1], p[4], p[3], p[14], p[20], p[21]) == (1, 0, 4, 14, 3, 21, 20)


# --------------------------------------------------------------------------- KOTH


def test_koth_in_the_last_round() -> None:
    # TestCOPConstraintPolicies, "KOTH".
    koth_cashers(cop("albany_3rd_gibsonized_r25", seed=1, rounds=26))


def test_koth_with_eight_place_prizes() -> None:
    p = cop("albany_3rd_gibsonized_r25", seed=1, rounds=26, place_prizes=8)
    koth_cashers(p)
    assert (p[5], p[6], p[8], p[10]) == (6, 5, 10, 8)


CLASS_CASES = [
    # (Woogles' comment, class_prizes, classes, pairs expected, pairs not expected, seed)
    (
        "no class B pairing as a class B player can cash; class C KOTH for 1 prize",
        [1, 1],
        {1: [9, 2, 12, 15, 5, 8], 2: [14, 13, 17, 21, 23, 19, 20]},
        [(14, 13)],
        [],
        1,
    ),
    (
        "class B KOTH for 2 class prizes",
        [2],
        {1: [14, 13, 17, 21, 23, 19, 20]},
        [(14, 13), (17, 21)],
        [],
        1,
    ),
    (
        "1 player class-Gibsonized: only one class B pairing",
        [2],
        {1: [5, 14, 13, 17, 21, 23, 19, 20]},
        [(13, 14)],
        [],
        1,
    ),
    (
        "2 players class-Gibsonized",
        [3],
        {1: [5, 8, 13, 17, 21, 23, 19, 20]},
        [(5, 8), (13, 17)],
        [],
        1,
    ),
    (
        "3 players class-Gibsonized: the top 2 play, 4th and 5th play for 4th",
        [4],
        {1: [5, 8, 18, 14, 13, 17, 21, 23, 19, 20]},
        [(5, 8), (14, 13)],
        [],
        1,
    ),
    (
        "4 players class-Gibsonized: a straight KOTH among them",
        [4],
        {1: [5, 6, 8, 10, 14, 13, 17, 21, 23, 19, 20]},
        [(5, 6), (8, 10)],
        [(14, 13)],
        1,
    ),
    (
        "two classes of 2 prizes",
        [2, 2],
        {1: [5, 8, 10, 22], 2: [14, 13, 17, 21, 23, 19, 20]},
        [(5, 8), (10, 22), (14, 13), (17, 21)],
        [],
        1,
    ),
    (
        "only 1 valid pairing: the 4th class B player cannot catch the top 2",
        [2],
        {1: [5, 6, 10, 18, 14, 13, 17, 21, 23, 19, 20]},
        [(5, 6)],
        [(10, 18)],
        0,
    ),
    (
        "only 2 valid pairings: the 6th class B player cannot catch the top 3",
        [3],
        {1: [5, 6, 8, 10, 13, 14, 17, 21, 23, 19, 20]},
        [(5, 6), (8, 10)],
        [(13, 14)],
        1,
    ),
    (
        "some class B players sure of money",
        [1],
        {1: [0, 1, 4, 5, 8]},
        [(5, 8)],
        [],
        0,
    ),
    (
        "some class B players sure of money, one not",
        [1],
        {1: [0, 1, 4, 2, 5, 8]},
        [],
        [(5, 8)],
        0,
    ),
]


@pytest.mark.parametrize(
    ("comment", "prizes", "classes", "meet", "apart", "seed"),
    CLASS_CASES,
    ids=[c[0] for c in CLASS_CASES],
)
def test_koth_for_class_prizes(
    comment: str,
    prizes: list[int],
    classes: dict[int, list[int]],
    meet: list[tuple[int, int]],
    apart: list[tuple[int, int]],
    seed: int,
) -> None:
    # TestCOPConstraintPolicies, "KOTH Class Prizes" and the class B cases after it.
    p = cop(
        "albany_3rd_gibsonized_r25",
        seed=seed,
        rounds=26,
        class_prizes=prizes,
        player_classes=with_classes(classes),
    )
    koth_cashers(p)
    for a, b in meet:
        assert (p[a], p[b]) == (b, a), comment
    for a, b in apart:
        assert p[a] != b, comment


# --------------------------------------------------------------------------- control loss


def test_control_loss_with_the_player_in_second() -> None:
    # TestCOPConstraintPolicies, "Control loss with player in 2nd" (Woogles' activation round 12).
    event = Event("belleville_csw_r12")
    result = event.pair(control_loss_activation_round=13, seed=2)
    p = as_pairings(result)
    assert (p[0], p[3]) == (3, 0)
    reasons = next(x.reasons for x in result.pairings if {x.first, x.second} == {0, 3})
    assert reasons[0] == (
        "control loss: Matthew Tunnicliffe wins 81.4% of the simulations, but Matthew O'Connor, "
        "the lowest player who can still catch them, winning every game wins the event 100% of "
        "the time playing Matthew Tunnicliffe and 73% otherwise"
    )
    assert [str(n) for n in result.notes] == [
        "COP: 2000 simulations of the 3 round(s) left (seed 2); Matthew Tunnicliffe wins 81.4% "
        "of them; a player is hopeful of a place reached in 2% of them or more.",
        "Control loss: Matthew Tunnicliffe has lost control of the event to Matthew O'Connor, "
        "the lowest contender who can still catch them.",
    ]
    table = result.simulation
    # 1,000 runs could not tell whether some chances were above or below 2%: 1,000 more ran.
    assert table is not None and (table.sims, table.places) == (2000, 2)
    assert [r.player for r in table.rows[:2]] == [3, 0]
    assert table.rows[0].chances == [0.814, 0.1395]


def test_control_loss_with_the_player_in_fourth() -> None:
    # "Control loss with player in 4th": 1st plays 2nd or 3rd, 4th not being hopeful enough.
    p = cop("belleville_csw_4th_cl_r12", control_loss_activation_round=12, seed=1)
    assert p[3] in (2, 0)


def test_prepairing_the_third_does_not_clash_with_control_loss() -> None:
    # With 6 rounds left and KOTH last, rank 4 (not 3) is the lowest contender with control
    # loss: prepairing player 25 (rank 3) with player 6 is no conflict.
    event = Event("albany_july4th_2024_r21")
    event.prepaired = [[6, 25]]
    p = event.pairings(control_loss_activation_round=22, seed=1)
    assert (p[6], p[25]) == (25, 6)


def test_second_control_loss_round_pairs_the_second_lowest_contender() -> None:
    # The second round control loss is active: 1st may play either of the 2 lowest
    # contenders, so prepairing the lowest with someone else is no error; Ben plays
    # Wellington, the 2nd lowest contender.
    event = Event("albany_july4th_2024_r21")
    event.prepaired = [[6, 25]]
    result = event.pair(rounds=26, control_loss_activation_round=21, seed=1)
    p = as_pairings(result)
    assert (p[0], p[10]) == (10, 0)
    reasons = next(x.reasons for x in result.pairings if {x.first, x.second} == {0, 10})
    assert reasons[0] == (
        "control loss: Ben Schoenbrun has lost control of the event to Chris Lipe; with more "
        "than four rounds left Ben Schoenbrun may play Wellington Jighere, the contender just "
        "above"
    )


def test_prepairing_the_lowest_contender_away_is_overconstrained() -> None:
    # 4 rounds to go: 1st plays only the lowest contender; prepairing them away is refused.
    event = Event("belleville_csw_r12")
    event.prepaired = [[0, 10]]
    message = refusal_of(event, control_loss_activation_round=13, seed=1)
    assert "cannot be paired by COP: there are too many constraints" in message


def test_prepairing_the_lowest_contender_away_two_rounds_out_is_overconstrained() -> None:
    event = Event("albany_july4th_2024_r21")
    event.prepaired = [[4, 25]]
    message = refusal_of(event, rounds=23, control_loss_activation_round=21, seed=1)
    assert "too many constraints" in message


# --------------------------------------------------------------------------- Gibson


def test_gibson_groups_and_the_gibson_bye() -> None:
    # "Gibson groups and Gibson Bye": 1st, 4th and 8th Gibsonized.
    event = Event("albany_1st_4th_8th_gibsonized_r25")
    p = event.pairings(seed=1)
    assert (p[0], p[4], p[1]) == (4, 0, 1)
    assert 11 not in p  # removed by Woogles: withdrawn here
    p[11] = 11
    event.add_round(p)
    p = event.pairings(seed=1)
    assert (p[0], p[4], p[2]) == (4, 0, 2)


def test_gibson_bye_twice() -> None:
    # "Gibson Bye": Albany after round 24 with player 0 removed.
    event = Event("albany_csw_r24_odd")
    result = event.pair(seed=1)
    bye = next(x for x in result.pairings if x.second is None)
    assert (bye.first, bye.reasons) == (
        10,
        ("bye: Ben Schoenbrun is Gibsonized (1st place settled)",),
    )
    p = as_pairings(result)
    p[0] = 0
    event.add_round(p)
    assert event.pairings(seed=1)[10] == 10


# --------------------------------------------------------------------------- top-down byes


def test_top_down_byes() -> None:
    # "Check that top down byes work": each round the highest-placed player without a bye.
    event = Event("albany_r16")
    event.prepaired = []
    options = {
        "top_down_byes": True,
        "allow_repeat_byes": False,
        "division_sims": 5000,
        "control_loss_sims": 1000,
    }
    byes = []
    for _ in range(4):
        p = event.pairings(**options)
        byes.append(next(i for i, o in p.items() if i == o))
        p[11] = 11
        event.add_round(p)
    # Chris Sykes, Zach, Andy, then Billy, Eric having had a bye already.
    assert byes == [1, 4, 2, 5]


# --------------------------------------------------------------------------- weights


def test_gibsonized_rank_difference_is_squared() -> None:
    # TestCOPWeights: BLS round 32, Matt T plays Rasheed.
    p = cop("bls_r32", seed=0)
    assert (p[9], p[25]) == (25, 9)


def test_almost_gibsonized_fourth_quarter() -> None:
    # TestCOPWeights, AlmostGibsonized in the fourth quarter (and TestCOPProdBugs: whatnoloan,
    # the only player who can hopefully win and not Gibsonized, plays condorave just below).
    p = cop("almost_gibsonized", seed=1)
    assert (p[1], p[3]) == (3, 1)
    assert (p[4], p[7]) == (7, 4)
    assert p[5] == 9
    assert p[14] == 13
    assert (p[10], p[13]) == (17, 14)


def test_kingston_first_plays_within_contenders() -> None:
    p = cop("kingston_2023_r15", seed=1)
    assert p[0] == 9


def test_almost_gibsonized_outside_the_fourth_quarter() -> None:
    p = cop("almost_gibsonized", seed=1, rounds=12)
    assert p[4] == 9
    assert p[10] == 0
    assert (p[13], p[17]) == (17, 13)


# --------------------------------------------------------------------------- prod bugs


def test_players_prepaired_with_byes() -> None:
    # TestCOPProdBugs: Albany after round 16, with a round partly paired by hand.
    p = cop("albany_r16", seed=1, control_loss_sims=1000)
    assert p[0] == 22 and p[19] == 19 and 11 not in p


@pytest.mark.parametrize(
    "name",
    [
        "albany_csw_new_years_r27",
        "albany_csw_new_years_r27_partial",
        "albany_csw_new_years_r25_partial",
        "lake_george_2025_r15",
        "lake_george_r13",
    ],
)
def test_prod_requests_are_paired(name: str) -> None:
    p = cop(name, seed=1)
    assert all(p[p[i]] == i for i in p)


# --------------------------------------------------------------------------- a hand-made field


def test_factor_3_in_the_second_to_last_round() -> None:
    # Eight players after six of eight rounds, the top six within a win: 4th, 5th and 6th can
    # each still reach 1st, 2nd and 3rd, so the second-to-last round is 1 v 4, 2 v 5, 3 v 6.
    names = ["Ada", "Ben", "Cy", "Di", "Ed", "Flo", "Gil", "Hu"]
    players = [Player(n, n, 0, i + 1) for i, n in enumerate(names)]
    played = [
        [("Ben", "Ada", 455), ("Cy", "Di", 405), ("Flo", "Ed", 432), ("Gil", "Hu", 431)],
        [("Ada", "Cy", 451), ("Di", "Ben", 432), ("Gil", "Ed", 454), ("Hu", "Flo", 439)],
        [("Ada", "Di", 401), ("Ben", "Cy", 418), ("Ed", "Hu", 415), ("Flo", "Gil", 407)],
        [("Ada", "Ed", 402), ("Flo", "Ben", 442), ("Cy", "Gil", 457), ("Hu", "Di", 414)],
        [("Ada", "Flo", 447), ("Ed", "Ben", 415), ("Cy", "Hu", 432), ("Di", "Gil", 423)],
        [("Gil", "Ada", 415), ("Ben", "Hu", 419), ("Cy", "Ed", 427), ("Di", "Flo", 436)],
    ]
    rounds = [[Game(w, lo, score, 400) for w, lo, score in games] for games in played]
    options = {
        "division_sims": 5000,
        "control_loss_sims": 2000,
        "seed": 3,
        "hopefulness_threshold": 0.02,
        "place_prizes": 3,
    }
    result = pair_round(players, rounds, 7, "cop", PairingRules(rounds_total=8, options=options))
    # Places: Cy, Ada, Flo, Gil, Ben, Di, Hu, Ed.
    assert [(p.first, p.second) for p in result.pairings] == [
        ("Gil", "Cy"),
        ("Ben", "Ada"),
        ("Flo", "Di"),
        ("Ed", "Hu"),
    ]
    assert result.pairings[0].reasons[0] == (
        "COP, second-to-last round: factor 3 (1 v 4, 2 v 5, 3 v 6), as 4th, 5th and 6th can "
        "still reach 1st, 2nd and 3rd (13.2%, 11.7% and 7.3% of runs)"
    )
    # The leader has lost control to Di, but factor 3 pairs the top six instead, as Woogles.
    assert [n.code for n in result.notes] == ["cop_summary"]
