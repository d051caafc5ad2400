"""Each phone hears what happened to its game, on its page and in the live feed it polls: the
opponent's report when the two disagree (and the player's own, which they may change), and once
the result is recorded, the result and who recorded it: the two reports agreeing, or the desk."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from tournament.models import Claim, Division, Game, Round
from tournament.phone import services as phone
from tournament.results import corrections
from tournament.results import services as results


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    cache.clear()


@pytest.fixture
def on(division: Division) -> Division:
    division.self_report = True
    division.save()
    Round.objects.create(division=division, number=1, published=True)
    return division


@pytest.fixture
def named(director: User) -> User:
    director.first_name, director.last_name = "Alice", "Marsh"
    director.save()
    return director


def _token(division: Division, number: int) -> str:
    return phone.issue_link(division.players.get(number=number))


def _report(token: str, mine: str, theirs: str) -> None:
    response = Client().post(
        reverse("phone-report", args=[token]), {"my_score": mine, "opponent_score": theirs}
    )
    assert response.status_code == 302


def _text(html: str) -> str:
    """The body as a reader sees it: the tags gone, each paragraph a line."""
    html = re.sub(r"</p>|<br>|</li>|</h2>", "\n", html)
    lines = (" ".join(re.sub(r"<[^>]+>", "", line).split()) for line in html.splitlines())
    return "\n".join(line for line in lines if line)


def _now(html: str) -> list[str]:
    """The lines of the page's "now" box: the current round's game."""
    found = re.search(r'<section class="now"[^>]*>(.*?)</section>', html, re.S)
    assert found is not None
    return _text(found.group(1)).splitlines()


def _live(token: str, etag: str = ""):
    headers = {"HTTP_IF_NONE_MATCH": etag} if etag else {}
    return Client().get(reverse("phone-live", args=[token]), **headers)


def _page(token: str) -> str:
    return Client().get(reverse("phone", args=[token])).content.decode()


def test_a_disagreement_is_on_both_phones_with_the_others_claim(on: Division) -> None:
    ada, ben = _token(on, 1), _token(on, 2)
    _report(ada, "420", "380")
    _report(ben, "390", "420")

    assert _now(_page(ada))[4:6] == [
        "Crane, Ben reported 390–420: the desk will decide.",
        "Your report: 420–380. You may change it until it is recorded.",
    ]
    assert _now(_page(ben))[4:6] == [
        "Quill, Ada reported 420–380: the desk will decide.",
        "Your report: 390–420. You may change it until it is recorded.",
    ]
    # The form holds the player's own report, to change.
    assert 'name="my_score" inputmode="numeric" pattern="-?[0-9]*" required value="420"' in (
        _page(ada)
    )


def test_a_report_waiting_for_the_opponent_does_not_show_theirs_before_one_is_made(
    on: Division,
) -> None:
    ada, ben = _token(on, 1), _token(on, 2)
    _report(ada, "420", "380")

    assert "reported" not in _page(ben)  # each reports without seeing the other's first
    assert _now(_page(ada))[4] == "Your report: 420–380. You may change it until it is recorded."


def test_a_claim_comes_in_the_opponents_feed_and_leaves_the_divisions_stamp_alone(
    on: Division, django_assert_num_queries: Callable
) -> None:
    ada, ben = _token(on, 1), _token(on, 2)
    _report(ada, "420", "380")
    first = _live(ada)
    stamp = Division.objects.get(pk=on.pk).stamp

    _report(ben, "390", "420")

    assert Division.objects.get(pk=on.pk).stamp == stamp  # a claim is no result: pages kept
    heard = _live(ada, first["ETag"])
    assert heard.status_code == 200
    assert "Crane, Ben reported 390–420: the desk will decide." in _text(heard.json()["body"])
    with django_assert_num_queries(1):  # as cheap as ever: the link and the game's claims
        assert _live(ada, heard["ETag"]).status_code == 304

    _report(ben, "395", "420")  # Ben changes his report: Ada's phone hears it
    changed = _live(ada, heard["ETag"])
    assert changed.status_code == 200
    assert "Crane, Ben reported 395–420: the desk will decide." in _text(changed.json()["body"])
    _report(ada, "420", "390")  # and Ada hers: Ben's phone hears it
    assert "Quill, Ada reported 420–390: the desk will decide." in _text(_live(ben).json()["body"])


def test_the_desk_settles_a_disagreement_and_both_phones_say_so(
    on: Division, named: User, game_of: Callable[..., Game]
) -> None:
    ada, ben = _token(on, 1), _token(on, 2)
    _report(ada, "420", "380")
    _report(ben, "390", "420")
    etags = {t: _live(t)["ETag"] for t in (ada, ben)}

    change = results.enter_line(on, 1, "1 420 2 390", named)

    assert change.said == [
        "It settles the players' reports (\u2068Quill, Ada\u2069: 420–380 · "
        "\u2068Crane, Ben\u2069: 390–420)."
    ]
    assert not Claim.objects.exists()
    for token in (ada, ben):
        settled = _live(token, etags[token])
        assert settled.status_code == 200
        assert _now(settled.json()["body"])[4:6] == [
            "Recorded: Quill, Ada 420 – Crane, Ben 390",
            "Entered at the desk by Alice Marsh.",
        ]


def test_the_desk_accepting_one_claim_is_the_desk_and_a_director_without_a_name_is_the_desk(
    on: Division, desk: Client, game_of: Callable[..., Game]
) -> None:
    ada, ben = _token(on, 1), _token(on, 2)
    _report(ada, "420", "380")
    _report(ben, "390", "420")
    claim = Claim.objects.get(player__number=1)

    desk.post(reverse("desk-claims", args=["spring-open", on.pk]), {"claim": claim.pk})

    assert (game_of(1).score1, game_of(1).score2) == (420, 380)
    for token in (ada, ben):
        assert _now(_page(token))[4:6] == [
            "Recorded: Quill, Ada 420 – Crane, Ben 380",
            "Entered at the desk.",
        ]


def test_two_agreeing_reports_say_so_and_a_correction_says_the_desk_corrected_it(
    on: Division, named: User, game_of: Callable[..., Game]
) -> None:
    ada, ben = _token(on, 1), _token(on, 2)
    _report(ada, "420", "380")
    _report(ben, "380", "420")

    for token in (ada, ben):
        assert _now(_page(token))[4:6] == [
            "Recorded: Quill, Ada 420 – Crane, Ben 380",
            "Both players' reports agreed.",
        ]

    game = game_of(1)
    results.record_result(game, 421, 380, named, reason="the paper says 421")
    assert _now(_page(ben))[4:6] == [
        "Recorded: Quill, Ada 421 – Crane, Ben 380",
        "Corrected at the desk by Alice Marsh.",
    ]
    corrections.undo_last(on, named)
    assert _now(_page(ada))[4:6] == [
        "Recorded: Quill, Ada 420 – Crane, Ben 380",
        "Corrected at the desk by Alice Marsh.",
    ]
