"""The players' phones and the hall display in headless Chromium: a player at phone size (390
px) opens their link, checks in and reports; the display changes by itself after the report."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tournament import selfservice
from tournament.models import Division, Game, Player, Tournament

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"

pytestmark = [
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed"),
]


def _event() -> Division:
    tournament = Tournament.objects.create(name="Hall Open", slug="hall-open")
    division = Division.objects.create(
        tournament=tournament, name="A", self_report=True, check_in_open=True
    )
    names = ["Quill, Ada", "Crane, Ben", "Vale, Cora", "Moss, Eli"]
    people = [
        Player.objects.create(division=division, number=n, name=name, rating=1500)
        for n, name in enumerate(names, start=1)
    ]
    Game.objects.create(
        division=division, round=1, table=1, player1=people[0], player2=people[1], first=1
    )
    Game.objects.create(
        division=division, round=1, table=2, player1=people[2], player2=people[3], first=2
    )
    return division


def test_a_player_checks_in_and_reports_from_a_phone(live_url, page, tmp_path) -> None:
    division = _event()
    ben = division.players.get(number=2)
    ada_token = selfservice.issue_link(division.players.get(number=1))
    ben_token = selfservice.issue_link(ben)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_url}/p/{ben_token}/")
    assert page.locator(".table").inner_text() == "Table 1"
    assert "Quill, Ada goes first." in page.inner_text(".now")
    page.get_by_role("button", name="Check in as Crane, Ben").click()
    assert "Crane, Ben: checked in." in page.inner_text(".messages")
    page.get_by_label("Your score").fill("380")
    page.get_by_label("Quill, Ada's score").fill("420")
    page.get_by_role("button", name="Report").click()
    assert "Waiting for Quill, Ada to report too." in page.inner_text(".messages")
    page.screenshot(path=str(tmp_path / "phone-reported.png"), full_page=True)
    # No sideways scrolling at phone width.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.goto(f"{live_url}/p/{ada_token}/")
    page.get_by_label("Your score").fill("420")
    page.get_by_label("Crane, Ben's score").fill("380")
    page.get_by_role("button", name="Report").click()
    assert "Both reports agree: the result is recorded." in page.inner_text(".messages")
    assert "Recorded: Quill, Ada 420 – Crane, Ben 380" in page.inner_text(".now")
    ben.refresh_from_db()
    assert ben.checked_in


def test_the_display_changes_by_itself_after_a_report(live_url, page) -> None:
    division = _event()
    division.display_pin = "results"
    division.save()
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(f"{live_url}/t/hall-open/A/display/")
    page.wait_for_selector("#display-view[data-view='results']")
    assert "No results yet this round." in page.inner_text("#display-body")
    game = division.games.get(table=2)
    cora, eli = game.player1, game.player2
    selfservice.report(cora, game, 350, 410)
    assert selfservice.report(eli, game, 410, 350).recorded
    # No reload: the page's own polling brings the result in.
    page.locator("#display-body", has_text="350 – 410").wait_for(timeout=10_000)
    assert "Vale, Cora" in page.inner_text("#display-body")
