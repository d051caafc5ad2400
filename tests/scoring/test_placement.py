"""Tests for placing plays and scoring them (scoring/replay.py), on hand-made two-player records.

Every record starts with ``#player1 a A`` and ``#player2 b B``, so its first event is on line 3.
Each expected score is worked out by hand in a comment: English tile values, standard board.
"""

from __future__ import annotations

import pytest

from scoring import Report, verify

HEADER = "#player1 a A\n#player2 b B\n"


def replay(*events: str) -> Report:
    """The events after the header, checked up to the last one (the game is not over)."""
    return verify(HEADER + "\n".join(events) + "\n", upto=len(events))


def errors(report: Report) -> list[tuple[int, str]]:
    return [(f.line, f.code) for f in report.findings if f.is_error]


def finding(report: Report, code: str):
    found = [f for f in report.findings if f.code == code]
    assert len(found) == 1, report.findings
    return found[0]


def turn(report: Report, line: int):
    return next(t for t in report.turns if t.line == line)


# -- scoring ----------------------------------------------------------------------------------


def test_a_first_play_doubles_on_the_centre_and_doubles_a_letter_on_8d():
    # 8D FAXES: F on 8D (DL) 4*2=8, A 1, X 8, E 1, S on 8H (DW) 1 -> 19 * 2 = 38
    report = replay(">a: 8D FAXES +38 38")
    assert errors(report) == []
    assert turn(report, 3).computed_score == 38
    assert turn(report, 3).words == [("FAXES", "")]


def test_letter_and_word_premiums_count_only_under_the_tiles_just_placed():
    report = replay(
        # 8D FAXES = 38 (above)
        ">a: 8D FAXES +38 38",
        # D7 OF: O on 7D (plain) 1 + F already on 8D, its double letter used up: 4 -> 5
        ">b: D7 O. +5 5",
        # H7 ASH: A 1 + S already on the centre, its double word used up: 1 + H 4 -> 6
        ">a: H7 A.H +6 44",
    )
    assert errors(report) == []
    assert [t.computed_score for t in report.turns] == [38, 5, 6]
    assert turn(report, 4).words == [("OF", "")]
    assert turn(report, 5).words == [("ASH", "")]
    assert [p.computed for p in report.players] == [44, 5]


def test_a_word_on_two_double_word_squares_scores_four_times():
    report = replay(
        # 8E BEAT: B 3 + E 1 + A 1 + T on 8H (DW) 1 -> 6 * 2 = 12
        ">a: 8E BEAT +12 12",
        # E5 NUMBERS down through the B on 8E: N on 5E (DW) and S on 11E (DW), nothing else
        # is a premium: N1 U1 M3 B3 E1 R1 S1 = 11 -> 11 * 2 * 2 = 44 (6 tiles: no bingo)
        ">b: E5 NUM.ERS +44 44",
    )
    assert errors(report) == []
    assert turn(report, 4).computed_score == 44
    assert turn(report, 4).words == [("NUMBERS", "")]


def test_a_word_from_one_triple_word_square_to_another_scores_nine_times():
    report = replay(
        # 8C RANGER: R 1, A on 8D (DL) 2, N 1, G 2, E 1, R on 8H (DW) 1 -> 8 * 2 = 16
        ">a: 8C RANGER +16 16",
        # C1 STRANGER down to the R on 8C: S1 T1, R on 3C (DW) 1, A1 N1 G2, E on 7C (DL) 2,
        # R 1 = 10 -> 10 * 2 = 20, + 50 for 7 tiles = 70
        ">b: C1 STRANGER +70 70",
        # F1 UPRISING down to the G on 8F: U1, P on 2F (TL) 9, R1 I1 S1, I on 6F (TL) 3, N1,
        # G 2 -> 19, + 50 for 7 tiles = 69
        ">a: F1 UPRISING +69 85",
        # 1A ABSOLUTE through the S on 1C and the U on 1F: A on 1A (TW) 1, B 3, S 1,
        # O on 1D (DL) 2, L 1, U 1, T 1, E on 1H (TW) 1 = 11 -> 11 * 3 * 3 = 99 (6 tiles)
        ">b: 1A ABSOLUTE +99 169",
    )
    assert errors(report) == []
    assert [t.computed_score for t in report.turns] == [16, 70, 69, 99]
    assert turn(report, 6).words == [("ABSOLUTE", "")]
    assert [p.computed for p in report.players] == [85, 169]


