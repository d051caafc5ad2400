"""What a player who misses a round gets: the one rule every path calls.

A player can miss a round of their division in several ways: not checked in when round 1 is
paired, marked absent for the round, left out of pairings typed by hand, entered late after the
round was paired or played, or reinstated after missing rounds while withdrawn. Whatever the
path, they get what the division says (`Division.absent_result`): a forfeit loss of the
division's forfeit spread, or nothing. A late entry may be given byes or nothing instead, by the
director's choice at the entry (`given`). A player withdrawn for the round gets nothing: they
take no part in it (as tsh's `off`).

The result is a row of its own: a forfeit (or bye) without an opponent and without a table,
made in the same change as the pairing or the entry that caused it, scored when the round is
paired (`scored_when_paired`), and made again whenever the round is paired again.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Q

from tournament.engine.pairing.messages import Message
from tournament.models import Division, Game, Player

# Why a player is not in a round's pairings.
CHECK_IN = "check_in"  # round 1, while the division's check-in left them out
ABSENT = "absent"  # marked absent for the round
BY_HAND = "by_hand"  # the pairings (by hand, or swapped) leave them out
LATE = "late"  # entered after the round was paired or played
REINSTATED = "reinstated"  # withdrawn while the round was paired, then reinstated
REASONS = (CHECK_IN, ABSENT, BY_HAND, LATE, REINSTATED)

# What a late entry may be given for the rounds already paired (the desk's choice); None
# follows the division.
GIVEN = ("forfeits", "byes", "nothing")


@dataclass(frozen=True)
class Missed:
    """What a player gets for a round they are not paired in: a game's `kind` and score, or
    nothing (`kind` None)."""

    kind: str | None
    score: int | None
    why: str

    @property
    def nothing(self) -> bool:
        return self.kind is None


def in_round(player: Player, round_number: int) -> bool:
    """Whether the player takes part in the round (not withdrawn from it or before it)."""
    withdrawn = player.withdrawn_from_round
    return withdrawn is None or withdrawn > round_number


def decide(
    division: Division, player: Player, round_number: int, why: str, given: str | None = None
) -> Missed:
    """What `player` gets for round `round_number` of `division`, which they miss for `why`:
    the division's `absent_result` (a forfeit loss, or nothing), or for a late entry what the
    director gave (`given`: "forfeits", "byes", "nothing"). Nothing for a withdrawn player."""
    if not in_round(player, round_number):
        return Missed(None, None, why)
    if given is None:
        given = "forfeits" if division.absent_result == "forfeit" else "nothing"
    if given == "forfeits":
        return Missed(Game.FORFEIT, -division.forfeit_spread, why)
    if given == "byes":
        return Missed(Game.BYE, division.bye_spread, why)
    return Missed(None, None, why)


def make(division: Division, player: Player, round_number: int, missed: Missed) -> Game | None:
    """The missed round's row (nothing when the player gets nothing), saved."""
    if missed.kind is None:
        return None
    return Game.objects.create(
        division=division,
        round=round_number,
        player1=player,
        kind=missed.kind,
        score1=missed.score,
        version=1,
    )


def rounds_missed(division: Division, player: Player, since: int = 1) -> list[int]:
    """The rounds from `since` on that are paired (or published) and hold no game of the
    player's: what a late entry or a reinstated player has missed."""
    paired = set(
        division.games.filter(round__gte=since)
        .exclude(kind=Game.VOID)
        .values_list("round", flat=True)
    )
    paired |= set(
        division.rounds.filter(published=True, number__gte=since).values_list("number", flat=True)
    )
    mine = division.games.filter(Q(player1=player) | Q(player2=player)).values_list(
        "round", flat=True
    )
    return sorted(paired - set(mine))


def give(
    division: Division,
    player: Player,
    numbers: Iterable[int],
    why: str,
    given: str | None = None,
) -> list[tuple[int, Missed, Game | None]]:
    """What the player gets for each of the rounds `numbers` they missed for `why` (`decide`),
    with its row made (`make`)."""
    out = []
    for number in numbers:
        result = decide(division, player, number, why, given)
        out.append((number, result, make(division, player, number, result)))
    return out


def made_with_pairing(game: Game) -> bool:
    """A missed round's forfeit: made with the round's pairings (no opponent, no table), and
    made again when it is paired again; not a result a director entered."""
    return game.kind == Game.FORFEIT and game.player2_id is None and game.table is None


def why_left_out(players: Iterable[Player], round_number: int, checked_out: Iterable[int]) -> dict:
    """Why each player of the field is not in a round's pairings: not checked in (round 1's
    `checked_out`, their pks), marked absent, or else left out by the pairings themselves."""
    out = set(checked_out)
    reasons = {}
    for p in players:
        if not in_round(p, round_number):
            continue
        if p.absent_in(round_number):
            reasons[p.pk] = ABSENT
        elif p.pk in out:
            reasons[p.pk] = CHECK_IN
        else:
            reasons[p.pk] = BY_HAND
    return reasons


def result_message(missed: Missed, division: Division) -> Message:
    """What the player got, as a message the pages write in their language."""
    if missed.kind == Game.FORFEIT:
        return Message("missed_forfeit", spread=division.forfeit_spread)
    if missed.kind == Game.BYE:
        return Message("missed_bye", spread=division.bye_spread)
    return Message("missed_nothing")


def notes(
    division: Division, round_number: int, given: Sequence[tuple[Player, Missed]]
) -> list[dict[str, Any]]:
    """The round's notes on who was left out and what they got, one per reason and result:
    "Not checked in, so left out of round 1 with a forfeit loss (−50): Ed Fox"."""
    groups: dict[tuple[str, str | None], list[str]] = {}
    results: dict[tuple[str, str | None], Missed] = {}
    for player, missed in given:
        key = (missed.why, missed.kind)
        groups.setdefault(key, []).append(player.name)
        results[key] = missed
    return [
        Message(
            f"left_out_{why}",
            round=round_number,
            result=result_message(results[(why, kind)], division).as_dict(),
            players=names,
        ).as_dict()
        for (why, kind), names in sorted(groups.items(), key=lambda item: REASONS.index(item[0][0]))
    ]
