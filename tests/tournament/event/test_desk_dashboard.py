"""A tournament's dashboard: its rounds, the results still missing, scoresheets with findings,
flagged scoresheets and the latest changes."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth.models import User
from django.test import Client
from text_support import plain

from tournament.models import Division, Game
from tournament.results import services as results
from tournament.scoresheets import services as scoresheets


def test_it_lists_each_round_with_the_results_still_missing(
    desk: Client, division: Division, director: User, game_of: Callable[[int], Game]
) -> None:
    results.enter_line(division, 1, "1 455 2 389", director)
    results.enter_line(division, 1, "7 bye", director)

    response = desk.get("/desk/spring-open/")

    assert response.status_code == 200
    ((shown, rounds),) = response.context["divisions"]
    assert shown == division
    assert [(r.number, r.games, r.entered) for r in rounds] == [(1, 4, 2), (2, 0, 0), (3, 0, 0)]
    assert rounds[0].missing == [game_of(3), game_of(5)]
    page = response.content.decode()
    assert f'href="/desk/spring-open/division/{division.pk}/round/1/"' in plain(page)
    assert "not paired" in plain(page)  # rounds 2 and 3 are planned but not paired


def test_a_complete_round_says_so(desk: Client, division: Division, director: User) -> None:
    for line in ["1 455 2 389", "3 402 4 398", "6 377 5 376", "7 bye"]:
        results.enter_line(division, 1, line, director)

    response = desk.get("/desk/spring-open/")

    assert response.context["divisions"][0][1][0].missing == []
    assert "complete" in response.content.decode()


def test_it_shows_flagged_scoresheets_and_those_with_findings(
    desk: Client,
    division: Division,
    director: User,
    game_of: Callable[[int], Game],
    record: Callable[..., str],
) -> None:
    results.enter_line(division, 1, "1 20 2 25", director)
    results.enter_line(division, 1, "3 20 4 24", director)
    flagged = scoresheets.attach_scoresheet(game_of(1), record(), director)
    broken = scoresheets.attach_scoresheet(game_of(3), "#player1 Cora Cora Vale\n", director)
    clean = scoresheets.attach_scoresheet(
        game_of(3), record("Cora", "Cora Vale", "Eli", "Eli Moss"), director
    )

    response = desk.get("/desk/spring-open/")

    assert plain(response.context["flagged"]) == [flagged]
    assert plain(response.context["with_findings"]) == [broken]
    assert clean.verified and not clean.flagged
    page = response.content.decode()
    assert f'href="/desk/spring-open/scoresheets/{flagged.pk}/"' in plain(page)
    assert f'href="/desk/spring-open/scoresheets/{broken.pk}/"' in plain(page)


def test_it_shows_the_latest_changes_newest_first(
    desk: Client, division: Division, director: User
) -> None:
    results.enter_line(division, 1, "1 455 2 389", director)
    results.enter_line(division, 1, "1 455 2 398", director, reason="slip said 398")

    response = desk.get("/desk/spring-open/")

    rows = response.context["changes"]
    assert [(r["change"].action, plain(r["after"])) for r in rows] == [
        ("correct", "1 Quill, Ada 455 – 2 Crane, Ben 398, Quill, Ada first"),
        ("create", "1 Quill, Ada 455 – 2 Crane, Ben 389, Quill, Ada first"),
    ]
    assert "slip said 398" in response.content.decode()
