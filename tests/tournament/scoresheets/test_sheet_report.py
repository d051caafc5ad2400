"""The report stored with a scoresheet, typed: read from a real game, written back unchanged,
and read from older rows that lack keys."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth.models import User
from django.test import Client
from scoring_support import corpus_game

from tournament.core.sheet_report import SheetFinding, SheetPlayer, SheetReport, SheetTurn
from tournament.models import Division, Game, Scoresheet
from tournament.results import services as results
from tournament.scoresheets import services as scoresheets

DOUG_V_EMELY = "macondo/gcgio__testdata__doug_v_emely.gcg"


def test_a_real_games_report_is_typed_and_stored_as_before(division: Division) -> None:
    report = scoresheets.check_scoresheet(division, corpus_game(DOUG_V_EMELY))

    assert report.verified is True
    assert (report.rules, report.tiles, report.ended) == ("naspa", "english", "out")
    assert report.players == [
        SheetPlayer("doug", "doug", 451, 451),
        SheetPlayer("emely", "emely", 345, 345),
    ]
    assert report.findings == []
    # Line 30: emely goes out; doug's EGOP (7) counts twice for her: 331 + 14 = 345.
    # It is the 28th event; before it, only doug's EGOP is off the board.
    assert report.turns[-1] == SheetTurn(
        30, "emely", "end_points", ">emely: (OPEG) +14 345", 14, 14, 345, 345, number=28,
        unseen={"E": 1, "G": 1, "O": 1, "P": 1},
    )  # fmt: skip
    stored = report.as_dict()
    assert list(stored) == [
        "verified", "rules", "tiles", "players", "findings", "turns", "board", "ended", "layout",
        "unseen", "values",
    ]  # fmt: skip
    assert stored["players"][0] == {"nick": "doug", "name": "doug", "final": 451, "computed": 451}
    assert SheetReport.from_dict(stored) == report


def test_a_wrong_score_is_a_typed_finding_on_its_line(
    division: Division,
    director: User,
    game_of: Callable[[int], Game],
    record: Callable[..., str],
) -> None:
    results.enter_line(division, 1, "1 20 2 24", director)
    text = record().replace("WITHY +33 33", "WITHY +34 34")
    sheet = scoresheets.attach_scoresheet(game_of(1), text, director, "ada-ben.gcg")

    report = sheet.engine_report

    assert report.file == "ada-ben.gcg" and sheet.report["file"] == "ada-ben.gcg"
    wrong = report.findings_by_line()[4]
    assert [(f.severity, f.code, f.player, f.expected, f.recorded) for f in wrong] == [
        ("error", "wrong_score", "Ben", 33, 34)
    ]
    assert report.turns_by_line()[4].wrong is True
    assert report.turns_by_line()[3].wrong is False
    assert SheetReport.from_dict(sheet.report).as_dict() == sheet.report


def test_an_older_row_without_turns_board_or_a_players_name_still_reads(
    desk: Client,
    division: Division,
    director: User,
    game_of: Callable[[int], Game],
) -> None:
    results.enter_line(division, 1, "1 20 2 25", director)
    old = {
        "verified": False,
        "players": [{"nick": "Ada", "final": 20}, {"nick": "Ben", "final": 24}],
        "findings": [{"line": 0, "severity": "error", "code": "end_missing", "message": "no end"}],
        "checked_by": "spread 0.1",
    }
    sheet = Scoresheet.objects.create(game=game_of(1), gcg="#player1 Ada\n", report=old)

    report = sheet.engine_report

    assert (report.turns, report.board, report.ended, report.rules) == ([], "", None, "")
    assert report.players[0] == SheetPlayer("Ada", "", 20, None)
    # A finding stored as a sentence, before findings carried parameters, keeps its sentence.
    assert report.record_findings == [
        SheetFinding(0, "error", "end_missing", {"case": "legacy", "text": "no end"})
    ]
    assert report.record_findings[0].message == "no end"
    assert report.as_dict()["checked_by"] == "spread 0.1"  # a key not known here is kept
    assert scoresheets.sheet_scores(game_of(1), report) == (20, 24)
    assert scoresheets.differs(game_of(1), report) is True
    # A row stored before reports had a key is checked again when its page is first shown.
    page = desk.get(f"/desk/spring-open/scoresheets/{sheet.pk}/")
    assert page.status_code == 200
    sheet.refresh_from_db()
    assert sheet.engine_report.key == scoresheets.report_key(division, sheet.gcg)
