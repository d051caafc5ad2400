"""The players' personal links, /p/<token>/, and the desk's side of them."""

from django.urls import path

from tournament.phone import views as phone

urlpatterns = [
    path("p/<str:token>/", phone.page, name="phone"),
    path("p/<str:token>/check-in", phone.check_in, name="phone-check-in"),
    path("p/<str:token>/report", phone.report, name="phone-report"),
    path("p/<str:token>/games/<int:game_id>/sheet", phone.sheet, name="phone-sheet"),
    path(
        "p/<str:token>/games/<int:game_id>/sheet/check",
        phone.sheet_check,
        name="phone-sheet-check",
    ),
    path(
        "desk/<slug:slug>/division/<int:division_id>/claims/",
        phone.desk_queue,
        name="desk-claims",
    ),
    path(
        "desk/<slug:slug>/division/<int:division_id>/links/",
        phone.desk_links,
        name="desk-player-links",
    ),
    path(
        "desk/<slug:slug>/division/<int:division_id>/players/<int:number>/link",
        phone.desk_link,
        name="desk-player-link",
    ),
]
