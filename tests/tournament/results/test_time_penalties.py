"""Time penalties at the desk: the entry line's `ot P M`, the points by the division's ruleset,
the counted score stored with the points taken off, the check's lines, corrections, undo and
the change log, and `record_result`'s penalty arguments."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.test import Client
from text_support import plain

from scoring.rules import load_rules
from tournament.core import changes
from tournament.core.errors import EntryError
from tournament.models import Change, Division, Game
from tournament.results import corrections
from tournament.results import services as results
from tournament.results.services import Entry, parse_line

JSON = {"HTTP_ACCEPT": "application/json"}
NASPA = load_rules("naspa")
HOME = load_rules("home")


def _stored(game: Game) -> tuple:
    game.refresh_from_db()
    return (game.score1, game.score2, game.penalty1, game.penalty2)


@pytest.mark.parametrize(
    ("line", "penalty", "opponent_penalty"),
    [
        ("12 380 7 350 ot 12 2", 20, 0),
        ("12 380 7 350 t 7 1", 0, 10),
        ("12 380 7 350 TIME 12 3", 30, 0),
        ("12 380 7 350 ot 12 0:01", 10, 0),
        ("12 380 7 350 ot 12 1:00", 10, 0),
        ("12 380 7 350 ot 12 1:01", 20, 0),
        ("12 380 7 350 ot 12 1:05", 20, 0),
        ("12 380 7 350 ot 12 30p", 30, 0),
        ("12 380 7 350 ot 12 2 ot 7 0:30", 20, 10),
        ("12 380 7 350 ot 12 30:00", 300, 0),
    ],
)
def test_the_line_takes_a_time_penalty_in_minutes_clock_time_or_points(
    line: str, penalty: int, opponent_penalty: int
) -> None:
    assert parse_line(line, rules=NASPA) == Entry(
        Game.PLAYED, 12, 380, 7, 350, penalty=penalty, opponent_penalty=opponent_penalty
    )


def test_the_counted_scores_are_the_typed_ones_less_the_penalties() -> None:
    entry = parse_line("12 380 7 350 ot 12 2 ot 7 1:01", rules=NASPA)

    assert entry.counted == (360, 330)


def test_the_points_a_minute_are_the_rulesets() -> None:
    rules = load_rules("naspa").__class__(name="fast", time_penalty_per_minute=5)

    assert parse_line("12 380 7 350 ot 12 1:05", rules=rules).penalty == 10


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("12 bye ot 12 2", "A bye has no time penalty."),
        ("12 forfeit ot 12 2", "A forfeit has no time penalty."),
        (
            "12 380 7 350 ot 12 -2",
            "'-2': a time penalty is not negative; type the minutes over without a sign "
            "(ot P 2, ot P 1:05) or the points (ot P 20p).",
        ),
        (
            "12 380 7 350 ot 12 25p",
            "A time penalty of 25 for 12: it is 10 points a minute over, so 20 or 30.",
        ),
        (
            "12 380 7 350 ot 12 31",
            "A time penalty of 310 for 12 is 31 minutes over: over 30 is not a game's time, "
            "check the clock.",
        ),
        (
            "12 380 7 350 ot 12 0",
            "'0' is no time over: leave out 'ot' for a player within the clock.",
        ),
        (
            "12 380 7 350 ot 12 0:00",
            "'0:00' is no time over: leave out 'ot' for a player within the clock.",
        ),
        (
            "12 380 7 350 ot 12 1:75",
            "'1:75' is not a time over: minutes (2), minutes and seconds (1:05) or points (20p).",
        ),
        (
            "12 380 7 350 ot 12",
            "A time penalty is 'ot P M': the player and the minutes over (ot 12 2).",
        ),
        (
            "12 380 7 350 ot 12 2 ot 12 1",
            "Player 12 has two time penalties: type one, for all the time over.",
        ),
        (
            "12 380 7 350 ot 5 2",
            "Player 5 is not in this game (12 v 7): a time penalty is for one of its players.",
        ),
        (
            "12 380 7 350 ot 12 2 9",
            "Too many fields: P S Q T (ot P M), P bye or P forfeit.",
        ),
        (
            "12 -150 7 350 ot 12 6",
            "-210 is not a possible score (-200 to 1000).",
        ),
    ],
)
def test_the_line_refuses_a_penalty_it_cannot_take(line: str, message: str) -> None:
    with pytest.raises(EntryError) as refused:
        parse_line(line, rules=NASPA)
    assert str(refused.value) == message


def test_rules_without_a_clock_refuse_a_time_penalty() -> None:
    with pytest.raises(EntryError) as refused:
        parse_line("12 380 7 350 ot 12 2", rules=HOME)
    assert plain(str(refused.value)) == "Home rules (2–4 players) have no clock: no time penalty."


def test_a_spread_takes_no_time_penalty() -> None:
    with pytest.raises(EntryError) as refused:
        parse_line("12 +55 7 ot 12 2", spread=True, rules=NASPA)
    assert str(refused.value) == "A spread has no time penalty: type the scores, P S Q T ot P M."


def test_the_warnings_look_at_the_counted_score_and_a_long_overtime() -> None:
    entry = parse_line("12 160 7 350 ot 12 6", rules=NASPA)

    assert results.plausibility(entry) == [  # 160 − 60 = 100 is not under 100
        "A time penalty of 60 for player 12 is 6 minutes over (over 5): check the clock.",
    ]
    assert results.plausibility(parse_line("12 159 7 350 ot 12 6", rules=NASPA)) == [
        "99 for player 12 is low (under 100): check it.",
        "A time penalty of 60 for player 12 is 6 minutes over (over 5): check the clock.",
    ]


def check(desk: Client, division: Division, line: str) -> dict:
    response = desk.get(f"/desk/spring-open/division/{division.pk}/round/1/check", {"line": line})
    assert response.status_code == 200
    return plain(response.json())


def enter(desk: Client, division: Division, line: str, **data: str) -> dict:
    response = desk.post(
        f"/desk/spring-open/division/{division.pk}/round/1/enter", {"line": line, **data}, **JSON
    )
    return plain(response.json()) | {"status": response.status_code}


def test_the_check_shows_the_penalty_and_the_counted_score(
    desk: Client, division: Division
) -> None:
    result = check(desk, division, "2 380 1 350 ot 2 1:05")

    assert result["ok"] is True
    assert result["after"] == (
        "1 Quill, Ada 350 – 2 Crane, Ben 360 (380 − 20 time), Quill, Ada first"
    )
    assert result["penalties"] == ["Crane, Ben 380 − 20 = 360"]


def test_a_saved_penalty_is_stored_apart_from_the_counted_score(
    desk: Client, division: Division, game_of: Callable[[int], Game]
) -> None:
    saved = enter(desk, division, "1 380 2 350 ot 1 2 ot 2 1")

    assert saved["message"] == (
        "Saved: 1 Quill, Ada 360 (380 − 20 time) – 2 Crane, Ben 340 (350 − 10 time), "
        "Quill, Ada first"
    )
    assert _stored(game_of(1)) == (360, 340, 20, 10)
    change = Change.objects.get(game=game_of(1))
    assert {k: change.after["games"][0][k] for k in ("score1", "penalty1", "penalty2")} == {
        "score1": 360,
        "penalty1": 20,
        "penalty2": 10,
    }
    page = desk.get(f"/desk/spring-open/division/{division.pk}/round/1/").content.decode()
    assert '360 <span class="penalty">(−20 time)</span>' in page
    assert '340 <span class="penalty">(−10 time)</span>' in page


def test_a_result_without_a_penalty_keeps_its_snapshot_as_before(
    desk: Client, division: Division, game_of: Callable[[int], Game]
) -> None:
    enter(desk, division, "1 380 2 350")

    assert "penalty1" not in Change.objects.get(game=game_of(1)).after["games"][0]
    assert _stored(game_of(1)) == (380, 350, 0, 0)


def test_a_correction_of_the_penalty_alone_is_a_correction(
    desk: Client, division: Division, game_of: Callable[[int], Game]
) -> None:
    enter(desk, division, "1 380 2 350")

    same = enter(desk, division, "1 380 2 350")
    refused = enter(desk, division, "1 380 2 350 ot 1 1")
    corrected = enter(desk, division, "1 380 2 350 ot 1 1", reason="time over")

    assert same["error"].startswith("Already entered")
    assert refused["error"] == (
        "1 Quill, Ada 380 – 2 Crane, Ben 350, Quill, Ada first is already entered: "
        "a correction needs a reason."
    )
    assert corrected["status"] == 200
    assert _stored(game_of(1)) == (370, 350, 10, 0)
    change = Change.objects.filter(game=game_of(1)).latest("pk")
    assert change.action == Change.Action.CORRECT
    before, after = change.before["games"][0], change.after["games"][0]
    assert plain(changes.differences(before, after)) == [
        "Quill, Ada's score 380 → 370",
        "Quill, Ada's time penalty 0 → 10",
    ]


def test_retyping_without_the_penalty_takes_it_off(
    desk: Client, division: Division, game_of: Callable[[int], Game]
) -> None:
    enter(desk, division, "1 380 2 350 ot 2 2")
    enter(desk, division, "1 380 2 370", reason="no time over")

    assert _stored(game_of(1)) == (380, 370, 0, 0)


def test_undo_puts_the_penalty_back(
    desk: Client, division: Division, game_of: Callable[[int], Game]
) -> None:
    enter(desk, division, "1 380 2 350 ot 1 2")
    enter(desk, division, "1 380 2 350", reason="clock misread")

    response = desk.post(f"/desk/spring-open/division/{division.pk}/undo", {"round": "1"}, **JSON)

    assert plain(response.json()["message"]) == (
        "Undone: back to 1 Quill, Ada 360 (380 − 20 time) – 2 Crane, Ben 350, Quill, Ada first"
    )
    assert _stored(game_of(1)) == (360, 350, 20, 0)


def test_a_forfeit_clears_the_penalties(
    desk: Client, division: Division, game_of: Callable[[int], Game]
) -> None:
    enter(desk, division, "1 380 2 350 ot 1 2")
    enter(desk, division, "1 forfeit", reason="left early")

    game = Game.objects.get(division=division, round=1, player1__number=1)
    assert (game.kind, game.penalty1, game.penalty2) == (Game.FORFEIT, 0, 0)


def test_the_games_form_removing_a_result_removes_its_penalty(
    desk: Client, director: User, division: Division, game_of: Callable[[int], Game]
) -> None:
    enter(desk, division, "1 380 2 350 ot 1 2")
    game = game_of(1)

    corrections.correct_game(game, director, game.version, "wrong game", None, None)

    assert _stored(game) == (None, None, 0, 0)


def test_record_result_takes_the_penalties(
    division: Division, director: User, game_of: Callable[[int], Game]
) -> None:
    game = game_of(5)

    results.record_result(game, 360, 402, director, penalty1=20)

    assert _stored(game) == (360, 402, 20, 0)


@pytest.mark.parametrize(
    ("penalty1", "message"),
    [
        (-10, "A time penalty of -10 for Vale, Cora: a penalty is not negative."),
        (15, "A time penalty of 15 for Vale, Cora: it is 10 points a minute over, so 10 or 20."),
        (
            400,
            "A time penalty of 400 for Vale, Cora is 40 minutes over: over 30 is not a game's "
            "time, check the clock.",
        ),
    ],
)
def test_record_result_refuses_a_penalty_the_rules_do_not_give(
    division: Division,
    director: User,
    game_of: Callable[[int], Game],
    penalty1: int,
    message: str,
) -> None:
    game = game_of(3)  # 3 Vale, Cora v 4

    with pytest.raises(EntryError) as refused:
        results.record_result(game, 360, 402, director, penalty1=penalty1)

    assert plain(str(refused.value)) == message
    assert _stored(game) == (None, None, 0, 0)


def test_home_rules_refuse_a_penalty_at_record_result(
    division: Division, director: User, game_of: Callable[[int], Game]
) -> None:
    division.ruleset = "home"
    division.save()

    with pytest.raises(EntryError) as refused:
        results.record_result(game_of(3), 360, 402, director, penalty2=10)

    assert plain(str(refused.value)) == "Home rules (2–4 players) have no clock: no time penalty."
