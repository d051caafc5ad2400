"""The rating-list page and the playoff pages in Chromium: a WESPA list uploaded, previewed
and confirmed; a best-of-3 final entered at the desk and shown in public. Every page fits a
390-pixel phone without sideways scrolling."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from browser_support import SHOTS, _phone_width
from django.core.management import call_command

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
pytestmark = [
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed"),
]

WESPA = b"""NICKstateNAME vic24.tou 20240612
AQUI UK Ada Quill 412 2105 20240601
BCRA NZ Ben Crane 38 1720 20231105
BCRB NZ Ben Crane 3 1100 20231105
CVAL AUS Cora Vale 7 1488 20240315
"""


def test_ratings_from_a_list_and_a_final(live_url: str, page, tmp_path) -> None:
    from tournament.event import services as event
    from tournament.models import Division, Game
    from tournament.players import roster as players

    call_command("createdirector", "dora", password="dora-pass-2027")
    from django.contrib.auth.models import User

    dora = User.objects.get(username="dora")
    t = event.create_tournament(dora, "Club Night", [event.NewDivision(name="A")])
    division: Division = t.divisions.get()
    roster = "Quill, Ada, 1800\nBen Crane, 1700\nCora Vale, 0\nDev Patel, 1580"
    players.add_players(division, roster, dora)
    base = live_url

    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", "dora")
    page.fill("input[name=password]", "dora-pass-2027")
    page.click("button[type=submit], input[type=submit]")
    page.wait_for_url(f"{base}/desk/")

    ratings_url = f"{base}/desk/club-night/division/{division.pk}/players/ratings/"
    widths = {ratings_url: _phone_width(page, ratings_url)}
    page.goto(ratings_url)
    page.check("input[value=wespa]")
    list_file = tmp_path / "rating.dat"
    list_file.write_bytes(WESPA)
    page.set_input_files("input[type=file]", str(list_file))
    page.click("#rating-list-form button[type=submit]")
    page.wait_for_load_state("networkidle")
    body = page.inner_text("body")
    assert "2 ratings to change" in body
    assert "1 player matched more than one entry (not changed)" in body
    assert "1 player not found (not changed)" in body
    page.set_viewport_size({"width": 390, "height": 844})
    widths["preview"] = int(page.evaluate("document.documentElement.scrollWidth"))
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / "rating-list-preview-390.png"), full_page=True)
        page.set_viewport_size({"width": 1280, "height": 900})
        page.screenshot(path=str(Path(SHOTS) / "rating-list-preview-1280.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.click("#rating-list-confirm button[type=submit]")
    page.wait_for_load_state("networkidle")
    assert "2 ratings set from the WESPA ratings list." in page.inner_text("body")
    ratings = list(division.players.order_by("number").values_list("rating", flat=True))
    assert ratings == [2105, 1700, 1488, 1580]

    # Round 1 played (Ada beats Ben, Cora beats Dev), then a best-of-3 final of the top two.
    p = {pl.number: pl for pl in division.players.all()}
    for table, (one, two) in enumerate([(1, 2), (3, 4)], start=1):
        Game.objects.create(
            division=division,
            round=1,
            table=table,
            player1=p[one],
            player2=p[two],
            score1=450,
            score2=400,
            first=1,
        )
    playoff_url = f"{base}/desk/club-night/division/{division.pk}/playoff/"
    widths["setup"] = _phone_width(page, playoff_url)
    page.goto(playoff_url)
    page.fill("#id_seeds", "2")
    page.select_option("#id_length", "3")
    page.fill("#id_after", "1")
    page.click("#playoff-form button[type=submit]")
    page.wait_for_load_state("networkidle")
    page.click("#playoff-publish button[type=submit]")
    page.wait_for_load_state("networkidle")
    for score1, score2 in ((450, 400), (390, 410), (500, 350)):
        page.fill("input[name=score1]", str(score1))
        page.fill("input[name=score2]", str(score2))
        page.click(".playoff-entry button[type=submit]")
        page.wait_for_load_state("networkidle")
        if score1 == 450:  # one game in: the entry form for game 2, on a phone
            widths["entry"] = _phone_width(page, playoff_url)
            if SHOTS:
                page.set_viewport_size({"width": 390, "height": 844})
                page.goto(playoff_url)
                page.screenshot(path=str(Path(SHOTS) / "playoff-entry-390.png"), full_page=True)
                page.set_viewport_size({"width": 1280, "height": 900})
                page.goto(playoff_url)
    assert "Won by" in page.inner_text("body")
    widths[playoff_url] = _phone_width(page, playoff_url)
    public = f"{base}/t/club-night/A/playoff/"
    widths[public] = _phone_width(page, public)
    page.goto(public)
    assert "2–1" in page.inner_text("body")
    assert {url: w for url, w in widths.items() if w > 390} == {}
