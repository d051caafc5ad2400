"""nsa2008 ratings: the formula in parts on plain data, and tsh's own ratings on real events."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

from tournament.engine import ratings
from tournament.engine.ratings import (
    Pairing,
    PlayerId,
    PlayerRatings,
    RatedPlayer,
    RatingInputError,
    UnknownRatingSystem,
    nsa2008_expectation,
    nsa2008_multiplier,
    nsa2008_segments,
    rate_event,
    rating_system,
    rating_system_names,
    register_rating_system,
)
from tournament.engine.standings import Game, GameKind

TSH_CORPUS = Path(__file__).resolve().parents[4] / "shared" / "corpus" / "tsh"
JVC56 = TSH_CORPUS / "jvc56_tournament_pairing_algorithms"


def _win(player: str, opponent: str) -> Game:
    return Game(player, opponent, 400, 300)


# --- expectation, multiplier, segments ---------------------------------------------------------


def test_it_expects_half_a_win_between_equal_ratings() -> None:
    assert nsa2008_expectation(1500, 1500) == 0.5


@pytest.mark.parametrize(("difference", "share"), [(127, 0.6), (266, 0.7), (435, 0.8), (689, 0.9)])
def test_it_expects_the_shares_of_a_win_the_naspa_page_gives(difference: int, share: float) -> None:
    assert nsa2008_expectation(1400 + difference, 1400) == pytest.approx(share, abs=0.0002)


def test_ratings_far_apart_expect_a_certain_win_or_loss_as_tsh_does() -> None:
    # Perl's exp is infinity past 709; Python's raises OverflowError. Woogles exports ratings
    # in the millions, and a rating of 2^31 - 1 met 1720 on a player's page.
    assert nsa2008_expectation(111121312, 1000) == 1.0
    assert nsa2008_expectation(1000, 111121312) == 0.0
    assert nsa2008_expectation(2**31 - 1, 1720) == 1.0


def test_it_expects_the_two_players_shares_to_make_one_win() -> None:
    assert nsa2008_expectation(1700, 1300) + nsa2008_expectation(1300, 1700) == pytest.approx(1)


@pytest.mark.parametrize(
    ("career_games", "rating", "multiplier"),
    [
        (0, 1200, 30),
        (49, 1799, 30),
        (49, 1800, 24),
        (49, 1999, 24),
        (49, 2000, 15),
        (50, 1799, 20),
        (50, 1800, 16),
        (766, 1999, 16),
        (766, 2182, 10),
    ],
)
def test_it_picks_the_multiplier_by_career_games_and_rating_band(
    career_games: int, rating: int, multiplier: int
) -> None:
    assert nsa2008_multiplier(career_games, rating) == multiplier


@pytest.mark.parametrize(
    ("max_rounds", "segments"),
    [
        (7, [(1, 7)]),
        (16, [(1, 16)]),
        (17, [(1, 9), (10, 17)]),
        (23, [(1, 12), (13, 23)]),
        (35, [(1, 18), (19, 35)]),
        (36, [(1, 12), (13, 24), (25, 36)]),
    ],
)
def test_it_splits_long_events_into_segments_of_at_most_16_rounds(
    max_rounds: int, segments: list[tuple[int, int]]
) -> None:
    assert nsa2008_segments(max_rounds) == segments


# --- veterans ------------------------------------------------------------------------------------


def test_it_rates_a_win_between_equals_with_acceleration_and_feedback() -> None:
    # Excess 0.5 at K = 20 is +10; 10 - 5 x 1 game = 5 points of acceleration on top, and the
    # loser gets 5 / 20 = 0.25 back as feedback: 1490.25, rounded to 1490.
    players = [RatedPlayer("A", 1500, 100), RatedPlayer("B", 1500, 100)]

    rated = rate_event(players, [[_win("A", "B")]])

    assert rated["A"].after_round == (1515,)
    assert rated["B"].after_round == (1490,)


def test_naspa_csw_is_nsa2008_without_its_floor_of_1() -> None:
    # tsh's Ratings::Elo: 'naspa-csw' has every parameter of 'nsa2008' but `floor => 1`. Two
    # players rated 10 with 100 games: the loser's excess -0.5 at K = 20 is -10, to 0; the
    # winner's +10 has 5 points of acceleration, 5 / 20 = 0.25 of feedback back to the loser.
    # nsa2008 holds the loser at 1 before the feedback (1.25, rounded 1); naspa-csw leaves 0
    # (0.25, rounded 0).
    players = [RatedPlayer("A", 10, 100), RatedPlayer("B", 10, 100)]

    nsa = rate_event(players, [[_win("A", "B")]], system="nsa2008")
    csw = rate_event(players, [[_win("A", "B")]], system="naspa-csw")

    assert (nsa["A"].final, nsa["B"].final) == (25, 1)
    assert (csw["A"].final, csw["B"].final) == (25, 0)
    for before in (1500, 1850, 2100):  # away from the floor the two are the same
        players = [RatedPlayer("A", before, 10), RatedPlayer("B", before - 200, 80)]
        nsa = rate_event(players, [[_win("B", "A")]], system="nsa2008")
        csw = rate_event(players, [[_win("B", "A")]], system="naspa-csw")
        assert [nsa[p].after_round for p in "AB"] == [csw[p].after_round for p in "AB"]


def test_it_gives_no_acceleration_for_five_points_a_game_or_less() -> None:
    # E(1700 vs 1300) = 0.78162; 0.21838 x 20 = 4.37 points, under the 5 a game that accelerates.
    players = [RatedPlayer("A", 1700, 100), RatedPlayer("B", 1300, 100)]

    rated = rate_event(players, [[_win("A", "B")]])

    assert rated["A"].final == 1704
    assert rated["B"].final == 1296


def test_it_spends_a_gain_across_1800_at_each_bands_multiplier() -> None:
    # +0.5 excess: 5 points at K = 20 reach 1800 and use 0.25 of it; the other 0.25 at K = 16 is
    # 4 more, 1804; then 9 - 5 = 4 points of acceleration, 1808. The loser: 1795 - 10 + 4/20.
    players = [RatedPlayer("A", 1795, 100), RatedPlayer("B", 1795, 100)]

    rated = rate_event(players, [[_win("A", "B")]])

    assert rated["A"].final == 1808
    assert rated["B"].final == 1785


def test_it_spends_a_loss_across_2000_at_each_bands_multiplier() -> None:
    # -0.5 excess: 4 points at K = 10 reach 1999 and use 0.4 of it; the other -0.1 at K = 16
    # is -1.6, 1997.4, rounded to 1997. The winner's +5 is no acceleration (5 - 5 = 0).
    players = [RatedPlayer("A", 2003, 100), RatedPlayer("B", 2003, 100)]

    rated = rate_event(players, [[_win("B", "A")]])

    assert rated["A"].final == 1997
    assert rated["B"].final == 2008


def test_it_counts_a_tie_as_half_a_win() -> None:
    players = [RatedPlayer("A", 1600, 100), RatedPlayer("B", 1600, 100)]

    rated = rate_event(players, [[Game("A", "B", 350, 350)]])

    assert (rated["A"].final, rated["B"].final) == (1600, 1600)


def test_it_does_not_rate_byes_or_forfeits() -> None:
    players = [RatedPlayer("A", 1600, 100), RatedPlayer("B", 1400, 100)]
    rounds = [
        [Game("A", None, 50, kind=GameKind.BYE), Game("B", None, 50, kind=GameKind.BYE)],
        # a forfeit against no one
        [Game("A", None, -50, kind=GameKind.FORFEIT), Game("B", None, 50, kind=GameKind.BYE)],
        [Game("A", "B", 0, 50, kind=GameKind.FORFEIT)],  # a paired game that was forfeited
    ]

    rated = rate_event(players, rounds)

    assert rated["A"].after_round == (1600, 1600, 1600)
    assert rated["B"].after_round == (1400, 1400, 1400)


def test_it_rates_a_game_given_from_both_sides_once() -> None:
    players = [RatedPlayer("A", 1500, 100), RatedPlayer("B", 1500, 100)]
    both_sides = [[Game("A", "B", 400, 300, first=True), Game("B", "A", 300, 400, first=False)]]

    assert rate_event(players, both_sides) == rate_event(players, [[_win("A", "B")]])


def test_it_refuses_a_player_with_two_games_in_one_round() -> None:
    players = [RatedPlayer("A", 1500), RatedPlayer("B", 1500), RatedPlayer("C", 1500)]

    with pytest.raises(RatingInputError, match="two games"):
        rate_event(players, [[_win("A", "B"), _win("A", "C")]])


def test_it_refuses_a_game_against_someone_not_in_the_event() -> None:
    with pytest.raises(RatingInputError, match="not a player"):
        rate_event([RatedPlayer("A", 1500)], [[_win("A", "Z")]])


def test_it_refuses_more_rounds_than_the_event_has() -> None:
    players = [RatedPlayer("A", 1500), RatedPlayer("B", 1500)]

    with pytest.raises(RatingInputError, match="only 1"):
        rate_event(players, [[_win("A", "B")], [_win("B", "A")]], max_rounds=1)


def test_it_rates_a_new_segment_from_the_ratings_at_its_start() -> None:
    # 17 scheduled rounds are rated as rounds 1-9 and 10-17: round 10 alone, from the ratings
    # after round 9, gives the rating after round 10.
    players = [RatedPlayer("A", 1500, 100), RatedPlayer("B", 1500, 100)]
    rounds = [[_win("A", "B")] for _ in range(10)]

    whole = rate_event(players, rounds, max_rounds=17)
    after_nine = [RatedPlayer(p.id, whole[p.id].after_round[8], 100) for p in players]
    round_ten = rate_event(after_nine, rounds[9:], max_rounds=1)

    assert whole["A"].after_round[9] == round_ten["A"].final
    assert whole["B"].after_round[9] == round_ten["B"].final
    assert whole["A"].after_round[9] != rate_event(players, rounds, max_rounds=16)["A"].final


# --- newcomers -----------------------------------------------------------------------------------


def test_it_gives_an_unrated_player_their_performance_rating() -> None:
    # One win in two against 1500 and 1700 is a performance of exactly 1600. After round 1 (one
    # win) it is capped at 1500 + 400. The veterans are rated against 1900, then 1600:
    # A 1500 - 20 x 0.42097 = 1491.58; B 1700 + 8.42 + 3.42 acceleration = 1711.84.
    players = [RatedPlayer("N"), RatedPlayer("A", 1500, 100), RatedPlayer("B", 1700, 100)]
    rounds = [[_win("N", "A")], [_win("B", "N")]]

    rated = rate_event(players, rounds)

    assert rated["N"].after_round == (1900, 1600)
    assert rated["A"].after_round == (1496, 1492)
    assert rated["B"].after_round == (1700, 1712)


def test_it_caps_an_unrated_winner_at_400_above_the_best_opponent() -> None:
    players = [RatedPlayer("N"), RatedPlayer("A", 1500, 100), RatedPlayer("B", 1450, 100)]

    rated = rate_event(players, [[_win("N", "A")], [_win("N", "B")]])

    assert rated["N"].after_round == (1900, 1900)


def test_it_gives_an_unrated_player_no_less_than_500() -> None:
    players = [RatedPlayer("N"), RatedPlayer("A", 600, 100), RatedPlayer("B", 600, 100)]

    rated = rate_event(players, [[_win("A", "N")], [_win("B", "N")]])

    assert rated["N"].final == 500


def test_it_leaves_an_unrated_player_without_a_rated_game_unrated() -> None:
    players = [RatedPlayer("N"), RatedPlayer("A", 1500, 100), RatedPlayer("B", 1500, 100)]

    rated = rate_event(players, [[Game("N", None, 50, kind=GameKind.BYE), _win("A", "B")]])

    assert rated["N"].after_round == (0,)


def test_it_iterates_newcomers_who_only_met_each_other_to_a_fixed_point() -> None:
    # The winner is held to 400 above the loser's estimate, the loser is floored at 500: the
    # estimates move 1500/1500, 1900/577, 977/977, 1377/500, 900/500 and stop there.
    rated = rate_event([RatedPlayer("A"), RatedPlayer("B")], [[_win("A", "B")]])

    assert (rated["A"].final, rated["B"].final) == (900, 500)


def test_it_averages_newcomer_estimates_that_do_not_settle() -> None:
    # Allowed one iteration, the pair above has not settled at 1900/577, so tsh's fallback
    # averages as many again, capped by rated opponents only (there are none here): one pass
    # gives 577 + 923.6 and 1900 - 923.6, searched to the whole point.
    stingy = ratings.Nsa2008(name="nsa2008-one-iteration", newcomer_iterations=1)
    pairing = [[Pairing("A", "B", 400, 300)]]

    new = stingy.rate([RatedPlayer("A"), RatedPlayer("B")], pairing, 1)

    assert (new["A"], new["B"]) == (1501, 977)


# --- systems by name -----------------------------------------------------------------------------


def test_it_knows_nsa2008_by_name() -> None:
    assert "nsa2008" in rating_system_names()
    assert rating_system("nsa2008").name == "nsa2008"


def test_it_refuses_an_unknown_rating_system() -> None:
    with pytest.raises(UnknownRatingSystem, match="nsa2008"):
        rate_event([RatedPlayer("A", 1500)], [], system="glixo")


@dataclass(frozen=True)
class _Frozen:
    """A system in which nobody's rating ever moves."""

    name: str = "frozen"

    def rate(
        self,
        players: Sequence[RatedPlayer],
        rounds: Sequence[Sequence[Pairing]],
        max_rounds: int,
    ) -> dict[PlayerId, int]:
        return {p.id: int(p.rating) for p in players}


