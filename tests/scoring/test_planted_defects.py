"""Defects planted in a real game are found on the line where they were planted."""

from __future__ import annotations

import pytest
from scoring_support import CORPUS

from scoring import verify

GAME = CORPUS / "macondo" / "gcgio__testdata__doug_v_emely.gcg"

pytestmark = pytest.mark.skipif(not GAME.exists(), reason="the shared corpus is not available")


def _lines() -> list[str]:
    return GAME.read_text(encoding="utf-8").splitlines()


def _plant(number: int, old: str, new: str) -> str:
    """The game with line ``number`` (1-based) changed; the change must apply."""
    lines = _lines()
    assert old in lines[number - 1], lines[number - 1]
    lines[number - 1] = lines[number - 1].replace(old, new)
    return "\n".join(lines) + "\n"


def _errors(text: str) -> list[tuple[int, str]]:
    return [(f.line, f.code) for f in verify(text).findings if f.severity == "error"]


def test_the_untouched_game_verifies() -> None:
    report = verify(GAME.read_bytes())
    assert report.findings == []
    assert [p.final for p in report.players] == [451, 345]


def test_a_wrong_move_score_is_found_on_its_line_with_both_values() -> None:
    # WINDY at 8D scores 32; write 34 and carry the total on consistently.
    text = _plant(3, "+32 32", "+34 34")
    report = verify(text)
    wrong = [f for f in report.findings if f.code == "wrong_score"]
    assert [(f.line, f.expected, f.recorded, f.player) for f in wrong] == [(3, 32, 34, "doug")]
    # The player's own arithmetic stays right afterwards, but every later total is 2 too high.
    assert [f.line for f in report.findings] == [3, 5]
    assert report.findings[1].code == "wrong_total"


def test_an_addition_error_is_reported_once_where_it_happens() -> None:
    # 148 + 16 = 164 on line 10; write 174 and let the later totals follow from it.
    lines = _lines()
    lines[9] = lines[9].replace("+16 164", "+16 174")
    for k in (11, 13, 15, 17, 19, 21, 23, 25, 27):  # doug's later lines
        *head, total = lines[k].split(" ")
        lines[k] = " ".join([*head, str(int(total) + 10)])
    report = verify("\n".join(lines) + "\n")
    assert [(f.line, f.code, f.expected, f.recorded) for f in report.findings] == [
        (10, "wrong_total", 164, 174)
    ]
    assert report.players[0].final == 461
    assert report.players[0].computed == 451


def test_a_transposed_coordinate_is_found_on_its_line() -> None:
    # LATINO was played down column A from row 5; written across row 5 it does not fit the board.
    errors = _errors(_plant(12, "A5 LATINO", "5A LATINO"))
    assert errors[0][0] == 12
    assert errors[0][1] in ("wrong_score", "not_connected", "square_occupied", "not_whole_word")


def test_a_transposed_coordinate_through_tiles_is_found_on_its_line() -> None:
    # JAVE..N down column E; across row 3 its dots stand on empty squares.
    assert _errors(_plant(5, "E3 JAVE..N", "3E JAVE..N"))[0] == (5, "playthrough_empty")


def test_wrong_end_points_are_found_on_the_last_line() -> None:
    report = verify(_plant(30, "(OPEG) +14 345", "(OPEG) +7 338"))
    assert [(f.line, f.code, f.expected, f.recorded) for f in report.findings] == [
        (30, "wrong_end_points", 14, 7)
    ]


def test_a_move_out_of_turn_is_found_on_its_line() -> None:
    # doug's line 10 written as emely's: emely then moves twice in a row.
    errors = _errors(_plant(10, ">doug: AAEINRU", ">emely: AAEINRU"))
    assert errors[0] == (10, "out_of_turn")


def test_an_overfull_rack_is_found_on_its_line() -> None:
    errors = _errors(_plant(7, "ADENOST 10B", "ADENOSTR 10B"))
    assert errors == [(7, "rack_too_big")]


def test_a_rack_with_tiles_already_played_out_is_found_on_its_line() -> None:
    # Both blanks are on the board by line 29 (RE.IgION and .aFS use them); a third cannot exist.
    errors = _errors(_plant(29, ">emely: ?FS 14L .aFS", ">emely: ??FS 14L .aFS"))
    assert errors[0][0] == 29
