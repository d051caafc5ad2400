"""Pages beyond the standings: a division's statistics; and what the standings page adds, the
rating classes' standings and the Gibsonized players."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tournament.core.access import (
    after_round_asked,
    get_public_division,
    get_public_tournament,
)
from tournament.engine.teams import Record, team_standings
from tournament.models import Division
from tournament.public.cache import Page
from tournament.reports import data, prizes
from tournament.standings import queries, read_model
from tournament.standings.stamps import DivisionStamps


def standings_extras(
    division: Division, after: int | None, key: str, stamps: DivisionStamps
) -> dict[str, Any]:
    """The public standings page's class standings (grouped by class, in the standings' order)
    and Gibsonized players with the rule that made them so; the standings are read from the
    cache under the page's own `key`, and the results under the request's `stamps`."""
    rows = read_model.division_standings(division, after, key=key, public=True, stamps=stamps)
    groups: dict[str, list[prizes.ClassRow]] = {}
    if prizes.has_classes(division, [r.player for r in rows]):
        for row in prizes.class_standings(division, after, public=True, rows=rows):
            groups.setdefault(row.player_class, []).append(row)
    records = [Record(r.player.pk, r.player.team, r.wins, r.losses, r.spread) for r in rows]
    return {
        "classes": sorted(groups.items()),
        "gibsons": prizes.gibsonized(division, after, public=True, stamps=stamps),
        "teams": team_standings(records, division.team_order or "wins"),
    }


def statistics(request: HttpRequest, page: Page[None], slug: str, division: str) -> HttpResponse:
    """The statistics of the published rounds, drawn from the same tables as the `stats`
    report, so that the page and the download never disagree."""

    tournament = get_public_tournament(request, slug)
    div = get_public_division(tournament, division)
    played = [r.number for r in queries.division_rounds(div) if r.has_results]
    after = after_round_asked(request, read_model.last_result_round(div, public=True))
    tables = []
    report = None
    if read_model.last_result_round(div, public=True):
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
