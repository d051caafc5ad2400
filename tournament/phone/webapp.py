"""The player's page as an installable web app: its service worker (`static/phone-sw.js`,
served from /p/sw.js so that its scope may be a player's own page, /p/<token>/) and its web
app manifest (under the player's page, so that it opens that page)."""

from __future__ import annotations

from pathlib import Path

from django.contrib.staticfiles import finders
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.templatetags.static import static
from django.utils.translation import get_language, get_language_bidi
from django.views.decorators.http import require_GET

from tournament.core.language import apply_tournament_language
from tournament.phone import services as phone

WORKER = "phone-sw.js"
ICONS = (("phone-icon-192.png", "192x192"), ("phone-icon-512.png", "512x512"))


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The phone's service worker: the same for every player, asked for by the browser when the
    page registers it and when it looks for a new one (no-cache: a new version is taken at the
    next visit). No database, no session."""
    found = finders.find(WORKER)
    if not found:
        raise Http404(WORKER)
    path = found if isinstance(found, str) else found[0]
    response = HttpResponse(Path(path).read_bytes(), content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def manifest(request: HttpRequest, token: str) -> JsonResponse:
    """The web app manifest of the player's page: installed, it opens their own page."""
    player = phone.player_for(token)
    if player is None:
        raise Http404
    tournament = player.division.tournament
    apply_tournament_language(request, tournament.language)
    data = {
        "name": f"{player.name} · {tournament.name}",
        "short_name": "Spread",
        "start_url": "./",
        "scope": "./",
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": "#333333",
        "lang": get_language(),
        "dir": "rtl" if get_language_bidi() else "ltr",
        "icons": [
            {"src": static(name), "sizes": sizes, "type": "image/png", "purpose": "any"}
            for name, sizes in ICONS
        ],
    }
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json"
    response["Cache-Control"] = "private, max-age=3600"
    return response
