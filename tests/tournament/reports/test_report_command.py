"""`manage.py report` writes each report; a round that is not there is a clear error."""

from __future__ import annotations

import io
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from openpyxl import load_workbook

from tests.tournament.reports.report_support import pdf_text
from tournament.models import Division


@pytest.mark.parametrize(
    "kind", ["pairings", "standings", "scorecards", "crosstable", "ratings", "prizes"]
)
def test_the_report_command_writes_each_kind_as_pdf(
    mgi: Division, kind: str, tmp_path: Path
) -> None:
    target = tmp_path / f"{kind}.pdf"
    call_command(
        "report",
        "mgi",
        kind,
        division="A",
        round=4,
        format="pdf",
        paper="letter",
        output=str(target),
        stdout=StringIO(),
    )
    text = pdf_text(target.read_bytes())
    assert "Division A · Round 4" in text
    assert kind == "prizes" or "Wellington, Jighere" in text


def test_the_report_command_writes_a_spreadsheet(mgi: Division, tmp_path: Path) -> None:
    target = tmp_path / "standings.xlsx"
    call_command(
        "report",
        "mgi",
        "standings",
        division="A",
        format="xlsx",
        output=str(target),
        stdout=StringIO(),
    )
    sheet = load_workbook(io.BytesIO(target.read_bytes())).active
    assert sheet.max_row == 61


@pytest.mark.parametrize(
    "options, message",
    [
        ({"round": 13}, "results up to round 12 only, not round 13"),
        ({"division": "Z"}, "no division 'Z'"),
    ],
)
def test_the_report_command_says_what_is_wrong(
    mgi: Division, tmp_path: Path, options: dict, message: str
) -> None:
    args = {"division": "A", "format": "pdf", "output": str(tmp_path / "x.pdf"), **options}
    with pytest.raises(CommandError, match=message):
        call_command("report", "mgi", "standings", **args)


def test_scorecards_are_not_a_spreadsheet(mgi: Division, tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="PDF only"):
        call_command(
            "report",
            "mgi",
            "scorecards",
            division="A",
            format="xlsx",
            output=str(tmp_path / "x.xlsx"),
        )
