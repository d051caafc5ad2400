"""The game viewer in headless Chromium: stepping without reloading keeps the address in step
and draws the board the server draws for that turn."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from django.core.management import call_command

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
pytestmark = [
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed"),
]


def _tiles(tab) -> list[tuple[str, str]]:
    return sorted(
        (g.get_attribute("data-square"), g.locator("text.letter").text_content())
        for g in tab.locator("svg.board g.tile").all()
    )


def test_stepping_forward_three_times_shows_turn_3_as_the_server_draws_it(
    live_url: str,
    page,
) -> None:
    call_command("loaddemo")
    from tournament.models import Scoresheet
    from tournament.scoresheets import services as scoresheets

    sheet = Scoresheet.objects.get(report__file="a2-cora-ada.gcg")
    # Its wrong total holds it from the public until the director publishes it anyway.
    scoresheets.release_scoresheet(sheet, None, "shown with its finding")
    url = f"{live_url}/t/demo/scoresheet/{sheet.pk}/"
    blocked: list[str] = []
    page.on(
        "console",
        lambda msg: blocked.append(msg.text) if "Content Security Policy" in msg.text else None,
    )
    page.goto(f"{url}?turn=0")
    assert _tiles(page) == []
    page.click("a[data-go=forward]")
    page.click("a[data-go=forward]")
    page.keyboard.press("ArrowRight")  # the arrow keys step too
    assert page.url == f"{url}?turn=3"
    stepped = _tiles(page)
    # cORONER at 8B, C.YOTES down from C7, SPACY down from B10: eighteen tiles, SPACY's
    # highlighted.
    assert len(stepped) == 18
    assert page.locator("svg.board g.tile.last").count() == 5
    # The move left to right, its nickname isolated (plain text: the script writes the marks).
    assert page.inner_text("#viewer-caption") == (
        "after line 6: \u2066>\u2068Cora\u2069: ACEIPSY B10 SPACY +42 106\u2069"
    )
    assert page.locator("#viewer-moves tr.current").get_attribute("data-step") == "3"
    assert page.input_value("#viewer-slider") == "3"
    text = page.inner_text("#viewer-text")

    page.goto(f"{url}?turn=3")  # the same turn, drawn by the server
    assert _tiles(page) == stepped
    assert page.inner_text("#viewer-text") == text

    page.keyboard.press("Home")
    assert page.url == f"{url}?turn=0" and _tiles(page) == []
    # A finding's link jumps to its turn: the wrong total on line 7 (PAW, move 4).
    page.click("#viewer-moves a.finding")
    assert page.url == f"{url}?turn=4" and len(_tiles(page)) == 21
    page.keyboard.press("End")
    assert page.url == f"{url}?turn=33"
    assert blocked == []
