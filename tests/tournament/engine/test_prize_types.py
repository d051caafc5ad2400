"""Every prize type of TSH's prize table on a small hand-made division, the winner and the
figure worked out by hand in each test's comment; ties shared, exclusive= and order=."""

from __future__ import annotations

from tournament.engine.prizes import Contender, GameScore, Prize, award, listing

# Four players, three rounds, and Eve, unrated, who has not played yet.
#   R1: Ann 400-350 Bob   Cat 380-390 Dan
#   R2: Ann 360-420 Cat   Bob 450-300 Dan
#   R3: Ann 410-400 Dan   Bob 330-370 Cat
# Records: Cat 2-1 +90, Ann 2-1 +0, Bob 1-2 +60, Dan 1-2 -150: the standings in that order.
# Pre-event ratings Ann 1800, Bob 1700, Cat 1600, Dan 1500 (seeds 1-4), Eve 0 (seed 5).
STANDINGS = [
    Contender("cat", "Cat", 1, number=3, rating=1600, new_rating=1640, team="Y", handicap=0),
    Contender("ann", "Ann", 2, number=1, rating=1800, new_rating=1790, team="X", handicap=10),
    Contender("bob", "Bob", 3, number=2, rating=1700, new_rating=1702, team="X", handicap=30),
    Contender("dan", "Dan", 4, number=4, rating=1500, new_rating=1480, team="Y", handicap=25),
    Contender("eve", "Eve", 5, number=5, rating=0, new_rating=1550),
]
NAMES = {c.id: c.name for c in STANDINGS}
ROUNDS = [
    [("ann", 400, "bob", 350), ("cat", 380, "dan", 390)],
    [("ann", 360, "cat", 420), ("bob", 450, "dan", 300)],
    [("ann", 410, "dan", 400), ("bob", 330, "cat", 370)],
]
GAMES = [
    GameScore(p, n, s, t, NAMES[o], o)
    for n, games in enumerate(ROUNDS, start=1)
    for a, sa, b, sb in games
    for p, s, o, t in ((a, sa, b, sb), (b, sb, a, sa))
]


def one(prize: Prize, **options: object) -> tuple[list, str]:
    found = award([prize], STANDINGS, GAMES, True, **options)  # type: ignore[arg-type]
    return found[0].winners, found[0].detail


def test_tuffluck_is_the_smallest_sum_of_the_n_smallest_losing_margins() -> None:
    # rounds=2: losing margins Ann [60] (one loss: not eligible), Bob [40, 50] = 90,
    # Cat [10] (not eligible), Dan [10, 150] = 160: Bob.
    assert one(Prize("tuffluck", 1, rounds=2)) == (["bob"], "90 = 40+50")
    # By TSH's default N = 6 no one has six losses.
    assert one(Prize("tuffluck", 1)) == ([], "no player has 6 losses")


def test_luckystiff_is_the_smallest_sum_of_the_n_smallest_winning_margins() -> None:
    # rounds=2: winning margins Ann [10, 50] = 60, Cat [40, 60] = 100; Bob and Dan one win.
    assert one(Prize("luckystiff", 1, rounds=2)) == (["ann"], "60 = 10+50")


def test_lowloss_is_the_lowest_losing_score() -> None:
    # Losing scores: Ann 360 (R2), Bob 350 (R1) and 330 (R3), Cat 380 (R1), Dan 300 (R2) and
    # 400 (R3): Dan's 300.
    assert one(Prize("lowloss", 1)) == (["dan"], "the lowest losing score: 300-450 v Bob, round 2")


def test_roundrecord_is_the_best_record_over_the_rounds() -> None:
    # Rounds 2-3: Ann 1-1 -50, Bob 1-1 +110, Cat 2-0 +100, Dan 0-2: Cat.
    assert one(Prize("roundrecord", 1, first=2, last=3)) == (["cat"], "2-0 +100, rounds 2-3")


def test_brlh_is_the_best_record_of_the_lower_half_after_the_round_before() -> None:
    # After round 1: Ann +50 and Dan +10 won, Cat -10 and Bob -50 lost: ranks Ann 1, Dan 2,
    # Cat 3, Bob 4; with Eve 5 the lower half (2 x rank > 5) is Cat, Bob, Eve. Rounds 2-3:
    # Cat 2-0 +100 beats Bob 1-1 +110.
    after_1 = {"ann": 1, "dan": 2, "cat": 3, "bob": 4, "eve": 5}
    prize = Prize("brlh", 1, first=2, last=3)
    assert one(prize, earlier_ranks={1: after_1}) == (["cat"], "2-0 +100, rounds 2-3")
    # Cat already has a prize and a player takes one: it passes to Bob.
    found = award([Prize("rank", 1), prize], STANDINGS, GAMES, earlier_ranks={1: after_1})
    assert (found[1].winners, found[1].detail) == (["bob"], "1-1 +110, rounds 2-3")


def test_spread_is_the_spread_over_the_rounds() -> None:
    # Rounds 2-3: Ann -60+10 = -50, Bob +150-40 = +110, Cat +60+40 = +100, Dan -160.
    assert one(Prize("spread", 1, first=2)) == (["bob"], "+110, rounds 2-3")


def test_overseed_is_the_most_places_above_the_seed() -> None:
    # Seeds by rating Ann 1, Bob 2, Cat 3, Dan 4, Eve 5; finished Cat 1, Ann 2, Bob 3, Dan 4,
    # Eve 5: Cat 3 - 1 = +2 places.
    assert one(Prize("overseed", 1)) == (["cat"], "+2: seed 3, finished 1st")


