"""Tests for tournament/engine/standings.py with plain players and results."""

from __future__ import annotations

import random

import pytest

from tournament.engine.standings import (
    Game,
    GameKind,
    Player,
    Record,
    Standing,
    StandingsError,
    ranked,
    ranking,
    ranks_by_round,
    records,
    recounted,
    reranked,
    standings,
)


def players(*names: str, ratings: dict[str, float] | None = None) -> list[Player]:
    ratings = ratings or {}
    return [Player(n, n, ratings.get(n, 0), seed) for seed, n in enumerate(names, 1)]


def played(a: str, b: str, a_score: int, b_score: int) -> Game:
    return Game(a, b, a_score, b_score)


def bye(p: str, spread: int) -> Game:
    return Game(p, None, spread, kind=GameKind.BYE)


def forfeit(p: str, spread: int) -> Game:
    return Game(p, None, spread, kind=GameKind.FORFEIT)


def row(table: list[Standing], player: str) -> Standing:
    (found,) = [s for s in table if s.id == player]
    return found


def order(table: list[Standing]) -> list[tuple[str, int | None]]:
    return [(s.id, s.rank) for s in table]


def test_a_drawn_game_counts_half_a_win_and_half_a_loss_to_each_player() -> None:
    table = standings(players("A", "B"), [[played("A", "B", 400, 400)]])

    for s in table:
        assert (s.wins, s.losses, s.spread, s.games) == (0.5, 0.5, 0, 1)
    assert order(table) == [("A", 1), ("B", 1)]


def test_half_wins_from_draws_count_towards_the_order() -> None:
    rounds = [
        [played("A", "B", 400, 300), played("C", "D", 350, 350)],
        [played("A", "C", 380, 390), played("B", "D", 450, 400)],
    ]

    table = standings(players("A", "B", "C", "D"), rounds)

    assert [(s.id, s.wins, s.losses, s.spread) for s in table] == [
        ("C", 1.5, 0.5, 10),
        ("A", 1.0, 1.0, 90),
        ("B", 1.0, 1.0, -50),
        ("D", 0.5, 1.5, -50),
    ]


def test_fewer_losses_rank_ahead_of_a_better_spread() -> None:
    # A's zero bye is neither a win nor a loss, so A is 1-0 and B 1-1 with far more spread.
    rounds = [
        [played("A", "C", 310, 300), played("B", "D", 600, 200)],
        [bye("A", 0), played("B", "C", 300, 400)],
    ]

    table = standings(players("A", "B", "C", "D"), rounds)

    assert [(s.id, s.wins, s.losses, s.spread) for s in table[:2]] == [
        ("A", 1, 0, 10),
        ("B", 1, 1, 300),
    ]


def test_players_level_on_wins_losses_and_spread_share_the_rank_of_the_first() -> None:
    field = players("A", "B", "C", "D", ratings={"A": 1500, "B": 1500, "C": 1800, "D": 1200})
    rounds = [[played("A", "B", 400, 350), played("C", "D", 400, 350)]]

    table = standings(field, rounds)

    # The higher rating comes first, but a rating never splits a shared rank.
    assert order(table) == [("C", 1), ("A", 1), ("B", 3), ("D", 3)]


def test_seed_orders_players_level_on_everything_else() -> None:
    field = [Player("X", seed=2), Player("Y", seed=1)]

    table = standings(field, [[played("X", "Y", 300, 300)]])

    assert order(table) == [("Y", 1), ("X", 1)]


def test_before_round_one_players_are_ranked_by_rating_with_equal_ratings_sharing_a_rank() -> None:
    field = players("A", "B", "C", "D", ratings={"A": 1600, "B": 1900, "C": 1600, "D": 0})
    rounds = [[played("D", "B", 500, 300), played("A", "C", 400, 300)]]

    table = standings(field, rounds, after_round=0)

    assert order(table) == [("B", 1), ("A", 2), ("C", 2), ("D", 4)]
    assert all((s.wins, s.losses, s.spread, s.games) == (0, 0, 0, 0) for s in table)


