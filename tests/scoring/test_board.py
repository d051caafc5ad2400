"""Tests for scoring/board.py: premium layouts, coordinates and the board as text."""

from __future__ import annotations

import pytest

from scoring import verify
from scoring.board import Board, LayoutError, Position, load_layout, parse_layout, parse_position

STANDARD = load_layout("standard15")


def square(name: str) -> int:
    """Index of a square written row first, e.g. "8H" -> 7 * 15 + 7."""
    pos = parse_position(name)
    assert pos is not None and pos.across
    return pos.row * STANDARD.size + pos.col


def premium(name: str) -> tuple[int, int]:
    """(letter multiplier, word multiplier) of a square of the standard board."""
    i = square(name)
    return STANDARD.letter_mult[i], STANDARD.word_mult[i]


# -- the standard layout ----------------------------------------------------------------------


def test_the_standard_board_is_15_by_15_with_its_centre_on_8h():
    assert STANDARD.size == 15
    assert len(STANDARD.letter_mult) == len(STANDARD.word_mult) == 225
    assert STANDARD.centre == square("8H") == 112
    assert STANDARD.square_name(STANDARD.centre) == "8H"
    assert STANDARD.square_name(0) == "1A"
    assert STANDARD.square_name(224) == "15O"


def test_the_standard_board_has_8_triple_words_17_double_words_12_triple_and_24_double_letters():
    words = STANDARD.word_mult
    letters = STANDARD.letter_mult
    assert sum(1 for m in words if m == 3) == 8
    assert sum(1 for m in words if m == 2) == 17  # 16 on the diagonals + the centre
    assert sum(1 for m in letters if m == 3) == 12
    assert sum(1 for m in letters if m == 2) == 24
    # No square is both a letter and a word premium.
    assert all(lm == 1 or wm == 1 for lm, wm in zip(letters, words, strict=True))


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("1A", (1, 3)),  # triple word in the corner
        ("1H", (1, 3)),
        ("15O", (1, 3)),
        ("8A", (1, 3)),
        ("8H", (1, 2)),  # the centre is a double word
        ("2B", (1, 2)),
        ("5E", (1, 2)),
        ("11K", (1, 2)),
        ("2F", (3, 1)),  # triple letter
        ("6B", (3, 1)),
        ("14J", (3, 1)),
        ("1D", (2, 1)),  # double letter
        ("8D", (2, 1)),
        ("7G", (2, 1)),
        ("4O", (2, 1)),
        ("1B", (1, 1)),  # plain
        ("8G", (1, 1)),
        ("9H", (1, 1)),
    ],
)
def test_a_square_of_the_standard_board_has_its_premium(name, expected):
    assert premium(name) == expected


def test_the_standard_board_is_symmetric_about_both_axes_and_the_diagonal():
    n = STANDARD.size
    for r in range(n):
        for c in range(n):
            here = (STANDARD.letter_mult[r * n + c], STANDARD.word_mult[r * n + c])
            for rr, cc in ((c, r), (n - 1 - r, c), (r, n - 1 - c)):
                assert (STANDARD.letter_mult[rr * n + cc], STANDARD.word_mult[rr * n + cc]) == here


def test_crossword_game_is_the_gcg_name_of_the_standard_layout():
    layout = load_layout("CrosswordGame")
    assert layout.letter_mult == STANDARD.letter_mult
    assert layout.word_mult == STANDARD.word_mult


def test_an_unknown_layout_name_raises_layout_error():
    with pytest.raises(LayoutError, match="no-such-board"):
        load_layout("no-such-board")


# -- coordinates ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("token", "expected"),
    [
        ("8H", Position(row=7, col=7, across=True)),  # row first: across
        ("H8", Position(row=7, col=7, across=False)),  # column first: down
        ("8h", Position(row=7, col=7, across=True)),
        ("h8", Position(row=7, col=7, across=False)),
        ("1A", Position(row=0, col=0, across=True)),
        ("A1", Position(row=0, col=0, across=False)),
        ("12D", Position(row=11, col=3, across=True)),
        ("D12", Position(row=11, col=3, across=False)),
        ("15O", Position(row=14, col=14, across=True)),
        ("o15", Position(row=14, col=14, across=False)),
    ],
)
def test_a_position_is_read_row_first_across_and_column_first_down_in_either_case(token, expected):
    assert parse_position(token) == expected


