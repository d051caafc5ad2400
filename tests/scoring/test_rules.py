"""Rulesets: the built-in ones, a director's TOML variant, and the rules each one enforces
while replaying a game (challenge bonus, time penalty, exchanges, number of players).

Endings (going out, scoreless turns, passes) are in test_endings.py. The hand-made games here
were scored by hand; the arithmetic is in the comments next to each game.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from scoring_support import SIX_SCORELESS, TWO_PLAYER_PASSES, codes, corpus_game, the_error, totals

from scoring import Ruleset, builtin_rulesets, load_rules, verify
from scoring.rules import RulesError


def write_rules(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    return path


# -- the built-in rulesets ------------------------------------------------------------------------


def test_the_built_in_rulesets_are_auto_home_naspa_and_wespa() -> None:
    assert sorted(builtin_rulesets()) == ["auto", "home", "naspa", "wespa"]


@pytest.mark.parametrize("name", ["auto", "home", "naspa", "wespa"])
def test_every_built_in_ruleset_loads_under_its_own_name(name: str) -> None:
    rules = load_rules(name)

    assert isinstance(rules, Ruleset)
    assert rules.name == name
    assert (rules.rack_size, rules.bingo_bonus) == (7, 50)


def test_ruleset_names_are_read_without_regard_to_case() -> None:
    assert load_rules("NASPA") == load_rules("naspa")


def test_naspa_is_double_challenge_twice_the_rack_six_zeros_and_ten_points_a_minute() -> None:
    rules = load_rules("naspa")

    assert (rules.min_players, rules.max_players) == (2, 2)
    assert (rules.challenge, rules.challenge_points) == ("double", 0)
    assert rules.end_out == "double"
    assert (rules.scoreless_turns, rules.pass_rounds) == (6, 0)
    assert rules.time_penalty_per_minute == 10
    assert rules.exchange_min_bag == 7


def test_wespa_is_five_points_a_word_rack_transfer_six_zeros_and_ten_points_a_minute() -> None:
    rules = load_rules("wespa")

    assert (rules.min_players, rules.max_players) == (2, 2)
    assert (rules.challenge, rules.challenge_points) == ("penalty", 5)
    assert rules.end_out == "transfer"
    assert (rules.scoreless_turns, rules.pass_rounds) == (6, 0)
    assert rules.time_penalty_per_minute == 10
    assert rules.exchange_min_bag == 7


def test_home_is_two_to_four_players_rack_transfer_two_rounds_of_passes_and_no_clock() -> None:
    rules = load_rules("home")

    assert (rules.min_players, rules.max_players) == (2, 4)
    assert (rules.challenge, rules.challenge_points) == ("double", 0)
    assert rules.end_out == "transfer"
    assert (rules.scoreless_turns, rules.pass_rounds) == (0, 2)
    assert rules.time_penalty_per_minute == 0
    assert rules.exchange_min_bag == 7


def test_auto_takes_whatever_challenge_and_ending_the_record_uses() -> None:
    rules = load_rules("auto")

    assert rules.max_players == 4
    assert (rules.challenge, rules.end_out) == ("any", "any")
    assert rules.scoreless_turns == 6
    assert rules.time_penalty_per_minute == 10


def test_an_unknown_ruleset_name_raises_rules_error() -> None:
    with pytest.raises(RulesError):
        load_rules("triple-bogey")


# -- a director's variant in a TOML file ----------------------------------------------------------


def test_a_variant_file_starts_from_its_base_and_changes_only_what_it_says(
    tmp_path: Path,
) -> None:
    path = write_rules(tmp_path, "club", 'base = "wespa"\nchallenge_points = 10\n')

    rules = load_rules(str(path))

    assert rules.name == "club"
    assert (rules.challenge, rules.challenge_points) == ("penalty", 10)
    assert rules.end_out == "transfer"
    assert rules.scoreless_turns == 6
    assert rules.time_penalty_per_minute == 10


def test_a_variant_file_with_an_unknown_setting_raises_rules_error(tmp_path: Path) -> None:
    path = write_rules(tmp_path, "club", 'base = "wespa"\nchalenge_points = 10\n')

    with pytest.raises(RulesError, match="chalenge_points"):
        load_rules(str(path))


def test_a_variant_file_with_an_unknown_challenge_kind_raises_rules_error(tmp_path: Path) -> None:
    path = write_rules(tmp_path, "club", 'base = "naspa"\nchallenge = "triple"\n')

    with pytest.raises(RulesError, match="challenge"):
        load_rules(str(path))


def test_a_variant_file_based_on_itself_raises_rules_error(tmp_path: Path) -> None:
    path = write_rules(tmp_path, "club", 'base = "club"\nchallenge_points = 10\n')

    with pytest.raises(RulesError, match="itself"):
        load_rules(str(path))


def test_a_penalty_challenge_without_points_raises_rules_error(tmp_path: Path) -> None:
    path = write_rules(tmp_path, "club", 'base = "naspa"\nchallenge = "penalty"\n')

    with pytest.raises(RulesError, match="challenge_points"):
        load_rules(str(path))


def test_a_file_that_is_not_toml_raises_rules_error(tmp_path: Path) -> None:
    path = write_rules(tmp_path, "club", "base = wespa\n")

    with pytest.raises(RulesError):
        load_rules(str(path))


def test_a_variant_file_based_on_its_own_path_raises_rules_error(tmp_path: Path) -> None:
    path = tmp_path / "club.toml"
    path.write_text(f'base = "{path.as_posix()}"\nchallenge_points = 10\n', encoding="utf-8")

    with pytest.raises(RulesError):
        load_rules(str(path))


@pytest.mark.parametrize(
    "setting", ['challenge_points = "ten"', 'scoreless_turns = "six"'], ids=["points", "turns"]
)
def test_a_variant_file_with_a_word_where_a_number_belongs_raises_rules_error(
    tmp_path: Path, setting: str
) -> None:
    path = write_rules(tmp_path, "club", f'base = "wespa"\n{setting}\n')

    with pytest.raises(RulesError):
        load_rules(str(path))


# -- challenge bonus ------------------------------------------------------------------------------


def challenge_game(bonus: int, after: int, final: int) -> str:
    """ann's opening stands after bob's challenge; then six passes end the game.

    RETAINS 8D: R on D8 (double letter) 2 + ETAINS 6 = 8, x2 on H8 = 16, + 50 = 66.
    Line 4 is the bonus: after = 66 + bonus. Passes on lines 5-10 (bob first: under a penalty
    challenge the challenger keeps the turn). Rack lines 11 and 12:
    ann AEIOQRT = 1+1+1+1+10+1+1 = 16, final = after - 16; bob CDGLNOU = 3+2+2+1+1+1+1 = 11.
    """
    return f"""\
