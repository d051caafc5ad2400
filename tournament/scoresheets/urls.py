"""The scoresheets' addresses at the desk: a division's uploads, a game's sheet, a sheet."""

from django.urls import path

from tournament.scoresheets import views

desk_division = [
    path("upload/", views.upload, name="desk-upload"),
]

desk_game = [
    path("scoresheet/", views.scoresheet_new, name="desk-scoresheet-new"),
    path("scoresheet/check", views.scoresheet_check, name="desk-scoresheet-check"),
    path("scoresheet/turn", views.scoresheet_turn, name="desk-scoresheet-turn"),
    path("upload", views.scoresheet_upload, name="desk-scoresheet-upload"),
]

desk_sheet = [
    path("", views.scoresheet, name="desk-scoresheet"),
    path("edit/", views.scoresheet_edit, name="desk-scoresheet-edit"),
    path("resolve", views.scoresheet_resolve, name="desk-scoresheet-resolve"),
    path("release", views.scoresheet_release, name="desk-scoresheet-release"),
]
