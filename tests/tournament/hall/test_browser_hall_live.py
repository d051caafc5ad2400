"""The hall live: a result entered at the desk is on the display within seconds without a
reload, whatever view it shows (the ticker, and the view redrawn in place); a player's phone
page takes a result and the next round without a reload; and the round's clock on the display
and on a phone agree, each corrected to the server's time."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tournament.hall import clock
from tournament.models import Division, Game, Player, Round, Tournament
from tournament.phone import services as phones
from tournament.results import services as results

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"

pytestmark = [
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed"),
]

NAMES = ["رضا محمدی", "김민준", "Quill, Ada", "Crane, Ben"]


def _event(language: str = "") -> Division:
    tournament = Tournament.objects.create(name="Hall Live", slug="hall-live", language=language)
    division = Division.objects.create(tournament=tournament, name="A", self_report=True)
    people = [
        Player.objects.create(division=division, number=n, name=name, rating=1500)
        for n, name in enumerate(NAMES, start=1)
    ]
    Game.objects.create(
        division=division, round=1, table=1, player1=people[0], player2=people[1], first=1
    )
    Game.objects.create(
        division=division, round=1, table=2, player1=people[2], player2=people[3], first=2
    )
    Round.objects.create(division=division, number=1, published=True)
    return division


def _signed_in(browser, live_url: str, user: User):
    """A tab of its own for the desk, signed in as `user` (the display's stays a visitor's)."""
    client = Client()
    client.force_login(user)
    context = browser.new_context()
    cookie = client.cookies["sessionid"].value
    context.add_cookies([{"name": "sessionid", "value": cookie, "url": live_url}])
    return context.new_page()


def test_a_desk_result_is_on_the_display_within_seconds_without_a_reload(live_url, page) -> None:
    division = _event()
    director = User.objects.create_user("director")
    division.tournament.directors.add(director)
    division.display_pin = "pairings"  # not the results view: the ticker must show it
    division.save()
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(f"{live_url}/t/hall-live/A/display/")
    page.wait_for_selector("#display-view[data-view='pairings']")
    page.evaluate("window.__notReloaded = 'yes'")
    assert page.locator("#display-ticker").is_hidden()

    desk = _signed_in(page.context.browser, live_url, director)
    desk.goto(f"{live_url}/desk/hall-live/division/{division.pk}/round/1/")
    desk.fill("#id_line", "3 420 4 380")
    desk.press("#id_line", "Enter")
    desk.locator("#log", has_text="Saved").wait_for()

    ticker = page.locator("#display-ticker", has_text="420 – 380")
    ticker.wait_for(timeout=5_000)  # the display polls every 2 s
    text = page.inner_text("#display-ticker")
    assert "Quill, Ada" in text and "Crane, Ben" in text and "table 2" in text
    assert page.evaluate("window.__notReloaded") == "yes"
    assert page.get_attribute("#display-view", "data-view") == "pairings"
    page.screenshot(path="/tmp/live-display-ticker-1280.png")


def test_the_view_showing_is_redrawn_in_place(live_url, page) -> None:
    division = _event()
    division.display_pin = "results"
    division.save()
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(f"{live_url}/t/hall-live/A/display/")
    page.wait_for_selector("#display-view[data-view='results']")
    page.evaluate("window.__notReloaded = 'yes'")
    game = division.games.get(table=1)
    results.record_result(game, 455, 390, None)
    page.locator("#display-body", has_text="455 – 390").wait_for(timeout=5_000)
    assert page.evaluate("window.__notReloaded") == "yes"


def test_a_phone_page_takes_its_result_and_the_next_round_without_a_reload(live_url, page) -> None:
    division = _event()
    ada, ben = division.players.get(number=3), division.players.get(number=4)
    token = phones.issue_link(ben)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_url}/p/{token}/")
    page.evaluate("window.__notReloaded = 'yes'")
    page.get_by_label("Your score").fill("39")  # being typed when the result comes in
    results.record_result(division.games.get(table=2), 420, 380, None)
    page.locator(".now", has_text="Recorded:").wait_for(timeout=8_000)
    assert page.get_by_label("Your score").count() == 0
    Game.objects.create(division=division, round=2, table=7, player1=ben, player2=ada, first=1)
    Round.objects.create(division=division, number=2, published=True)
    page.locator(".now h2", has_text="Round 2").wait_for(timeout=8_000)
    assert page.inner_text(".table") == "Table 7"
    assert "You go first." in page.inner_text(".now")
    assert page.evaluate("window.__notReloaded") == "yes"
    # The form that came in the new body still sends: its CSRF field holds the page's token.
    page.get_by_label("Your score").fill("400")
    page.get_by_label("Quill, Ada's score").fill("350")
    page.get_by_role("button", name="Report").click()
    assert "Waiting for Quill, Ada to report too." in page.inner_text(".messages")


def _seconds(tab) -> int:
    tab.wait_for_selector("#round-clock:not([hidden])")
    return int(tab.get_attribute("#round-clock", "data-seconds") or "-1")


def test_the_clock_on_the_display_and_on_a_phone_agree(live_url, page) -> None:
    division = _event("fa")
    clock.start(division, 25, 1)
    token = phones.issue_link(division.players.get(number=1))
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(f"{live_url}/t/hall-live/A/display/")
    phone = page.context.browser.new_page()
    phone.set_viewport_size({"width": 390, "height": 844})
    phone.goto(f"{live_url}/p/{token}/")
    shown, on_phone = _seconds(page), _seconds(phone)
    assert 0 < shown <= 1500 and abs(shown - on_phone) <= 1
    assert re.fullmatch(r"\d\d:\d\d", page.inner_text("#round-clock .time"))

    clock.pause(division)
    page.wait_for_selector("#round-clock.paused", timeout=8_000)
    phone.wait_for_selector("#round-clock.paused", timeout=8_000)
    left = Division.objects.get(pk=division.pk).clock.remaining or 0
    text = f"{left // 60:02d}:{left % 60:02d}"
    assert page.inner_text("#round-clock .time") == phone.inner_text("#round-clock .time") == text
    assert page.get_attribute("html", "dir") == phone.get_attribute("html", "dir") == "rtl"
    page.screenshot(path="/tmp/live-display-clock-fa-1280.png")
    phone.screenshot(path="/tmp/live-phone-clock-fa-390.png", full_page=True)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390


def test_a_screen_beside_some_tables_tickers_their_results_alone(live_url, page) -> None:
    tournament = Tournament.objects.create(name="Big Hall", slug="big-hall")
    division = Division.objects.create(tournament=tournament, name="A", display_pin="pairings")
    names = [
        "رضا محمدی‌نژاد", "김민준", "Quill, Ada", "Crane, Ben", "Vale, Cora", "Moss, Eli",
        "سارا کریمی", "이서연", "North, Fay", "Stone, Gus", "Reed, Hal", "Bright, Ivy",
    ]  # fmt: skip
    people = [
        Player.objects.create(division=division, number=n, name=name, rating=1500)
        for n, name in enumerate(names, start=1)
    ]
    games = [
        Game.objects.create(
            division=division,
            round=1,
            table=t,
            player1=people[2 * t - 2],
            player2=people[2 * t - 1],
            first=1,
        )  # fmt: skip
        for t in range(1, 7)
    ]
    Round.objects.create(division=division, number=1, published=True)
    director = User.objects.create_user("director")
    tournament.directors.add(director)

    # The desk opens the screen for tables 4 to 6 from the players' reports page.
    desk = _signed_in(page.context.browser, live_url, director)
    desk.set_viewport_size({"width": 390, "height": 844})
    desk.goto(f"{live_url}/desk/big-hall/division/{division.pk}/claims/")
    desk.get_by_label("A screen beside some tables").fill("4-6")
    desk.screenshot(path="/tmp/live-desk-tables-390.png", full_page=True)
    assert desk.evaluate("document.documentElement.scrollWidth") <= 390
    desk.get_by_role("button", name="Open its display").click()
    assert desk.url.endswith("/t/big-hall/A/display/?tables=4-6")

    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(f"{live_url}/t/big-hall/A/display/?tables=4-6")
    page.wait_for_selector("#display-view[data-view='pairings']")
    assert page.inner_text("#display-title").endswith("division \u2068A\u2069 · tables 4–6")
    shown = page.inner_text("#display-body")
    assert "سارا کریمی" in shown and "Reed, Hal" in shown
    assert "김민준" not in shown and "Vale, Cora" not in shown  # tables 1 and 3
    for game, (one, two) in zip(games, [(400, 300), (410, 310), (420, 320), (430, 330),
                                        (440, 340), (450, 350)], strict=True):  # fmt: skip
        results.record_result(game, one, two, None)
    ticker = page.locator("#display-ticker", has_text="450 – 350")
    ticker.wait_for(timeout=5_000)  # the display polls every 2 s
    text = page.inner_text("#display-ticker")
    assert all(f"{s} – {s - 100}" in text for s in (430, 440, 450))
    assert "400 – 300" not in text and "420 – 320" not in text  # tables 1 and 3: not here
    assert "이서연" in text and "Bright, Ivy" in text
    page.screenshot(path="/tmp/live-display-tables-1280.png")