#player1 ann Ann Able
#player2 bob Bob Baker
>ann: AEINRST 8D RETAINS +66 66
>ann: AEIOQRT (challenge) +{bonus} {after}
>bob: CDGLNOU - +0 0
>ann: AEIOQRT - +0 {after}
>bob: CDGLNOU - +0 0
>ann: AEIOQRT - +0 {after}
>bob: CDGLNOU - +0 0
>ann: AEIOQRT - +0 {after}
>ann: AEIOQRT (AEIOQRT) -16 {final}
>bob: CDGLNOU (CDGLNOU) -11 -11
"""


CHALLENGE_LINE = 4


def test_wespa_accepts_a_five_point_challenge_bonus_after_a_play() -> None:
    report = verify(challenge_game(5, 71, 55), rules="wespa")

    assert report.verified, [f.text() for f in report.findings]
    bonus = next(t for t in report.turns if t.line == CHALLENGE_LINE)
    assert (bonus.kind, bonus.computed_score, bonus.computed_total) == ("challenge", 5, 71)
    assert totals(report) == {"ann": (55, 55), "bob": (-11, -11)}


def test_wespa_refuses_a_challenge_bonus_that_is_not_a_multiple_of_five() -> None:
    report = verify(challenge_game(7, 73, 57), rules="wespa")

    assert codes(report) == ["wrong_challenge_bonus"]
    wrong = the_error(report, "wrong_challenge_bonus")
    assert (wrong.line, wrong.player, wrong.expected, wrong.recorded) == (
        CHALLENGE_LINE,
        "ann",
        5,
        7,
    )


def test_naspa_has_no_challenge_bonus() -> None:
    report = verify(challenge_game(5, 71, 55), rules="naspa")

    assert codes(report) == ["challenge_bonus_not_in_rules"]
    bonus = the_error(report, "challenge_bonus_not_in_rules")
    assert (bonus.line, bonus.player, bonus.expected, bonus.recorded) == (
        CHALLENGE_LINE,
        "ann",
        0,
        5,
    )


def test_auto_accepts_the_challenge_bonus_the_record_shows() -> None:
    report = verify(challenge_game(5, 71, 55), rules="auto")

    assert report.verified
    assert report.conventions["challenge"] == "5-point bonus"


@pytest.mark.parametrize(("bonus", "after", "final"), [(10, 76, 60), (20, 86, 70)])
def test_a_ten_point_variant_accepts_ten_points_a_word(
    tmp_path: Path, bonus: int, after: int, final: int
) -> None:
    path = write_rules(tmp_path, "club", 'base = "wespa"\nchallenge_points = 10\n')

    report = verify(challenge_game(bonus, after, final), rules=str(path))

    assert report.rules.name == "club"
    assert report.verified, [f.text() for f in report.findings]
    assert totals(report)["ann"] == (final, final)


def test_a_ten_point_variant_refuses_a_five_point_bonus(tmp_path: Path) -> None:
    path = write_rules(tmp_path, "club", 'base = "wespa"\nchallenge_points = 10\n')

    report = verify(challenge_game(5, 71, 55), rules=str(path))

    assert codes(report) == ["wrong_challenge_bonus"]
    wrong = the_error(report, "wrong_challenge_bonus")
    assert (wrong.line, wrong.expected, wrong.recorded) == (CHALLENGE_LINE, 10, 5)


def test_a_ruleset_object_can_be_passed_directly() -> None:
    rules = Ruleset(name="ten", challenge="penalty", challenge_points=10, end_out="transfer")

    assert verify(challenge_game(20, 86, 70), rules=rules).verified
    assert codes(verify(challenge_game(5, 71, 55), rules=rules)) == ["wrong_challenge_bonus"]


def test_a_real_wespa_game_with_a_challenge_bonus_is_refused_under_naspa_only() -> None:
    # fivepoint.gcg line 8: ">Paul: ARTEQ?G  (challenge) +5 74" (69 + 5).
    source = corpus_game("quackle/test__positions__fivepoint.gcg")

    assert verify(source, rules="wespa").verified
    naspa = verify(source, rules="naspa")
    assert the_error(naspa, "challenge_bonus_not_in_rules").line == 8


# -- time penalties -------------------------------------------------------------------------------

# The hand-made game of scoring_support: six scoreless turns after RETAINS (66); ann ends
# on 50 and bob on -13.
SCORELESS_GAME = SIX_SCORELESS


@pytest.mark.parametrize("rules", ["naspa", "wespa", "auto"])
def test_time_penalties_of_ten_and_twenty_points_are_accepted(rules: str) -> None:
    # ann one minute over: 50 - 10 = 40; bob two minutes over: -13 - 20 = -33.
    game = SCORELESS_GAME + ">ann: AEIOQRT (time) -10 40\n>bob:  (time) -20 -33\n"

    report = verify(game, rules=rules)

    assert report.verified, [f.text() for f in report.findings]
    assert [(t.line, t.kind, t.computed_score) for t in report.turns[-2:]] == [
        (12, "time", -10),
        (13, "time", -20),
    ]
    assert totals(report) == {"ann": (40, 40), "bob": (-33, -33)}


def test_a_time_penalty_that_is_not_a_multiple_of_ten_gives_wrong_time_penalty() -> None:
    game = SCORELESS_GAME + ">ann: AEIOQRT (time) -15 35\n"

    report = verify(game, rules="naspa")

    assert codes(report) == ["wrong_time_penalty"]
    wrong = the_error(report, "wrong_time_penalty")
    assert (wrong.line, wrong.player, wrong.recorded) == (12, "ann", -15)


def test_a_second_time_penalty_for_the_same_player_gives_repeated_time_penalty() -> None:
    game = SCORELESS_GAME + ">ann: AEIOQRT (time) -10 40\n>ann: AEIOQRT (time) -10 30\n"

    report = verify(game, rules="naspa")

    assert codes(report) == ["repeated_time_penalty"]
    repeated = the_error(report, "repeated_time_penalty")
    assert (repeated.line, repeated.player) == (13, "ann")


def test_a_time_penalty_in_the_middle_of_the_game_gives_end_before_end() -> None:
    # The same game with ann's time penalty after her opening (line 4): 66 - 10 = 56, and
    # 56 - 16 = 40 at the end.
    game = (
        SCORELESS_GAME.replace("+66 66\n", "+66 66\n>ann: EIIOUVW (time) -10 56\n")
        .replace("+0 66", "+0 56")
        .replace("-16 50", "-16 40")
    )

    report = verify(game, rules="naspa")

    assert codes(report) == ["end_before_end"]
    early = the_error(report, "end_before_end")
    assert (early.line, early.player) == (4, "ann")
    assert report.ended == "scoreless"


def test_home_rules_have_no_clock_so_a_time_penalty_is_an_error() -> None:
    # Under home rules a 2-player game ends after four passes in a row: lines 4-7.
    # ann AEIOQRT 16: 66 - 16 = 50, 50 - 10 = 40; bob CDGLNOU 11: -11.
    game = TWO_PLAYER_PASSES + ">ann: AEIOQRT (time) -10 40\n"

    report = verify(game, rules="home")

    assert codes(report) == ["time_penalty_not_in_rules"]
    clock = the_error(report, "time_penalty_not_in_rules")
    assert (clock.line, clock.player, clock.expected, clock.recorded) == (10, "ann", 0, -10)


ISSUE_476 = "macondo/preendgame__testdata__issue_476.gcg"
# BestBot goes out with R (line 37), whatnoloan is left with NU (2 points):
#   line 38 ">BestBot: (NU) +4 443"                 439 + 2x2 = 443
#   line 39 ">whatnoloan: NU (time) -10 422"        432 - 10 = 422
SUCCESS_STANDARD = "magpie/test__testdata__success_standard.gcg"
# RightBehindYou goes out with OST (line 44), HastyBot is left with I (1 point):
#   line 45 ">RightBehindYou: (I) +2 378"           376 + 1x2 = 378
#   line 46 ">RightBehindYou:  (time) -20 358"      378 - 20 = 358


def test_a_real_game_with_a_ten_point_time_penalty_verifies_under_naspa() -> None:
    report = verify(corpus_game(ISSUE_476), rules="naspa")

    assert report.verified, [f.text() for f in report.findings]
    last = report.turns[-1]
    assert (last.line, last.nick, last.kind, last.computed_score) == (39, "whatnoloan", "time", -10)
    assert totals(report) == {"whatnoloan": (422, 422), "BestBot": (443, 443)}


def test_a_real_game_with_a_twenty_point_time_penalty_verifies_under_naspa() -> None:
    report = verify(corpus_game(SUCCESS_STANDARD), rules="naspa")

    assert report.verified, [f.text() for f in report.findings]
    last = report.turns[-1]
    assert (last.line, last.nick, last.kind, last.computed_score) == (
        46,
        "RightBehindYou",
        "time",
        -20,
    )
    assert totals(report) == {"HastyBot": (516, 516), "RightBehindYou": (358, 358)}


@pytest.mark.parametrize(
    ("name", "line", "nick", "penalty"),
    [(ISSUE_476, 39, "whatnoloan", -10), (SUCCESS_STANDARD, 46, "RightBehindYou", -20)],
    ids=["issue_476", "success_standard"],
)
def test_home_rules_refuse_the_time_penalty_of_a_real_game(
    name: str, line: int, nick: str, penalty: int
) -> None:
    report = verify(corpus_game(name), rules="home")

    clock = the_error(report, "time_penalty_not_in_rules")
    assert (clock.line, clock.player, clock.expected, clock.recorded) == (line, nick, 0, penalty)


def test_a_real_time_penalty_in_the_middle_of_the_game_gives_end_before_end() -> None:
    # success_standard.gcg with ">RightBehindYou:  (time) -20 111" inserted as line 18.
    report = verify(
        corpus_game("magpie/test__testdata__end_game_event_before_game_end.gcg"), rules="naspa"
    )

    early = the_error(report, "end_before_end")
    assert (early.line, early.player) == (18, "RightBehindYou")


# -- exchanges need seven tiles in the bag --------------------------------------------------------


def success_standard_up_to(marker: str, extra: str) -> str:
    """The first lines of success_standard.gcg up to the play containing marker, then extra."""
    lines = corpus_game(SUCCESS_STANDARD).decode().splitlines()
    cut = next(i for i, line in enumerate(lines) if marker in line)
    return "\n".join(lines[: cut + 1]) + "\n" + extra + "\n#incomplete\n"


# Tiles in the bag in success_standard.gcg: 100 - 14 dealt = 86. Tiles placed up to N.WISHLY
# (line 27): ZA 2, CRoWDIE 7, TANNERS 7, TANGOi.T 7, FEEB 4, NEUM 4, LEA 3, ED 2, VODKA 5
# (VOKDA was withdrawn), AB.RTIVE 7, GLORIAS 7, N.WISHLY 7 = 62, so 86 - 62 = 24 are left.
# Then DEF 3 -> 21, HOMY 4 -> 17, C.IGOE 5 -> 12, OU.A 3 -> 9, ..NJAX 4 -> 5.


def test_an_exchange_with_nine_tiles_in_the_bag_is_allowed() -> None:
    # After OU.A (line 38) the bag holds 9; HastyBot exchanges J instead of playing ..NJAX.
    game = success_standard_up_to("8A OU.A", ">HastyBot: AEEIJNX -J +0 437")

    report = verify(game, rules="naspa")

    assert "exchange_bag_too_small" not in codes(report)
    assert report.verified, [f.text() for f in report.findings]


@pytest.mark.parametrize("rules", ["naspa", "wespa", "home"])
def test_an_exchange_with_five_tiles_in_the_bag_gives_exchange_bag_too_small(rules: str) -> None:
    # After ..NJAX (line 39) the bag holds 5; RightBehindYou exchanges Q on line 40.
    game = success_standard_up_to("M10 ..NJAX", ">RightBehindYou: ILOOPQR -Q +0 289")

    report = verify(game, rules=rules)

    assert codes(report) == ["exchange_bag_too_small"]
    small = the_error(report, "exchange_bag_too_small")
    assert (small.line, small.player, small.expected, small.recorded) == (
        40,
        "RightBehindYou",
        7,
        5,
    )


# -- number of players and turn order -------------------------------------------------------------


def test_a_record_with_one_player_gives_too_few_players() -> None:
    game = "#player1 ann Ann Able\n>ann: AEINRST 8D RETAINS +66 66\n#incomplete\n"

    report = verify(game, rules="naspa")

    assert codes(report) == ["too_few_players"]


def test_three_players_are_too_many_for_naspa_but_not_for_home() -> None:
    game = """\
#player1 ann Ann Able
#player2 bob Bob Baker
#player3 cat Cat Cole
>ann: AEINRST 8D RETAINS +66 66
>bob: CDGLNOU - +0 0
#incomplete
"""

    assert codes(verify(game, rules="naspa")) == ["too_many_players"]
    assert codes(verify(game, rules="home")) == []


def test_with_three_players_the_turn_passes_to_the_second_player_not_the_third() -> None:
    game = """\
#player1 ann Ann Able
#player2 bob Bob Baker
#player3 cat Cat Cole
>ann: AEINRST 8D RETAINS +66 66
>cat: BEFHMWY - +0 0
#incomplete
"""

    report = verify(game, rules="home")

    wrong = the_error(report, "out_of_turn")
    assert (wrong.line, wrong.expected, wrong.recorded) == (5, "bob", "cat")
