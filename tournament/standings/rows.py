"""The read model's values: a standings row, a rating row, a division's and a round's games as
read, a round's count, a player's parts of their page; and the one rule for when a round's byes
count (`byes_count`). Plain values, below every module of `standings/` that reads, computes or
keeps them (`memos.py` types its memos with them), importing none of them.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass

from tournament.engine import ratings as ratings_engine
from tournament.engine import standings as engine
from tournament.engine.text import count_text
from tournament.models import Game, Player


@dataclass(frozen=True)
class Row:
    """A player's line in the standings."""

    rank: int | None
    player: Player
    wins: float
    losses: float
    spread: int
    games: int

    @property
    def name(self) -> str:
        return self.player.name

    @property
    def rating(self) -> int:
        return self.player.rating

    @property
    def record(self) -> str:
        return f"{count_text(self.wins)}–{count_text(self.losses)}"


@dataclass(frozen=True, slots=True)
class GameRow:
    """The columns of a game the engines need, read without building a model instance."""

    round: int
    player1_id: int
    player2_id: int | None
    score1: int | None
    score2: int | None
    kind: str
    first: int
    tou: dict | None
    table: int | None
    pk: int
    penalty1: int = 0  # time penalties, already taken off the scores (shown, not counted)
    penalty2: int = 0

    @property
    def has_result(self) -> bool:
        return self.score1 is not None and (self.player2_id is None or self.score2 is not None)


def byes_count(mode: str, played: int, pending: int) -> bool:
    """Whether a round's byes and forfeits (results without an opponent) count in the
    standings, by the division's `byes_count`: `played` of its games between two players have
    a result and `pending` have none yet. A round with no game between two players is complete
    as soon as it exists. The one rule for every standings, rating, report and heading."""
    if mode == "published":
        return True
    if mode == "any":
        return played > 0 or pending == 0
    return pending == 0  # "complete", the default


def scored_when_paired(kind: str, player2_id: int | None, table: int | None) -> bool:
    """A bye, or the forfeit loss of a player left out as absent (no table): scored when the
    round is paired, and counted as `byes_count` says. A forfeit entered for a paired game
    keeps its table and is a result like any other."""
    if player2_id is not None:
        return False
    return kind == Game.BYE or (kind == Game.FORFEIT and table is None)


def round_counts(mode: str, played: int, pending: int, alone: int) -> bool:
    """Whether a round adds anything to the standings yet: a result between two players, or
    its byes and forfeits once they count."""
    return played > 0 or (alone > 0 and byes_count(mode, played, pending))


@dataclass(frozen=True)
class RoundRead:
    """A round's games as the engines take them, with what `byes_count` needs."""

    played: int  # results entered: games between two players, forfeits of paired games
    pending: int  # games between two players without a result
    pairs: list[engine.Game]  # the results entered
    alone: list[engine.Game]  # byes and absent players' forfeits, scored when paired
    rows: tuple[GameRow, ...]  # every game of the round as read, void ones too

    @functools.cached_property
    def by_player(self) -> dict[int, str]:
        """Each player's games of the round, as `games_text` writes them for the players'
        games-table keys: written once a round read, when a key first asks (the desk's saves
        never do)."""
        mine: dict[int, list[tuple]] = {}
        for g in self.rows:
            for pk in (g.player1_id, g.player2_id):
                if pk is not None:
                    mine.setdefault(pk, []).append(key_values(g))
        return {pk: games_text(self.rows[0].round, values) for pk, values in mine.items()}

    def results(self, mode: str) -> list[engine.Game] | None:
        """The round's results that count, or None when nothing of it counts yet."""
        if not round_counts(mode, self.played, self.pending, len(self.alone)):
            return None
        if byes_count(mode, self.played, self.pending):
            return self.pairs + self.alone
        return list(self.pairs)


def key_values(g: GameRow) -> tuple:
    """A game's columns as a player's games-table key takes them (`queries.KEY_COLUMNS`)."""
    return (g.pk, g.round, g.table, g.player1_id, g.player2_id, g.score1, g.score2, g.kind,
            g.first, g.tou, g.penalty1, g.penalty2)  # fmt: skip