def test_a_bye_counts_as_a_win_with_the_bye_spread() -> None:
    rounds = [[played("A", "B", 420, 400), bye("C", 50)]]

    table = standings(players("A", "B", "C"), rounds)

    assert (row(table, "C").wins, row(table, "C").losses, row(table, "C").spread) == (1, 0, 50)
    assert order(table) == [("C", 1), ("A", 2), ("B", 3)]


def test_a_forfeit_counts_as_a_loss_with_minus_the_forfeit_spread() -> None:
    # As tsh records a forfeit: no opponent, the loser -50, the player left waiting +50.
    rounds = [[played("A", "B", 400, 300), forfeit("C", -50), forfeit("D", 50)]]

    table = standings(players("A", "B", "C", "D"), rounds)

    assert (row(table, "C").wins, row(table, "C").losses, row(table, "C").spread) == (0, 1, -50)
    assert (row(table, "D").wins, row(table, "D").losses, row(table, "D").spread) == (1, 0, 50)
    assert order(table) == [("A", 1), ("D", 2), ("C", 3), ("B", 4)]


def test_a_forfeited_pairing_counts_for_both_players() -> None:
    rounds = [[Game("A", "B", 0, 50, kind=GameKind.FORFEIT)]]

    table = standings(players("A", "B"), rounds)

    assert [(s.id, s.wins, s.losses, s.spread) for s in table] == [
        ("B", 1, 0, 50),
        ("A", 0, 1, -50),
    ]


def test_an_unopposed_result_of_zero_is_neither_a_win_nor_a_loss() -> None:
    table = standings(players("A"), [[bye("A", 0)]])

    assert (table[0].wins, table[0].losses, table[0].games) == (0, 0, 1)


def test_a_withdrawn_player_keeps_their_record_but_is_not_ranked_once_withdrawn() -> None:
    field = [*players("A", "B", "C", "D"), Player("E", "E", 0, 5, withdrawn_from_round=2)]
    rounds = [
        [played("A", "B", 400, 300), played("C", "D", 390, 380), bye("E", 50)],
        [played("A", "C", 500, 300), played("B", "D", 400, 350), forfeit("E", 0)],
    ]

    after_one = standings(field, rounds, after_round=1)
    after_two = standings(field, rounds, after_round=2)

    assert order(after_one) == [("A", 1), ("E", 2), ("C", 3), ("D", 4), ("B", 5)]
    assert order(after_two) == [("A", 1), ("B", 2), ("C", 3), ("D", 4), ("E", None)]
    e = row(after_two, "E")
    assert (e.wins, e.losses, e.spread, e.games) == (1, 0, 50, 2)


def test_withdrawn_players_are_ranked_with_everyone_when_asked() -> None:
    field = [*players("A", "B"), Player("C", "C", 0, 3, withdrawn_from_round=1)]
    rounds = [[played("A", "B", 400, 300), forfeit("C", -50)]]

    table = standings(field, rounds, rank_withdrawn=True)

    assert order(table) == [("A", 1), ("C", 2), ("B", 3)]


def test_a_capped_ranking_clips_each_games_spread_to_the_cap_of_its_round() -> None:
    rounds = [
        [played("A", "B", 500, 100), played("C", "D", 300, 250)],  # cap 100: A +400 counts +100
        [played("A", "D", 300, 420), played("B", "C", 310, 300)],  # cap 300: nothing clipped
    ]
    field = players("A", "B", "C", "D")

    uncapped = standings(field, rounds)
    capped = standings(field, rounds, spread_cap=[100, 300])

    assert [(s.id, s.spread) for s in uncapped] == [("A", 280), ("D", 70), ("C", 40), ("B", -390)]
    assert [(s.id, s.capped_spread) for s in capped] == [
        ("D", 70),
        ("C", 40),
        ("A", -20),
        ("B", -90),
    ]
    assert [s.spread for s in capped] == [70, 40, 280, -390]  # the spread as played is kept too


def test_the_last_cap_of_the_list_applies_to_later_rounds() -> None:
    rounds = [[played("A", "B", 500, 300)], [played("A", "B", 600, 100)]]

    table = standings(players("A", "B"), rounds, spread_cap=[100])

    assert [(s.id, s.capped_spread, s.spread) for s in table] == [
        ("A", 200, 700),
        ("B", -200, -700),
    ]


