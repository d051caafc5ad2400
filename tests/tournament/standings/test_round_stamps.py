"""A round's own stamp: the pages that show one round's games alone (its pairings, a scoresheet)
are kept until that round's games change, while every page that counts all rounds (standings,
crosstable, ratings, a player's page) is renewed by any result. Either way, a result entered is
on the next request of every page that shows it."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tournament.models import Division, Game, Player
from tournament.results import services as results
from tournament.scoresheets import services as scoresheets
from tournament.standings import memos, queries, read_model
from tournament.standings.stamps import read as read_stamps


@pytest.fixture
def three_rounds(division: Division, director: User) -> Division:
    """Round 1 of the shared fixture with results, and rounds 2 and 3 paired."""
    players = {p.number: p for p in division.players.all()}
    for number in (2, 3):
        for table, (one, two) in enumerate([(1, 3), (2, 4), (5, 7)], start=1):
            Game.objects.create(
                division=division,
                round=number,
                table=table,
                player1=players[one],
                player2=players[two],
            )
        Game.objects.create(division=division, round=number, player1=players[6], kind=Game.BYE)
    results.enter_line(division, 1, "1 400 2 350", director)
    results.enter_line(division, 2, "1 380 3 300", director)
    return division


def url(name: str, *args: object) -> str:
    return reverse(name, args=["spring-open", "A", *args])


def pairings(client: Client, number: int):
    return client.get(url("pairings", number))


def served_from_cache(client: Client, path: str) -> bool:
    """Whether the page came from the cache: only the stamps were read, no game."""
    from django.db import connection

    with CaptureQueriesContext(connection) as queries:
        client.get(path)
    return not any('"tournament_game"' in q["sql"] for q in queries)


@pytest.mark.django_db
def test_a_result_in_round_3_leaves_round_1s_pairings_cached(
    client: Client, three_rounds: Division, director: User
) -> None:
    first = pairings(client, 1)
    third = pairings(client, 3)

    results.enter_line(three_rounds, 3, "2 410 4 390", director)
    first_after = pairings(client, 1)
    third_after = pairings(client, 3)

    assert first_after["ETag"] == first["ETag"]
    assert served_from_cache(client, url("pairings", 1))
    assert third_after["ETag"] != third["ETag"]
    assert "410–390" not in third.text
    assert "410–390" in third_after.text


@pytest.mark.django_db
def test_a_result_in_round_3_is_on_every_page_that_counts_it_at_once(
    client: Client, three_rounds: Division, director: User
) -> None:
    pages = [url("standings"), url("crosstable"), url("ratings"), url("player", 2)]
    before = {page: client.get(page) for page in pages}

    results.enter_line(three_rounds, 3, "2 410 4 390", director)
    after = {page: client.get(page) for page in pages}

    for page in pages:
        assert after[page]["ETag"] != before[page]["ETag"], page
    assert "410" not in before[url("crosstable")].text
    assert "410–390" in after[url("crosstable")].text
    assert "410–390" in after[url("player", 2)].text
    assert "-30" not in before[url("standings")].text  # Ben: -50 in round 1, +20 in round 3
    assert "-30" in after[url("standings")].text


@pytest.mark.django_db
def test_a_correction_to_round_1_refreshes_round_1s_pairings_and_every_later_standings(
    client: Client, three_rounds: Division, director: User
) -> None:
    results.enter_line(three_rounds, 3, "2 410 4 390", director)
    first = pairings(client, 1)
    second = pairings(client, 2)
    third = pairings(client, 3)
    standings = {n: client.get(url("standings") + f"?round={n}") for n in (1, 2, 3)}

    results.enter_line(three_rounds, 1, "1 437 2 350", director, reason="misread")
    first_after = pairings(client, 1)
    standings_after = {n: client.get(url("standings") + f"?round={n}") for n in (1, 2, 3)}

    assert first_after["ETag"] != first["ETag"]
    assert "437–350" in first_after.text and "400–350" in first.text
    assert pairings(client, 2)["ETag"] == second["ETag"]
    assert pairings(client, 3)["ETag"] == third["ETag"]
    # Ben's spread: -50, then -87, after rounds 1 and 2; +20 more after round 3.
    ben = {1: ("-50", "-87"), 2: ("-50", "-87"), 3: ("-30", "-67")}
    for n, (old, new) in ben.items():
        assert standings_after[n]["ETag"] != standings[n]["ETag"]
        assert old in standings[n].text and new not in standings[n].text
        assert new in standings_after[n].text


@pytest.mark.django_db
def test_a_player_renamed_refreshes_every_rounds_pairings(
    client: Client, three_rounds: Division
) -> None:
    before = {n: pairings(client, n) for n in (1, 2, 3)}

    ada = Player.objects.get(division=three_rounds, number=1)
    ada.name = "Quill-Smith, Ada"
    ada.save()

    for n in (1, 2, 3):
        after = pairings(client, n)
        assert after["ETag"] != before[n]["ETag"]
        assert "Quill-Smith, Ada" in after.text


@pytest.mark.django_db
def test_a_game_moved_to_another_round_refreshes_both_rounds_and_the_list_of_rounds(
    client: Client, three_rounds: Division
) -> None:
    before = {n: pairings(client, n) for n in (1, 2, 3)}

    game = three_rounds.games.get(round=3, table=1)
    game.round = 4
    game.save()

    after = {n: pairings(client, n) for n in (1, 2, 3)}
    for n in (1, 2, 3):
        assert after[n]["ETag"] != before[n]["ETag"]
        assert url("pairings", 4) in after[n].text
    assert pairings(client, 4).status_code == 200


@pytest.mark.django_db
def test_a_new_round_paired_is_in_every_rounds_list_at_once(
    client: Client, three_rounds: Division
) -> None:
    before = pairings(client, 1)
    players = {p.number: p for p in three_rounds.players.all()}

    Game.objects.create(
        division=three_rounds, round=4, player1=players[1], player2=players[2], table=1
    )

    assert url("pairings", 4) not in before.text
    assert url("pairings", 4) in pairings(client, 1).text


@pytest.mark.django_db
def test_a_scoresheets_page_is_kept_until_its_own_rounds_games_change(
    client: Client, three_rounds: Division, director: User, game_of, record
) -> None:
    sheet = scoresheets.attach_scoresheet(game_of(1), record(), director)
    if sheet.held:  # its totals differ from the entered result: published anyway
        scoresheets.release_scoresheet(sheet, director, "checked by hand")
    page = reverse("scoresheet", args=["spring-open", sheet.pk])
    before = client.get(page)

    results.enter_line(three_rounds, 3, "2 410 4 390", director)
    other_round = client.get(page)
    results.enter_line(three_rounds, 1, "1 450 2 350", director, reason="misread")
    own_round = client.get(page)

    assert before.status_code == 200
    assert other_round["ETag"] == before["ETag"]
    assert own_round["ETag"] != before["ETag"]


@pytest.mark.django_db
def test_results_in_two_rounds_in_one_transaction_renew_both_and_keep_the_others(
    three_rounds: Division, director: User
) -> None:
    kept = Division.objects.get(pk=three_rounds.pk)

    with transaction.atomic():
        results.enter_line(three_rounds, 3, "2 410 4 390", director)
        results.enter_line(three_rounds, 2, "2 300 4 390", director)
        results.enter_line(three_rounds, 3, "5 300 7 390", director)

    now = Division.objects.get(pk=three_rounds.pk)
    assert now.round_stamps["1"] == kept.round_stamps["1"]
    assert now.round_stamps["2"] != kept.round_stamps["2"]
    assert now.round_stamps["3"] != kept.round_stamps.get("3")
    assert now.frame_stamp == kept.frame_stamp
    assert now.stamp != kept.stamp


@pytest.mark.django_db
def test_a_division_saved_with_some_fields_still_renews_its_stamps(
    three_rounds: Division,
) -> None:
    kept = Division.objects.get(pk=three_rounds.pk)

    kept.prizes = [{"kind": "rank", "place": 1, "value": "$100", "note": ""}]
    kept.save(update_fields=["prizes"])

    now = Division.objects.get(pk=three_rounds.pk)
    assert now.stamp != kept.stamp
    assert now.frame_stamp != kept.frame_stamp


def _read_afresh(division: Division, public: bool = True):

    memos.DIVISION_READS.clear()
    memos.ROUND_READS.clear()
    return read_model.players_and_results(division, public, stamps=read_stamps(division))


@pytest.mark.django_db
@pytest.mark.parametrize("public", [True, False])
def test_the_results_read_round_by_round_are_those_read_afresh_after_every_change(
    three_rounds: Division, director: User, public: bool
) -> None:
    from django.db import connection

    def check() -> None:
        kept = read_model.players_and_results(
            three_rounds, public, stamps=read_stamps(three_rounds)
        )
        assert kept == _read_afresh(three_rounds, public)

    read_model.players_and_results(three_rounds, public, stamps=read_stamps(three_rounds))
    with CaptureQueriesContext(connection) as queries:
        results.enter_line(three_rounds, 3, "2 410 4 390", director)
        kept = read_model.players_and_results(
            three_rounds, public, stamps=read_stamps(three_rounds)
        )
    games_read = [q["sql"] for q in queries if 'FROM "tournament_game"' in q["sql"]]
    assert any('NOT ("tournament_game"."round" IN (1, 2))' in sql for sql in games_read)
    assert kept == _read_afresh(three_rounds, public)

    results.enter_line(three_rounds, 1, "1 437 2 350", director, reason="misread")
    check()
    game = three_rounds.games.get(round=3, table=2)
    game.round = 4
    game.save()
    check()
    Game.objects.filter(division=three_rounds, round=2).delete()
    check()
    Game.objects.filter(division=three_rounds, round=1, table=1).update(score1=None, score2=None)
    from tournament.standings import stamps

    stamps.touch([three_rounds.pk])
    check()
    assert (
        read_model.players_and_results(three_rounds, public, stamps=read_stamps(three_rounds))[1][0]
        == []
    )  # no result left


@pytest.mark.django_db
def test_the_rounds_are_counted_once_a_stamp_and_again_after_a_result(
    three_rounds: Division, director: User, django_assert_num_queries
) -> None:

    with django_assert_num_queries(2):  # the stamp, then the count
        first = queries.division_rounds(three_rounds, stamps=read_stamps(three_rounds))
    with django_assert_num_queries(1):  # the stamp: the same, so counted already
        assert queries.division_rounds(three_rounds, stamps=read_stamps(three_rounds)) == first
    assert [(r.number, r.games, r.results, r.complete) for r in first] == [
        (1, 4, 1, False),
        (2, 4, 1, False),
        (3, 4, 0, False),
    ]

    results.enter_line(three_rounds, 3, "2 410 4 390", director)

    with django_assert_num_queries(2):  # a new stamp: counted again
        after = queries.division_rounds(three_rounds, stamps=read_stamps(three_rounds))
    assert [(r.number, r.results, r.complete) for r in after] == [
        (1, 1, False),
        (2, 1, False),
        (3, 1, False),
    ]
