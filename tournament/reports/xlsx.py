"""Reports as spreadsheets (openpyxl): a sheet a table, numbers as numbers, the header row
frozen and bold, every column as wide as its widest cell.

The crosstable's sheet has three numeric columns a round (the opponent's number, the score
and the opponent's score) instead of the printed two-line cell, so that it can be summed.
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence

from django.utils.translation import gettext as _
from openpyxl import Workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.styles import Alignment, Font
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.worksheet import Worksheet

from tournament.core.sentences import unmarked
from tournament.reports.data import Cell, Report, Table

_BAD_SHEET_CHARS = re.compile(r"[\[\]:*?/\\]")
MAX_WIDTH = 60


def _sheet_title(text: str) -> str:
    return _BAD_SHEET_CHARS.sub(" ", text)[:31] or "Sheet"


def _put_row(sheet: Worksheet, number: int, values: Sequence[Cell]) -> None:
    """Write row `number` (from 1): the one way every sheet writes its cells.

    Text is always written as text: openpyxl would store a name like "=HYPERLINK(…)" as a live
    formula, and a spreadsheet opened at the desk must never run what a player typed. The
    control characters a workbook cannot hold are dropped rather than refused, a carriage
    return is written as the line feed every reader of the file's XML turns it into, and a
    sentence's isolation marks are taken off (`sentences.unmarked`): a cell holds one name.
    """
    for column, value in enumerate(values, start=1):
        value = _typed(value)
        if isinstance(value, str):
            value = ILLEGAL_CHARACTERS_RE.sub("", unmarked(value))
            value = value.replace("\r\n", "\n").replace("\r", "\n")
        cell = sheet.cell(row=number, column=column, value=value)
        if isinstance(value, str):
            cell.data_type = "s"


def _write(
    sheet: Worksheet, header: list[str], rows: list[list[Cell]], numeric: list[bool]
) -> None:
    _put_row(sheet, 1, header)
    for cell in sheet[1]:
        cell.font = Font(bold=True)
        cell.alignment = Alignment(horizontal="center")
    for number, row in enumerate(rows, start=2):
        _put_row(sheet, number, row)
    sheet.freeze_panes = "A2"
    for i, head in enumerate(header):
        widest = max([len(head)] + [len(_text(row[i])) for row in rows])
        sheet.column_dimensions[get_column_letter(i + 1)].width = min(MAX_WIDTH, widest + 2)
    # Keep the column widths honest even where a number is shown with a sign.
    for i, is_number in enumerate(numeric):
        if is_number:
            for (cell,) in sheet.iter_rows(min_row=2, min_col=i + 1, max_col=i + 1):
                if isinstance(cell.value, float) and not cell.value.is_integer():
                    cell.number_format = "0.0"


def _typed(value: Cell) -> Cell:
    """Whole floats (a record's 8.0 wins) as ints; "" as an empty cell."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if value == "":
        return None
    return value


def _text(value: Cell) -> str:
    return "" if value is None else str(value)


def _table_sheet(sheet: Worksheet, table: Table) -> None:
    _write(
        sheet,
        [c.header for c in table.columns],
        table.rows,
        [c.numeric for c in table.columns],
    )


def _crosstable_sheet(sheet: Worksheet, report: Report) -> None:
    (table,) = report.tables
    keys = [c for c in table.columns if c.key]
    header = [c.header for c in keys]
    numeric = [c.numeric for c in keys]
    rounds = report.extra["rounds"]
    for r in range(1, rounds + 1):
        header += [
            _("R%(round)s opp") % {"round": r},
            _("R%(round)s for") % {"round": r},
            _("R%(round)s agn") % {"round": r},
            _("R%(number)s") % {"number": r},
        ]
        numeric += [True, True, True, False]
    rows = []
    for line, typed in zip(table.rows, report.extra["typed_cells"], strict=True):
        row = list(line[: len(keys)])
        for opponent, score, against, mark in typed:
            row += [opponent, score, against, mark]
        rows.append(row)
    _write(sheet, header, rows, numeric)
    sheet.freeze_panes = f"{get_column_letter(len(keys) + 1)}2"


def render(report: Report) -> bytes:
    workbook = Workbook()
    workbook.remove(workbook.active)
    if report.kind == "crosstable":
        _crosstable_sheet(workbook.create_sheet(_sheet_title(report.tables[0].title)), report)
    else:
        for table in report.tables:
            _table_sheet(workbook.create_sheet(_sheet_title(table.title)), table)
    if not workbook.worksheets:
        # Nothing to tabulate (a division with no prizes set): one sheet that says so, as the
        # PDF's page does, rather than a workbook no program opens.
        sheet = workbook.create_sheet(_sheet_title(report.heading))
        _write(sheet, [report.heading], [[report.message or report.heading]], [False])
    props = workbook.properties
    props.title = f"{report.tournament} – {report.division} – {report.heading}"
    props.creator = "Spread"
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()