def test_it_rates_with_a_system_registered_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ratings, "_SYSTEMS", dict(ratings._SYSTEMS))
    register_rating_system(_Frozen())
    players = [RatedPlayer("A", 1500, 100), RatedPlayer("B", 1500, 100)]

    rated = rate_event(players, [[_win("A", "B")]], system="frozen")

    assert rated["A"].after_round == (1500,)


def test_it_gives_the_rating_before_the_event_as_final_when_nothing_is_played() -> None:
    rated = rate_event([RatedPlayer("A", 1500, 100)], [])

    assert rated["A"].after_round == ()
    assert rated["A"].final == 1500


# --- tsh's own ratings on real events ------------------------------------------------------------


@dataclass(frozen=True)
class _TLine:
    name: str
    rating: float
    opponents: list[int]  # 1-based player numbers, 0 = bye or forfeit
    scores: list[int]
    fields: dict[str, list[str]]


def _read_t_file(path: Path) -> list[_TLine]:
    """Just enough of tsh's .t format: NAME RATING OPPONENTS; SCORES; key values; ..."""
    lines = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        # The files read here have no escaped `\;` in their extra fields.
        head, _, tail = raw.partition(";")
        scores, *extras = tail.split(";")
        fields = {key: values for key, *values in (e.split() for e in extras if e.strip())}
        words = head.split()
        # The name may hold spaces and commas: the rating is the first word after it that is
        # followed only by opponent numbers.
        at = next(
            i
            for i in range(1, len(words))
            if re.fullmatch(r"\d+(?:[.+]\d+)*", words[i])
            and all(w.isdigit() for w in words[i + 1 :])
        )
        lines.append(
            _TLine(
                name=" ".join(words[:at]),
                rating=float(words[at]),
                opponents=[int(w) for w in words[at + 1 :]],
                scores=[int(s) for s in scores.split()],
                fields=fields,
            )
        )
    return lines