def games_text(number: int, games: Iterable[tuple]) -> str:
    """A player's games of round `number` (their `key_values`) as their games-table key takes
    them: one line, the games in table order, then by primary key."""
    return f"\n{number}:{sorted(games, key=lambda g: (g[2] is None, g[2] or 0, g[0]))!r}"


@dataclass(frozen=True)
class DivisionRead:
    """A division's players and games as this process read them under its stamps: the stamps
    were read first, so what was read after them is at least as new (never stale)."""

    stamp: str
    frame: str
    round_stamps: dict[str, str]
    players: list[Player]
    results: list[list[engine.Game]]  # each round's that count, up to the last that counts
    rows: dict[int, tuple[GameRow, ...]]  # round → every game of the round, void ones too
    rounds: dict[int, RoundRead]  # round → its games as read (`rows` are theirs)


@dataclass(frozen=True)
class RatingRow:
    """A player's rating before the event and after each round rated so far."""

    player: Player
    before: int
    by_round: tuple[int, ...]  # by_round[0]: the rating after round 1
    after_round: int  # the round `after` is the rating after (0: none rated yet)

    @property
    def name(self) -> str:
        return self.player.name

    @property
    def after(self) -> int:
        return self.by_round[self.after_round - 1] if self.after_round else self.before

    @property
    def change(self) -> int:
        return self.after - self.before


@dataclass(frozen=True)
class RoundCount:
    number: int
    games: int
    results: int  # games with a result entered
    played: int = 0  # results entered (not a bye or an absent player's forfeit)
    pending: int = 0  # games between two players without a result yet
    alone: int = 0  # byes and absent players' forfeits, scored when paired
    byes_count: str = "complete"  # the division's `byes_count`

    @property
    def has_results(self) -> bool:
        """Whether the round counts in the standings yet (`round_counts`): a game
        between two players has a result, or its byes and forfeits count by the division's
        choice. A round just published has its byes (and an absent player's forfeit) scored
        and nothing else: unless they count as soon as published, it is in play and the
        standings are those after the round before."""
        return round_counts(self.byes_count, self.played, self.pending, self.alone)

    @property
    def byes_counted(self) -> bool:
        """Whether the round's byes and forfeits count yet."""
        return byes_count(self.byes_count, self.played, self.pending)

    @property
    def complete(self) -> bool:
        return self.pending == 0


@dataclass(frozen=True)
class CountedRecords:
    """Each player's record (the engine's `records`) as the standings counted them under a
    stamp, with what they were counted by: after a write of results, the records of the
    players it changed are counted again and everyone else's kept (`read_model`)."""

    frame: str  # the division's frame stamp: its players, rounds and settings
    after: int  # the last round counted
    shape: tuple[tuple[bool, bool], ...]  # each round counted: (it counts, its byes count)
    players: list[engine.Player]  # as the engine takes them
    records: dict[Hashable, engine.Record]


@dataclass(frozen=True)
class RatedRows:
    """Every player's ratings as the read model rated them under a stamp (`RatingRow`s, highest
    new rating first), with the rating engine's computation and what it was computed from:
    after a write of results, the players it changed are rated again and every other row kept
    (`read_model`)."""

    frame: str  # the division's frame stamp: its players, rounds and settings
    rounds: tuple[str, ...]  # each round rated: its own stamp
    shape: tuple[tuple[bool, bool], ...]  # each round rated: (it counts, its byes count)
    rated: ratings_engine.RatedEvent
    rows: list[RatingRow]  # highest new rating first (`by_new_rating`)
    order: list[tuple[int, int]]  # each row's `by_new_rating`, in the same order
    by_player: Mapping[Hashable, RatingRow]  # by the player's key


def by_new_rating(row: RatingRow) -> tuple[int, int]:
    """The order of the ratings table: highest new rating first, then by number."""
    return (-row.after, row.player.number)


@dataclass(frozen=True)
class PlayerParts:
    """What a player's page shows of the division's results: their standing, their rating and
    their games table, by the key the table is kept under (which its content decides)."""

    standing: Row
    rating: RatingRow
    table_key: str

    def fingerprint(self) -> str:
        s, r = self.standing, self.rating
        shown = (s.rank, s.wins, s.losses, s.spread, s.games)
        rated = (r.before, r.after, r.change, r.after_round)
        return hashlib.sha256(repr((shown, rated, self.table_key)).encode()).hexdigest()
