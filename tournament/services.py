"""Services: load rows, call an engine, save the result in one transaction.

Views and commands come here; they never compute standings or read files themselves.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
import tempfile
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TypeVar

from django.db import DatabaseError, transaction
from django.db.models import QuerySet
from django.utils.text import slugify
from django.utils.translation import gettext

from tournament import cache_once
from tournament.cache_once import Kept, get_or_compute
from tournament.engine import pairing
from tournament.engine import ratings as ratings_engine
from tournament.engine import standings as engine
from tournament.engine.text import count_text
from tournament.interchange import files, tsh
from tournament.models import Division, Game, GameQuerySet, Player, Tournament

T = TypeVar("T")


class ImportError_(ValueError):
    """A file that cannot be imported; the message says where and why."""


def find_division(divisions: QuerySet[Division], name: str) -> Division | None:
    """The division called `name` among `divisions`, in any case as in tsh (`a` finds `A`);
    a name written exactly as given wins over one that differs only in case."""
    found = list(divisions.filter(name__iexact=name)[:10])
    if not found:
        # SQLite's iexact folds ASCII letters only: fold the others here, reading names alone.
        names = divisions.prefetch_related(None).values_list("pk", "name")
        pks = [pk for pk, other in names if other.casefold() == name.casefold()]
        found = list(divisions.filter(pk__in=pks)) if pks else []
    exact = [d for d in found if d.name == name]
    return (exact or found or [None])[0]


def division_by_name(slug: str, name: str) -> Division:
    """The division `name` (in any case) of the tournament `slug`; LookupError with a sentence
    if none."""
    divisions = Division.objects.select_related("tournament").filter(tournament__slug=slug)
    division = find_division(divisions, name)
    if division is None:
        raise LookupError(
            gettext("no division %(name)r in tournament %(slug)r") % {"name": name, "slug": slug}
        )
    return division


# -- standings ---------------------------------------------------------------------------------


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

    @property
    def has_result(self) -> bool:
        return self.score1 is not None and (self.player2_id is None or self.score2 is not None)


_GAME_COLUMNS = (
    "round",
    "player1_id",
    "player2_id",
    "score1",
    "score2",
    "kind",
    "first",
    "tou",
    "table",
    "pk",
)


def engine_game(g: Game | GameRow, with_scores: bool = True) -> engine.Game:
    """A game as the engines take it, from player1's side; without its scores, its pairing
    only (a round paired and not yet played)."""
    if g.player2_id is None:
        kind = engine.GameKind.FORFEIT if g.kind == Game.FORFEIT else engine.GameKind.BYE
        return engine.Game(g.player1_id, None, (g.score1 or 0) if with_scores else 0, 0, kind)
    first = {1: True, 2: False}.get(g.first)
    if not with_scores:
        return engine.Game(g.player1_id, g.player2_id, 0, 0, first=first)
    # A .tou game whose result digits disagree with its scores keeps the digits' results.
    given = (g.tou or {}).get("results") if g.score1 is not None else None
    results = (float(given[0]), float(given[1])) if given else None
    return engine.Game(g.player1_id, g.player2_id, g.score1, g.score2, first=first, results=results)


def engine_games(games: Sequence[Game | GameRow], rounds: int) -> list[list[engine.Game]]:
    """The results of each round as the engines take them (`[0]` is round 1)."""
    by_round: list[list[engine.Game]] = [[] for _ in range(rounds)]
    for g in games:
        if not g.has_result or g.kind == Game.VOID or g.round > rounds:
            continue
        by_round[g.round - 1].append(engine_game(g))
    return by_round


def rounds_played(division: Division) -> int:
    """The last round with a result."""
    last = division.games.exclude(score1=None).order_by("-round").values_list("round", flat=True)
    return last.first() or 0


def rounds_counted(division: Division, public: bool = True) -> int:
    """The last round the standings count (`round_counts`: a result, or its byes once they
    count): what "standings after round N" means by default."""
    return len(_players_and_results(division, public)[1])


def shows_inactive(tournament: Tournament) -> bool:
    """tsh's `config show_inactive`: withdrawn players keep a rank in the standings."""
    if not tournament.tsh_config:
        return False
    try:
        value = _config_value(tournament.tsh_config, "show_inactive")
    except tsh.TshFormatError:
        return False  # the config was read when imported; an edit that broke it sets nothing
    return _perl_true(value)


@functools.lru_cache(maxsize=64)
def _config_value(config: str, key: str) -> Any:
    """A setting of a config.tsh text, read once per process (the pages ask for it each time);
    not to be changed by the caller."""
    return tsh.read_config(config).value(key)