def _event(lines: list[_TLine]) -> tuple[list[RatedPlayer], list[list[Game]]]:
    players = [
        RatedPlayer(number, line.rating, int(line.fields["lifeg"][0]))
        for number, line in enumerate(lines, 1)
    ]
    rounds: list[list[Game]] = []
    for r in range(max(len(line.scores) for line in lines)):
        games = []
        for number, line in enumerate(lines, 1):
            if r >= len(line.scores):
                continue
            opponent = line.opponents[r]
            if opponent == 0:
                games.append(Game(number, None, line.scores[r], kind=GameKind.BYE))
            else:
                games.append(Game(number, opponent, line.scores[r], lines[opponent - 1].scores[r]))
        rounds.append(games)
    return players, rounds


def _rated_file(path: Path) -> tuple[list[_TLine], dict[PlayerId, PlayerRatings]]:
    if not path.is_file():
        pytest.skip("the shared TSH corpus is not next to the project")
    lines = _read_t_file(path)
    players, rounds = _event(lines)
    return lines, rate_event(players, rounds, max_rounds=len(rounds))


@pytest.mark.parametrize(
    ("file", "values"),
    [("test_data_a.t.86aeb79", 552), ("a.t", 598)],
)
def test_it_reproduces_every_rating_tsh_wrote_after_every_round(file: str, values: int) -> None:
    lines, rated = _rated_file(JVC56 / file)
    compared = 0
    mismatches = []
    for number, line in enumerate(lines, 1):
        recorded = [int(v) for v in line.fields["newr"]]
        computed = list(rated[number].after_round)
        compared += len(recorded)
        mismatches += [
            (line.name, n, tsh, ours)
            for n, (tsh, ours) in enumerate(zip(recorded, computed, strict=True), 1)
            if tsh != ours
        ]

    assert mismatches == []
    assert compared == values


