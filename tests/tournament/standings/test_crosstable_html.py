"""The public tables (`standings/tables.py`): each declared once as its columns and written in
one pass, escaped cell by cell, sorted as `?sort=` asks on the standings and ratings."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.http import QueryDict
from django.test import Client
from django.urls import reverse

from tournament.models import Division, Game, Player
from tournament.results import services as results
from tournament.standings import memos, queries, read_model
from tournament.standings.rows import Row
from tournament.standings.stamps import read as read_stamps
from tournament.standings.tables import (
    crosstable_cells,
    crosstable_html,
    pairings_by_name_html,
    pairings_by_table_html,
    player_games_html,
    ratings_html,
    standings_html,
)

HOSTILE = '<b>"Zed" & Co</b>'
ESCAPED = "&lt;b&gt;&quot;Zed&quot; &amp; Co&lt;/b&gt;"
ADA = "<bdi>Quill, Ada</bdi>"


def _link(number: int, html: str) -> str:
    return f'<a href="/t/spring-open/A/player/{number}/">{html}</a>'


def _ltr(text: str) -> str:
    return f'<bdi dir="ltr" class="ltr">{text}</bdi>'


def _numbers(html: str) -> list[int]:
    """The players of a table's rows, in order: each row's first link to a player's page."""
    body = html.split("<tbody>")[1]
    return [
        int(n)
        for n in re.findall(
            r"<tr[^>]*><td[^>]*>(?:[^<]*</td><td[^>]*>)?<a href=\"/t/spring-open/A/player/(\d+)/",
            body,
        )
    ]


def _crosstable(division: Division) -> str:
    read = read_model.division_read(division, stamps=read_stamps(division))
    rows = read_model.division_standings(division, stamps=read_stamps(division))
    return crosstable_html(division, rows, crosstable_cells(division, read))


@pytest.fixture
def hostile(division: Division) -> Player:
    player = Player.objects.get(division=division, number=3)
    player.name = HOSTILE
    player.rating = 1500
    player.save()
    return player


@pytest.mark.django_db
def test_the_crosstable_escapes_names_and_writes_a_cell_a_round(
    division: Division, director: User, hostile: Player
) -> None:
    results.enter_line(division, 1, "1 400 2 350", director)
    results.enter_line(division, 1, "3 380 4 380", director)  # a tie

    html = _crosstable(division)

    assert html.startswith('<div class="table-container">\n<table class="data">\n<thead>\n<tr>')
    assert (
        "<th>#</th>\n<th>No</th>\n<th>Player</th>\n<th>Record</th>\n<th>Spread</th>\n<th>R1</th>"
        in html
    )
    assert (
        f'<tr class="even"><td class="num">1</td><td class="num">1</td>'
        f"<td >{_link(1, ADA)}</td><td >{_ltr('1–0')}</td>"
        f'<td class="num">{_ltr("+50")}</td>'
        '<td class="cell">W #2<br><small>400–350</small></td></tr>'
    ) in html
    assert f"<td >{_link(3, f'<bdi>{ESCAPED}</bdi>')}</td>" in html
    assert '<td class="cell">T #4<br><small>380–380</small></td>' in html
    assert '<td class="cell"> bye<br><small></small></td>' in html  # no score yet
    assert "<b>" not in html


