"""The hall's show: the round's clock (`clock.py`), the player cards and their photos
(`cards.py`, `photos.py`) and the streaming overlays (`overlays.py`). Each list is mounted
under its prefix in `tournament/urls.py`."""

from django.urls import URLPattern, URLResolver, path

from tournament.hall import clock_views, desk, overlays, views
from tournament.standings.pages import cached_public_page as cached

# The round's clock. Under /desk/<slug>/division/<id>/:
clock_desk: list[URLPattern | URLResolver] = [
    path("clock", clock_views.desk_clock, name="desk-clock"),
]
# Under /api/v1/t/<slug>/<division>/:
clock_api: list[URLPattern | URLResolver] = [
    path("clock", clock_views.api_clock, name="api-clock"),
]

# The player cards, their photos and the overlays. Under /t/<slug>/<division>/:
cards_public: list[URLPattern | URLResolver] = [
    path("scoreboard/", cached(views.scoreboard), name="scoreboard"),
    path("scoreboard/<int:number>/", cached(views.card), name="scoreboard-card"),
    path("overlay/", cached(overlays.overlay), name="overlay"),
    path(
        "photo/<int:number>/<str:stamp>.jpg",
        views.photo,
        name="player-photo",
    ),
]
# The cards' feed. Under /api/v1/t/<slug>/<division>/:
cards_api: list[URLPattern | URLResolver] = [
    path("scoreboard", cached(views.feed), name="api-scoreboard"),
]
# Under /desk/<slug>/division/<id>/:
cards_desk: list[URLPattern | URLResolver] = [
    path("photos/", desk.photos_page, name="desk-photos"),
    path("players/<int:number>/photo", desk.player_photo, name="desk-player-photo"),
    path("players/<int:number>/xtid", desk.player_xtid, name="desk-player-xtid"),
]
