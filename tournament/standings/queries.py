"""Read-only queries for the public pages: load rows, call an engine, return plain records.

Nothing here writes. Each function runs a fixed number of queries, whatever the size of the
division, so that the pages stay fast on a phone at the venue.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Count, Prefetch, Q
from django.utils.translation import gettext, pgettext

from tournament.core.sentences import penalty_note
from tournament.engine import standings as engine
from tournament.engine.text import count_text
from tournament.models import Division, Game, Player, Scoresheet, Tournament
from tournament.standings import keys, memos, read_model
from tournament.standings.rows import (
    GameRow,
    RoundCount,
    Row,
    games_text,
)
from tournament.standings.stamps import DivisionStamps

_ROUND_COLUMNS = {
    "games": Count("pk"),
    "results": Count("score1"),
    # As `scored_when_paired` tells them apart: results entered (a forfeit of a paired
    # game keeps its table), and byes and absent players' forfeits, scored when paired.
    "played": Count(
        "pk", filter=Q(player2__isnull=False, score1__isnull=False, score2__isnull=False)
    ),
    # A forfeit of a paired game is two rows at its table (the loss and the win): one result.
    "forfeits": Count(
        "table",
        distinct=True,
        filter=Q(
            player2__isnull=True, kind=Game.FORFEIT, table__isnull=False, score1__isnull=False
        ),
    ),
    "pending": Count(
        "pk",
        filter=Q(player2__isnull=False)
        & ~Q(kind=Game.VOID)
        & (Q(score1__isnull=True) | Q(score2__isnull=True)),
    ),
    "alone": Count(
        "score1",
        filter=Q(player2__isnull=True, kind=Game.BYE)
        | Q(player2__isnull=True, kind=Game.FORFEIT, table__isnull=True),
    ),
}


def _round_count(r: dict, mode: str) -> RoundCount:
    played = r["played"] + r["forfeits"]
    return RoundCount(r["round"], r["games"], r["results"], played, r["pending"], r["alone"], mode)


def division_rounds(division: Division, stamps: DivisionStamps) -> list[RoundCount]:
    """The published rounds that have games, in order, counted under the request's `stamps`
    (read first, so that the rounds counted after them are at least as new): one query, none
    when this process counted them under the same stamp."""
    key = (division.pk, stamps.stamp, stamps.byes_count)
    found = memos.ROUND_COUNTS.get(key)
    if found is None:
        rows = (
            division.games.published().values("round").annotate(**_ROUND_COLUMNS).order_by("round")
        )
        found = [_round_count(r, stamps.byes_count) for r in rows]
        memos.ROUND_COUNTS.put(key, found)
    return list(found)


def rounds_by_division(tournament: Tournament) -> dict[int, list[RoundCount]]:
    """The published rounds that have games, for every division of the tournament (one query)."""
    rows = (
        Game.objects.filter(division__tournament=tournament)
        .published()
        .values("division", "division__byes_count", "round")
        .annotate(**_ROUND_COLUMNS)
        .order_by("division", "round")
    )
    found: dict[int, list[RoundCount]] = defaultdict(list)
    for r in rows:
        found[r["division"]].append(_round_count(r, r["division__byes_count"]))
    return found


@dataclass(frozen=True)
class Side:
    """A game as one of its players sees it."""

    game: Game | GameRow  # a model instance, or its columns as read for the engines
    player: Player
    opponent: Player | None  # None: a bye or a forfeit
    score: int | None  # a bye's or forfeit's: its spread
    opponent_score: int | None
    first: int  # 1 the player went first, 2 second, 0 not known
    penalty: int = 0  # time penalties, already taken off the scores
    opponent_penalty: int = 0

    @property
    def round(self) -> int:
        return self.game.round

    @property
    def table(self) -> int | None:
        return self.game.table

    @property
    def fixed_table(self) -> bool:
        """The game is at a player's fixed table (`Player.fixed_table`)."""
        return at_fixed_table(self.game.table, self.player, self.opponent)

    @property
    def has_result(self) -> bool:
        return self.game.kind != Game.VOID and self.game.has_result

    @property
    def spread(self) -> int | None:
        if not self.has_result:
            return None
        return (self.score or 0) - (self.opponent_score or 0)

    @property
    def result(self) -> str:
        """win, loss, tie, or "" (no result yet, a void game, or an unopposed zero)."""
        spread = self.spread
        if spread is None or (self.opponent is None and spread == 0):
            return ""
        return "win" if spread > 0 else "loss" if spread < 0 else "tie"

    @property
    def first_text(self) -> str:
        if self.first == 1:
            return pgettext("goes", "first")
        if self.first == 2:
            return pgettext("goes", "second")
        return ""

    @property
    def score_text(self) -> str:
        if self.game.kind == Game.VOID:
            return gettext("void")
        if not self.has_result:
            return ""
        if self.opponent is None:
            return signed(self.score or 0)
        return f"{self.score}–{self.opponent_score}"

    @property
    def score_penalty_text(self) -> str:
        """`score_text` with each time penalty after the score it was taken off, as the
        pairings and a player's games show them: `360 (−20 time)–350`."""
        if not (self.penalty or self.opponent_penalty) or not self.has_result:
            return self.score_text
        mine = " ".join(filter(None, (str(self.score), penalty_note(self.penalty))))
        theirs = " ".join(
            filter(None, (str(self.opponent_score), penalty_note(self.opponent_penalty)))
        )
        return f"{mine}–{theirs}"

    @property
    def opponent_text(self) -> str:
        """The opponent's name, or what the game was instead."""
        if self.opponent is not None:
            return self.opponent.name
        return gettext("Forfeit") if self.game.kind == Game.FORFEIT else gettext("Bye")


