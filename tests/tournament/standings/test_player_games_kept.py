"""A player's games table is kept under what it shows (`queries.player_games_key`), so that a
result elsewhere in the division re-renders the player's page for their rank without reading
and counting their games again. Whatever changes, the page served is the page rendered from an
empty cache: exact."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from tournament.models import Division, Game, Player
from tournament.results import services as results
from tournament.scoresheets import services as scoresheets
from tournament.standings import queries
from tournament.standings.stamps import read as read_stamps


@pytest.fixture
def two_rounds(division: Division, director: User) -> Division:
    """Round 1 of the shared fixture with two results, and round 2 paired."""
    players = {p.number: p for p in division.players.all()}
    for table, (one, two) in enumerate([(1, 3), (2, 4), (5, 7)], start=1):
        Game.objects.create(
            division=division, round=2, table=table, player1=players[one], player2=players[two]
        )
    Game.objects.create(division=division, round=2, player1=players[6], kind=Game.BYE)
    results.enter_line(division, 1, "1 400 2 350", director)
    results.enter_line(division, 1, "3 300 4 410", director)
    tournament = division.tournament
    tournament.public = True
    tournament.save()
    return division


@pytest.fixture
def built(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The players whose games table was built (not taken from the cache), in order."""
    calls: list[int] = []
    real = queries.player_games

    def counted(player: Player):
        calls.append(player.number)
        return real(player)

    monkeypatch.setattr(queries, "player_games", counted)
    return calls


def page(client: Client, number: int) -> str:
    response = client.get(reverse("player", args=["spring-open", "A", number]))
    assert response.status_code == 200
    return response.content.decode()


def fresh(client: Client, number: int) -> str:
    """The page as a server that has never seen it renders it."""
    cache.clear()
    return page(client, number)


@pytest.mark.django_db
def test_a_result_elsewhere_renews_the_rank_and_keeps_the_table(
    client: Client, two_rounds: Division, director: User, built: list[int]
) -> None:
    before = page(client, 5)
    assert built == [5]

    results.enter_line(two_rounds, 2, "1 450 3 300", director)  # players 1 and 3 only
    after = page(client, 5)

    assert built == [5]  # the table came from the cache
    assert after != before  # a new stamp: the page itself was rendered again (its rank)
    assert after == fresh(client, 5)


@pytest.mark.django_db
def test_the_players_own_result_is_in_their_table_at_once(
    client: Client, two_rounds: Division, director: User, built: list[int]
) -> None:
    before = page(client, 1)

    results.enter_line(two_rounds, 2, "1 450 3 300", director)
    after = page(client, 1)

    assert built == [1, 1]
    assert "450" not in before and "450" in after
    assert "2–0 +200" in after
    assert after == fresh(client, 1)


@pytest.mark.django_db
def test_a_correction_of_the_players_result_is_in_their_table_at_once(
    client: Client, two_rounds: Division, director: User
) -> None:
    page(client, 4)
    game = two_rounds.games.get(round=1, player1__number=3)
    results.enter_line(two_rounds, 1, "3 420 4 410", director, game.version, "slip misread")

    after = page(client, 4)

    assert "0–1 -10" in after
    assert after == fresh(client, 4)


@pytest.mark.django_db
def test_a_scoresheet_and_an_opponents_new_name_are_in_the_table_at_once(
    client: Client,
    two_rounds: Division,
    director: User,
    record: Callable[..., str],
    built: list[int],
) -> None:
    before = page(client, 2)
    game = two_rounds.games.get(round=1, player1__number=1)
    sheet = scoresheets.attach_scoresheet(game, record(), director)
    if sheet.held:  # its totals differ from the entered result: published anyway
        scoresheets.release_scoresheet(sheet, director, "checked by hand")

    with_sheet = page(client, 2)

    link = reverse("scoresheet", args=["spring-open", sheet.pk])
    assert link not in before and link in with_sheet
    assert with_sheet == fresh(client, 2)

    opponent = two_rounds.players.get(number=1)
    opponent.name = "Quillon, Ada"
    opponent.save()
    renamed = page(client, 2)

    assert "Quillon, Ada" in renamed
    assert renamed == fresh(client, 2)
    assert built.count(2) == 5  # the first page, each change and each fresh page built it


@pytest.mark.django_db
def test_every_players_key_worked_out_at_once_is_their_own_key(
    two_rounds: Division, director: User, record: Callable[..., str]
) -> None:
    game = two_rounds.games.get(round=1, player1__number=1)
    scoresheets.attach_scoresheet(game, record(), director)
    two_rounds.refresh_from_db()  # its stamps, as the keys read them first

    every = queries.player_games_keys(two_rounds, "fi", stamps=read_stamps(two_rounds))

    for player in two_rounds.players.all():
        assert every[player.pk] == queries.player_games_key(
            player, read_stamps(two_rounds), "fi"
        ), player
    assert len(set(every.values())) == two_rounds.players.count()


@pytest.mark.django_db
def test_a_page_whose_player_a_result_does_not_touch_is_served_as_kept(
    client: Client, two_rounds: Division, director: User
) -> None:
    url = reverse("player", args=["spring-open", "A", 6])  # a bye in round 2
    results.enter_line(two_rounds, 2, "1 450 3 300", director)
    kept = client.get(url)

    # 4 stays ahead of 6 and 2 behind: 6's rank, record, rating and games stay as they were.
    results.enter_line(two_rounds, 2, "2 380 4 400", director)
    again = client.get(url, headers={"If-None-Match": kept["ETag"]})
    moved = client.get(reverse("player", args=["spring-open", "A", 2]))

    assert again.status_code == 304
    assert "0–2 -70" in moved.text
    assert client.get(url).content == fresh(client, 6).encode()


@pytest.mark.django_db
def test_a_directors_player_page_is_rendered_for_them_with_the_same_parts(
    client: Client, two_rounds: Division, director: User
) -> None:
    anonymous = page(client, 1)
    client.force_login(director)
    theirs = page(client, 1)

    assert "Log out" in theirs and "Log out" not in anonymous
    for shown in (anonymous, theirs):
        assert "· rank 2" in shown and "new → 900 (+900)</bdi> after round 1" in shown
        assert '· <bdi dir="ltr" class="ltr">1–0 +50</bdi>\n' in shown  # record and spread
