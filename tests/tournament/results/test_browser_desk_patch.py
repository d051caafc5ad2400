"""A save at the desk patches the page: the saved game's line, exactly as the round's table
writes it, the round's other lines untouched, the undo and the latest changes renewed; a
forfeit (which makes the opponent's game) brings the whole round again."""

from __future__ import annotations


def test_a_save_patches_its_line_and_the_notes(live_url: str, page) -> None:
    from django.contrib.auth.models import User

    from tournament.models import Division, Game, Player, Tournament

    director = User.objects.create_user("alice", password="spread-test-pw")
    tournament = Tournament.objects.create(name="Spring Open", slug="spring-open")
    tournament.directors.add(director)
    division = Division.objects.create(tournament=tournament, name="A")
    names = ["Quill, Ada", "سارا احمدی", "김민준", "Vale, Cora"]
    ada, sara, kim, cora = (
        Player.objects.create(division=division, number=n, name=name)
        for n, name in enumerate(names, start=1)
    )
    first = Game.objects.create(
        division=division, round=1, table=1, player1=ada, player2=sara, first=1
    )
    second = Game.objects.create(
        division=division, round=1, table=2, player1=kim, player2=cora, first=2
    )

    page.goto(f"{live_url}/accounts/login/")
    page.fill("input[name=username]", "alice")
    page.fill("input[name=password]", "spread-test-pw")
    page.click("button[type=submit], input[type=submit]")
    page.goto(f"{live_url}/desk/spring-open/division/{division.pk}/round/1/")
    page.evaluate("() => { window.notReloaded = true; }")
    other = page.eval_on_selector(f'tr[data-game="{second.pk}"]', "r => r.outerHTML")

    page.fill("#id_line", "2 389 1 455")
    page.wait_for_selector("#check .after")
    page.press("#id_line", "Enter")
    page.wait_for_function("() => document.querySelector('#log').innerText.includes('455')")

    line = page.eval_on_selector(f'tr[data-game="{first.pk}"]', "r => r.outerHTML")
    assert line == (
        f'<tr class="" data-game="{first.pk}"><td>1</td><td>1 <bdi>Quill, Ada</bdi></td>'
        '<td class="num">455</td><td>2 <bdi>سارا احمدی</bdi></td><td class="num">389</td>'
        f'<td>1</td><td><a href="/desk/spring-open/games/{first.pk}/">correct</a></td></tr>'
    )
    assert page.eval_on_selector(f'tr[data-game="{second.pk}"]', "r => r.outerHTML") == other
    assert page.evaluate("() => window.notReloaded") is True  # patched, not reloaded
    assert page.inner_text("#undo-form .muted") == (
        "1 Quill, Ada 455 – 2 سارا احمدی 389, Quill, Ada first"
    )
    assert "Round 1: 1 result missing." in page.inner_text("#round-unresolved")
    assert "455" in page.inner_text("#round-notes table.changes tbody")

    page.fill("#id_line", "3 forfeit")
    page.wait_for_selector("#check .after")
    page.press("#id_line", "Enter")
    page.wait_for_function(
        "() => document.querySelectorAll('table.round-games tbody tr').length === 3"
    )
    won = Game.objects.get(division=division, round=1, kind="forfeit", player1=cora)
    assert "forfeit win" in page.inner_text(f'tr[data-game="{won.pk}"]')
    assert page.evaluate("() => window.notReloaded") is True
