"""The phones' subscriptions (`core/signals.py`): a result written at the desk settles the
players' reports of its game and answers the players' disputes of it (`disputes.corrected`),
and the division's phone snapshot is made again after the commit; a round published is on
every phone at its next poll."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from tournament.core.signals import Outcome, field_changed, results_changed, round_published
from tournament.models import Claim, Division
from tournament.phone import disputes, services
from tournament.results.claims import claims_text


def settle(sender: type, outcome: Outcome, **kwargs: Any) -> None:
    """The players' reports of the games whose result was just written: cleared, and named in
    a sentence, so that a result typed over a disagreement says what it overrides."""
    services.warm_after_commit(outcome.division.pk)
    ids = outcome.games()
    if not ids:
        return
    claims = list(Claim.objects.filter(game_id__in=ids).select_related("player"))
    if not claims:
        return
    Claim.objects.filter(pk__in=[c.pk for c in claims]).delete()
    outcome.said.append(
        gettext("It settles the players' reports (%(claims)s).") % {"claims": claims_text(claims)}
    )


def answer_disputes(sender: type, outcome: Outcome, **kwargs: Any) -> None:
    """The open disputes of the games whose result was just written: answered, corrected."""
    disputes.corrected(outcome)


def published(sender: type, division: Division, **kwargs: Any) -> None:
    services.warm_after_commit(division.pk)


def connect() -> None:
    for signal in (results_changed, field_changed):
        signal.connect(settle, dispatch_uid=f"phone-{id(signal)}")
        signal.connect(answer_disputes, dispatch_uid=f"phone-disputes-{id(signal)}")
    round_published.connect(published, dispatch_uid="phone-published")
