"""How a game ends under each ruleset: going out, six scoreless turns, rounds of passes.

The real games come from the shared corpus (skipped when it is absent). The hand-made games are
short: the standard English bag cannot be emptied in a few moves, so they end by scoreless turns
or by passes, which need no empty bag. Every number in them was worked out by hand; the
arithmetic is in the comments next to each game.
"""

from __future__ import annotations

import pytest
from scoring_support import (
    SIX_SCORELESS,
    TWO_PLAYER_PASSES,
    codes,
    corpus_game,
    errors,
    the_error,
    totals,
)

from scoring import verify

# -- going out: NASPA 2x rack against WESPA +rack/-rack -------------------------------------------

DOUG_V_EMELY = "macondo/gcgio__testdata__doug_v_emely.gcg"
# Line 29: emely plays her last tiles (?FS) with the bag empty; doug is left with EGOP.
# Line 30: ">emely:  (OPEG) +14 345".  E1 + G2 + O1 + P3 = 7; twice that is 14; 331 + 14 = 345.
DOUG_V_EMELY_END_LINE = 30


def test_naspa_gives_the_player_who_goes_out_twice_the_opponents_rack() -> None:
    report = verify(corpus_game(DOUG_V_EMELY), rules="naspa")

    assert report.verified, [f.text() for f in report.findings]
    assert report.ended == "out"
    end = report.turns[-1]
    assert (end.line, end.nick, end.kind) == (DOUG_V_EMELY_END_LINE, "emely", "end_points")
    assert end.computed_score == 14
    # The opponent keeps his total: NASPA takes nothing off the player left with tiles.
    assert totals(report) == {"doug": (451, 451), "emely": (345, 345)}


def test_wespa_refuses_the_naspa_double_rack_and_expects_the_rack_once() -> None:
    report = verify(corpus_game(DOUG_V_EMELY), rules="wespa")

    assert not report.verified
    wrong = the_error(report, "wrong_end_points")
    assert wrong.line == DOUG_V_EMELY_END_LINE
    assert wrong.player == "emely"
    assert (wrong.expected, wrong.recorded) == (7, 14)
    # The engine books the rack once: 331 + 7.
    assert totals(report)["emely"] == (345, 338)


def test_auto_recognises_the_double_rack_convention() -> None:
    report = verify(corpus_game(DOUG_V_EMELY), rules="auto")

    assert report.verified
    assert report.conventions["end"] == "double"


def test_naspa_accepts_a_lost_challenge_pass_after_the_player_went_out() -> None:
    # Same game, with doug's unsuccessful challenge of the out-play written as a pass (line 30).
    report = verify(
        corpus_game("macondo/gcgio__testdata__doug_v_emely_double_challenge.gcg"), rules="naspa"
    )

    assert report.verified, [f.text() for f in report.findings]
    assert totals(report) == {"doug": (451, 451), "emely": (345, 345)}


FIVEPOINT = "quackle/test__positions__fivepoint.gcg"
# 2005 WSC, Ganesh v Paul. Line 8: "(challenge) +5" to Paul. Paul goes out with VINS (line 30),
# Ganesh is left with T (1 point):
#   line 31 ">Paul: (T) +1 360"          359 + 1 = 360
#   line 32 ">Ganesh: T (T) -1 452"      453 - 1 = 452


def test_wespa_moves_the_rack_from_the_opponent_to_the_player_who_goes_out() -> None:
    report = verify(corpus_game(FIVEPOINT), rules="wespa")

    assert report.verified, [f.text() for f in report.findings]
    assert report.ended == "out"
    assert [(t.line, t.nick, t.computed_score) for t in report.turns[-2:]] == [
        (31, "Paul", 1),
        (32, "Ganesh", -1),
    ]
    assert totals(report) == {"Ganesh": (452, 452), "Paul": (360, 360)}


def test_auto_recognises_the_rack_transfer_convention() -> None:
    report = verify(corpus_game(FIVEPOINT), rules="auto")

    assert report.verified, [f.text() for f in report.findings]
    assert report.conventions["end"] == "transfer"
    assert report.conventions["challenge"] == "5-point bonus"


