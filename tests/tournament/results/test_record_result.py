"""The one write of a played result (`results.record_result`): the scores as given, the change
it logs, what it refuses, and that a refusal writes nothing."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from text_support import plain

from tournament.core.errors import EntryError
from tournament.models import Change, Division, Game, Player, Round
from tournament.results import services as results

UNPLAYED = {"score1": None, "score2": None, "version": 0}


def _stored(game: Game) -> tuple:
    game.refresh_from_db()
    return (game.score1, game.score2, game.first, game.kind, game.version)


def test_it_records_the_scores_as_given_for_player1_and_player2(
    division: Division, director: User, game_of: Callable[..., Game]
) -> None:
    game = game_of(5)  # 5 Fay v 6 Gus, Gus to go first

    change = results.record_result(game, 388, 402, director)

    assert _stored(game) == (388, 402, 2, Game.PLAYED, 1)  # the pairing's first stands
    assert change.game_id == game.pk
    assert (change.action, change.user, change.player, change.reason) == (
        Change.Action.CREATE,
        director,
        None,
        "",
    )
    assert change.before == {"games": [{**change.after["games"][0], **UNPLAYED}]}
    assert change.after["games"] == [
        {
            "id": game.pk,
            "round": 1,
            "table": 3,
            "player1": 5,
            "name1": "North, Fay",
            "player2": 6,
            "name2": "Stone, Gus",
            "score1": 388,
            "score2": 402,
            "kind": Game.PLAYED,
            "first": 2,
            "version": 1,
        }
    ]
    assert Change.objects.count() == 1


def test_it_writes_what_the_desk_s_line_writes(
    division: Division, director: User, game_of: Callable[..., Game]
) -> None:
    results.enter_line(division, 1, "1 455 2 389", director)
    by_line = Change.objects.get()
    game = game_of(1)
    game.score1 = game.score2 = None
    game.save()
    Change.objects.all().delete()

    by_call = results.record_result(game, 455, 389, director, first=1)

    assert by_call.action == by_line.action
    assert by_call.after == {
        "games": [{**by_line.after["games"][0], "version": by_call.game.version}]
    }


def test_who_went_first_is_the_game_s_unless_given(
    director: User, game_of: Callable[..., Game]
) -> None:
    unknown = game_of(3)  # 3 Cora v 4 Eli, first not known
    results.record_result(unknown, 400, 350, director)
    assert _stored(unknown)[2] == 0
    results.record_result(unknown, 400, 351, director, reason="misread", first=2)
    assert _stored(unknown)[2] == 2
    with pytest.raises(ValueError):
        results.record_result(unknown, 400, 352, director, reason="misread", first=3)


def test_a_correction_needs_a_reason_and_logs_it(
    director: User, game_of: Callable[..., Game]
) -> None:
    game = game_of(1)
    results.record_result(game, 455, 389, director)

    with pytest.raises(EntryError) as refused:
        results.record_result(game, 455, 398, director, reason="   ")
    assert plain(str(refused.value)) == (
        "1 Quill, Ada 455 – 2 Crane, Ben 389, Quill, Ada first is already entered: "
        "a correction needs a reason."
    )
    with pytest.raises(EntryError) as same:
        results.record_result(game, 455, 389, director, reason="again")
    assert "Nothing to change." in str(same.value)
    assert Change.objects.count() == 1

    change = results.record_result(game, 455, 398, director, reason=" misread ")
    assert (change.action, change.reason) == (Change.Action.CORRECT, "misread")
    assert [s["score2"] for s in change.before["games"] + change.after["games"]] == [389, 398]
    assert _stored(game) == (455, 398, 1, Game.PLAYED, 2)


def test_a_save_against_an_older_version_is_refused(
    director: User, game_of: Callable[..., Game]
) -> None:
    game = game_of(1)
    results.record_result(game, 455, 389, director, version=0)
    with pytest.raises(results.StaleResult):
        results.record_result(game, 455, 398, director, reason="misread", version=0)
    assert _stored(game) == (455, 389, 1, Game.PLAYED, 1)


def test_a_locked_round_refuses_a_player_s_report_and_writes_nothing(
    division: Division, director: User, game_of: Callable[..., Game]
) -> None:
    Round.objects.create(division=division, number=1, published=True, locked=True)
    game = game_of(1)
    ben = division.players.get(number=2)

    with pytest.raises(EntryError) as refused:
        results.record_result(game, 455, 389, ben)

    assert str(refused.value) == "Round 1 is locked: report at the desk."
    assert _stored(game) == (None, None, 1, Game.PLAYED, 0)
    assert not Change.objects.exists()
    # The lock is the players': the desk still enters the round's results.
    assert results.record_result(game, 455, 389, director).user == director


def test_a_locked_tournament_refuses_a_player_s_report(
    division: Division, game_of: Callable[..., Game]
) -> None:
    division.tournament.locked = True
    division.tournament.save()
    with pytest.raises(EntryError, match="The tournament is locked"):
        results.record_result(game_of(1), 455, 389, division.players.get(number=1))
    assert not Change.objects.exists()


def test_a_refusal_after_the_write_takes_the_write_back(
    director: User, game_of: Callable[..., Game]
) -> None:
    """The game, the scoresheets' flags and the change are one transaction: an actor the log
    refuses (a player of another division) leaves the game as it was."""
    game = game_of(1)
    elsewhere = Division.objects.create(tournament=game.division.tournament, name="B")
    stranger = Player.objects.create(division=elsewhere, number=1, name="Far, Away")

    with pytest.raises(ValueError, match="does not play in division A"):
        results.record_result(game, 455, 389, stranger)

    assert _stored(game) == (None, None, 1, Game.PLAYED, 0)
    assert not Change.objects.exists()


def test_impossible_scores_void_games_and_byes_are_refused(
    division: Division, director: User, game_of: Callable[..., Game]
) -> None:
    game = game_of(1)
    with pytest.raises(EntryError) as refused:
        results.record_result(game, 1001, 389, director)
    assert str(refused.value) == "1001 is not a possible score (-200 to 1000)."

    void = game_of(3)
    Game.objects.filter(pk=void.pk).update(kind=Game.VOID)
    with pytest.raises(EntryError, match="is void"):
        results.record_result(void, 400, 350, director)

    with pytest.raises(ValueError, match="no opponent"):
        results.record_result(game_of(7), 400, 350, director)
    assert not Change.objects.exists()
    assert _stored(game)[:2] == (None, None)