def division_standings(
    division: Division,
    after_round: int | None = None,
    capped: bool = False,
    show_inactive: bool | None = None,
    key: str | None = None,
    *,
    public: bool = True,
) -> list[Row]:
    """The standings after a round (default: the last with a result), in rank order.

    `public`: from the games the public may see (`Game.objects.published()`) only; the desk
    counts every game and says so (`public=False`); by default a forgotten caller shows less,
    never a round not yet published.

    Withdrawn players are ranked too if `show_inactive` (default: as the event's config.tsh
    says). The standings are cached under the division's stamp, so a change to its games or
    players is seen at once: one query by primary key reads the stamp; computing the
    standings afresh takes two more whatever the size of the division (its players and its
    games), and one for the tournament's config if a player has withdrawn and the division was
    loaded without its tournament. A caller that has just asked for `standings_key` passes it
    as `key`.
    """
    key = key or standings_key(division, after_round, capped, show_inactive, public=public)
    rows = get_or_compute(
        key,
        lambda: _standings(division, after_round, capped, show_inactive, public),
        24 * 3600,
        local=True,
        pack=lambda rows: [
            (r.rank, r.player.pk, r.wins, r.losses, r.spread, r.games) for r in rows
        ],
        unpack=lambda packed: _with_players(division, public, packed, Row),
    )
    assert rows is not None  # noqa: S101 - computed, never None
    return rows


def _with_players(
    division: Division, public: bool, packed: list[tuple], row: Callable[..., T], at: int = 1
) -> list[T] | None:
    """Rows kept packed in the shared cache (`cache_once.get_or_compute`), each with its
    player's primary key at `at`, made again with the players this process has read; None if
    one of them is not among those (the rows are then computed again)."""
    players = {p.pk: p for p in _players_and_results(division, public)[0]}
    rows = []
    for values in packed:
        player = players.get(values[at])
        if player is None:
            return None
        rows.append(row(*values[:at], player, *values[at + 1 :]))
    return rows


def standings_key(
    division: Division,
    after_round: int | None = None,
    capped: bool = False,
    show_inactive: bool | None = None,
    *,
    public: bool = True,
) -> str:
    """The cache key of a standings table: it changes with any game or player of the division
    (for the public, any game it may see: publishing a round changes it)."""
    raw = (
        f"{division.pk}:{_stamp(division)}:{after_round}:{capped}:"
        f"{division.spread_cap}:{show_inactive}:{public}"
    )
    return "standings:" + hashlib.sha256(raw.encode()).hexdigest()


def _games(division: Division, public: bool) -> GameQuerySet:
    games = Game.objects.filter(division=division)
    return games.published() if public else games


def _stamp(division: Division) -> str:
    """The division's stamp, read afresh (one query by primary key): every change to its games,
    players, rounds or settings replaces it (`tournament/stamps.py`), and an instance read
    before the change still holds the old one."""
    return Division.objects.filter(pk=division.pk).values_list("stamp", flat=True).get()


def engine_player(p: Player) -> engine.Player:
    """A player as the engines take them: the id is the primary key."""
    return engine.Player(p.pk, p.name, p.rating, p.number, p.withdrawn_from_round)


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
            g.first, g.tou)  # fmt: skip


def games_text(number: int, games: Iterable[tuple]) -> str:
    """A player's games of round `number` (their `key_values`) as their games-table key takes
    them: one line, the games in table order, then by primary key."""
    return f"\n{number}:{sorted(games, key=lambda g: (g[2] is None, g[2] or 0, g[0]))!r}"


def _round_read(games: list[GameRow]) -> RoundRead:
    played = pending = 0
    forfeit_tables: set[int | None] = set()  # a paired game's forfeit: two rows, one result
    pairs: list[engine.Game] = []
    alone: list[engine.Game] = []
    for g in games:
        if g.kind == Game.VOID:
            continue
        if scored_when_paired(g.kind, g.player2_id, g.table):
            if g.has_result:
                alone.append(engine_game(g))
        elif g.has_result:
            if g.player2_id is None:
                forfeit_tables.add(g.table)
            else:
                played += 1
            pairs.append(engine_game(g))
        else:
            pending += 1
    return RoundRead(played + len(forfeit_tables), pending, pairs, alone, tuple(games))


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


# The last few divisions' players and results read by this process, by stamp: after a change,
# the standings, the ratings and the Gibsonized players each need them, and reading a big
# division's games is most of computing any of them.
_READ: Kept[tuple[int, str, bool, str], DivisionRead] = Kept(8)
# Each round's results as this process last read them, by the division's frame stamp: round →
# (the round's own stamp, its games as read). Under one frame stamp the rounds are the same
# ones (a game added, deleted or moved renews it), so a result read again is the one round
# whose stamp changed.
_ROUNDS: Kept[tuple[int, str, bool], dict[int, tuple[str, RoundRead]]] = Kept(8)
# The players as this process last read them, by the division's frame stamp (a player saved,
# added or deleted renews it; a result does not): a result entered reads no player again.
_PLAYERS: Kept[tuple[int, str], list[Player]] = Kept(8)


def _players_and_results(
    division: Division, public: bool
) -> tuple[list[Player], list[list[engine.Game]]]:
    """The division's players, and the results of each round up to the last that counts
    (`round_counts`, by the division's `byes_count`): `division_read`'s. Read-only."""
    read = division_read(division, public)
    return read.players, read.results


