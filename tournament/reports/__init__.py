"""Printed reports (PDF) and spreadsheets (xlsx) of a division, drawn from one set of plain
tables (`data.py`), for the desk's and the public pages' downloads and the `report` command."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils import translation
from django.utils.text import slugify
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from tournament.models import Division
from tournament.reports.data import BUILDERS, PUBLIC_KINDS, XLSX_KINDS, ReportError

__all__ = [
    "CONTENT_TYPES",
    "KINDS",
    "LANGUAGES",
    "PUBLIC_KINDS",
    "XLSX_KINDS",
    "Download",
    "ReportError",
    "check",
    "language_of",
    "make",
]

KINDS = tuple(BUILDERS)
# The languages a report can be printed in (English first, the default).
LANGUAGES = ("en", "id", "ko", "fi", "fa")
CONTENT_TYPES = {
    "pdf": "application/pdf",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}


@dataclass(frozen=True)
class Download:
    content: bytes
    filename: str
    content_type: str


def language_of(division: Division, lang: str | None = None) -> str:
    """The language a report is written in: `lang` when one is asked for, else the
    tournament's default language, else the active one."""
    return lang or getattr(division.tournament, "language", "") or get_language() or "en"


def make(
    division: Division,
    kind: str,
    fmt: str = "pdf",
    number: int | None = None,
    paper: str = "a4",
    public: bool = False,
    lang: str | None = None,
    base: str = "",
) -> Download:
    """A report of the division as a file; `ReportError` with a sentence if it cannot be made.

    It is written in `lang` when one is asked for, else in the tournament's default language,
    else in the active one: headings, the engines' sentences, Persian right to left. `base` is
    the site's address, for the reports that print the players' personal links."""
    # Read when a file is made, for speed: reportlab and openpyxl cost a worker's start.
    from tournament.reports import data, pdf, xlsx

    check(kind, fmt, paper, lang)
    with translation.override(language_of(division, lang)):
        report = data.build(kind, division, number, public, base)
        content = pdf.render(report, paper) if fmt == "pdf" else xlsx.render(report)
    parts = [division.tournament.slug, slugify(division.name) or "division", kind]
    if report.round is not None:
        parts.append(f"r{report.round}")
    return Download(content, "-".join(parts) + f".{fmt}", CONTENT_TYPES[fmt])


def check(kind: str, fmt: str = "pdf", paper: str = "a4", lang: str | None = None) -> None:
    """`ReportError` with a sentence if no division has such a report (kind, format, paper or
    language unknown)."""
    from tournament.reports import pdf

    if kind not in BUILDERS:
        raise ReportError(
            _("there is no %(kind)r report; the reports are %(kinds)s")
            % {"kind": kind, "kinds": ", ".join(KINDS)}
        )
    if fmt not in CONTENT_TYPES:
        raise ReportError(_("%(fmt)r is not a report format: pdf or xlsx") % {"fmt": fmt})
    if fmt == "xlsx" and kind not in XLSX_KINDS:
        raise ReportError(_("the %(kind)s report is made as PDF only") % {"kind": kind})
    if fmt == "pdf" and kind == "results":
        raise ReportError(_("all results are made as xlsx only; the crosstable prints them"))
    if paper not in pdf.PAPERS:
        raise ReportError(_("paper %(paper)r: a4 or letter") % {"paper": paper})
    if lang and lang not in LANGUAGES:
        raise ReportError(
            _("%(lang)r is not a language of the reports: %(languages)s")
            % {"lang": lang, "languages": ", ".join(LANGUAGES)}
        )
