"""What is fuzzed: every reader that takes text a user or a file supplies.

Seeds are the project's own fixtures, written here, plus the shared corpus where it sits beside the
project (more seeds, more paths reached; the fuzzer works without it).
"""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

from .harness import PROJECT, Target

SHARED = PROJECT.parent / "shared" / "corpus"

# A small event in tsh's formats: a config with autopair and prize lines, and a .t file.
CONFIG_TSH = b"""\
#begin_file name=config.tsh
config event_name = 'Fuzz Open'
config max_rounds = 4
config rating_system = 'nsa2008'
config show_inactive = 1
config gibson_spread{'A'} = 250
division A a.t
autopair A 0 1 koth 1 0
prize rank 1 A $50
classes A 2
"""
A_T = b"""\
Able, Ann           1500 2 3 0; 400 350 50; p12 1 2 0
Baker, Bob          1620 1 0 3; 380 50 410; p12 2 0 1
Cole, Cy            1410 0 1 2; 50 300 390; off 3
"""
ENTRY_LINES = (
    b"1 400 2 350",
    b"3 bye",
    b"4 forfeit",
    b"12 -50 7 0",
    b"2 399 1 401",
)
ROSTER_CSV = b'name,rating,club\nAble, Ann,1500,Oslo\n"Baker, Bob",1620,Bergen\nCy Cole,0,\n'


def _files(folder: Path, pattern: str, limit: int) -> list[bytes]:
    if not folder.is_dir():
        return []
    return [p.read_bytes() for p in sorted(folder.rglob(pattern))[:limit]]


def _gcg_seeds() -> list[bytes]:
    own = [p.read_bytes() for p in sorted((PROJECT / "fixtures" / "demo").glob("*.gcg"))]
    return own + _files(SHARED / "gcg", "*.gcg", 80)


def _run_engine(data: bytes) -> None:
    import scoring

    scoring.verify(data)
    scoring.canonical_gcg(data)


def _tsh_seeds() -> list[bytes]:
    corpus = _files(SHARED / "tsh", "*.t", 12) + _files(SHARED / "tsh", "*.tsh", 4)
    return [A_T, CONFIG_TSH, *corpus]


def _run_tsh(data: bytes) -> None:
    from tournament.interchange import tsh

    text, _ = tsh.decode(data)
    tsh.read_t(text, source="fuzz.t")
    tsh.read_config(text, source="config.tsh")


def _run_entry_line(data: bytes) -> None:
    from tournament.results import services as results

    entry = results.parse_line(data.decode("utf-8", errors="replace"))
    results.plausibility(entry)


def _xlsx_roster() -> bytes:
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.append(["Name", "Rating", "Club"])
    sheet.append(["Able, Ann", 1500, "Oslo"])
    sheet.append(["Baker, Bob", 1620.0, None])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _run_roster(data: bytes) -> None:
    from tournament.interchange import roster

    # The same bytes as a CSV and as a workbook: a renamed file reaches either reader.
    for name in ("fuzz.csv", "fuzz.xlsx"):
        with contextlib.suppress(roster.RosterError):
            roster.read_roster(data, name)


RATING_LISTS = (
    b"NICKstateNAME vic24.tou 20240612\nAQUI UK Ada Quill 412 2105 20240601\n"
    b"CVAL  Cora Vale 7 1488\n",
    b"QUILL\tADA\tAA000101\t1850\t412\nVALE, CORA\t1640\nJANOTA-BZOWSKI JAN 1999 3\n",
)


def _run_rating_list(data: bytes) -> None:
    from tournament.interchange import ratinglist

    for fmt in ratinglist.FORMATS:
        found = ratinglist.read(data, fmt)
        ratinglist.match([(1, "Ada Quill", 0, ""), (2, "Vale, Cora", 0, "AA000101")], found)
        for problem in found.problems:
            assert problem.text  # noqa: S101 - every problem has its sentence


def targets() -> list[Target]:
    from tournament.interchange.tsh import TshFormatError
    from tournament.results.services import EntryError

    return [
        Target("engine", _gcg_seeds, _run_engine),
        Target("tsh", _tsh_seeds, _run_tsh, (TshFormatError,)),
        Target("entry-line", lambda: list(ENTRY_LINES), _run_entry_line, (EntryError,)),
        Target("roster", lambda: [ROSTER_CSV, _xlsx_roster()], _run_roster),
        Target("rating-list", lambda: list(RATING_LISTS), _run_rating_list),
    ]
