"""The read model: a division's players, games, standings and ratings as every page reads them.

Read once per request from the rows, computed by the pure engines, and kept under the division's
stamp (`cache_once`), so that a result is on the next request to any worker. Views and commands
come here; they never compute standings themselves.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import fields, replace
from operator import attrgetter
from typing import Any, TypeVar

from django.db.models import Q

from tournament.core import tsh_settings
from tournament.engine import ratings as ratings_engine
from tournament.engine import standings as engine
from tournament.engine.patched import patched
from tournament.models import Division, Game, GameQuerySet, Player
from tournament.standings import cache_once, keys, memos
from tournament.standings.cache_once import get_or_compute
from tournament.standings.rows import (
    DivisionRead,
    GameRow,
    KeptTable,
    RatedRows,
    RatingRow,
    RoundRead,
    Row,
    by_new_rating,
    byes_count,
    games_text,
    key_values,
    round_counts,
    scored_when_paired,
)
from tournament.standings.stamps import DivisionStamps, kept_before

T = TypeVar("T")


# Read by their fields' names, which are the columns' (`values_list`).
_GAME_COLUMNS = tuple(f.name for f in fields(GameRow))


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
    score1, score2 = g.score1 or 0, g.score2 or 0  # a game with a result has both
    return engine.Game(g.player1_id, g.player2_id, score1, score2, first=first, results=results)


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


def rounds_counted(division: Division, public: bool = True, *, stamps: DivisionStamps) -> int:
    """The last round the standings count (`round_counts`: a result, or its byes once they
    count): what "standings after round N" means by default."""
    return len(players_and_results(division, public, stamps)[1])


def division_standings(
    division: Division,
    after_round: int | None = None,
    capped: bool = False,
    show_inactive: bool | None = None,
    *,
    public: bool = True,
    stamps: DivisionStamps,
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
    loaded without its tournament. The caller reads the division's `stamps` once for its
    request (`stamps.read`) and passes them: nothing here reads them again.
    """
    key = standings_key(division, after_round, capped, show_inactive, public=public, stamps=stamps)
    if not memos.computing_afresh() and memos.STANDINGS.get(key) is None:
        # This worker's table of a stamp before, ranked again for the players the writes since
        # changed, costs less than the other worker's table unpacked from the shared cache.
        made = _kept_standings(division, after_round, capped, show_inactive, public, stamps)
        if made is not None:
            memos.STANDINGS.put(key, made)
            return made
    rows = get_or_compute(
        key,
        lambda: _standings(division, after_round, capped, show_inactive, public, stamps),
        24 * 3600,
        local=memos.STANDINGS,
        pack=_packed,
        unpack=lambda packed: _unpacked(Row, packed, division, public, stamps),
    )
    assert rows is not None  # noqa: S101 - computed, never None
    return rows


def _packed(rows: Sequence[Row] | Sequence[RatingRow]) -> tuple[tuple[str, ...], list[tuple]]:
    """Rows as the shared cache keeps them, by their fields: plain values, quick to pickle, each
    player as their primary key (`cache_once.get_or_compute`'s `pack`)."""
    if not rows:
        return (), []
    names = tuple(f.name for f in fields(rows[0]))
    at = names.index("player")
    return names, [(*v[:at], v[at].pk, *v[at + 1 :]) for v in map(attrgetter(*names), rows)]


def _unpacked(
    row: type[T],
    packed: Any,
    division: Division,
    public: bool,
    stamps: DivisionStamps,
) -> list[T] | None:
    """Rows kept packed by their fields (`_packed`), made again with the players this process
    has read; None if the fields are not the row's (kept by another version of Spread) or a
    player is not among those read: the rows are then computed again."""
    if not (isinstance(packed, tuple) and len(packed) == 2):
        return None  # kept in another shape, by an earlier version of Spread
    names, values = packed
    if not values:
        return []
    if names != tuple(f.name for f in fields(row)):  # type: ignore[arg-type]
        return None
    players = {p.pk: p for p in players_and_results(division, public, stamps)[0]}
    rows = []
    for kept in values:
        given = dict(zip(names, kept, strict=True))
        player = players.get(given["player"])
        if player is None:
            return None
        given["player"] = player
        rows.append(row(**given))
    return rows


