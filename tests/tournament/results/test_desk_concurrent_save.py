"""Two directors saving the same game at once: the later save is refused, naming what changed,
and nothing is overwritten."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.utils import timezone
from text_support import plain

from tournament.models import Change, Division, Game
from tournament.results import corrections
from tournament.results import services as results

JSON = {"HTTP_ACCEPT": "application/json"}


def game_url(game: Game) -> str:
    return f"/desk/spring-open/games/{game.pk}/"


def at(change: Change) -> str:
    return timezone.localtime(change.at).strftime("%H:%M")


def test_the_later_of_two_saves_from_the_games_page_is_refused(
    desk: Client, second_desk: Client, division: Division, game_of: Callable[[int], Game]
) -> None:
    game = game_of(1)
    results.enter_line(division, 1, "1 455 2 389", game.division.tournament.directors.first())
    # Both directors open the game at version 1.
    assert 'name="version" value="1"' in desk.get(game_url(game)).content.decode()
    assert 'name="version" value="1"' in second_desk.get(game_url(game)).content.decode()

    first = desk.post(
        game_url(game),
        {"score1": "455", "score2": "398", "first": "1", "version": "1", "reason": "slip"},
    )
    later = second_desk.post(
        game_url(game),
        {"score1": "465", "score2": "389", "first": "1", "version": "1", "reason": "recount"},
    )

    assert first.status_code == 302
    assert later.status_code == 409
    change = Change.objects.get(action="correct")
    message = (
        f"alice changed the round 1 game Quill, Ada v Crane, Ben at {at(change)} while you had it "
        "open: Crane, Ben's score 389 → 398. Your save was refused and nothing was overwritten; "
        "it is now 1 Quill, Ada 455 – 2 Crane, Ben 398, Quill, Ada first."
    )
    assert plain(later.context["error"]) == message
    game = game_of(1)
    assert (game.score1, game.score2, game.version) == (455, 398, 2)
    assert Change.objects.filter(reason="recount").count() == 0


def test_after_the_refusal_the_form_keeps_the_typed_values_against_the_stored_version(
    desk: Client, second_desk: Client, division: Division, game_of: Callable[[int], Game]
) -> None:
    game = game_of(1)
    desk.post(game_url(game), {"score1": "455", "score2": "389", "first": "1", "version": "0"})

    later = second_desk.post(
        game_url(game), {"score1": "465", "score2": "389", "first": "1", "version": "0"}
    )

    page = later.content.decode()
    assert later.status_code == 409
    assert 'name="score1" value="465"' in plain(page)
    assert 'name="version" value="1"' in plain(page)  # a second save is a choice made knowingly


def test_two_directors_entering_the_same_game_the_later_is_refused(
    desk: Client, second_desk: Client, division: Division, game_of: Callable[[int], Game]
) -> None:
    check_url = f"/desk/spring-open/division/{division.pk}/round/1/check"
    enter_url = f"/desk/spring-open/division/{division.pk}/round/1/enter"
    # Both check their line while the game has no result: version 0.
    assert desk.get(check_url, {"line": "1 455 2 389"}).json()["version"] == 0
    assert second_desk.get(check_url, {"line": "1 445 2 389"}).json()["version"] == 0

    first = desk.post(enter_url, {"line": "1 455 2 389", "version": "0"}, **JSON)
    later = second_desk.post(
        enter_url, {"line": "1 445 2 389", "version": "0", "reason": "typed again"}, **JSON
    )

    assert first.status_code == 200
    assert later.status_code == 409
    data = later.json()
    assert data["stale"] is True
    change = Change.objects.get()
    assert plain(data["error"]) == (
        f"alice changed the round 1 game Quill, Ada v Crane, Ben at {at(change)} while you had it "
        "open: Quill, Ada's score none → 455; Crane, Ben's score none → 389. Your save was "
        "refused and nothing was overwritten; it is now 1 Quill, Ada 455 – 2 Crane, Ben 389, "
        "Quill, Ada first."
    )
    assert game_of(1).score1 == 455


def test_a_stale_version_is_refused_by_the_service_too(
    division: Division, game_of: Callable[[int], Game]
) -> None:
    director = division.tournament.directors.get(username="alice")
    corrections.correct_game(game_of(1), director, 0, "", 400, 300, 1)

    with pytest.raises(results.StaleResult):
        corrections.correct_game(game_of(1), director, 0, "again", 410, 300, 1)
    with pytest.raises(results.StaleResult):
        results.enter_line(division, 1, "1 410 2 300", director, version=0, reason="again")

    assert (game_of(1).score1, game_of(1).version) == (400, 1)


@pytest.mark.django_db(transaction=True)
def test_two_saves_racing_in_two_connections_one_wins_and_the_other_is_refused(
    division: Division, game_of: Callable[[int], Game]
) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL; SQLite serialises whole-database writes")
    directors = list(division.tournament.directors.order_by("username"))
    game = game_of(1)
    start = threading.Barrier(2)
    outcome: dict[str, str] = {}

    def save(user: User, score1: int) -> None:
        try:
            start.wait()
            corrections.correct_game(game, user, 0, "", score1, 389, 1)
            outcome[user.username] = "saved"
        except results.StaleResult:
            outcome[user.username] = "refused"
        finally:
            connection.close()

    threads = [
        threading.Thread(target=save, args=(u, s))
        for u, s in zip(directors, (455, 465), strict=True)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()

    assert sorted(outcome.values()) == ["refused", "saved"]
    winner = next(name for name, what in outcome.items() if what == "saved")
    game = game_of(1)
    assert (game.score1, game.version) == ({"alice": 455, "bob": 465}[winner], 1)
    assert Change.objects.count() == 1
