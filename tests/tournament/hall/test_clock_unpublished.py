"""The round's clock names a round to the public only once it is published, as every public
page shows rounds: the API, the phones' live feed; a director signed in still sees it. Through
the middleware stack with Django's test client."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tournament.hall import clock
from tournament.models import Division, Round
from tournament.pairing import services as pairing
from tournament.phone import services as phone


@pytest.fixture
def paired(division: Division, director: User) -> Division:
    """Round 1 published; round 2 paired here and not yet published, its clock started."""
    Round.objects.create(division=division, number=1, published=True)
    pairing.save_manual(division, 2, [(1, 3), (2, 4), (5, 6), (7, None)], director)
    clock.start(division, 25, 2, director)
    return division


def test_the_api_names_an_unpublished_round_to_its_directors_only(
    paired: Division, director: User, client_for
) -> None:
    url = reverse("api-clock", args=["spring-open", "A"])
    public = Client().get(url)
    assert public.status_code == 200
    seen = public.json()
    assert (seen["shown"], seen["running"], seen["length"], seen["round"]) == (
        True,
        True,
        1500,
        None,
    )
    desk = client_for(director).get(url)
    assert desk.json()["round"] == 2
    assert desk["ETag"] != public["ETag"]
    # Published: the next poll names it, though the clock itself did not change.
    pairing.publish(paired, 2, director)
    after = Client().get(url, HTTP_IF_NONE_MATCH=public["ETag"])
    assert after.status_code == 200
    assert after.json()["round"] == 2


def test_the_phones_live_feed_names_it_once_published(paired: Division, director: User) -> None:
    token = phone.issue_link(paired.players.get(number=1))
    live = Client().get(reverse("phone-live", args=[token]))
    assert live.status_code == 200
    assert live.json()["clock"]["round"] is None
    assert live.json()["clock"]["shown"] is True
    pairing.publish(paired, 2, director)
    assert Client().get(reverse("phone-live", args=[token])).json()["clock"]["round"] == 2


def test_a_round_with_no_pairing_of_ours_is_named(division: Division, director: User) -> None:
    """A round imported or entered at the desk (no `Round` row) is public, and so named."""
    clock.start(division, 25, 1, director)
    assert Client().get(reverse("api-clock", args=["spring-open", "A"])).json()["round"] == 1
    assert clock.public_state(division)["round"] == 1
