"""A director logs in, enters a round's results, uploads a scoresheet, and the public standings
show the new ranks: in headless Chromium (Debian's, at /usr/bin/chromium) driven by Playwright."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from django.core.management import call_command

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
DEMO = Path(__file__).resolve().parents[3] / "fixtures" / "demo"

pytestmark = [
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed"),
]


def _standings(page, base: str) -> list[str]:
    page.goto(f"{base}/t/demo/A/")
    return [row.inner_text().split("\t")[1].strip() for row in page.locator("table tbody tr").all()]


def test_a_director_enters_a_round_uploads_a_scoresheet_and_the_standings_follow(
    live_url: str, page, tmp_path: Path
) -> None:
    call_command("loaddemo")
    base = live_url
    assert _standings(page, base) == [
        "Cora Vale",
        "Fay North",
        "Eli Moss",
        "Ben Crane",
        "Dev Patel",
        "Ada Quill",
    ]

    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", "director")
    page.fill("input[name=password]", "spread-demo")
    page.click("button[type=submit], input[type=submit]")

    from tournament.models import Division, Game

    division = Division.objects.get(tournament__slug="demo", name="A")
    page.goto(f"{base}/desk/demo/division/{division.pk}/round/4/")
    for line in ["1 420 5 380", "3 400 6 350", "2 390 4 410"]:
        page.fill("#id_line", line)
        page.press("#id_line", "Enter")
        page.wait_for_function(
            "line => document.querySelector('#log').innerText.includes(line.split(' ')[1])",
            arg=line,
        )
    page.wait_for_load_state("networkidle")
    entered = Game.objects.filter(division=division, round=4).order_by("table")
    assert [(g.score1, g.score2) for g in entered] == [(420, 380), (400, 350), (390, 410)]

    # Ada against Eli, as a record whose final scores (305 to 340) are not the entered 420 to 380.
    sheet = tmp_path / "ada-eli.gcg"
    text = (DEMO / "a1-ada-ben.gcg").read_text(encoding="utf-8")
    sheet.write_text(
        text.replace("#player2 Ben Ben Crane", "#player2 Eli Eli Moss").replace(">Ben:", ">Eli:"),
        encoding="utf-8",
    )
    game = entered[0]
    page.goto(f"{base}/desk/demo/games/{game.pk}/")
    page.set_input_files("input[type=file]", str(sheet))
    page.click("form[enctype='multipart/form-data'] button[type=submit]")
    page.wait_for_load_state("networkidle")
    page.goto(f"{base}/desk/demo/games/{game.pk}/")
    assert "flagged" in page.inner_text("body")

    # Cora 3.5–0.5 +146, Fay 2–2 +21, Ada 2–2 −15, Dev 2–2 −29, Eli 1.5–2.5 −91, Ben 1–3 −32.
    assert _standings(page, base) == [
        "Cora Vale",
        "Fay North",
        "Ada Quill",
        "Dev Patel",
        "Eli Moss",
        "Ben Crane",
    ]


def test_a_director_pairs_a_round_checks_it_and_publishes_it(live_url: str, page) -> None:
    call_command("loaddemo")
    base = live_url
    from tournament.models import Division, Round

    division = Division.objects.get(tournament__slug="demo", name="B")
    assert page.goto(f"{base}/t/demo/B/round/3/").status == 404

    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", "director")
    page.fill("input[name=password]", "spread-demo")
    page.click("button[type=submit], input[type=submit]")

    page.goto(f"{base}/desk/demo/division/{division.pk}/pairing/")
    page.fill("#id_round", "3")
    page.click("#pair-form button[type=submit]")
    page.wait_for_url(f"**/division/{division.pk}/round/3/pairings/")
    assert "Round 3 paired by swiss" in page.inner_text("body")
    assert page.locator("#no-warnings").count() == 1
    # Gus has the bye; Ivy v Jon and Lea v Kai, as the demo's standings and byes give it.
    rows = [r.inner_text() for r in page.locator("#pairings tbody tr").all()]
    assert len(rows) == 3 and "Gus Hale" in rows[2] and "bye" in rows[2]
    assert page.goto(f"{base}/t/demo/B/round/3/").status == 404  # not published yet

    # Jon (3) for Lea (5): Jon meets Kai and Ivy meets Lea again, which the division allows.
    page.goto(f"{base}/desk/demo/division/{division.pk}/round/3/pairings/")
    page.fill("#id_a", "3")
    page.fill("#id_b", "5")
    page.click("#swap-form button[type=submit]")
    page.wait_for_load_state("networkidle")
    assert "Swapped Jon Reed and Lea Frost" in page.inner_text("body")
    assert page.locator("#warnings [data-code=rematch]").count() == 2

    page.click("#publish-form button[type=submit]")
    page.wait_for_load_state("networkidle")
    assert "Round 3 published" in page.inner_text("body")
    assert Round.objects.get(division=division, number=3).published
    assert page.goto(f"{base}/t/demo/B/round/3/").status == 200
    assert "Gus Hale" in page.inner_text("body")


STRICT_CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:"


def test_the_desk_works_under_a_strict_content_security_policy(live_url: str, page) -> None:
    """Every response carries a CSP without 'unsafe-inline': the styles apply, the live check
    and keyboard entry of results work, and the browser reports nothing blocked."""
    call_command("loaddemo")
    blocked: list[str] = []
    page.on(
        "console",
        lambda msg: blocked.append(msg.text) if "Content Security Policy" in msg.text else None,
    )

    def with_csp(route) -> None:
        response = route.fetch()
        route.fulfill(
            response=response,
            headers={**response.headers, "content-security-policy": STRICT_CSP},
        )

    page.route("**/*", with_csp)
    page.goto(f"{live_url}/accounts/login/")
    page.fill("input[name=username]", "director")
    page.fill("input[name=password]", "spread-demo")
    page.click("button[type=submit], input[type=submit]")

    from tournament.models import Division, Game

    division = Division.objects.get(tournament__slug="demo", name="A")
    page.goto(f"{live_url}/desk/demo/division/{division.pk}/round/4/")
    # spread.css gives the header its green; desk.css the entry line its monospace font.
    header = page.eval_on_selector("header", "e => getComputedStyle(e).backgroundColor")
    assert header == "rgb(31, 111, 74)"
    assert "monospace" in page.eval_on_selector("#id_line", "e => getComputedStyle(e).fontFamily")
    page.fill("#id_line", "1 420 5 380")
    page.wait_for_selector("#check .after")
    assert page.inner_text("#check .after").startswith("Saves: ")
    page.press("#id_line", "Enter")
    page.wait_for_function("() => document.querySelector('#log').innerText.includes('420')")
    game = Game.objects.get(division=division, round=4, table=1)
    assert (game.score1, game.score2) == (420, 380)
    assert blocked == []
