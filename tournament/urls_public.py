from django.urls import path

from tournament.views import public

urlpatterns = [
    path("", public.home, name="home"),
]
