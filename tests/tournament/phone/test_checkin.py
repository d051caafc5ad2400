"""Self check-in (tournament/phone/checkin.py): the desk's switch, a player checking in from
their link, the desk's list saying how each player checked in, and the end of it once round 1
is paired."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from tournament.models import Change, Division, Game
from tournament.phone import checkin
from tournament.phone import services as phone


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    cache.clear()


@pytest.fixture
def before_round_1(division: Division) -> Division:
    """The division with round 1 not paired yet (the shared one has it paired)."""
    division.games.all().delete()
    return division


def _text(response) -> str:  # noqa: ANN001 - a test client's response
    """A page's text, tags taken off, spaces run together."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", response.content.decode()))


def _switch(desk: Client, division: Division, value: str) -> str:
    url = reverse("desk-check-in", args=["spring-open", division.pk])
    return _text(desk.post(url, {"self_check_in": value}, follow=True))


def _check_in(token: str, **data: str) -> str:
    response = Client().post(reverse("phone-check-in", args=[token]), data, follow=True)
    assert response.status_code == 200
    return _text(response)


def _page(token: str) -> str:
    return Client().get(reverse("phone", args=[token])).content.decode()


def test_the_switch_opens_check_in_by_phone_and_the_desk_sees_how(
    before_round_1: Division, desk: Client, director: User
) -> None:
    division = before_round_1
    ben = phone.issue_link(division.players.get(number=2))
    assert "Check in as" not in _page(ben)

    said = _switch(desk, division, "on")
    assert "Players may check themselves in from their links until round 1 is paired." in said
    division.refresh_from_db()
    assert division.check_in_open
    change = Change.objects.get(action=Change.Action.DIVISION)
    assert (change.user, change.before, change.after) == (
        director,
        {"check_in_open": False},
        {"check_in_open": True},
    )
    assert "Check in as <bdi>Crane, Ben</bdi>" in _page(ben)

    assert "Crane, Ben: checked in." in _check_in(ben)
    assert "You are checked in." in _page(ben) and "Check in as" not in _page(ben)
    player = division.players.get(number=2)
    assert (player.checked_in, player.checked_in_by) == (True, "phone")
    logged = Change.objects.get(action=Change.Action.CHECK_IN)
    assert (logged.player, logged.user) == (player, None)

    desk.post(
        reverse("desk-check-in", args=["spring-open", division.pk]),
        {"player": "1", "checked_in": "1"},
    )
    listed = _text(desk.get(reverse("desk-check-in", args=["spring-open", division.pk])))
    assert "2 of 7 checked in. 1 of them by phone." in listed
    assert "1 Quill, Ada 0 ✓ checked in at the desk" in listed
    assert "2 Crane, Ben 0 ✓ checked in by phone" in listed
    assert "3 Vale, Cora 0 not here yet" in listed
    assert "Players may check themselves in from their personal links" in listed


def test_checking_in_twice_changes_and_logs_nothing_more(before_round_1: Division) -> None:
    before_round_1.check_in_open = True
    before_round_1.save()
    ben = phone.issue_link(before_round_1.players.get(number=2))
    _check_in(ben)
    assert "Crane, Ben: checked in." in _check_in(ben)
    assert Change.objects.filter(action=Change.Action.CHECK_IN).count() == 1


def test_turning_it_off_stops_it(before_round_1: Division, desk: Client) -> None:
    division = before_round_1
    ben = phone.issue_link(division.players.get(number=2))
    _switch(desk, division, "on")
    assert "Players can no longer check themselves in." in _switch(desk, division, "off")
    assert "Check in as" not in _page(ben)
    assert "Check-in is not open: see the desk." in _check_in(ben)
    assert not division.players.get(number=2).checked_in
    assert Change.objects.filter(action=Change.Action.DIVISION).count() == 2


def test_pairing_round_1_closes_it(before_round_1: Division, desk: Client) -> None:
    division = before_round_1
    ben = phone.issue_link(division.players.get(number=2))
    _switch(desk, division, "on")
    assert "Check in as" in _page(ben)
    one, two = division.players.get(number=1), division.players.get(number=2)
    Game.objects.create(division=division, round=1, table=1, player1=one, player2=two)

    assert "Check in as" not in _page(ben)
    assert "Round 1 is paired: check-in is over. See the desk." in _check_in(ben)
    assert not division.players.get(number=2).checked_in
    listed = _text(desk.get(reverse("desk-check-in", args=["spring-open", division.pk])))
    assert "Round 1 is paired: players can no longer check themselves in." in listed
    _switch(desk, division, "off")
    refused = _switch(desk, division, "on")
    assert "Round 1 is paired: players can no longer check themselves in." in refused
    division.refresh_from_db()
    assert not division.check_in_open


def test_only_directors_turn_it_on(
    before_round_1: Division, client_for, stranger: User, director: User
) -> None:
    before_round_1.tournament.scorekeepers.add(stranger)
    url = reverse("desk-check-in", args=["spring-open", before_round_1.pk])
    assert client_for(stranger).post(url, {"self_check_in": "on"}).status_code == 403
    assert Client().post(url, {"self_check_in": "on"}).status_code == 302  # to the login
    before_round_1.refresh_from_db()
    assert not before_round_1.check_in_open


def test_check_ins_are_rate_limited_per_link(before_round_1: Division) -> None:
    before_round_1.check_in_open = True
    before_round_1.save()
    ben = phone.issue_link(before_round_1.players.get(number=2))
    for _ in range(phone.REPORTS_PER_MINUTE):
        assert "Too many" not in _check_in(ben)
    assert "Too many reports from this link in a minute: wait a moment." in _check_in(ben)


def test_the_idempotency_key_is_passed_to_the_service(
    before_round_1: Division, monkeypatch: pytest.MonkeyPatch
) -> None:
    before_round_1.check_in_open = True
    before_round_1.save()
    ben = phone.issue_link(before_round_1.players.get(number=2))
    keys: list[str | None] = []
    real = checkin.check_in

    def spy(player, key=None):  # noqa: ANN001, ANN202
        keys.append(key)
        return real(player, key=key)

    monkeypatch.setattr(checkin, "check_in", spy)
    _check_in(ben, idempotency_key="check-in-1")
    _check_in(ben)
    _check_in(ben, idempotency_key="x" * 65)  # too long to be a key
    assert keys == ["check-in-1", None, None]
