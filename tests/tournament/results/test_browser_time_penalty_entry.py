"""A director types a result with a time penalty at the desk: the check shows the penalty and
the counted score before Enter, and the round's table shows it after; at a desk's width and a
phone's, with Persian and Korean names, in English and in Persian (right to left)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from django.core.management import call_command

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"

pytestmark = [
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed"),
]


@pytest.mark.parametrize(("width", "language"), [(1280, "en"), (390, "en"), (390, "fa")])
def test_a_time_penalty_is_shown_before_and_after_it_is_saved(
    live_url: str, page, width: int, language: str
) -> None:
    call_command("loaddemo")
    from tournament.models import Division, Game

    division = Division.objects.get(tournament__slug="demo", name="A")
    division.players.filter(number=1).update(name="رضا محمدی")
    division.players.filter(number=5).update(name="김민준")
    page.set_viewport_size({"width": width, "height": 900})
    page.context.add_cookies([{"name": "django_language", "value": language, "url": live_url}])
    page.goto(f"{live_url}/accounts/login/")
    page.fill("input[name=username]", "director")
    page.fill("input[name=password]", "spread-demo")
    page.click("button[type=submit], input[type=submit]")

    page.goto(f"{live_url}/desk/demo/division/{division.pk}/round/4/")
    page.fill("#id_line", "1 420 5 380 ot 1 1:05")
    penalty = page.locator("#check .penalty")
    penalty.wait_for()
    page.screenshot(path=f"/tmp/penalty-check-{width}-{language}.png", full_page=True)
    shown = penalty.inner_text()
    assert "420 − 20 = 400" in shown and "رضا محمدی" in shown
    assert penalty.bounding_box()["width"] <= width

    page.press("#id_line", "Enter")
    page.locator("#round .penalty").first.wait_for()
    page.screenshot(path=f"/tmp/penalty-round-{width}-{language}.png", full_page=True)
    game = Game.objects.get(division=division, round=4, table=1)
    assert (game.score1, game.score2, game.penalty1, game.penalty2) == (400, 380, 20, 0)
    assert "400" in page.locator("#round tr[data-game] td.num").first.inner_text()
