"""A bye or a forfeit in one line: `7 bye`, `3 forfeit`."""

from __future__ import annotations

from collections.abc import Callable

from django.test import Client
from text_support import plain

from tournament.core import changes
from tournament.models import Change, Division, Game
from tournament.standings import read_model
from tournament.standings.stamps import read as read_stamps

JSON = {"HTTP_ACCEPT": "application/json"}


def enter(desk: Client, division: Division, line: str, **data: str) -> dict:
    response = desk.post(
        f"/desk/spring-open/division/{division.pk}/round/1/enter", {"line": line, **data}, **JSON
    )
    return response.json()


def test_a_bye_scores_the_divisions_bye_spread(
    desk: Client, division: Division, game_of: Callable[[int], Game]
) -> None:
    division.bye_spread = 75
    division.save()

    data = enter(desk, division, "7 bye")

    assert plain(data["message"]) == "Saved: 7 Reed, Hal: bye +75"
    game = game_of(7)
    assert (game.kind, game.score1, game.player2) == (Game.BYE, 75, None)


def test_a_forfeit_between_paired_players_gives_the_opponent_the_win(
    desk: Client, division: Division, game_of: Callable[[int], Game]
) -> None:
    data = enter(desk, division, "3 forfeit")

    assert (
        plain(data["message"])
        == "Saved: 3 Vale, Cora: forfeit loss -50; 4 Moss, Eli: forfeit win +50"
    )
    lost, won = game_of(3), game_of(4)
    assert (lost.kind, lost.player1.number, lost.player2, lost.score1) == (
        Game.FORFEIT,
        3,
        None,
        -50,
    )
    assert (won.kind, won.player1.number, won.player2, won.score1, won.table) == (
        Game.FORFEIT,
        4,
        None,
        50,
        2,
    )
    change = Change.objects.get()
    assert [s["id"] for s in change.after["games"]] == [lost.pk, won.pk]


def test_the_forfeit_counts_in_the_standings_as_a_loss_and_a_win(
    desk: Client, division: Division
) -> None:
    enter(desk, division, "4 forfeit")

    rows = {
        row.player.number: row
        for row in read_model.division_standings(division, stamps=read_stamps(division))
    }

    assert (rows[4].wins, rows[4].losses, rows[4].spread) == (0, 1, -50)
    assert (rows[3].wins, rows[3].losses, rows[3].spread) == (1, 0, 50)


def test_a_forfeit_for_a_player_with_a_bye_is_a_loss_of_the_forfeit_spread(
    desk: Client, division: Division, game_of: Callable[[int], Game]
) -> None:
    division.forfeit_spread = 100
    division.save()

    data = enter(desk, division, "7 forfeit")

    assert plain(data["message"]) == "Saved: 7 Reed, Hal: forfeit loss -100"
    assert game_of(7).kind == Game.FORFEIT


def test_a_forfeit_over_an_entered_game_is_a_correction(
    desk: Client, division: Division, game_of: Callable[[int], Game]
) -> None:
    enter(desk, division, "3 402 4 398")

    refused = enter(desk, division, "3 forfeit")
    saved = enter(desk, division, "3 forfeit", reason="did not play: scores were a mistake")

    assert plain(refused["error"]) == (
        "3 Vale, Cora 402 – 4 Moss, Eli 398, Vale, Cora first is already entered: "
        "a correction needs a reason."
    )
    assert saved["ok"]
    change = Change.objects.get(action="correct")
    assert plain(changes.change_text(change.before)) == (
        "3 Vale, Cora 402 – 4 Moss, Eli 398, Vale, Cora first"
    )
    assert game_of(4).score1 == 50


def test_a_played_line_for_players_split_by_a_forfeit_is_refused(
    desk: Client, division: Division
) -> None:
    enter(desk, division, "3 forfeit")

    data = enter(desk, division, "3 402 4 398")

    assert plain(data["error"]) == (
        "3 Vale, Cora and 4 Moss, Eli are not paired in round 1: "
        "Vale, Cora has a forfeit loss, Moss, Eli has a forfeit win."
    )
