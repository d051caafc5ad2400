"""The hall display: a page for a projector, updated by `static/display.js` polling the API
(the division's feed every 2 s, and its round clock)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from tournament.core.access import get_public_division, get_public_tournament


def display(request: HttpRequest, slug: str, division: str) -> HttpResponse:
    """One division's display; `?rotate=1` rotates through every division of the event."""
    tournament = get_public_tournament(request, slug)
    div = get_public_division(tournament, division)
    divisions = list(tournament.divisions.all()) if request.GET.get("rotate") == "1" else [div]
    feeds = [reverse("api-display", args=[slug, d.name]) for d in divisions]
    # Each division's round clock, read apart from its feed (`hall/clock_views.api_clock`).
    clocks = [reverse("api-clock", args=[slug, d.name]) for d in divisions]
    ctx = {"tournament": tournament, "division": div, "feeds": feeds, "clocks": clocks}
    return render(request, "tournament/public/display.html", ctx)