def standings_key(
    division: Division,
    after_round: int | None = None,
    capped: bool = False,
    show_inactive: bool | None = None,
    *,
    public: bool = True,
    stamps: DivisionStamps,
) -> str:
    """The cache key of a standings table (`keys.of_division`): it changes with any game or
    player of the division (for the public, any game it may see: publishing a round changes
    it)."""
    return keys.of_division(
        "standings",
        stamps,
        public=public,
        after=after_round,
        capped=capped,
        spread_cap=division.spread_cap,
        show_inactive=show_inactive,
    )


def _games(division: Division, public: bool) -> GameQuerySet:
    games = Game.objects.filter(division=division)
    return games.published() if public else games


def engine_player(p: Player) -> engine.Player:
    """A player as the engines take them: the id is the primary key."""
    return engine.Player(p.pk, p.name, p.rating, p.number, p.withdrawn_from_round)


def _part(g: GameRow) -> str:
    """What a game adds to its round's read (`RoundRead`): "two" a result between two players,
    "forfeit" a paired game's forfeit (both in `pairs`), "alone" a bye or an absent player's
    forfeit with its result, "pending" a game between two players without one, "" nothing."""
    if g.kind == Game.VOID:
        return ""
    if scored_when_paired(g.kind, g.player2_id, g.table):
        return "alone" if g.has_result else ""
    if g.has_result:
        return "forfeit" if g.player2_id is None else "two"
    return "pending"


def _round_read(games: list[GameRow]) -> RoundRead:
    two = pending = 0
    forfeit_tables: dict[int | None, int] = {}  # a paired game's forfeit: two rows, one result
    pairs: list[engine.Game] = []
    alone: list[engine.Game] = []
    pair_rows: list[int] = []
    alone_rows: list[int] = []
    for i, g in enumerate(games):
        part = _part(g)
        if part == "alone":
            alone.append(engine_game(g))
            alone_rows.append(i)
        elif part == "pending":
            pending += 1
        elif part:
            if part == "two":
                two += 1
            else:
                forfeit_tables[g.table] = forfeit_tables.get(g.table, 0) + 1
            pairs.append(engine_game(g))
            pair_rows.append(i)
    # Its index of games by player (`rows_of`, `positions`) is made when first asked for.
    return RoundRead(
        two + len(forfeit_tables),
        pending,
        pairs,
        alone,
        tuple(games),
        pair_rows,
        alone_rows,
        two,
        forfeit_tables,
    )


def _round_patched(kept: RoundRead, read: list[GameRow], changed: set[int]) -> RoundRead | None:
    """The round read `kept`, its games of the `changed` players as `read` now (every game of
    theirs in the round): the same as the round read afresh, the games in the same order, from
    these games alone. None where a game of theirs is new to the round, gone from it or at
    another table (its place in the order moved): the round is then read afresh."""
    positions, rows_of = kept.positions, kept.rows_of
    rows = list(kept.rows)
    at: dict[int, GameRow] = {}
    for g in read:
        i = positions.get(g.pk)
        if i is None or rows[i].table != g.table:
            return None
        at[i] = g
    if any(i not in at for p in changed for i in rows_of.get(p, ())):
        return None
    two, pending = kept.two, kept.pending
    tables = kept.forfeit_tables
    pairs, pair_rows = list(kept.pairs), list(kept.pair_rows)
    alone, alone_rows = list(kept.alone), list(kept.alone_rows)
    moved_players = False
    for i, g in sorted(at.items()):
        was = rows[i]
        if was == g:
            continue
        rows[i] = g
        moved_players |= (was.player1_id, was.player2_id) != (g.player1_id, g.player2_id)
        before, after = _part(was), _part(g)
        if before == "two":
            two -= 1
        elif before == "pending":
            pending -= 1
        elif before == "forfeit":
            tables = dict(tables) if tables is kept.forfeit_tables else tables
            tables[was.table] -= 1
            if not tables[was.table]:
                del tables[was.table]
        if after == "two":
            two += 1
        elif after == "pending":
            pending += 1
        elif after == "forfeit":
            tables = dict(tables) if tables is kept.forfeit_tables else tables
            tables[g.table] = tables.get(g.table, 0) + 1
        for counted, games, where in (
            (("two", "forfeit"), pairs, pair_rows),
            (("alone",), alone, alone_rows),
        ):
            j = bisect_left(where, i)
            if before in counted:
                del games[j], where[j]
            if after in counted:
                games.insert(j, engine_game(g))
                where.insert(j, i)
    patched = RoundRead(
        two + len(tables),
        pending,
        pairs,
        alone,
        tuple(rows),
        pair_rows,
        alone_rows,
        two,
        tables,
    )
    # The indexes of the round read kept, for the games of the changed players made again.
    made = patched.__dict__
    made["positions"] = positions
    if not moved_players:
        made["rows_of"] = rows_of
    if "by_player" in kept.__dict__:
        texts = dict(kept.by_player)
        mine = {p for i in at for p in (kept.rows[i].player1_id, kept.rows[i].player2_id)}
        mine |= {p for i in at for p in (rows[i].player1_id, rows[i].player2_id)}
        for pk in mine:
            if pk is None:
                continue
            values = [key_values(rows[i]) for i in patched.rows_of.get(pk, ())]
            if values:
                texts[pk] = games_text(rows[0].round, values)
            else:
                texts.pop(pk, None)
        made["by_player"] = texts
    return patched


