"""Tests for scoring/lexicon.py: word lists, their kinds, and the validity marks of a game's words.

The word lists here are small made-up test lists, not extracts of the real Collins or NWL lists.
"""

from __future__ import annotations

import pytest

from scoring import verify
from scoring.lexicon import (
    COLLINS,
    NORTH_AMERICAN,
    OFFENSIVE,
    OTHER,
    Lexicon,
    LexiconError,
    Lexicons,
    load_lexicon,
    parse_lexicon,
)

HEADER = "#player1 a A\n#player2 b B\n"

COLLINS_WORDS = "AA\nQI\nWAI\nOX\nAE\nXE\nCAT\nCATS\n"
NA_WORDS = "AA\nQI\nZEN\nOX\nAE\nCAT\nCATS\n"


@pytest.fixture
def lists() -> Lexicons:
    return Lexicons(
        [
            parse_lexicon(COLLINS_WORDS, "CSW21"),
            parse_lexicon(NA_WORDS, "NWL2023"),
            parse_lexicon("QI\n", "offensive"),
        ]
    )


def write(tmp_path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


# -- marks ------------------------------------------------------------------------------------


def test_a_word_in_both_lists_has_no_mark(lists):
    assert lists.mark("AA") == ""


def test_a_word_only_in_the_collins_list_is_marked_hash(lists):
    assert lists.mark("WAI") == "#"


def test_a_word_only_in_the_north_american_list_is_marked_dollar(lists):
    assert lists.mark("ZEN") == "$"


def test_a_word_in_neither_list_is_marked_as_a_phony(lists):
    assert lists.mark("ZZX") == "*"


def test_a_word_on_the_offensive_list_is_marked_bang_even_when_valid(lists):
    assert lists.mark("QI") == "!"


def test_marks_ignore_the_case_of_the_word(lists):
    assert lists.mark("wai") == "#"
    assert lists.mark("zEn") == "$"
    assert lists.marks(["aa", "Wai", "zen", "zzx"]) == ["", "#", "$", "*"]


def test_with_only_a_collins_list_a_collins_word_has_no_mark():
    only = Lexicons([parse_lexicon(COLLINS_WORDS, "CSW21")])
    assert only.mark("WAI") == ""
    assert only.mark("ZEN") == "*"


def test_with_only_an_offensive_list_nothing_is_a_phony():
    only = Lexicons([parse_lexicon("QI\n", "offensive")])
    assert only.mark("QI") == "!"
    assert only.mark("ZZX") == ""


def test_no_lists_give_no_marks():
    none = Lexicons()
    assert len(none) == 0
    assert none.mark("ZZX") == ""


# -- reading lists ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("file_name", "kind"),
    [
        ("CSW21.txt", COLLINS),
        ("csw24.txt", COLLINS),
        ("sowpods.txt", COLLINS),
        ("NWL2023.txt", NORTH_AMERICAN),
        ("TWL06.txt", NORTH_AMERICAN),
        ("offensive.txt", OFFENSIVE),
        ("words.txt", OTHER),
    ],
)
def test_the_kind_of_a_list_is_guessed_from_its_file_name(tmp_path, file_name, kind):
    lexicon = load_lexicon(write(tmp_path, file_name, "AA\n"))
    assert lexicon.kind == kind
    assert lexicon.name == file_name.rsplit(".", 1)[0]
    assert lexicon.words == frozenset({"AA"})


@pytest.mark.parametrize(("prefix", "kind"), [("na", NORTH_AMERICAN), ("COLLINS", COLLINS)])
def test_kind_colon_path_overrides_the_guess_from_the_file_name(tmp_path, prefix, kind):
    path = write(tmp_path, "CSW21.txt", "AA\n")  # the name alone would say Collins
    lexicon = load_lexicon(f"{prefix}:{path}")
    assert lexicon.kind == kind


