"""People across events: the public pages (/people/…), the API (/api/v1/people/…) and the
desk's links, merges and splits (/desk/people/…)."""

from django.urls import URLPattern, URLResolver, path

from tournament.people import views

# Under /people/:
public: list[URLPattern | URLResolver] = [
    path("", views.people, name="people"),
    path("<int:pk>/", views.person, name="person"),
    path("<int:pk>/vs/<int:other>/", views.versus, name="person-versus"),
]
# Under /api/v1/people/:
api: list[URLPattern | URLResolver] = [
    path("<int:pk>", views.api_person, name="api-person"),
]
# Under /desk/people/:
desk: list[URLPattern | URLResolver] = [
    path("", views.desk_people, name="desk-people-index"),
    path("<int:pk>/", views.desk_person, name="desk-person"),
    path("<int:pk>/merge/", views.desk_merge, name="desk-person-merge"),
    path("<int:pk>/split/", views.desk_split, name="desk-person-split"),
    path("<int:pk>/hide/", views.desk_hide, name="desk-person-hide"),
    path("confirm/", views.desk_confirm, name="desk-people-confirm"),
    path("suggestions/<int:pk>/", views.desk_suggestion, name="desk-people-suggestion"),
    path("changes/<int:pk>/undo/", views.desk_undo, name="desk-people-undo"),
]