@pytest.mark.parametrize(
    ("file", "name", "before", "career_games", "after"),
    [
        ("test_data_a.t.86aeb79", "Logan, Adam", 2182, 766, 2208),
        ("test_data_a.t.86aeb79", "Anikoh, Samuel", 1672, 58, 1758),
        ("test_data_a.t.86aeb79", "Janssen, Sharon", 1099, 14, 1134),
        ("a.t", "Smylie, Jackson", 2009, 1726, 2022),
        ("a.t", "Kramer, Agnes", 1479, 193, 1563),
        ("a.t", "Keras, Lydia", 1446, 2596, 1370),
    ],
)
def test_it_gives_the_worked_examples_their_final_ratings(
    file: str, name: str, before: int, career_games: int, after: int
) -> None:
    lines, rated = _rated_file(JVC56 / file)
    number, line = next((n, li) for n, li in enumerate(lines, 1) if li.name == name)

    assert (line.rating, int(line.fields["lifeg"][0])) == (before, career_games)
    assert rated[number].final == after


def test_it_disagrees_with_the_stale_ratings_of_the_edited_file() -> None:
    # Five scores were changed after tsh wrote `newr`: only 4 of 24 final ratings still agree.
    lines, rated = _rated_file(JVC56 / "test_data_a.t.ea43fb0.EDITED_NOT_REAL")

    agreeing = [
        line.name
        for number, line in enumerate(lines, 1)
        if rated[number].final == int(line.fields["newr"][-1])
    ]

    assert len(agreeing) == 4


