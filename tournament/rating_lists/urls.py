"""An association's own rating lists: the public pages (/ratings/…) and the desk's
(/desk/ratings/…)."""

from django.urls import URLPattern, URLResolver, path

from tournament.rating_lists import use, views

# Under /ratings/:
public: list[URLPattern | URLResolver] = [
    path("", views.lists, name="rating-lists"),
    path("<slug:slug>/", views.ratings, name="rating-list"),
    path("<slug:slug>/<str:fmt>.txt", views.public_file, name="rating-list-file"),
    path("<slug:slug>/<int:person_id>/", views.person, name="rating-list-person"),
]
# Under /desk/ratings/ ("new/" first: a list may not be called "new"):
desk: list[URLPattern | URLResolver] = [
    path("", views.desk_lists, name="ratings-desk"),
    path("new/", views.desk_new, name="ratings-desk-new"),
    path("<slug:slug>/", views.desk_list, name="ratings-desk-list"),
    path("<slug:slug>/events/", views.desk_add_event, name="ratings-desk-add"),
    path(
        "<slug:slug>/events/<int:tournament_id>/remove",
        views.desk_remove_event,
        name="ratings-desk-remove",
    ),
    path("<slug:slug>/directors/", views.desk_add_director, name="ratings-desk-director"),
    path("<slug:slug>/rebuild", views.desk_rebuild, name="ratings-desk-rebuild"),
    path("<slug:slug>/<str:fmt>.txt", views.desk_file, name="ratings-desk-file"),
]
# Under a division's desk pages: its players' ratings from a list (tsh's USERATINGS).
desk_division: list[URLPattern | URLResolver] = [
    path("players/ratings/", use.rating_list, name="desk-rating-list"),
]
