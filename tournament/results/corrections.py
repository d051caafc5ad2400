"""Corrections from a game's own form, and undo of a director's last entry.

Like every write at the desk, each is one transaction that refuses a save made against an older
version of the game (`StaleResult`) and logs a `Change` with the rows before and after.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.auth.models import User
from django.utils.translation import gettext

from tournament.core import audit
from tournament.core.actor import Actor
from tournament.core.changes import (
    CORRECT,
    CREATE,
    DELETE,
    UNDO,
    content,
    games_of,
    penalties_of,
    result_text,
    snapshot,
)
from tournament.core.signals import announced
from tournament.models import Change, Division, Game
from tournament.results.services import (
    REFUSED,
    EntryError,
    StaleResult,
    _apply,
    _Plan,
    _stale_message,
)


def correct_game(
    game: Game,
    user: Actor,
    version: int,
    reason: str,
    score1: int | None,
    score2: int | None = None,
    first: int | None = None,
    kind: str | None = None,
) -> Change:
    """Save a game's result from its own form; `version` is the one the form was loaded with.

    Both scores None removes the result. Changing or removing an entered result needs a reason.
    """
    return announced(
        game.division,
        user,
        lambda: _correct(game, user, version, reason.strip(), score1, score2, first, kind),
    )


def _correct(
    game: Game,
    user: Actor,
    version: int,
    reason: str,
    score1: int | None,
    score2: int | None,
    first: int | None,
    kind: str | None,
) -> Change:
    game = Game.objects.select_for_update().get(pk=game.pk)
    if game.version != version:
        raise StaleResult(_stale_message(game, version, REFUSED))
    if game.kind == Game.VOID:
        raise EntryError(gettext("A void game has no result to enter."))
    if game.player2_id is None:
        values: dict[str, Any] = {"score1": score1, "kind": kind or game.kind}
    else:
        if (score1 is None) != (score2 is None):
            raise EntryError(gettext("Give both scores, or neither to remove the result."))
        values = {
            "score1": score1,
            "score2": score2,
            "first": game.first if first is None else first,
        }
        if score1 is None:  # a result removed takes its time penalties with it
            values.update(penalty1=0, penalty2=0)
    plan = _Plan(game, values, None)
    if plan.unchanged:
        raise EntryError(gettext("Nothing to change."))
    if plan.correction and not reason:
        raise EntryError(gettext("The game already has a result: a correction needs a reason."))
    action = CREATE if not game.has_result else DELETE if score1 is None else CORRECT
    return _apply(plan, user, reason, action)


def _undone_ids(changes: Iterable[Change]) -> set[int]:
    return {c.after.get("undoes") for c in changes if c.action == UNDO and c.after}


def last_undoable(division: Division, user: User) -> Change | None:
    """The user's latest result entry or correction in the division not yet undone."""
    mine = Change.objects.filter(
        tournament_id=division.tournament_id,
        user=user,
        game__division=division,
        scoresheet__isnull=True,
        action__in=(CREATE, CORRECT, DELETE, UNDO),
    ).order_by("-at", "-pk")
    undone = _undone_ids(mine.filter(action=UNDO))
    for change in mine.exclude(action=UNDO)[:200]:
        if change.pk not in undone:
            return change
    return None


def undo_last(division: Division, user: User) -> Change:
    """Put back the rows the user's last entry changed, if no one has changed them since."""
    return announced(division, user, lambda: _undo(division, user))


def _undo(division: Division, user: User) -> Change:
    change = last_undoable(division, user)
    if change is None:
        raise EntryError(
            gettext("Nothing of yours to undo in division %(name)s.") % {"name": division.name}
        )
    before, after = games_of(change.before), games_of(change.after)
    ids = {s["id"] for s in before} | {s["id"] for s in after}
    rows = {g.pk: g for g in Game.objects.select_for_update().filter(pk__in=ids).order_by("pk")}
    for s in after:
        row = rows.get(s["id"])
        if row is None:
            raise EntryError(
                gettext("%(result_text)s no longer exists: not undone.")
                % {"result_text": result_text(s)}
            )
        # Content, not version: an undo in between bumps the version and puts back the same.
        if content(snapshot(row)) != content(s):
            raise StaleResult(_stale_message(row, s["version"], "Your entry was not undone"))
    kept = {s["id"] for s in before}
    for s in after:
        if s["id"] not in kept and rows[s["id"]].scoresheets.exists():
            raise EntryError(
                gettext("%(result_text)s has a scoresheet: not undone.")
                % {"result_text": result_text(s)}
            )
    current = [snapshot(rows[s["id"]]) for s in after]
    players = {p.number: p for p in division.players.all()}
    restored = []
    for s in before:
        game = rows[s["id"]]
        game.player1 = players[s["player1"]]
        game.player2 = players[s["player2"]] if s["player2"] is not None else None
        for key in ("score1", "score2", "kind", "first", "table"):
            setattr(game, key, s[key])
        game.penalty1, game.penalty2 = penalties_of(s)
        game.version += 1
        game.save()
        restored.append(snapshot(game))
    for s in after:
        if s["id"] not in kept:
            rows[s["id"]].delete()
    absent = (change.after or {}).get("absent")
    taken_back = {"present": absent} if absent else {}
    if absent:  # the result of marking a player absent: the mark goes too
        marked = players[absent["player"]]
        marked.absent_rounds = sorted(set(marked.absent_rounds or []) - {absent["round"]})
        marked.save(update_fields=["absent_rounds", "updated"])
    return audit.record(
        division,
        UNDO,
        actor=user,
        game=change.game,
        before={"games": current},
        after={"games": restored, "undoes": change.pk, **taken_back},
        reason=f"Undo of change {change.pk} ({change.action})",
    )
