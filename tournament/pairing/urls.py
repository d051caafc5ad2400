"""The pairing's addresses at the desk, under a division."""

from django.urls import path

from tournament.pairing import views

desk_division = [
    path("pairing/", views.pairing, name="desk-pairing"),
    path("pairing/pair", views.pair, name="desk-pair"),
    path("settings/", views.settings, name="desk-division-settings"),
    path("round/<int:round_number>/pairings/", views.round_pairings, name="desk-round-pairings"),
    path("round/<int:round_number>/manual", views.pair_manual, name="desk-pair-manual"),
    path("round/<int:round_number>/swap", views.swap, name="desk-swap"),
    path("round/<int:round_number>/publish", views.publish, name="desk-publish"),
    path("round/<int:round_number>/unpair", views.unpair, name="desk-unpair"),
    path("round/<int:round_number>/forfeit", views.forfeit, name="desk-forfeit"),
]
