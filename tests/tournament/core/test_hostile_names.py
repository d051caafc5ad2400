"""Names that are code: a spreadsheet never turns them into formulas, a page never runs them.

The desk's division (conftest) with its players renamed, round 1 entered.
"""

from __future__ import annotations

import io

import pytest
from django.test import Client
from django.urls import reverse
from openpyxl import load_workbook

from tournament import reports
from tournament.models import Division, Player
from tournament.playoffs import services as playoffs
from tournament.reports import data
from tournament.results import services as results
from tournament.scoresheets import services as scoresheets

FORMULAS = [
    "=1+2",
    '=HYPERLINK("http://example.com/x","click")',
    "+SUM(1,2)",
    "-3+4",
    "@SUM(1,2)",
    "\t=5+5",
    "\r=6+6",
]
# A carriage return comes back as the line feed XML turns it into; it is text all the same.
WRITTEN = FORMULAS[:-1] + ["\n=6+6"]
MARKUP = ["<script>alert(1)</script>", '"><img src=x onerror=alert(2)>']


def rename(division: Division, names: list[str]) -> None:
    for number, name in enumerate(names, start=1):
        Player.objects.filter(division=division, number=number).update(name=name)


@pytest.fixture
def formulas(division: Division, director) -> Division:
    rename(division, FORMULAS)
    for line in ["1 400 2 350", "3 500 4 300", "6 450 5 350", "7 bye"]:
        results.enter_line(division, 1, line, director)
    # A playoff of every player, so that the playoffs report names them all.
    playoffs.set_up(division, division.players.count(), 1, 1, director)
    playoffs.publish(division, director)
    # A prize for each place, so that the prize table names them all.
    division.prizes = [
        {"kind": "rank", "place": n, "value": f"${n}", "note": ""}
        for n in range(1, division.players.count() + 1)
    ]
    division.save()
    return division


# Reports of some players only, or of players level in one cell (the prize table, the leaders
# for a prize, the upsets): what they name comes back exactly.
SELECTIONS = ("prizes", "tuffluck", "luckystiff", "highratingchange", "upsets")


def cells(content: bytes) -> list:
    workbook = load_workbook(io.BytesIO(content))
    return [cell for sheet in workbook.worksheets for row in sheet.iter_rows() for cell in row]


@pytest.mark.django_db
@pytest.mark.parametrize("kind", reports.XLSX_KINDS)
def test_no_report_spreadsheet_holds_a_formula_and_names_come_back_exactly(
    formulas: Division, kind: str
) -> None:
    made = reports.make(formulas, kind, "xlsx")

    found = cells(made.content)
    assert [c.coordinate for c in found if c.data_type == "f"] == []
    values = {c.value for c in found}
    if kind in SELECTIONS:
        report = data.build(kind, formulas)
        # An empty cell is left empty; a carriage return comes back as a line feed (above).
        named = {
            c.replace("\r", "\n")
            for t in report.tables
            for row in t.rows
            for c in row
            if isinstance(c, str) and c
        }
        assert named <= values
        return
    assert set(WRITTEN) <= values


@pytest.mark.django_db
def test_the_public_and_desk_downloads_hold_no_formula(
    client: Client, desk: Client, formulas: Division
) -> None:
    slug = formulas.tournament.slug
    for kind in reports.PUBLIC_KINDS:
        public = client.get(
            reverse("public-report", args=[slug, formulas.name, kind, "xlsx"]), {"round": "1"}
        )
        at_desk = desk.get(reverse("desk-report", args=[slug, formulas.pk, kind, "xlsx"]))
        for response in (public, at_desk):
            assert response.status_code == 200
            found = cells(response.content)
            assert [c.coordinate for c in found if c.data_type == "f"] == []
            assert set(WRITTEN) <= {c.value for c in found}


@pytest.mark.django_db
def test_a_name_with_a_control_character_is_written_without_it(
    division: Division, director
) -> None:
    rename(division, ["Quill\x01, Ada"])
    results.enter_line(division, 1, "1 400 2 350", director)

    made = reports.make(division, "standings", "xlsx")

    assert "Quill, Ada" in {c.value for c in cells(made.content)}


# -- escaping ----------------------------------------------------------------------------------


@pytest.fixture
def markup(division: Division, director, record) -> Division:
    rename(division, MARKUP * 3 + MARKUP[:1])
    results.enter_line(division, 1, "1 20 2 24", director)
    results.enter_line(division, 1, "3 500 4 300", director)
    game = division.games.get(round=1, table=1)
    scoresheets.attach_scoresheet(game, record(name1=MARKUP[0], name2=MARKUP[1]), director)
    return division


def pages(division: Division) -> tuple[list[str], list[str]]:
    slug, name = division.tournament.slug, division.name
    sheet = division.games.get(round=1, table=1).scoresheets.get()
    game = sheet.game
    public = [
        reverse("home"),
        reverse("tournament", args=[slug]),
        reverse("standings", args=[slug, name]),
        reverse("pairings", args=[slug, name, 1]),
        reverse("player", args=[slug, name, 1]),
        reverse("player", args=[slug, name, 2]),
        reverse("crosstable", args=[slug, name]),
        reverse("ratings", args=[slug, name]),
        reverse("scoresheet", args=[slug, sheet.pk]),
    ]
    desk = [
        reverse("desk", args=[]),
        reverse("desk-dashboard", args=[slug]),
        reverse("desk-changes", args=[slug]),
        reverse("desk-entry", args=[slug, division.pk, 1]),
        reverse("desk-pairing", args=[slug, division.pk]),
        reverse("desk-round-pairings", args=[slug, division.pk, 1]),
        reverse("desk-players", args=[slug, division.pk]),
        reverse("desk-game", args=[slug, game.pk]),
        reverse("desk-scoresheet-new", args=[slug, game.pk]),
        reverse("desk-scoresheet", args=[slug, sheet.pk]),
        reverse("desk-scoresheet-edit", args=[slug, sheet.pk]),
    ]
    return public, desk


@pytest.mark.django_db
def test_names_that_are_markup_are_escaped_on_every_page(
    client: Client, desk: Client, markup: Division
) -> None:
    public, at_desk = pages(markup)
    for who, urls in ((client, public), (desk, public + at_desk)):
        for url in urls:
            response = who.get(url)
            assert response.status_code == 200, url
            page = response.content.decode()
            for name in MARKUP:
                assert name not in page, url
    # The names are on the pages, escaped.
    standings = client.get(public[2]).content.decode()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in standings
    assert "&quot;&gt;&lt;img src=x onerror=alert(2)&gt;" in standings
