"""The entry of results at the desk: a round's entry page, the typed line, undo, a game."""

from django.urls import path

from tournament.results import views

desk_division = [
    path("round/<int:round_number>/", views.entry, name="desk-entry"),
    path("round/<int:round_number>/check", views.entry_check, name="desk-entry-check"),
    path("round/<int:round_number>/enter", views.enter, name="desk-enter"),
    path("undo", views.undo, name="desk-undo"),
]

desk_game = [
    path("", views.game, name="desk-game"),
]