@pytest.mark.django_db
def test_a_division_without_games_shows_an_empty_table(division: Division) -> None:
    division.games.all().delete()
    Player.objects.filter(division=division).delete()

    html = _crosstable(division)

    assert '<tbody>\n<tr><td colspan="5">Nothing yet.</td></tr>\n</tbody>' in html


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
def test_a_round_s_pairings_by_table_and_by_name(division: Division, director: User) -> None:
    hostile = Player.objects.get(division=division, number=2)
    hostile.name = '<i>"Bo" & Co</i>'
    hostile.save()
    results.enter_line(division, 1, "1 400 2 350", director)
    found = queries.round_pairings(division, 1, stamps=read_stamps(division))
    bo = "<bdi>&lt;i&gt;&quot;Bo&quot; &amp; Co&lt;/i&gt;</bdi>"

    by_table = pairings_by_table_html(division, found.by_table)
    by_name = pairings_by_name_html(division, found.by_name)

    assert "<th>Table</th>\n<th>Player</th>\n<th>Score</th>\n<th>Opponent</th>" in by_table
    assert (
        f'<tr class="even"><td class="num">1</td>'
        f"<td >{_link(1, f'{ADA} (first)')}</td>"
        f"<td >400–350</td><td >{_link(2, bo)}</td></tr>"
    ) in by_table
    assert "<td >Bye</td>" in by_table
    assert (
        "<th>Player</th>\n<th>Table</th>\n<th>Opponent</th>\n<th>1st/2nd</th>\n<th>Score</th>"
        in by_name
    )
    assert (
        f'<td >{_link(2, bo)}</td><td class="num">1</td>'
        f"<td >{_link(1, ADA)}</td>"
        "<td >second</td><td >350–400</td>"
    ) in by_name
    assert "sort=" not in by_table + by_name


@pytest.mark.django_db
def test_a_fixed_table_is_marked(division: Division) -> None:
    ada = Player.objects.get(division=division, number=1)
    ada.fixed_table = 1
    ada.save()
    found = queries.round_pairings(division, 1, stamps=read_stamps(division))

    assert found.fixed_tables
    assert (
        '<td class="num">1<abbr class="fixed-table" title="fixed table">*</abbr></td>'
        in pairings_by_table_html(division, found.by_table)
    )


def _standings_order(rows: list[Row], sort: str) -> list[int]:
    """The order `?sort=` asks for, worked out here: a missing rank first when ascending."""
    keys = {
        "rank": lambda r: (r.rank is not None, r.rank or 0),
        "name": lambda r: r.name,
        "record": lambda r: (r.wins, -r.losses),
        "spread": lambda r: r.spread,
        "rating": lambda r: r.rating,
    }
    name = sort.removeprefix("-")
    if name not in keys:
        return [r.player.number for r in rows]
    return [r.player.number for r in sorted(rows, key=keys[name], reverse=sort.startswith("-"))]


@pytest.mark.django_db
@pytest.mark.parametrize(
    "sort", ["", "-spread", "name", "record", "-record", "rank", "-rank", "rating", "nonsense"]
)
def test_the_standings_in_any_order(
    division: Division, director: User, hostile: Player, sort: str
) -> None:
    withdrawn = Player.objects.get(division=division, number=7)
    withdrawn.withdrawn_from_round = 1
    withdrawn.save()
    results.enter_line(division, 1, "1 400 2 350", director)
    results.enter_line(division, 1, "3 380 4 380", director)
    rows = read_model.division_standings(division, stamps=read_stamps(division))
    query = QueryDict(f"round=1&sort={sort}")

    html = standings_html(division, rows, query)

    assert _numbers(html) == _standings_order(rows, sort)
    assert f"<bdi>{ESCAPED}</bdi>" in html
    assert '<td class="num">–</td>' in html  # the withdrawn player's rank
    for name, header in [
        ("rank", "#"),
        ("name", "Player"),
        ("record", "Record"),
        ("spread", "Spread"),
        ("rating", "Rating"),
    ]:
        if sort.removeprefix("-") == name:  # the order shown: its header links to the opposite
            ordered = "desc" if sort.startswith("-") else "asc"
            next_sort = name if sort.startswith("-") else f"-{name}"
            link = f'<a href="?round=1&amp;sort={next_sort}">{header}</a>'
            th = f'<th class="{ordered} orderable">{link}</th>'
        else:
            th = f'<th class="orderable"><a href="?round=1&amp;sort={name}">{header}</a></th>'
        assert th in html


