"""The public crosstable is written without django-tables2's per-cell template loop (its cost on
a big division); it must be the same table tables2 would render, cell for cell."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client, RequestFactory
from django.urls import reverse

from tournament.models import Division, Player
from tournament.results import services as results
from tournament.standings import queries, read_model
from tournament.standings.stamps import read as read_stamps
from tournament.standings.tables import (
    CrosstableTable,
    PairingsByNameTable,
    PairingsByTableTable,
    crosstable_html,
    pairings_by_name_html,
    pairings_by_table_html,
)


def _same_markup(html: str) -> str:
    """The HTML without the whitespace between tags, which the template adds and a browser drops."""
    return re.sub(r">\s+", ">", re.sub(r"\s+<", "<", html))


def _both(division: Division) -> tuple[str, str]:
    rows, rounds = queries.crosstable(division, stamps=read_stamps(division))
    request = RequestFactory().get("/")
    by_tables2 = CrosstableTable(rows, division, rounds).as_html(request)
    written = crosstable_html(CrosstableTable(rows, division, rounds), request)
    return _same_markup(by_tables2), _same_markup(written)


@pytest.mark.django_db
def test_the_crosstable_is_the_table_django_tables2_renders(
    division: Division, director: User
) -> None:
    hostile = Player.objects.get(division=division, number=3)
    hostile.name = '<b>"Zed" & Co</b>'
    hostile.save()
    results.enter_line(division, 1, "1 400 2 350", director)
    results.enter_line(division, 1, "3 380 4 380", director)  # a tie
    by_tables2, written = _both(division)

    assert written == by_tables2
    assert "&lt;b&gt;&quot;Zed&quot; &amp; Co&lt;/b&gt;" in written
    assert "W #2<br><small>400–350</small>" in written


@pytest.mark.django_db
def test_a_division_without_games_shows_the_same_empty_table(division: Division) -> None:
    division.games.all().delete()
    by_tables2, written = _both(division)

    assert written == by_tables2


@pytest.mark.django_db
def test_the_crosstable_page_shows_a_result_entered_on_the_next_request(
    client: Client, division: Division, director: User
) -> None:
    url = reverse("crosstable", args=["spring-open", "A"])
    before = client.get(url)
    results.enter_line(division, 1, "1 400 2 350", director)
    after = client.get(url)

    assert "400–350" not in before.text
    assert "W #2<br><small>400–350</small>" in after.text


@pytest.mark.django_db
def test_a_round_s_pairings_are_the_tables_django_tables2_renders(
    division: Division, director: User
) -> None:
    hostile = Player.objects.get(division=division, number=2)
    hostile.name = '<i>"Bo" & Co</i>'
    hostile.save()
    results.enter_line(division, 1, "1 400 2 350", director)
    found = queries.round_pairings(division, 1, stamps=read_stamps(division))
    request = RequestFactory().get("/")

    by_table = PairingsByTableTable(found.by_table, division)
    by_name = PairingsByNameTable(found.by_name, division)
    written_by_table = _same_markup(pairings_by_table_html(by_table, request))
    written_by_name = _same_markup(pairings_by_name_html(by_name, request))

    assert written_by_table == _same_markup(by_table.as_html(request))
    assert written_by_name == _same_markup(by_name.as_html(request))
    assert "&lt;i&gt;&quot;Bo&quot; &amp; Co&lt;/i&gt;" in written_by_name
    assert "<td >400–350</td>" in written_by_table
    assert "<td >Bye</td>" in written_by_table


@pytest.mark.django_db
@pytest.mark.parametrize("sort", ["", "-after", "name", "change", "-before"])
def test_the_ratings_are_the_table_django_tables2_renders_in_any_order(
    division: Division, director: User, sort: str
) -> None:
    from django_tables2 import RequestConfig

    from tournament.standings.tables import RatingsTable, ratings_html

    hostile = Player.objects.get(division=division, number=3)
    hostile.name = '<b>"Zed" & Co</b>'
    hostile.rating = 1500
    hostile.save()
    results.enter_line(division, 1, "1 400 2 350", director)
    results.enter_line(division, 1, "3 380 4 380", director)
    request = RequestFactory().get("/", {"sort": sort} if sort else {})
    rows = read_model.division_ratings(division, stamps=read_stamps(division))

    by_tables2 = RatingsTable(rows, division)
    RequestConfig(request, paginate=False).configure(by_tables2)
    written = RatingsTable(rows, division)
    RequestConfig(request, paginate=False).configure(written)

    assert _same_markup(ratings_html(written, request)) == _same_markup(by_tables2.as_html(request))
    assert "&lt;b&gt;&quot;Zed&quot; &amp; Co&lt;/b&gt;" in ratings_html(written, request)


@pytest.mark.django_db
@pytest.mark.parametrize("sort", ["", "-spread", "name", "record", "-rank", "rating"])
def test_the_standings_are_the_table_django_tables2_renders_in_any_order(
    division: Division, director: User, sort: str
) -> None:
    from django_tables2 import RequestConfig

    from tournament.standings.tables import StandingsTable, standings_html

    hostile = Player.objects.get(division=division, number=3)
    hostile.name = '<b>"Zed" & Co</b>'
    hostile.save()
    withdrawn = Player.objects.get(division=division, number=7)
    withdrawn.withdrawn_from_round = 1
    withdrawn.save()
    results.enter_line(division, 1, "1 400 2 350", director)
    results.enter_line(division, 1, "3 380 4 380", director)
    request = RequestFactory().get("/", {"sort": sort} if sort else {})
    rows = read_model.division_standings(division, stamps=read_stamps(division))

    by_tables2 = StandingsTable(rows, division)
    RequestConfig(request, paginate=False).configure(by_tables2)
    written = StandingsTable(rows, division)
    RequestConfig(request, paginate=False).configure(written)

    assert _same_markup(standings_html(written, request)) == _same_markup(
        by_tables2.as_html(request)
    )


@pytest.mark.django_db
def test_a_players_games_are_the_table_django_tables2_renders(
    division: Division, director: User, game_of, record
) -> None:
    from tournament.models import Game
    from tournament.scoresheets import services as scoresheets
    from tournament.standings.tables import PlayerGamesTable, player_games_html

    hostile = Player.objects.get(division=division, number=2)
    hostile.name = '<b>"Zed" & Co</b>'
    hostile.save()
    results.enter_line(division, 1, "1 400 2 350", director)
    scoresheets.attach_scoresheet(game_of(1), record(), director)
    ada = Player.objects.get(division=division, number=1)
    Game.objects.create(division=division, round=2, player1=ada, kind=Game.BYE, score1=50)
    Game.objects.create(division=division, round=3, player1=ada, player2=hostile, table=2)
    request = RequestFactory().get("/")
    rows = queries.player_games(ada)

    by_tables2 = PlayerGamesTable(rows, division).as_html(request)
    written = player_games_html(PlayerGamesTable(rows, division), request)

    assert _same_markup(written) == _same_markup(by_tables2)
    assert "&lt;b&gt;&quot;Zed&quot; &amp; Co&lt;/b&gt;" in written
    assert len(rows) == 3


@pytest.mark.django_db
def test_the_crosstable_of_kept_round_cells_is_the_table_django_tables2_renders(
    division: Division, director: User
) -> None:

    from tournament.standings.tables import crosstable_cells, standings_crosstable_html

    hostile = Player.objects.get(division=division, number=3)
    hostile.name = '<b>"Zed" & Co</b>'
    hostile.save()
    results.enter_line(division, 1, "1 400 2 350", director)
    results.enter_line(division, 1, "3 380 4 380", director)
    request = RequestFactory().get("/")

    def written() -> str:
        read = read_model.division_read(division, stamps=read_stamps(division))
        rows = read_model.division_standings(division, stamps=read_stamps(division))
        cells = crosstable_cells(division, read)
        return standings_crosstable_html(division, rows, cells, request)

    first = written()
    results.enter_line(division, 1, "5 300 6 390", director)
    second = written()

    by_tables2, _ = _both(division)
    assert _same_markup(second) == by_tables2
    assert "W #2<br><small>400–350</small>" in first
    assert "W #5<br><small>390–300</small>" not in first
    assert "W #5<br><small>390–300</small>" in second


@pytest.mark.django_db
def test_the_pairings_player_and_crosstable_tables_are_styled_and_offer_no_sort_that_does_nothing(
    client: Client, division: Division, director: User
) -> None:
    results.enter_line(division, 1, "1 400 2 350", director)
    for name, args in [("pairings", [1]), ("player", [1]), ("crosstable", [])]:
        page = client.get(reverse(name, args=["spring-open", "A", *args])).text

        assert '<table class="data">' in page, name
        assert "sort=" not in page, name