def players_and_results(
    division: Division, public: bool, stamps: DivisionStamps
) -> tuple[list[Player], list[list[engine.Game]]]:
    """The division's players, and the results of each round up to the last that counts
    (`round_counts`, by the division's `byes_count`): `division_read`'s. Read-only."""
    read = division_read(division, public, stamps=stamps)
    return read.players, read.results


def division_read(
    division: Division, public: bool = True, *, stamps: DivisionStamps
) -> DivisionRead:
    """The division's players and games under the request's `stamps` (for the public, its
    published games only; two queries, none when this process read them under the same stamp;
    the games are read as plain values, without building
    model instances, and only those of the rounds changed since this process last read them:
    after writes of results alone, only the changed players' games of those rounds
    (`_rounds_patched`); the players only if the frame stamp changed). Read-only: shared by
    every caller under the same stamp."""
    # The stamps were read first: what is read after them is at least as new, so never stale.
    key = (division.pk, stamps.stamp, public, stamps.byes_count)
    found = memos.DIVISION_READS.get(key)
    if found is None:
        found = _read_division(
            division, public, stamps.stamp, stamps.frame, stamps.rounds, stamps.byes_count
        )
        memos.DIVISION_READS.put(key, found)
    return found


def _read_division(
    division: Division,
    public: bool,
    stamp: str,
    frame: str,
    round_stamps: dict[str, str],
    mode: str,
) -> DivisionRead:
    players = memos.PLAYERS.get((division.pk, frame))
    if players is None:
        players = list(division.players.all())
    where = (division.pk, frame, public)
    kept = {
        number: held
        for number, held in (memos.ROUND_READS.get(where) or {}).items()
        if held[0] == round_stamps.get(str(number), "")
    }
    patched = _rounds_patched(division, public, stamp, frame, round_stamps, mode, kept)
    if patched is not None:
        kept = patched
    else:
        fresh: dict[int, list[GameRow]] = {}
        for values in (
            _games(division, public).exclude(round__in=list(kept)).values_list(*_GAME_COLUMNS)
        ):
            game = GameRow(*values)
            fresh.setdefault(game.round, []).append(game)
        for number, games in fresh.items():
            kept[number] = (round_stamps.get(str(number), ""), _round_read(games))
    memos.ROUND_READS.put(where, kept)
    memos.PLAYERS.put((division.pk, frame), players)
    counted = {n: held[1].results(mode) for n, held in kept.items()}
    last_round = max((n for n, found in counted.items() if found is not None), default=0)
    return DivisionRead(
        stamp,
        frame,
        round_stamps,
        players,
        [counted.get(n) or [] for n in range(1, last_round + 1)],
        {n: held[1].rows for n, held in sorted(kept.items())},
        {n: held[1] for n, held in sorted(kept.items())},
    )


