"""Correcting an entered result: it needs a reason, and the change log keeps who, when, what
it was, what it became and why."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth.models import User
from django.test import Client
from text_support import plain

from tournament.core import changes
from tournament.models import Change, Division, Game

JSON = {"HTTP_ACCEPT": "application/json"}


def enter_url(division: Division) -> str:
    return f"/desk/spring-open/division/{division.pk}/round/1/enter"


def test_a_line_for_an_entered_game_is_a_correction(desk: Client, division: Division) -> None:
    desk.post(enter_url(division), {"line": "1 455 2 389"})

    result = desk.get(
        f"/desk/spring-open/division/{division.pk}/round/1/check", {"line": "1 455 2 398"}
    ).json()

    assert result["ok"] and result["correction"]
    assert plain(result["version"]) == 1
    assert plain(result["warnings"]) == [
        "Already entered as 1 Quill, Ada 455 – 2 Crane, Ben 389, Quill, Ada first: "
        "a correction needs a reason."
    ]


def test_a_correction_without_a_reason_is_refused(
    desk: Client, division: Division, game_of: Callable[[int], Game]
) -> None:
    desk.post(enter_url(division), {"line": "1 455 2 389"})

    response = desk.post(enter_url(division), {"line": "1 455 2 398", "version": "1"}, **JSON)

    assert response.status_code == 400
    assert plain(response.json()["error"]) == (
        "1 Quill, Ada 455 – 2 Crane, Ben 389, Quill, Ada first is already entered: "
        "a correction needs a reason."
    )
    assert game_of(1).score2 == 389


def test_a_correction_with_a_reason_lands_in_the_change_log(
    desk: Client,
    second_desk: Client,
    division: Division,
    second_director: User,
    game_of: Callable[[int], Game],
) -> None:
    desk.post(enter_url(division), {"line": "1 455 2 389"})

    response = second_desk.post(
        enter_url(division),
        {"line": "1 455 2 398", "version": "1", "reason": "slip said 398"},
        **JSON,
    )

    assert response.status_code == 200
    game = game_of(1)
    assert (game.score1, game.score2, game.version) == (455, 398, 2)
    change = Change.objects.filter(action="correct").get()
    assert change.user == second_director
    assert change.at is not None
    assert change.reason == "slip said 398"
    assert change.game == game
    assert change.before["games"][0] | {"id": None} == {
        "id": None,
        "round": 1,
        "table": 1,
        "player1": 1,
        "name1": "Quill, Ada",
        "player2": 2,
        "name2": "Crane, Ben",
        "score1": 455,
        "score2": 389,
        "kind": "played",
        "first": 1,
        "version": 1,
    }
    assert change.after["games"][0]["score2"] == 398
    assert change.after["games"][0]["version"] == 2


def test_the_change_log_page_shows_the_correction(desk: Client, division: Division) -> None:
    desk.post(enter_url(division), {"line": "1 455 2 389"})
    desk.post(enter_url(division), {"line": "1 455 2 398", "reason": "slip said 398"})

    page = desk.get("/desk/spring-open/changes/").content.decode()

    assert "correct" in plain(page)
    assert "1 Quill, Ada 455 – 2 Crane, Ben 389, Quill, Ada first" in plain(page)
    assert "1 Quill, Ada 455 – 2 Crane, Ben 398, Quill, Ada first" in plain(page)
    assert "slip said 398" in plain(page)
    assert "alice" in plain(page)


def test_a_result_is_corrected_on_the_games_page_with_a_reason(
    desk: Client, division: Division, game_of: Callable[[int], Game]
) -> None:
    desk.post(enter_url(division), {"line": "1 455 2 389"})
    game = game_of(1)

    refused = desk.post(
        f"/desk/spring-open/games/{game.pk}/",
        {"score1": "455", "score2": "398", "first": "1", "version": "1", "reason": ""},
    )
    saved = desk.post(
        f"/desk/spring-open/games/{game.pk}/",
        {"score1": "455", "score2": "398", "first": "1", "version": "1", "reason": "recount"},
    )

    assert refused.status_code == 400
    assert "a correction needs a reason" in refused.content.decode()
    assert saved.status_code == 302
    assert game_of(1).score2 == 398
    change = Change.objects.filter(action="correct").get()
    assert change.reason == "recount"
    assert plain(changes.change_text(change.after)) == (
        "1 Quill, Ada 455 – 2 Crane, Ben 398, Quill, Ada first"
    )


def test_removing_a_result_is_logged_as_a_deletion(
    desk: Client, division: Division, game_of: Callable[[int], Game]
) -> None:
    desk.post(enter_url(division), {"line": "1 455 2 389"})
    game = game_of(1)

    desk.post(
        f"/desk/spring-open/games/{game.pk}/",
        {"score1": "", "score2": "", "first": "1", "version": "1", "reason": "wrong table"},
    )

    assert not game_of(1).has_result
    change = Change.objects.filter(action="delete").get()
    assert plain(changes.change_text(change.after)) == "1 Quill, Ada v 2 Crane, Ben: not entered"
