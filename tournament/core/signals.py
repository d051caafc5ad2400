"""What a write says it did, and who listens.

A writer of a division's results or field says what happened; the packages that care
subscribe (connected in `apps.py`), as pretix's domain signals and zulip's actions do it. The
writer does not know them: a new writer of results gets re-pairing, scoresheets flagged again,
the players' reports settled and the round's snapshot for nothing.

    with signals.announcing(division, actor) as outcome:
        ...                      # the write; every change it logs (`audit.record`) is noted
    outcome.said                 # what the subscribers did, a sentence each, for the desk

The signal is sent when the outermost `announcing` block of the division ends, inside the
writer's transaction (a refusal by a subscriber writes nothing), with every change the block
logged: `field_changed` if one of them is to the field (a withdrawal, a reinstatement, a late
entry, an absence: the forfeits it brings come with it), otherwise `results_changed`. A block
inside another of the same division (a line saved by the absence that needs it) adds to the
outer one, so that the subscribers see the whole write once. `round_published` is sent by the
pairing when a round is published.

A receiver of `results_changed` or `field_changed` takes `(sender, outcome, **kwargs)`:
`outcome.division`, `outcome.actor`, `outcome.changes`; it may add sentences to `outcome.said`.
One of `round_published` takes `(sender, division, round, **kwargs)`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import TypeVar

from django.db import transaction
from django.dispatch import Signal

from tournament.core.actor import Actor
from tournament.core.changes import FIELD_ACTIONS, RESULT_ACTIONS
from tournament.models import Change, Division, Player

W = TypeVar("W", Change, Player)

# A write of a division's results: new, corrected, deleted or undone.
results_changed = Signal()
# A write of a division's field: a player withdrawn, reinstated, entered late, absent.
field_changed = Signal()
# A round's pairings published (`round` in kwargs).
round_published = Signal()


@dataclass
class Outcome:
    """A write and what its subscribers did with it."""

    division: Division
    actor: Actor
    changes: list[Change] = field(default_factory=list)
    said: list[str] = field(default_factory=list)

    def result_changes(self) -> list[Change]:
        return [c for c in self.changes if c.action in RESULT_ACTIONS]

    def games(self) -> list[int]:
        """The ids of the games the write's results name, before or after, once each."""
        ids: dict[int, None] = {}
        for change in self.result_changes():
            for side in (change.before, change.after):
                for s in (side or {}).get("games") or []:
                    if isinstance(s, dict) and isinstance(s.get("id"), int):
                        ids[s["id"]] = None
            if change.game_id is not None:
                ids[change.game_id] = None
        return list(ids)

    def rounds(self) -> list[int]:
        """The rounds whose results the write changed, in order."""
        found = {
            s["round"]
            for c in self.result_changes()
            for side in (c.before, c.after)
            for s in (side or {}).get("games") or []
            if isinstance(s, dict) and isinstance(s.get("round"), int)
        }
        return sorted(found)


_open: ContextVar[Outcome | None] = ContextVar("spread_announcing", default=None)


@contextmanager
def announcing(division: Division, actor: Actor) -> Iterator[Outcome]:
    """One transaction for a write of `division`'s results or field, its changes announced to
    the subscribers as it ends (see the module's text)."""
    outer = _open.get()
    if outer is not None and outer.division.pk == division.pk:
        with transaction.atomic():
            yield outer
        return
    outcome = Outcome(division, actor)
    with transaction.atomic():
        token = _open.set(outcome)
        try:
            yield outcome
        finally:
            _open.reset(token)
        announce(outcome)


def announced(division: Division, actor: Actor, write: Callable[[], W]) -> W:
    """`write()` in an `announcing` block: the change (or player) it returns, with what the
    subscribers did as its `said`."""
    with announcing(division, actor) as outcome:
        done = write()
    # The same list the outcome's subscribers fill: an inner block's is filled as the outer ends.
    done.said = outcome.said
    return done


def announce(outcome: Outcome) -> None:
    """Send the signal for `outcome`'s changes (none: nothing is sent)."""
    if not outcome.changes:
        return
    field_write = any(c.action in FIELD_ACTIONS for c in outcome.changes)
    signal = field_changed if field_write else results_changed
    signal.send(sender=Division, outcome=outcome)


def noted(change: Change, division_id: int | None) -> None:
    """A change just logged (`audit.record`): part of the open write of its division, if any."""
    outcome = _open.get()
    if outcome is None or division_id != outcome.division.pk:
        return
    # A game's change, or one to the field: not the pairing's own log of the rounds it changes.
    if change.game_id is not None or change.action in FIELD_ACTIONS:
        outcome.changes.append(change)
