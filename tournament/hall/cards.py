"""The player cards: a card a player in standing order (photo or initials, name, rank, record,
spread, rating now and its change, the last game, the current opponent and table, a Gibsonized
or class mark), from published rounds only. `scoreboard` is what the feed answers
(`/api/v1/t/<slug>/<division>/scoreboard`), and what the projector's page, one player's card
and the streaming overlays (`overlays.py`) are drawn from by `static/cards.js`.
"""

from __future__ import annotations

import functools
import json
import operator
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, cast

from django.db.models import Q

from tournament.engine.text import count_text
from tournament.hall import photos
from tournament.models import Division, Game, Player
from tournament.standings import memos, prizes, read_model
from tournament.standings.gibson import gibsonized
from tournament.standings.rows import RatingRow, Row
from tournament.standings.stamps import DivisionStamps, kept_before

# The Arabic script's blocks, whose letters join their neighbours.
_JOINING = (
    (0x0600, 0x06FF),
    (0x0750, 0x077F),
    (0x08A0, 0x08FF),
    (0xFB50, 0xFDFF),
    (0xFE70, 0xFEFF),
)


def _joins(ch: str) -> bool:
    return any(lo <= ord(ch) <= hi for lo, hi in _JOINING)


@functools.lru_cache(maxsize=8192)  # a pure function of the name: every card, every result
def initials(name: str) -> str:
    """The first letters of the name's first two words, as the name is given ("Smylie, Jackson":
    "SJ"; "رضا محمدی": "ر‌م"; "김민준": "김"); letters of a joining script (Arabic, Persian) kept
    apart by a zero-width non-joiner so that each shows as itself. "" for a name without one."""
    letters = []
    for word in name.replace(",", " ").split():
        first = next((ch for ch in word if unicodedata.category(ch)[0] in "LN"), "")
        if first:
            letters.append(first.upper())
        if len(letters) == 2:
            break
    if len(letters) == 2 and _joins(letters[0]) and _joins(letters[1]):
        return "\u200c".join(letters)
    return "".join(letters)


@dataclass(frozen=True)
class _Side:
    """A published game as one player sees it."""

    round: int
    table: int | None
    opponent: Player | None
    mine: int | None
    theirs: int | None
    kind: str
    first: bool
    has_result: bool


def _sides(
    division: Division, players: dict[int, Player], only: list[int] | None = None
) -> tuple[dict[int, list[_Side]], int]:
    """Each player's published games, by round, and the latest published round: plain rows,
    the opponents taken from `players` (the standings' own), no game built as a model. `only`:
    those players' games alone (and the latest round of theirs)."""
    games = Game.objects.published().exclude(kind=Game.VOID)
    if only is None:
        games = games.filter(division=division)
    else:
        # By the players' own indexes (on either side), not a scan of the division's games.
        games = games.filter(Q(player1_id__in=only) | Q(player2_id__in=only))
    found = (
        games.order_by("round", "pk")
        .values_list("division_id", "round", "table", "player1_id", "player2_id", "score1",
                     "score2", "kind", "first")
    )  # fmt: skip
    rows = [row[1:] for row in found if row[0] == division.pk]
    missing = {pk for row in rows for pk in row[2:4] if pk is not None and pk not in players}
    if missing:  # a player the standings do not list (none today): read once
        players = {**players, **Player.objects.in_bulk(missing)}
    by_player: dict[int, list[_Side]] = {}
    last = 0
    for rnd, table, one, two, score1, score2, kind, first in rows:
        last = max(last, rnd)
        has_result = score1 is not None and (two is None or score2 is not None)
        pairs = [(one, two, score1, score2, 1)]
        if two is not None:
            pairs.append((two, one, score2, score1, 2))
        for me, other, mine, theirs, position in pairs:
            if only is not None and me not in only:
                continue
            opponent = players[other] if other is not None else None
            side = _Side(rnd, table, opponent, mine, theirs, kind, first == position, has_result)
            by_player.setdefault(me, []).append(side)
    return by_player, last


def _outcome(side: _Side) -> str:
    """W, L or T from the player's side (a bye or forfeit by its score's sign)."""
    theirs = side.theirs or 0
    mine = side.mine or 0
    return "W" if mine > theirs else "L" if mine < theirs else "T"


