"""Playoffs: a best-of-5 final decided after 3–0 and after 3–2, and elimination brackets."""

from __future__ import annotations

import pytest

from tournament.engine.playoffs import (
    PlayoffError,
    Series,
    bracket_order,
    final,
    first_round,
    next_round,
)


def test_a_best_of_5_final_is_decided_after_3_0() -> None:
    series = final(["ann", "bea", "cal"], 5)
    assert (series.seed1, series.seed2) == ("ann", "bea")
    for score1, score2 in ((450, 400), (390, 380), (501, 322)):
        assert not series.decided
        series = series.add(score1, score2)
    assert (series.winner, series.result, series.spread) == ("ann", "3–0", 239)
    with pytest.raises(PlayoffError, match="decided"):
        series.add(400, 300)


def test_a_best_of_5_final_is_decided_after_3_2() -> None:
    series = Series("ann", "bea", 5)
    games = [(400, 450), (420, 380), (300, 410), (455, 454), (399, 398)]
    for n, (score1, score2) in enumerate(games, start=1):
        series = series.add(score1, score2)
        if n < 5:
            assert series.winner is None, n
    assert (series.winner, series.result) == ("ann", "3–2")
    # The second seed comes from behind the other way round.
    back = Series("ann", "bea", 5)
    for score1, score2 in ((450, 400), (450, 400), (300, 400), (300, 400), (300, 400)):
        back = back.add(score1, score2)
    assert (back.winner, back.result) == ("bea", "2–3")


def test_a_tie_leaves_a_series_level_and_one_more_game_decides_it() -> None:
    series = Series("ann", "bea", 3)
    for score1, score2 in ((400, 400), (450, 400), (300, 400)):
        series = series.add(score1, score2)
    assert (series.result, series.decided, series.needs_more) == ("1.5–1.5", False, True)
    series = series.add(380, 370)
    assert (series.winner, series.result) == ("ann", "2.5–1.5")


def test_who_goes_first_alternates_the_higher_seed_first() -> None:
    series = Series("ann", "bea", 5)
    assert [series.first_in(g) for g in range(1, 6)] == ["ann", "bea", "ann", "bea", "ann"]


def test_an_even_series_or_a_final_of_one_player_is_refused() -> None:
    with pytest.raises(PlayoffError, match="best-of-4"):
        Series("ann", "bea", 4)
    with pytest.raises(PlayoffError, match="two players"):
        final(["ann"])


def test_a_bracket_is_seeded_from_the_standings_with_byes_for_the_top_seeds() -> None:
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    seeded = ["s1", "s2", "s3", "s4", "s5", "s6"]
    assert first_round(seeded) == [("s1", None), ("s4", "s5"), ("s2", None), ("s3", "s6")]
    # Seeds 1 and 2 can only meet in the final.
    assert next_round(["s1", "s4", "s2", "s3"]) == [("s1", "s4"), ("s2", "s3")]
    assert next_round(["s1", "s2"]) == [("s1", "s2")]
    with pytest.raises(PlayoffError, match="power of two"):
        bracket_order(6)


def test_a_playoff_of_two_is_a_final_and_of_five_a_bracket_with_byes() -> None:
    from tournament.engine.playoffs import SeriesGame, champion, playoff

    final_only = playoff(["ann", "bea"], 5, {(1, 1): [SeriesGame(400, 300)] * 3})
    assert len(final_only) == 1
    assert (final_only[0][0].series.result, champion(final_only)) == ("3–0", "ann")

    seeds = ["s1", "s2", "s3", "s4", "s5"]
    stages = playoff(seeds, 1)
    assert [(m.slot, m.series and (m.series.seed1, m.series.seed2), m.bye) for m in stages[0]] == [
        (1, None, "s1"),
        (2, ("s4", "s5"), None),
        (3, None, "s2"),
        (4, None, "s3"),
    ]
    assert len(stages) == 1 and champion(stages) is None
    win, lose = [SeriesGame(400, 350)], [SeriesGame(350, 400)]
    stages = playoff(seeds, 1, {(1, 2): lose, (2, 1): win, (2, 2): lose, (3, 1): lose})
    assert [[m.winner for m in stage] for stage in stages] == [
        ["s1", "s5", "s2", "s3"],
        ["s1", "s3"],
        ["s3"],
    ]
    assert champion(stages) == "s3"