def at_fixed_table(table: int | None, *players: Player | None) -> bool:
    """A game at `table` is at the fixed table of one of its players (`Player.fixed_table`)."""
    return table is not None and any(p is not None and p.fixed_table == table for p in players)


def signed(number: int) -> str:
    return f"{number:+d}" if number else "0"


def sides_of(game: Game | GameRow, players: dict[int, Player]) -> list[Side]:
    """Both sides of a game (one for a bye or forfeit)."""
    player1 = players[game.player1_id]
    if game.player2_id is None:
        return [Side(game, player1, None, game.score1, None, 0)]
    player2 = players[game.player2_id]
    swapped = {1: 2, 2: 1}.get(game.first, 0)
    penalty1, penalty2 = game.penalty1, game.penalty2
    return [
        Side(game, player1, player2, game.score1, game.score2, game.first, penalty1, penalty2),
        Side(game, player2, player1, game.score2, game.score1, swapped, penalty2, penalty1),
    ]


def _players_of(games: Iterable[Game]) -> dict[int, Player]:
    """The players of games loaded with select_related("player1", "player2")."""
    players: dict[int, Player] = {}
    for g in games:
        players[g.player1_id] = g.player1
        if g.player2_id is not None and g.player2 is not None:
            players[g.player2_id] = g.player2
    return players


@dataclass(frozen=True)
class Pairings:
    by_table: list[Side]  # each game once, from its first-listed player's side
    by_name: list[Side]  # every player of the round, in alphabetical order

    @property
    def fixed_tables(self) -> bool:
        """Some game is at a fixed table: the printed pairings mark it and say what it means."""
        return any(s.fixed_table for s in self.by_table)


def round_pairings(division: Division, number: int, stamps: DivisionStamps) -> Pairings:
    """The games of a round, as this process read them under the division's stamps
    (`read_model.division_read`: none when it has)."""
    read = read_model.division_read(division, public=True, stamps=stamps)
    players = {p.pk: p for p in read.players}
    sides = [s for g in read.rows.get(number, ()) for s in sides_of(g, players)]
    by_table = [s for s in sides if s.player.pk == s.game.player1_id]
    by_table.sort(key=lambda s: (s.table is None, s.table or 0, s.game.pk))
    by_name = sorted(sides, key=lambda s: (s.player.name.casefold(), s.player.number))
    return Pairings(by_table, by_name)


@dataclass(frozen=True)
class PlayerGame:
    """A player's game and their record after it."""

    side: Side
    wins: float
    losses: float
    spread: int
    scoresheet: Scoresheet | None  # the latest uploaded

    @property
    def record(self) -> str:
        return f"{count_text(self.wins)}–{count_text(self.losses)}"


def player_games(player: Player) -> list[PlayerGame]:
    """Every game of a player in round order, with the running record (two queries)."""
    scoresheets = Prefetch(
        "scoresheets",
        queryset=Scoresheet.objects.public().only(
            "pk", "game_id", "uploaded", "verified", "report"
        ),
    )
    games = list(
        Game.objects.filter(Q(player1=player) | Q(player2=player))
        .published()
        .select_related("player1", "player2")
        .prefetch_related(scoresheets)
        .order_by("round", "table", "pk")
    )
    players = _players_of(games)
    players[player.pk] = player
    last_round = max((g.round for g in games), default=0)
    # The standings engine counts the record, so that a tie, a bye or a forfeit counts here
    # exactly as it does in the standings.
    entrants = [read_model.engine_player(p) for p in players.values()]
    rounds = read_model.engine_games(games, last_round)
    result = []
    for game in games:
        side = next(s for s in sides_of(game, players) if s.player.pk == player.pk)
        after = engine.standings(entrants, rounds, after_round=game.round, rank_withdrawn=True)
        mine = next(s for s in after if s.id == player.pk)
        sheets = game.scoresheets.all()
        result.append(
            PlayerGame(side, mine.wins, mine.losses, mine.spread, sheets[0] if sheets else None)
        )
    return result


