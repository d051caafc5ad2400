"""Entering a round's results a line at a time: the check as it is typed, and the save."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.test import Client
from text_support import plain

from tournament.core import changes
from tournament.models import Change, Division, Game

JSON = {"HTTP_ACCEPT": "application/json"}


def url(division: Division, what: str = "", round_number: int = 1) -> str:
    return f"/desk/spring-open/division/{division.pk}/round/{round_number}/{what}"


def check(desk: Client, division: Division, line: str, round_number: int = 1) -> dict:
    response = desk.get(url(division, "check", round_number), {"line": line})
    assert response.status_code == 200
    return response.json()


def test_the_check_says_what_a_line_will_save(desk: Client, division: Division) -> None:
    result = check(desk, division, "1 455 2 389")

    assert plain(result) == {
        "ok": True,
        "errors": [],
        "warnings": [],
        "correction": False,
        "game": division.games.get(round=1, player1__number=1).pk,
        "version": 0,
        "before": "1 Quill, Ada v 2 Crane, Ben: not entered",
        "after": "1 Quill, Ada 455 – 2 Crane, Ben 389, Quill, Ada first",
        "also": "",
        "penalties": [],
    }


def test_the_check_warns_when_the_other_player_was_to_go_first(
    desk: Client, division: Division
) -> None:
    result = check(desk, division, "2 389 1 455")

    # Typing Ben first no longer makes him first: the pairing's first stays, and the check says so.
    assert result["ok"]
    assert plain(result["after"]) == "1 Quill, Ada 455 – 2 Crane, Ben 389, Quill, Ada first"
    assert plain(result["warnings"]) == [
        "Quill, Ada was to go first, as paired, and stays first; tick “first as typed” to "
        "record Crane, Ben as going first."
    ]


def test_the_second_player_typed_first_is_first_only_when_the_director_says_so(
    desk: Client, division: Division
) -> None:
    url = f"/desk/spring-open/division/{division.pk}/round/1/"
    desk.post(url + "enter", {"line": "2 389 1 455"})
    game = division.games.get(round=1, player1__number=1)
    assert (game.score1, game.score2, game.first) == (455, 389, 1)

    # Gus (6) was to go first against Fay (5); the director says Fay went first.
    checked = desk.get(url + "check", {"line": "5 400 6 300", "first_as_typed": "1"}).json()
    assert plain(checked["after"]) == "5 North, Fay 400 – 6 Stone, Gus 300, North, Fay first"
    assert plain(checked["warnings"]) == [
        "Stone, Gus was to go first; this entry records North, Fay as going first, as you chose."
    ]
    desk.post(url + "enter", {"line": "5 400 6 300", "first_as_typed": "on"})
    game = division.games.get(round=1, player1__number=5)
    assert (game.score1, game.score2, game.first) == (400, 300, 1)


def test_the_check_warns_of_implausible_scores(desk: Client, division: Division) -> None:
    result = check(desk, division, "1 850 2 90")

    assert result["ok"]
    assert plain(result["warnings"]) == [
        "850 for player 1 is high (over 800): check it.",
        "90 for player 2 is low (under 100): check it.",
        "A spread of 760 is large (over 400): check the scores.",
    ]


@pytest.mark.parametrize(
    ("line", "error"),
    [
        ("12 455 7", "The score of player 7 is missing: P S Q T."),
        ("9 400 1 300", "No player 9 in division A."),
        (
            "1 400 3 350",
            "1 Quill, Ada and 3 Vale, Cora are not paired in round 1: "
            "Quill, Ada plays 2 Crane, Ben, Vale, Cora plays 4 Moss, Eli.",
        ),
        (
            "7 400 1 300",
            "7 Reed, Hal and 1 Quill, Ada are not paired in round 1: "
            "Reed, Hal has a bye, Quill, Ada plays 2 Crane, Ben.",
        ),
        (
            "1 bye",
            "1 Quill, Ada plays 2 Crane, Ben in round 1: "
            "a bye is for a player without an opponent.",
        ),
    ],
)
def test_the_check_refuses_what_cannot_be_entered(
    desk: Client, division: Division, line: str, error: str
) -> None:
    result = check(desk, division, line)

    assert result["ok"] is False
    assert plain(result["errors"]) == [error]


def test_a_round_without_pairings_takes_no_result(desk: Client, division: Division) -> None:
    result = check(desk, division, "1 400 2 300", round_number=2)

    assert plain(result["errors"]) == ["Round 2 has no pairings yet."]


def test_a_player_not_paired_in_the_round_takes_no_result(
    desk: Client, division: Division, game_of: Callable[[int], Game]
) -> None:
    game_of(7).delete()

    assert plain(check(desk, division, "7 bye")["errors"]) == [
        "7 Reed, Hal is not paired in round 1."
    ]


def test_entering_a_line_saves_the_result_and_who_went_first(
    desk: Client, division: Division, director: User, game_of: Callable[[int], Game]
) -> None:
    response = desk.post(url(division, "enter"), {"line": "4 402 3 398", "version": "0"})

    assert response.status_code == 302
    game = game_of(3)
    assert (game.score1, game.score2, game.first, game.kind) == (398, 402, 2, Game.PLAYED)
    assert game.version == 1
    change = Change.objects.get()
    assert (change.action, change.user, change.game, change.reason) == (
        "create",
        director,
        game,
        "",
    )
    assert plain(changes.change_text(change.before)) == "3 Vale, Cora v 4 Moss, Eli: not entered"
    assert plain(changes.change_text(change.after)) == (
        "3 Vale, Cora 398 – 4 Moss, Eli 402, Moss, Eli first"
    )


def test_entering_from_the_page_answers_in_json_with_what_changed(
    desk: Client, division: Division
) -> None:
    response = desk.post(url(division, "enter"), {"line": "1 455 2 389", "version": "0"}, **JSON)

    assert response.status_code == 200
    data = response.json()
    assert data["ok"] is True
    assert plain(data["message"]) == "Saved: 1 Quill, Ada 455 – 2 Crane, Ben 389, Quill, Ada first"
    game = division.games.get(round=1, player1__number=1)
    # The saved game's row alone, not the round's table; the notes with the undo of this save.
    assert list(data["rows"]) == [str(game.pk)] and ">455<" in data["rows"][str(game.pk)]
    assert "html" not in data
    assert 'id="undo-form"' in data["notes"]
    assert "Round 1: 3 results missing." in plain(data["unresolved"])


def test_a_refused_line_is_said_and_nothing_is_saved(desk: Client, division: Division) -> None:
    response = desk.post(url(division, "enter"), {"line": "1 400 3 350"}, **JSON)

    assert response.status_code == 400
    assert plain(response.json()["error"]).startswith(
        "1 Quill, Ada and 3 Vale, Cora are not paired"
    )
    assert not Change.objects.exists()
    assert not division.games.exclude(score1=None).exists()


def test_without_javascript_a_refusal_shows_the_page_again_with_the_line(
    desk: Client, division: Division
) -> None:
    response = desk.post(url(division, "enter"), {"line": "9 400 1 300"})

    assert response.status_code == 400
    page = response.content.decode()
    assert "No player 9 in division A." in plain(page)
    assert 'value="9 400 1 300"' in plain(page)


def test_the_same_result_twice_is_refused(desk: Client, division: Division) -> None:
    desk.post(url(division, "enter"), {"line": "1 455 2 389"})

    assert plain(check(desk, division, "1 455 2 389")["errors"]) == [
        "Already entered: 1 Quill, Ada 455 – 2 Crane, Ben 389, Quill, Ada first. Nothing to change."
    ]
    response = desk.post(url(division, "enter"), {"line": "1 455 2 389", "version": "1"}, **JSON)
    assert response.status_code == 400
    assert Change.objects.count() == 1


def test_the_entry_page_lists_the_round_and_the_entry_line(
    desk: Client, division: Division
) -> None:
    desk.post(url(division, "enter"), {"line": "1 455 2 389"})

    page = desk.get(url(division)).content.decode()

    assert 'name="line"' in plain(page)
    assert "Quill, Ada" in plain(page) and "Moss, Eli" in plain(page)
    assert ">455<" in plain(page)
    assert "Undo my last entry" in plain(page)


def test_after_an_entry_both_players_new_record_and_spread_are_shown(
    desk: Client, division: Division
) -> None:
    data = desk.post(url(division, "enter"), {"line": "3 300 4 410"}, **JSON).json()

    # In the game's order: Cora (3) lost by 110 to Eli (4).
    assert plain(data["records"]) == "Now: Vale, Cora 0–1 -110; Moss, Eli 1–0 +110."
    page = desk.post(url(division, "enter"), {"line": "5 420 6 400"}, follow=True)
    assert "Now: North, Fay 1–0 +20; Stone, Gus 0–1 -20." in plain(page.content.decode())
