"""A division's players read from a spreadsheet (xlsx) or a CSV file: one player a row under a
header row naming the columns.

Columns are found by their header, in any order and case: `name` (or `last name` and
`first name`, joined as "Last, First" as tsh writes names), and optionally `number`, `rating`,
`club`, `team` and `id` (a membership number). Every row is checked before anything is saved;
a file with any bad row saves nothing and says which rows and why.

Reading only: no database here; `tournament.players.import_roster` saves the players.
"""

from __future__ import annotations

import contextlib
import csv
import io
import itertools
import re
import zipfile
from dataclasses import dataclass

from scoring.text import decode
from tournament.interchange import tsh

# Limits on what is read, each refused in a sentence: a roster is a few hundred players, and
# an xlsx is a zip whose parts could unpack to far more than the upload (a "zip bomb").
MAX_BYTES = 2 * 1024 * 1024  # the file as uploaded
MAX_ROWS = 2_000  # players, not counting the header row
MAX_COLUMNS = 100
MAX_UNPACKED = 32 * 1024 * 1024  # all the parts of an xlsx, unpacked
MAX_RATING = 2**31 - 1  # as for a tsh file: what the rating column holds
MAX_NUMBER = 100_000
# ASCII digits only (`isdigit()` takes `²`, `int()` takes `٣`), and not thousands of them, which
# `int()` refuses; a number too large for its column is refused by its range below.
_WHOLE = re.compile(r"-?[0-9]{1,18}")

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
    xtid: int | None = None  # a tsh roster download's `:XT017175`


class RosterError(ValueError):
    """A roster that cannot be imported; `problems` lists each bad row in a sentence."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


def _mib(size: int) -> str:
    return f"{size / (1024 * 1024):.1f} MiB"


def _check_zip(data: bytes, filename: str) -> None:
    """An xlsx whose parts would unpack to more than MAX_UNPACKED is refused before any of it
    is unpacked: the sizes are in the zip's directory (and zipfile stops at the sizes given)."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            unpacked = sum(info.file_size for info in archive.infolist())
    # zipfile raises NotImplementedError for a zip of a later version than it reads, and
    # EOFError or OSError for a directory that ends or points past the file.
    except (zipfile.BadZipFile, ValueError, NotImplementedError, EOFError, OSError) as error:
        raise RosterError([f"{filename} is not a readable xlsx file ({error})"]) from error
    if unpacked > MAX_UNPACKED:
        raise RosterError(
            [
                f"{filename} unpacks to {_mib(unpacked)}, more than the {_mib(MAX_UNPACKED)} "
                "a roster may take: save the sheet alone, without pictures or other sheets"
            ]
        )


def _rows_of(data: bytes, filename: str) -> list[list[object]]:
    if len(data) > MAX_BYTES:
        raise RosterError(
            [f"{filename} is larger than {_mib(MAX_BYTES)}, the most a roster file may be"]
        )
    # One more row than a roster may have (with its header) is enough to tell it has too many.
    most = MAX_ROWS + 2
    if filename.lower().endswith(".xlsx"):
        from openpyxl import load_workbook

        _check_zip(data, filename)
        try:
            book = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
            sheet = book.worksheets[0]
            rows = sheet.iter_rows(values_only=True, max_col=MAX_COLUMNS)
            return [list(row) for row in itertools.islice(rows, most)]
        except Exception as error:  # openpyxl raises many kinds for a file that is not xlsx
            raise RosterError([f"{filename} is not a readable xlsx file ({error})"]) from error
    text = decode(data)
    dialect: type[csv.Dialect] = csv.excel
    with contextlib.suppress(csv.Error):  # one column, or too few rows to tell: plain commas
        dialect = csv.Sniffer().sniff(text[:4096], delimiters=",;\t")
    try:
        rows = csv.reader(io.StringIO(text), dialect)
        return [list(row[:MAX_COLUMNS]) for row in itertools.islice(rows, most)]
    except csv.Error as error:
        raise RosterError([f"{filename} is not a readable CSV file ({error})"]) from error


def _clean(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value).strip()