def test_naspa_refuses_both_lines_of_the_rack_transfer_ending() -> None:
    source = corpus_game(FIVEPOINT)
    lines = source.decode().splitlines()
    assert "(T)" in lines[30] and "(T)" in lines[31]

    report = verify(source, rules="naspa")

    by_line = {(f.line, f.code): f for f in errors(report)}
    assert sorted(by_line) == [
        (8, "challenge_bonus_not_in_rules"),
        (31, "wrong_end_points"),
        (32, "unexpected_rack_penalty"),
    ]
    wrong = by_line[(31, "wrong_end_points")]
    assert (wrong.player, wrong.expected, wrong.recorded) == ("Paul", 2, 1)
    penalty = by_line[(32, "unexpected_rack_penalty")]
    assert (penalty.player, penalty.expected, penalty.recorded) == ("Ganesh", 0, -1)


def test_naspa_reports_end_points_that_are_not_twice_the_rack() -> None:
    # Line 36 ">Josh:  (RELATCH) +14 529": R1 E1 L1 A1 T1 C3 H4 = 12, twice that is 24.
    report = verify(
        corpus_game("magpie/test__testdata__end_rack_points_incorrect.gcg"), rules="naspa"
    )

    wrong = the_error(report, "wrong_end_points")
    assert (wrong.line, wrong.player, wrong.expected, wrong.recorded) == (36, "Josh", 24, 14)
    assert codes(report) == ["wrong_end_points"]
    # 515 + 24 = 539 is what Josh should have.
    assert totals(report)["Josh"] == (529, 539)


def test_wespa_names_the_player_who_still_owes_the_rack_penalty_correctly() -> None:
    # Under WESPA emely (who went out) has her line; doug's "EGOP (EGOP) -7" line is missing.
    report = verify(corpus_game(DOUG_V_EMELY), rules="wespa")

    missing = the_error(report, "missing_end_points")
    assert missing.player == "doug"
    assert "doug going out" not in missing.message
    assert missing.expected == -7


# -- six consecutive scoreless turns --------------------------------------------------------------

SIX_PASS = "magpie/test__testdata__success_six_pass.gcg"
# Two withdrawn phonies and four exchanges, then:
#   ">Marlon_Hill: ?AEEOTT (?AEEOTT) -6 -6"        0+1+1+1+1+1+1 = 6
#   ">Ben_Schoenbrun: EIOQRRT (EIOQRRT) -16 -16"   1+1+1+10+1+1+1 = 16


@pytest.mark.parametrize("rules", ["naspa", "wespa", "auto"])
def test_six_scoreless_turns_end_the_game_and_each_player_loses_their_own_rack(
    rules: str,
) -> None:
    report = verify(corpus_game(SIX_PASS), rules=rules)

    assert report.verified, [f.text() for f in report.findings]
    assert report.ended == "scoreless"
    assert totals(report) == {"Marlon_Hill": (-6, -6), "Ben_Schoenbrun": (-16, -16)}


def test_a_real_rack_penalty_that_is_not_the_racks_value_is_reported() -> None:
    # The same game with "-18 -18" for Ben's 16-point rack, on line 17.
    report = verify(
        corpus_game("magpie/test__testdata__last_rack_penalty_incorrect.gcg"), rules="naspa"
    )

    wrong = the_error(report, "wrong_end_penalty")
    assert (wrong.line, wrong.player, wrong.expected, wrong.recorded) == (
        17,
        "Ben_Schoenbrun",
        -16,
        -18,
    )
    assert totals(report)["Ben_Schoenbrun"] == (-18, -16)


