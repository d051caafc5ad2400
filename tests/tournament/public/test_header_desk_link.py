"""Every public page's header links to the desk for a signed-in director (issue 13): to the
tournament's own desk when they direct it or keep score at it, else to the desk's index."""

from __future__ import annotations

import datetime
from collections.abc import Callable

from django.contrib.auth.models import User
from django.test import Client
from django.urls import URLPattern, URLResolver, reverse

from tournament import urls
from tournament.models import Division, Game, Person
from tournament.rating_lists import services as rating_lists
from tournament.results import services as results
from tournament.scoresheets import services as scoresheets
from tournament.standings import prizes
from tournament.standings.stamps import read as read_stamps

LINK = '<a href="{}" id="desk-link">Desk</a>'


def _public_names(patterns: list, prefix: str = "") -> set[str]:
    """The names of every address outside the desk, the phones and the API."""
    found: set[str] = set()
    for p in patterns:
        route = prefix + str(p.pattern)
        if route.startswith(("desk/", "p/", "api/")):
            continue
        if isinstance(p, URLResolver):
            found |= _public_names(p.url_patterns, route)
        elif isinstance(p, URLPattern) and p.name:
            found.add(p.name)
    return found


# The public addresses that are files, or the hall's screen, not pages with a header.
FILES = {
    "public-gcg",
    "public-report",
    "public-game-record",
    "tourney-js",
    "display",
    "rating-list-file",
    "scoreboard",
    "scoreboard-card",
    "overlay",
    "player-photo",
}
# The public pages that belong to no tournament: their header links to the desk's index.
NOT_AN_EVENTS = {
    "home",
    "rating-lists",
    "rating-list",
    "rating-list-person",
    "people",
    "person",
    "person-versus",
}


def _pages(division: Division, sheet: int) -> dict[str, str]:
    slug, name = division.tournament.slug, division.name
    return {
        "home": reverse("home"),
        "tournament": reverse("tournament", args=[slug]),
        "standings": reverse("standings", args=[slug, name]),
        "pairings": reverse("pairings", args=[slug, name, 1]),
        "player": reverse("player", args=[slug, name, 1]),
        "crosstable": reverse("crosstable", args=[slug, name]),
        "ratings": reverse("ratings", args=[slug, name]),
        "statistics": reverse("statistics", args=[slug, name]),
        "playoff": reverse("playoff", args=[slug, name]),
        "scoresheet": reverse("scoresheet", args=[slug, sheet]),
        "high-plays": reverse("high-plays", args=[slug]),
    }


def test_every_public_page_links_to_the_tournament_s_desk(
    desk: Client,
    client_for: Callable[[User], Client],
    stranger: User,
    division: Division,
    director: User,
    game_of: Callable[..., Game],
    record: Callable[..., str],
) -> None:
    results.enter_line(division, 1, "1 20 2 24", director)
    sheet = scoresheets.attach_scoresheet(game_of(1), record(), director)
    desk.post(
        f"/desk/{division.tournament.slug}/division/{division.pk}/playoff/",
        {"action": "setup", "seeds": 2, "length": 3, "after": 1},
    )
    pages = _pages(division, sheet.pk)
    # A prize-winner's certificate: its code opens a public page of the tournament.
    division.prizes = [{"kind": "rank", "place": 1, "value": "$5", "note": ""}]
    division.save()
    code = prizes.certificates(division, stamps=read_stamps(division))[0].code
    pages["certificate"] = reverse("certificate", args=[code])
    # An association's rating list rating the tournament.
    rating_list = rating_lists.create_list("Club ratings", "club")
    division.tournament.start_date = datetime.date(2026, 1, 10)
    division.tournament.save()
    rating_lists.add_event(rating_list, division.tournament)
    player = division.players.get(number=1)
    player.person = Person.objects.create(name=player.name)
    player.save()
    rating_lists.rebuild(rating_list)
    pages["rating-lists"] = reverse("rating-lists")
    pages["rating-list"] = reverse("rating-list", args=["club"])
    pages["rating-list-person"] = reverse("rating-list-person", args=["club", player.person.pk])
    # People across events: the player's person and their opponent's.
    other_player = division.players.get(number=2)
    other_player.person = Person.objects.create(name=other_player.name)
    other_player.save()
    pages["people"] = reverse("people")
    pages["person"] = reverse("person", args=[player.person.pk])
    pages["person-versus"] = reverse(
        "person-versus", args=[player.person.pk, other_player.person.pk]
    )
    assert set(pages) == _public_names(urls.urlpatterns) - FILES  # every public page is here

    own = LINK.format(reverse("desk-dashboard", args=[division.tournament.slug]))
    index = LINK.format(reverse("desk"))
    other = client_for(stranger)
    for name, url in pages.items():
        page = desk.get(url)
        assert page.status_code == 200, name
        expected = index if name in NOT_AN_EVENTS else own
        assert expected in page.content.decode(), name
        # Signed in but not one of its directors: the desk's index.
        seen = other.get(url)
        if seen.status_code == 200:
            assert index in seen.content.decode(), name