def test_one_cap_applies_to_every_round_and_to_byes() -> None:
    rounds = [[played("A", "B", 500, 100), bye("C", 300)]]

    table = standings(players("A", "B", "C"), rounds, spread_cap=250)

    assert [(s.id, s.capped_spread) for s in table] == [("A", 250), ("C", 250), ("B", -250)]
    assert [s.rank for s in table] == [1, 1, 3]


def test_capping_never_changes_who_won() -> None:
    table = standings(players("A", "B"), [[played("A", "B", 401, 400)]], spread_cap=0)

    assert [(s.id, s.wins, s.capped_spread) for s in table] == [("A", 1, 0), ("B", 0, 0)]


def test_a_game_given_from_both_sides_is_counted_once() -> None:
    once = standings(players("A", "B"), [[played("A", "B", 400, 350)]])
    twice = standings(players("A", "B"), [[played("A", "B", 400, 350), played("B", "A", 350, 400)]])

    assert once == twice
    assert [s.games for s in twice] == [1, 1]


def test_standings_after_an_earlier_round_leave_out_later_rounds() -> None:
    rounds = [[played("A", "B", 400, 300)], [played("A", "B", 300, 500)]]

    table = standings(players("A", "B"), rounds, after_round=1)

    assert [(s.id, s.wins, s.spread) for s in table] == [("A", 1, 100), ("B", 0, -100)]


def test_ranks_by_round_list_the_pre_event_rank_then_one_rank_per_round() -> None:
    field = players("A", "B", ratings={"A": 1000, "B": 2000})
    rounds = [[played("A", "B", 400, 300)], [played("A", "B", 300, 500)]]

    assert ranks_by_round(field, rounds) == {"A": [2, 1, 2], "B": [1, 2, 1]}


@pytest.mark.parametrize(
    ("games", "message"),
    [
        ([played("A", "Z", 400, 300)], "unknown"),
        ([Game("Z", None, 50, kind=GameKind.BYE)], "unknown player"),
        ([played("A", "B", 400, 300), bye("A", 50)], "more than one result"),
        ([played("A", "B", 400, 300), played("B", "A", 300, 401)], "more than one result"),
        ([Game("A", None, 400, 300)], "no opponent"),
        ([Game("A", "B", 50, kind=GameKind.BYE)], "a bye for 'A' with an opponent"),
        ([played("A", "A", 400, 300)], "themselves"),
    ],
)
def test_results_that_cannot_stand_together_are_refused(games: list[Game], message: str) -> None:
    with pytest.raises(StandingsError, match=message):
        standings(players("A", "B"), [games])


def test_standings_after_a_round_not_given_are_refused() -> None:
    with pytest.raises(StandingsError, match="after round 2"):
        standings(players("A", "B"), [[played("A", "B", 400, 300)]], after_round=2)


def test_two_players_with_one_id_are_refused() -> None:
    with pytest.raises(StandingsError, match="two players"):
        standings([Player("A"), Player("A")], [])


def test_records_counted_again_for_the_changed_players_rank_as_the_standings_afresh() -> None:
    field = players("A", "B", "C", "D", "E")
    before = [
        [played("A", "B", 400, 350), played("C", "D", 380, 380), bye("E", 50)],
        [played("A", "C", 300, 450), played("B", "E", 410, 300), forfeit("D", -50)],
    ]
    # A correction of round 1's A-B: B won by 10, not A by 50. Only A and B changed.
    after = [
        [played("A", "B", 350, 360), played("C", "D", 380, 380), bye("E", 50)],
        [played("A", "C", 300, 450), played("B", "E", 410, 300), forfeit("D", -50)],
    ]
    kept = records(field, before, spread_cap=[60, 100])
    again = recounted(kept, field, after, {"A", "B"}, spread_cap=[60, 100])
    assert again == records(field, after, spread_cap=[60, 100])
    assert kept == records(field, before, spread_cap=[60, 100])  # left as it was
    assert (again["A"].wins, again["A"].losses, again["A"].spread, again["A"].capped_spread) == (
        0,
        2,
        -160,
        -110,
    )
    assert again["C"] is kept["C"]
    table = ranking(field, again, after_round=2, capped=True)
    assert order(table) == [("B", 1), ("C", 2), ("E", 3), ("D", 4), ("A", 5)]
    assert table == standings(field, after, spread_cap=[60, 100])