def division_read(division: Division, public: bool = True) -> DivisionRead:
    """The division's players and games (for the public, its published games only; three
    queries, or one when this process read them under the division's current stamp; the games
    are read as plain values, without building model instances, and only those of the rounds
    changed since this process last read them; the players only if the frame stamp changed).
    Read-only: shared by every caller under the same stamp."""
    # The stamps are read first: what is read after them is at least as new, so never stale.
    stamp, frame, round_stamps, mode = (
        Division.objects.filter(pk=division.pk)
        .values_list("stamp", "frame_stamp", "round_stamps", "byes_count")
        .get()
    )
    key = (division.pk, stamp, public, mode)
    found = _READ.get(key)
    if found is None:
        found = _read_division(division, public, stamp, frame, round_stamps or {}, mode)
        _READ.put(key, found)
    return found


def _read_division(
    division: Division,
    public: bool,
    stamp: str,
    frame: str,
    round_stamps: dict[str, str],
    mode: str,
) -> DivisionRead:
    players = _PLAYERS.get((division.pk, frame))
    if players is None:
        players = list(division.players.all())
    where = (division.pk, frame, public)
    kept = {
        number: held
        for number, held in (_ROUNDS.get(where) or {}).items()
        if held[0] == round_stamps.get(str(number), "")
    }
    fresh: dict[int, list[GameRow]] = {}
    for values in (
        _games(division, public).exclude(round__in=list(kept)).values_list(*_GAME_COLUMNS)
    ):
        game = GameRow(*values)
        fresh.setdefault(game.round, []).append(game)
    for number, games in fresh.items():
        kept[number] = (round_stamps.get(str(number), ""), _round_read(games))
    _ROUNDS.put(where, kept)
    _PLAYERS.put((division.pk, frame), players)
    counted = {n: held[1].results(mode) for n, held in kept.items()}
    last_round = max((n for n, found in counted.items() if found is not None), default=0)
    return DivisionRead(
        stamp,
        frame,
        round_stamps,
        players,
        [list(counted.get(n) or []) for n in range(1, last_round + 1)],
        {n: held[1].rows for n, held in sorted(kept.items())},
        {n: held[1] for n, held in sorted(kept.items())},
    )


def _standings(
    division: Division,
    after_round: int | None,
    capped: bool,
    show_inactive: bool | None,
    public: bool,
) -> list[Row]:
    players, results = _players_and_results(division, public)
    last_round = len(results)
    after = last_round if after_round is None else min(after_round, last_round)
    by_id = {p.pk: p for p in players}
    if show_inactive is None:
        withdrawn = any(p.withdrawn_from_round is not None for p in players)
        show_inactive = withdrawn and shows_inactive(division.tournament)
    table = engine.standings(
        [engine_player(p) for p in players],
        results,
        after_round=after,
        spread_cap=division.spread_cap if capped else None,
        rank_withdrawn=show_inactive,
    )
    # An event imported from a `.tou` file that recorded only wins and losses has no spread.
    no_spread = bool(division.tou.get("results_only"))
    return [
        Row(
            s.rank,
            by_id[s.player.id],
            s.wins,
            s.losses,
            0 if no_spread else s.capped_spread if capped else s.spread,
            s.games,
        )
        for s in table
    ]


def records_of(division: Division, numbers: Sequence[int], *, public: bool = True) -> list[Row]:
    """The records of the players numbered `numbers` (wins, losses, spread, games: the same as
    their rows of `division_standings`, without a rank), counted from their own games alone.
    The desk says them after each save, which renews the stamp the whole standings are kept
    under: the results are read as the standings read them (`_players_and_results`, by
    `byes_count`; after a save, only the saved round afresh, and kept for the pages that follow)
    but only these players' games are counted. In the order given; a number not in the division
    is left out."""
    players, results = _players_and_results(division, public)
    by_number = {p.number: p for p in players}
    wanted = {by_number[n].pk for n in numbers if n in by_number}
    if not wanted:
        return []
    mine = [[g for g in games if g.player in wanted or g.opponent in wanted] for games in results]
    # The opponents are players of the engine's table too: it checks every game's two players.
    met = wanted | {g.player for r in mine for g in r} | {g.opponent for r in mine for g in r}
    table = engine.standings(
        [engine_player(p) for p in players if p.pk in met], mine, rank_withdrawn=True
    )
    no_spread = bool(division.tou.get("results_only"))
    by_id = {s.player.id: s for s in table}
    found = []
    for number in numbers:
        player = by_number.get(number)
        if player is not None:
            s = by_id[player.pk]
            found.append(Row(None, player, s.wins, s.losses, 0 if no_spread else s.spread, s.games))
    return found


# -- ratings ---------------------------------------------------------------------------------


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


