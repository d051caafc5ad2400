"""The player's phone taking part in the event, in Chromium at 390 px, in Persian and English:
checking in by phone once the desk opens it, a result said to be wrong reaching the desk's
dashboard and the desk's answer reaching the phone without a reload, and the division's
links as CSV."""

from __future__ import annotations

import csv
import io
import os
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import translation
from django.utils.translation import gettext

SHOTS = os.environ.get("SPREAD_SHOTS")
NAMES = ["کیان رضایی", "김민준", "Quill, Ada", "سارا احمدی"]


def _event(language: str, paired: bool):
    from tournament.models import Division, Game, Player, Round, Tournament

    tournament = Tournament.objects.create(
        name="Seoul–Tehran Open", slug=f"st-{language}", language=language
    )
    director = User.objects.create_user(f"director-{language}")
    tournament.directors.add(director)
    division = Division.objects.create(tournament=tournament, name="A", self_report=True)
    players = [
        Player.objects.create(division=division, number=n, name=name)
        for n, name in enumerate(NAMES, start=1)
    ]
    if paired:
        Game.objects.create(
            division=division, round=1, table=1, player1=players[0], player2=players[1], first=1
        )
        Game.objects.create(
            division=division, round=1, table=2, player1=players[2], player2=players[3], first=2
        )
        Round.objects.create(division=division, number=1, published=True)
    return division, director


def _desk(page, live_url: str, user: User, language: str):
    """A tab of its own for the desk, signed in as `user` and speaking `language` (the
    phone's stays a visitor's, in the tournament's language)."""
    client = Client()
    client.force_login(user)
    context = page.context.browser.new_context(viewport={"width": 390, "height": 844})
    context.add_cookies(
        [
            {"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_url},
            {"name": "django_language", "value": language, "url": live_url},
        ]
    )
    return context.new_page()


def _shot(page, name: str) -> None:
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)


def _fits(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, page.url


def _said(language: str, text: str) -> str:
    with translation.override(language):
        return gettext(text)


@pytest.mark.parametrize("language", ["fa", "en"])
def test_a_player_checks_in_by_phone_once_the_desk_lets_them(
    live_url: str, page, language: str
) -> None:
    from tournament.phone import services as phone

    division, director = _event(language, paired=False)
    token = phone.issue_link(division.players.get(number=1))
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_url}/p/{token}/")
    assert page.locator("form[action$='/check-in']").count() == 0

    desk = _desk(page, live_url, director, language)
    desk.goto(f"{live_url}/desk/{division.tournament.slug}/division/{division.pk}/check-in/")
    desk.click("#self-check-in button[value=on]")
    desk.wait_for_selector("#self-check-in button[value=off]")

    page.reload()
    page.click("form[action$='/check-in'] button")
    page.wait_for_selector(".checked-in")
    assert page.locator("html").get_attribute("dir") == ("rtl" if language == "fa" else "ltr")
    _fits(page)
    _shot(page, f"checkin-phone-{language}-390")
    player = division.players.get(number=1)
    assert (player.checked_in, player.checked_in_by) == (True, "phone")

    desk.reload()
    row = desk.locator(".check-in li", has_text=NAMES[0]).inner_text()
    assert _said(language, "checked in by phone") in row
    _fits(desk)
    _shot(desk, f"checkin-desk-{language}-390")


@pytest.mark.parametrize("language", ["fa", "en"])
def test_a_dispute_reaches_the_dashboard_and_its_answer_the_phone(
    live_url: str, page, language: str
) -> None:
    from tournament.models import Dispute
    from tournament.phone import services as phone
    from tournament.results import services as results

    division, director = _event(language, paired=True)
    results.enter_line(division, 1, "1 420 2 380", director)
    token = phone.issue_link(division.players.get(number=2))  # 김민준, who lost
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_url}/p/{token}/")
    page.click("#dispute-now")
    page.wait_for_selector("#dispute-form")
    words = "امتیاز من ۴۰۰ بود، نه ۳۸۰" if language == "fa" else "I had 400, not 380."
    page.fill("#id_text", words)
    _fits(page)
    _shot(page, f"dispute-form-{language}-390")
    page.click("#dispute-form button[type=submit]")
    page.wait_for_selector(".dispute")
    assert words in page.inner_text(".dispute q.words")
    _fits(page)
    _shot(page, f"dispute-sent-{language}-390")

    desk = _desk(page, live_url, director, language)
    desk.goto(f"{live_url}/desk/{division.tournament.slug}/")
    item = desk.locator("li.unresolved-dispute")
    assert item.count() == 1 and words in item.inner_text() and NAMES[1] in item.inner_text()
    _fits(desk)
    _shot(desk, f"dispute-dashboard-{language}-390")
    item.locator("button").click()
    desk.wait_for_selector("li.unresolved-dispute", state="detached")
    assert Dispute.objects.get().answer == "stands"

    # The phone, left open, shows the answer at its next poll: no reload.
    answer = _said(language, "The desk answered: it stands.")
    page.wait_for_function(
        "t => [...document.querySelectorAll('.dispute .answer')].some(e => e.innerText === t)",
        arg=answer,
    )
    _fits(page)
    _shot(page, f"dispute-answered-{language}-390")


@pytest.mark.parametrize("language", ["fa", "en"])
def test_the_links_come_as_csv(live_url: str, page, language: str) -> None:
    from tournament.phone import services as phone

    division, director = _event(language, paired=False)
    evil = division.players.get(number=3)
    evil.name = "=HYPERLINK(1)"
    evil.save()
    desk = _desk(page, live_url, director, language)
    desk.goto(f"{live_url}/desk/{division.tournament.slug}/division/{division.pk}/links/")
    _fits(desk)
    desk.click("#links-message summary")
    lines = desk.input_value("#links-text").split("\n")
    assert len(lines) == 4
    _shot(desk, f"links-desk-{language}-390")
    with desk.expect_download() as download:
        desk.click("#links-csv")
    body = Path(download.value.path()).read_bytes().decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(body)))
    assert [r[:2] for r in rows[1:]] == [
        ["1", NAMES[0]],
        ["2", NAMES[1]],
        ["3", "'=HYPERLINK(1)"],
        ["4", NAMES[3]],
    ]
    for number, row in enumerate(rows[1:], start=1):
        token = row[3].rsplit("/p/", 1)[1].strip("/")
        assert phone.player_for(token).number == number
        assert row[3] in lines[number - 1]
