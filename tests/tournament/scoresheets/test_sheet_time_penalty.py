"""A scoresheet's `(time)` line compared with the game's entered time penalty: a difference is
said, naming the player and both values, and flags the sheet; the same penalty says nothing."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from scoring_support import game_record
from text_support import plain

from tournament.models import Division, Game
from tournament.results import services as results
from tournament.scoresheets import services as scoresheets

# game_record's game, 20 to 24, then Ada's time penalty: one minute over, 20 - 10 = 10.
TIMED = game_record() + ">Ada: (time) -10 10\n"


def test_the_same_time_penalty_on_the_sheet_and_entered_is_no_finding(
    division: Division, director: User, game_of: Callable[[int], Game]
) -> None:
    results.enter_line(division, 1, "1 20 2 24 ot 1 1", director)
    game = game_of(1)

    sheet = scoresheets.attach_scoresheet(game, TIMED, director)

    assert (game.score1, game.penalty1) == (10, 10)
    assert scoresheets.sheet_time_penalties(game, sheet.engine_report) == (10, None)
    assert scoresheets.penalty_differences(game, sheet.engine_report) == []
    assert sheet.flagged is False


def test_a_different_time_penalty_is_said_and_flags_the_sheet(
    division: Division, director: User, game_of: Callable[[int], Game]
) -> None:
    # Entered as two minutes over: 30 - 20 = 10, the sheet's final score, but not its penalty.
    results.enter_line(division, 1, "1 30 2 24 ot 1 2", director)
    game = game_of(1)

    sheet = scoresheets.attach_scoresheet(game, TIMED, director)

    assert plain(scoresheets.penalty_differences(game, sheet.engine_report)) == [
        "Quill, Ada's time penalty is 10 on the scoresheet and 20 in the entered result."
    ]
    assert sheet.flagged is True


def test_a_sheet_without_a_time_line_is_not_compared(
    division: Division, director: User, game_of: Callable[[int], Game]
) -> None:
    results.enter_line(division, 1, "1 20 2 34 ot 2 1", director)  # Ben's 34 - 10 = 24
    game = game_of(1)

    sheet = scoresheets.attach_scoresheet(game, game_record(), director)

    assert scoresheets.sheet_time_penalties(game, sheet.engine_report) == (None, None)
    assert scoresheets.penalty_differences(game, sheet.engine_report) == []
    assert sheet.flagged is False


def test_the_desk_page_and_the_upload_message_say_the_difference(
    desk: Client, division: Division, director: User, game_of: Callable[[int], Game]
) -> None:
    results.enter_line(division, 1, "1 30 2 24 ot 1 2", director)
    game = game_of(1)
    sheet = scoresheets.attach_scoresheet(game, TIMED, director)

    page = desk.get(reverse("desk-scoresheet", args=["spring-open", sheet.pk])).content.decode()

    assert "time-penalty-differs" in page
    assert "time penalty is 10 on the scoresheet and 20 in the entered result." in page


def test_correcting_the_penalty_clears_the_flag(
    division: Division, director: User, game_of: Callable[[int], Game]
) -> None:
    results.enter_line(division, 1, "1 30 2 24 ot 1 2", director)
    sheet = scoresheets.attach_scoresheet(game_of(1), TIMED, director)

    results.enter_line(division, 1, "1 20 2 24 ot 1 1", director, reason="the sheet's time")

    sheet.refresh_from_db()
    assert sheet.flagged is False
