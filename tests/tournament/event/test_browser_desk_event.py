"""A new director runs a whole small event from the desk, without the admin: creates it, pastes
8 players, checks in 7, pairs round 1 (one bye, the eighth left out), enters the results,
publishes, pairs round 2, locks the event and downloads the .tou file. Every desk and public
page it visits fits a 390-pixel phone without sideways scrolling."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from browser_support import SHOTS, _phone_width
from django.core.management import call_command

PLAYERS = [
    ("Ada Quill", 1850),
    ("Ben Crane", 1720),
    ("Cora Vale", 1640),
    ("Dev Patel", 1580),
    ("Eli Moss", 1490),
    ("Fay North", 1400),
    ("Gus Hale", 1350),
    ("Hal Reed", 1300),
]
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
pytestmark = [
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed"),
]


def test_a_new_director_runs_an_event_from_the_desk(live_url: str, page, tmp_path) -> None:
    call_command("createdirector", "dora", password="dora-pass-2027")
    base = live_url
    page.on("dialog", lambda dialog: dialog.accept())

    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", "dora")
    page.fill("input[name=password]", "dora-pass-2027")
    page.click("button[type=submit], input[type=submit]")
    page.wait_for_url(f"{base}/desk/")

    page.click("text=New tournament")
    page.fill("#id_name", "Club Night")
    page.fill("#id_div-0-name", "A")
    page.fill("#id_div-0-planned_rounds", "3")
    page.click("form.new-tournament button[type=submit]")
    page.wait_for_url(f"{base}/desk/club-night/")
    assert "Club Night created: you are its director." in page.inner_text("body")

    page.click("a:text-is('players')")
    page.fill("#id_players", "\n".join(f"{name}, {rating}" for name, rating in PLAYERS))
    page.click("#paste-form button[type=submit]")
    page.wait_for_load_state("networkidle")
    assert "8 players added to division A." in page.inner_text("body")

    from tournament.models import Division, Game, Round

    division = Division.objects.get(tournament__slug="club-night")
    check_in = f"{base}/desk/club-night/division/{division.pk}/check-in/"
    page.goto(check_in)
    for name, _ in PLAYERS[:7]:
        page.click(f"ul.check-in button:has-text('{name}')")
        page.wait_for_load_state("networkidle")
        assert f"{name} checked in." in page.inner_text("body")
    assert "7 of 8 checked in" in page.inner_text("body")

    page.goto(f"{base}/desk/club-night/division/{division.pk}/pairing/")
    page.fill("#id_round", "1")
    page.click("#pair-form button[type=submit]")
    page.wait_for_url(f"**/division/{division.pk}/round/1/pairings/")
    assert (
        "Not checked in, so left out of round 1 with a forfeit loss (−50): Hal Reed."
        in page.inner_text("body")
    )
    games = list(
        Game.objects.filter(division=division, round=1)
        .exclude(kind=Game.FORFEIT)
        .select_related("player1", "player2")
    )
    byes = [g for g in games if g.kind == Game.BYE]
    assert len(games) == 4 and len(byes) == 1
    assert "Hal Reed" not in {g.player1.name for g in games} | {
        g.player2.name for g in games if g.player2
    }

    # Before round 1's results complete (round 2 then pairs by itself): Gus will be away for
    # round 2, and the first table's first player (who wins below), in a wheelchair, always
    # sits at table 3.
    star = next(g for g in games if g.player2).player1
    page.goto(f"{base}/desk/club-night/division/{division.pk}/players/")
    page.fill("#id_absent_player", "7")
    page.fill("#id_absent_round", "2")
    page.click("#absent-form button[value='1']")
    page.wait_for_load_state("networkidle")
    assert "Gus Hale is absent in round 2: a forfeit loss when it is paired." in page.inner_text(
        "body"
    )
    page.fill("#id_table_player", str(star.number))
    page.fill("#id_table_table", "3")
    page.click("#table-form button[type=submit]")
    page.wait_for_load_state("networkidle")
    assert f"{star.name} sits at table 3 in every round paired from now on." in page.inner_text(
        "body"
    )

    page.goto(f"{base}/desk/club-night/division/{division.pk}/round/1/")
    # The bye was scored when the round was paired: only the games are entered.
    assert Game.objects.get(pk=byes[0].pk).score1 == 50
    lines = [
        f"{g.player1.number} {400 + 7 * i} {g.player2.number} {350 + 11 * i}"
        for i, g in enumerate(g for g in games if g.player2)
    ]
    for line in lines:
        page.fill("#id_line", line)
        page.press("#id_line", "Enter")
        page.wait_for_function(
            "n => document.querySelector('#log').innerText.includes(n)",
            arg=line.split(" ")[1],
        )
    page.wait_for_load_state("networkidle")
    assert all(g.score1 is not None for g in Game.objects.filter(division=division, round=1))

    page.goto(f"{base}/desk/club-night/division/{division.pk}/round/1/pairings/")
    page.click("#publish-form button[type=submit]")
    page.wait_for_load_state("networkidle")
    assert "Round 1 published" in page.inner_text("body")

    page.goto(f"{base}/desk/club-night/division/{division.pk}/pairing/")
    page.fill("#id_round", "2")
    page.click("#pair-form button[type=submit]")
    page.wait_for_url(f"**/division/{division.pk}/round/2/pairings/")
    # Hal is in now; Gus is away: three tables, a bye and Gus's forfeit loss.
    round_2 = Game.objects.filter(division=division, round=2).select_related("player1")
    assert sorted(g.kind for g in round_2) == ["bye", "forfeit", "played", "played", "played"]
    assert round_2.get(kind=Game.FORFEIT).player1.name == "Gus Hale"
    seated = round_2.filter(player1=star) | round_2.filter(player2=star)
    assert seated.get().table == 3
    assert not Round.objects.get(division=division, number=2).published
    page.click("#publish-form button[type=submit]")
    page.wait_for_load_state("networkidle")
    page.goto(f"{base}/t/club-night/A/")
    assert "Standings after round 1 (round 2 in play)" in page.inner_text("h3#standings-heading")

    # The printed pairings show the star's fixed table, with the legend.
    page.goto(f"{base}/t/club-night/A/round/2/")
    marked = page.locator("abbr.fixed-table")
    assert marked.count() == 3  # by table once, by name for both players
    assert "* a fixed table: the player sits there every round." in page.inner_text("body")

    # A player away after round 2 is paired: asked first (on a phone), naming both players,
    # then the pairing is their forfeit loss and the opponent's forfeit win.
    away = next(g for g in round_2 if g.player2 and star not in (g.player1, g.player2))
    page.goto(f"{base}/desk/club-night/division/{division.pk}/players/")
    page.set_viewport_size({"width": 390, "height": 844})
    page.fill("#id_absent_player", str(away.player1.number))
    page.fill("#id_absent_round", "2")
    page.click("#absent-form button[value='1']")
    page.wait_for_load_state("networkidle")
    question = page.inner_text("#absent-question")
    assert question == (
        f"{away.player1.name} is paired with {away.player2.name} in round 2. Marked absent, "
        f"{away.player1.name} gets a forfeit loss (−50) and {away.player2.name} a forfeit win "
        "(+50). Record it?"
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / "absent-confirm-390.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.click("#absent-confirm button[type=submit]")
    page.wait_for_load_state("networkidle")
    assert f"{away.player1.name} is absent in round 2: the pairing is changed" in page.inner_text(
        "body"
    )
    forfeits = Game.objects.filter(division=division, round=2, kind=Game.FORFEIT, table=away.table)
    assert sorted((g.player1.name, g.score1) for g in forfeits) == sorted(
        [(away.player1.name, -50), (away.player2.name, 50)]
    )
    page.goto(f"{base}/desk/club-night/division/{division.pk}/round/2/pairings/")
    assert page.locator("#no-warnings").count() == 1  # the forfeit is no extra bye
    page.goto(f"{base}/t/club-night/A/")
    assert page.inner_text("h3#standings-heading") == (
        "Standings after round 2 (1 of 3 results in; byes count when all are in)"
    )

    page.goto(f"{base}/desk/club-night/")
    page.click("text=Lock the tournament")
    page.wait_for_load_state("networkidle")
    assert "Club Night is locked" in page.inner_text("body")

    with page.expect_download() as download:
        page.click("a:text-is('.tou file')")
    tou = Path(download.value.path()).read_text(encoding="latin-1")
    assert "Club Night" in tou
    assert all(name in tou for name, _ in PLAYERS)

    # The summary: the winners so far, and the files for the rating submission.
    page.click("#summary-link")
    page.wait_for_url(f"{base}/desk/club-night/summary/")
    summary = page.inner_text("body")
    assert "Division A: rounds 2, 3 not played (of 3)" in summary
    with page.expect_download() as download:
        page.click("#download-tsh")
    archive = Path(download.value.path()).read_text(encoding="utf-8")
    assert archive.startswith("division A a.t\n#begin_file name=a.t\n")
    assert all(name in archive for name, _ in PLAYERS)

    # Every page of the event, desk and public, on a phone.
    d = division.pk
    game = Game.objects.filter(division=division, round=1, player2__isnull=False).first()
    urls = [
        "/desk/",
        "/desk/new/",
        "/desk/club-night/",
        "/desk/club-night/people/",
        "/desk/club-night/changes/",
        "/desk/club-night/summary/",
        "/desk/club-night/divisions/",
        f"/desk/club-night/division/{d}/players/",
        f"/desk/club-night/division/{d}/check-in/",
        f"/desk/club-night/division/{d}/pairing/",
        f"/desk/club-night/division/{d}/settings/",
        f"/desk/club-night/division/{d}/round/1/",
        f"/desk/club-night/division/{d}/round/2/pairings/",
        f"/desk/club-night/division/{d}/upload/",
        f"/desk/club-night/games/{game.pk}/",
        f"/desk/club-night/games/{game.pk}/scoresheet/",
        "/",
        "/t/club-night/",
        "/t/club-night/A/",
        "/t/club-night/A/round/1/",
        "/t/club-night/A/round/2/",
    ]
    widths = {url: _phone_width(page, base + url) for url in urls}
    assert {url: w for url, w in widths.items() if w > 390} == {}
