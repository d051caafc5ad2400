"""The scoresheets' subscriptions (`core/signals.py`): a game's unresolved scoresheets flagged
again when its result changes, in the writer's transaction."""

from __future__ import annotations

from typing import Any

from tournament.core.signals import Outcome, field_changed, results_changed
from tournament.models import Scoresheet
from tournament.scoresheets.services import differs


def flag_again(sender: type, outcome: Outcome, **kwargs: Any) -> None:
    """Each unresolved scoresheet of the changed games flagged if it no longer agrees with the
    result (and no longer flagged if it now does)."""
    ids = outcome.games()
    if not ids:
        return
    sheets = Scoresheet.objects.filter(game_id__in=ids, resolved=False).select_related("game")
    for sheet in sheets:
        flagged = differs(sheet.game, sheet.engine_report)
        if flagged != sheet.flagged:
            sheet.flagged = flagged
            sheet.save(update_fields=["flagged"])


def connect() -> None:
    for signal in (results_changed, field_changed):
        signal.connect(flag_again, dispatch_uid=f"scoresheets-{id(signal)}")