def _rounds_patched(
    division: Division,
    public: bool,
    stamp: str,
    frame: str,
    round_stamps: dict[str, str],
    mode: str,
    kept: dict[int, tuple[str, RoundRead]],
) -> dict[int, tuple[str, RoundRead]] | None:
    """Every round's read under `stamp`, where this worker read the division under a stamp
    before it that only writes of games' results replaced since (`kept_before`): each round
    whose stamp changed is that read with the changed players' games of the round read again
    (`_round_patched`; one query for them all), the others as read; None otherwise (read the
    changed rounds afresh).

    Exact: such a write changes no player, round or setting (the frame stamp is the same), and
    no game but the changed players' (a game has both its players among them, before and
    after the write): under the same frame stamp the division has the same games, in the same
    rounds."""
    found = kept_before(
        division.pk,
        stamp,
        memos.DIVISION_READS,
        lambda s: (division.pk, s, public, mode),
    )
    if found is None or found[0].frame != frame:
        return None
    before, changed = found
    rounds: dict[int, tuple[str, RoundRead]] = {}
    stale: list[int] = []
    for number, read in before.rounds.items():
        now = round_stamps.get(str(number), "")
        if number in kept:
            rounds[number] = kept[number]
        elif before.round_stamps.get(str(number), "") == now or not changed:
            rounds[number] = (now, read)
        else:
            stale.append(number)
    if not stale:
        return rounds
    games = _games(division, public).filter(round__in=stale)
    mine = games.filter(Q(player1_id__in=changed) | Q(player2_id__in=changed))
    by_round: dict[int, list[GameRow]] = {n: [] for n in stale}
    for values in mine.values_list(*_GAME_COLUMNS):
        game = GameRow(*values)
        by_round[game.round].append(game)
    for number, read_again in by_round.items():
        made = _round_patched(before.rounds[number], read_again, changed)
        if made is None:  # a game came, went or moved: the round afresh
            made = _round_read(
                [GameRow(*v) for v in games.filter(round=number).values_list(*_GAME_COLUMNS)]
            )
        rounds[number] = (round_stamps.get(str(number), ""), made)
    return rounds


def _standings(
    division: Division,
    after_round: int | None,
    capped: bool,
    show_inactive: bool | None,
    public: bool,
    stamps: DivisionStamps,
) -> list[Row]:
    # `division_standings` has tried this worker's table of a stamp before (`_kept_standings`).
    key = _table_key(division, after_round, capped, show_inactive, public, stamps)
    read = division_read(division, public, stamps=stamps)
    players = read.players
    after, shape, spread_cap, no_spread = _table_shape(division, read, after_round, capped, stamps)
    if show_inactive is None:
        withdrawn = any(p.withdrawn_from_round is not None for p in players)
        show_inactive = withdrawn and tsh_settings.shows_inactive(division.tournament)
    engine_players = [engine_player(p) for p in players]
    records = engine.records(engine_players, read.results, after_round=after, spread_cap=spread_cap)
    ranking = engine.ranked(
        engine_players,
        records,
        after_round=after,
        capped=spread_cap is not None,
        rank_withdrawn=show_inactive,
    )
    by_id: dict[Hashable, Player] = {p.pk: p for p in players}
    rows = [_row(s, by_id[s.player.id], capped, no_spread) for s in ranking.table]
    table = KeptTable(stamps.frame, after, shape, spread_cap, no_spread, players, ranking, rows)
    memos.STANDING_TABLES.put(key, table)
    return rows


def _row(s: engine.Standing, player: Player, capped: bool, no_spread: bool) -> Row:
    # An event imported from a `.tou` file that recorded only wins and losses has no spread.
    spread = 0 if no_spread else s.capped_spread if capped else s.spread
    return Row(s.rank, player, s.wins, s.losses, spread, s.games)


def _table_key(
    division: Division,
    after_round: int | None,
    capped: bool,
    show_inactive: bool | None,
    public: bool,
    stamps: DivisionStamps,
) -> tuple[int, str, str]:
    return (division.pk, stamps.stamp, repr((public, after_round, capped, show_inactive)))