@pytest.mark.parametrize(
    "token",
    [
        "M70",  # row 70
        "16A",  # row 16
        "8P",  # column P
        "P8",
        "0A",  # rows start at 1
        "A0",
        "",
        "8",
        "H",
        "8HH",
        "HH8",
        "123A",
        "8-H",
        "H 8",
        "88",
    ],
)
def test_a_token_that_is_not_a_square_of_the_board_gives_none(token):
    assert parse_position(token) is None


def test_a_position_is_checked_against_the_size_of_the_board():
    assert parse_position("5E", size=5) == Position(row=4, col=4, across=True)
    assert parse_position("6A", size=5) is None
    assert parse_position("F1", size=5) is None


def test_every_position_of_the_board_reads_back_from_its_text():
    for row in range(15):
        for col in range(15):
            for across in (True, False):
                pos = Position(row, col, across)
                assert parse_position(pos.text()) == pos


def test_a_position_is_written_row_first_across_and_column_first_down():
    assert Position(7, 7, True).text() == "8H"
    assert Position(7, 7, False).text() == "H8"
    assert Position(11, 3, True).text() == "12D"
    assert Position(11, 3, False).text() == "D12"


# -- custom layouts ---------------------------------------------------------------------------

FIVE = """\
# a small board for tests
=.'.=
.-.".

'.-.'
.".-.
=.'.=
"""


def test_a_custom_layout_is_read_from_text_skipping_comments_and_blank_lines():
    layout = parse_layout(FIVE, name="five")
    assert layout.name == "five"
    assert layout.size == 5
    assert layout.centre == 12  # row 3, column C: (5 // 2) * 5 + 5 // 2
    assert layout.word_mult == (
        (3, 1, 1, 1, 3) + (1, 2, 1, 1, 1) + (1, 1, 2, 1, 1) + (1, 1, 1, 2, 1) + (3, 1, 1, 1, 3)
    )
    assert layout.letter_mult == (
        (1, 1, 2, 1, 1) + (1, 1, 1, 3, 1) + (2, 1, 1, 1, 2) + (1, 3, 1, 1, 1) + (1, 1, 2, 1, 1)
    )
    assert layout.square_name(12) == "3C"


def test_a_custom_layout_file_is_loaded_by_its_path(tmp_path):
    path = tmp_path / "five.layout"
    path.write_text(FIVE, encoding="utf-8")
    layout = load_layout(str(path))
    assert layout.size == 5
    assert layout.word_mult[0] == 3
    assert layout.letter_mult[(2 - 1) * 5 + 3] == 3  # row 2, column D: a triple letter


def test_a_layout_with_a_ragged_row_raises_layout_error():
    text = "=.=\n.-\n=.=\n"
    with pytest.raises(LayoutError, match="row 2 has 2 squares, expected 3"):
        parse_layout(text, name="ragged")


def test_a_layout_with_more_columns_than_rows_raises_layout_error():
    with pytest.raises(LayoutError, match="row 1 has 4 squares, expected 2"):
        parse_layout("....\n....\n", name="wide")


def test_a_layout_with_an_unknown_symbol_raises_layout_error():
    text = "=.=\n.x.\n=.=\n"
    with pytest.raises(LayoutError, match="row 2 has an unknown square 'x'"):
        parse_layout(text, name="odd")


def test_an_empty_layout_raises_layout_error():
    with pytest.raises(LayoutError, match="found 0"):
        parse_layout("# only a comment\n\n", name="empty")


# -- the board as text ------------------------------------------------------------------------


def test_an_empty_board_renders_its_premium_squares():
    lines = Board().render().splitlines()
    assert len(lines) == 16
    assert lines[0] == "    A B C D E F G H I J K L M N O"
    assert lines[1] == "  1 = . . ' . . . = . . . ' . . ="
    assert lines[2] == '  2 . - . . . " . . . " . . . - .'
    assert lines[8] == "  8 = . . ' . . . - . . . ' . . ="
    assert lines[15] == " 15 = . . ' . . . = . . . ' . . ="


def test_a_placed_tile_shows_on_the_rendered_board_instead_of_its_premium():
    board = Board()
    board.put(7, 7, "Q")
    assert board.count == 1
    lines = board.render().splitlines()
    assert lines[8] == "  8 = . . ' . . . Q . . . ' . . ="


def test_the_board_after_a_replay_shows_the_play_with_the_blank_in_lower_case():
    report = verify("#player1 a A\n#player2 b B\n>a: 8G ZaP +26 26\n", upto=1)
    lines = report.board.render().splitlines()
    assert lines[8] == "  8 = . . ' . . Z a P . . ' . . ="
    assert report.board.tiles() == ["Z", "a", "P"]
    assert report.board.at(7, 7) == "a"
