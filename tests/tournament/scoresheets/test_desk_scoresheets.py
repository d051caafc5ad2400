"""Scoresheets with a game: typed and checked line by line, verified under the division's rules,
flagged when their final scores differ from the entered result, and saved with their findings
when malformed."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from tournament.core import changes
from tournament.event import services as event
from tournament.models import Change, Division, Game, Scoresheet
from tournament.results import services as results
from tournament.scoresheets import services as scoresheets


@pytest.fixture
def ada_ben(division: Division, director: User, game_of: Callable[[int], Game]) -> Game:
    """Ada v Ben with a result entered."""
    results.enter_line(division, 1, "1 20 2 24", director)
    return game_of(1)


def sheet_url(sheet: Scoresheet, what: str = "") -> str:
    return f"/desk/spring-open/scoresheets/{sheet.pk}/{what}"


def test_the_typed_scoresheet_starts_with_the_players_first_player_first(
    desk: Client, game_of: Callable[[int], Game]
) -> None:
    game = game_of(5)  # Gus was to go first

    response = desk.get(f"/desk/spring-open/games/{game.pk}/scoresheet/")

    assert response.context["form"].initial["gcg"] == (
        "#player1 Gus Stone, Gus\n#player2 Fay North, Fay\n"
    )


def test_each_line_is_checked_as_it_is_typed(
    desk: Client, ada_ben: Game, record: Callable[..., str]
) -> None:
    text = "#player1 Ada Ada Quill\n#player2 Ben Ben Crane\n>Ada: DJINNRS 8D DJINN +32 32\n"

    report = desk.post(
        f"/desk/spring-open/games/{ada_ben.pk}/scoresheet/check", {"gcg": text}
    ).json()

    # Each turn as [line, recorded score, engine's score, recorded total, engine's total]: the
    # record's own text is never sent back.
    assert report["turns"] == [[3, 32, 30, 32, 30]]
    assert [(f["line"], f["code"], f["expected"], f["recorded"]) for f in report["findings"]] == [
        (3, "wrong_score", 30, 32),
        (3, "not_finished", None, None),
    ]
    assert (report["errors"], report["more"]) == (1, 0)
    assert report["players"] == [
        {"nick": "Ada", "final": 32, "computed": 30},
        {"nick": "Ben", "final": 0, "computed": 0},
    ]
    assert "  8 = . . D J I N N . . . ' . . =" in report["board"].splitlines()
    assert report["verified"] is False


def test_a_whole_record_checks_clean_and_agrees_with_the_result(
    desk: Client, ada_ben: Game, record: Callable[..., str]
) -> None:
    report = desk.post(
        f"/desk/spring-open/games/{ada_ben.pk}/scoresheet/check", {"gcg": record()}
    ).json()

    assert report["verified"] is True
    assert report["findings"] == []
    assert report["differs"] is False
    assert [(p["nick"], p["final"], p["computed"]) for p in report["players"]] == [
        ("Ada", 20, 20),
        ("Ben", 24, 24),
    ]


def test_a_typed_scoresheet_is_saved_with_its_report(
    desk: Client, director: User, ada_ben: Game, record: Callable[..., str]
) -> None:
    response = desk.post(f"/desk/spring-open/games/{ada_ben.pk}/scoresheet/", {"gcg": record()})

    sheet = Scoresheet.objects.get()
    assert response.status_code == 302 and response["Location"] == sheet_url(sheet)
    assert (sheet.game, sheet.uploaded_by, sheet.verified, sheet.flagged) == (
        ada_ben,
        director,
        True,
        False,
    )
    assert sheet.gcg == record()
    assert set(sheet.report) >= {
        "verified",
        "rules",
        "tiles",
        "players",
        "findings",
        "turns",
        "board",
    }
    assert len(sheet.report["turns"]) == 10
    change = Change.objects.get(action="upload")
    assert (change.scoresheet, change.game, change.user) == (sheet, ada_ben, director)


def test_a_scoresheet_whose_result_differs_from_the_entered_one_is_flagged(
    desk: Client,
    division: Division,
    director: User,
    game_of: Callable[[int], Game],
    record: Callable[..., str],
) -> None:
    results.enter_line(division, 1, "1 20 2 25", director)  # the scoresheet says 20-24

    desk.post(f"/desk/spring-open/games/{game_of(1).pk}/scoresheet/", {"gcg": record()})

    sheet = Scoresheet.objects.get()
    assert sheet.verified is True  # the record is right; the entered result is not
    assert (sheet.flagged, sheet.resolved) == (True, False)
    page = desk.get(sheet_url(sheet))
    assert "differ from the entered result" in page.content.decode()
    assert page.context["scores"] == (20, 24)
    dashboard = desk.get("/desk/spring-open/")
    assert dashboard.context["flagged"] == [sheet]


def test_the_names_decide_which_final_score_is_whose(
    desk: Client,
    division: Division,
    director: User,
    game_of: Callable[[int], Game],
    record: Callable[..., str],
) -> None:
    results.enter_line(division, 1, "1 24 2 20", director)  # the scores swapped

    sheet = scoresheets.attach_scoresheet(game_of(1), record(), director)

    assert sheet.flagged is True


def test_a_flagged_scoresheet_stays_on_the_dashboard_until_resolved(
    desk: Client,
    division: Division,
    director: User,
    game_of: Callable[[int], Game],
    record: Callable[..., str],
) -> None:
    results.enter_line(division, 1, "1 20 2 25", director)
    sheet = scoresheets.attach_scoresheet(game_of(1), record(), director)

    response = desk.post(sheet_url(sheet, "resolve"), {"reason": "the slip was signed 20-25"})

    assert response.status_code == 302
    sheet.refresh_from_db()
    assert (sheet.flagged, sheet.resolved) == (True, True)
    assert desk.get("/desk/spring-open/").context["flagged"] == []
    change = Change.objects.get(action="resolve")
    assert (change.scoresheet, change.user, change.reason) == (
        sheet,
        director,
        "the slip was signed 20-25",
    )
    assert (
        changes.change_text(change.after)
        == f"scoresheet {sheet.pk} (Ada 20, Ben 24): verified, resolved"
    )


@pytest.fixture
def keeper(division: Division, director: User) -> User:
    """A scorekeeper of the tournament: enters results and scoresheets, publishes nothing."""
    User.objects.create_user("kim")
    return event.add_person(division.tournament, "kim", "scorekeeper", director)


def test_a_scorekeeper_may_not_resolve_a_held_scoresheet_into_public_view(
    keeper: User,
    division: Division,
    director: User,
    game_of: Callable[[int], Game],
    record: Callable[..., str],
    client_for: Callable[[User], Client],
) -> None:
    results.enter_line(division, 1, "1 20 2 25", director)
    sheet = scoresheets.attach_scoresheet(game_of(1), record(), director)
    assert (sheet.flagged, sheet.verified, sheet.held) == (True, True, True)
    logged = Change.objects.count()
    client = client_for(keeper)

    refused = client.post(sheet_url(sheet, "resolve"), {"reason": "looks fine to me"})
    page = client.get(sheet_url(sheet)).content.decode()

    assert refused.status_code == 403
    assert (
        "You keep score at Spring Open: you may enter results and scoresheets. Pairing, "
        "publishing, players and settings are for its directors"
    ) in refused.content.decode()
    sheet.refresh_from_db()
    assert (sheet.resolved, sheet.released, sheet.held) == (False, False, True)
    assert Change.objects.count() == logged
    assert sheet_url(sheet, "resolve") not in page
    assert sheet_url(sheet, "release") not in page
    assert (
        '<p id="directors-publish">Resolving or publishing a scoresheet held from the public is '
        "for the tournament's directors.</p>"
    ) in page
    director_page = client_for(director).get(sheet_url(sheet)).content.decode()
    assert sheet_url(sheet, "resolve") in director_page
    assert sheet_url(sheet, "release") in director_page


def test_a_scorekeeper_resolves_a_flagged_scoresheet_already_published(
    keeper: User,
    division: Division,
    director: User,
    game_of: Callable[[int], Game],
    record: Callable[..., str],
    client_for: Callable[[User], Client],
) -> None:
    results.enter_line(division, 1, "1 20 2 25", director)
    sheet = scoresheets.attach_scoresheet(game_of(1), record(), director)
    scoresheets.release_scoresheet(sheet, director, "the players agree")
    client = client_for(keeper)
    assert sheet_url(sheet, "resolve") in client.get(sheet_url(sheet)).content.decode()

    response = client.post(sheet_url(sheet, "resolve"), {"reason": "the slip was signed 20-25"})

    assert response.status_code == 302
    sheet.refresh_from_db()
    assert (sheet.resolved, sheet.released, sheet.held) == (True, True, False)
    assert Change.objects.get(action="resolve").user == keeper


def test_correcting_the_result_to_agree_takes_the_flag_off(
    desk: Client,
    division: Division,
    director: User,
    game_of: Callable[[int], Game],
    record: Callable[..., str],
) -> None:
    results.enter_line(division, 1, "1 20 2 25", director)
    sheet = scoresheets.attach_scoresheet(game_of(1), record(), director)

    results.enter_line(division, 1, "1 20 2 24", director, reason="the scoresheet is right")

    sheet.refresh_from_db()
    assert sheet.flagged is False


@pytest.mark.parametrize(
    ("content", "codes"),
    [
        (b"", ["empty"]),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", ["malformed_line"]),
        (b"#player1 Ada Ada Quill\n>Ada: hello world\n", ["too_few_players", "malformed_line"]),
    ],
    ids=["empty", "binary", "one-player"],
)
def test_a_malformed_scoresheet_is_saved_with_its_findings(
    desk: Client, ada_ben: Game, content: bytes, codes: list[str]
) -> None:
    response = desk.post(
        f"/desk/spring-open/games/{ada_ben.pk}/upload",
        {"file": SimpleUploadedFile("bad.gcg", content)},
    )

    sheet = Scoresheet.objects.get()
    assert response.status_code == 302
    assert sheet.verified is False and sheet.flagged is False
    found = [f["code"] for f in sheet.report["findings"] if f["severity"] == "error"]
    assert all(code in found for code in codes), found
    assert "\x00" not in sheet.gcg
    page = desk.get(sheet_url(sheet))
    assert page.status_code == 200
    assert "not verified" in page.content.decode()
    for finding in sheet.report["findings"]:
        assert finding["code"] in page.content.decode()


def test_a_malformed_typed_scoresheet_is_checked_and_saved_too(desk: Client, ada_ben: Game) -> None:
    text = "#player1 Ada Ada Quill\n#player2 Ben Ben Crane\n>Ada DJINN\ngarbage\n"

    check = desk.post(f"/desk/spring-open/games/{ada_ben.pk}/scoresheet/check", {"gcg": text})
    saved = desk.post(f"/desk/spring-open/games/{ada_ben.pk}/scoresheet/", {"gcg": text})

    assert check.status_code == 200
    assert [f["line"] for f in check.json()["findings"]] == [3, 4]
    assert saved.status_code == 302
    sheet = Scoresheet.objects.get()
    assert [(f["line"], f["code"]) for f in sheet.report["findings"]] == [
        (3, "malformed_line"),
        (4, "malformed_line"),
    ]
    assert "with-findings" in desk.get("/desk/spring-open/").content.decode()
    assert desk.get("/desk/spring-open/").context["with_findings"] == [sheet]


def test_an_unknown_ruleset_is_said_and_the_record_still_checked(
    desk: Client, division: Division, ada_ben: Game, record: Callable[..., str]
) -> None:
    division.ruleset = "no-such-rules"
    division.save()

    sheet = scoresheets.attach_scoresheet(ada_ben, record(), None)

    # Stored as a code and its parameters; the page makes the sentence.
    assert sheet.report["findings"][0] == {
        "line": 0,
        "severity": "warning",
        "code": "desk_settings",
        "params": {"case": "ruleset", "ruleset": "no-such-rules"},
        "player": None,
        "expected": None,
        "recorded": None,
    }
    assert sheet.engine_report.findings[0].message == (
        "the division's ruleset 'no-such-rules' is unknown: checked under auto"
    )
    assert sheet.verified is True  # a warning only


def test_a_scoresheets_text_can_be_corrected_and_is_checked_again(
    desk: Client, director: User, ada_ben: Game, record: Callable[..., str]
) -> None:
    sheet = scoresheets.attach_scoresheet(ada_ben, record().replace("+30 30", "+32 32"), director)
    assert sheet.verified is False

    response = desk.post(sheet_url(sheet, "edit/"), {"gcg": record(), "reason": "typo"})

    sheet.refresh_from_db()
    assert response.status_code == 302
    assert sheet.verified is True
    change = Change.objects.get(action="correct", scoresheet=sheet)
    assert change.reason == "typo"


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-le", "utf-32", "utf-8-sig"])
def test_an_uploaded_scoresheet_saved_as_utf_16_or_32_is_read_as_text(codec: str) -> None:
    text = "#player1 Zoë Zoë Łukasiewicz\n#player2 Ben Ben Crane\n>Zoë: DJINNRS 8D DJINN +30 30\n"
    assert scoresheets.scoresheet_text(text.encode(codec)) == text
