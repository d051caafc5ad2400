"""The sheet is the report: a scoresheet a player saves from their link (typed, uploaded or
entered on the board) that is whole and verified is their report of its final scores, taken as
if they had typed them; a sheet with findings, or one the game does not end on, is none, and
the page says why. A sheet the desk attaches is neither player's report."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from tournament.models import Change, Claim, Division, Game, Round, Scoresheet
from tournament.phone import services as phone
from tournament.results import services as results
from tournament.scoresheets import services as scoresheets

WAITING = (
    "Scoresheet saved: the engine found nothing wrong. It is your report of the result: "
    "20–24. Reported. Waiting for \u2068Crane, Ben\u2069 to report too."
)
FINDINGS = (
    "A scoresheet with findings is not your report of the result: correct it, or type your "
    "scores on your page."
)


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    cache.clear()


@pytest.fixture
def on(division: Division) -> Division:
    division.self_report = True
    division.save()
    Round.objects.create(division=division, number=1, published=True)
    return division


def _token(division: Division, number: int) -> str:
    return phone.issue_link(division.players.get(number=number))


def _send(token: str, game: Game, gcg: str, **extra) -> str:
    response = Client().post(
        reverse("phone-sheet", args=[token, game.pk]), {"gcg": gcg, **extra}, follow=True
    )
    assert response.status_code == 200
    return "\n".join(str(m) for m in response.context["messages"])


def _report(token: str, mine: str, theirs: str) -> str:
    response = Client().post(
        reverse("phone-report", args=[token]),
        {"my_score": mine, "opponent_score": theirs},
        follow=True,
    )
    return "\n".join(str(m) for m in response.context["messages"])


def _claims() -> list[tuple[int, int, int]]:
    return list(
        Claim.objects.order_by("player__number").values_list(
            "player__number", "my_score", "opponent_score"
        )
    )


def _results() -> list[tuple[int | None, int | None]]:
    return list(Change.objects.filter(action="create").values_list("player__number", "user"))


def test_a_whole_verified_sheet_is_the_players_report_and_one_agreeing_report_records_it(
    on: Division, game_of: Callable[..., Game], record: Callable[..., str]
) -> None:
    game = game_of(1)
    ada, ben = _token(on, 1), _token(on, 2)

    assert _send(ada, game, record()) == WAITING
    assert _claims() == [(1, 20, 24)]
    assert game_of(1).score1 is None

    assert _report(ben, "24", "20") == "Both reports agree: the result is recorded."
    game = game_of(1)
    assert (game.score1, game.score2) == (20, 24)
    assert _results() == [(2, None)]  # once, by the player who completed the agreement
    assert _claims() == []
    assert Scoresheet.objects.get().flagged is False


def test_the_opponents_own_sheet_agreeing_records_the_result_once(
    on: Division, game_of: Callable[..., Game], record: Callable[..., str]
) -> None:
    game = game_of(1)
    ada, ben = _token(on, 1), _token(on, 2)
    _send(ada, game, record())

    said = _send(ben, game, record("A", "Ada Quill", "B", "Ben Crane"))

    assert said == (
        "Scoresheet saved: the engine found nothing wrong. It is your report of the result: "
        "24–20. Both reports agree: the result is recorded."
    )
    game = game_of(1)
    assert (game.score1, game.score2) == (20, 24)
    assert _results() == [(2, None)]
    assert [s.flagged for s in Scoresheet.objects.all()] == [False, False]
    # The same sheet sent again, once recorded: no second result, no word of a report.
    assert _send(ben, game, record("A", "Ada Quill", "B", "Ben Crane")) == (
        "Scoresheet saved: the engine found nothing wrong."
    )
    assert _results() == [(2, None)]


def test_an_uploaded_sheet_and_one_saved_from_the_board_are_reports_too(
    on: Division, game_of: Callable[..., Game], record: Callable[..., str]
) -> None:
    game = game_of(1)
    upload = SimpleUploadedFile("ada-ben.gcg", record().encode())
    assert _send(_token(on, 1), game, "", file=upload) == WAITING

    board = Client().post(
        reverse("phone-sheet", args=[_token(on, 2), game.pk]),
        {"gcg": record("A", "Ada Quill", "B", "Ben Crane")},
        HTTP_X_SPREAD_BOARD="save",
    )

    assert board.status_code == 200 and "saved" in board.json()
    assert (game_of(1).score1, game_of(1).score2) == (20, 24)


def test_a_sheet_that_disagrees_with_the_opponents_report_waits_for_the_desk(
    on: Division, game_of: Callable[..., Game], record: Callable[..., str]
) -> None:
    game = game_of(1)
    ada, ben = _token(on, 1), _token(on, 2)
    _report(ben, "30", "20")

    said = _send(ada, game, record())

    assert said == (
        "Scoresheet saved: the engine found nothing wrong. It is your report of the result: "
        "20–24. \u2068Crane, Ben\u2069 reported 30–20: the desk will decide. You may change "
        "your report until then."
    )
    assert _claims() == [(1, 20, 24), (2, 30, 20)]
    assert game_of(1).score1 is None
    page = Client().get(reverse("phone", args=[ada])).content.decode()
    assert '<bdi>Crane, Ben</bdi> reported <bdi dir="ltr" class="ltr">30–20</bdi>' in page


def test_a_sheet_with_findings_is_no_report_and_the_page_says_why(
    on: Division, game_of: Callable[..., Game], record: Callable[..., str]
) -> None:
    game, ada = game_of(1), _token(on, 1)
    wrong = record().replace("DJINN +30 30", "DJINN +32 32")

    said = _send(ada, game, wrong)

    assert said.startswith("Scoresheet saved with ")
    assert said.endswith(": the desk will see them. " + FINDINGS)
    assert _claims() == []
    page = Client().get(reverse("phone-sheet", args=[ada, game.pk])).content.decode()
    assert f'<p class="sheet-report not">{FINDINGS}</p>' in page


def test_a_sheet_the_game_does_not_end_on_is_no_report(
    on: Division, game_of: Callable[..., Game], record: Callable[..., str]
) -> None:
    game = game_of(1)
    unfinished = "".join(record().splitlines(keepends=True)[:4])

    said = _send(_token(on, 1), game, unfinished)

    assert Scoresheet.objects.get().verified is True  # a warning only: the last totals stand
    assert said == (
        "Scoresheet saved: the engine found nothing wrong. The game does not end on this "
        "scoresheet, so it is not your report of the result."
    )
    assert _claims() == []


def test_the_sheet_page_says_the_sheet_is_the_report_while_it_is(
    on: Division, game_of: Callable[..., Game], record: Callable[..., str]
) -> None:
    game, ada = game_of(1), _token(on, 1)
    _send(ada, game, record())
    url = reverse("phone-sheet", args=[ada, game.pk])

    shown = Client().get(url).content.decode()
    assert '<p class="sheet-report">It is your report of the result: 20–24.</p>' in shown

    _report(ada, "21", "24")  # a report typed since is the report: the page says nothing
    assert "sheet-report" not in Client().get(url).content.decode()


def test_a_sheet_sent_after_the_result_is_compared_with_it_not_reported(
    on: Division, game_of: Callable[..., Game], director: User, record: Callable[..., str]
) -> None:
    game = game_of(1)
    results.enter_line(on, 1, "1 21 2 24", director)

    said = _send(_token(on, 1), game, record())

    assert said == (
        "Scoresheet saved: the engine found nothing wrong. Its final scores differ from the "
        "recorded result: it is flagged."
    )
    assert _claims() == [] and (game_of(1).score1, game_of(1).score2) == (21, 24)


def test_a_sheet_the_desk_attaches_is_no_ones_report(
    on: Division, game_of: Callable[..., Game], director: User, record: Callable[..., str]
) -> None:
    scoresheets.attach_scoresheet(game_of(1), record(), director)

    assert _claims() == []
    assert game_of(1).score1 is None
