"""COP's pages in Chromium, at 1280 and 390 px, in English and Persian, with Persian and Korean
names among the players: the round's pairings with the simulation's table of chances, and the
division's settings with COP's. Neither page scrolls sideways as a whole (the table of chances
scrolls in its own box)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
SHOTS = os.environ.get("SPREAD_SCREENSHOTS")

pytestmark = [
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed"),
]

NAMES = [
    "سارا احمدی",
    "김민준",
    "Quill, Ada",
    "Crane, Ben",
    "Vale, Cora",
    "Moss, Eli",
    "North, Fay",
    "Stone, Gus",
]
# Round 1: 1 v 2, 3 v 4 … the first named wins by 40, 80, 120, 160.
ROUND_1 = [(0, 1, 440), (2, 3, 480), (4, 5, 520), (6, 7, 560)]


def _event():
    from django.contrib.auth.models import User

    from tournament.models import Division, Game, Player, Tournament
    from tournament.pairing import services

    user = User.objects.create_user("td", password="late-night")
    tournament = Tournament.objects.create(name="Night Open", slug="night-open", public=True)
    tournament.directors.add(user)
    division = Division.objects.create(
        tournament=tournament,
        name="A",
        planned_rounds=4,
        cop_settings={"division_sims": 2000, "control_loss_sims": 1000, "seed": 3},
    )
    players = [
        Player.objects.create(division=division, number=n, name=name)
        for n, name in enumerate(NAMES, start=1)
    ]
    for table, (one, two, score) in enumerate(ROUND_1, start=1):
        Game.objects.create(
            division=division,
            round=1,
            table=table,
            player1=players[one],
            player2=players[two],
            score1=score,
            score2=400,
            first=1,
        )
    services.pair(division, 2, user, system="cop")
    return division


@pytest.mark.parametrize("language", ["en", "fa"])
@pytest.mark.parametrize("width", [1280, 390])
def test_cop_pages(live_url: str, page, width: int, language: str) -> None:
    division = _event()
    page.context.add_cookies([{"name": "django_language", "value": language, "url": live_url}])
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(f"{live_url}/accounts/login/")
    page.fill("input[name=username]", "td")
    page.fill("input[name=password]", "late-night")
    page.click("button[type=submit], input[type=submit]")

    pairings = f"{live_url}/desk/night-open/division/{division.pk}/round/2/pairings/"
    page.goto(pairings)
    page.click("#simulation summary")
    rows = page.locator("#simulation tbody tr").all()
    assert len(rows) == 8
    first = [c.inner_text().strip() for c in rows[0].locator("td").all()]
    assert first[0] == "North, Fay"  # won by the most
    assert any("سارا احمدی" in r.inner_text() for r in rows)
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 1, overflow
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/cop-pairings-{width}-{language}.png", full_page=True)

    page.goto(f"{live_url}/desk/night-open/division/{division.pk}/settings/")
    assert page.locator("#id_cop_division_sims").input_value() == "2000"
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 1, overflow
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/cop-settings-{width}-{language}.png", full_page=True)