def test_every_cross_word_formed_scores_with_the_new_tiles_premiums():
    report = replay(
        # 8G OX: O 1 + X on 8H (DW) 8 -> 9 * 2 = 18
        ">a: 8G OX +18 18",
        # 9G AE under OX: main AE = A on 9G (DL) 2 + E 1 = 3;
        # cross OA = O 1 + A on 9G (DL) 2 = 3; cross XE = X 8 + E 1 = 9 -> 3 + 3 + 9 = 15
        ">b: 9G AE +15 15",
    )
    assert errors(report) == []
    assert turn(report, 4).computed_score == 15
    assert turn(report, 4).words == [("AE", ""), ("OA", ""), ("XE", "")]


def test_a_cross_word_through_a_new_tile_on_a_double_word_square_is_doubled_too():
    report = replay(
        # 8F TAN: T 1, A 1, N on 8H (DW) 1 -> 3 * 2 = 6
        ">a: 8F TAN +6 6",
        # F5 BEST down to the T on 8F: B 3, E on 6F (TL) 3, S 1, T 1 -> 8
        ">b: F5 BES. +8 8",
        # E4 ZA down: Z 10 + A on 5E (DW) 1 -> 11 * 2 = 22;
        # cross AB across row 5: A on 5E (DW) 1 + B 3 -> 4 * 2 = 8 -> 30
        ">a: E4 ZA +30 36",
    )
    assert errors(report) == []
    assert [t.computed_score for t in report.turns] == [6, 8, 30]
    assert turn(report, 5).words == [("ZA", ""), ("AB", "")]


def test_a_blank_scores_nothing_even_on_a_double_letter_square():
    # 8D zEBRA: blank z on 8D (DL) 0, E 1, B 3, R 1, A on 8H (DW) 1 -> 6 * 2 = 12
    blank = replay(">a: 8D zEBRA +12 12")
    # 8D ZEBRA with a real Z: 10 * 2 = 20 + 1 + 3 + 1 + 1 = 26 -> 26 * 2 = 52
    real = replay(">a: 8D ZEBRA +52 52")
    assert errors(blank) == [] and errors(real) == []
    assert turn(blank, 3).computed_score == 12
    assert turn(real, 3).computed_score == 52
    assert turn(blank, 3).words == [("zEBRA", "")]


def test_a_blank_on_a_double_word_square_still_doubles_the_word():
    # 8G ZaP: Z 10, blank a on 8H (DW) 0, P 3 -> 13 * 2 = 26
    report = replay(">a: 8G ZaP +26 26")
    assert errors(report) == []
    assert turn(report, 3).computed_score == 26


def test_a_blank_already_on_the_board_still_scores_nothing_when_played_through():
    report = replay(
        ">a: 8G ZaP +26 26",
        # H7 TAN down through the blank a on 8H: T 1 + blank 0 + N 1 -> 2
        ">b: H7 TAN +2 2",
    )
    assert errors(report) == []
    assert turn(report, 4).computed_score == 2
    assert turn(report, 4).words == [("TaN", "")]
    assert report.canonical[4] == ("H7", "T.N")


def test_the_50_point_bingo_is_added_after_the_word_is_multiplied():
    # 8H RETAINS: R on 8H (DW) 1, E1 T1 A1, I on 8L (DL) 2, N1 S1 = 8 -> 8 * 2 = 16 + 50 = 66
    # (adding the 50 before doubling would give 116)
    report = replay(">a: 8H RETAINS +66 66")
    assert errors(report) == []
    assert turn(report, 3).computed_score == 66


