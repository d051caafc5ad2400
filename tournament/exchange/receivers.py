"""The snapshots' subscriptions (`core/signals.py`): once a write of results commits, a
snapshot of the tournament if a round it changed is now complete (`snapshots.after_result`)."""

from __future__ import annotations

from typing import Any

from tournament.core.signals import Outcome, field_changed, results_changed
from tournament.exchange import snapshots


def round_done(sender: type, outcome: Outcome, **kwargs: Any) -> None:
    division = outcome.division
    for number in outcome.rounds():
        snapshots.after_result(division.tournament_id, division.pk, number)


def connect() -> None:
    snapshots.connect()
    for signal in (results_changed, field_changed):
        signal.connect(round_done, dispatch_uid=f"snapshots-{id(signal)}")
