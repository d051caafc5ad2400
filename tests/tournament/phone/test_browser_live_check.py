"""The phone's scoresheet page as a player types: the table of moves is drawn from the check's
bounded answer (each turn as five numbers, the first findings, how many more), and a record
over the bounds says so in the summary line."""

from __future__ import annotations

import os
from pathlib import Path

SHOTS = os.environ.get("SPREAD_SHOTS")


def _setup() -> tuple[str, int]:
    from tournament.models import Division, Game, Player, Round, Tournament
    from tournament.phone import services as phone

    tournament = Tournament.objects.create(name="Seoul–Tehran Open", slug="st", language="fa")
    division = Division.objects.create(tournament=tournament, name="A", self_report=True)
    one = Player.objects.create(division=division, number=1, name="کیان رضایی")
    two = Player.objects.create(division=division, number=2, name="김민준")
    game = Game.objects.create(
        division=division, round=1, table=1, player1=one, player2=two, first=1
    )
    Round.objects.create(division=division, number=1, published=True)
    return phone.issue_link(one), game.pk


def _type(page, text: str) -> None:
    page.fill("#id_gcg", text)
    page.dispatch_event("#id_gcg", "input")


def test_the_phone_draws_the_moves_from_the_bounded_answer(live_url: str, page) -> None:
    token, game = _setup()
    header = "#player1 Kian کیان رضایی\n#player2 Minjun 김민준\n"
    for width in (390, 1280):
        page.set_viewport_size({"width": width, "height": 900})
        response = page.goto(f"{live_url}/p/{token}/games/{game}/sheet")
        assert response.status == 200, page.content()[:3000]
        _type(page, header + ">Kian: DJINNRS 8D DJINN +32 32\n>Minjun: ABHITWY I7 WITHY +33 33\n")
        page.wait_for_function(
            "() => document.querySelectorAll('#sheet-lines tbody tr').length === 2"
            " && document.querySelector('#sheet-lines tbody td.num').innerText === '32'"
        )
        rows = page.eval_on_selector_all(
            "#sheet-lines tbody tr", "rows => rows.map(r => [...r.cells].map(c => c.innerText))"
        )
        assert [r[0] for r in rows] == ["3", "4"]
        assert [r[2:] for r in rows] == [["32", "30", "32", "30"], ["33", "33", "33", "33"]]
        assert page.eval_on_selector("#sheet-lines tbody tr", "r => r.className") == "wrong"
        if SHOTS:
            page.screenshot(path=str(Path(SHOTS) / f"live-check-{width}.png"), full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth") <= width

    # Many findings: the first are listed by their lines, the others counted on top.
    junk = "\n".join(f">Kian: {'Q' * 60}" for _ in range(100))
    _type(page, header + junk + "\n")
    page.wait_for_function("() => document.querySelector('#sheet-record-findings').innerText")
    counted = page.inner_text("#sheet-record-findings")
    assert "40" in counted  # 100 findings, 60 listed
    assert page.eval_on_selector_all("#sheet-lines tbody .finding", "f => f.length") == 60
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / "live-check-many-1280.png"), full_page=True)

    # Over the bounds: refused in one line, said where the summary goes.
    _type(page, header + "#note x\n" * 1200)
    page.wait_for_function(
        "() => document.querySelector('#sheet-summary').innerText.includes('1,202')"
    )
    assert page.get_attribute("#sheet-summary", "class") == "warning"


def test_the_desks_typing_page_draws_the_same_answer(live_url: str, page) -> None:
    from django.contrib.auth.models import User

    from tournament.models import Game

    _setup()
    game = Game.objects.get()
    director = User.objects.create_user("dee", password="typing-at-the-desk")
    game.division.tournament.directors.add(director)
    page.goto(f"{live_url}/accounts/login/")
    page.fill("input[name=username]", "dee")
    page.fill("input[name=password]", "typing-at-the-desk")
    page.click("button[type=submit], input[type=submit]")
    page.wait_for_url(f"{live_url}/desk/")
    header = "#player1 Kian کیان رضایی\n#player2 Minjun 김민준\n"
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(f"{live_url}/desk/st/games/{game.pk}/scoresheet/")
        page.fill("#id_gcg", header + ">Kian: DJINNRS 8D DJINN +32 32\n")
        page.dispatch_event("#id_gcg", "input")
        page.wait_for_function(
            "() => document.querySelector('#sheet-lines tbody td.num + td.num')"
            " && document.querySelectorAll('#sheet-lines tbody td.num')[1].innerText === '30'"
        )
        cells = page.eval_on_selector_all("#sheet-lines tbody td", "c => c.map(x => x.innerText)")
        assert cells[0] == "3" and cells[2:] == ["32", "30", "32", "30"]
        if SHOTS:
            page.screenshot(path=str(Path(SHOTS) / f"desk-live-check-{width}.png"), full_page=True)
