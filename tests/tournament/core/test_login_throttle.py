"""Login throttling (django-axes) by the username and the client's own address together, the
address read as the proxies in front of the server report it (PROXY_COUNT), through the whole
middleware stack: a stranger's guesses lock out no one but the stranger."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

ROOT = Path(__file__).resolve().parents[3]
PROXY = "10.0.0.1"  # behind a proxy every connection comes from it
ATTACKER = "198.51.100.7"
DIRECTOR = "203.0.113.5"
LOCKED = (
    "This account has failed to log in too many times from this address: its further attempts "
    "from here are refused for 0:15:00 (hours:minutes:seconds) from the last one. Try again later."
)


def _log_in(
    client: Client, username: str, password: str, forwarded: str | None, address: str = PROXY
):
    headers = {"REMOTE_ADDR": address}
    if forwarded is not None:
        headers["HTTP_X_FORWARDED_FOR"] = forwarded
    return client.post(reverse("login"), {"username": username, "password": password}, **headers)


@pytest.fixture
def dana(db: None) -> User:
    return User.objects.create_user("dana", password="danas-own-password")


def _signed_in_as(client: Client, user: User) -> bool:
    return client.session.get("_auth_user_id") == str(user.pk)


def test_behind_a_proxy_fifty_bad_logins_from_one_address_leave_the_director_signing_in(
    dana: User, settings
) -> None:
    settings.PROXY_COUNT = 1
    statuses = [
        _log_in(Client(), "dana", f"guess {n}", forwarded=ATTACKER).status_code for n in range(50)
    ]
    director = Client()

    response = _log_in(director, "dana", "danas-own-password", forwarded=DIRECTOR)

    assert statuses == [200] * 4 + [429] * 46  # the form again four times, then refused
    assert response.status_code == 302
    assert response["Location"] == reverse("desk")
    assert _signed_in_as(director, dana)


def test_the_attackers_address_stays_locked_for_that_username_and_the_page_says_why(
    dana: User, settings
) -> None:
    settings.PROXY_COUNT = 1
    for n in range(5):
        _log_in(Client(), "dana", f"guess {n}", forwarded=ATTACKER)
    assert _log_in(Client(), "dana", "danas-own-password", forwarded=DIRECTOR).status_code == 302
    attacker = Client()

    refused = _log_in(attacker, "dana", "danas-own-password", forwarded=ATTACKER)

    assert refused.status_code == 429
    assert "<h2>Too many failed logins</h2>" in refused.text
    assert LOCKED in " ".join(refused.text.split())
    assert not _signed_in_as(attacker, dana)


@pytest.mark.parametrize(
    "spoofed",
    [
        f"{DIRECTOR}, {ATTACKER}",  # claims to be the director's own address
        f"192.0.2.44, {ATTACKER}",
        f"not-an-address, {ATTACKER}",
        f"192.0.2.1, 192.0.2.2, 192.0.2.3, {ATTACKER}",
    ],
)
def test_a_spoofed_first_entry_does_not_escape_the_lock(dana: User, settings, spoofed: str) -> None:
    settings.PROXY_COUNT = 1
    for n in range(5):
        _log_in(Client(), "dana", f"guess {n}", forwarded=ATTACKER)

    # What the client wrote comes first; the proxy adds the address it really came from last.
    spoof = _log_in(Client(), "dana", "one more guess", forwarded=spoofed)
    director = Client()
    real = _log_in(director, "dana", "danas-own-password", forwarded=DIRECTOR)

    assert spoof.status_code == 429
    assert real.status_code == 302
    assert _signed_in_as(director, dana)


def test_someone_else_at_the_locked_address_still_signs_in_to_their_own_account(
    dana: User, settings
) -> None:
    settings.PROXY_COUNT = 1
    sam = User.objects.create_user("sam", password="sams-own-password")
    for n in range(5):
        _log_in(Client(), "dana", f"guess {n}", forwarded=ATTACKER)
    neighbour = Client()

    response = _log_in(neighbour, "sam", "sams-own-password", forwarded=ATTACKER)

    assert response.status_code == 302
    assert _signed_in_as(neighbour, sam)


def test_behind_two_proxies_the_client_is_the_second_address_from_the_end(
    dana: User, settings
) -> None:
    settings.PROXY_COUNT = 2
    outer = "172.16.0.2"  # the outer proxy, which the inner one names last
    for n in range(5):
        _log_in(Client(), "dana", f"guess {n}", forwarded=f"192.0.2.{n}, {ATTACKER}, {outer}")
    director = Client()

    spoof = _log_in(Client(), "dana", "again", forwarded=f"{DIRECTOR}, {ATTACKER}, {outer}")
    real = _log_in(director, "dana", "danas-own-password", forwarded=f"{DIRECTOR}, {outer}")

    assert spoof.status_code == 429
    assert real.status_code == 302
    assert _signed_in_as(director, dana)


def test_with_no_proxy_trusted_the_forwarded_header_is_not_read(dana: User, settings) -> None:
    settings.PROXY_COUNT = 0
    # Each guess claims another address: without a proxy the header is the client's own words.
    for n in range(5):
        _log_in(Client(), "dana", f"guess {n}", forwarded=f"192.0.2.{n}", address=ATTACKER)

    again = _log_in(Client(), "dana", "danas-own-password", forwarded=DIRECTOR, address=ATTACKER)
    director = Client()
    real = _log_in(director, "dana", "danas-own-password", forwarded=ATTACKER, address=DIRECTOR)

    assert again.status_code == 429
    assert real.status_code == 302
    assert _signed_in_as(director, dana)


def test_a_login_under_the_limit_still_works(dana: User) -> None:
    client = Client()
    _log_in(client, "dana", "typo", forwarded=None)

    assert _log_in(client, "dana", "danas-own-password", forwarded=None).status_code == 302


def _settings_say(env: dict[str, str]) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items() if k not in ("PROXY_COUNT", "DEBUG", "SECRET_KEY")}
    code = (
        "import django; django.setup(); from django.conf import settings as s; print(s.PROXY_COUNT)"
    )
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**base, "DJANGO_SETTINGS_MODULE": "config.settings", **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_proxy_count_is_read_from_the_environment_and_trusts_no_proxy_by_default() -> None:
    assert _settings_say({}).stdout == "0\n"
    assert _settings_say({"PROXY_COUNT": "2"}).stdout == "2\n"
    refused = _settings_say({"PROXY_COUNT": "-1"})
    assert refused.returncode == 1
    assert refused.stderr.splitlines()[-1] == "ValueError: PROXY_COUNT must be 0 or more, got -1"
