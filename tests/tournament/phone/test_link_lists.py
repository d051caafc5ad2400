"""Every player's link at once (tournament/phone/link_lists.py): the division's links as CSV
and as a text to paste into a message, for its directors alone; no CSV cell starts a formula."""

from __future__ import annotations

import csv
import html
import io
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tournament.core.sentences import FSI, PDI
from tournament.models import Division
from tournament.phone import link_lists
from tournament.phone import services as phone


def _csv(desk: Client, division: Division) -> list[list[str]]:
    response = desk.get(reverse("desk-player-links-csv", args=["spring-open", division.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="spring-open-A-links.csv"'
    assert response["Cache-Control"] == "no-store"
    body = response.content.decode("utf-8")
    assert body.startswith("\ufeff")
    return list(csv.reader(io.StringIO(body[1:])))


def test_the_csv_holds_every_player_and_their_working_link(
    division: Division, desk: Client
) -> None:
    fay = division.players.get(number=5)
    fay.name, fay.latin_name = '=HYPERLINK("http://evil")', "-2+3"
    fay.save()
    division.players.filter(number=6).update(name="سارا احمدی", latin_name="Sara Ahmadi")
    phone.revoke_links(division.players.get(number=7))
    phone.issue_link(division.players.get(number=7))
    phone.revoke_links(division.players.get(number=7))

    rows = _csv(desk, division)

    assert rows[0] == ["number", "name", "Latin name", "link"]
    assert [r[:3] for r in rows[1:]] == [
        ["1", "Quill, Ada", "Quill, Ada"],
        ["2", "Crane, Ben", "Crane, Ben"],
        ["3", "Vale, Cora", "Vale, Cora"],
        ["4", "Moss, Eli", "Moss, Eli"],
        ["5", '\'=HYPERLINK("http://evil")', "'-2+3"],
        ["6", "سارا احمدی", "Sara Ahmadi"],
        ["7", "Reed, Hal", "Reed, Hal"],
    ]
    for number, row in enumerate(rows[1:7], start=1):
        assert row[3].startswith("http://testserver/p/")
        token = row[3].removeprefix("http://testserver/p/").strip("/")
        assert phone.player_for(token) == division.players.get(number=number)
    assert rows[7][3] == ""  # revoked: none until a director makes a new one
    assert len(rows) == 8


def test_a_cell_never_starts_a_formula() -> None:
    for text in ("=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx", " =1"):
        assert link_lists.csv_cell(text) == "'" + text
    assert link_lists.csv_cell("Quill, Ada") == "Quill, Ada"
    assert link_lists.csv_cell(f"{FSI}Ada{PDI}") == "Ada"


def test_the_links_page_offers_them_as_a_message(division: Division, desk: Client) -> None:
    page = desk.get(reverse("desk-player-links", args=["spring-open", division.pk]))
    content = page.content.decode()
    assert reverse("desk-player-links-csv", args=["spring-open", division.pk]) in content
    text = html.unescape(content.split('id="links-text"')[1].split(">", 1)[1].split("</")[0])
    lines = text.strip("\n").split("\n")
    assert len(lines) == 7
    assert lines[0].startswith(f"1 {FSI}Quill, Ada{PDI}: http://testserver/p/")
    token = lines[0].rsplit("/p/", 1)[1].strip("/")
    assert phone.player_for(token) == division.players.get(number=1)
    # The same links as the table's fields.
    assert f'value="{lines[0].split(": ", 1)[1]}"' in content


def test_in_persian_each_link_stays_left_to_right(division: Division, desk: Client) -> None:
    desk.cookies["django_language"] = "fa"
    content = desk.get(reverse("desk-player-links", args=["spring-open", division.pk]))
    text = html.unescape(
        content.content.decode().split('id="links-text"')[1].split(">", 1)[1].split("</")[0]
    )
    assert "\u2066http://testserver/p/" in text  # LRI … PDI around each link


@pytest.mark.parametrize("who", ["scorekeeper", "stranger", "other_director"])
def test_only_the_directors_get_them(
    division: Division,
    client_for: Callable[[User], Client],
    stranger: User,
    other_director: User,
    who: str,
) -> None:
    user = other_director if who == "other_director" else stranger
    if who == "scorekeeper":
        division.tournament.scorekeepers.add(stranger)
    url = reverse("desk-player-links-csv", args=["spring-open", division.pk])
    assert client_for(user).get(url).status_code == 403
    assert Client().get(url).status_code == 302  # to the login page