def _game(side: _Side | None) -> dict[str, Any] | None:
    if side is None:
        return None
    other = side.opponent
    return {
        "round": side.round,
        "table": side.table,
        "opponent": other.name if other else None,
        "opponent_number": other.number if other else None,
        "kind": side.kind,
        "first": side.first,
        "score": side.mine if side.has_result else None,
        "opponent_score": side.theirs if side.has_result and other else None,
        "result": _outcome(side) if side.has_result else None,
    }


def _gibsons(division: Division, stamps: DivisionStamps) -> set[int]:
    """The Gibsonized players' keys."""
    return {g.player.pk for g in gibsonized(division, public=True, stamps=stamps)}


def _marks(
    division: Division, players: list[Player], stamps: DivisionStamps
) -> tuple[set[int], dict[int, str]]:
    """The Gibsonized players' keys, and each player's class where the division has classes."""
    gibsons = _gibsons(division, stamps)
    classes: dict[int, str] = {}
    if prizes.has_classes(division, players):
        ordered = prizes.by_rating_order(division) if division.rating_classes else None
        classes = {p.pk: prizes.player_class(division, p, ordered) for p in players}
    return gibsons, classes


_NO_GAMES: tuple[Any, Any] = (None, None)


# The attributes read from every standings and ratings row, read in C (`map`), not in a loop.
_PK = operator.attrgetter("player.id")
_PLAYER = operator.attrgetter("player")
_RANK = operator.attrgetter("rank")
_RATING = operator.attrgetter("before", "after")
# A row's record (made in C: one small tuple a player): a write of results changes the records
# of players it did not name too (a round's byes count once it has a result).
RECORD = operator.attrgetter("wins", "losses", "spread", "games")

# A card's keys before its rank: a card's text is kept in two pieces, either side of its rank,
# which a result moves for the players between the two's old and new places.
_BEFORE_RANK = ("number", "name", "initials", "photo")


@dataclass
class _Board:
    """The cards as the feed last built them under a stamp (`memos.CARD_TEXTS`), each player's
    card's text kept in two pieces either side of the rank (`heads`, `tails`), the ratings and
    marks they show, and the latest round's tables (each table's players in the feed's order,
    its entry and its text)."""

    where: tuple[str, str]
    current_round: int
    players: dict[int, Player]  # the standings' players by key
    cards: dict[int, dict[str, Any]]  # with "rank": None, put in when asked (`scoreboard`)
    heads: dict[int, bytes]  # UTF-8, as the feed is sent: joined without a copy of each
    tails: dict[int, bytes]
    ratings: dict[int, tuple[int, int]]  # before the event, now
    records: dict[int, tuple[float, float, int, int]]  # wins, losses, spread, games
    gibsons: set[int]
    classes: dict[int, str]
    photos: dict[int, str]
    seats: dict[int, tuple[int, int, bool, Any]]  # player → (table, number, first, score)
    tables: dict[int, list[int]]  # table → its players, in the feed's order
    loose: set[int]  # the tables whose order the standings' order decides (`_seated`)
    table_entries: dict[int, dict[str, Any]]
    table_texts: dict[int, str]
    tables_text: bytes


def _split(card: dict[str, Any]) -> tuple[bytes, bytes]:
    """The card's JSON text (UTF-8) either side of its rank: `head + rank + tail` is
    `json.dumps(card)` with that rank."""
    first = {k: card[k] for k in _BEFORE_RANK}
    rest = {k: v for k, v in card.items() if k not in _BEFORE_RANK and k != "rank"}
    head = json.dumps(first, ensure_ascii=False)[:-1] + ', "rank": '
    return head.encode(), (", " + json.dumps(rest, ensure_ascii=False)[1:]).encode()


_RANK_TEXTS: tuple[bytes, ...] = ()


def rank_texts(ranks: list[int | None]) -> list[bytes]:
    """Each rank as JSON text (UTF-8), from a table of them made once (a tuple replaced whole
    where it is too short, never changed: safe for any thread to read)."""
    global _RANK_TEXTS
    if None in ranks:
        return [json.dumps(r).encode() for r in ranks]
    known = cast("list[int]", ranks)
    if min(known, default=0) < 0:
        return [str(r).encode() for r in known]
    table = _RANK_TEXTS
    top = max(known, default=0)
    if top >= len(table):
        table = _RANK_TEXTS = tuple(str(n).encode() for n in range(max(top + 1, 2 * len(table))))
    return list(map(table.__getitem__, known))