def division_ratings(
    division: Division,
    after_round: int | None = None,
    key: str | None = None,
    *,
    public: bool = True,
) -> list[RatingRow]:
    """Every player's rating after `after_round` (default: the last with a result), by the
    division's rating system, highest new rating first. Byes and forfeits are not rated.

    Cached like the standings, under the same stamp of the division's games and players: a
    caller that has just asked for `standings_key(division, public=…)` passes it as `key`.
    Computing them afresh takes two queries, the players and the games. `public` as for
    `division_standings`.
    """
    system = f"{division.rating_system}:{division.planned_rounds}"
    key = f"ratings:{system}:" + (key or standings_key(division, public=public))
    # Computed once per stamp for every page and worker (the player's page needs them all).
    rows = get_or_compute(
        key,
        lambda: _ratings(division, public),
        24 * 3600,
        local=True,
        pack=lambda rows: [(r.player.pk, r.before, r.by_round, r.after_round) for r in rows],
        unpack=lambda packed: _with_players(division, public, packed, RatingRow, at=0),
    )
    assert rows is not None  # noqa: S101 - computed, never None
    if after_round is not None:
        rows = [replace(r, after_round=max(0, min(after_round, len(r.by_round)))) for r in rows]
    return sorted(rows, key=lambda r: (-r.after, r.player.number))


# Each round's ratings as this process last read or computed them, by their memo key (which
# names everything they are computed from: exact whoever computed them): after a result, the
# rounds before it are not read from the shared cache again.
_RATED: Kept[str, dict[int, int]] = Kept(512)


class _RatingsMemo:
    """The cache, as `ratings_engine.rate_event` keeps each round's ratings in it (a day), and
    this process's memory (`_RATED`)."""

    def get_many(self, keys: list[str]) -> dict[str, dict[int, int]]:
        return cache_once.get_many(_RATED, keys)

    def set_many(self, data: dict[str, dict[int, int]]) -> object:
        return cache_once.set_many(_RATED, data, 24 * 3600)


def _ratings(division: Division, public: bool) -> list[RatingRow]:
    players, results = _players_and_results(division, public)
    rated = ratings_engine.rate_event(
        [ratings_engine.RatedPlayer(p.pk, p.rating, p.lifetime_games or 0) for p in players],
        results,
        system=division.rating_system,
        max_rounds=max(division.planned_rounds or 0, len(results)) or None,
        # Each round's ratings kept by the players and games up to it: a result entered in
        # round k rates rounds k and later again, not the rounds before it.
        memo=_RatingsMemo(),
    )
    rows = []
    for p in players:
        by_round = tuple(int(r) for r in rated[p.pk].after_round)
        rows.append(RatingRow(p, p.rating, by_round, len(by_round)))
    return rows


# -- TSH files ---------------------------------------------------------------------------------


# Limits on numbers read from a tsh file, checked before anything is saved: beyond them a value
# is a typing slip or a hostile file, and would overflow a column. Ratings may be as large as
# their column holds (Woogles exports its own, up to nine digits); no Scrabble score or spread
# reaches six digits.
MAX_RATING = 2**31 - 1
MAX_SCORE = 99_999
MAX_ROUNDS = 1_000
MAX_COUNT = 1_000_000  # lifetime games, table numbers, prize bands


def _lifetime_games(player: tsh.TshPlayer) -> int | None:
    values = player.extra("lifeg")
    return tsh.whole_number(values[0]) if values else None


def _first_second(player: tsh.TshPlayer, round_index: int) -> int:
    """tsh's `p12` for a round: 1 first, 2 second; anything else is not known."""
    values = player.extra("p12") or []
    if round_index < len(values) and values[round_index] in ("1", "2"):
        return int(values[round_index])
    return 0


def _max_length(model: type, name: str) -> int:
    return model._meta.get_field(name).max_length


def _check_tfile(tfile: tsh.TFile, source: str) -> None:
    """Every value of the file fits its column and its range, or TshFormatError names the line
    (checked before saving: a database refuses some of these only at the end, and some it
    takes and the pages then fail on)."""

    def refuse(line: int, message: str) -> None:
        raise tsh.TshFormatError(line, message, source=source)

    for p in tfile.players:
        for what, text, model, column in (
            ("the name", p.name, Player, "name"),
            ("the rating", p.rating, Player, "rating_text"),
            ("the team", " ".join(p.extra("team") or []), Player, "team"),
        ):
            limit = _max_length(model, column)
            if len(text) > limit:
                refuse(
                    p.line,
                    gettext("%(what)s is %(count)s characters long; at most %(limit)s are kept")
                    % {"what": what, "count": len(text), "limit": limit},
                )
        if p.rating_value > MAX_RATING:
            refuse(
                p.line,
                gettext("the rating %(rating)s is above %(highest)s, the highest accepted")
                % {"rating": p.rating, "highest": MAX_RATING},
            )
        if len(p.opponents) > MAX_ROUNDS or len(p.scores) > MAX_ROUNDS:
            refuse(p.line, gettext("more than %(most)s rounds") % {"most": MAX_ROUNDS})
        for score in p.scores:
            if score is not None and abs(score) > MAX_SCORE:
                refuse(
                    p.line,
                    gettext("the score %(score)s is beyond ±%(most)s")
                    % {"score": score, "most": MAX_SCORE},
                )
        lifeg = _lifetime_games(p)
        if lifeg is not None and not 0 <= lifeg <= MAX_COUNT:
            refuse(
                p.line,
                gettext("lifeg %(lifeg)s is not 0 to %(most)s")
                % {"lifeg": lifeg, "most": MAX_COUNT},
            )
        for board in p.extra_numbers("board") or []:
            if board is not None and not 0 <= board <= MAX_COUNT:
                refuse(
                    p.line,
                    gettext("board %(board)s is not 0 to %(most)s")
                    % {"board": board, "most": MAX_COUNT},
                )


