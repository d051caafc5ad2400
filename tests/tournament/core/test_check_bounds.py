"""The bounds of one record (`tournament.bounds`): a record over them is refused in one line on
every path that reads one (the live checks, the desk's typing and uploads, a phone's sheet), a
check's answer lists a bounded number of findings and never the record, and a link's live checks
are charged by what they check."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from tournament.core import bounds
from tournament.models import Division, Game, Round, Scoresheet
from tournament.phone import services as phone
from tournament.scoresheets import services as scoresheets

CORPUS = Path(__file__).resolve().parents[4] / "shared" / "corpus" / "gcg"
HEADER = "#player1 Ada Ada Quill\n#player2 Ben Ben Crane\n"
# The attack as it was measured: 240 KB of 30,000 #note lines, each a finding before any move.
ATTACK = HEADER + "#note x\n" * 30000
ATTACK_LINES = "The record has 30,002 lines, over the 1,000 a game record can take: not checked."


@pytest.fixture
def on(division: Division) -> Division:
    division.self_report = True
    division.save()
    Round.objects.create(division=division, number=1, published=True)
    return division


def _check_url(token: str, game: Game) -> str:
    return reverse("phone-sheet-check", args=[token, game.pk])


def _desk_check(game: Game) -> str:
    return f"/desk/spring-open/games/{game.pk}/scoresheet/check"


def test_the_attack_record_is_refused_by_the_phones_check_in_one_line(
    on: Division, game_of: Callable[..., Game]
) -> None:
    game = game_of(1)
    token = phone.issue_link(on.players.get(number=1))

    response = Client().post(_check_url(token, game), {"gcg": ATTACK})

    assert response.status_code == 413
    assert response.json() == {"error": ATTACK_LINES}
    assert len(response.content) < 200  # was 11 MB


def test_the_desks_check_typing_and_uploads_refuse_it_too(
    division: Division, game_of: Callable[..., Game], desk: Client
) -> None:
    game = game_of(1)
    saved = "The scoresheet has 30,002 lines, over the 1,000 a game record can take: not saved."

    checked = desk.post(_desk_check(game), {"gcg": ATTACK})
    typed = desk.post(f"/desk/spring-open/games/{game.pk}/scoresheet/", {"gcg": ATTACK})
    one = desk.post(
        f"/desk/spring-open/games/{game.pk}/upload",
        {"file": SimpleUploadedFile("notes.gcg", ATTACK.encode())},
        follow=True,
    )
    many = desk.post(
        reverse("desk-upload", args=["spring-open", division.pk]),
        {"files": [SimpleUploadedFile("notes.gcg", ATTACK.encode())], "round": ""},
    )

    assert (checked.status_code, checked.json()) == (413, {"error": ATTACK_LINES})
    assert typed.status_code == 200 and typed.context["form"].errors["gcg"] == [saved]
    assert [str(m) for m in one.context["messages"]] == [saved]
    assert many.context["errors"] == [f"notes.gcg: {saved}"]
    assert not Scoresheet.objects.exists()


def test_a_phone_cannot_save_it_either(on: Division, game_of: Callable[..., Game]) -> None:
    game = game_of(1)
    token = phone.issue_link(on.players.get(number=1))

    response = Client().post(reverse("phone-sheet", args=[token, game.pk]), {"gcg": ATTACK})

    assert response.status_code == 400
    assert response.context["error"] == (
        "The scoresheet has 30,002 lines, over the 1,000 a game record can take: not saved."
    )
    assert not Scoresheet.objects.exists()


def test_too_many_notes_are_refused_under_the_line_bound(
    division: Division, game_of: Callable[..., Game], desk: Client, record: Callable[..., str]
) -> None:
    text = record() + "#note fine\n" * (bounds.MAX_RECORD_NOTES + 1)

    response = desk.post(_desk_check(game_of(1)), {"gcg": text})

    assert response.status_code == 413
    assert response.json() == {
        "error": "The record has 301 #note lines, over the 300 a game record can take: not checked."
    }


def test_a_record_at_the_bounds_answers_a_bounded_list_of_findings(
    division: Division, game_of: Callable[..., Game], desk: Client
) -> None:
    # 998 unreadable lines, each quoting a long token: 998 findings, each naming the token.
    token = "Q" * 200
    lines = [f">Ada: {token}" for _ in range(bounds.MAX_RECORD_LINES - 2)]
    text = HEADER + "\n".join(lines) + "\n"

    response = desk.post(_desk_check(game_of(1)), {"gcg": text})
    report = response.json()

    assert response.status_code == 200
    assert len(report["findings"]) == bounds.FINDINGS_SHOWN
    assert report["more"] == 998 - bounds.FINDINGS_SHOWN
    assert report["errors"] == 998
    assert [f["line"] for f in report["findings"]] == list(range(3, 3 + bounds.FINDINGS_SHOWN))
    assert token not in response.content.decode()  # quoted at most QUOTED characters
    assert len(response.content) < len(text.encode()) / 4


def test_the_answer_never_echoes_the_records_lines(
    division: Division, game_of: Callable[..., Game], desk: Client, record: Callable[..., str]
) -> None:
    text = record() + "#note a note only the record has\n"

    report = desk.post(_desk_check(game_of(1)), {"gcg": text}).json()

    assert set(report) == {
        "verified", "differs", "players", "errors", "findings", "more", "turns", "board",
    }  # fmt: skip
    assert "a note only the record has" not in json.dumps(report)
    assert ">Ada:" not in json.dumps(report)


@pytest.mark.skipif(not CORPUS.is_dir(), reason="the GCG corpus (../shared/corpus/gcg) is absent")
def test_no_real_game_is_over_a_bound_and_an_answer_is_its_findings_and_little_more(
    division: Division, game_of: Callable[..., Game]
) -> None:
    game = game_of(1)
    files = sorted(CORPUS.rglob("*.gcg"))
    assert len(files) > 100
    for path in files:
        data = path.read_bytes()
        text = bounds.record_text(data, saving=False)  # raises for a game over a bound
        answer = scoresheets.live_check(game, text)
        findings = len(json.dumps(answer["findings"]))
        # Beyond its findings: the board (about 700 bytes) and five numbers a turn.
        assert len(json.dumps(answer)) - findings <= len(data) + 1024, path.name


def test_a_links_checks_are_charged_by_their_lines_and_bytes(
    on: Division, game_of: Callable[..., Game], record: Callable[..., str]
) -> None:
    game = game_of(1)
    token = phone.issue_link(on.players.get(number=1))
    big = record() + "#note n\n" * 250 + ">Ada: - +0 0\n" * 730  # 992 lines, 11,773 bytes
    small = record()  # 12 lines, 283 bytes

    assert (bounds.check_cost(big), bounds.check_cost(small)) == (992 + 11, 12)
    statuses = [Client().post(_check_url(token, game), {"gcg": big}).status_code for _ in range(12)]
    # 11 × 1,003 units fit in the minute's 12,000; the 12th does not.
    assert statuses == [200] * 11 + [429]
    # What is left (967 units) still takes a small record's check: charged by cost, not counted.
    assert Client().post(_check_url(token, game), {"gcg": small}).status_code == 200
    assert Client().post(_check_url(token, game), {"gcg": big}).status_code == 429


def test_the_budget_slides_with_the_minute(on: Division, monkeypatch: pytest.MonkeyPatch) -> None:
    token = "a-link"
    clock = [1_000_000.0]
    monkeypatch.setattr(phone.time, "time", lambda: clock[0])

    assert phone.spend(token, 7000)
    clock[0] += 30
    assert phone.spend(token, 5000)
    assert not phone.spend(token, 1)  # 12,000 spent within the minute
    clock[0] += 31  # the first 7,000 are more than a minute old
    assert phone.spend(token, 7000)
    assert not phone.spend(token, 1)


def test_checks_sent_together_never_overspend_the_budget(db: None) -> None:
    admitted: list[bool] = []
    lock = threading.Lock()

    def check() -> None:
        ok = phone.spend("together", 1000)
        with lock:
            admitted.append(ok)

    threads = [threading.Thread(target=check) for _ in range(30)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()

    assert admitted.count(True) <= bounds.CHECK_BUDGET // 1000
    assert admitted.count(True) >= 1


def test_a_large_urlencoded_form_to_a_link_is_refused_before_it_is_read(
    on: Division, game_of: Callable[..., Game]
) -> None:
    game = game_of(1)
    token = phone.issue_link(on.players.get(number=1))
    from urllib.parse import urlencode

    body = urlencode({"gcg": ATTACK})
    response = Client().post(
        _check_url(token, game), body, content_type="application/x-www-form-urlencoded"
    )
    small = Client().post(
        reverse("phone-report", args=[token]),
        urlencode({"my_score": "400", "opponent_score": "300"}),
        content_type="application/x-www-form-urlencoded",
    )

    assert response.status_code == 413
    assert response.content.decode() == "This form is too large to be sent from a personal link."
    assert small.status_code == 302  # a report's few fields are taken as ever