def _seat(card: dict[str, Any]) -> tuple[int, int, bool, Any] | None:
    """Where the card's player sits in the latest round, as the tables show it: a table with an
    opponent (table, number, first, score); None for none."""
    now = card["current"]
    if now is None or now["table"] is None or now["opponent_number"] is None:
        return None
    return now["table"], card["number"], bool(now["first"]), now["score"]


def _seated(players: list[int], seats: dict[int, tuple], pos: dict[int, int]) -> list[int]:
    """A table's players in the feed's order: the one going first first when the pairing says
    so, else in standing order."""
    return sorted(players, key=lambda pk: (not seats[pk][2], pos[pk]))


def _loose(players: list[int], seats: dict[int, tuple]) -> bool:
    """Whether the table's order is the standings' (two of its players alike going first)."""
    firsts = [seats[pk][2] for pk in players]
    return len(set(firsts)) < len(firsts)


def _table(table: int, players: list[int], seats: dict[int, tuple], current_round: int) -> dict:
    scores = [seats[pk][3] for pk in players]
    return {
        "table": table,
        "round": current_round,
        "players": [seats[pk][1] for pk in players],
        "scores": scores if None not in scores else None,
    }


def _games_of(sides: list[_Side], current_round: int) -> tuple[Any, Any]:
    """A player's part of the cards: their last game with a result and their game of the
    latest round, as a card shows them (`_game`)."""
    played = [s for s in sides if s.has_result]
    current = next((s for s in sides if s.round == current_round), None)
    return _game(played[-1] if played else None), _game(current)


def _read_parts(
    division: Division, players: dict[int, Player], only: list[int] | None = None
) -> tuple[dict[int, tuple[Any, Any]], int]:
    by_player, current_round = _sides(division, players, only)
    return {pk: _games_of(sides, current_round) for pk, sides in by_player.items()}, current_round


def _parts(
    division: Division, players_of: Callable[[], dict[int, Player]], stamp: str
) -> tuple[dict[int, tuple[Any, Any]], int]:
    """Every player's part of the cards (`_games_of`) and the latest round, kept in this
    process under the division's stamp (`memos.CARD_PARTS`); after a write of results, the
    parts kept under the stamp before with the changed players' read again (`_patched`)."""
    key = (division.pk, stamp)
    found = memos.CARD_PARTS.get(key)
    if found is None:
        players = players_of()  # the standings' players by key, made where they are read
        found = _patched(division, players, stamp) or _read_parts(division, players)
        memos.CARD_PARTS.put(key, found)
    return found


def _patched(
    division: Division, players: dict[int, Player], stamp: str
) -> tuple[dict[int, tuple[Any, Any]], int] | None:
    """The parts under `stamp` from those this process keeps under an earlier stamp, the
    players each write since changed read again (`stamps.kept_before`: a write of games'
    results, scoresheets or disputes alone, which changes nothing else a card's games show);
    None where there are none, or the latest round is another."""
    found = kept_before(
        division.pk, stamp, memos.CARD_PARTS, lambda earlier: (division.pk, earlier)
    )
    if found is None:
        return None
    (parts, current_round), players_changed = found
    # The latest round is the same where it is the highest from it on (one lookup by the
    # division's and round's index, not a scan of every game).
    games = Game.objects.published().filter(division=division, round__gte=current_round)
    latest = games.exclude(kind=Game.VOID).order_by("-round").values_list("round", flat=True)
    if list(latest[:1]) != [current_round]:
        return None
    changed = sorted(players_changed)
    by_player, _ = _sides(division, players, changed)
    fresh = {pk: _games_of(by_player.get(pk, []), current_round) for pk in changed}
    return {**parts, **fresh}, current_round


