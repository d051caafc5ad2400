"""The hall's show: the round's clock (`clock.py`), the player cards and their photos
(`cards.py`, `photos.py`) and the streaming overlays (`overlays.py`). Each list is mounted
under its prefix in `tournament/urls.py`."""

from django.urls import URLPattern, URLResolver, path

from tournament.hall import clock_views

# The round's clock. Under /desk/<slug>/division/<id>/:
clock_desk: list[URLPattern | URLResolver] = [
    path("clock", clock_views.desk_clock, name="desk-clock"),
]
# Under /api/v1/t/<slug>/<division>/:
clock_api: list[URLPattern | URLResolver] = [
    path("clock", clock_views.api_clock, name="api-clock"),
]

# The player cards, their photos and the overlays. Under /t/<slug>/<division>/:
cards_public: list[URLPattern | URLResolver] = []
# Under /desk/<slug>/division/<id>/:
cards_desk: list[URLPattern | URLResolver] = []
