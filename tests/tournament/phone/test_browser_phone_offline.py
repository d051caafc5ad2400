"""The player's phone through the venue's Wi-Fi, in Chromium at 390 px: a report made with the
browser offline is kept on the phone, shown as not sent yet, survives the page opened again
offline (from what the service worker kept), and is recorded once when the network is back; a
new result and a new pairing raise a notification once the player has asked for them."""

from __future__ import annotations

import os
from pathlib import Path

from django.core.cache import cache

SHOTS = os.environ.get("SPREAD_SHOTS")

# The Notifications API as the page sees it, recording what it is asked to show.
NOTIFICATIONS = """
window.__notes = [];
window.__asked = 0;
class Recorded {
  constructor(title, options) { window.__notes.push([title, options.body]); }
}
Recorded.permission = "default";
Recorded.requestPermission = function () {
  window.__asked += 1;
  Recorded.permission = "granted";
  return Promise.resolve("granted");
};
window.Notification = Recorded;
"""


def _controlled(page) -> None:
    """Wait until the page's service worker is active and controls it."""
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")


def _shot(page, name: str) -> None:
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)


def test_a_report_made_offline_is_recorded_once_when_the_network_is_back(
    live_url: str, page, division
) -> None:
    from tournament.models import Change, Claim, Game, SentOnce
    from tournament.phone import services as phone

    cache.clear()
    division.self_report = True
    division.save()
    ada, ben = division.players.get(number=1), division.players.get(number=2)
    game = Game.objects.get(division=division, round=1, player1=ada)
    phone.report(ben, game, 380, 420)  # Ben's phone reported already
    token = phone.issue_link(ada)
    url = f"{live_url}/p/{token}/"

    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(url)
    _controlled(page)
    page.context.set_offline(True)
    page.fill("input[name=my_score]", "420")
    page.fill("input[name=opponent_score]", "380")
    page.click("form.report button[type=submit]")
    waiting = page.locator("#phone-queue li.not-sent")
    waiting.wait_for()
    assert waiting.all_inner_texts() == ["Not sent yet: your report of round 1: 420–380"]
    page.locator("#phone-offline-note").wait_for()
    _shot(page, "phone-offline-not-sent-390")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    game.refresh_from_db()
    assert game.score1 is None
    assert list(Claim.objects.values_list("player__number", flat=True)) == [2]

    # The page opened again with no network: what the worker kept, the report still waiting.
    page.reload()
    assert page.locator("h1").inner_text() == "Quill, Ada"
    assert page.locator(".now h2").inner_text() == "Round 1"
    waiting.wait_for()
    assert waiting.all_inner_texts() == ["Not sent yet: your report of round 1: 420–380"]

    page.context.set_offline(False)
    page.locator(".messages li").wait_for()
    assert page.locator(".messages li").all_inner_texts() == [
        "Both reports agree: the result is recorded."
    ]
    assert page.locator("#phone-queue li").count() == 0
    assert page.locator(".now .result").inner_text() == (
        "Recorded: Quill, Ada 420 – Crane, Ben 380"
    )
    _shot(page, "phone-offline-sent-390")
    game.refresh_from_db()
    assert (game.score1, game.score2) == (420, 380)
    assert Change.objects.filter(game=game).count() == 1
    assert SentOnce.objects.count() == 1
    assert page.evaluate("indexedDB.databases().then(d => d.map(x => x.name))") == ["spread-phone"]


def test_a_new_result_and_a_new_pairing_are_told_once_asked(live_url: str, page, division) -> None:
    from tournament.models import Game
    from tournament.phone import services as phone

    cache.clear()
    division.self_report = True
    division.save()
    ada, ben = division.players.get(number=1), division.players.get(number=2)
    game = Game.objects.get(division=division, round=1, player1=ada)
    token = phone.issue_link(ada)

    page.add_init_script(NOTIFICATIONS)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_url}/p/{token}/")
    button = page.locator("#phone-notify")
    assert button.inner_text() == "Tell me when I am paired or a result is recorded"
    _shot(page, "phone-notify-390")
    button.click()
    assert button.is_hidden()
    assert page.evaluate("window.__asked") == 1

    phone.report(ada, game, 420, 380)
    phone.report(ben, game, 380, 420)
    page.wait_for_function("() => window.__notes.length >= 1", timeout=20_000)
    Game.objects.create(division=division, round=2, table=2, player1=ben, player2=ada, first=1)
    page.wait_for_function("() => window.__notes.length >= 2", timeout=20_000)
    assert page.evaluate("window.__notes") == [
        ["A result is recorded", "Recorded: Quill, Ada 420 – Crane, Ben 380"],
        ["You are paired", "Round 2 · Table 2 · against 2 Crane, Ben"],
    ]

    # Asked once: not offered again.
    page.reload()
    assert page.locator("#phone-notify").is_hidden()
    assert page.evaluate("window.__asked") == 0


def test_a_scoresheet_saved_offline_is_sent_once_when_the_network_is_back(
    live_url: str, page, division, record
) -> None:
    from tournament.models import Game, Scoresheet, SentOnce
    from tournament.phone import services as phone

    cache.clear()
    division.self_report = True
    division.save()
    ada = division.players.get(number=1)
    game = Game.objects.select_related("player1", "player2").get(
        division=division, round=1, player1=ada
    )
    token = phone.issue_link(ada)

    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_url}/p/{token}/games/{game.pk}/sheet")
    _controlled(page)
    page.context.set_offline(True)
    page.fill("#id_gcg", record())
    page.click("#sheet-form button[type=submit]")
    waiting = page.locator("#phone-queue li.not-sent")
    waiting.wait_for()
    assert waiting.all_inner_texts() == ["Not sent yet: your scoresheet of round 1"]
    _shot(page, "phone-offline-sheet-390")
    assert not Scoresheet.objects.exists()

    page.context.set_offline(False)
    page.wait_for_url(f"{live_url}/p/{token}/")
    # The whole verified sheet is Ada's report too (`phone/sheet_reports.py`).
    assert page.locator(".messages li").all_inner_texts() == [
        "Scoresheet saved: the engine found nothing wrong. It is your report of the result: "
        "20–24. Reported. Waiting for Crane, Ben to report too."
    ]
    assert Scoresheet.objects.filter(game=game, sent_by=ada).count() == 1
    assert SentOnce.objects.count() == 1


def test_a_sheet_tapped_on_the_board_and_saved_offline_is_sent_once_when_back(
    live_url: str, page
) -> None:
    """The board needs the server for each turn; a sheet whose Save finds no network goes to
    the phone's queue and is saved once the network is back."""
    from tests.tournament.phone.test_browser_phone_game_news import _board_game, _setup
    from tournament.models import Scoresheet, SentOnce

    division, game, one, _two = _setup("en")
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_url}/p/{one}/games/{game.pk}/sheet")
    _controlled(page)
    _board_game(page, "en")
    page.context.set_offline(True)
    page.get_by_role("button", name="Save", exact=True).click()
    waiting = page.locator("#phone-queue li.not-sent")
    waiting.wait_for()
    assert waiting.all_inner_texts() == ["Not sent yet: your scoresheet of round 1"]
    assert not Scoresheet.objects.exists()

    page.context.set_offline(False)
    page.wait_for_url(f"{live_url}/p/{one}/")
    assert page.locator(".messages li").all_inner_texts()[0].startswith(
        "Scoresheet saved: the engine found nothing wrong."
    )
    assert Scoresheet.objects.filter(game=game, sent_by__number=1).count() == 1
    assert SentOnce.objects.count() == 1