def _card(
    row: Row,
    rating: tuple[int, int] | None,
    games: tuple[Any, Any],
    extras: dict[str, Any],
) -> dict[str, Any]:
    """A player's card; `rating`: their rating before the event and now (None: unrated)."""
    p = row.player
    last, current = games
    before, now = rating if rating is not None else (p.rating, p.rating)
    stamp = extras["photos"].get(p.pk)
    return {
        "number": p.number,
        "name": p.name,
        "initials": initials(p.name),
        "photo": photos.photo_url(extras["division"], p.number, stamp) if stamp else None,
        "rank": row.rank,
        "wins": row.wins,
        "losses": row.losses,
        "record": f"{count_text(row.wins)}–{count_text(row.losses)}",
        "spread": row.spread,
        "games": row.games,
        "rating": before,
        "rating_now": now,
        "rating_change": now - before,
        "gibsonized": p.pk in extras["gibsons"],
        "class": extras["classes"].get(p.pk, ""),
        "xtid": p.xtid,
        "last": last,
        "current": current,
    }


def scoreboard(division: Division, stamps: DivisionStamps) -> dict[str, Any]:
    """The division's cards in standing order, and the latest published round's tables."""
    board, rows, order = _board(division, stamps)
    ranks = map(_RANK, rows)
    return {
        **_head(division, board),
        "players": [dict(board.cards[pk], rank=r) for pk, r in zip(order, ranks, strict=True)],
        "tables": [board.table_entries[t] for t in sorted(board.table_entries)],
    }


def _head(division: Division, board: _Board) -> dict[str, Any]:
    return {
        "tournament": division.tournament.name,
        "division": division.name,
        "round": board.current_round,
        "planned_rounds": division.planned_rounds,
    }


def scoreboard_json(division: Division, stamps: DivisionStamps) -> bytes:
    """`scoreboard` as the feed's JSON text, in UTF-8 (names as written, not escaped): each
    card's text the two pieces kept either side of its rank (`_board`), the ranks put in
    between, in one join."""
    board, rows, order = _board(division, stamps)
    head = json.dumps(_head(division, board), ensure_ascii=False)[:-1] + ', "players": ['
    heads = list(map(board.heads.__getitem__, order))
    tails = list(map(board.tails.__getitem__, order))
    ranks = rank_texts(list(map(_RANK, rows)))
    end = (b'], "tables": ', board.tables_text, b"}")
    return interleaved(head.encode(), [heads, ranks, tails], end)


def interleaved(start: bytes, columns: list[list[bytes]], end: Iterable[bytes]) -> bytes:
    """`start`, the rows' pieces (row i: each column's i-th piece), each row after the first
    after ", ", and `end`, joined once (the pieces put in place by slices, in C)."""
    count, width = len(columns[0]), len(columns) + 1
    if not count:
        return b"".join((start, *end))
    pieces: list[bytes] = [b", "] * (count * width)
    for i, column in enumerate(columns, 1):
        pieces[i::width] = column
    pieces[0] = start  # in the first row's ", "
    pieces.extend(end)
    return b"".join(pieces)


def _board(division: Division, stamps: DivisionStamps) -> tuple[_Board, list[Row], list[int]]:
    """The cards under the request's stamps (`_Board`), kept in this process by the division
    and stamp (`memos.CARD_TEXTS`), the standings they are in and their players' keys."""
    rows = read_model.division_standings(division, public=True, stamps=stamps)
    order = list(map(_PK, rows))
    key = (division.pk, stamps.stamp)
    board: _Board | None = memos.CARD_TEXTS.get(key)
    if board is None:
        rated = read_model.division_ratings(division, public=True, stamps=stamps)
        board = _built(division, stamps, rows, order, rated)
        memos.CARD_TEXTS.put(key, board)
    return board, rows, order


def rows_of(players: set[int], order: list[int], rows: list[Row]) -> dict[int, Row]:
    """These players' standings rows by key (`order`: the rows' players' keys): found in C, one
    by one where they are few."""
    if len(players) <= 32:
        return {pk: rows[order.index(pk)] for pk in players}
    return dict(zip(order, rows, strict=True))


def differing(now: dict[int, Any], before: dict[int, Any]) -> set[int]:
    """The players whose value (hashable) differs between the two, or is in one alone: found
    in C, by the two's items."""
    if now == before:
        return set()
    return {pk for pk, _ in now.items() ^ before.items()}


