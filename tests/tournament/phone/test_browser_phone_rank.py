"""A player's page while other games of the round are recorded, in Chromium at 390 and 1280 px,
in Persian and English: the record and rank follow each result without a reload, and the body
the player is typing in is kept (the live feed sends the record and rank alone)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.utils import translation
from django.utils.translation import gettext

SHOTS = os.environ.get("SPREAD_SHOTS")
NAMES = ["کیان رضایی", "김민준", "Quill, Ada", "سارا احمدی", "이서연", "Stone, Gus"]


def _event(language: str):
    from tournament.models import Division, Game, Player, Round, Tournament

    tournament = Tournament.objects.create(
        name="Seoul–Tehran Open", slug=f"st-{language}", language=language
    )
    director = User.objects.create_user(f"director-{language}")
    tournament.directors.add(director)
    division = Division.objects.create(tournament=tournament, name="A", self_report=True)
    players = [
        Player.objects.create(division=division, number=n, name=name, rating=2000 - 100 * n)
        for n, name in enumerate(NAMES, start=1)
    ]
    for table, (one, two) in enumerate([(0, 1), (2, 3), (4, 5)], start=1):
        Game.objects.create(
            division=division,
            round=1,
            table=table,
            player1=players[one],
            player2=players[two],
            first=1,
        )
    Round.objects.create(division=division, number=1, published=True)
    return division, director, players


def _rank(language: str, rank: int) -> str:
    with translation.override(language):
        return gettext("rank %(rank)s") % {"rank": rank}


@pytest.mark.parametrize("language", ["fa", "en"])
def test_the_rank_follows_other_results_and_what_the_player_types_stays(
    live_url: str, page, language: str
) -> None:
    from tournament.phone import services as phone
    from tournament.results import services as results

    division, director, players = _event(language)
    token = phone.issue_link(players[5])  # Gus (or the last player): rank 6 on rating
    # Before any result the ratings order everyone; after 3 beats 4, Gus shares rank 2 with
    # the three others at 0-0; after 2 beats 1 too, rank 3 behind the two winners.
    steps = [(390, 6, "3 400 4 300", 2), (1280, 2, "1 300 2 350", 3)]
    for width, before, line, after in steps:
        page.set_viewport_size({"width": width, "height": 844})
        page.goto(f"{live_url}/p/{token}/")
        standing = page.locator("#phone-standing")
        assert _rank(language, before) in standing.inner_text()
        # A score typed and not sent, and a mark on the body the page holds.
        page.fill('input[name="my_score"]', "412")
        page.evaluate("document.getElementById('phone-body').firstElementChild.dataset.kept = '1'")

        results.enter_line(division, 1, line, director)  # another game: Gus's rank moves
        expected = _rank(language, after)
        page.wait_for_function(
            "text => document.getElementById('phone-standing').innerText.includes(text)",
            arg=expected,
            timeout=10000,
        )
        assert page.input_value('input[name="my_score"]') == "412"
        kept = "document.getElementById('phone-body').firstElementChild.dataset.kept"
        assert page.evaluate(kept) == "1"  # the body was not replaced
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        if SHOTS:
            page.screenshot(
                path=str(Path(SHOTS) / f"phone-rank-{language}-{width}.png"), full_page=True
            )
