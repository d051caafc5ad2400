"""The streaming overlays: transparent pages for OBS's browser source, a player's line
(`?player=N`) or a table's (`?table=N`), drawn by `static/cards.js` from the cards' feed and
refreshed from it. The query parameters are in docs/players-and-hall.md."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext

from tournament.core.bounds import plain_number
from tournament.hall.views import _division
from tournament.standings.pages import Page

LAYOUTS = ("strip", "full")  # a 1920 × 120 strip, or a 1920 × 1080 frame with the line below
SECONDS = (2, 60)


def overlay(request: HttpRequest, page: Page[None], slug: str, division: str) -> HttpResponse:
    """`?player=N` or `?table=N` (one of them), `layout=strip|full`, `seconds` between
    refreshes (default 5), `photo=0` to leave the photos out; a bad parameter is a 400 that
    says which."""
    tournament, div = _division(request, slug, division)
    player = plain_number(request.GET.get("player", ""))
    table = plain_number(request.GET.get("table", ""))
    layout = request.GET.get("layout", "strip")
    seconds = plain_number(request.GET.get("seconds", "5"))
    problem = ""
    if (player is None) == (table is None):
        problem = gettext("Give ?player=N or ?table=N (one of them), N a whole number.")
    elif layout not in LAYOUTS:
        problem = gettext("layout is strip or full.")
    elif seconds is None or not SECONDS[0] <= seconds <= SECONDS[1]:
        problem = gettext("seconds is a whole number from %(low)s to %(high)s.") % {
            "low": SECONDS[0],
            "high": SECONDS[1],
        }
    if problem:
        return HttpResponse(problem, status=400, content_type="text/plain; charset=utf-8")
    ctx = {
        "tournament": tournament,
        "division": div,
        "feed": reverse("api-scoreboard", args=[tournament.slug, div.name]),
        "player": player,
        "table": table,
        "layout": layout,
        "seconds": seconds,
        "photos": request.GET.get("photo", "1") != "0",
    }
    return render(request, "tournament/hall/overlay.html", ctx)
