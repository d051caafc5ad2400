"""A division's players read from a spreadsheet (xlsx) or a CSV file: one player a row under a
header row naming the columns.

Columns are found by their header, in any order and case: `name` (or `last name` and
`first name`, joined as "Last, First" as tsh writes names), and optionally `number`, `rating`,
`club`, `team` and `id` (a membership number). Every row is checked before anything is saved;
a file with any bad row saves nothing and says which rows and why.
"""

from __future__ import annotations

import contextlib
import csv
import io
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Max

from scoring.text import decode
from tournament.models import Division, Player

HEADERS = {
    "name": "name",
    "player": "name",
    "full name": "name",
    "last name": "last",
    "surname": "last",
    "family name": "last",
    "first name": "first",
    "given name": "first",
    "number": "number",
    "no": "number",
    "no.": "number",
    "seed": "number",
    "rating": "rating",
    "club": "club",
    "team": "team",
    "id": "membership_id",
    "membership id": "membership_id",
    "member id": "membership_id",
    "naspa id": "membership_id",
    "wespa id": "membership_id",
}


@dataclass(frozen=True)
class Entry:
    row: int  # the row of the file, the header being row 1
    name: str
    number: int | None
    rating: int
    club: str
    team: str
    membership_id: str


class RosterError(ValueError):
    """A roster that cannot be imported; `problems` lists each bad row in a sentence."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


def _rows_of(data: bytes, filename: str) -> list[list[object]]:
    if filename.lower().endswith(".xlsx"):
        from openpyxl import load_workbook

        try:
            book = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
        except Exception as error:  # openpyxl raises many kinds for a file that is not xlsx
            raise RosterError([f"{filename} is not a readable xlsx file ({error})"]) from error
        sheet = book.worksheets[0]
        return [list(row) for row in sheet.iter_rows(values_only=True)]
    text = decode(data)
    dialect: type[csv.Dialect] = csv.excel
    with contextlib.suppress(csv.Error):  # one column, or too few rows to tell: plain commas
        dialect = csv.Sniffer().sniff(text[:4096], delimiters=",;\t")
    return [list(row) for row in csv.reader(io.StringIO(text), dialect)]


def _clean(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value).strip()


def read_roster(data: bytes, filename: str) -> list[Entry]:
    rows = [r for r in _rows_of(data, filename)]
    while rows and not any(_clean(v) for v in rows[0]):
        rows.pop(0)
    if not rows:
        raise RosterError([f"{filename} is empty"])
    fields: dict[str, int] = {}
    for i, head in enumerate(rows[0]):
        key = HEADERS.get(_clean(head).casefold())
        if key and key not in fields:
            fields[key] = i
    if "name" not in fields and "last" not in fields:
        raise RosterError(["the first row names no 'name' column (or 'last name')"])
    entries: list[Entry] = []
    problems: list[str] = []
    for n, row in enumerate(rows[1:], start=2):

        def get(key: str, row: list[object] = row) -> str:
            i = fields.get(key)
            return _clean(row[i]) if i is not None and i < len(row) else ""

        if not any(_clean(v) for v in row):
            continue
        name = get("name")
        if not name:
            last, first = get("last"), get("first")
            name = f"{last}, {first}" if last and first else last or first
        if not name:
            problems.append(f"row {n}: no name")
            continue
        number = rating = None
        for key in ("number", "rating"):
            text = get(key)
            if text and not text.lstrip("-").isdigit():
                problems.append(f"row {n}: the {key} {text!r} is not a whole number")
            elif text:
                if key == "number":
                    number = int(text)
                else:
                    rating = int(text)
        if number is not None and number < 1:
            problems.append(f"row {n}: the number {number} is not 1 or more")
        entries.append(
            Entry(n, name, number, rating or 0, get("club"), get("team"), get("membership_id"))
        )
    numbers = [e.number for e in entries if e.number is not None]
    for number in sorted({x for x in numbers if numbers.count(x) > 1}):
        rows_with = [str(e.row) for e in entries if e.number == number]
        problems.append(f"rows {', '.join(rows_with)}: the number {number} is given twice")
    if problems:
        raise RosterError(problems)
    return entries


@transaction.atomic
def import_roster(division: Division, data: bytes, filename: str) -> list[Player]:
    """Add the roster's players to the division; numbers not given follow the last one."""
    entries = read_roster(data, filename)
    taken = set(division.players.values_list("number", flat=True))
    clash = [e for e in entries if e.number in taken]
    if clash:
        raise RosterError(
            [f"row {e.row}: the division already has a player number {e.number}" for e in clash]
        )
    given = {e.number for e in entries if e.number is not None}
    next_number = max([division.players.aggregate(m=Max("number"))["m"] or 0, *given]) + 1
    players = []
    for e in entries:
        number = e.number
        if number is None:
            number = next_number
            next_number += 1
        players.append(
            Player(
                division=division,
                number=number,
                name=e.name,
                rating=e.rating,
                club=e.club,
                team=e.team,
                membership_id=e.membership_id,
            )
        )
    return Player.objects.bulk_create(players)
