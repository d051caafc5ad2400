"""The playoff's addresses: the desk's page under a division, the public page under its own."""

from django.urls import path

from tournament.playoffs import views
from tournament.standings.pages import cached_public_page as cached

desk_division = [
    path("playoff/", views.desk_playoff, name="desk-playoff"),
]

public_division = [
    path("playoff/", cached(views.playoff), name="playoff"),
]
