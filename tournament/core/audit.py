"""The one way a change is written to the change log.

Every write at the desk (a result, a correction, an undo, a scoresheet, a round's pairings, a
player withdrawn or added) logs a `Change` here, so that the log has one shape: a known
action, who did it (a director, a player, or no one for the command line), and what the rows
were before and after.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User

from tournament.core import signals
from tournament.core.actor import Actor
from tournament.models import Change, Division, Game, Player, Scoresheet, Tournament

Action = Change.Action


def record(
    division: Division | Tournament,
    action: str,
    *,
    actor: Actor,
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
    reason: str = "",
    game: Game | None = None,
    scoresheet: Scoresheet | None = None,
) -> Change:
    """Log a change to `division`'s tournament (or to a whole tournament, for a change to it
    such as its lock or its people) and return it.

    `actor` is a signed-in user, a player of the division, or None (the command line; an
    anonymous user counts as none). An action not in `Change.Action` is refused with
    ValueError, and so is a player of another division or an actor that is neither.
    """
    if action not in Action.values:
        raise ValueError(f"{action!r} is not a change the log knows ({', '.join(Action.values)}).")
    user: User | None = None
    player: Player | None = None
    if isinstance(actor, Player):
        if isinstance(division, Tournament) or actor.division_id != division.pk:
            raise ValueError(f"{actor.name} does not play in division {division.name}.")
        player = actor
    elif isinstance(actor, get_user_model()):
        user = actor
    elif actor is not None and getattr(actor, "is_authenticated", None) is not False:
        raise ValueError(f"A change is made by a user or a player, not by {actor!r}.")
    change = Change.objects.create(
        tournament_id=division.pk if isinstance(division, Tournament) else division.tournament_id,
        game=game,
        scoresheet=scoresheet,
        user=user,
        player=player,
        action=Action(action).value,
        before=before,
        after=after,
        reason=reason,
    )
    signals.noted(change, None if isinstance(division, Tournament) else division.pk)
    return change