def check_division_name(name: str) -> str | None:
    """Why `name` cannot name a division (its URLs could not be built), or None if it can."""
    limit = _max_length(Division, "name")
    if not name.strip():
        return gettext("a division needs a name")
    if len(name) > limit:
        return gettext("the division name is %(count)s characters long; at most %(limit)s") % {
            "count": len(name),
            "limit": limit,
        }
    if "/" in name or "\\" in name or name.strip(".") == "":
        return gettext("a division name cannot be %(name)r (no '/' or '\\', and not only dots)") % {
            "name": name
        }
    return None


def _check_config(config: tsh.ConfigFile, source: str) -> None:
    """The divisions and the settings Spread stores fit their columns and ranges."""

    def refuse(line: int, message: str) -> None:
        raise tsh.TshFormatError(line, message, source=source)

    seen: dict[str, tsh.DivisionLine] = {}
    for line in config.divisions:
        if problem := check_division_name(line.name):
            refuse(line.number, problem)
        if len(line.file) > _max_length(Division, "tsh_file"):
            refuse(
                line.number,
                gettext("the file name is longer than %(limit)s")
                % {"limit": _max_length(Division, "tsh_file")},
            )
        # tsh matches division names without regard to case, and so does Spread.
        other = seen.get(line.name.casefold())
        if other is not None:
            refuse(
                line.number,
                gettext(
                    "division %(name)r is division %(name2)r of line %(number)s again "
                    "(names are the same in any case)"
                )
                % {"name": line.name, "name2": other.name, "number": other.number},
            )
        seen[line.name.casefold()] = line
    ranges = {
        "max_rounds": (1, MAX_ROUNDS),
        "bye_spread": (-MAX_SCORE, MAX_SCORE),
        "spread_cap": (0, MAX_SCORE),
        "standings_spread_cap": (0, MAX_SCORE),
        "gibson_spread": (0, MAX_SCORE),
        "prize_bands": (1, MAX_COUNT),
    }
    for setting in config.settings:
        if setting.key not in ranges:
            continue
        low, high = ranges[setting.key]
        value = setting.value
        for number in value if isinstance(value, list) else [value]:
            if isinstance(number, (int, float)) and not low <= number <= high:
                shown = (
                    str(number) if len(str(number)) <= 12 else f"a {len(str(number))}-digit number"
                )
                refuse(
                    setting.number,
                    gettext("config %(key)s: %(shown)s is not %(low)s to %(high)s")
                    % {"key": setting.key, "shown": shown, "low": low, "high": high},
                )
    title = config.value("event_name")
    if isinstance(title, str) and len(title) > _max_length(Tournament, "name"):
        line = config.setting("event_name")
        assert line is not None
        refuse(
            line.number,
            gettext("config event_name is longer than %(limit)s")
            % {"limit": _max_length(Tournament, "name")},
        )


def rating_system_asked(tournament: Tournament) -> str | None:
    """The rating system the event's config.tsh names (`config rating_system`), if any."""
    if not tournament.tsh_config:
        return None
    try:
        value = _config_value(tournament.tsh_config, "rating_system")
    except tsh.TshFormatError:
        return None
    return value.strip() if isinstance(value, str) and value.strip() else None


# tsh's `config rating_list`: the folder of tsh's lib/ratings/ whose current.txt the event's
# ratings are looked up in (Division::RatingList); tsh's UPDATERATINGS fills `nsa` and
# `naspa-csw` from scrabbleplayers.org/ratings/data/full (and /csw/full), NASPA's lists, and
# `wespa` with WESPA's. The others it knows (absp, pak, ken, nor) Spread does not read.
RATING_LIST_FORMATS = {"nsa": "naspa", "naspa-csw": "naspa", "wespa": "wespa"}


def rating_list_asked(division: Division) -> tuple[str, str | None] | None:
    """The rating list the event's config.tsh names (`config rating_list = 'nsa'`, or per
    division `config rating_list{'A'}`), and the format of `interchange.ratinglist` that reads
    it (None: one Spread does not read); None when the config names none."""
    tournament = division.tournament
    if not tournament.tsh_config:
        return None
    try:
        config = tsh.read_config(tournament.tsh_config)
        value = config.value("rating_list", tsh.canonical_division(division.name))
        if value is None:
            value = config.value("rating_list")
    except tsh.TshFormatError:
        return None
    if isinstance(value, dict):
        wanted = tsh.canonical_division(division.name)
        mine = [v for k, v in value.items() if tsh.canonical_division(str(k)) == wanted]
        value = mine[0] if mine else None
    if not isinstance(value, str) or not value.strip():
        return None
    name = value.strip()
    return name, RATING_LIST_FORMATS.get(name.lower())