def _table_shape(
    division: Division,
    read: DivisionRead,
    after_round: int | None,
    capped: bool,
    stamps: DivisionStamps,
) -> tuple[int, tuple[tuple[bool, bool], ...], engine.SpreadCap | None, bool]:
    """What a standings table is counted by besides the games: the last round counted, each
    round's shape (it counts, its byes count), the spread cap, and whether spread is shown."""
    last_round = len(read.results)
    after = last_round if after_round is None else min(after_round, last_round)
    mode = stamps.byes_count
    spread_cap = division.spread_cap if capped else None
    return after, _shape(read, mode, after), spread_cap, bool(division.tou.get("results_only"))


def _kept_standings(
    division: Division,
    after_round: int | None,
    capped: bool,
    show_inactive: bool | None,
    public: bool,
    stamps: DivisionStamps,
) -> list[Row] | None:
    """The standings table, where this worker made it under a stamp before that only writes of
    games' results replaced since (`kept_before`, `memos.STANDING_TABLES`): the changed
    players' records counted again from their own games (the index of each round's games by
    player), the table ranked again by moving them alone (`engine.reranked`), and every row
    whose player's rank and record are unchanged kept. None otherwise: made afresh.

    Exact: such a write changes no player, round or setting (the frame stamp is the same) and
    no game but the changed players' (a game has both its players among them); the table is
    kept only where the same rounds count, with the same byes (`shape`), so every other
    player's record is the one counted before."""
    key = _table_key(division, after_round, capped, show_inactive, public, stamps)
    now = memos.STANDING_TABLES.get(key)
    if now is not None:
        return now.rows
    found = kept_before(
        division.pk, stamps.stamp, memos.STANDING_TABLES, lambda s: (key[0], s, key[2])
    )
    if found is None:
        return None
    kept, changed = found
    read = division_read(division, public, stamps=stamps)
    after, shape, spread_cap, no_spread = _table_shape(division, read, after_round, capped, stamps)
    if (kept.frame, kept.after, kept.shape, kept.spread_cap, kept.no_spread) != (
        stamps.frame,
        after,
        shape,
        spread_cap,
        no_spread,
    ):
        return None
    mode = stamps.byes_count
    theirs = [
        read.rounds[n].results_of(mode, changed) if n in read.rounds else []
        for n in range(1, after + 1)
    ]
    records = engine.recounted(
        kept.ranking.by_player, None, theirs, changed, after_round=after, spread_cap=spread_cap
    )
    ranking, spans = engine.reranked(kept.ranking, records, changed)
    rows = list(kept.rows)
    for start, end, same in spans:
        made = []
        for position, was in zip(range(start, end), same, strict=True):
            rank = ranking.ranks[position]
            if was is None:  # a changed player's record
                player = kept.players[ranking.place(position)]
                r = records[player.pk]
                spread = 0 if no_spread else r.capped_spread if capped else r.spread
                made.append(Row(rank, player, r.wins, r.losses, spread, r.games))
                continue
            row = kept.rows[was]
            made.append(row if row.rank == rank else row.ranked(rank))
        rows[start:end] = made
    memos.STANDING_TABLES.put(
        key,
        KeptTable(stamps.frame, after, shape, spread_cap, no_spread, kept.players, ranking, rows),
    )
    return rows


def _shape(read: DivisionRead, mode: str, after: int) -> tuple[tuple[bool, bool], ...]:
    """Each round up to `after`: whether it counts, and whether its byes do (by `mode`)."""
    shaped = []
    for rr in (read.rounds.get(n) for n in range(1, after + 1)):
        counts = rr is not None and round_counts(mode, rr.played, rr.pending, len(rr.alone))
        shaped.append(
            (counts, rr is not None and counts and byes_count(mode, rr.played, rr.pending))
        )
    return tuple(shaped)


def records_of(
    division: Division, numbers: Sequence[int], *, public: bool = True, stamps: DivisionStamps
) -> list[Row]:
    """The records of the players numbered `numbers` (wins, losses, spread, games: the same as
    their rows of `division_standings`, without a rank), counted from their own games alone.
    The desk says them after each save, which renews the stamp the whole standings are kept
    under: the results are read as the standings read them (`players_and_results`, by
    `byes_count`; after a save, only the saved round afresh, and kept for the pages that follow)
    but only these players' games are counted. In the order given; a number not in the division
    is left out."""
    read = division_read(division, public, stamps=stamps)
    players = read.players
    by_number = {p.number: p for p in players}
    wanted = {by_number[n].pk for n in numbers if n in by_number}
    if not wanted:
        return []
    # Their games of each round counted, by the rounds' index of games by player.
    mode = stamps.byes_count
    mine = [
        read.rounds[n].results_of(mode, wanted) if n in read.rounds else []
        for n in range(1, len(read.results) + 1)
    ]
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


