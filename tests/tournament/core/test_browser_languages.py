"""Languages in headless Chromium: the header's switcher changes the page's language and keeps
it; a Persian page is laid out right to left (tables mirrored, numbers still read left to
right) while the board keeps its orientation; screenshots at a desk's and a phone's width.

Set SPREAD_SCREENSHOTS to a directory to keep the screenshots (they go to pytest's tmp_path
otherwise)."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest
from django.core.management import call_command

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
pytestmark = [
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed"),
]


def _shots(tmp_path: Path) -> Path:
    where = Path(os.environ.get("SPREAD_SCREENSHOTS") or tmp_path)
    where.mkdir(parents=True, exist_ok=True)
    return where


def _demo_with_a_persian_and_a_korean_name() -> None:
    call_command("loaddemo", stdout=open(os.devnull, "w"))  # noqa: SIM115
    from tournament.models import Player

    # Names as the hall would type them, so that the pages show them among the interface's words.
    Player.objects.filter(division__name="A", name="Dev Patel").update(name="مریم رضایی")
    Player.objects.filter(division__name="A", name="Fay North").update(name="김민준")


def test_a_persian_standings_page_is_laid_out_right_to_left(live_url: str, page, tmp_path) -> None:
    _demo_with_a_persian_and_a_korean_name()
    shots = _shots(tmp_path)
    standings = f"{live_url}/t/demo/A/"
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(standings)
    assert page.evaluate("document.documentElement.lang") == "en"
    # The switcher sends itself on a change (static/language.js) and the choice is kept.
    page.select_option("#language-select", "fa")
    page.wait_for_url(standings)
    page.wait_for_selector("html[lang=fa]")
    assert page.evaluate("getComputedStyle(document.documentElement).direction") == "rtl"
    assert page.evaluate("document.documentElement.dir") == "rtl"
    assert page.inner_text("h3").startswith("رده‌بندی پس از دور")
    # The table mirrors: its first column (rank) is at the right, its last at the left.
    first = page.locator("table.data thead th").first.bounding_box()
    last = page.locator("table.data thead th").last.bounding_box()
    assert first is not None and last is not None and first["x"] > last["x"]
    # A spread keeps its sign before its digits: "+96" is drawn with the sign at the left.
    spread = page.locator("table.data tbody tr").first.locator("td.num").nth(1)
    assert re.fullmatch(r"[+-]\d+", spread.inner_text())
    assert spread.locator("bdi[dir=ltr]").count() == 1  # kept left to right (the ltr filter's)
    sign_first = page.evaluate(
        """cell => {
            const text = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT).nextNode();
            const range = document.createRange();
            range.setStart(text, 0); range.setEnd(text, 1);
            const sign = range.getBoundingClientRect().x;
            range.setStart(text, 1); range.setEnd(text, 2);
            return sign < range.getBoundingClientRect().x;
        }""",
        spread.element_handle(),
    )
    assert sign_first
    page.screenshot(path=str(shots / "standings-fa-1280.png"), full_page=True)
    # Another page keeps the choice (the language cookie).
    page.goto(f"{live_url}/t/demo/")
    assert page.evaluate("document.documentElement.lang") == "fa"
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(standings)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(shots / "standings-fa-390.png"), full_page=True)


def test_the_board_keeps_its_orientation_in_persian(live_url: str, page, tmp_path) -> None:
    _demo_with_a_persian_and_a_korean_name()
    from tournament.models import Scoresheet

    sheet = Scoresheet.objects.filter(game__division__name="A").order_by("pk").first()
    assert sheet is not None
    page.context.add_cookies([{"name": "django_language", "value": "fa", "url": live_url}])
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{live_url}/t/demo/scoresheet/{sheet.pk}/?turn=3")
    assert page.evaluate("getComputedStyle(document.documentElement).direction") == "rtl"
    # Columns A to O still run left to right, as GCG's coordinates (8H) say everywhere.
    column_a = page.locator("svg.board .coords text", has_text="A").first.bounding_box()
    column_o = page.locator("svg.board .coords text", has_text="O").first.bounding_box()
    assert column_a is not None and column_o is not None and column_a["x"] < column_o["x"]
    assert (
        page.evaluate("getComputedStyle(document.querySelector('.viewer-board')).direction")
        == "ltr"
    )
    # The viewer's words come in Persian from the page's attributes as it steps.
    page.click("a[data-go=forward]")
    assert page.inner_text("#viewer-caption").startswith("پس از سطر")
    page.screenshot(path=str(_shots(tmp_path) / "scoresheet-fa-1280.png"), full_page=True)


def test_a_korean_page_at_a_desk_s_and_a_phone_s_width(live_url: str, page, tmp_path) -> None:
    _demo_with_a_persian_and_a_korean_name()
    shots = _shots(tmp_path)
    page.context.add_cookies([{"name": "django_language", "value": "ko", "url": live_url}])
    for width, height in ((1280, 900), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"{live_url}/t/demo/A/")
        assert page.evaluate("document.documentElement.lang") == "ko"
        assert page.evaluate("getComputedStyle(document.documentElement).direction") == "ltr"
        assert page.inner_text("nav.subnav").split()[:2] == ["순위", "전적표"]
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.screenshot(path=str(shots / f"standings-ko-{width}.png"), full_page=True)


def test_a_player_s_phone_page_in_persian(live_url: str, page, tmp_path) -> None:
    _demo_with_a_persian_and_a_korean_name()
    from tournament.models import Player, Tournament
    from tournament.phone import services as phone

    demo = Tournament.objects.get(slug="demo")
    demo.language = "fa"  # the tournament's default: the player chose nothing
    demo.save(update_fields=["language"])
    player = Player.objects.get(division__name="A", name="مریم رضایی")
    token = phone.issue_link(player)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_url}/p/{token}/")
    assert page.evaluate("document.documentElement.lang") == "fa"
    assert page.evaluate("getComputedStyle(document.documentElement).direction") == "rtl"
    assert page.inner_text("h1") == "مریم رضایی"
    assert page.inner_text(".games h2") == "بازی‌ها"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(_shots(tmp_path) / "phone-fa-390.png"), full_page=True)