def ratings_note(division: Division) -> str | None:
    """One line saying that the ratings shown are not those of the system the event asks for,
    or None when they are: Spread never passes off one system's figures as another's."""
    asked = rating_system_asked(division.tournament)
    used = division.rating_system
    if asked is None or asked.lower() == used.lower():
        return None
    if asked.lower() not in ratings_engine.rating_system_names():
        return (
            f"The event asks for {asked} ratings, which Spread does not compute: "
            f"these are {used} figures, not {asked}'s."
        )
    return f"The event asks for {asked} ratings: these are {used} figures, not {asked}'s."


@transaction.atomic
def import_division(tournament: Tournament, name: str, tfile: tsh.TFile, **settings) -> Division:
    """A division and its players and games from a read `.t` file."""
    # An imported event keeps the rule it was read under: a round's byes count once any of its
    # games has a result (the results of a finished tsh event are the same under every rule).
    settings.setdefault("byes_count", "any")
    division = Division.objects.create(tournament=tournament, name=name, **settings)
    players = {}
    for p in tfile.players:
        players[p.number] = Player.objects.create(
            division=division,
            number=p.number,
            name=p.name,
            rating=int(p.rating_value),
            rating_text=p.rating,
            lifetime_games=_lifetime_games(p),
            team=" ".join(p.extra("team") or []),
            withdrawn_from_round=p.withdrawn_from_round,
            tsh_extras=[[e.key, e.values] for e in p.extras],
        )
    games = []
    for p in tfile.players:
        boards = p.extra_numbers("board") or []
        for index, opponent in enumerate(p.opponents):
            if opponent is None:
                continue
            score = p.scores[index] if index < len(p.scores) else None
            round_number = index + 1
            board = boards[index] if index < len(boards) else None
            if opponent == tsh.BYE:
                # A bye paired but not scored yet is kept, so that exporting gives it back.
                kind = Game.FORFEIT if score is not None and score < 0 else Game.BYE
                games.append(
                    Game(
                        division=division,
                        round=round_number,
                        table=board,
                        player1=players[p.number],
                        score1=score,
                        kind=kind,
                    )
                )
                continue
            if opponent < p.number:
                continue  # the game is made from the lower-numbered player's side
            other = tfile.player(opponent)
            their = other.scores[index] if index < len(other.scores) else None
            first = _first_second(p, index)
            games.append(
                Game(
                    division=division,
                    round=round_number,
                    table=board,
                    player1=players[p.number],
                    player2=players[opponent],
                    score1=score,
                    score2=their,
                    first=first,
                )
            )
    Game.objects.bulk_create(games)
    return division


def _perl_true(value: object) -> bool:
    return value not in (None, 0, "", "0")


def _schedule(config: tsh.ConfigFile, division: str) -> list[dict]:
    """The division's `autopair` lines as a pairing schedule. A command Spread does not pair
    by leaves the schedule empty (the lines stay in the kept config.tsh)."""
    try:
        return pairing.schedule_from_autopair(config.autopairs, division)
    except ValueError:
        return []


def _unique_slug(base: str) -> str:
    base = base[: _max_length(Tournament, "slug") - 8].strip("-")  # room for "-n"
    slug = base or "tournament"
    n = 2
    while Tournament.objects.filter(slug=slug).exists():
        slug = f"{base}-{n}"
        n += 1
    return slug


def _rating_system(config: tsh.ConfigFile) -> str | None:
    """The system Spread rates by for `config rating_system`: that one if Spread computes it,
    else None (the default, with a note on every ratings page and report)."""
    asked = config.value("rating_system")
    if isinstance(asked, str) and asked.strip().lower() in ratings_engine.rating_system_names():
        return asked.strip().lower()
    return None


