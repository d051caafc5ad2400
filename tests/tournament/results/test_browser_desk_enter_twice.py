"""Enter pressed twice on the desk's entry line: one save, one line in the log, no conflict."""

from __future__ import annotations


def test_enter_twice_on_the_entry_line_saves_once(live_url: str, page) -> None:
    from django.contrib.auth.models import User

    from tournament.models import Change, Division, Game, Player, Tournament

    director = User.objects.create_user("alice", password="spread-test-pw")
    tournament = Tournament.objects.create(name="Spring Open", slug="spring-open")
    tournament.directors.add(director)
    division = Division.objects.create(tournament=tournament, name="A")
    ada = Player.objects.create(division=division, number=1, name="Quill, Ada")
    sara = Player.objects.create(division=division, number=2, name="سارا احمدی")
    Game.objects.create(division=division, round=1, table=1, player1=ada, player2=sara, first=1)
    posts: list[str] = []
    page.on(
        "request",
        lambda r: posts.append(r.url) if r.method == "POST" and r.url.endswith("/enter") else None,
    )

    page.goto(f"{live_url}/accounts/login/")
    page.fill("input[name=username]", "alice")
    page.fill("input[name=password]", "spread-test-pw")
    page.click("button[type=submit], input[type=submit]")
    page.goto(f"{live_url}/desk/spring-open/division/{division.pk}/round/1/")
    page.fill("#id_line", "1 455 2 389")
    page.wait_for_selector("#check .after")
    # Two submits in one breath (Enter, Enter), the second while the first save is on its way.
    page.evaluate(
        "() => { const f = document.getElementById('entry-form'); f.requestSubmit();"
        " f.requestSubmit(); }"
    )
    page.wait_for_function("() => document.querySelector('#log').innerText.includes('455')")
    page.wait_for_timeout(500)  # a second save, had one been sent, would have come back by now

    assert len(posts) == 1
    assert page.eval_on_selector_all("#log li", "items => items.map(i => i.className)") == [
        "success"
    ]
    assert page.inner_text("#check") == ""
    assert Change.objects.filter(action="create").count() == 1
    game = Game.objects.get(division=division, round=1)
    assert (game.score1, game.score2, game.version) == (455, 389, 1)
