"""The app writes the engines' findings and pairing reasons in the reader's language, from the codes
and parameters the database keeps (`tournament.sentences`): the desk's live check of a scoresheet,
a stored sheet's report, the round's notes and warnings, and the `pair` command."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tournament.core import sentences
from tournament.core.sheet_report import SheetFinding
from tournament.models import Division, Game, Round
from tournament.pairing import services as pairing
from tournament.results import services as results
from tournament.scoresheets import services as scoresheets

ROUND_1 = ["1 400 2 350", "3 500 4 300", "6 450 5 350", "7 bye"]


@contextmanager
def reading(lang: str) -> Iterator[dict[str, str]]:
    """A reader of `lang`: the language active (as Django's LocaleMiddleware or a report's
    `translation.override` sets it) and the browser's header for a request."""
    with translation.override(lang):
        yield {"HTTP_ACCEPT_LANGUAGE": lang}


@pytest.fixture
def played(division: Division, director) -> Division:
    for line in ROUND_1:
        results.enter_line(division, 1, line, director)
    return division


def test_the_live_check_answers_in_the_readers_language(
    desk: Client, division: Division, game_of: Callable[[int], Game], record
) -> None:
    game = game_of(1)
    text = record().replace("+", "+1", 1)  # the first play's score, written wrong
    url = f"/desk/spring-open/games/{game.pk}/scoresheet/check"
    said = {}
    for lang in ("en", "fi", "ko"):
        with reading(lang) as header:
            data = desk.post(url, {"gcg": text}, **header).json()
        said[lang] = [(f["code"], f["message"]) for f in data["findings"]]
    codes = [code for code, _ in said["en"]]
    assert "wrong_score" in codes
    assert [code for code, _ in said["fi"]] == [code for code, _ in said["ko"]] == codes
    en = dict(said["en"])["wrong_score"]
    fi = dict(said["fi"])["wrong_score"]
    ko = dict(said["ko"])["wrong_score"]
    assert " scores " in en and ", not " in en
    assert " tuottaa " in fi and " pistettä, ei " in fi
    assert ko.endswith("점입니다") and "점이 아니라" in ko


def test_a_stored_report_keeps_codes_and_is_written_in_each_language(
    division: Division, director, game_of: Callable[[int], Game], record
) -> None:
    text = record().replace("+", "+1", 1)  # the first play's score, written wrong
    sheet = scoresheets.attach_scoresheet(game_of(1), text, director)

    stored = sheet.report["findings"]
    assert stored and all("message" not in f and "code" in f for f in stored)
    (finding,) = [f for f in sheet.engine_report.findings if f.code == "wrong_score"]
    english = finding.message
    assert " scores " in english
    for lang in ("id", "ko", "fi", "fa"):
        with translation.override(lang):
            assert finding.message != english
            assert finding.message == sentences.finding(finding.code, finding.params)
    assert finding.message == english


def test_the_desks_own_findings_use_djangos_catalog_and_the_engines_formatter() -> None:
    found = SheetFinding(0, "warning", "desk_settings", {"case": "tiles", "tiles": "klingon"})
    assert found.message == "the division's tile set 'klingon' is unknown: guessed from the record"
    broken = SheetFinding(0, "error", "engine_failure", {})
    assert broken.message == "engine_failure"  # a parameter missing: shown as it is, no error


def test_the_rounds_reasons_and_warnings_are_written_in_the_readers_language(
    desk: Client, played: Division
) -> None:
    desk.post(
        reverse("desk-pair-manual", args=["spring-open", played.pk, 2]),
        {"pairs": "1 2\n3 4\n5 6\n7 bye\n"},
    )
    state = Round.objects.get(division=played, number=2)
    assert state.warnings and all("message" not in w for w in state.warnings)
    page_url = reverse("desk-round-pairings", args=["spring-open", played.pk, 2])
    with reading("fi") as header:
        page = desk.get(page_url, **header).content.decode()
    assert 'data-code="repeat_limit"' in page
    assert "ovat kohdanneet 1 kerran; sarja sallii: ei uusintaotteluita." in page
    with reading("fa") as header:
        page = desk.get(page_url, **header).content.decode()
    assert "1 بار با هم بازی کرده‌اند؛ سقف این بخش: بدون دیدار دوباره." in page


def test_a_paired_rounds_notes_follow_the_language(played: Division, director) -> None:
    state = pairing.pair(played, 2, director, system="koth")
    english = pairing.note_lines(state)
    assert any(" v " in n for n in english)
    with translation.override("ko"):
        korean = pairing.note_lines(state)
    assert len(korean) == len(english) and korean != english
    assert any(" 대 " in n for n in korean)


def test_the_pair_command_writes_in_the_active_language(played: Division) -> None:
    out = StringIO()
    with translation.override("id"):
        call_command(
            "pair", "spring-open", "--division", "A", "--round", "2", "--dry-run", stdout=out
        )
    text = out.getvalue()
    assert "note: " in text
    assert "mendapat bye" in text


def test_a_game_records_findings_print_in_the_readers_language(
    desk: Client, division: Division, director, game_of: Callable[[int], Game], record
) -> None:
    from tests.tournament.reports.report_support import pdf_text

    text = record().replace("+", "+1", 1)  # the first play's score, written wrong
    sheet = scoresheets.attach_scoresheet(game_of(1), text, director)
    url = reverse("desk-game-record", args=["spring-open", sheet.pk])
    with reading("fi") as header:
        finnish = " ".join(pdf_text(desk.get(url, **header).content).split())
    english = " ".join(pdf_text(desk.get(url).content).split())
    assert " tuottaa " in finnish and " pistettä, ei " in finnish
    assert " scores " in english and " tuottaa " not in english