def test_records_kept_of_other_players_are_refused() -> None:
    kept = records(players("A", "B"), [[played("A", "B", 400, 350)]])
    with pytest.raises(StandingsError, match="records kept of other players"):
        recounted(kept, players("A", "B", "C"), [[played("A", "B", 400, 350)]], {"A"})


def _random_records(rng: random.Random, ids: list[str]) -> dict[str, Record]:
    """Records close together: many players level on wins, losses and spread."""
    found = {}
    for pid in ids:
        wins = rng.choice([0, 0.5, 1, 1.5, 2, 2, 3])
        losses = rng.choice([0, 1, 1, 2])
        spread = rng.choice([-20, 0, 0, 10, 20])
        found[pid] = Record(wins, losses, spread, rng.choice([-10, 0, 10]), rng.randint(0, 4))
    return found


@pytest.mark.parametrize("seed", range(12))
def test_a_ranking_made_again_by_moving_the_changed_players_is_the_one_sorted_afresh(
    seed: int,
) -> None:
    rng = random.Random(seed)
    count = rng.randint(1, 40)
    field = [
        Player(
            f"P{n}",
            f"P{n}",
            rng.choice([0, 1500, 1500, 1600]),
            rng.choice([n, n, 1]),  # seeds mostly distinct, sometimes equal
            rng.choice([None, None, None, 1, 2, 3]),
        )
        for n in range(count)
    ]
    ids = [p.id for p in field]
    for after in (0, 1, 2, 3):
        for capped in (False, True):
            for rank_withdrawn in (False, True):
                given = {"after_round": after, "capped": capped, "rank_withdrawn": rank_withdrawn}
                by_player = _random_records(rng, ids)
                kept = ranked(field, by_player, **given)
                assert kept.table == ranking(field, by_player, **given)
                for _write in range(25):
                    changed = set(rng.sample(ids, rng.randint(0, min(4, count))))
                    now = dict(by_player)
                    now.update(_random_records(rng, sorted(changed)))
                    again, spans = reranked(kept, now, changed)
                    afresh = ranked(field, now, **given)
                    assert again.table == afresh.table
                    assert (again.ranked, again.unranked) == (afresh.ranked, afresh.unranked)
                    # Outside the spans, the rows of the ranking before, as they were; within
                    # them, each unchanged player's row before.
                    made = {i for start, end, _same in spans for i in range(start, end)}
                    for i in range(count):
                        if i not in made:
                            assert again.place(i) == kept.place(i)
                            assert again.ranks[i] == kept.ranks[i]
                            assert field[again.place(i)].id not in changed or (
                                now[field[again.place(i)].id] == by_player[field[again.place(i)].id]
                            )
                    for start, end, same in spans:
                        for i, was in zip(range(start, end), same, strict=True):
                            pid = field[again.place(i)].id
                            if was is None:
                                assert pid in changed
                            else:
                                assert kept.place(was) == again.place(i)
                                assert now[pid] == by_player[pid]
                    kept, by_player = again, now


def test_records_counted_again_from_the_changed_players_games_alone() -> None:
    field = players("A", "B", "C", "D")
    before = [[played("A", "B", 400, 300), played("C", "D", 350, 360)], [bye("A", 50)]]
    after = [[played("A", "B", 300, 400), played("C", "D", 350, 360)], [bye("A", 50)]]
    kept = records(field, before)
    # Only the changed players' games, as the index of each round's games by player gives them.
    theirs = [[played("A", "B", 300, 400)], [bye("A", 50)]]
    again = recounted(kept, None, theirs, {"A", "B"})
    assert again == records(field, after)
    assert again["C"] is kept["C"]
