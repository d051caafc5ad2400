"""The phones' snapshot after a write of results, scoresheets or disputes: the worker's snapshot
of the stamp before, the games of the players the write changed read again, is exactly the
snapshot built afresh; a write that changes more than games (a game made) builds it afresh."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache

from tournament.models import Division, Game, Round
from tournament.phone import disputes
from tournament.phone import services as phone
from tournament.results import corrections
from tournament.results import services as results
from tournament.standings import memos, stamps


@pytest.fixture
def live(division: Division) -> Division:
    cache.clear()
    memos.clear_all()
    division.self_report = True
    division.save()
    Round.objects.create(division=division, number=1, published=True)
    for player in division.players.all():
        phone.issue_link(player)
    return Division.objects.select_related("tournament").get(pk=division.pk)


def _now(division: Division) -> tuple[dict[str, Any], dict[str, Any], bool]:
    """The snapshot the phones are served now, the one built afresh, and whether the first
    was made from the parts the last write kept."""
    fresh = Division.objects.select_related("tournament").get(pk=division.pk)
    parts = cache.get(stamps.changes_key(fresh.pk, fresh.stamp)) is not None
    served = phone.snapshot(fresh)
    with memos.afresh():
        built = phone._build_snapshot(fresh)
    return served, built, parts


def test_each_write_of_results_patches_the_snapshot_exactly(
    live: Division,
    director: User,
    game_of: Callable[..., Game],
    record: Callable[..., str],
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    phone.warm_snapshot(live.pk)
    p = {pl.number: pl for pl in live.players.all()}

    def step(write: Callable[[], object], patched: bool = True) -> dict[str, Any]:
        with django_capture_on_commit_callbacks(execute=True):
            write()
        served, built, parts = _now(live)
        assert served == built
        assert parts is patched
        return served

    served = step(lambda: results.enter_line(live, 1, "1 455 2 389", director))
    [mine] = served["games"][p[1].pk]
    assert (mine["score"], mine["opponent_score"], mine["can_report"]) == (455, 389, False)
    assert mine["recorded_by"] == {"by": phone.DESK, "name": ""}
    assert served["standing"][p[1].pk] == {"record": "1–0", "rank": 1}

    game = game_of(3)
    step(lambda: phone.report(p[3], game, 400, 380))  # a claim alone: nothing recorded
    served = step(lambda: phone.report(p[4], game_of(3), 380, 400))
    assert served["games"][p[4].pk][0]["recorded_by"] == {"by": phone.AGREED, "name": ""}

    served = step(lambda: disputes.open_dispute(p[2], game_of(1), "It was 389 to 465."))
    assert served["games"][p[2].pk][0]["disputes"] == [
        {"mine": True, "text": "It was 389 to 465.", "answer": ""}
    ]
    assert served["games"][p[1].pk][0]["disputes"] == [{"mine": False, "text": "", "answer": ""}]
    served = step(
        lambda: results.enter_line(live, 1, "1 465 2 389", director, 1, reason="the slip")
    )
    assert served["games"][p[2].pk][0]["disputes"][0]["answer"] == "corrected"
    assert served["games"][p[1].pk][0]["recorded_by"]["by"] == phone.DESK_CORRECTED

    sheet = record("Ada", "Quill, Ada", "Ben", "Crane, Ben")
    served = step(lambda: phone.send_sheet(p[1], game_of(1), sheet))
    assert served["games"][p[1].pk][0]["sheet"] is not None

    step(lambda: corrections.undo_last(live, director))
    # A forfeit makes the opponent's game: built afresh, and as exact.
    served = step(lambda: results.enter_line(live, 1, "5 forfeit", director), patched=False)
    assert [g["score"] for g in served["games"][p[6].pk]] == [50]


def test_a_worker_without_the_snapshot_before_builds_it_afresh(
    live: Division,
    director: User,
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    phone.warm_snapshot(live.pk)
    with django_capture_on_commit_callbacks(execute=True):
        results.enter_line(live, 1, "1 455 2 389", director)
    memos.clear_all()  # another worker: it holds no snapshot of the stamp before
    fresh = Division.objects.select_related("tournament").get(pk=live.pk)
    assert phone._patched(fresh) is None
    served, built, parts = _now(live)
    assert parts and served == built  # the parts are kept, and not enough: built afresh
