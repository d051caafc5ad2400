"""The players' phones and the hall display in headless Chromium: a player at phone size (390
px) opens their link, checks in and reports; the display changes by itself after the report."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tournament.models import Division, Game, Player, Tournament
from tournament.phone import services as phone

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"

pytestmark = [
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed"),
]


def _event(paired: bool = True) -> Division:
    tournament = Tournament.objects.create(name="Hall Open", slug="hall-open")
    division = Division.objects.create(
        tournament=tournament, name="A", self_report=True, check_in_open=True
    )
    names = ["Quill, Ada", "Crane, Ben", "Vale, Cora", "Moss, Eli"]
    for n, name in enumerate(names, start=1):
        Player.objects.create(division=division, number=n, name=name, rating=1500)
    if paired:
        _pair(division)
    return division


def _pair(division: Division) -> None:
    """Round 1: Ada v Ben, Cora v Eli."""
    people = list(division.players.order_by("number"))
    Game.objects.create(
        division=division, round=1, table=1, player1=people[0], player2=people[1], first=1
    )
    Game.objects.create(
        division=division, round=1, table=2, player1=people[2], player2=people[3], first=2
    )


def test_a_player_checks_in_and_reports_from_a_phone(live_url, page, tmp_path) -> None:
    division = _event(paired=False)
    ben = division.players.get(number=2)
    ada_token = phone.issue_link(division.players.get(number=1))
    ben_token = phone.issue_link(ben)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_url}/p/{ben_token}/")
    page.get_by_role("button", name="Check in as Crane, Ben").click()
    assert "Crane, Ben: checked in." in page.inner_text(".messages")
    _pair(division)  # round 1 paired: check-in by phone is over
    page.goto(f"{live_url}/p/{ben_token}/")
    assert page.get_by_role("button", name="Check in as Crane, Ben").count() == 0
    assert page.locator(".table").inner_text() == "Table 1"
    assert "Quill, Ada goes first." in page.inner_text(".now")
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
    phone.report(cora, game, 350, 410)
    assert phone.report(eli, game, 410, 350).recorded
    # No reload: the page's own polling brings the result in.
    page.locator("#display-body", has_text="350 – 410").wait_for(timeout=10_000)
    assert "Vale, Cora" in page.inner_text("#display-body")


def test_a_player_types_their_scoresheet_on_a_phone_and_sees_a_finding(
    live_url, page, tmp_path
) -> None:
    division = _event()
    ada_token = phone.issue_link(division.players.get(number=1))
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_url}/p/{ada_token}/")
    page.get_by_role("link", name="Type or upload your scoresheet").click()
    sheet = page.locator("#id_gcg")
    assert sheet.input_value() == "#player1 Ada Quill, Ada\n#player2 Ben Crane, Ben\n"
    # Two moves typed as a player types them: Enter at the end of a move starts Ben's line.
    sheet.press("End")
    page.keyboard.press("Control+End")
    page.keyboard.type(">Ada: DJINNRS 8D DJINN +32 32")
    page.keyboard.press("Enter")
    assert sheet.input_value().endswith(">Ben: ")
    page.keyboard.type("ABHITWY I7 WITHY +33 65")
    # Checked as typed, without saving: DJINN scores 30, not 32; Ben's total is his own 33.
    page.locator("#sheet-lines tbody tr.wrong", has_text="WITHY").wait_for(timeout=10_000)
    rows = page.locator("#sheet-lines tbody tr")
    assert rows.count() == 2
    djinn, withy = rows.nth(0), rows.nth(1)
    assert djinn.get_attribute("class") == "wrong"
    assert [c.inner_text() for c in djinn.locator("td.num").all()] == ["32", "30", "32", "30"]
    assert "error: " in djinn.locator(".finding").first.inner_text()
    assert [c.inner_text() for c in withy.locator("td.num").all()] == ["33", "33", "65", "33"]
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(tmp_path / "phone-sheet-390.png"), full_page=True)
    page.get_by_role("button", name="Save the scoresheet").click()
    assert "Scoresheet saved with" in page.inner_text(".messages")
    assert page.get_by_role("link", name="Your scoresheet: look or change it").count() == 1
    page.set_viewport_size({"width": 1280, "height": 800})
    page.get_by_role("link", name="Your scoresheet: look or change it").click()
    page.locator("#sheet-lines tbody tr").first.wait_for(timeout=10_000)
    page.screenshot(path=str(tmp_path / "phone-sheet-1280.png"), full_page=True)
