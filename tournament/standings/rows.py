"""The read model's values: a standings row, a rating row, a division's and a round's games as
read, a round's count, a player's parts of their page; and the one rule for when a round's byes
count (`byes_count`). Plain values, below every module of `standings/` that reads, computes or
keeps them (`memos.py` types its memos with them), importing none of them.
"""

from __future__ import annotations

import bisect
import functools
import hashlib
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field

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
        return record_text(self.wins, self.losses)

    def ranked(self, rank: int | None) -> Row:
        """This row with another rank: the table's rows between a player's place before a
        result and after it (made by the thousand, the quick way a frozen row is copied)."""
        row = object.__new__(Row)
        row.__dict__.update(self.__dict__)
        row.__dict__["rank"] = rank
        return row


@functools.lru_cache(maxsize=4096)
def record_text(wins: float, losses: float) -> str:
    """A record as every page writes it ("3–1", "2½–1½")."""
    return f"{count_text(wins)}–{count_text(losses)}"


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
    """A round's games as the engines take them, with what `byes_count` needs, and how they
    were counted (the row of each result, the forfeits' tables), so that after a write of a
    few games' results it is made again from those games alone (`read_model`)."""

    played: int  # results entered: games between two players, forfeits of paired games
    pending: int  # games between two players without a result
    pairs: list[engine.Game]  # the results entered
    alone: list[engine.Game]  # byes and absent players' forfeits, scored when paired
    rows: tuple[GameRow, ...]  # every game of the round as read, void ones too
    pair_rows: list[int] = field(default_factory=list)  # the row of each of `pairs`, ascending
    alone_rows: list[int] = field(default_factory=list)  # the row of each of `alone`, ascending
    # How `played` was counted: the results between two players, and each table's rows of a
    # paired game's forfeit (two rows, one result: a table counts once).
    two: int = 0
    forfeit_tables: dict[int | None, int] = field(default_factory=dict)

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

    @functools.cached_property
    def positions(self) -> dict[int, int]:
        """Each game's row, by its primary key."""
        return {g.pk: i for i, g in enumerate(self.rows)}

    @functools.cached_property
    def rows_of(self) -> dict[int, tuple[int, ...]]:
        """Each player's rows (ascending), by the player's primary key: the index of the
        round's games by player."""
        mine: dict[int, list[int]] = {}
        for i, g in enumerate(self.rows):
            mine.setdefault(g.player1_id, []).append(i)
            if g.player2_id is not None and g.player2_id != g.player1_id:
                mine.setdefault(g.player2_id, []).append(i)
        return {pk: tuple(rows) for pk, rows in mine.items()}

    @functools.cached_property
    def _counted(self) -> dict[str, list[engine.Game] | None]:
        return {}

    def results(self, mode: str) -> list[engine.Game] | None:
        """The round's results that count, or None when nothing of it counts yet: one list a
        rule, kept with the round read (read-only)."""
        counted = self._counted
        if mode not in counted:
            if not round_counts(mode, self.played, self.pending, len(self.alone)):
                counted[mode] = None
            elif byes_count(mode, self.played, self.pending):
                counted[mode] = self.pairs + self.alone
            else:
                counted[mode] = list(self.pairs)
        return counted[mode]

    def results_of(self, mode: str, players: Iterable[int]) -> list[engine.Game]:
        """The round's results that count (`results`) of the games of `players`, in the same
        order: by the index of the games by player (`rows_of`), not a look at every game."""
        if self.results(mode) is None:
            return []
        rows_of = self.rows_of
        wanted = sorted({i for p in players for i in rows_of.get(p, ())})
        pairs: list[engine.Game] = []
        alone: list[engine.Game] = []
        with_alone = byes_count(mode, self.played, self.pending)
        for i in wanted:
            j = bisect.bisect_left(self.pair_rows, i)
            if j < len(self.pair_rows) and self.pair_rows[j] == i:
                pairs.append(self.pairs[j])
            elif with_alone:
                j = bisect.bisect_left(self.alone_rows, i)
                if j < len(self.alone_rows) and self.alone_rows[j] == i:
                    alone.append(self.alone[j])
        return pairs + alone


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
class KeptTable:
    """A standings table as this worker made it under a stamp, with what it was made by: after
    a write of results, the records of the players it changed are counted again, and the table
    ranked again from them, every other row kept (`read_model`)."""

    frame: str  # the division's frame stamp: its players, rounds and settings
    after: int  # the last round counted
    shape: tuple[tuple[bool, bool], ...]  # each round counted: (it counts, its byes count)
    spread_cap: engine.SpreadCap | None
    no_spread: bool  # every spread shown as 0 (an event whose `.tou` has results alone)
    players: list[Player]  # the division's players, as `ranking.players` (by index)
    ranking: engine.Ranking  # the players' records, as ranked
    rows: list[Row]


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
