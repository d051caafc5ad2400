"""The spreadsheets read back with openpyxl: numbers typed as numbers, the header row frozen,
columns wide enough for their widest cell."""

from __future__ import annotations

import io

from openpyxl import load_workbook

from tournament import reports
from tournament.models import Division
from tournament.standings import read_model
from tournament.standings.stamps import read as read_stamps


def _sheet(content: bytes):
    return load_workbook(io.BytesIO(content)).worksheets[0]


def test_the_standings_sheet_has_typed_numbers_frozen_header_and_fitting_widths(
    mgi: Division,
) -> None:
    sheet = _sheet(reports.make(mgi, "standings", "xlsx").content)
    header = [c.value for c in sheet[1]]
    assert header == ["Rank", "No.", "Name", "W", "L", "Spread", "Rating", "New", "Change"]
    assert sheet.freeze_panes == "A2"
    rows = read_model.division_standings(mgi, stamps=read_stamps(mgi))
    rated = {r.player.pk: r for r in read_model.division_ratings(mgi, stamps=read_stamps(mgi))}
    for row, cells in zip(rows, sheet.iter_rows(min_row=2, values_only=True), strict=True):
        r = rated[row.player.pk]
        assert cells == (
            row.rank,
            row.player.number,
            row.name,
            row.wins if row.wins % 1 else int(row.wins),
            row.losses if row.losses % 1 else int(row.losses),
            row.spread,
            row.rating,
            r.after,
            r.change,
        )
        assert type(cells[0]) is int and type(cells[5]) is int
    longest = max(len(row.name) for row in rows)
    assert sheet.column_dimensions["C"].width >= longest


def test_the_crosstable_sheet_has_each_rounds_opponent_and_scores_as_numbers(
    mgi: Division,
) -> None:
    sheet = _sheet(reports.make(mgi, "crosstable", "xlsx").content)
    header = [c.value for c in sheet[1]]
    assert header[:6] == ["Rank", "No.", "Name", "W", "L", "Spread"]
    assert header[6:10] == ["R1 opp", "R1 for", "R1 agn", "R1"]
    assert sheet.freeze_panes == "G2"
    first = [c.value for c in sheet[2]]
    assert first[:6] == [1, 36, "Wellington, Jighere", 10, 2, 747]
    assert first[6:10] == [6, 462, 425, "W"]
    spread = sum(first[6 + 4 * r + 1] - first[6 + 4 * r + 2] for r in range(12))
    assert spread == 747


def test_pairings_ratings_and_all_results_are_spreadsheets_too(mgi: Division) -> None:
    book = load_workbook(io.BytesIO(reports.make(mgi, "pairings", "xlsx", 1).content))
    assert book.sheetnames == ["By table", "By player"]
    assert book["By table"].max_row == 31 and book["By player"].max_row == 61
    ratings = _sheet(reports.make(mgi, "ratings", "xlsx").content)
    assert ratings.max_row == 61 and ratings.freeze_panes == "A2"
    results = _sheet(reports.make(mgi, "results", "xlsx").content)
    assert results.max_row == 1 + 30 * 12
    for row in results.iter_rows(min_row=2, values_only=True):
        assert isinstance(row[4], int) and isinstance(row[7], int)
        assert row[8] == row[4] - row[7]
