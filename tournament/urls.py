from django.urls import include, path

# Public pages (no login) and the director's desk live in modules of their own.
urlpatterns = [
    path("", include("tournament.urls_public")),
    path("desk/", include("tournament.urls_director")),
]
