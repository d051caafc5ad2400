"""Every address of the app, composed by domain, then by audience: the desk (a tournament's
directors, under /desk/), the public (no login, under /t/ and /api/), the players' personal
links (/p/). Each domain's urls.py holds its own; the prefixes are here, once."""

from django.urls import include, path

from tournament.event import urls as event
from tournament.hall import urls as hall
from tournament.pairing import urls as pairing
from tournament.people import urls as people
from tournament.phone import urls as phone
from tournament.players import urls as players
from tournament.playoffs import urls as playoffs
from tournament.public import urls as public
from tournament.rating_lists import urls as rating_lists
from tournament.reports import urls as reports
from tournament.results import urls as results
from tournament.scoresheets import urls as scoresheets

DESK = "desk/<slug:slug>/"
DIVISION = DESK + "division/<int:division_id>/"
GAME = DESK + "games/<int:game_id>/"
SHEET = DESK + "scoresheets/<int:sheet_id>/"
PUBLIC = "t/<slug:slug>/"
PUBLIC_DIVISION = PUBLIC + "<str:division>/"
API_DIVISION = "api/v1/" + PUBLIC_DIVISION

urlpatterns = [
    # The players' phones first: a hall's thousand phones poll their live feed every 3 s, and
    # no other address begins with p/.
    path("p/", include(phone.worker)),
    path("p/<str:token>/", include(phone.player)),
    # The desk's pages of people and rating lists, before /desk/<slug>/ (those slugs are
    # reserved: `Tournament.RESERVED_SLUGS`).
    path("desk/people/", include(people.desk)),
    path("desk/ratings/", include(rating_lists.desk)),
    # The event: new tournaments, their people, lock, divisions, the dashboard, the change log.
    path("desk/", include(event.desk)),
    # Players: the roster, late entries, withdrawals, absence, check-in.
    path(DIVISION, include(players.desk_division)),
    # Pairing.
    path(DIVISION, include(pairing.desk_division)),
    # Results.
    path(DIVISION, include(results.desk_division)),
    path(GAME, include(results.desk_game)),
    # Scoresheets.
    path(DIVISION, include(scoresheets.desk_division)),
    path(GAME, include(scoresheets.desk_game)),
    path(SHEET, include(scoresheets.desk_sheet)),
    # The desk's side of the players' phones.
    path(DIVISION, include(phone.desk_division)),
    # The public pages, the hall's display and the API.
    path("", include(public.pages)),
    path(PUBLIC, include(public.tournament_pages)),
    path(PUBLIC, include(public.tourney_js)),
    path(PUBLIC_DIVISION, include(public.hall)),
    path(API_DIVISION, include(public.api_division)),
    # Playoffs.
    path(DIVISION, include(playoffs.desk_division)),
    path(PUBLIC_DIVISION, include(playoffs.public_division)),
    # Reports, prizes and the event's files.
    path(DIVISION, include(reports.desk_division)),
    path(DESK, include(reports.desk)),
    path("", include(reports.public)),
    path(PUBLIC, include(reports.public_tournament)),
    # Rating lists.
    path(DIVISION, include(rating_lists.desk_division)),
    # The hall's show: the round's clock, the player cards and photos, the overlays.
    path(DIVISION, include(hall.clock_desk)),
    path(API_DIVISION, include(hall.clock_api)),
    path(PUBLIC_DIVISION, include(hall.cards_public)),
    path(API_DIVISION, include(hall.cards_api)),
    path(DIVISION, include(hall.cards_desk)),
    # People across events.
    path("people/", include(people.public)),
    path("api/v1/people/", include(people.api)),
    # An association's own rating lists.
    path("ratings/", include(rating_lists.public)),
]
