"""A large division's report in headless Chromium: the director clicks its link, the page says
it is being prepared and asks again by itself, then says it is ready and the file downloads;
in English and in Persian, at 1280 and 390 px wide."""

from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from tests.tournament.reports.report_support import pdf_lines
from tournament import reports
from tournament.models import Division, Game, Player, Tournament

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
SHOTS = os.environ.get("SPREAD_SHOTS", "")

pytestmark = [
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed"),
]

NAMES = ["Quill, Ada", "رضایی، مریم", "김민준", "Moss, Eli"]


def _event() -> Division:
    tournament = Tournament.objects.create(name="Nowruz Cup", slug="nowruz-cup")
    division = Division.objects.create(tournament=tournament, name="A", planned_rounds=1)
    p = [
        Player.objects.create(division=division, number=n, name=name, rating=1500)
        for n, name in enumerate(NAMES, start=1)
    ]
    Game.objects.create(
        division=division, round=1, table=1, player1=p[0], player2=p[1], score1=420, score2=380
    )
    Game.objects.create(
        division=division, round=1, table=2, player1=p[2], player2=p[3], score1=400, score2=350
    )
    return division


def _sign_in(page, live_url: str, division: Division) -> None:
    call_command("createdirector", "dora", password="dora-pass-2027")
    division.tournament.directors.add(User.objects.get(username="dora"))
    page.goto(f"{live_url}/accounts/login/")
    page.fill("input[name=username]", "dora")
    page.fill("input[name=password]", "dora-pass-2027")
    page.click("button[type=submit], input[type=submit]")
    page.wait_for_url(f"{live_url}/desk/")


@pytest.mark.parametrize("language", ["en", "fa"])
def test_the_page_asks_again_by_itself_and_the_file_downloads(
    live_url: str, page, settings, monkeypatch: pytest.MonkeyPatch, language: str
) -> None:
    settings.REPORTS_BUILT_APART_FROM = 4
    division = _event()
    _sign_in(page, live_url, division)
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_url}]
    )
    make = reports.make
    release = threading.Event()

    def held(*args, **kwargs):  # the build waits until the waiting page has been looked at
        release.wait(30)
        return make(*args, **kwargs)

    monkeypatch.setattr(reports, "make", held)
    url = f"{live_url}/desk/nowruz-cup/division/{division.pk}/report/crosstable.pdf"

    page.goto(url)

    said = page.inner_text("#prepared")
    assert page.evaluate("document.documentElement.dir") == ("rtl" if language == "fa" else "ltr")
    if language == "en":
        assert said.startswith("The report is being prepared")
    for width, height in ((1280, 800), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        if SHOTS:
            page.screenshot(path=str(Path(SHOTS) / f"prepared-{language}-{width}.png"))
    with page.expect_download(timeout=30_000) as download:
        release.set()  # the page asks again by itself, every two seconds
    page.wait_for_url("**wait=1")
    if language == "en":
        assert page.inner_text("#prepared").startswith("The report is ready and downloads now.")
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / f"prepared-ready-{language}.png"))
    content = Path(download.value.path()).read_bytes()
    assert download.value.suggested_filename == "nowruz-cup-a-crosstable-r1.pdf"
    assert "2 1 Quill, Ada 1 0 +40 W 2" in pdf_lines(content)
