"""The player's page as an installable web app (tournament/phone/webapp.py): its service worker
at /p/sw.js, its manifest under the player's own page, and the copy the worker keeps to open the
page offline (without the messages the page shows once)."""

from __future__ import annotations

import json

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from tournament.models import Division
from tournament.phone import services as phone


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    cache.clear()


def test_the_service_worker_is_served_from_p_with_its_type_and_no_session(db: None) -> None:
    response = Client().get("/p/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/javascript; charset=utf-8"
    assert response["Cache-Control"] == "no-cache"
    assert b'const CACHE = "spread-phone-1";' in response.content
    assert "Set-Cookie" not in response
    policy = response["Content-Security-Policy"]
    assert "worker-src 'self'" in policy and "manifest-src 'self'" in policy
    assert Client().post("/p/sw.js").status_code == 405


def test_the_manifest_opens_the_players_own_page(division: Division) -> None:
    token = phone.issue_link(division.players.get(number=1))
    response = Client().get(f"/p/{token}/manifest.webmanifest")
    assert response["Content-Type"] == "application/manifest+json"
    data = json.loads(response.content)
    assert data["name"] == "Quill, Ada · Spring Open"
    assert (data["start_url"], data["scope"], data["display"]) == ("./", "./", "standalone")
    assert [(i["src"], i["sizes"]) for i in data["icons"]] == [
        ("/static/phone-icon-192.png", "192x192"),
        ("/static/phone-icon-512.png", "512x512"),
    ]
    assert Client().get("/p/not-a-token/manifest.webmanifest").status_code == 404


def test_the_page_names_its_manifest_worker_and_scope(division: Division) -> None:
    token = phone.issue_link(division.players.get(number=1))
    page = Client().get(reverse("phone", args=[token])).content.decode()
    assert f'<link rel="manifest" href="/p/{token}/manifest.webmanifest">' in page
    assert f'data-sw="/p/sw.js?static=/static/" data-scope="/p/{token}/"' in page
    assert '<script src="/static/phone-offline.js" defer></script>' in page
    assert '<script src="/static/phone-notify.js" defer></script>' in page


def test_the_workers_copy_leaves_the_messages_for_the_page(division: Division) -> None:
    division.games.all().delete()  # check-in by phone is open until round 1 is paired
    division.check_in_open = True
    division.save()
    token = phone.issue_link(division.players.get(number=1))
    client = Client()
    client.post(reverse("phone-check-in", args=[token]))
    copy = client.get(reverse("phone", args=[token]), headers={"X-Spread-Copy": "1"})
    assert 'class="messages"' not in copy.content.decode()
    shown = client.get(reverse("phone", args=[token]))
    assert [str(m) for m in shown.context["messages"]] == ["\u2068Quill, Ada\u2069: checked in."]