@transaction.atomic
def import_tsh(path: str | Path, slug: str | None = None, name: str | None = None) -> Tournament:
    """A tournament from a `config.tsh` (its divisions and settings) or a single `.t` file.

    A config.tsh may carry its `.t` files inside, each between `#begin_file name=X.t` and
    `#end_file name=X.t` (tsh's archive, and how Woogles exports an event); a division whose
    file is not carried is read from the file beside it. Everything is checked before it is
    saved; any error leaves nothing saved and says where in one line.
    """
    path = Path(path)
    if slug is not None and Tournament.objects.filter(slug=slug).exists():
        raise ImportError_(f"the slug {slug!r} is already taken by another tournament")
    try:
        if path.suffix == ".t" or path.name.endswith(".t"):
            tfile = tsh.read_t_file(path)
            _check_tfile(tfile, path.name)
            if problem := check_division_name(path.stem):
                raise ImportError_(f"{path.name}: {problem}")
            base = slugify(name or path.stem)
            tournament = Tournament.objects.create(
                name=name or path.stem, slug=slug or _unique_slug(base)
            )
            import_division(tournament, path.stem, tfile, tsh_file=path.name)
            return tournament
        config = tsh.read_config_file(path)
        _check_config(config, path.name)
        folder = path.parent
        tfiles = []
        for line in config.divisions:
            carried = config.attachment(line.file)
            if carried is not None:
                source = f"{path.name} ({line.file})"
                tfile = tsh.read_t(carried.text, source=source, first_line=carried.first_line)
            else:
                source = line.file
                try:
                    data = files.read_beside(folder, line.file)
                except files.FileRefused as refused:
                    raise ImportError_(
                        f"{path.name}: line {line.number}: {line.text.strip()}: {refused.reason}"
                    ) from refused
                tfile = tsh.read_t_data(data, source=source)
            _check_tfile(tfile, source)
            tfiles.append(tfile)
        title = name or config.value("event_name") or folder.name
        tournament = Tournament.objects.create(
            name=str(title),
            slug=slug or _unique_slug(slugify(str(title))),
            # The .t files are the divisions now: an export writes them beside the config.
            tsh_config=tsh.write_config(config.without_attachments()),
        )
        caps = config.standings_spread_cap or config.spread_cap
        system = _rating_system(config)
        for position, (line, tfile) in enumerate(zip(config.divisions, tfiles, strict=True)):
            import_division(
                tournament,
                line.name,
                tfile,
                position=position,
                tsh_file=line.file,
                bye_spread=config.effective_bye_spread,
                planned_rounds=config.max_rounds,
                spread_cap=[caps] if isinstance(caps, int) else caps,
                prize_bands=config.prize_bands(line.name),
                prizes=config.prizes(line.name),
                rating_classes=config.classes(line.name),
                gibson=_perl_true(config.value("gibson")),
                gibson_spread=config.gibson_spread,
                pairing_schedule=_schedule(config, line.name),
                **({"rating_system": system} if system else {}),
            )
        return tournament
    except tsh.TshFormatError as error:
        # A config value is read when asked for, by which time the line knows no file name.
        source = error.source or path.name
        raise ImportError_(f"{source}: line {error.line}: {error.message}") from error
    except files.FileRefused as refused:
        raise ImportError_(str(refused)) from refused
    except OSError as error:
        raise ImportError_(f"cannot read {error.filename}: {error.strerror}") from error
    except DatabaseError as error:
        # The transaction is rolled back; the database's own message may run over lines.
        reason = (str(error).strip().splitlines() or [type(error).__name__])[0]
        raise ImportError_(
            f"the database failed during the import, nothing was saved: {reason}"
        ) from error


def tsh_name(player: tsh.TshPlayer, latin: str = "") -> str:
    """The player's name as a `.t` line can hold it so that tsh (and Spread) read it back:
    the name itself when it can; else with line breaks and runs of spaces made one space,
    a number ending it joined on with `-` ("Smith 2" → "Smith-2": tsh would read a number
    after a space as the rating), a one-letter name given a `.`; a name that still cannot be
    written (one starting with `#`, or with `;` before a number) is written with its letters,
    digits, spaces and `.,'-` only, or failing that as its name in Latin letters (`latin`)."""

    def fits(name: str) -> bool:
        try:
            tsh.format_player(replace(player, name=name, gap=None))
        except ValueError:
            return False
        return True

    def mended(name: str) -> str:
        words = name.split()
        while len(words) > 1 and re.fullmatch(r"[\d.+]+", words[-1]):
            words[-2:] = [f"{words[-2]}-{words[-1]}"]
        name = " ".join(words)
        return name + "." if len(name) == 1 else name

    def plain(name: str) -> str:
        return "".join(ch if ch.isalnum() or ch in ".,'-" else " " for ch in name).strip(".,'- ")

    if fits(player.name):
        return player.name
    for name in (player.name, plain(player.name), latin, plain(latin)):
        if name.strip() and fits(mended(name)):
            return mended(name)
    # Not reached by any name tried (tests/tournament/test_latin_names.py): a name without a
    # letter or digit fits once a `.` is added, and the plain one fits when it has one.
    return player.name


def division_tfile(division: Division, renamed: list[str] | None = None) -> tsh.TFile:
    """The division as a `.t` file: every player's line with its opponents, scores and fields.
    A name a `.t` line cannot hold is written as `tsh_name` gives it, and said in `renamed`."""
    players = list(division.players.all())
    number_of = {p.pk: p.number for p in players}
    rounds = max((g.round for g in division.games.all()), default=0)
    opponents: dict[int, list[int | None]] = {p.pk: [None] * rounds for p in players}
    scores: dict[int, list[int | None]] = {p.pk: [None] * rounds for p in players}
    for g in division.games.all():
        i = g.round - 1
        if g.player2_id is None:
            opponents[g.player1_id][i] = tsh.BYE
            scores[g.player1_id][i] = g.score1
        else:
            opponents[g.player1_id][i] = number_of[g.player2_id]
            opponents[g.player2_id][i] = number_of[g.player1_id]
            scores[g.player1_id][i] = g.score1
            scores[g.player2_id][i] = g.score2
    lines: list[tsh.TshLine] = []
    for p in players:
        opp = opponents[p.pk]
        sc = scores[p.pk]
        while sc and sc[-1] is None:  # rounds paired but not played keep their opponents only
            sc.pop()
        while opp and opp[-1] is None:
            opp.pop()
        line = tsh.TshPlayer(
            number=p.number,
            name=p.name,
            rating=p.rating_text or str(p.rating),
            opponents=opp,
            scores=sc,
            extras=[tsh.ExtraField(key, list(values)) for key, values in p.tsh_extras],
        )
        name = tsh_name(line, p.name_in_latin)
        if name != p.name:
            if renamed is not None:
                renamed.append(
                    gettext("division %(name)s, player %(number)s: %(name2)r written as %(name3)r")
                    % {"name": division.name, "number": p.number, "name2": p.name, "name3": name}
                )
            line.name = name
        lines.append(line)
    return tsh.TFile(lines)


