from django.urls import include, path

from tournament.views import public, reports

# A division's name may hold spaces ("Division A"): the str converter takes anything but "/".
division_urls = [
    path("", public.standings, name="standings"),
    path("round/<int:number>/", public.pairings, name="pairings"),
    path("player/<int:number>/", public.player, name="player"),
    path("crosstable/", public.crosstable, name="crosstable"),
    path("ratings/", public.ratings, name="ratings"),
]

tournament_urls = [
    path("", public.tournament_detail, name="tournament"),
    path("scoresheet/<int:pk>/", public.scoresheet, name="scoresheet"),
    path("<str:division>/", include(division_urls)),
]

urlpatterns = [
    path("", public.home, name="home"),
    path("t/<slug:slug>/", include(tournament_urls)),
]

# The public reports: a division's pairings and standings as PDF or xlsx.
urlpatterns += [
    path(
        "t/<slug:slug>/<str:division>/report/<slug:kind>.<slug:fmt>",
        reports.public_report,
        name="public-report",
    ),
    path(
        "t/<slug:slug>/scoresheet/<int:pk>/record.pdf",
        reports.public_game_record,
        name="public-game-record",
    ),
]
