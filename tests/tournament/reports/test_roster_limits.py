"""Roster files too large to be a roster are refused in a sentence before they are read:
too many bytes, too many rows, or an xlsx whose parts unpack to far more than it weighs."""

from __future__ import annotations

import io
import zipfile
from io import StringIO
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse
from openpyxl import Workbook

from tournament.interchange import roster
from tournament.interchange.roster import RosterError
from tournament.models import Division, Tournament
from tournament.players.services import import_roster


@pytest.fixture
def division(small: Tournament) -> Division:
    return Division.objects.create(tournament=small, name="A")


def xlsx(rows: list[list[object]]) -> bytes:
    book = Workbook()
    for row in rows:
        book.active.append(row)
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def zip_bomb(megabytes: int) -> bytes:
    """A real xlsx whose sheet is replaced by `megabytes` MB of empty rows: a few tens of
    kilobytes as uploaded, and its directory says how large the sheet unpacks."""
    source = zipfile.ZipFile(io.BytesIO(xlsx([["Name"], ["Quill, Ada"]])))
    rows = b'<row r="1"><c r="A1" t="inlineStr"><is><t>Name</t></is></c></row>'
    filler = b"<row/>" * (megabytes * 1024 * 1024 // 6)
    sheet = (
        b'<?xml version="1.0" encoding="UTF-8"?><worksheet '
        b'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'
        + rows
        + filler
        + b"</sheetData></worksheet>"
    )
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as bomb:
        for info in source.infolist():
            data = sheet if info.filename.endswith("sheet1.xml") else source.read(info)
            bomb.writestr(info.filename, data)
    return buffer.getvalue()


def test_a_zip_bomb_disguised_as_xlsx_is_refused_before_it_is_unpacked(
    division: Division, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = zip_bomb(40)
    assert len(data) < roster.MAX_BYTES  # small as uploaded: only its directory gives it away

    def never(*args: object, **kwargs: object) -> None:
        raise AssertionError("openpyxl was asked to read a zip bomb")

    monkeypatch.setattr("openpyxl.load_workbook", never)
    with pytest.raises(RosterError) as caught:
        import_roster(division, data, "roster.xlsx", None)
    (problem,) = caught.value.problems
    assert problem.startswith("roster.xlsx unpacks to 40.0 MiB, more than the 32.0 MiB")
    assert not division.players.exists()


def test_an_xlsx_with_more_rows_than_a_roster_is_refused(division: Division) -> None:
    rows: list[list[object]] = [["Name"]] + [[f"Player {n}"] for n in range(roster.MAX_ROWS + 1)]
    with pytest.raises(RosterError) as caught:
        import_roster(division, xlsx(rows), "roster.xlsx", None)
    assert caught.value.problems == ["roster.xlsx has more than 2000 rows of players"]


def test_a_roster_of_the_most_rows_allowed_is_read() -> None:
    data = ("Name\n" + "".join(f"Player {n}\n" for n in range(roster.MAX_ROWS))).encode()
    entries = roster.read_roster(data, "roster.csv")
    assert (len(entries), entries[-1].name, entries[-1].row) == (2000, "Player 1999", 2001)


def test_a_csv_larger_than_the_limit_is_refused(division: Division) -> None:
    data = b"Name\n" + b"Quill, Ada\n" * (roster.MAX_BYTES // 11 + 1)
    with pytest.raises(RosterError) as caught:
        import_roster(division, data, "roster.csv", None)
    assert caught.value.problems == [
        "roster.csv is larger than 2.0 MiB, the most a roster file may be"
    ]


def test_numbers_and_text_beyond_their_columns_are_refused_by_row(division: Division) -> None:
    data = (
        "Name,Number,Rating,Club\n"
        f"Quill,99999999999,1500,\n"
        f"Crane,2,²,\n"
        f"Vale,3,2147483648,\n"
        f"{'M' * 201},4,1500,{'C' * 101}\n"
    ).encode()
    with pytest.raises(RosterError) as caught:
        import_roster(division, data, "roster.csv", None)
    assert caught.value.problems == [
        "row 2: the number 99999999999 is not 1 to 100000",
        "row 3: the rating '²' is not a whole number",
        "row 4: the rating 2147483648 is not 0 to 2147483647",
        "row 5: the name is 201 characters; at most 200",
        "row 5: the club is 101 characters; at most 100",
    ]


def test_the_command_refuses_a_zip_bomb_in_one_line(division: Division, tmp_path: Path) -> None:
    path = tmp_path / "roster.xlsx"
    path.write_bytes(zip_bomb(40))
    with pytest.raises(CommandError) as caught:
        call_command("importroster", "spring-open", str(path), division="A", stdout=StringIO())
    assert str(caught.value).startswith("nothing imported: roster.xlsx unpacks to 40.0 MiB")


def test_the_desk_refuses_a_file_too_large_without_reading_it_all(
    division: Division, client
) -> None:
    from django.contrib.auth.models import User

    director = User.objects.create_user("alice")
    division.tournament.directors.add(director)
    client.force_login(director)
    upload = SimpleUploadedFile("roster.csv", b"Name\n" + b"x" * (5 * 1024 * 1024))
    url = reverse("desk-roster", args=[division.tournament.slug, division.pk])
    page = client.post(url, {"file": upload}, follow=True).content.decode()
    assert "Nothing imported: roster.csv is larger than 2.0 MiB" in page
    assert not division.players.exists()


def test_an_xlsx_of_a_zip_version_python_cannot_read_is_refused_in_a_sentence() -> None:
    # Found by the fuzzer: zipfile raises NotImplementedError for a "version needed" it lacks.
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("xl/workbook.xml", "<workbook/>")
    data = bytearray(out.getvalue())
    directory = data.index(b"PK\x01\x02")
    data[directory + 6] = 86  # the version needed to extract: 8.6
    with pytest.raises(RosterError) as refused:
        roster.read_roster(bytes(data), "roster.xlsx")
    assert refused.value.problems == [
        "roster.xlsx is not a readable xlsx file (zip file version 8.6)"
    ]