@pytest.mark.parametrize("rules", ["naspa", "wespa", "auto"])
def test_a_hand_made_game_ends_after_six_scoreless_turns_with_exact_totals(rules: str) -> None:
    report = verify(SIX_SCORELESS, rules=rules)

    assert report.verified, [f.text() for f in report.findings]
    assert report.ended == "scoreless"
    assert report.turns[0].computed_score == 66
    assert [(t.line, t.computed_score) for t in report.turns[-2:]] == [(10, -16), (11, -13)]
    assert totals(report) == {"ann": (50, 50), "bob": (-13, -13)}


def test_a_rack_penalty_that_is_not_the_racks_value_gives_wrong_end_penalty() -> None:
    game = SIX_SCORELESS.replace("(AEIOQRT) -16 50", "(AEIOQRT) -15 51")

    report = verify(game, rules="naspa")

    assert codes(report) == ["wrong_end_penalty"]
    wrong = the_error(report, "wrong_end_penalty")
    assert (wrong.line, wrong.player, wrong.expected, wrong.recorded) == (10, "ann", -16, -15)
    assert totals(report)["ann"] == (51, 50)


def test_a_missing_rack_penalty_line_gives_missing_end_points() -> None:
    game = SIX_SCORELESS.replace(">bob: GLNOPUY (GLNOPUY) -13 -13\n", "")

    report = verify(game, rules="naspa")

    assert codes(report) == ["missing_end_points"]
    missing = the_error(report, "missing_end_points")
    assert (missing.line, missing.player) == (10, "bob")


def test_a_move_after_six_scoreless_turns_gives_event_after_end() -> None:
    # PLOYS down from J4 ends on the S of RETAINS (J8); J6 is a triple letter:
    # P3 + L1 + O1x3 + Y4 + S1 = 12, -13 + 12 = -1.
    game = SIX_SCORELESS + ">bob: GLNOPUY J4 PLOYS +12 -1\n"

    report = verify(game, rules="naspa")

    assert codes(report) == ["event_after_end"]
    after = the_error(report, "event_after_end")
    assert (after.line, after.player) == (12, "bob")


def test_five_scoreless_turns_do_not_end_a_naspa_game() -> None:
    # Without ann's last pass only five turns are scoreless: the rack lines come too early.
    game = SIX_SCORELESS.replace(">ann: AEIOQRT - +0 66\n>ann: AEIOQRT (", ">ann: AEIOQRT (")

    report = verify(game, rules="naspa")

    assert report.ended is None
    assert [(f.line, f.code) for f in errors(report)] == [
        (9, "end_before_end"),
        (10, "end_before_end"),
        (10, "not_finished"),
    ]


def test_home_rules_have_no_six_scoreless_turns_ending() -> None:
    # The two exchanges break the runs of passes, and home rules count only passes.
    report = verify(SIX_SCORELESS, rules="home")

    assert report.ended is None
    assert [(f.line, f.code) for f in errors(report)] == [
        (10, "end_before_end"),
        (11, "end_before_end"),
        (11, "not_finished"),
    ]


# -- home rules: the game ends when every player has passed twice in a row ------------------------

# TWO_PLAYER_PASSES (scoring_support): after RETAINS both players pass twice.

# Three players: after RETAINS six passes (lines 5-10), two by each player.
#   ann: AEIOQRT = 16, 66 - 16 = 50
#   bob: CDGLNOU = 11, -11
#   cat: BEFHMWY = 3+1+4+4+3+4+4 = 23, -23
THREE_PLAYERS = """\
#player1 ann Ann Able
#player2 bob Bob Baker
#player3 cat Cat Cole
>ann: AEINRST 8D RETAINS +66 66
>bob: CDGLNOU - +0 0
>cat: BEFHMWY - +0 0
>ann: AEIOQRT - +0 66
>bob: CDGLNOU - +0 0
>cat: BEFHMWY - +0 0
>ann: AEIOQRT - +0 66
>ann: AEIOQRT (AEIOQRT) -16 50
>bob: CDGLNOU (CDGLNOU) -11 -11
>cat: BEFHMWY (BEFHMWY) -23 -23
"""