@pytest.mark.django_db
@pytest.mark.parametrize("sort", ["", "-after", "name", "change", "-before"])
def test_the_ratings_in_any_order(
    division: Division, director: User, hostile: Player, sort: str
) -> None:
    results.enter_line(division, 1, "1 400 2 350", director)
    results.enter_line(division, 1, "3 380 4 380", director)
    rows = read_model.division_ratings(division, stamps=read_stamps(division))
    query = QueryDict(f"sort={sort}" if sort else "")

    html = ratings_html(division, rows, query)

    expected = list(rows)
    if sort:
        expected.sort(
            key=lambda r: getattr(r, sort.removeprefix("-")), reverse=sort.startswith("-")
        )
    assert _numbers(html) == [r.player.number for r in expected]
    assert f"<bdi>{ESCAPED}</bdi>" in html
    assert (
        '<th class="orderable"><a href="?sort=before">Before</a></th>' in html or sort == "-before"
    )
    assert f'<td class="num">{_ltr("0")}</td>' in html  # the bye's and unrated changes


@pytest.mark.django_db
def test_several_orders_and_other_parameters_are_kept_and_escaped(
    division: Division, director: User
) -> None:
    results.enter_line(division, 1, "1 400 2 350", director)
    rows = read_model.division_standings(division, stamps=read_stamps(division))
    query = QueryDict('sort=-record&sort=name&x="><script>')

    html = standings_html(division, rows, query)

    by_record = sorted(rows, key=lambda r: (-r.wins, r.losses, r.name))
    assert _numbers(html) == [r.player.number for r in by_record]
    assert '<th class="asc orderable"><a href="?sort=-name&amp;x=%22%3E%3Cscript%3E">' in html
    assert "<script>" not in html


@pytest.mark.django_db
def test_a_players_games(division: Division, director: User, game_of, record) -> None:
    from tournament.scoresheets import services as scoresheets

    opponent = Player.objects.get(division=division, number=2)
    opponent.name = HOSTILE
    opponent.save()
    results.enter_line(division, 1, "1 400 2 350", director)
    sheet = scoresheets.attach_scoresheet(game_of(1), record(), director)
    sheet.released = True  # shown to the public whatever its findings
    sheet.save()
    ada = Player.objects.get(division=division, number=1)
    Game.objects.create(division=division, round=2, player1=ada, kind=Game.BYE, score1=50)
    Game.objects.create(division=division, round=3, player1=ada, player2=opponent, table=2)
    rows = queries.player_games(ada)

    html = player_games_html(division, rows)

    assert (
        "<th>Rd</th>\n<th>Opponent</th>\n<th>1st/2nd</th>\n<th>Score</th>\n<th>Result</th>" in html
    )
    assert (
        f'<tr class="even"><td class="num">1</td><td >{_link(2, f"<bdi>{ESCAPED}</bdi>")}</td>'
        f"<td >first</td><td >400–350</td><td >win</td><td >{_ltr('1–0 +50')}</td>"
        f'<td ><a href="/t/spring-open/scoresheet/{sheet.pk}/">{sheet.label}</a></td></tr>'
    ) in html
    assert '<td class="num">2</td><td >Bye</td><td ></td><td >+50</td><td >win</td>' in html
    assert html.count("<tr class=") == len(rows) == 3


@pytest.mark.django_db
def test_the_crosstable_of_kept_round_cells_is_the_crosstable_written_afresh(
    division: Division, director: User, hostile: Player
) -> None:
    results.enter_line(division, 1, "1 400 2 350", director)
    results.enter_line(division, 1, "3 380 4 380", director)

    first = _crosstable(division)
    results.enter_line(division, 1, "5 300 6 390", director)
    second = _crosstable(division)
    memos.clear_all()
    cache.clear()

    assert second == _crosstable(division)
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


@pytest.mark.django_db
def test_the_standings_page_is_kept_for_each_order_asked(
    client: Client, division: Division, director: User
) -> None:
    results.enter_line(division, 1, "1 400 2 350", director)
    url = reverse("standings", args=["spring-open", "A"])
    by_rank = client.get(f"{url}?sort=-rank").text
    by_name_then_rank = client.get(f"{url}?sort=name&sort=-rank").text

    assert '<th class="desc orderable"><a href="?sort=rank">#</a></th>' in by_rank
    assert '<th class="asc orderable"><a href="?sort=-name">Player</a></th>' in by_name_then_rank
