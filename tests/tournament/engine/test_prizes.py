"""Prizes and rating classes: the order of award, one prize a player, ties, class prizes."""

from __future__ import annotations

from tournament.engine.prizes import (
    Contender,
    GameScore,
    Prize,
    award,
    award_order,
    class_ranks,
    classes_by_rating,
    rating_class,
)

# Ann and Bea level at the top (rank 1); Cal 3rd; Dan 4th; Eve 5th. Classes by rating.
STANDINGS = [
    Contender("ann", "Ann", 1, "A"),
    Contender("bea", "Bea", 1, "B"),
    Contender("cal", "Cal", 3, "B"),
    Contender("dan", "Dan", 4, "A"),
    Contender("eve", "Eve", 5, "B"),
]
GAMES = [
    GameScore("cal", 2, 560, 300, "Eve"),
    GameScore("eve", 2, 300, 560, "Cal"),
    GameScore("dan", 1, 480, 490, "Ann"),
    GameScore("ann", 1, 490, 480, "Dan"),
    GameScore("eve", 3, 470, 420, "Bea"),
    GameScore("bea", 3, 420, 470, "Eve"),
]


def winners(awards: list) -> list[tuple[str, object, str, list]]:
    return [(a.prize.kind, a.prize.place, a.prize.player_class, a.winners) for a in awards]


def test_prizes_are_awarded_places_first_then_class_places_then_scores() -> None:
    given = [
        Prize("highgame", 1),
        Prize("rank", 1, player_class="B"),
        Prize("rank", 2),
        Prize("trophy", "best newcomer"),
        Prize("rank", 1),
    ]
    assert [(p.kind, p.place, p.player_class) for p in award_order(given)] == [
        ("rank", 1, ""),
        ("rank", 2, ""),
        ("rank", 1, "B"),
        ("highgame", 1, ""),
        ("trophy", "best newcomer", ""),
    ]


def test_players_tied_for_first_share_the_first_and_second_prizes() -> None:
    awards = award([Prize("rank", 1, "$100"), Prize("rank", 2, "$50"), Prize("rank", 3)], STANDINGS)
    assert winners(awards) == [
        ("rank", 1, "", ["ann", "bea"]),
        ("rank", 2, "", ["ann", "bea"]),
        ("rank", 3, "", ["cal"]),
    ]
    assert awards[0].shared == 2
    assert awards[0].detail == "tied at rank 1: 2 share the prizes of places 1, 2"


def test_a_player_who_earns_two_prizes_takes_only_the_first_awarded() -> None:
    # Cal has the high game and is 3rd: he takes 3rd place; the high game passes to Dan's 480.
    prizes = [Prize("rank", 1), Prize("rank", 2), Prize("rank", 3), Prize("highgame", 1)]
    assert winners(award(prizes, STANDINGS, GAMES)) == [
        ("rank", 1, "", ["ann", "bea"]),
        ("rank", 2, "", ["ann", "bea"]),
        ("rank", 3, "", ["cal"]),
        ("highgame", 1, "", ["dan"]),
    ]
    # Unless the director allows more than one: then Cal takes both.
    both = award(prizes, STANDINGS, GAMES, more_than_one=True)
    assert winners(both)[3] == ("highgame", 1, "", ["cal"])
    assert both[3].detail == "the highest score: 560-300 v Eve, round 2"


def test_a_class_prize_goes_to_the_best_of_the_class_without_a_prize() -> None:
    prizes = [
        Prize("rank", 1),
        Prize("rank", 1, player_class="A"),
        Prize("rank", 1, player_class="B"),
    ]
    awards = award(prizes, STANDINGS)
    # Ann and Bea share 1st; A's prize passes to Dan, B's to Cal.
    assert winners(awards) == [
        ("rank", 1, "", ["ann", "bea"]),
        ("rank", 1, "A", ["dan"]),
        ("rank", 1, "B", ["cal"]),
    ]
    assert awards[1].detail == "rank 4 overall, class A"


