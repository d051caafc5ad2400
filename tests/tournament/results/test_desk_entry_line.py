"""The entry line a director types, read without the database: what it means and each refusal."""

from __future__ import annotations

import pytest

from tournament.results.services import Entry, EntryError, parse_line, plausibility


def test_it_reads_a_played_game() -> None:
    assert parse_line("12 455 7 389") == Entry("played", 12, 455, 7, 389)


def test_it_reads_a_line_with_extra_spaces() -> None:
    assert parse_line("  3   402\t4  398 ") == Entry("played", 3, 402, 4, 398)


def test_it_reads_negative_and_signed_scores() -> None:
    assert parse_line("3 -6 4 +16") == Entry("played", 3, -6, 4, 16)


def test_it_reads_a_tie() -> None:
    assert parse_line("1 400 2 400") == Entry("played", 1, 400, 2, 400)


@pytest.mark.parametrize("text", ["12 bye", "12 BYE", "12 b"])
def test_it_reads_a_bye(text: str) -> None:
    assert parse_line(text) == Entry("bye", 12)


@pytest.mark.parametrize("text", ["12 forfeit", "12 Forfeit", "12 f"])
def test_it_reads_a_forfeit(text: str) -> None:
    assert parse_line(text) == Entry("forfeit", 12)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "Type a result: P S Q T (ot P M), P bye or P forfeit."),
        ("   ", "Type a result: P S Q T (ot P M), P bye or P forfeit."),
        ("x 455 7 389", "'x' is not a player number."),
        ("0 455 7 389", "'0' is not a player number."),
        ("-3 455 7 389", "'-3' is not a player number."),
        ("12", "Player 12 needs a score, bye or forfeit: P S Q T (ot P M), P bye or P forfeit."),
        ("12 byes", "'byes' is not a score, bye or forfeit."),
        ("12 4x5 7 389", "'4x5' is not a score, bye or forfeit."),
        ("12 455", "A score needs the opponent and their score: P S Q T."),
        ("12 455 7", "The score of player 7 is missing: P S Q T."),
        ("12 455 seven 389", "'seven' is not a player number."),
        ("12 455 7 3o9", "'3o9' is not a score."),
        ("12 455 7 389 1", "Too many fields: P S Q T (ot P M), P bye or P forfeit."),
        ("12 455 12 389", "Player 12 cannot play themselves."),
        ("12 4555 7 389", "4555 is not a possible score (-200 to 1000)."),
        ("12 455 7 -201", "-201 is not a possible score (-200 to 1000)."),
        ("12 bye 50", "Nothing may follow 'bye': P bye."),
        ("12 forfeit 7", "Nothing may follow 'forfeit': P forfeit."),
    ],
)
def test_it_refuses_a_line_that_is_not_a_result(text: str, message: str) -> None:
    with pytest.raises(EntryError) as refused:
        parse_line(text)

    assert str(refused.value) == message


def test_it_accepts_the_highest_and_lowest_possible_scores() -> None:
    assert parse_line("1 1000 2 -200") == Entry("played", 1, 1000, 2, -200)


def test_ordinary_scores_raise_no_warning() -> None:
    assert plausibility(Entry("played", 12, 455, 7, 389)) == []
    assert plausibility(Entry("played", 12, 100, 7, 500)) == []  # the edges are ordinary
    assert plausibility(Entry("played", 12, 800, 7, 400)) == []


def test_a_low_or_high_score_is_a_warning() -> None:
    assert plausibility(Entry("played", 12, 99, 7, 389)) == [
        "99 for player 12 is low (under 100): check it."
    ]
    assert plausibility(Entry("played", 12, 455, 7, 801)) == [
        "801 for player 7 is high (over 800): check it."
    ]


def test_a_big_spread_is_a_warning() -> None:
    assert plausibility(Entry("played", 12, 650, 7, 249)) == [
        "A spread of 401 is large (over 400): check the scores."
    ]
    assert plausibility(Entry("played", 12, 650, 7, 250)) == []


def test_byes_and_forfeits_raise_no_score_warning() -> None:
    assert plausibility(Entry("bye", 12)) == []
    assert plausibility(Entry("forfeit", 12)) == []
