"""The players' personal links, /p/<token>/, and the desk's side of them under a division."""

from django.urls import path

from tournament.phone import dispute_views, link_lists, views, webapp

# Under /p/<token>/.
player = [
    path("", views.page, name="phone"),
    path("live", views.live, name="phone-live"),
    path("manifest.webmanifest", webapp.manifest, name="phone-manifest"),
    path("check-in", views.check_in, name="phone-check-in"),
    path("report", views.report, name="phone-report"),
    path("wrong", dispute_views.dispute, name="phone-dispute"),
    path("games/<int:game_id>/sheet", views.sheet, name="phone-sheet"),
    path("games/<int:game_id>/sheet/check", views.sheet_check, name="phone-sheet-check"),
    path("games/<int:game_id>/sheet/turn", views.sheet_turn, name="phone-sheet-turn"),
]

# /p/sw.js: the phones' service worker, whose scope may then be any player's page under /p/.
worker = [path("sw.js", webapp.service_worker, name="phone-sw")]

desk_division = [
    path("claims/", views.desk_queue, name="desk-claims"),
    path("links/", views.desk_links, name="desk-player-links"),
    path("links.csv", link_lists.links_csv, name="desk-player-links-csv"),
    path(
        "disputes/<int:dispute_id>/answer",
        dispute_views.desk_answer,
        name="desk-dispute-answer",
    ),
    path("players/<int:number>/link", views.desk_link, name="desk-player-link"),
]
