"""The change log has one writer, `tournament.audit.record`: a known action, a user or a player
(never both) or no one, and the change log shows who by name."""

from __future__ import annotations

import datetime
import io
from collections.abc import Callable

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.db import IntegrityError, transaction
from django.test import Client
from PIL import Image

from tournament.core import audit, changes
from tournament.event import services as event
from tournament.hall import clock, photos
from tournament.models import Change, Dispute, Division, Game, Player
from tournament.pairing import services as pairing
from tournament.phone import disputes
from tournament.players import roster
from tournament.players import services as players
from tournament.playoffs import services as playoffs
from tournament.results import corrections
from tournament.results import services as results
from tournament.scoresheets import services as scoresheets


def _png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (32, 32), (1, 2, 3)).save(out, "PNG")
    return out.getvalue()


def test_every_write_at_the_desk_logs_its_action_and_its_director(
    division: Division,
    director: User,
    game_of: Callable[[int], Game],
    record: Callable[..., str],
) -> None:
    results.enter_line(division, 1, "1 20 2 25", director)
    game = game_of(1)
    corrections.correct_game(game, director, 1, "slip said 24", 20, 24)
    corrections.undo_last(division, director)
    game.refresh_from_db()
    corrections.correct_game(game, director, game.version, "entered twice", None, None)
    results.enter_line(division, 1, "1 20 2 24", director)
    sheet = scoresheets.attach_scoresheet(game_of(3), record("Cora", "Cora Vale"), director)
    scoresheets.update_scoresheet(sheet, record("Cora", "Cora Vale", "Eli"), director, "nick")
    results.enter_line(division, 1, "3 20 4 25", director)
    sheet = scoresheets.attach_scoresheet(game_of(3), record("Cora", "Cora Vale"), director)
    scoresheets.resolve_scoresheet(sheet, director, "signed 20-25")
    for line in ("5 300 6 200", "7 bye"):
        results.enter_line(division, 1, line, director)
    pairing.pair(division, 2, director, system="koth")
    pairing.publish(division, 2, director)
    hal = division.players.get(number=7)
    players.withdraw(hal, 3, director)
    players.reinstate(hal, director)
    players.late_entry(division, players.NewPlayer(name="Young, Zed", rating=1500), director)
    fresh = event.create_tournament(director, "Fresh", [event.NewDivision(name="F")])
    roster.add_players(fresh.divisions.get(), "Ann Ash, 1500\nBo Birch, 1400", director)
    ann, bo = fresh.divisions.get().players.order_by("number")
    roster.edit_player(ann, players.NewPlayer(name="Ann Ashe", rating=1510), director)
    roster.remove_player(bo, director)
    roster.set_checked_in(hal, True, director)
    playoffs.set_up(division, 2, 5, 1, director)
    User.objects.create_user("sam")
    event.add_person(division.tournament, "sam", "scorekeeper", director)
    event.set_lock(division.tournament, True, director)
    event.set_lock(division.tournament, False, director)
    players.set_absent(hal, 3, True, director)
    g = event.add_division(fresh, event.NewDivision(name="G"), director)
    roster.move_player(ann, g, director)
    wrong = record("Fay", "Fay North", "Gus", "Gus Stone").replace("+33 33", "+35 35")
    held = scoresheets.attach_scoresheet(game_of(5), wrong, director)
    scoresheets.release_scoresheet(held, director)
    photos.save_photo(hal, _png(), director)
    clock.start(division, 25, actor=director)
    event.set_dates(division.tournament, datetime.date(2026, 5, 1), None, director)
    # A player's word that a result is wrong, answered at the desk (the word is the player's).
    word = Dispute.objects.create(game=game_of(1), player=game_of(1).player2, text="not 24")
    disputes.answer_stands(word, director)

    logged = list(Change.objects.order_by("pk").values_list("action", "user", "player"))

    assert [action for action, _, _ in logged] == [
        "create",
        "correct",
        "undo",
        "delete",
        "create",
        "upload",
        "correct",
        "create",
        "upload",
        "resolve",
        "create",
        "create",
        "pair",
        "publish",
        "withdraw",
        "reinstate",
        "late entry",
        "create",
        "create",
        "late entry",
        "late entry",
        "edit player",
        "remove player",
        "check in",
        "playoff",
        "people",
        "lock",
        "unlock",
        "absent",
        "division",
        "move player",
        "upload",
        "release",
        "photo",
        "clock",
        "edit event",
        "dispute",
    ]
    assert {(user, player) for _, user, player in logged} == {(director.pk, None)}
    assert {a for a, _, _ in logged} | {"swap", "unpair"} == set(Change.Action.values)


def test_a_change_from_the_command_line_has_no_actor(division: Division) -> None:
    change = audit.record(division, Change.Action.PUBLISH, actor=AnonymousUser())

    assert (change.user, change.player, change.actor, change.actor_name) == (None, None, None, "")


def test_an_unknown_action_is_refused(division: Division, director: User) -> None:
    with pytest.raises(ValueError, match="'rescore' is not a change the log knows"):
        audit.record(division, "rescore", actor=director)

    assert not Change.objects.exists()


def test_an_actor_is_a_user_or_a_player_of_the_division(division: Division, director: User) -> None:
    ada = division.players.get(number=1)
    with pytest.raises(ValueError, match="made by a user or a player"):
        audit.record(division, Change.Action.CREATE, actor=(director, ada))
    other = Division.objects.create(tournament=division.tournament, name="B")
    zed = Player.objects.create(division=other, number=1, name="Young, Zed")
    with pytest.raises(ValueError, match="Young, Zed does not play in division A"):
        audit.record(division, Change.Action.CREATE, actor=zed)

    assert not Change.objects.exists()


def test_the_database_refuses_a_change_by_both_a_user_and_a_player(
    division: Division, director: User
) -> None:
    ada = division.players.get(number=1)

    with pytest.raises(IntegrityError), transaction.atomic():
        Change.objects.create(
            tournament=division.tournament, action="create", user=director, player=ada
        )


def test_a_players_own_change_shows_on_the_desks_change_log_by_name(
    desk: Client, division: Division, game_of: Callable[[int], Game]
) -> None:
    ada = division.players.get(number=1)
    change = audit.record(
        division,
        Change.Action.CREATE,
        actor=ada,
        game=game_of(1),
        after={"games": [changes.snapshot(game_of(1))]},
        reason="reported by the player",
    )

    page = desk.get("/desk/spring-open/changes/").content.decode()

    assert (change.player, change.user, change.actor) == (ada, None, ada)
    assert str(change).startswith("create by Quill, Ada at ")
    assert "<td><bdi>Quill, Ada</bdi></td>" in page
    assert "reported by the player" in page
