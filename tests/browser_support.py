"""The browser tests' server and Chromium (Debian's, at /usr/bin/chromium, driven by
Playwright), and the helpers more than one of them uses. Its fixtures are imported into
tests/conftest.py, so that a browser test in any folder finds them; every test that takes
`page` is marked `browser` there (`pytest -m "not browser"` leaves them out)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"

# Playwright's sync API runs an event loop in this thread; the ORM calls of the test itself
# are plain synchronous ones.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

# Screenshots to look at by hand, when SPREAD_SHOTS names a folder.
SHOTS = os.environ.get("SPREAD_SHOTS")


def _phone_width(page, url: str) -> int:
    """The page's width on a 390-pixel phone (screenshots at 390 and 1280 with SPREAD_SHOTS)."""
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(url)
    width = page.evaluate("document.documentElement.scrollWidth")
    if SHOTS:
        name = url.split("//", 1)[1].split("/", 1)[1].strip("/").replace("/", "_") or "home"
        page.screenshot(path=str(Path(SHOTS) / f"{name}-390.png"), full_page=True)
        page.set_viewport_size({"width": 1280, "height": 900})
        page.goto(url)
        page.screenshot(path=str(Path(SHOTS) / f"{name}-1280.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})
    return int(width)


@pytest.fixture
def live_url(transactional_db):
    """A server for this test alone, so that its database connections close with it."""
    from django.contrib.staticfiles.handlers import StaticFilesHandler
    from django.db import connections
    from django.test.testcases import LiveServerThread

    shared = {}
    for conn in connections.all():
        if conn.vendor == "sqlite" and conn.is_in_memory_db():
            conn.inc_thread_sharing()  # the in-memory test database is visible to one connection
            shared[conn.alias] = conn
    # The app's static files found where they are, as StaticLiveServerTestCase serves them.
    thread = LiveServerThread("127.0.0.1", StaticFilesHandler, shared, port=0)
    thread.daemon = True
    thread.start()
    thread.is_ready.wait()
    if thread.error:
        raise thread.error
    yield f"http://127.0.0.1:{thread.port}"
    thread.terminate()
    for conn in shared.values():
        conn.dec_thread_sharing()


@pytest.fixture
def page():
    yield from _chromium()


@pytest.fixture
def touch_page():
    """A 390 x 844 phone's page that takes touches (`has_touch`: `.tap()`), as Chromium's
    touch emulation gives them."""
    yield from _chromium(has_touch=True, viewport={"width": 390, "height": 844})


def _chromium(**context):
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
            ],
        )
        tab = browser.new_page(**context)
        tab.set_default_timeout(15_000)
        yield tab
        # The test's own queries ran while Playwright's event loop was running, on connections
        # of that context: closed in it, so that the test database can be dropped after the run.
        from django.db import connections

        connections.close_all()
        browser.close()


def board_game(event: str, language: str, rules: str, names: tuple[str, str]):
    """A published round-1 game of a new self-reporting event `event`, and the first player's
    phone link: what the board entry's tests enter a whole game on."""
    from django.utils.text import slugify

    from tournament.models import Division, Game, Player, Round, Tournament
    from tournament.phone import services as phone

    tournament = Tournament.objects.create(name=event, slug=slugify(event), language=language)
    division = Division.objects.create(
        tournament=tournament, name="A", ruleset=rules, self_report=True
    )
    one, two = (
        Player.objects.create(division=division, number=n, name=names[n - 1]) for n in (1, 2)
    )
    Round.objects.create(division=division, number=1, published=True)
    game = Game.objects.create(
        division=division, round=1, table=1, player1=one, player2=two, first=1
    )
    return game, phone.issue_link(one)