@pytest.mark.parametrize("word", ["DE....S", "DETAINS", "DE(TAIN)S"])
def test_play_through_written_as_dots_letters_or_parentheses_scores_the_same(word):
    report = replay(
        # 8F TAIN: T1 A1, I on 8H (DW) 1, N1 -> 4 * 2 = 8
        ">a: 8F TAIN +8 8",
        # 8D DETAINS: D on 8D (DL) 2*2 = 4, E 1, TAIN already down 4 (the centre's double word
        # used up), S 1 -> 10
        f">b: 8D {word} +10 10",
    )
    assert errors(report) == []
    assert turn(report, 4).computed_score == 10
    assert turn(report, 4).words == [("DETAINS", "")]
    assert report.canonical[4] == ("8D", "DE....S")


def test_a_lower_case_position_is_read_like_an_upper_case_one():
    report = replay(
        ">a: 8f TAIN +8 8",
        # h7 AIE down through the I on 8H: A 1 + I 1 (its double word used up) + E 1 = 3
        ">b: h7 A.E +3 3",
    )
    assert errors(report) == []
    assert [t.computed_score for t in report.turns] == [8, 3]
    assert report.canonical == {3: ("8F", "TAIN"), 4: ("H7", "A.E")}


# -- where a play may go ----------------------------------------------------------------------


def test_a_first_play_that_misses_the_centre_is_reported():
    # 9A ZA: Z 10 + A 1, no premium -> 11
    report = replay(">a: 9A ZA +11 11")
    assert errors(report) == [(3, "first_move_off_centre")]
    assert finding(report, "first_move_off_centre").recorded == "9A ZA"


def test_a_first_play_of_one_tile_is_reported():
    report = replay(">a: 8H A +2 2")
    assert [e for e in errors(report) if e[1] == "first_move_one_tile"] == [
        (3, "first_move_one_tile")
    ]


def test_a_play_that_touches_no_tile_is_reported():
    report = replay(
        ">a: 8G OX +18 18",
        # 1A ZA: Z on 1A (TW) 10 + A 1 -> 11 * 3 = 33
        ">b: 1A ZA +33 33",
    )
    assert errors(report) == [(4, "not_connected")]
    assert finding(report, "not_connected").recorded == "1A ZA"


def test_a_letter_on_a_square_holding_a_different_tile_is_reported():
    report = replay(">a: 8G OX +18 18", ">b: H7 AB +4 4")
    assert errors(report) == [(4, "square_occupied")]
    found = finding(report, "square_occupied")
    assert (found.expected, found.recorded) == ("X", "B")
    assert finding(report, "board_unknown").line == 4


@pytest.mark.parametrize("word", [".A", "(B)A"])
def test_play_through_over_an_empty_square_is_reported(word):
    report = replay(">a: 8G OX +18 18", f">b: 9G {word} +2 2")
    assert errors(report) == [(4, "playthrough_empty")]


def test_a_word_running_off_the_board_is_reported():
    # 8L ABCDE would need columns L to P
    report = replay(">a: 8L ABCDE +9 9")
    assert errors(report) == [(3, "off_board")]


@pytest.mark.parametrize("position", ["8P", "M70", "16A"])
def test_a_position_that_is_not_a_square_is_reported(position):
    report = replay(f">a: {position} AB +8 8")
    assert errors(report) == [(3, "bad_position")]
    assert finding(report, "bad_position").recorded == position


def test_a_digit_in_the_word_is_an_unknown_tile():
    report = replay(">a: 8H C4T +5 5")
    assert errors(report) == [(3, "unknown_tile")]
    assert finding(report, "unknown_tile").recorded == "C4T"


def test_a_word_that_stops_next_to_a_tile_is_not_the_whole_word():
    report = replay(
        ">a: 8G OX +18 18",
        # 8E AB ends on 8F, next to the O on 8G: the word formed is ABOX. A 1 + B 3 = 4
        ">b: 8E AB +4 4",
    )
    assert errors(report) == [(4, "not_whole_word")]


# -- racks and tiles --------------------------------------------------------------------------


