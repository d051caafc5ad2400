"""A roster from a spreadsheet or CSV file: every row checked first, nothing saved if one is bad."""

from __future__ import annotations

import io
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from openpyxl import Workbook

from tournament.interchange.roster import RosterError
from tournament.models import Division, Tournament
from tournament.players.services import import_roster


@pytest.fixture
def division(small: Tournament) -> Division:
    return Division.objects.create(tournament=small, name="A")


def test_a_csv_roster_adds_players_with_their_ratings_clubs_and_ids(
    division: Division, tmp_path: Path
) -> None:
    path = tmp_path / "roster.csv"
    path.write_text(
        "Last name;First name;Rating;Club;NASPA ID\n"
        "Müller;Łukasz;1712;Kraków;AA001234\n"
        "Quill;Ada;1500;;\n",
        encoding="utf-8",
    )
    call_command("importroster", "spring-open", str(path), division="A", stdout=StringIO())
    players = list(division.players.order_by("number"))
    assert [(p.number, p.name, p.rating, p.club, p.membership_id) for p in players] == [
        (1, "Müller, Łukasz", 1712, "Kraków", "AA001234"),
        (2, "Quill, Ada", 1500, "", ""),
    ]


def test_an_xlsx_roster_keeps_the_numbers_it_gives(division: Division) -> None:
    book = Workbook()
    sheet = book.active
    sheet.append(["No.", "Name", "Rating", "Team"])
    sheet.append([7, "Crane, Ben", 1620, "Owls"])
    sheet.append([3, "Vale, Cora", 1410.0, None])
    buffer = io.BytesIO()
    book.save(buffer)
    import_roster(division, buffer.getvalue(), "roster.xlsx", None)
    assert list(division.players.values_list("number", "name", "rating", "team")) == [
        (3, "Vale, Cora", 1410, ""),
        (7, "Crane, Ben", 1620, "Owls"),
    ]


def test_a_roster_with_a_bad_row_saves_nothing_and_names_the_rows(division: Division) -> None:
    data = b"Name,Rating,Number\nAda Quill,15OO,1\n,1400,2\nBen Crane,1400,1\n"
    with pytest.raises(RosterError) as caught:
        import_roster(division, data, "roster.csv", None)
    assert caught.value.problems == [
        "row 2: the rating '15OO' is not a whole number",
        "row 3: no name",
        "rows 2, 4: the number 1 is given twice",
    ]
    assert not division.players.exists()


def test_the_command_says_why_nothing_was_imported(division: Division, tmp_path: Path) -> None:
    path = tmp_path / "roster.csv"
    path.write_text("Player rating\n1500\n")
    with pytest.raises(CommandError, match="no 'name' column"):
        call_command("importroster", "spring-open", str(path), division="A")


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-le", "utf-16-be", "utf-8-sig", "cp1252"])
def test_a_csv_roster_saved_as_utf_16_or_windows_1252_reads_the_same(
    division: Division, codec: str
) -> None:
    # Excel's "Unicode text" is UTF-16 with tabs; its "CSV" is Windows-1252.
    data = "Name\tRating\tClub\nMüller, Zoë\t1712\tKraków\nQuill, Ada\t1500\t\n"
    if codec == "cp1252":
        data = data.replace("Kraków", "Paris")
    import_roster(division, data.encode(codec), "roster.csv", None)
    assert list(division.players.values_list("number", "name", "rating", "club")) == [
        (1, "Müller, Zoë", 1712, "Paris" if codec == "cp1252" else "Kraków"),
        (2, "Quill, Ada", 1500, ""),
    ]
