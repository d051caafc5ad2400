"""The player cards: a card a player in standing order (photo or initials, name, rank, record,
spread, rating now and its change, the last game, the current opponent and table, a Gibsonized
or class mark), from published rounds only. `scoreboard` is what the feed answers
(`/api/v1/t/<slug>/<division>/scoreboard`), and what the projector's page, one player's card
and the streaming overlays (`overlays.py`) are drawn from by `static/cards.js`.
"""

from __future__ import annotations

import functools
import json
import unicodedata
from dataclasses import dataclass
from typing import Any

from django.db.models import Max, Q

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
    games = Game.objects.published().filter(division=division).exclude(kind=Game.VOID)
    if only is not None:
        games = games.filter(Q(player1_id__in=only) | Q(player2_id__in=only))
    rows = (
        games.order_by("round", "pk")
        .values_list("round", "table", "player1_id", "player2_id", "score1", "score2", "kind",
                     "first")
    )  # fmt: skip
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


def _marks(division: Division, players: list[Player], stamps: DivisionStamps) -> tuple[set, dict]:
    """The Gibsonized players' keys, and each player's class where the division has classes."""
    gibsons = {g.player.pk for g in gibsonized(division, public=True, stamps=stamps)}
    classes: dict[int, str] = {}
    if prizes.has_classes(division, players):
        ordered = prizes.by_rating_order(division) if division.rating_classes else None
        classes = {p.pk: prizes.player_class(division, p, ordered) for p in players}
    return gibsons, classes


_NO_GAMES: tuple[Any, Any] = (None, None)


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
    division: Division, players: dict[int, Player], stamp: str
) -> tuple[dict[int, tuple[Any, Any]], int]:
    """Every player's part of the cards (`_games_of`) and the latest round, kept in this
    process under the division's stamp (`memos.CARD_PARTS`); after a write of results, the
    parts kept under the stamp before with the changed players' read again (`_patched`)."""
    key = (division.pk, stamp)
    found = memos.CARD_PARTS.get(key)
    if found is None:
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
    games = Game.objects.published().filter(division=division).exclude(kind=Game.VOID)
    if (games.aggregate(last=Max("round"))["last"] or 0) != current_round:
        return None
    changed = sorted(players_changed)
    by_player, _ = _sides(division, players, changed)
    fresh = {pk: _games_of(by_player.get(pk, []), current_round) for pk in changed}
    return {**parts, **fresh}, current_round


def _card(
    row: Row,
    rating: RatingRow | None,
    games: tuple[Any, Any],
    extras: dict[str, Any],
) -> dict[str, Any]:
    p = row.player
    last, current = games
    before = rating.before if rating else p.rating
    now = rating.after if rating else p.rating
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


def _tables(cards: list[dict[str, Any]], current_round: int) -> list[dict[str, Any]]:
    """The latest round's tables: the two players by number (the one going first first when
    the pairing says so), with their scores once in."""
    seen: dict[int, dict[str, Any]] = {}
    for card in cards:
        now = card["current"]
        if now is None or now["table"] is None or now["opponent_number"] is None:
            continue
        entry = seen.setdefault(now["table"], {"table": now["table"], "players": []})
        entry["players"].append(card["number"])
    tables = []
    by_number = {c["number"]: c for c in cards}
    for table in sorted(seen):
        entry = seen[table]
        numbers = sorted(entry["players"], key=lambda n: not by_number[n]["current"]["first"])
        scores = [by_number[n]["current"]["score"] for n in numbers]
        tables.append(
            {
                "table": table,
                "round": current_round,
                "players": numbers,
                "scores": scores if None not in scores else None,
            }
        )
    return tables


def scoreboard(division: Division, stamps: DivisionStamps) -> dict[str, Any]:
    """The division's cards in standing order, and the latest published round's tables."""
    return _scoreboard(division, stamps)[0]


def scoreboard_json(division: Division, stamps: DivisionStamps) -> str:
    """`scoreboard` as the feed's JSON text (names as written, not escaped), each card's text
    the one kept with it (`_scoreboard`): a result writes again the cards whose rank, record,
    rating or games it changed, not every card."""
    data, texts = _scoreboard(division, stamps)
    head = {k: v for k, v in data.items() if k not in ("players", "tables")}
    return (
        json.dumps(head, ensure_ascii=False)[:-1]
        + ', "players": ['
        + ", ".join(texts)
        + '], "tables": '
        + json.dumps(data["tables"], ensure_ascii=False)
        + "}"
    )


def _scoreboard(division: Division, stamps: DivisionStamps) -> tuple[dict[str, Any], list[str]]:
    """`scoreboard`, and each card's JSON text. A card is a function of what it shows alone
    (`shown`: the player's row, rating, games, marks and photo, and the division's address), so
    a card and its text are kept in this process by it (`memos.CARD_TEXTS`), and made again
    only for a player where it differs."""
    rows = read_model.division_standings(division, public=True, stamps=stamps)
    rated = read_model.division_ratings(division, public=True, stamps=stamps)
    ratings = {r.player.id: r for r in rated}
    players = [r.player for r in rows]
    parts, current_round = _parts(division, {p.id: p for p in players}, stamps.stamp)
    gibsons, classes = _marks(division, players, stamps)
    photo_stamps = photos.photo_stamps(division)
    extras = {"division": division, "photos": photo_stamps, "gibsons": gibsons, "classes": classes}
    where = (division.tournament.slug, division.name)
    kept = memos.CARD_TEXTS.get(division.pk) or {}
    made: dict[int, tuple[tuple, dict[str, Any], str]] = {}
    cards, texts = [], []
    for r in rows:
        p = r.player
        pk, rating = p.id, ratings.get(p.id)
        games = parts.get(pk, _NO_GAMES)
        shown = (
            where, r.rank, r.wins, r.losses, r.spread, r.games, p.number, p.name, p.xtid,
            p.rating, rating.before if rating else None, rating.after if rating else None, games,
            pk in gibsons, classes.get(pk, ""), photo_stamps.get(pk),
        )  # fmt: skip
        entry = kept.get(pk)
        if entry is None or entry[0] != shown:
            card = _card(r, rating, games, extras)
            entry = (shown, card, json.dumps(card, ensure_ascii=False))
        made[pk] = entry
        cards.append(entry[1])
        texts.append(entry[2])
    memos.CARD_TEXTS.put(division.pk, made)
    data = {
        "tournament": division.tournament.name,
        "division": division.name,
        "round": current_round,
        "planned_rounds": division.planned_rounds,
        "players": cards,
        "tables": _tables(cards, current_round),
    }
    return data, texts