def test_a_play_of_tiles_the_rack_does_not_hold_is_reported():
    # 8H ZA: Z on 8H (DW) 10 + A 1 -> 11 * 2 = 22
    report = replay(">a: ABC 8H ZA +22 22")
    assert errors(report) == [(3, "tiles_not_in_rack")]
    found = finding(report, "tiles_not_in_rack")
    assert (found.expected, found.recorded) == ("ABC", "ZA")


def test_a_rack_of_eight_tiles_is_too_big():
    # 8H AB: (1 + 3) * 2 = 8
    report = replay(">a: ABCDEFGH 8H AB +8 8")
    assert errors(report) == [(3, "rack_too_big")]
    found = finding(report, "rack_too_big")
    assert (found.expected, found.recorded) == (7, 8)


def test_a_rack_with_two_zs_cannot_be_drawn_from_a_bag_with_one():
    report = replay(">a: ZZA 8H ZA +22 22")
    assert errors(report) == [(3, "rack_not_drawable")]
    found = finding(report, "rack_not_drawable")
    assert (found.expected, found.recorded) == ("1 Z", "2 Z")


def test_a_rack_with_a_tile_twice_is_drawable_while_two_are_unseen():
    # 8H AB: (1 + 3) * 2 = 8; the set has two Bs
    assert errors(replay(">a: BBA 8H AB +8 8")) == []


def test_a_rack_with_a_tile_twice_cannot_be_drawn_once_one_is_on_the_board():
    # 8H AB: (1 + 3) * 2 = 8, which leaves one B unseen
    report = replay(">a: ABC 8H AB +8 8", ">b: BBE - +0 0")
    assert errors(report) == [(4, "rack_not_drawable")]
    found = finding(report, "rack_not_drawable")
    assert (found.expected, found.recorded) == ("1 B", "2 B")


def test_a_play_using_a_tile_twice_that_the_rack_holds_once_is_reported():
    # 8H BAA: B on 8H (DW) 3, A 1, A 1 -> 5 * 2 = 10
    assert errors(replay(">a: AAB 8H BAA +10 10")) == []
    report = replay(">a: ABX 8H BAA +10 10")
    assert errors(report) == [(3, "tiles_not_in_rack")]
    found = finding(report, "tiles_not_in_rack")
    assert (found.expected, found.recorded) == ("ABX", "BAA")
    assert "uses A," in found.message


def test_a_play_written_only_as_tiles_on_the_board_places_no_tile():
    report = replay(">a: AB 8H AB +8 8", ">b: XY 8H .. +0 0")
    assert errors(report) == [(4, "no_new_tiles")]
    assert report.board.tiles() == ["A", "B"]


def test_a_third_blank_on_the_board_is_too_many_tiles_even_without_racks():
    report = replay(
        # 8H aB: blank 0 on 8H (DW), B 3 -> 3 * 2 = 6
        ">a: 8H aB +6 6",
        # I7 oBo: blank on 7I 0, B 3 (already down), blank on 9I 0 -> 3; the set has 2 blanks
        ">b: I7 o.o +3 3",
    )
    assert errors(report) == [(4, "too_many_tiles")]


def test_a_malformed_rack_is_reported_and_the_play_still_scored():
    # 8H MOLT: M on 8H (DW) 3, O1 L1 T1 -> 6 * 2 = 12
    report = replay(">a: KLMO8RTV 8H MOLT +12 12")
    assert errors(report) == [(3, "malformed_rack")]
    assert finding(report, "malformed_rack").recorded == "KLMO8RTV"
    assert turn(report, 3).computed_score == 12


def test_an_exchange_of_tiles_not_in_the_rack_is_reported():
    report = replay(">a: ABCDEFG -XYZ +0 0")
    assert errors(report) == [(3, "tiles_not_in_rack")]
    found = finding(report, "tiles_not_in_rack")
    assert (found.expected, found.recorded) == ("ABCDEFG", "XYZ")


# -- scores and totals ------------------------------------------------------------------------


def test_a_wrong_score_gives_the_expected_and_the_recorded_score():
    # 8H ZA = 22 (above), recorded 21; the total 21 agrees with the recorded score
    report = replay(">a: 8H ZA +21 21")
    assert errors(report) == [(3, "wrong_score")]
    found = finding(report, "wrong_score")
    assert (found.expected, found.recorded, found.player) == (22, 21, "a")