class _DictMemo:
    """A memo in a dict, recording which keys each call stored."""

    def __init__(self) -> None:
        self.kept: dict[str, dict] = {}
        self.stored: list[list[str]] = []

    def get_many(self, keys: list[str]) -> dict[str, dict]:
        return {k: self.kept[k] for k in keys if k in self.kept}

    def set_many(self, data: dict[str, dict]) -> None:
        self.kept.update(data)
        self.stored.append(list(data))


def _four_rounds(last: Game) -> list[list[Game]]:
    return [
        [_win("A", "B"), _win("C", "D")],
        [_win("A", "C"), _win("D", "B")],
        [_win("B", "C"), _win("A", "D")],
        [last, _win("C", "B")],
    ]


def test_kept_ratings_are_the_same_and_a_last_round_result_rates_that_round_alone() -> None:
    players = [
        RatedPlayer("A", 1500, 100),
        RatedPlayer("B", 1700, 30),
        RatedPlayer("C", 0, 0),
        RatedPlayer("D", 1900, 400),
    ]
    memo = _DictMemo()

    first = rate_event(players, _four_rounds(_win("A", "D")), max_rounds=20, memo=memo)
    again = rate_event(players, _four_rounds(_win("A", "D")), max_rounds=20, memo=memo)
    corrected = rate_event(players, _four_rounds(_win("D", "A")), max_rounds=20, memo=memo)

    plain = rate_event(players, _four_rounds(_win("D", "A")), max_rounds=20)
    assert first == rate_event(players, _four_rounds(_win("A", "D")), max_rounds=20)
    assert again == first
    assert corrected == plain
    assert [len(keys) for keys in memo.stored] == [4, 1]  # nothing new the second time


def test_a_correction_to_an_early_round_rates_it_and_every_later_round_again() -> None:
    players = [RatedPlayer(p, 1500 + 100 * i, 50) for i, p in enumerate("ABCD")]
    rounds = _four_rounds(_win("A", "D"))
    memo = _DictMemo()
    rate_event(players, rounds, max_rounds=20, memo=memo)

    rounds[1][0] = _win("C", "A")
    corrected = rate_event(players, rounds, max_rounds=20, memo=memo)
    other_players = [RatedPlayer(p, 1400, 50) for p in "ABCD"]
    rate_event(other_players, rounds, max_rounds=20, memo=memo)

    assert corrected == rate_event(players, rounds, max_rounds=20)
    assert [len(keys) for keys in memo.stored] == [4, 3, 4]