def _built(
    division: Division,
    stamps: DivisionStamps,
    rows: list[Row],
    order: list[int],
    rated: list[RatingRow],
) -> _Board:
    """The cards under `stamps`: from those this process keeps under an earlier stamp where a
    write of results alone came between (`stamps.kept_before`), the cards made again those of
    the players it changed and of those whose rating or Gibsonized mark changed (a correction
    of an earlier round changes the ratings after it), the rest kept (a rank is put in when the
    feed is written); else every card made. A card is a function of the player's row but its
    rank, rating, games, marks and photo, and the division's address."""
    where = (division.tournament.slug, division.name)
    ratings = dict(zip(map(_PK, rated), map(_RATING, rated), strict=True))
    records = dict(zip(order, map(RECORD, rows), strict=True))
    found = kept_before(division.pk, stamps.stamp, memos.CARD_TEXTS, lambda s: (division.pk, s))
    old = found[0] if found is not None else None
    if old is not None and old.players.keys() == records.keys():
        players = old.players  # a write of results alone changes no player
    else:
        players = dict(zip(order, map(_PLAYER, rows), strict=True))
    parts, current_round = _parts(division, lambda: players, stamps.stamp)
    if old is not None and (
        old.where != where
        or old.current_round != current_round
        or old.heads.keys() != records.keys()
    ):
        old = None
    if found is None or old is None:
        gibsons, classes = _marks(division, list(players.values()), stamps)
        photo_stamps = photos.photo_stamps(division)
        changed = set(order)
        board = _Board(where, current_round, players, {}, {}, {}, ratings, records, gibsons,
                       classes, photo_stamps, {}, {}, set(), {}, {}, b"[]")  # fmt: skip
    else:
        gibsons = _gibsons(division, stamps)
        changed = found[1] | differing(ratings, old.ratings) | differing(records, old.records)
        changed = (changed | (gibsons ^ old.gibsons)) & records.keys()
        board = _Board(
            where, current_round, players, dict(old.cards), dict(old.heads), dict(old.tails),
            ratings,
            records, gibsons, old.classes, old.photos, dict(old.seats), dict(old.tables),
            set(old.loose), dict(old.table_entries), dict(old.table_texts), old.tables_text,
        )  # fmt: skip
    extras = {"division": division, "photos": board.photos, "gibsons": gibsons,
              "classes": board.classes}  # fmt: skip
    by_pk = rows_of(changed, order, rows)
    seats, tables = board.seats, board.tables
    touched: set[int] = set()
    for pk in changed:
        card = _card(by_pk[pk], ratings.get(pk), parts.get(pk, _NO_GAMES), extras)
        card["rank"] = None
        board.cards[pk] = card
        board.heads[pk], board.tails[pk] = _split(card)
        was, now = seats.pop(pk, None), _seat(card)
        if was != now:
            if was is not None:
                tables[was[0]] = [other for other in tables[was[0]] if other != pk]
                touched.add(was[0])
            if now is not None:
                tables[now[0]] = [*tables.get(now[0], ()), pk]
                touched.add(now[0])
        if now is not None:
            seats[pk] = now
    _arrange(board, order, touched)
    return board


def _arrange(board: _Board, order: list[int], touched: set[int]) -> None:
    """The latest round's tables made again where their players or their order changed: the
    tables `touched`, and those whose order is the standings' where it moved."""
    seats, tables = board.seats, board.tables
    pos: dict[int, int] = {}  # each player's place in the standings, made where it is needed

    def places() -> dict[int, int]:
        if not pos:
            pos.update(zip(order, range(len(order)), strict=True))
        return pos

    for table in board.loose - touched:
        if _seated(tables[table], seats, places()) != tables[table]:
            touched.add(table)
    for table in touched:
        if not tables.get(table):
            tables.pop(table, None)
            board.loose.discard(table)
            board.table_entries.pop(table, None)
            board.table_texts.pop(table, None)
            continue
        if _loose(tables[table], seats):
            tables[table] = _seated(tables[table], seats, places())
            board.loose.add(table)
        else:  # one player going first, the other not: the standings do not count
            tables[table] = sorted(tables[table], key=lambda pk: not seats[pk][2])
            board.loose.discard(table)
        entry = _table(table, tables[table], seats, board.current_round)
        board.table_entries[table] = entry
        board.table_texts[table] = json.dumps(entry, ensure_ascii=False)
    if touched:
        texts = board.table_texts
        board.tables_text = ("[" + ", ".join(texts[t] for t in sorted(texts)) + "]").encode()
