"""The hall's public pages of cards: the projector's scoreboard, one player's card for a phone,
the streaming overlays, their feed, and the players' photos. Every page but the photo goes
through the public page cache (kept under the divisions' stamps, ETag → 304)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext

from tournament.core.access import get_public_division, get_public_tournament
from tournament.core.bounds import plain_number
from tournament.core.http import public_json_text
from tournament.hall import cards
from tournament.models import Division, PlayerPhoto, Tournament
from tournament.standings.pages import Page

PER_SCREEN = (1, 24)  # the cards a screen the projector may be asked for
SECONDS = (3, 120)
DEFAULT_PER_SCREEN = 8
DEFAULT_SECONDS = 10


def _division(request: HttpRequest, slug: str, division: str) -> tuple[Tournament, Division]:
    tournament = get_public_tournament(request, slug)
    return tournament, get_public_division(tournament, division)


def _bounded(request: HttpRequest, name: str, bounds: tuple[int, int], default: int) -> int:
    """A whole number from the query string, within `bounds`; else the default."""
    value = plain_number(request.GET.get(name, ""))
    if value is None:
        return default
    return max(bounds[0], min(bounds[1], value))


def feed(request: HttpRequest, page: Page[None], slug: str, division: str) -> HttpResponse:
    """The cards' feed: `cards.scoreboard` as JSON."""
    _, div = _division(request, slug, division)
    return public_json_text(cards.scoreboard_json(div, page.stamps(div)))


def _context(tournament: Tournament, div: Division, **more: object) -> dict[str, object]:
    return {
        "tournament": tournament,
        "division": div,
        "feed": reverse("api-scoreboard", args=[tournament.slug, div.name]),
        **more,
    }


def scoreboard(request: HttpRequest, page: Page[None], slug: str, division: str) -> HttpResponse:
    """The projector's page: `per` cards a screen (default 8), a new screen every `seconds`
    (default 10), refreshed from the feed. The first screen is written by the server too."""
    tournament, div = _division(request, slug, division)
    data = cards.scoreboard(div, page.stamps(div))
    per = _bounded(request, "per", PER_SCREEN, DEFAULT_PER_SCREEN)
    seconds = _bounded(request, "seconds", SECONDS, DEFAULT_SECONDS)
    ctx = _context(
        tournament, div, data=data, first=data["players"][:per], per=per, seconds=seconds
    )
    return render(request, "tournament/hall/scoreboard.html", ctx)


def card(
    request: HttpRequest, page: Page[None], slug: str, division: str, number: int
) -> HttpResponse:
    """One player's card, for a phone."""
    tournament, div = _division(request, slug, division)
    data = cards.scoreboard(div, page.stamps(div))
    found = next((c for c in data["players"] if c["number"] == number), None)
    if found is None:
        raise Http404(gettext("No such player."))
    ctx = _context(tournament, div, data=data, card=found, number=number)
    return render(request, "tournament/hall/card.html", ctx)


def photo(request: HttpRequest, slug: str, division: str, number: int, stamp: str) -> HttpResponse:
    """A player's photo at the address carrying its stamp: kept a year by browsers and proxies
    (a new photo has a new stamp, so a new address); public events only."""
    tournament, div = _division(request, slug, division)
    found = (
        PlayerPhoto.objects.filter(player__division=div, player__number=number, stamp=stamp)
        .only("data")
        .first()
    )
    if found is None:
        raise Http404(gettext("No such photo."))
    response = HttpResponse(bytes(found.data), content_type="image/jpeg")
    # A hidden event's photo is seen by its directors alone: no shared cache keeps it.
    scope = "public" if tournament.public else "private"
    response["Cache-Control"] = f"{scope}, max-age=31536000, immutable"
    response["X-Content-Type-Options"] = "nosniff"
    return response
