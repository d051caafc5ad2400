"""Players' personal links at the desk: every player's current link listed for the directors to
copy, a new link or a revocation asked first (naming the player, since the printed slip stops
working), and nothing that shows or prints links open to a scorekeeper."""

from __future__ import annotations

import html
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from text_support import plain

from tournament.event import services as event
from tournament.models import Division, PlayerLink, Tournament
from tournament.phone import services as phone

PERSIAN = "سارا احمدی"


@pytest.fixture
def sara(division: Division):
    player = division.players.get(number=1)
    player.name = PERSIAN
    player.save()
    return player


@pytest.fixture
def keeper(tournament: Tournament, director: User) -> User:
    User.objects.create_user("kim")
    return event.add_person(tournament, "kim", "scorekeeper", director)


def link_url(division: Division, number: int) -> str:
    return reverse("desk-player-link", args=["spring-open", division.pk, number])


def links_url(division: Division) -> str:
    return reverse("desk-player-links", args=["spring-open", division.pk])


def listed_links(page: str) -> dict[int, str]:
    """Each row's player number and the link in its read-only field."""
    found = re.findall(r'<input type="text" readonly value="([^"]+)" id="link-(\d+)"', page)
    return {int(number): html.unescape(url) for url, number in found}


def test_a_new_link_is_asked_first_naming_the_player_and_nothing_changes(
    desk: Client, division: Division, sara
) -> None:
    old = phone.issue_link(sara)

    response = desk.post(link_url(division, 1), {"action": "reissue"})

    page = response.content.decode()
    assert response.status_code == 200
    assert (
        f'<h2 id="link-question">A new link for <bdi>{PERSIAN}</bdi>? The link printed on their '
        "slip stops working.</h2>"
    ) in page
    assert '<input type="hidden" name="confirm" value="1">' in page
    assert phone.player_for(old) == sara
    assert PlayerLink.objects.filter(player=sara).count() == 1


def test_a_revocation_is_asked_first_and_changes_nothing_until_confirmed(
    desk: Client, division: Division, sara
) -> None:
    old = phone.issue_link(sara)

    asked = desk.post(link_url(division, 1), {"action": "revoke"})
    shown = desk.get(link_url(division, 1), {"action": "revoke", "confirm": "1"})

    for response in (asked, shown):
        assert response.status_code == 200
        assert (
            f"Revoke the link of <bdi>{PERSIAN}</bdi>? The link printed on their slip stops "
            "working, and they have none until you make a new one."
        ) in response.content.decode()
    assert phone.player_for(old) == sara


def test_a_confirmed_new_link_replaces_the_old_one(desk: Client, division: Division, sara) -> None:
    old = phone.issue_link(sara)

    response = desk.post(link_url(division, 1), {"action": "reissue", "confirm": "1"})

    assert response.status_code == 302
    assert response["Location"] == links_url(division) + "#player-1"
    assert phone.player_for(old) is None
    new = phone.live_token(sara)
    assert new != old
    page = desk.get(response["Location"]).content.decode()
    url = f"http://testserver/p/{new}/"
    assert f"{PERSIAN}&#x27;s new link: {url}" in plain(page)
    assert listed_links(page)[1] == url


def test_a_confirmed_revocation_leaves_the_player_without_a_link(
    desk: Client, division: Division, sara
) -> None:
    old = phone.issue_link(sara)

    desk.post(link_url(division, 1), {"action": "revoke", "confirm": "1"})
    page = desk.get(links_url(division)).content.decode()

    assert phone.player_for(old) is None
    assert not PlayerLink.objects.filter(player=sara, revoked=None).exists()  # none issued again
    assert 1 not in listed_links(page)
    row = re.search(r'<tr id="player-1">.*?</tr>', page, re.S)
    assert row and "None: revoked." in row.group(0) and 'value="revoke"' not in row.group(0)


def test_the_directors_list_shows_every_player_s_current_link(
    desk: Client, division: Division, sara
) -> None:
    kept = phone.issue_link(division.players.get(number=2))

    response = desk.get(links_url(division))

    assert response.status_code == 200
    assert response["Cache-Control"] == "no-store"
    shown = listed_links(response.content.decode())
    expected = {
        p.number: f"http://testserver/p/{phone.live_token(p)}/"
        for p in division.players.order_by("number")
    }
    assert shown == expected
    assert len(shown) == 7
    assert shown[2] == f"http://testserver/p/{kept}/"  # a link already given is kept
    assert f'<td class="name"><bdi>{PERSIAN}</bdi></td>' in response.content.decode()


def test_the_list_s_buttons_ask_in_the_browser_and_name_the_player(
    desk: Client, division: Division, sara
) -> None:
    page = desk.get(links_url(division)).content.decode()

    question = (
        f"A new link for \u2068{PERSIAN}\u2069? The link printed on their slip stops working."
    )
    assert f'data-confirm="{question}" data-confirmed="confirm"' in page


def test_a_scorekeeper_gets_403_for_the_links_and_the_reports_that_print_them(
    keeper: User, division: Division, client_for, sara
) -> None:
    old = phone.issue_link(sara)
    client = client_for(keeper)
    report = "/desk/spring-open/division/{}/report/{}.pdf"

    refused = {
        links_url(division): client.get(links_url(division)),
        "slips": client.get(report.format(division.pk, "slips")),
        "scorecards": client.get(report.format(division.pk, "scorecards")),
        "claims": client.get(reverse("desk-claims", args=["spring-open", division.pk])),
        "ask": client.get(link_url(division, 1), {"action": "reissue"}),
        "reissue": client.post(link_url(division, 1), {"action": "reissue", "confirm": "1"}),
        "revoke": client.post(link_url(division, 1), {"action": "revoke", "confirm": "1"}),
    }

    assert {name: r.status_code for name, r in refused.items()} == dict.fromkeys(refused, 403)
    assert "You keep score at Spring Open" in refused["slips"].content.decode()
    assert client.get(report.format(division.pk, "standings")).status_code == 200
    assert phone.player_for(old) == sara
    assert PlayerLink.objects.filter(player=sara).count() == 1


def test_the_dashboard_offers_slips_and_links_to_directors_only(
    keeper: User, desk: Client, division: Division, client_for
) -> None:
    slips = reverse("desk-report", args=["spring-open", division.pk, "slips", "pdf"])
    claims = reverse("desk-claims", args=["spring-open", division.pk])

    for_keeper = client_for(keeper).get("/desk/spring-open/").content.decode()
    for_director = desk.get("/desk/spring-open/").content.decode()

    assert slips not in for_keeper and claims not in for_keeper
    assert slips in for_director and claims in for_director


def test_a_stranger_is_refused_the_list(stranger: User, division: Division) -> None:
    client = Client()
    client.force_login(stranger)
    assert client.get(links_url(division)).status_code == 403