# Four players: after RETAINS eight passes (lines 6-13), two by each player.
#   dan: EIJKLPS = 1+1+8+5+1+3+1 = 20, -20
FOUR_PLAYERS = """\
#player1 ann Ann Able
#player2 bob Bob Baker
#player3 cat Cat Cole
#player4 dan Dan Dale
>ann: AEINRST 8D RETAINS +66 66
>bob: CDGLNOU - +0 0
>cat: BEFHMWY - +0 0
>dan: EIJKLPS - +0 0
>ann: AEIOQRT - +0 66
>bob: CDGLNOU - +0 0
>cat: BEFHMWY - +0 0
>dan: EIJKLPS - +0 0
>ann: AEIOQRT - +0 66
>ann: AEIOQRT (AEIOQRT) -16 50
>bob: CDGLNOU (CDGLNOU) -11 -11
>cat: BEFHMWY (BEFHMWY) -23 -23
>dan: EIJKLPS (EIJKLPS) -20 -20
"""


def test_home_rules_end_a_two_player_game_after_two_rounds_of_passes() -> None:
    report = verify(TWO_PLAYER_PASSES, rules="home")

    assert report.verified, [f.text() for f in report.findings]
    assert report.ended == "passes"
    assert totals(report) == {"ann": (50, 50), "bob": (-11, -11)}


def test_naspa_does_not_end_a_game_after_four_passes() -> None:
    report = verify(TWO_PLAYER_PASSES, rules="naspa")

    assert report.ended is None
    assert [(f.line, f.code) for f in errors(report)] == [
        (8, "end_before_end"),
        (9, "end_before_end"),
        (9, "not_finished"),
    ]


@pytest.mark.parametrize("rules", ["home", "auto"])
def test_a_three_player_game_ends_when_every_player_has_passed_twice(rules: str) -> None:
    report = verify(THREE_PLAYERS, rules=rules)

    assert report.verified, [f.text() for f in report.findings]
    assert report.ended == "passes"
    assert [(t.line, t.nick, t.computed_score) for t in report.turns[-3:]] == [
        (11, "ann", -16),
        (12, "bob", -11),
        (13, "cat", -23),
    ]
    assert totals(report) == {"ann": (50, 50), "bob": (-11, -11), "cat": (-23, -23)}


@pytest.mark.parametrize("rules", ["home", "auto"])
def test_a_four_player_game_ends_when_every_player_has_passed_twice(rules: str) -> None:
    report = verify(FOUR_PLAYERS, rules=rules)

    assert report.verified, [f.text() for f in report.findings]
    assert report.ended == "passes"
    assert totals(report) == {
        "ann": (50, 50),
        "bob": (-11, -11),
        "cat": (-23, -23),
        "dan": (-20, -20),
    }


def test_auto_applies_home_rules_to_more_than_two_players() -> None:
    report = verify(FOUR_PLAYERS, rules="auto")

    assert report.rules.max_players == 4
    assert report.rules.pass_rounds == 2
    assert report.rules.scoreless_turns == 0
    assert report.rules.end_out == "transfer"


def test_five_passes_of_three_players_do_not_end_a_home_game() -> None:
    # Without ann's second pass, cat's pass on line 9 is only the fifth in a row.
    game = THREE_PLAYERS.replace(">ann: AEIOQRT - +0 66\n>ann: AEIOQRT (", ">ann: AEIOQRT (")

    report = verify(game, rules="home")

    assert report.ended is None
    assert [(f.line, f.code) for f in errors(report)] == [
        (10, "end_before_end"),
        (11, "end_before_end"),
        (12, "end_before_end"),
        (12, "not_finished"),
    ]


@pytest.mark.parametrize("game", [THREE_PLAYERS, FOUR_PLAYERS], ids=["three", "four"])
@pytest.mark.parametrize("rules", ["naspa", "wespa"])
def test_tournament_rules_refuse_more_than_two_players(game: str, rules: str) -> None:
    report = verify(game, rules=rules)

    too_many = the_error(report, "too_many_players")
    assert too_many.line == 0
    assert not report.verified