def test_score_prizes_high_loss_low_win_and_a_tie_for_one() -> None:
    games = GAMES + [GameScore("dan", 4, 420, 400, "Cal"), GameScore("cal", 4, 400, 420, "Dan")]
    awards = award([Prize("highloss", 1), Prize("lowwin", 1)], STANDINGS, games, True)
    # The high loss is Dan's 480 (to Ann); the low win Dan's 420 (over Cal) as well.
    assert winners(awards) == [("highloss", 1, "", ["dan"]), ("lowwin", 1, "", ["dan"])]
    assert awards[1].detail == "the lowest winning score: 420-400 v Cal, round 4"
    # One prize a player: the low win passes to the next lowest winning score, Eve's 470.
    one_each = award([Prize("highloss", 1), Prize("lowwin", 1)], STANDINGS, games)
    assert winners(one_each) == [("highloss", 1, "", ["dan"]), ("lowwin", 1, "", ["eve"])]
    # Two games level on the high game: their players share the prize.
    level = GAMES + [GameScore("dan", 5, 560, 330, "Eve")]
    shared = award([Prize("highgame", 1)], STANDINGS, level)[0]
    assert (shared.winners, shared.shared) == (["cal", "dan"], 2)
    assert shared.detail == "the highest score: 560-300 v Eve, round 2; 560-330 v Eve, round 5"


def test_the_class_of_a_player_comes_from_the_bands_else_their_own_field() -> None:
    bands = [("A", 1800), ("B", 1400), ("C", 0)]
    assert [rating_class(r, bands) for r in (2010, 1800, 1799, 1400, 0)] == [
        "A", "A", "B", "B", "C"
    ]  # fmt: skip
    assert rating_class(1500, [], own="C") == "C"
    assert rating_class(1000, [("A", 1800)]) == ""


def test_a_players_rank_within_the_class_and_ties_in_class() -> None:
    assert class_ranks(STANDINGS) == {"ann": 1, "dan": 2, "bea": 1, "cal": 2, "eve": 3}
    level = [Contender("x", "X", 1, "A"), Contender("y", "Y", 2, "A"), Contender("z", "Z", 2, "A")]
    assert class_ranks(level) == {"x": 1, "y": 2, "z": 2}


def test_tsh_classes_line_assigns_classes_by_rating_order_from_the_bottom() -> None:
    """tsh's Config::AssignClasses, worked by hand: 7 players in 3 classes. From the lowest up,
    each adds 3 to a counter; at 7 or more it drops by 7 and the class moves up a letter."""
    seven = [("g", 1400), ("a", 2000), ("b", 1900), ("c", 1800), ("d", 1700), ("e", 1600),
             ("f", 1500)]  # fmt: skip
    assert classes_by_rating(seven, 3) == {
        "g": "C", "f": "C", "e": "C", "d": "B", "c": "B", "b": "A", "a": "A"
    }  # fmt: skip
    # Players level on rating are not split: the one above takes the class of the one below.
    tied = [("a", 2000), ("b", 1900), ("c", 1800), ("d", 1800), ("e", 1600), ("f", 1500)]
    assert classes_by_rating(tied, 3) == {
        "f": "C", "e": "C", "d": "B", "c": "B", "b": "A", "a": "A"
    }  # fmt: skip
    tied_at_the_edge = [("a", 2000), ("b", 1900), ("c", 1700), ("d", 1700)]
    assert classes_by_rating(tied_at_the_edge, 2) == {"d": "B", "c": "B", "b": "A", "a": "A"}
    level = [("a", 1500), ("b", 1500), ("c", 1500)]
    assert classes_by_rating(level, 2) == {"a": "B", "b": "B", "c": "B"}
    assert classes_by_rating(seven, 1) == {pid: "A" for pid, _ in seven}
    assert classes_by_rating(seven, 0) == {} and classes_by_rating([], 3) == {}
