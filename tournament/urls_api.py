"""The read-only JSON API (/api/v1/…) and TSH's tourney.js, cached like the public pages."""

from django.urls import path

from tournament.public import api, display
from tournament.public.cache import cached_public_page as cached

base = "api/v1/t/<slug:slug>/<str:division>/"
urlpatterns = [
    path(base + "round/<int:number>/pairings", cached(api.pairings), name="api-pairings"),
    path(base + "standings", cached(api.standings), name="api-standings"),
    path(base + "players", cached(api.players), name="api-players"),
    path(base + "rounds", cached(api.rounds), name="api-rounds"),
    path(base + "display", cached(api.display), name="api-display"),
    path(base + "playoff", cached(api.playoff), name="api-playoff"),
    path("t/<slug:slug>/<str:division>/display/", display.display, name="display"),
    path("t/<slug:slug>/tourney.js", cached(api.tourney_js), name="tourney-js"),
]
