"""Scoresheet findings stored as codes and parameters: the pages, the typing page's live check and
the desk's own notes make their sentences; rows stored with sentences are migrated."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.test import Client

import scoring
import tournament.migrations as migrations_package
from tournament.models import Division, Game, Scoresheet
from tournament.results import services as results
from tournament.scoresheets import services as scoresheets
from tournament.scoresheets import viewer

STORED_KEYS = sorted(["line", "severity", "code", "params", "player", "expected", "recorded"])
WRONG_DJINN = "DJINN at 8D scores 30, not 32"


@pytest.fixture
def ada_ben(division: Division, director: User, game_of: Callable[[int], Game]) -> Game:
    results.enter_line(division, 1, "1 20 2 24", director)
    return game_of(1)


@pytest.fixture
def wrong_sheet(ada_ben: Game, director: User, record: Callable[..., str]) -> Scoresheet:
    """DJINN recorded as 32 (it scores 30), the totals after it 2 too high."""
    text = record().replace("DJINN +30 30", "DJINN +32 32")
    return scoresheets.attach_scoresheet(ada_ben, text, director)


def test_a_stored_finding_is_its_code_and_parameters_and_pages_make_the_sentence(
    desk: Client, wrong_sheet: Scoresheet
) -> None:
    stored = wrong_sheet.report["findings"][0]

    assert sorted(stored) == STORED_KEYS
    assert stored["params"] == {"word": "DJINN", "position": "8D", "score": 30, "recorded": 32}
    assert wrong_sheet.engine_report.findings[0].message == WRONG_DJINN
    page = desk.get(f"/desk/spring-open/scoresheets/{wrong_sheet.pk}/").content.decode()
    assert WRONG_DJINN in page
    dashboard = desk.get("/desk/spring-open/").content.decode()
    assert WRONG_DJINN in dashboard
    view = viewer.sheet_view(wrong_sheet.engine_report)
    assert [f.message for f in view.turns[0].findings] == [WRONG_DJINN]


def test_the_live_check_gives_the_script_each_findings_sentence(
    desk: Client, ada_ben: Game, record: Callable[..., str]
) -> None:
    text = record().replace("DJINN +30 30", "DJINN +32 32")

    report = desk.post(
        f"/desk/spring-open/games/{ada_ben.pk}/scoresheet/check", {"gcg": text}
    ).json()

    first = report["findings"][0]
    assert (first["code"], first["message"], first["params"]["score"]) == (
        "wrong_score",
        WRONG_DJINN,
        30,
    )
    assert [f["message"] for f in report["findings"] if f["line"] == 3] == [WRONG_DJINN]


def test_the_desks_own_notes_are_codes_too(
    division: Division, ada_ben: Game, record: Callable[..., str], tmp_path: Path
) -> None:
    division.tile_set = "klingon"
    division.lexicons = f"na:{tmp_path / 'missing.txt'}"
    division.save()

    report = scoresheets.check_scoresheet(division, record())

    notes = [f for f in report.findings if f.code == "desk_settings"]
    assert [f.params["case"] for f in notes] == ["tiles", "lexicon"]
    assert notes[0].message == (
        "the division's tile set 'klingon' is unknown: guessed from the record"
    )
    assert notes[1].message.endswith(": its words are not checked")
    assert "missing.txt" in notes[1].message


def test_an_engine_failure_is_stored_as_a_code(
    division: Division, record: Callable[..., str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(scoring, "verify", broken)

    report = scoresheets.check_scoresheet(division, record())

    assert [(f.code, f.params, f.message) for f in report.findings] == [
        ("engine_failure", {"error": "boom"}, "not checked: boom")
    ]


# -- the migration ------------------------------------------------------------------------------

OLD_FINDING = {
    "line": 3,
    "severity": "error",
    "code": "wrong_score",
    "message": WRONG_DJINN,
    "player": "Ada",
    "expected": 30,
    "recorded": 32,
}


def _migration():
    # Found by its name, whatever number the migration ends up with.
    folder = Path(migrations_package.__file__).parent
    (path,) = folder.glob("*_codes.py")
    return importlib.import_module(f"tournament.migrations.{path.stem}")


def _old_sheet(game: Game, text: str, report: object) -> Scoresheet:
    sheet = Scoresheet.objects.create(game=game, gcg=text, report=report)
    # As stored before: `create` saved it as given, sentences and all.
    return sheet


def test_old_rows_are_checked_again_and_store_codes(
    ada_ben: Game, record: Callable[..., str], game_of: Callable[[int], Game]
) -> None:
    text = record().replace("DJINN +30 30", "DJINN +32 32")
    old = {
        "file": "ada-ben.gcg",
        "verified": False,
        "findings": [OLD_FINDING],
        "checked_by": "spread 0.1",
    }
    sheet = _old_sheet(ada_ben, text, old)
    odd = [
        _old_sheet(game_of(3), "", {}),
        _old_sheet(game_of(5), "not a record", {"findings": ["odd", 7], "players": "x"}),
        _old_sheet(game_of(7), "#player1 a\n", []),
    ]

    _migration().forwards(apps, None)

    sheet.refresh_from_db()
    stored = sheet.report["findings"][0]
    assert sorted(stored) == STORED_KEYS
    assert (stored["code"], stored["params"]["word"]) == ("wrong_score", "DJINN")
    assert sheet.engine_report.findings[0].message == WRONG_DJINN
    assert (sheet.report["file"], sheet.report["checked_by"]) == ("ada-ben.gcg", "spread 0.1")
    assert sheet.engine_report.key == scoresheets.report_key(ada_ben.division, text)
    for other in odd:
        other.refresh_from_db()
        assert all(sorted(f) == STORED_KEYS for f in other.report["findings"])
        assert other.engine_report.findings  # each is checked: empty or not a record
    assert odd[0].engine_report.findings[0].message == "the record is empty"


def test_a_row_that_cannot_be_checked_again_keeps_its_sentences(
    ada_ben: Game, record: Callable[..., str], monkeypatch: pytest.MonkeyPatch
) -> None:
    sheet = _old_sheet(ada_ben, record(), {"verified": False, "findings": [OLD_FINDING]})

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(scoresheets, "_report", broken)
    _migration().forwards(apps, None)

    sheet.refresh_from_db()
    (stored,) = sheet.report["findings"]
    assert stored["params"] == {"case": "legacy", "text": WRONG_DJINN}
    assert "message" not in stored
    assert sheet.engine_report.findings[0].message == WRONG_DJINN


def test_the_migration_goes_back_to_sentences(wrong_sheet: Scoresheet) -> None:
    migration = _migration()

    migration.backwards(apps, None)
    wrong_sheet.refresh_from_db()
    back = wrong_sheet.report["findings"][0]
    assert (back["code"], back["message"]) == ("wrong_score", WRONG_DJINN)
    assert "params" not in back

    migration.forwards(apps, None)
    wrong_sheet.refresh_from_db()
    assert wrong_sheet.report["findings"][0]["params"]["recorded"] == 32
