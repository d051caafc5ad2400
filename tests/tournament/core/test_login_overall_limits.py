"""The login throttle's overall limits, behind a proxy, through the whole middleware stack:
an account's failures from any addresses (guesses spread over many), and an address's for any
usernames (one address trying many accounts). Neither refuses an address the account has signed
in from before: the director keeps signing in from their own."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

PROXY = "10.0.0.1"
DIRECTOR = "203.0.113.5"
NEIGHBOUR = "203.0.113.77"
BY_USERNAME = (
    "This account has failed to log in too many times from several addresses: its further "
    "attempts from addresses it has not signed in from before are refused for 0:15:00 "
    "(hours:minutes:seconds) from the last one. Try again later."
)
BY_ADDRESS = (
    "Too many failed logins have come from this address, for several accounts: its further "
    "attempts are refused for 0:15:00 (hours:minutes:seconds) from the last one, but for "
    "accounts that have signed in from here before. Try again later."
)


def _log_in(client: Client, username: str, password: str, forwarded: str):
    return client.post(
        reverse("login"),
        {"username": username, "password": password},
        REMOTE_ADDR=PROXY,
        HTTP_X_FORWARDED_FOR=forwarded,
    )


def _said(response) -> str:
    return " ".join(response.text.split())


@pytest.fixture
def dana(db: None, settings) -> User:
    settings.PROXY_COUNT = 1
    user = User.objects.create_user("dana", password="danas-own-password")
    # She signed in from her own address once before.
    assert _log_in(Client(), "dana", "danas-own-password", DIRECTOR).status_code == 302
    return user


def test_guesses_at_one_account_from_many_addresses_stop_at_its_overall_limit(
    dana: User, settings
) -> None:
    assert settings.AXES_USERNAME_FAILURE_LIMIT == 30
    statuses = [
        _log_in(Client(), "dana", f"guess {n}", f"198.51.100.{n}").status_code for n in range(1, 41)
    ]
    assert statuses == [200] * 30 + [429] * 10
    refused = _log_in(Client(), "dana", "danas-own-password", "198.51.100.200")
    assert refused.status_code == 429
    assert BY_USERNAME in _said(refused)
    assert not Client().session.get("_auth_user_id")
    # From her own address she signs in all the same.
    director = Client()
    assert _log_in(director, "dana", "danas-own-password", DIRECTOR).status_code == 302
    assert director.session.get("_auth_user_id") == str(dana.pk)


def test_one_address_trying_many_accounts_stops_at_its_overall_limit(dana: User, settings) -> None:
    assert settings.AXES_ADDRESS_FAILURE_LIMIT == 20
    User.objects.create_user("sam", password="sams-own-password")
    assert _log_in(Client(), "sam", "sams-own-password", NEIGHBOUR).status_code == 302
    sprayer = "198.51.100.9"
    statuses = [_log_in(Client(), f"user{n}", "Password1", sprayer).status_code for n in range(25)]
    assert statuses == [200] * 20 + [429] * 5
    refused = _log_in(Client(), "dana", "danas-own-password", sprayer)
    assert refused.status_code == 429
    assert BY_ADDRESS in _said(refused)
    # Sam behind the same address (a venue's one address) has signed in from it before.
    assert _log_in(Client(), "sam", "sams-own-password", NEIGHBOUR).status_code == 302
    for n in range(20):
        _log_in(Client(), f"other{n}", "Password1", NEIGHBOUR)
    assert _log_in(Client(), "sam", "sams-own-password", NEIGHBOUR).status_code == 302
    # Dana, from her own address, is not touched by either.
    assert _log_in(Client(), "dana", "danas-own-password", DIRECTOR).status_code == 302
