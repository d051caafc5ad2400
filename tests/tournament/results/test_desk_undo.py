"""Undo of a director's last entry: the rows go back as they were, and the undo is logged."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client
from text_support import plain

from tournament.core import changes
from tournament.models import Change, Division, Game
from tournament.results import corrections
from tournament.results import services as results

JSON = {"HTTP_ACCEPT": "application/json"}


def enter(desk: Client, division: Division, line: str, **data: str) -> None:
    response = desk.post(
        f"/desk/spring-open/division/{division.pk}/round/1/enter", {"line": line, **data}, **JSON
    )
    assert response.status_code == 200, response.json()


def undo(desk: Client, division: Division) -> dict:
    response = desk.post(f"/desk/spring-open/division/{division.pk}/undo", {"round": "1"}, **JSON)
    data = response.json()
    data.pop("html", None)  # the round redrawn
    return data | {"status": response.status_code}


def test_undo_takes_back_a_new_result_and_is_logged(
    desk: Client, division: Division, game_of: Callable[[int], Game]
) -> None:
    enter(desk, division, "1 455 2 389")

    data = undo(desk, division)

    assert plain(data["message"]) == "Undone: back to 1 Quill, Ada v 2 Crane, Ben: not entered"
    game = game_of(1)
    assert (game.score1, game.score2, game.version) == (None, None, 2)
    entry, undone = Change.objects.order_by("pk")
    assert undone.action == "undo"
    assert undone.after["undoes"] == entry.pk
    assert undone.reason == f"Undo of change {entry.pk} (create)"
    assert plain(changes.change_text(undone.before)) == (
        "1 Quill, Ada 455 – 2 Crane, Ben 389, Quill, Ada first"
    )


def test_undo_puts_back_the_result_a_correction_replaced(
    desk: Client, division: Division, game_of: Callable[[int], Game]
) -> None:
    enter(desk, division, "1 455 2 389")
    enter(desk, division, "1 455 2 398", reason="slip")

    undo(desk, division)

    assert game_of(1).score2 == 389


def test_undo_again_goes_one_entry_further_back(
    desk: Client, division: Division, game_of: Callable[[int], Game]
) -> None:
    enter(desk, division, "1 455 2 389")
    enter(desk, division, "1 455 2 398", reason="slip")

    undo(desk, division)
    undo(desk, division)

    assert not game_of(1).has_result
    assert undo(desk, division) == {
        "ok": False,
        "error": "Nothing of yours to undo in division A.",
        "status": 409,
    }


@pytest.mark.parametrize("forfeiter", [3, 4])  # 4 is the game's second player: the row turns
def test_undo_of_a_forfeit_joins_the_game_again(
    desk: Client, division: Division, game_of: Callable[[int], Game], forfeiter: int
) -> None:
    enter(desk, division, f"{forfeiter} forfeit")

    undo(desk, division)

    game = game_of(3)
    assert (game.player1.number, game.player2.number, game.kind, game.score1) == (
        3,
        4,
        Game.PLAYED,
        None,
    )
    assert division.games.filter(round=1).count() == 4


def test_undo_is_of_the_directors_own_entries(
    desk: Client, second_desk: Client, division: Division, game_of: Callable[[int], Game]
) -> None:
    enter(desk, division, "1 455 2 389")
    enter(second_desk, division, "3 402 4 398")

    undo(desk, division)

    assert not game_of(1).has_result
    assert game_of(3).has_result


def test_undo_is_refused_when_someone_changed_the_game_since(
    desk: Client, second_desk: Client, division: Division, game_of: Callable[[int], Game]
) -> None:
    enter(desk, division, "1 455 2 389")
    enter(second_desk, division, "1 455 2 398", reason="recount")

    data = undo(desk, division)

    assert data["status"] == 409
    assert plain(data["error"]).startswith(
        "bob changed the round 1 game Quill, Ada v Crane, Ben at "
    )
    assert "Crane, Ben's score 389 → 398. Your entry was not undone;" in plain(data["error"])
    assert game_of(1).score2 == 398


def test_undo_without_javascript_redirects_to_the_round(desk: Client, division: Division) -> None:
    enter(desk, division, "1 455 2 389")

    response = desk.post(f"/desk/spring-open/division/{division.pk}/undo", {"round": "1"})

    assert response.status_code == 302
    assert response["Location"] == f"/desk/spring-open/division/{division.pk}/round/1/"


@pytest.mark.parametrize("line", ["7 bye", "1 455 2 389"])
def test_undo_through_the_service_matches_the_page(
    division: Division, game_of: Callable[[int], Game], line: str
) -> None:
    director = division.tournament.directors.get(username="alice")
    results.enter_line(division, 1, line, director)

    corrections.undo_last(division, director)

    assert not division.games.exclude(score1=None).exists()
