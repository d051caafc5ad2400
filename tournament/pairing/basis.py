"""What a round's pairing was made from (`Round.basis`), as digests of each earlier round's
results or pairings and of the field, and how to tell that it has changed since. It reads the
rows only: the pairing's services (`pairing/services.py`) and the restore (`exchange/backup.py`)
both stand on it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from django.db.models import Max

from tournament.models import Change, Division, Game, Player
from tournament.pairing import missed


def not_checked_in(players: Sequence[Player]) -> list[Player]:
    """The players round 1 leaves out: once anyone is checked in, those who are not.

    A division where nobody is checked in (an event imported, or run without a check-in) pairs
    everyone, as before.
    """
    if not any(p.checked_in for p in players):
        return []
    return [p for p in players if not p.checked_in and p.withdrawn_from_round is None]


def _digest(rows: Sequence[object]) -> str:
    return hashlib.sha256("\n".join(sorted(map(repr, rows))).encode()).hexdigest()[:16]


def basis(division: Division, round_number: int, based_on: int) -> dict[str, Any]:
    """What a pairing of `round_number` from the results through `based_on` depends on, as
    digests: each earlier round's results (through `based_on`) or pairings (after it), and the
    field (who is in the event for the round); and the last change of the log then, so that a
    page can say which results those were."""
    per_round: list[list[tuple[Any, ...]]] = [[] for _ in range(round_number - 1)]
    games = (
        division.games.filter(round__lt=round_number)
        .exclude(kind=Game.VOID)
        .values_list("round", "player1_id", "player2_id", "score1", "score2", "kind", "first")
    )
    for number, one, two, score1, score2, kind, first in games:
        row = (one, two, score1, score2, kind, first) if number <= based_on else (one, two)
        per_round[number - 1].append(row)
    players = list(division.players.all())
    # Not the players marked absent for the round: an absence marked before the round is
    # paired leaves them out of it, and one marked after changes their pairing into their
    # forfeit at once (`players.set_absent`); either way the pairing stands as made.
    out = {p.pk for p in not_checked_in(players)} if round_number == 1 else set()
    in_field = [p.pk for p in players if missed.in_round(p, round_number) and p.pk not in out]
    last = Change.objects.filter(tournament_id=division.tournament_id).aggregate(n=Max("pk"))["n"]
    return {
        "based_on": based_on,
        "rounds": [_digest(rows) for rows in per_round],
        "field": _digest(in_field),
        "change": last,
    }


def changed_rounds(stored: dict[str, Any], now: dict[str, Any]) -> list[int]:
    """The rounds whose results or pairings differ from what the pairing was made from (0 for
    the field)."""
    changed = [
        n
        for n, (was, is_now) in enumerate(zip(stored["rounds"], now["rounds"], strict=False), 1)
        if was != is_now
    ]
    return ([0] if stored["field"] != now["field"] else []) + changed


def played_rounds(division: Division, after: int) -> set[int]:
    """The rounds after `after` with a game played and entered: their pairings are history."""
    played = division.games.filter(round__gt=after, kind=Game.PLAYED).exclude(score1=None)
    return set(played.values_list("round", flat=True).distinct())
