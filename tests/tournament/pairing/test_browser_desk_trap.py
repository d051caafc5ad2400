"""The trap a director meets at 11 pm, played in Chromium at 1280 and at 390 px: a typo in
round 1's last result makes the division pair round 2 by itself from it; the director
corrects the typo; round 2 is paired again from the right result, and its page shows it.

Persian and Korean names are among the players, so the desk's sentences are read with names
in another direction."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
# Screenshots to look at, where SPREAD_SCREENSHOTS names a folder.
SHOTS = os.environ.get("SPREAD_SCREENSHOTS")

pytestmark = [
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed"),
]

NAMES = ["سارا احمدی", "김민준", "Quill, Ada", "Crane, Ben", "Vale, Cora", "Moss, Eli"]


def _event():
    from django.contrib.auth.models import User

    from tournament.models import Division, Game, Player, Tournament

    user = User.objects.create_user("td", password="late-night")
    tournament = Tournament.objects.create(name="Night Open", slug="night-open", public=True)
    tournament.directors.add(user)
    division = Division.objects.create(
        tournament=tournament, name="A", planned_rounds=3, auto_pair=True
    )
    players = [
        Player.objects.create(division=division, number=n, name=name, rating=1800 - 10 * n)
        for n, name in enumerate(NAMES, start=1)
    ]
    for table, (one, two) in enumerate([(0, 1), (2, 3), (4, 5)], start=1):
        Game.objects.create(
            division=division,
            round=1,
            table=table,
            player1=players[one],
            player2=players[two],
            first=1,
        )
    return division


def _pairs(page) -> list[str]:
    rows = page.locator("#pairings tbody tr").all()
    return [" | ".join(c.inner_text().strip() for c in r.locator("td").all()[:6]) for r in rows]


def _enter(page, line: str, reason: str = "") -> str:
    page.fill("#id_line", line)
    if reason:
        page.wait_for_selector("#reason-row:not([hidden])")
        page.fill("#id_reason", reason)
    before = page.locator("#log li").count()
    page.press("#id_reason" if reason else "#id_line", "Enter")
    page.wait_for_function("n => document.querySelectorAll('#log li').length > n", arg=before)
    return page.locator("#log li").first.inner_text()


@pytest.mark.parametrize("width", [1280, 390])
def test_a_typo_its_automatic_pairing_and_the_correction(live_url: str, page, width: int) -> None:
    division = _event()
    base = live_url
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", "td")
    page.fill("input[name=password]", "late-night")
    page.click("button[type=submit], input[type=submit]")

    entry = f"{base}/desk/night-open/division/{division.pk}/round/1/"
    page.goto(entry)
    _enter(page, "3 410 4 380")
    _enter(page, "5 400 6 350")
    said = _enter(page, "1 39 2 388")  # 390 typed as 39
    assert "Round 1's results are complete: round 2 is paired by swiss" in said

    pairings = f"{base}/desk/night-open/division/{division.pk}/round/2/pairings/"
    page.goto(pairings)
    from_typo = _pairs(page)

    page.goto(entry)
    page.wait_for_selector("#id_line")
    said = _enter(page, "1 390 2 388", reason="39 for 390")
    assert "Round 2 paired again from the changed results:" in said
    assert said.startswith("Saved: 1 \u2068سارا احمدی\u2069 390 – 2 \u2068김민준\u2069 388")
    # The Persian name keeps its place in the English sentence, as the screen shows it: the
    # number before it, the score after it, left to right.
    lefts = page.evaluate(
        """parts => {
          const node = document.querySelector('#log li').firstChild;
          return parts.map(part => {
            const at = node.textContent.indexOf(part);
            const range = document.createRange();
            range.setStart(node, at);
            range.setEnd(node, at + part.length);
            return range.getBoundingClientRect().left;
          });
        }""",
        ["Saved: 1", "سارا احمدی", "390 –", "김민준"],
    )
    assert lefts == sorted(lefts), lefts

    page.goto(pairings)
    from_fix = _pairs(page)
    assert from_fix != from_typo
    assert any("سارا احمدی" in row and "1–0" in row for row in from_fix)
    assert page.locator("#stale").count() == 0  # paired again: nothing stale
    assert page.locator("#no-warnings, #warnings").count() == 1

    # At either width the page fits: no sideways scrolling of the whole page.
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 1, overflow
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/trap-pairings-{width}.png", full_page=True)
        page.goto(f"{base}/desk/night-open/")
        page.screenshot(path=f"{SHOTS}/trap-dashboard-{width}.png", full_page=True)
        page.goto(entry)
        page.screenshot(path=f"{SHOTS}/trap-entry-{width}.png", full_page=True)