def test_comments_blank_lines_and_text_after_the_word_are_ignored(tmp_path):
    text = "# CSW21 test list\n\naa\n  QI  # a comment\nZA a word with a definition\n\n# end\n"
    lexicon = load_lexicon(write(tmp_path, "CSW21.txt", text))
    assert lexicon.words == frozenset({"AA", "QI", "ZA"})
    assert "qi" in lexicon
    assert "ZZ" not in lexicon


def test_a_word_followed_by_a_tab_and_a_definition_is_read_as_the_word():
    lexicon = parse_lexicon("AA\ta rough cindery lava\nQI\tvital force\n", "CSW21")
    assert lexicon.words == frozenset({"AA", "QI"})


def test_a_list_that_cannot_be_read_raises_lexicon_error(tmp_path):
    with pytest.raises(LexiconError, match="cannot read the word list"):
        load_lexicon(str(tmp_path / "missing.txt"))
    with pytest.raises(LexiconError):
        load_lexicon(str(tmp_path))  # a directory
    binary = tmp_path / "CSW21.txt"
    binary.write_bytes(b"AA\n\xff\xfe\n")
    with pytest.raises(LexiconError):
        load_lexicon(str(binary))


def test_an_unknown_kind_raises_lexicon_error():
    with pytest.raises(LexiconError, match="unknown kind"):
        parse_lexicon("AA\n", "list", kind="klingon")


# -- marks in a verified game -----------------------------------------------------------------


def test_a_verified_game_gives_each_play_its_main_word_and_cross_words_with_marks(lists):
    report = verify(
        HEADER
        # 8G OX: (1 + 8 on the centre) * 2 = 18
        + ">a: 8G OX +18 18\n"
        # 9G AE: AE 2 + 1 = 3, OA 1 + 2 = 3, XE 8 + 1 = 9 -> 15
        + ">b: 9G AE +15 15\n",
        lexicons=lists,
        upto=2,
    )
    assert [f for f in report.findings if f.is_error] == []
    first, second = report.turns
    assert first.words == [("OX", "")]
    # AE is in both lists, OA in neither, XE only in Collins
    assert second.words == [("AE", ""), ("OA", "*"), ("XE", "#")]
    assert second.computed_score == 15


def test_a_recorded_mark_that_disagrees_with_the_lists_is_a_mark_differs_warning(lists):
    report = verify(HEADER + ">a: 8G OX +18 18\n>b: 9G AE# +15 15\n", lexicons=lists, upto=2)
    differs = [f for f in report.findings if f.code == "mark_differs"]
    assert [(f.line, f.severity, f.expected, f.recorded) for f in differs] == [
        (4, "warning", "", "#")
    ]
    assert [f for f in report.findings if f.is_error] == []


def test_a_recorded_mark_that_agrees_with_the_lists_gives_no_finding(lists):
    # 8G XE#: X 8 + E on the centre 1 -> 9 * 2 = 18; XE is only in the Collins list
    report = verify(HEADER + ">a: 8G XE# +18 18\n", lexicons=lists, upto=1)
    assert report.findings == []
    assert report.turns[0].words == [("XE", "#")]
    assert report.turns[0].text == ">a: 8G XE# +18 18"


def test_a_recorded_mark_is_not_checked_without_lists():
    report = verify(HEADER + ">a: 8G XE* +18 18\n", upto=1)
    assert report.findings == []


def test_a_one_tile_play_lists_only_the_words_it_forms():
    report = verify(
        HEADER + ">a: 8G CAT +10 10\n>b: J8 S +6 6\n",
        lexicons=Lexicons([parse_lexicon("CAT\nCATS\n", "CSW21")]),
        upto=2,
    )
    assert report.turns[1].words == [("CATS", "")]


def test_a_lexicon_answers_membership_in_upper_or_lower_case():
    lexicon = Lexicon("test", OTHER, frozenset({"QI"}))
    assert "qi" in lexicon and "QI" in lexicon and "ZA" not in lexicon