def _write_atomically(path: Path, data: bytes) -> None:
    """Write `path` whole or not at all: a reader never sees half a file."""
    with tempfile.NamedTemporaryFile(dir=path.parent, prefix=f".{path.name}.", delete=False) as f:
        f.write(data)
    try:
        os.replace(f.name, path)
    except OSError:
        os.unlink(f.name)
        raise


def _inside(file: str) -> Path:
    """A division's file as config.tsh names it, kept inside the export's folder: a path going
    out of it (`../x.t`, `/x.t`) is cut to its file name."""
    path = Path(file)
    return Path(path.name) if path.is_absolute() or ".." in path.parts else path


def _prizes_as_set(config_text: str, divisions: list[Division]) -> str:
    """config.tsh with the `prize` lines of each division whose prizes were changed at the desk
    written afresh; a file whose prizes are as imported is written back as it was."""
    try:
        config = tsh.read_config(config_text)
    except tsh.TshFormatError:
        config = None
    changed = {
        d.name: d.prizes or []
        for d in divisions
        if config is None or config.prizes(d.name) != (d.prizes or [])
    }
    return tsh.with_prizes(config_text, changed) if changed else config_text


def _classes_as_set(config_text: str, divisions: list[Division]) -> str:
    """config.tsh with the `classes` line of each division whose number of classes was changed
    at the desk written afresh (as `_prizes_as_set` does for prizes)."""
    try:
        config = tsh.read_config(config_text)
    except tsh.TshFormatError:
        config = None
    changed = {
        d.name: d.rating_classes
        for d in divisions
        if (config.classes(d.name) if config else 0) != d.rating_classes
    }
    return tsh.with_classes(config_text, changed) if changed else config_text


def _config_text(tournament: Tournament, divisions: list[Division]) -> str:
    config_text = tournament.tsh_config or "".join(
        f"division {d.name} {_t_name(d)}\n" for d in divisions
    )
    return _classes_as_set(_prizes_as_set(config_text, divisions), divisions)


def _t_name(division: Division) -> str:
    return str(_inside(division.tsh_file or f"{slugify(division.name) or 'division'}.t"))


def tsh_archive(tournament: Tournament, renamed: list[str] | None = None) -> str:
    """The whole event in one file, as tsh's own archive writes it: config.tsh with each
    division's `.t` file carried inside between `#begin_file name=X.t` and `#end_file
    name=X.t` (`import_tsh` reads it back). What a NASPA submission is made from."""
    divisions = list(tournament.divisions.all())
    text = _config_text(tournament, divisions)
    if text and not text.endswith("\n"):
        text += "\n"
    parts = [text]
    for division in divisions:
        name = _t_name(division)
        body = tsh.write_t(division_tfile(division, renamed)).lstrip("\ufeff")
        if body and not body.endswith("\n"):
            body += "\n"
        parts.append(f"#begin_file name={name}\n{body}#end_file name={name}\n")
    return "".join(parts)


def export_tsh(
    tournament: Tournament, folder: str | Path, renamed: list[str] | None = None
) -> list[Path]:
    """Write `config.tsh` and a `.t` file per division into `folder`; the files written. Names
    a `.t` line cannot hold as they are are written as `tsh_name` gives them, listed in
    `renamed`. A division's file is written where config.tsh names it, inside `folder`."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    divisions = list(tournament.divisions.all())
    for division in divisions:
        target = folder / _inside(division.tsh_file or f"{slugify(division.name) or 'division'}.t")
        target.parent.mkdir(parents=True, exist_ok=True)
        tfile = division_tfile(division, renamed)
        _write_atomically(target, tsh.write_t(tfile).encode(tfile.encoding))
        written.append(target)
    config_text = _config_text(tournament, divisions)
    config_path = folder / "config.tsh"
    _write_atomically(config_path, config_text.encode("utf-8"))
    written.append(config_path)
    return written


def last_result_round(division: Division, public: bool = False) -> int:
    """The last round with a result entered (the public's view: published rounds only); 0
    before any."""
    games = division.games.all()
    last = (
        (games.published() if public else games)
        .exclude(score1=None)
        .order_by("-round")
        .values_list("round", flat=True)
        .first()
    )
    return last or 0
