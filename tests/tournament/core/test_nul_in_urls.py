"""A NUL byte in any part of an address is a 404 before any query (PostgreSQL refuses NUL in text,
so a URL part that reached a query would fail with a 500), on every kind of route."""

from __future__ import annotations

import pytest
from django.test import Client

from tournament.models import Division
from tournament.phone import services as phone

SLUG = "spring-open"


def _routes(token: str) -> list[tuple[str, str]]:
    return [
        ("get", f"/p/{token}/"),
        ("post", f"/p/{token}/report"),
        ("post", f"/p/{token}/check-in"),
        ("get", f"/t/{SLUG}/A/"),
        ("get", f"/t/{SLUG}/A/round/1/"),
        ("get", f"/t/{SLUG}/A/player/1/"),
        ("get", f"/t/{SLUG}/A/crosstable/"),
        ("get", f"/api/v1/t/{SLUG}/A/standings"),
        ("get", f"/api/v1/t/{SLUG}/A/round/1/pairings"),
        ("get", f"/t/{SLUG}/A/display/"),
        ("get", f"/t/{SLUG}/A/report/standings.pdf"),
    ]


@pytest.mark.parametrize("where", ["end", "middle", "alone"])
def test_a_nul_byte_in_a_url_part_is_a_404_before_any_query(
    division: Division, django_assert_num_queries, where: str
) -> None:
    token = phone.issue_link(division.players.get(number=1))
    client = Client()
    for method, path in _routes(token):
        part = token if path.startswith("/p/") else "A"
        bad = {"end": part + "%00", "middle": part[:1] + "%00" + part[1:], "alone": "%00"}[where]
        prefix, _, rest = path.partition(f"/{part}/")
        nul_path = f"{prefix}/{bad}/{rest}"

        with django_assert_num_queries(0):
            response = getattr(client, method)(nul_path)

        assert (nul_path, response.status_code) == (nul_path, 404)


def test_the_same_routes_without_the_nul_byte_answer(division: Division) -> None:
    token = phone.issue_link(division.players.get(number=1))
    client = Client()
    pages = [path for method, path in _routes(token) if method == "get"]

    assert {path: client.get(path).status_code for path in pages} == {path: 200 for path in pages}