def division_ratings(
    division: Division,
    after_round: int | None = None,
    *,
    public: bool = True,
    stamps: DivisionStamps,
) -> list[RatingRow]:
    """Every player's rating after `after_round` (default: the last with a result), by the
    division's rating system, highest new rating first. Byes and forfeits are not rated.

    Cached like the standings, under the same stamp of the division's games and players, and
    the division's rating system and planned rounds. Computing them afresh takes two queries,
    the players and the games. `public` as for `division_standings`, and so are the request's
    `stamps`. After a write of results, this worker rates again the players it changed from
    the ratings it rated under the stamp before (`_rerated`), rather than read them all from
    the shared cache.
    """
    key = keys.of_division(
        "ratings",
        stamps,
        public=public,
        system=division.rating_system,
        planned=division.planned_rounds,
        order="new rating",
    )
    rows = memos.RATINGS.get(key)
    if rows is None:
        rows = _rerated(division, public, stamps)
        if rows is not None:
            memos.RATINGS.put(key, rows)
    if rows is None:
        # Computed once per stamp for every page and worker (the player's page needs them all).
        rows = get_or_compute(
            key,
            lambda: _ratings(division, public, stamps),
            24 * 3600,
            local=memos.RATINGS,
            pack=_packed,
            unpack=lambda packed: _unpacked(RatingRow, packed, division, public, stamps),
        )
    assert rows is not None  # noqa: S101 - computed, never None
    if after_round is None:
        return rows  # kept highest new rating first; read-only, shared as the standings are
    rows = [replace(r, after_round=max(0, min(after_round, len(r.by_round)))) for r in rows]
    return sorted(rows, key=by_new_rating)


class _RatingsMemo:
    """The cache, as `ratings_engine.rate_event` keeps each round's ratings in it (a day), and
    this process's memory (`memos.RATED`)."""

    def get_many(self, keys: list[str]) -> dict[str, dict[Hashable, int]]:
        return cache_once.get_many(memos.RATED, keys)

    def set_many(self, data: dict[str, dict[Hashable, int]]) -> None:
        cache_once.set_many(memos.RATED, data, 24 * 3600)


def _rated_variant(division: Division, public: bool, stamps: DivisionStamps) -> str:
    return repr((public, division.rating_system, division.planned_rounds, stamps.byes_count))


def _ratings(division: Division, public: bool, stamps: DivisionStamps) -> list[RatingRow]:
    """Every player's ratings computed from the rows (and each round's ratings kept in the
    caches by the games up to it), highest new rating first; kept in this worker with the
    computation (`memos.RATED_ROWS`), to rate again after a write."""
    read = division_read(division, public, stamps=stamps)
    players, results = read.players, read.results
    rated = ratings_engine.rated_event(
        [ratings_engine.RatedPlayer(p.pk, p.rating, p.lifetime_games or 0) for p in players],
        results,
        system=division.rating_system,
        max_rounds=_rated_length(division, len(results)),
        # Each round's ratings kept by the players and games up to it: a result entered in
        # round k rates rounds k and later again, not the rounds before it.
        memo=_RatingsMemo(),
    )
    by_player: dict[Hashable, RatingRow] = {}
    for p in players:
        by_round = tuple(map(int, rated.ratings[p.pk].after_round))
        by_player[p.pk] = RatingRow(p, p.rating, by_round, len(by_round))
    rows = sorted(by_player.values(), key=by_new_rating)
    shape = _shape(read, stamps.byes_count, len(results))
    order = [by_new_rating(r) for r in rows]
    _keep_rated(division, public, stamps, shape, rated, (rows, order), by_player)
    return rows


def _rated_length(division: Division, played: int) -> int | None:
    """The event's length the ratings are computed by (tsh's `max_rounds`)."""
    return max(division.planned_rounds or 0, played) or None


