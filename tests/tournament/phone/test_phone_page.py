"""The player's phone page is built from the division's snapshot (once per stamp for all its
players) and kept per player under the stamp and their claim: cheap to poll, and exact."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from tournament.models import Division, Game, Round
from tournament.phone import services as phone
from tournament.results import services as results


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    cache.clear()


@pytest.fixture
def on(division: Division) -> Division:
    division.self_report = True
    division.check_in_open = True
    division.save()
    Round.objects.create(division=division, number=1, published=True)
    return division


def _page(token: str) -> str:
    """The page as text and markup, with the record's left-to-right isolate (<bdi>) dropped."""
    response = Client().get(reverse("phone", args=[token]))
    assert response.status_code == 200 and response["Cache-Control"] == "no-store"
    return _unisolated(response.content.decode())


def _unisolated(page: str) -> str:
    return re.sub(r'<bdi dir="ltr" class="ltr">([^<]*)</bdi>', r"\1", page)


def test_a_poll_of_an_unchanged_division_costs_one_query(
    on: Division, django_assert_num_queries: Callable
) -> None:
    token = phone.issue_link(on.players.get(number=1))
    _page(token)

    with django_assert_num_queries(1):  # the link with its division and clock, and the claims
        page = _page(token)

    assert "Table 1" in page and "1 <bdi>Quill, Ada</bdi>" not in page
    assert "2 <bdi>Crane, Ben</bdi>" in page


def test_the_rank_follows_every_result_of_the_division(on: Division, director: User) -> None:
    token = phone.issue_link(on.players.get(number=6))  # Gus, against Fay
    assert "Record 0–0" in _page(token)

    results.enter_line(on, 1, "3 400 4 300", director)  # Cora v Eli: not Gus's game
    after = _page(token)
    results.enter_line(on, 1, "6 500 5 300", director)
    won = _page(token)

    assert "Record 0–0 · rank 2" in after
    assert "Record 1–0 · rank 1" in won
    assert "Recorded: <bdi>North, Fay</bdi> 300 – <bdi>Stone, Gus</bdi> 500" in won
    assert "Your score" not in won


def test_the_players_own_claim_is_shown_at_once(on: Division, game_of: Callable[..., Game]) -> None:
    ada = on.players.get(number=1)
    token = phone.issue_link(ada)
    assert "Your report" not in _page(token)

    phone.report(ada, game_of(1), 420, 380)
    page = _page(token)

    # Check-in by phone is over once round 1 is paired (tests/tournament/phone/test_checkin.py).
    assert "Check in as" not in page
    assert "Your report: 420–380. You may change it until it is recorded." in page
    assert 'value="420"' in page and 'value="380"' in page


def test_each_request_gets_its_own_csrf_token_in_a_kept_page(on: Division) -> None:
    token = phone.issue_link(on.players.get(number=1))
    client = Client(enforce_csrf_checks=True)
    client.get(reverse("phone", args=[token]))
    page = client.get(reverse("phone", args=[token])).content.decode()

    assert "csrf-mark" not in page
    field = page.split('name="csrfmiddlewaretoken" value="')[1].split('"')[0]
    response = client.post(
        reverse("phone-report", args=[token]),
        {"csrfmiddlewaretoken": field, "my_score": "420", "opponent_score": "380"},
    )
    assert response.status_code == 302


def test_an_unpublished_round_stays_off_the_page(division: Division) -> None:
    division.self_report = True
    division.save()
    Round.objects.create(division=division, number=1, published=False)
    token = phone.issue_link(division.players.get(number=1))

    page = _page(token)

    assert "No pairings for you yet." in page and "Crane, Ben" not in page


def test_a_result_elsewhere_moves_the_rank_without_rendering_the_page_again(
    on: Division, director: User
) -> None:
    token = phone.issue_link(on.players.get(number=6))
    url = reverse("phone", args=[token])
    Client().get(url)

    results.enter_line(on, 1, "3 400 4 300", director)  # Cora v Eli: not Gus's game
    elsewhere = Client().get(url)
    results.enter_line(on, 1, "6 500 5 300", director)  # Gus's own game
    own = Client().get(url)

    def bodies(response) -> list[str]:
        return [t.name for t in response.templates if t.name == "tournament/phone/_body.html"]

    assert bodies(elsewhere) == [] and "Record 0–0 · rank 2" in _unisolated(
        elsewhere.content.decode()
    )
    assert bodies(own) == ["tournament/phone/_body.html"]
    assert "Record 1–0 · rank 1" in _unisolated(own.content.decode())