# A game's columns in a player's games-table key, in this order (`key_values`).
KEY_COLUMNS = (
    "pk", "round", "table", "player1_id", "player2_id", "score1", "score2", "kind", "first", "tou",
    "penalty1", "penalty2",
)  # fmt: skip


def _games_key(
    player_pk: int,
    stamps: DivisionStamps,
    language: str,
    rounds: str,
    sheet_rounds: Iterable[int],
) -> str:
    """The key of a player's games table (`keys.of_rounds`): `stamps` read before the games;
    `rounds` is the player's games, round by round in round order, each round's line as
    `games_text` writes it; `sheet_rounds` the rounds where one of them has a
    scoresheet, whose own stamps are in the key."""
    return keys.of_rounds(
        "player-games",
        stamps,
        sheet_rounds,
        public=True,
        player=player_pk,
        language=language,
        games=rounds,
    )


def player_games_key(player: Player, stamps: DivisionStamps, language: str) -> str:
    """The cache key of a player's games table (`player_games`, written by
    `tables.player_games_html`): it changes with what the table shows, and not with a result
    elsewhere in the division, which changes the division's stamp and the player's rank but not
    the player's own games. Two small queries of plain values.

    The table shows the player's published games (read here, their values in the key), their
    opponents' names and links (a player renamed, a round published, a division or tournament
    renamed renews the frame stamp, in the key) and the public scoresheets of those games (any
    change to a game's sheets renews its round's stamp: the stamps of the rounds whose game has
    a sheet are in the key, and which games have one is read here). The division's `stamps` must
    have been read before this call, so that they are never newer than the games read here.
    `player_games_keys` gives the same keys for every player of a division at once."""
    games = list(
        Game.objects.filter(Q(player1=player) | Q(player2=player))
        .published()
        .values_list(*KEY_COLUMNS)
    )
    with_sheets = Scoresheet.objects.filter(game_id__in=[g[0] for g in games]).values_list(
        "game__round", flat=True
    )
    by_round: dict[int, list[tuple]] = defaultdict(list)
    for g in games:
        by_round[g[1]].append(g)
    rounds = "".join(games_text(n, by_round[n]) for n in sorted(by_round))
    return _games_key(player.pk, stamps, language, rounds, with_sheets)


def player_games_keys(division: Division, language: str, stamps: DivisionStamps) -> dict[int, str]:
    """`player_games_key` of every player of the division (by primary key), from the games this
    process read under the division's stamp (`read_model.division_read`, which writes each
    round's part of the keys once) and one query for the games with a scoresheet."""
    read = read_model.division_read(division, public=True, stamps=stamps)
    with_sheets = set(
        Scoresheet.objects.filter(
            game__division=division, game__round__in=list(read.rows)
        ).values_list("game_id", flat=True)
    )
    sheet_rounds: dict[int, list[int]] = defaultdict(list)
    for number, rows in read.rows.items():
        for g in rows:
            if g.pk in with_sheets:
                for pk in (g.player1_id, g.player2_id):
                    if pk is not None:
                        sheet_rounds[pk].append(number)
    lines: dict[int, list[str]] = {p.pk: [] for p in read.players}
    for held in read.rounds.values():  # in round order
        for pk, text in held.by_player.items():
            if pk in lines:
                lines[pk].append(text)
    return {
        pk: _games_key(pk, stamps, language, "".join(mine), sheet_rounds.get(pk, []))
        for pk, mine in lines.items()
    }


@dataclass(frozen=True)
class CrossRow:
    """A player's line of the crosstable: their standing and their game of each round."""

    standing: Row
    cells: list[Side | None]  # [0] is round 1

    @property
    def player(self) -> Player:
        return self.standing.player


def crosstable(division: Division, stamps: DivisionStamps) -> tuple[list[CrossRow], int]:
    """Every player in rank order with their game of each round, and the number of rounds.

    Three queries: the standings' two and the games.
    """
    rows = read_model.division_standings(division, public=True, stamps=stamps)
    players = {row.player.pk: row.player for row in rows}
    games = list(division.games.published())
    rounds = max((g.round for g in games), default=0)
    cells: dict[int, list[Side | None]] = {pk: [None] * rounds for pk in players}
    for game in games:
        for side in sides_of(game, players):
            cells[side.player.pk][game.round - 1] = side
    return [CrossRow(row, cells[row.player.pk]) for row in rows], rounds
