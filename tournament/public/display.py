"""The hall display: a page for a projector, updated by `static/display.js` polling the API
(the division's feed every 2 s, 1 s after a new answer, and its round clock).

A big hall has several screens, each beside a part of the room: `?tables=61-120` shows the
pairings and the results of those tables alone (the standings stay whole), so that each screen
keeps up with its own part of a round's results (`table_range`)."""

from __future__ import annotations

import re

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext

from tournament.core.access import get_public_division, get_public_tournament

# "61-120" (a hyphen or an en dash, spaces allowed around it), or one table alone.
_RANGE = re.compile(r"\s*(\d{1,6})\s*(?:[-\u2013]\s*(\d{1,6})\s*)?")


def table_range(text: str) -> tuple[int, int] | None:
    """The tables `text` names, first and last; None for none (every table). ValueError, saying
    what is wanted, for anything but a range of table numbers, first to last."""
    if not text.strip():
        return None
    found = _RANGE.fullmatch(text)
    first = int(found.group(1)) if found else 0
    last = int(found.group(2) or first) if found else 0
    if not found or not 1 <= first <= last:
        raise ValueError(gettext("Tables are a range of table numbers, first to last: 61-120."))
    return first, last


def display(request: HttpRequest, slug: str, division: str) -> HttpResponse:
    """One division's display; `?rotate=1` rotates through every division of the event, and
    `?tables=61-120` shows those tables alone."""
    tournament = get_public_tournament(request, slug)
    div = get_public_division(tournament, division)
    try:
        tables = table_range(request.GET.get("tables", ""))
    except ValueError as error:
        return HttpResponseBadRequest(str(error), content_type="text/plain; charset=utf-8")
    divisions = list(tournament.divisions.all()) if request.GET.get("rotate") == "1" else [div]
    part = f"?{urlencode({'tables': f'{tables[0]}-{tables[1]}'})}" if tables else ""
    feeds = [reverse("api-display", args=[slug, d.name]) + part for d in divisions]
    # Each division's round clock, read apart from its feed (`hall/clock_views.api_clock`).
    clocks = [reverse("api-clock", args=[slug, d.name]) for d in divisions]
    ctx = {
        "tournament": tournament,
        "division": div,
        "feeds": feeds,
        "clocks": clocks,
        # As display.js writes it from the feed: "61–120", or "61" for one table.
        "tables": "" if not tables else "\u2013".join(dict.fromkeys(map(str, tables))),
    }
    return render(request, "tournament/public/display.html", ctx)
