"""Pages beyond the standings: a division's statistics."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tournament import queries
from tournament.reports import data
from tournament.views.access import get_public_division, get_public_tournament
from tournament.views.public import _get_after_round


def statistics(request: HttpRequest, slug: str, division: str) -> HttpResponse:
    """The statistics of the published rounds, drawn from the same tables as the `stats`
    report, so that the page and the download never disagree."""
    tournament = get_public_tournament(request, slug)
    div = get_public_division(tournament, division)
    played = [r.number for r in queries.division_rounds(div) if r.has_results]
    after = _get_after_round(request, data.last_result_round(div, public=True))
    tables = []
    report = None
    if data.last_result_round(div, public=True):
        report = data.stats(div, after, public=True)
        for table in report.tables:
            rows = [
                [
                    (data.display(cell, column.style), column.numeric)
                    for cell, column in zip(row, table.columns, strict=True)
                ]
                for row in table.rows
            ]
            tables.append({"table": table, "rows": rows})
    ctx = {
        "tournament": tournament,
        "division": div,
        "played": played,
        "after": report.round if report else None,
        "tables": tables,
    }
    return render(request, "tournament/statistics.html", ctx)