def read_roster(data: bytes, filename: str, lengths: dict[str, int] | None = None) -> list[Entry]:
    """The players of a roster file, every row checked; `lengths` caps the text of each field
    (`name`, `club`, `team`, `membership_id`: the columns they are saved in)."""
    lengths = lengths or {}
    rows = [r for r in _rows_of(data, filename)]
    while rows and not any(_clean(v) for v in rows[0]):
        rows.pop(0)
    if not rows:
        raise RosterError([f"{filename} is empty"])
    if len(rows) > MAX_ROWS + 1:
        raise RosterError([f"{filename} has more than {MAX_ROWS} rows of players"])
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
            if text and not _WHOLE.fullmatch(text):
                problems.append(f"row {n}: the {key} {text[:20]!r} is not a whole number")
            elif text:
                if key == "number":
                    number = int(text)
                else:
                    rating = int(text)
        if number is not None and not 1 <= number <= MAX_NUMBER:
            problems.append(f"row {n}: the number {number} is not 1 to {MAX_NUMBER}")
        if rating is not None and not 0 <= rating <= MAX_RATING:
            problems.append(f"row {n}: the rating {rating} is not 0 to {MAX_RATING}")
        for key, text in (
            ("name", name),
            *((k, get(k)) for k in ("club", "team", "membership_id")),
        ):
            limit = lengths.get(key)
            if limit is not None and len(text) > limit:
                what = key.replace("_", " ")
                problems.append(f"row {n}: the {what} is {len(text)} characters; at most {limit}")
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


def _entries_of_t(data: bytes, filename: str, lengths: dict[str, int]) -> list[Entry]:
    """The players of a tsh `.t` file: name, rating, team and (a NASPA file's `:AA000000`
    suffix) membership id; the file's results are not read (`importtsh` reads a whole event)."""

    if len(data) > MAX_BYTES:
        raise RosterError(
            [f"{filename} is larger than {_mib(MAX_BYTES)}, the most a roster file may be"]
        )
    try:
        text, _ = tsh.decode(data)
        tfile = tsh.read_t(text.lstrip("\ufeff"), source=filename)
    except (tsh.TshFormatError, ValueError) as error:
        raise RosterError([str(error)]) from error
    if len(tfile.players) > MAX_ROWS:
        raise RosterError([f"{filename} has more than {MAX_ROWS} players"])
    entries: list[Entry] = []
    problems: list[str] = []
    for p in tfile.players:
        bare, xtid = tsh.split_xtid(p.name)  # a roster download's ":XT017175" is no member id
        name, _, member = bare.partition(":")
        name = " ".join(name.split())
        rating = int(p.rating_value)
        if not 0 <= rating <= MAX_RATING:
            problems.append(f"line {p.line}: the rating {rating} is not 0 to {MAX_RATING}")
        team = " ".join(p.extra("team") or [])
        for key, value in (("name", name), ("team", team), ("membership_id", member)):
            limit = lengths.get(key)
            if limit is not None and len(value) > limit:
                what = key.replace("_", " ")
                problems.append(
                    f"line {p.line}: the {what} is {len(value)} characters; at most {limit}"
                )
        entries.append(Entry(p.line, name, None, rating, "", team, member.strip(), xtid))
    if problems:
        raise RosterError(problems)
    if not entries:
        raise RosterError([f"{filename} names no player"])
    return entries


# The kinds of file a division's players are read from at the desk, by the end of the file's
# name: one reader for each, all giving `Entry` rows; another kind is one more reader here. A
# rating list (NASPA's or WESPA's) adds no one: it fills in the ratings of the players there
# by name (`ratinglist.py`).
KINDS = {".xlsx": "xlsx", ".csv": "CSV", ".txt": "CSV", ".t": "TSH .t"}


def read_players(data: bytes, filename: str, lengths: dict[str, int] | None = None) -> list[Entry]:
    """The players of any file the desk takes (`KINDS`): xlsx or CSV with a header row, or a
    tsh `.t` file. Every row is checked; RosterError lists the bad ones."""
    lengths = lengths or {}
    if filename.lower().endswith(".t"):
        return _entries_of_t(data, filename, lengths)
    return read_roster(data, filename, lengths)
