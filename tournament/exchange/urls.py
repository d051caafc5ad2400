"""The rating list's address at the desk, under a division (the files in and out are reports')."""

from django.urls import path

from tournament.exchange import ratinglist

desk_division = [
    path("players/ratings/", ratinglist.rating_list, name="desk-rating-list"),
]