def _keep_rated(
    division: Division,
    public: bool,
    stamps: DivisionStamps,
    shape: tuple[tuple[bool, bool], ...],
    rated: ratings_engine.RatedEvent,
    sorted_rows: tuple[list[RatingRow], list[tuple[int, int]]],
    by_player: Mapping[Hashable, RatingRow],
) -> None:
    rows, order = sorted_rows
    kept = RatedRows(
        stamps.frame,
        tuple(stamps.round(n) for n in range(1, len(shape) + 1)),
        shape,
        rated,
        rows,
        order,
        by_player,
    )
    variant = _rated_variant(division, public, stamps)
    memos.RATED_ROWS.put((division.pk, stamps.stamp, variant), kept)


def _rerated(division: Division, public: bool, stamps: DivisionStamps) -> list[RatingRow] | None:
    """The ratings under the stamp from those this worker rated under an earlier one
    (`kept_before`), rated again for the players every write since changed
    (`ratings_engine.rerate_event`: after a result in the last round rated, those players and
    their opponents alone; after one in an earlier round, the rounds from it; after a round's
    first result, that round), every other player's row kept. None where the ratings are to be
    computed afresh: this worker keeps none of the stamps before, or a write between changed
    more than games' results.

    Exact: such a write changes no player, round or setting (the frame stamp is the same) and
    no round's games but those whose own stamp it replaced, and there no game but the changed
    players' (a round whose byes began or ceased to count is taken as changed for every
    player); the engine rates them again exactly as it rates them afresh."""
    variant = _rated_variant(division, public, stamps)

    def key_of(stamp: str) -> tuple[int, str, str]:
        return (division.pk, stamp, variant)

    now = memos.RATED_ROWS.get(key_of(stamps.stamp))
    if now is not None:
        return now.rows  # rated for another caller under the stamp
    found = kept_before(division.pk, stamps.stamp, memos.RATED_ROWS, key_of)
    if found is None:
        return None
    kept, changed = found
    if kept.frame != stamps.frame:
        return None
    read = division_read(division, public, stamps=stamps)
    last = len(read.results)
    shape = _shape(read, stamps.byes_count, last)
    both = range(1, min(last, len(kept.shape)) + 1)
    reshaped = [n for n in both if kept.shape[n - 1] != shape[n - 1]]
    rated, touched = ratings_engine.rerate_event(
        kept.rated,
        read.results,
        changed_rounds=[n for n in both if kept.rounds[n - 1] != stamps.round(n)] + reshaped,
        changed_players=kept.by_player.keys() if reshaped else changed,
        max_rounds=_rated_length(division, last),
    )
    by_player = kept.by_player
    fresh: dict[Hashable, RatingRow] = {}
    for pk in by_player if touched is None else touched:
        row = by_player[pk]
        after = rated.ratings[pk].after_round
        if after != row.by_round:
            by_round = tuple(map(int, after))
            fresh[pk] = RatingRow(row.player, row.before, by_round, len(by_round))
    rows, order = kept.rows, kept.order
    if fresh:
        rows, order = _resorted(kept, fresh)
        by_player = patched(by_player, fresh)
    _keep_rated(division, public, stamps, shape, rated, (rows, order), by_player)
    return rows


def _resorted(
    kept: RatedRows, fresh: dict[Hashable, RatingRow]
) -> tuple[list[RatingRow], list[tuple[int, int]]]:
    """The rows `kept` (highest new rating first) with the rows of the players in `fresh`
    replaced by theirs, in their places, and their keys (`by_new_rating`): the order `sorted`
    gives, as no two rows sort equal (a player's number is theirs alone)."""
    if len(fresh) <= 64:
        rows, order = list(kept.rows), list(kept.order)
        for pk in fresh:
            was = kept.by_player[pk]
            at = bisect_left(order, by_new_rating(was))
            if at == len(rows) or rows[at] is not was:
                break  # not in order: sorted again below
            del rows[at], order[at]
        else:
            for row in fresh.values():
                key = by_new_rating(row)
                at = bisect_left(order, key)
                rows.insert(at, row)
                order.insert(at, key)
            return rows, order
    rows = sorted([fresh.get(r.player.pk, r) for r in kept.rows], key=by_new_rating)
    return rows, [by_new_rating(r) for r in rows]


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
