"""The reports' addresses: every report of a division as PDF or xlsx, the event's files (.tou,
config.tsh), a game's record, the prize table and its ceremony, a winner's certificate."""

from django.urls import path

from tournament.reports import prize_views, views

desk_division = [
    path("prizes/", prize_views.desk_prizes, name="desk-prizes"),
    path("prizes/slides/", prize_views.desk_prize_slides, name="desk-prize-slides"),
    path("report/<slug:kind>.<slug:fmt>", views.desk_report, name="desk-report"),
]

# Under /desk/<slug>/.
desk = [
    path("results.tou", views.desk_tou, name="desk-tou"),
    path("config.tsh", views.desk_tsh, name="desk-tsh"),
    path("summary/", views.desk_summary, name="desk-summary"),
    path("scoresheets/<int:sheet_id>/record.pdf", views.desk_game_record, name="desk-game-record"),
    path("scoresheets/<int:sheet_id>/record.gcg", views.desk_gcg, name="desk-gcg"),
]

public = [
    path("certificate/<str:code>/", prize_views.certificate, name="certificate"),
]

# Under /t/<slug>/: a division's pairings and standings as PDF or xlsx, a game's record.
public_tournament = [
    path("scoresheet/<int:pk>/record.gcg", views.public_gcg, name="public-gcg"),
    path("scoresheet/<int:pk>/record.pdf", views.public_game_record, name="public-game-record"),
    path("<str:division>/report/<slug:kind>.<slug:fmt>", views.public_report, name="public-report"),
]
