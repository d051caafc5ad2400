"""The prize ceremony in headless Chromium: the director opens the slides and steps through
them with the arrow keys, Page Down (a clicker), End and Home; at 1280 and 390 px wide."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from tournament.models import Division, Game, Player, Tournament

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
SHOTS = os.environ.get("SPREAD_SHOTS", "")

pytestmark = [
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed"),
]

NAMES = [("Quill, Ada", 1800), ("رضایی، مریم", 1700), ("김민준", 1600), ("Moss, Eli", 1500)]


def _event() -> Division:
    tournament = Tournament.objects.create(name="Nowruz Cup", slug="nowruz-cup")
    division = Division.objects.create(
        tournament=tournament,
        name="A",
        prizes=[
            {"kind": "rank", "place": 1, "value": "$100", "note": ""},
            {"kind": "rank", "place": 2, "value": "$50", "note": ""},
            {"kind": "tuffluck", "place": 1, "value": "a mug", "note": "", "rounds": 1},
            {"kind": "highgame", "place": 1, "value": "$10", "note": ""},
        ],
    )
    p = [
        Player.objects.create(division=division, number=n, name=name, rating=rating)
        for n, (name, rating) in enumerate(NAMES, start=1)
    ]
    # Ada 2-0 (1st), Eli 1-1 (2nd), Kim 1-1, Maryam 0-2 (the Tuff Luck), Kim's 400 the high game.
    for rnd, table, a, sa, b, sb in [
        (1, 1, 0, 420, 1, 380),
        (1, 2, 2, 400, 3, 350),
        (2, 1, 0, 450, 2, 300),
        (2, 2, 1, 390, 3, 400),
    ]:
        Game.objects.create(
            division=division,
            round=rnd,
            table=table,
            player1=p[a],
            player2=p[b],
            score1=sa,
            score2=sb,
            first=1,
        )
    return division


def _visible(page) -> str:
    return " ".join(page.inner_text("section.slide:not([hidden])").split())


def test_the_director_steps_through_the_ceremony(live_url: str, page) -> None:
    division = _event()
    call_command("createdirector", "dora", password="dora-pass-2027")
    division.tournament.directors.add(User.objects.get(username="dora"))
    page.goto(f"{live_url}/accounts/login/")
    page.fill("input[name=username]", "dora")
    page.fill("input[name=password]", "dora-pass-2027")
    page.click("button[type=submit], input[type=submit]")
    page.wait_for_url(f"{live_url}/desk/")
    page.goto(f"{live_url}/desk/nowruz-cup/division/{division.pk}/prizes/")
    page.click("#ceremony")
    page.wait_for_url("**/prizes/slides/")
    assert (
        _visible(page)
        == "1st high game $10 김 김민준 the highest score: 400-350 v Moss, Eli, round 1"
    )
    assert page.inner_text("#slides-count") == "1 of 4"
    page.keyboard.press("ArrowRight")
    assert _visible(page).startswith("1st Tuff Luck a mug")
    assert "10 = 10" in _visible(page)
    page.keyboard.press("PageDown")
    assert _visible(page) == "2nd place $50 EM Moss, Eli 1–1 -40"
    page.keyboard.press("End")
    assert _visible(page) == "1st place $100 AQ Quill, Ada 2–0 +190"
    assert page.inner_text("#slides-count") == "4 of 4"
    page.keyboard.press("ArrowRight")  # past the last: stays
    assert page.inner_text("#slides-count") == "4 of 4"
    page.keyboard.press("ArrowLeft")
    assert _visible(page).startswith("2nd place")
    page.keyboard.press("Home")
    assert page.inner_text("#slides-count") == "1 of 4"
    page.click("section.slide:not([hidden])")  # a click steps on too
    assert page.inner_text("#slides-count") == "2 of 4"
    # The page keeps its place when reloaded (#2).
    page.reload()
    assert page.inner_text("#slides-count") == "2 of 4"
    for width, height in ((1280, 800), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.keyboard.press("Home")
        # The slide fits the screen: no sideways scrolling.
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        if SHOTS:
            for n in range(4):
                page.screenshot(path=str(Path(SHOTS) / f"slides-{n + 1}-{width}.png"))
                page.keyboard.press("ArrowRight")


def test_in_persian_the_slides_run_right_to_left(live_url: str, page) -> None:
    from django.conf import settings

    division = _event()
    call_command("createdirector", "dora", password="dora-pass-2027")
    division.tournament.directors.add(User.objects.get(username="dora"))
    page.goto(f"{live_url}/accounts/login/")
    page.fill("input[name=username]", "dora")
    page.fill("input[name=password]", "dora-pass-2027")
    page.click("button[type=submit], input[type=submit]")
    page.wait_for_url(f"{live_url}/desk/")
    cookie = {"name": settings.LANGUAGE_COOKIE_NAME, "value": "fa", "url": live_url}
    page.context.add_cookies([cookie])
    page.goto(f"{live_url}/desk/nowruz-cup/division/{division.pk}/prizes/slides/")
    assert page.evaluate("document.documentElement.dir") == "rtl"
    # The next slide is to the left: ArrowLeft steps on, ArrowRight back.
    shown = "document.querySelector('section.slide:not([hidden])').id"
    page.keyboard.press("ArrowLeft")
    assert page.evaluate(shown) == "slide-2"
    assert "رضایی، مریم" in _visible(page)
    page.keyboard.press("ArrowRight")
    assert page.evaluate(shown) == "slide-1"