def test_overexp_is_the_most_wins_over_the_rating_engines_expectation() -> None:
    # nsa2008: expected = 1 / (1 + e^(-0.0031879 d)), d the rating difference: 0.5790 at
    # 100 points, 0.6542 at 200, 0.7224 at 300. Cat (1600) met Dan, Ann, Bob: 0.5790 + 0.3458 +
    # 0.4210 = 1.3458 expected, 2 won: +0.65; Ann 2 - 1.9556 = +0.04; Bob -0.65; Dan -0.04.
    assert one(Prize("overexp", 1)) == (["cat"], "+0.65 = 2 wins - 1.35 expected")


def test_highratingchange_counts_rated_players_only() -> None:
    # Ann -10, Bob +2, Cat +40, Dan -20; Eve, unrated, +1550 only with unratedok.
    assert one(Prize("highratingchange", 1)) == (["cat"], "+40 = 1600 to 1640")
    assert one(Prize("highratingchange", 1, unrated_ok=True)) == (["eve"], "+1550 = 0 to 1550")


def test_handicap_is_the_handicap_plus_two_a_win() -> None:
    # Ann 10 + 2x2 = 14, Bob 30 + 2x1 = 32, Cat 0 + 4 = 4, Dan 25 + 2 = 27, Eve 0: Bob.
    assert one(Prize("handicap", 1)) == (["bob"], "32 = 30 + 2x1 wins")


def test_upset_is_the_largest_rating_difference_overcome_in_a_win() -> None:
    # Wins over a higher-rated player: Cat beat Ann by 200 (R2) and Bob by 100 (R3); Dan beat
    # Cat by 100 (R1).
    assert one(Prize("upset", 1)) == (["cat"], "200 = 1600 beat 1800 (Ann), round 2")


def test_totalteam_goes_to_the_team_with_the_best_average_record() -> None:
    # X: Ann 2-1 +0, Bob 1-2 +60: 1.5-1.5 +30 a player; Y: Cat 2-1 +90, Dan 1-2 -150:
    # 1.5-1.5 -30. X, both its players.
    found = award([Prize("totalteam", 1)], STANDINGS, GAMES)[0]
    assert (found.winners, found.team, found.shared) == (["ann", "bob"], "X", 1)
    assert found.detail == "X: 1.50-1.50 +30 a player, 2 players"


def test_class_and_members_limit_a_prize_to_a_group_of_players() -> None:
    # members=2,4 (Bob, Dan): the overseed among them: Bob -1, Dan 0: Dan.
    assert one(Prize("overseed", 1, members=("2", "Dan"))) == (["dan"], "0: seed 4, finished 4th")


def test_players_level_on_the_figure_share_the_prizes_of_their_places() -> None:
    # rounds=1: smallest losing margin Ann 60, Bob 40, Cat 10, Dan 10: Cat and Dan share the
    # 1st and 2nd Tuff Luck, Bob takes the 3rd.
    prizes = [Prize("tuffluck", p, f"${p}", rounds=1) for p in (1, 2, 3)]
    found = award(prizes, STANDINGS, GAMES)
    assert [(a.prize.place, a.winners, a.shared) for a in found] == [
        (1, ["cat", "dan"], 2),
        (2, ["cat", "dan"], 2),
        (3, ["bob"], 1),
    ]
    assert found[0].detail == "10 = 10; 2 level share the prizes 1st, 2nd"


def test_an_exclusive_group_passes_over_its_own_winners_only() -> None:
    # One prize a player, but the two day prizes are their own group "day": Cat takes 1st
    # place and still the round record of rounds 2-3 (2-0); the brlh of the same group passes
    # over Cat to Bob (lower half after round 1: Cat, Bob, Eve). The spread of rounds 2-3,
    # in the default group, passes over Cat (1st place) to Bob's +110.
    after_1 = {"ann": 1, "dan": 2, "cat": 3, "bob": 4, "eve": 5}
    prizes = [
        Prize("rank", 1),
        Prize("roundrecord", 1, first=2, last=3, exclusive="day"),
        Prize("brlh", 1, first=2, last=3, exclusive="day"),
        Prize("spread", 1, first=2, last=3),
    ]
    found = award(prizes, STANDINGS, GAMES, earlier_ranks={1: after_1})
    assert [a.winners for a in found] == [["cat"], ["cat"], ["bob"], ["bob"]]
    # Without the group, one prize a player: the round record passes to Bob (1-1 +110), the
    # brlh finds no one left in the lower half but Eve, who has no games, and the spread goes
    # to Ann (-50) over Dan (-160).
    plain = [Prize(p.kind, 1, first=2, last=3) for p in prizes[1:]]
    found = award([Prize("rank", 1), *plain], STANDINGS, GAMES, earlier_ranks={1: after_1})
    assert [a.winners for a in found] == [["cat"], ["bob"], [], ["ann"]]


def test_order_moves_a_prize_in_the_listing_and_a_note_stays_before_its_prize() -> None:
    # Award order: 1st, 2nd, the note, tuffluck (order=1). Listing: 1st (place 1) and the
    # tuffluck (order=1) tie on 1 and keep the order of award; then 2nd place.
    prizes = [
        Prize("rank", 1),
        Prize("rank", 2),
        Prize("note", 1, "Luck prizes"),
        Prize("tuffluck", 1, rounds=1, order=1),
    ]
    found = listing(award(prizes, STANDINGS, GAMES, True))
    assert [(a.prize.kind, a.winners) for a in found] == [
        ("rank", ["cat"]),
        ("note", []),
        ("tuffluck", ["cat", "dan"]),
        ("rank", ["ann"]),
    ]
