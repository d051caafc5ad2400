"""A report speaks the language it is made in (the downloads make it in the page's language,
`translation.override` around `reports.make`): its sheets, headings and column labels come from
the catalogs; the figures are the same."""

from __future__ import annotations

import io
import os

import openpyxl
import pytest
from django.core.management import call_command
from django.utils import translation

from tournament import reports
from tournament.models import Division


@pytest.fixture
def division(db: None) -> Division:
    call_command("loaddemo", stdout=open(os.devnull, "w"))  # noqa: SIM115
    return Division.objects.get(tournament__slug="demo", name="A")


def _book(division: Division, kind: str) -> openpyxl.Workbook:
    return openpyxl.load_workbook(io.BytesIO(reports.make(division, kind, "xlsx").content))


def test_a_standings_spreadsheet_in_finnish_and_in_persian(division: Division) -> None:
    english = _book(division, "standings")
    with translation.override("fi"):
        finnish = _book(division, "standings")
    with translation.override("fa"):
        persian = _book(division, "standings")
    assert english.sheetnames == ["Standings"]
    assert finnish.sheetnames == ["Tilanne"]
    assert persian.sheetnames == ["جدول رده‌بندی"]
    header = [c.value for c in english["Standings"][1]][:6]
    assert header == ["Rank", "No.", "Name", "W", "L", "Spread"]
    assert [c.value for c in finnish["Tilanne"][1]][:6] == [
        "Sija",
        "Nro",
        "Nimi",
        "V",
        "H",
        "Pisteero",
    ]
    assert [c.value for c in persian["جدول رده‌بندی"][1]][:6] == [
        "رتبه", "ش.", "نام", "برد", "باخت", "تفاضل"
    ]  # fmt: skip
    # The figures do not change with the language.
    rows = [[c.value for c in row] for row in english["Standings"].iter_rows(min_row=2)]
    assert rows == [[c.value for c in row] for row in finnish["Tilanne"].iter_rows(min_row=2)]


def test_a_statistics_report_in_korean_names_its_tables_in_korean(division: Division) -> None:
    with translation.override("ko"):
        book = _book(division, "stats")
        pdf = reports.make(division, "stats", "pdf")
    assert book.sheetnames[:3] == ["요약", "평균", "최고 점수"]
    assert pdf.content.startswith(b"%PDF")


def test_a_downloaded_report_follows_the_reader_s_choice_then_the_tournament_s(
    division: Division, client
) -> None:
    from django.urls import reverse

    tournament = division.tournament
    tournament.language = "fi"
    tournament.save(update_fields=["language"])
    url = reverse("public-report", args=[tournament.slug, division.name, "standings", "xlsx"])

    def sheets(response) -> list[str]:
        assert response.status_code == 200
        return openpyxl.load_workbook(io.BytesIO(response.content)).sheetnames

    # No choice: the tournament's language, whatever the browser asks for.
    assert sheets(client.get(url, HTTP_ACCEPT_LANGUAGE="ko")) == ["Tilanne"]
    # The reader chose Korean with the switcher: Korean.
    client.cookies["django_language"] = "ko"
    assert sheets(client.get(url)) == ["순위"]
    # ?lang= asks for one report in another language.
    assert sheets(client.get(url, {"lang": "id"})) == ["Klasemen"]
