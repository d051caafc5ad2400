"""The public's addresses: the pages (no login, each kept whole by the page cache), the hall's
display, and the read-only JSON API (/api/v1/…) with TSH's tourney.js, cached like the pages."""

from django.urls import URLPattern, URLResolver, include, path

from tournament.public import api, display, views
from tournament.standings.pages import cached_public_page as cached
from tournament.standings.pages import one_round, sheet_round

# A division's name may hold spaces ("Division A"): the str converter takes anything but "/".
division_pages = [
    path("", cached(views.standings), name="standings"),
    path("round/<int:number>/", cached(views.pairings, one_round), name="pairings"),
    path("player/<int:number>/", cached(views.player, views.player_scope), name="player"),
    path("crosstable/", cached(views.crosstable), name="crosstable"),
    path("ratings/", cached(views.ratings), name="ratings"),
    path("statistics/", cached(views.statistics), name="statistics"),
]

# Under /t/<slug>/.
tournament_pages: list[URLPattern | URLResolver] = [
    path("", cached(views.tournament_detail), name="tournament"),
    path("scoresheet/<int:pk>/", cached(views.scoresheet, sheet_round), name="scoresheet"),
    path("high-plays/", cached(views.high_plays), name="high-plays"),
    path("<str:division>/", include(division_pages)),
]

pages = [
    path("", views.home, name="home"),
]

# Under /t/<slug>/<division>/.
hall = [
    path("display/", display.display, name="display"),
]

# Under /t/<slug>/.
tourney_js = [
    path("tourney.js", cached(api.tourney_js), name="tourney-js"),
]

# Under /api/v1/t/<slug>/<division>/.
api_division = [
    path("round/<int:number>/pairings", cached(api.pairings), name="api-pairings"),
    path("standings", cached(api.standings), name="api-standings"),
    path("players", cached(api.players), name="api-players"),
    path("rounds", cached(api.rounds), name="api-rounds"),
    path("display", cached(api.display), name="api-display"),
    path("playoff", cached(api.playoff), name="api-playoff"),
]
