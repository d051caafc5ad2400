"""The pairing's subscriptions (`core/signals.py`): later rounds brought in line with a write
of results or of the field (`services.revisit`), in the writer's transaction."""

from __future__ import annotations

from typing import Any

from tournament.core.signals import Outcome, field_changed, results_changed
from tournament.models import Player
from tournament.pairing import services


def pair_again(sender: type, outcome: Outcome, **kwargs: Any) -> None:
    """Later rounds paired again, or marked stale, or the next round paired by itself: what
    they did, a sentence each, for the writer to say."""
    # A player's own report pairs as the system does: the pairing's changes are no one's.
    user = None if isinstance(outcome.actor, Player) else outcome.actor
    outcome.said.extend(services.revisit(outcome.division, user, outcome.changes))


def connect() -> None:
    for signal in (results_changed, field_changed):
        signal.connect(pair_again, dispatch_uid=f"pairing-{id(signal)}")
