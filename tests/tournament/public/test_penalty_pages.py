"""Time penalties on the public pages: after the score they were taken off, in the pairings by
table and by name and on a player's page, and not in the crosstable's compact cells."""

from __future__ import annotations

import pytest
from django.test import Client

from .test_public_pages import body_rows, make_event, url


@pytest.mark.django_db
def test_the_pairings_and_the_player_page_show_the_time_penalty(client: Client) -> None:
    event = make_event()
    game = event.games["r1 ann bob"]  # Ann 400 – Bob 350: Bob's 370 on the sheet, 2 minutes over
    game.penalty2 = 20
    game.save()

    pairings = client.get(url("pairings", event, 1))
    bob = client.get(url("player", event, 2))

    assert body_rows(pairings)[0] == ["1", "Ann (first)", "400–350 (−20 time)", "Bob"]
    assert body_rows(pairings, 1)[:2] == [
        ["Ann", "1", "Bob", "first", "400–350 (−20 time)"],
        ["Bob", "1", "Ann", "second", "350 (−20 time)–400"],
    ]
    assert body_rows(bob)[0] == ["1", "Ann", "second", "350 (−20 time)–400", "loss", "0–1 -50", ""]
    assert "time" not in client.get(url("crosstable", event)).content.decode().split("<table")[1]


@pytest.mark.django_db
def test_a_game_without_a_penalty_shows_its_scores_alone(client: Client) -> None:
    event = make_event()

    assert body_rows(client.get(url("pairings", event, 1)))[0] == [
        "1",
        "Ann (first)",
        "400–350",
        "Bob",
    ]
