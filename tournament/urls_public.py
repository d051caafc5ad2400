from django.urls import include, path

from tournament.playoffs import views as playoffs
from tournament.public import extras
from tournament.public import views as public
from tournament.public.cache import cached_public_page as cached
from tournament.public.cache import one_round, sheet_round
from tournament.reports import prize_views
from tournament.reports import views as reports

# A division's name may hold spaces ("Division A"): the str converter takes anything but "/".
division_urls = [
    path("", cached(public.standings), name="standings"),
    path("round/<int:number>/", cached(public.pairings, one_round), name="pairings"),
    path("player/<int:number>/", cached(public.player, public.player_scope), name="player"),
    path("crosstable/", cached(public.crosstable), name="crosstable"),
    path("ratings/", cached(public.ratings), name="ratings"),
    path("statistics/", cached(extras.statistics), name="statistics"),
    path("playoff/", cached(playoffs.playoff), name="playoff"),
]

tournament_urls = [
    path("", cached(public.tournament_detail), name="tournament"),
    path("scoresheet/<int:pk>/", cached(public.scoresheet, sheet_round), name="scoresheet"),
    path("scoresheet/<int:pk>/record.gcg", reports.public_gcg, name="public-gcg"),
    path("high-plays/", cached(public.high_plays), name="high-plays"),
    path("<str:division>/", include(division_urls)),
]

urlpatterns = [
    path("", public.home, name="home"),
    path("certificate/<str:code>/", prize_views.certificate, name="certificate"),
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
