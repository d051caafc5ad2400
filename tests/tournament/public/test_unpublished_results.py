"""Results of a round paired here and not yet published stay at the desk: no public page or
download counts them until the round is published.

The division of the desk's tests (conftest), round 1 entered (public: it has no `Round`), and
round 2 paired at the desk, hidden, with its results entered:

    round 1   1 Ada 400 – 2 Ben 350    3 Cora 500 – 4 Eli 300    6 Gus 450 – 5 Fay 350   7 Hal bye
    round 2   1 Ada 377 – 3 Cora 523   2 Ben 611 – 4 Eli 109     5 Fay 402 – 7 Hal 398   6 Gus bye

    Ada after round 1: 1–0, +50; after round 2: 1–1, 50 − 146 = −96.
"""

from __future__ import annotations

import io
from html.parser import HTMLParser

import pytest
from django.test import Client
from django.urls import reverse
from openpyxl import load_workbook

from tournament.models import Division, Game, Player, Round
from tournament.pairing import services as pairing
from tournament.results import services as results
from tournament.standings import read_model
from tournament.standings.stamps import read as read_stamps

ROUND_1 = ["1 400 2 350", "3 500 4 300", "6 450 5 350", "7 bye"]
ROUND_2 = ["1 377 3 523", "2 611 4 109", "5 402 7 398", "6 bye"]
HIDDEN_SCORES = ("377", "523", "611", "109")


class _Rows(HTMLParser):
    """The text of each table row of a page, cells joined by " | "."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None:
            self.rows[-1].append(" ".join("".join(self._cell).split()))
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def row_of(content: bytes, name: str) -> list[str]:
    parser = _Rows()
    parser.feed(content.decode())
    return next(r for r in parser.rows if any(name in cell for cell in r))


@pytest.fixture
def hidden(division: Division, director) -> Division:
    for n, rating in zip(range(1, 8), (1800, 1700, 1600, 1500, 1400, 1300, 1200), strict=True):
        Player.objects.filter(division=division, number=n).update(rating=rating)
    for line in ROUND_1:
        results.enter_line(division, 1, line, director)
    players = {p.number: p for p in division.players.all()}
    Round.objects.create(division=division, number=2, system="manual", published=False)
    for table, (one, two) in enumerate([(1, 3), (2, 4), (5, 7)], start=1):
        Game.objects.create(
            division=division, round=2, table=table, player1=players[one], player2=players[two]
        )
    Game.objects.create(division=division, round=2, player1=players[6], kind=Game.BYE)
    for line in ROUND_2:
        results.enter_line(division, 2, line, director)
    return division


def public_url(name: str, division: Division, *args) -> str:
    return reverse(name, args=[division.tournament.slug, division.name, *args])


def public_xlsx(client: Client, division: Division, kind: str) -> list[tuple]:
    response = client.get(public_url("public-report", division, kind, "xlsx"))
    assert response.status_code == 200
    sheet = load_workbook(io.BytesIO(response.content)).worksheets[0]
    return list(sheet.iter_rows(values_only=True))


def ada_of(rows: list[tuple]) -> tuple:
    return next(r for r in rows if "Quill, Ada" in r)


@pytest.mark.django_db
def test_no_public_page_or_download_shows_an_unpublished_round_s_results(
    client: Client, desk: Client, hidden: Division, director
) -> None:
    standings = client.get(public_url("standings", hidden)).content
    assert row_of(standings, "Quill, Ada")[2:4] == ["1–0", "+50"]
    player = client.get(public_url("player", hidden, 1)).content
    crosstable = client.get(public_url("crosstable", hidden)).content
    for page in (standings, player, crosstable):
        assert not any(score.encode() in page for score in HIDDEN_SCORES)

    # Ratings: the public's are those after round 1, the desk's after round 2.
    after_1 = read_model.division_ratings(
        hidden, after_round=1, public=False, stamps=read_stamps(hidden)
    )
    after_2 = read_model.division_ratings(hidden, public=False, stamps=read_stamps(hidden))
    ada_1 = next(r for r in after_1 if r.player.number == 1).after
    ada_2 = next(r for r in after_2 if r.player.number == 1).after
    assert ada_1 != ada_2
    ratings = client.get(public_url("ratings", hidden)).content
    assert str(ada_1) in row_of(ratings, "Quill, Ada")
    assert str(ada_2) not in row_of(ratings, "Quill, Ada")

    # The public standings download; the desk's counts everything.
    assert ada_of(public_xlsx(client, hidden, "standings"))[3:6] == (1, 0, 50)
    desk_report = desk.get(
        reverse("desk-report", args=[hidden.tournament.slug, hidden.pk, "standings", "xlsx"])
    )
    desk_rows = list(load_workbook(io.BytesIO(desk_report.content)).worksheets[0].values)
    assert ada_of(desk_rows)[3:6] == (1, 1, -96)
    pdf = client.get(public_url("public-report", hidden, "standings", "pdf"))
    assert pdf.status_code == 200

    pairing.publish(hidden, 2, director)

    standings = client.get(public_url("standings", hidden)).content
    assert row_of(standings, "Quill, Ada")[2:4] == ["1–1", "-96"]
    player = client.get(public_url("player", hidden, 1)).content
    crosstable = client.get(public_url("crosstable", hidden)).content
    for page in (player, crosstable):
        assert b"377" in page and b"523" in page
    ratings = client.get(public_url("ratings", hidden)).content
    assert str(ada_2) in row_of(ratings, "Quill, Ada")
    assert ada_of(public_xlsx(client, hidden, "standings"))[3:6] == (1, 1, -96)


@pytest.mark.django_db
def test_the_desk_s_standings_count_every_round(hidden: Division) -> None:
    desk = {
        r.player.number: r
        for r in read_model.division_standings(hidden, public=False, stamps=read_stamps(hidden))
    }
    public = {
        r.player.number: r
        for r in read_model.division_standings(hidden, public=True, stamps=read_stamps(hidden))
    }
    assert (desk[1].wins, desk[1].losses, desk[1].spread) == (1, 1, -96)
    assert (public[1].wins, public[1].losses, public[1].spread) == (1, 0, 50)