def test_a_wrong_total_is_reported_once_on_the_line_where_the_addition_goes_wrong():
    report = replay(
        # 8H ZA = 22, but the total says 23
        ">a: 8H ZA +22 23",
        # I7 BAN: B on 7I (DL) 6, A 1 (already down), N on 9I (DL) 2 -> 9
        ">b: I7 B.N +9 9",
        # H8 ZO: Z 10 (already down) + O 1 = 11; cross ON: O 1 + N 1 = 2 -> 13; 23 + 13 = 36
        ">a: H8 .O +13 36",
    )
    assert errors(report) == [(3, "wrong_total")]
    found = finding(report, "wrong_total")
    assert (found.expected, found.recorded) == (22, 23)
    assert turn(report, 5).words == [("ZO", ""), ("ON", "")]
    assert (report.players[0].final, report.players[0].computed) == (36, 35)


# -- turns and players ------------------------------------------------------------------------


def test_a_player_moving_twice_in_a_row_is_out_of_turn():
    report = replay(">a: 8H ZA +22 22", ">a: I7 B.N +9 31")
    assert errors(report) == [(4, "out_of_turn")]
    found = finding(report, "out_of_turn")
    assert (found.expected, found.recorded) == ("b", "a")


def test_a_move_by_a_nick_that_is_not_a_player_is_reported():
    report = replay(">c: 8H AB +8 8")
    assert errors(report) == [(3, "unknown_player")]
    assert finding(report, "unknown_player").recorded == "c"


# -- phonies and challenges -------------------------------------------------------------------


def test_a_withdrawn_phony_comes_off_the_board_and_its_points_off_the_total():
    report = replay(
        # 8H AB: (1 + 3) * 2 = 8
        ">a: AB 8H AB +8 8",
        ">a: AB -- -8 0",
        # the board is empty again, so b's play must cover the centre: 8G ZA, Z 10 + A on 8H
        # (DW) 1 -> 22
        ">b: 8G ZA +22 22",
    )
    assert errors(report) == []
    assert turn(report, 4).computed_score == -8
    assert report.board.tiles() == ["Z", "A"]
    assert [p.computed for p in report.players] == [0, 22]


def test_a_phony_withdrawn_after_a_pass_has_no_play_to_withdraw():
    report = replay(">a: 8H AB +8 8", ">b: - +0 0", ">a: AB -- -8 0")
    assert errors(report) == [(5, "phony_without_play")]


def test_a_phony_withdrawn_by_the_other_player_is_reported():
    report = replay(">a: 8H AB +8 8", ">b: -- -8 0")
    assert errors(report) == [(4, "phony_wrong_player")]
    found = finding(report, "phony_wrong_player")
    assert (found.expected, found.recorded) == ("a", "b")


def test_a_phony_withdrawn_with_a_different_rack_is_reported():
    report = replay(">a: ABC 8H AB +8 8", ">a: ABD -- -8 0")
    assert errors(report) == [(4, "phony_rack_mismatch")]
    found = finding(report, "phony_rack_mismatch")
    assert (found.expected, found.recorded) == ("ABC", "ABD")


def test_a_challenge_bonus_with_no_play_before_it_is_reported():
    report = replay(">a: (challenge) +5 5")
    assert errors(report) == [(3, "challenge_without_play")]


# -- engine bugs ------------------------------------------------------------------------------


def test_a_one_tile_play_scores_only_the_words_it_forms_whichever_way_it_is_written():
    report = replay(
        # 8G CAT: C 3, A on 8H (DW) 1, T 1 -> 5 * 2 = 10
        ">a: 8G CAT +10 10",
        # an S on 8J makes CATS: 3 + 1 + 1 + 1 = 6 (no premium on 8J); a lone S is no word
        ">b: J8 S +6 6",
    )
    assert errors(report) == []
    assert turn(report, 4).computed_score == 6
    assert turn(report, 4).words == [("CATS", "")]
