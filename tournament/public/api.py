"""The read-only JSON API, version 1, and TSH's `tourney.js`: published rounds only, and a
playoff once the director has published it.

Every answer goes through the public page cache (`standings/pages.py`): kept under the divisions'
stamps, with the stamp as its ETag, so a display polling with If-None-Match gets a 304.
"""

from __future__ import annotations

import json
import operator
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from itertools import chain
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.db.models import F
from django.http import Http404, HttpRequest, HttpResponse
from django.utils.translation import gettext

from tournament.core.access import get_public_division, get_public_tournament
from tournament.core.choices import DISPLAY_VIEWS
from tournament.core.http import public_json, public_json_text
from tournament.hall import photos
from tournament.hall.cards import RECORD, differing, interleaved, rank_texts, rows_of
from tournament.models import Division, Game
from tournament.playoffs import services as playoffs
from tournament.public.display import table_range
from tournament.standings import memos, queries, read_model
from tournament.standings.pages import Page
from tournament.standings.stamps import DivisionStamps, kept_before


def _division(request: HttpRequest, slug: str, division: str) -> Division:
    return get_public_division(get_public_tournament(request, slug), division)


def _games(division: Division, round_number: int | None = None) -> list[Game]:
    games = Game.objects.published().filter(division=division).exclude(kind=Game.VOID)
    if round_number is not None:
        games = games.filter(round=round_number)
    order = ("round", F("table").asc(nulls_last=True), "pk")  # byes after the tables
    return list(games.select_related("player1", "player2").order_by(*order))


def _pairing(g: Game) -> dict[str, Any]:
    # `first` is the player who goes first when the pairing says so, else player1.
    swapped = g.first == 2 and g.player2 is not None
    one, two = g.player1, g.player2
    if swapped and two is not None:
        one, two = two, one
    scores = penalties = None
    if g.has_result:
        scores = [g.score2, g.score1] if swapped else [g.score1, g.score2]
        # The time penalties already taken off the scores, in the scores' order.
        penalty2 = g.penalty2 if g.player2 is not None else None
        penalties = [penalty2, g.penalty1] if swapped else [g.penalty1, penalty2]
    return {
        "table": g.table,
        "first": one.number,
        "second": two.number if two else None,
        "scores": scores,
        "penalties": penalties,
        "kind": g.kind,
    }


def pairings(
    request: HttpRequest, page: Page[None], slug: str, division: str, number: int
) -> HttpResponse:
    div = _division(request, slug, division)
    games = _games(div, number)
    if not games:
        raise Http404(gettext("No such round."))
    return public_json([_pairing(g) for g in games])


def standings(request: HttpRequest, page: Page[None], slug: str, division: str) -> HttpResponse:
    div = _division(request, slug, division)
    stamps = page.stamps(div)
    rows = read_model.division_standings(div, public=True, stamps=stamps)
    rated = read_model.division_ratings(div, public=True, stamps=stamps)
    ratings = {r.player.pk: r for r in rated}
    return public_json(
        [
            {
                "rank": r.rank,
                "number": r.player.number,
                "name": r.player.name,
                "wins": r.wins,
                "losses": r.losses,
                "spread": r.spread,
                "games": r.games,
                "rating": ratings[r.player.pk].before,
                "new_rating": ratings[r.player.pk].after,
            }
            for r in rows
        ]
    )


def players(request: HttpRequest, page: Page[None], slug: str, division: str) -> HttpResponse:
    div = _division(request, slug, division)
    return public_json(
        [
            {"number": p.number, "name": p.name, "rating": p.rating, "club": p.club}
            for p in div.players.order_by("number")
        ]
    )


def rounds(request: HttpRequest, page: Page[None], slug: str, division: str) -> HttpResponse:
    div = _division(request, slug, division)
    return public_json(
        [
            {"round": r.number, "games": r.games, "results": r.results}
            for r in queries.division_rounds(div, page.stamps(div))
        ]
    )


def _tsh_division(
    div: Division, stamps: DivisionStamps, address: Callable[[str], str] = str
) -> dict[str, Any]:
    """A division as TSH's tourney.js writes it: players by id (index 0 empty), each with
    pairings and scores per round and `etc` holding p12, rrank and newr, and `xtid` (as TSH
    writes a field: a list) for a player with a cross-tables id; `photo`, the photo's address
    made absolute by `address`, for a player with a photo. Read under the request's `stamps`."""
    games = _games(div)
    last = max((g.round for g in games), default=0)
    people = list(div.players.order_by("number"))
    size = max((p.number for p in people), default=0)
    opp: dict[int, list[int]] = {p.pk: [0] * last for p in people}
    score: dict[int, list[int]] = {p.pk: [0] * last for p in people}
    p12: dict[int, list[int]] = {p.pk: [0] * last for p in people}
    for g in games:
        r = g.round - 1
        if g.player2 is None:
            opp[g.player1_id][r] = 0
            score[g.player1_id][r] = g.score1 or 0
            continue
        for me, other, mine, pos in (
            (g.player1, g.player2, g.score1, 1),
            (g.player2, g.player1, g.score2, 2),
        ):
            opp[me.pk][r] = other.number
            score[me.pk][r] = mine or 0
            p12[me.pk][r] = (1 if g.first == pos else 2) if g.first in (1, 2) else 3
    ranks: dict[int, list[int]] = {p.pk: [] for p in people}
    for after in range(0, last + 1):
        for row in read_model.division_standings(div, after, public=True, stamps=stamps):
            ranks[row.player.pk].append(row.rank or 0)
    newr = {
        r.player.pk: list(r.by_round)
        for r in read_model.division_ratings(div, public=True, stamps=stamps)
    }
    players: list[dict[str, Any] | None] = [None] * (size + 1)
    photo_stamps = photos.photo_stamps(div)
    for p in people:
        etc: dict[str, Any] = {"p12": p12[p.pk], "rrank": ranks[p.pk], "newr": newr.get(p.pk, [])}
        if p.xtid is not None:
            etc["xtid"] = [p.xtid]
        player: dict[str, Any] = {
            "id": p.number,
            "name": p.name,
            "rating": p.rating,
            "pairings": opp[p.pk],
            "scores": score[p.pk],
            "etc": etc,
        }
        if p.pk in photo_stamps:
            player["photo"] = address(photos.photo_url(div, p.number, photo_stamps[p.pk]))
        players[p.number] = player
    return {"name": div.name, "players": players}


def tourney_js(request: HttpRequest, page: Page[None], slug: str) -> HttpResponse:
    tournament = get_public_tournament(request, slug)
    data = {
        "config": {"event_name": tournament.name, "max_rounds": None},
        "divisions": [
            _tsh_division(d, page.stamps(d), request.build_absolute_uri)
            for d in tournament.divisions.all()
        ],
    }
    body = "newt=" + json.dumps(data, cls=DjangoJSONEncoder, ensure_ascii=False) + ";\n"
    response = HttpResponse(body, content_type="application/javascript; charset=utf-8")
    response["Access-Control-Allow-Origin"] = "*"
    return response


def playoff(request: HttpRequest, page: Page[None], slug: str, division: str) -> HttpResponse:
    """The division's playoff once published (`playoffs.state`): its seeds (by player number,
    best first), and stage by stage each match's series with its games, the higher seed's
    score first; a bye has one player. 404 when there is none, or none published."""
    div = _division(request, slug, division)
    state = playoffs.state(div, public=True)
    if state is None:
        raise Http404(gettext("No playoff."))
    number = {pk: p.number for pk, p in state.players.items()}

    def num(pk: Any) -> int | None:
        return None if pk is None else number[int(str(pk))]

    stages = []
    for stage in state.stages:
        matches: list[dict[str, Any]] = []
        for m in stage:
            if m.series is None:
                matches.append({"slot": m.slot, "players": [num(m.bye)], "bye": True})
                continue
            one, two = m.series.wins
            matches.append(
                {
                    "slot": m.slot,
                    "players": [num(m.series.seed1), num(m.series.seed2)],
                    "games": [[g.score1, g.score2] for g in m.series.games],
                    "wins": [one, two],
                    "winner": num(m.winner),
                }
            )
        stages.append(
            {"stage": stage[0].stage, "name": state.stage_name(stage[0].stage), "matches": matches}
        )
    return public_json(
        {
            "length": state.playoff.length,
            "seeded_after": state.playoff.seeded_after,
            "seeds": [
                {"seed": n, "number": state.players[pk].number, "name": state.players[pk].name}
                for n, pk in enumerate(state.playoff.seeds, start=1)
            ],
            "stages": stages,
            "champion": num(state.champion.pk) if state.champion else None,
        }
    )


def _latest_round(read: Any) -> int:
    """The division's latest published round with games, from the read model's (`read`)."""
    rounds = [n for n, rows in read.rows.items() if any(g.kind != Game.VOID for g in rows)]
    return max(rounds, default=0)


def _done(games: Iterable[Any]) -> dict[int, Any]:
    """The games between two players with a result, by key."""
    return {
        g.pk: g for g in games if g.kind != Game.VOID and g.player2_id is not None and g.has_result
    }


_ID = operator.attrgetter("id")
_PK = operator.attrgetter("player.id")
_RANK = operator.attrgetter("rank")
_AFTER = operator.attrgetter("after")
_RANK_OPENING = b'{"rank": '  # a standing row's text, to its rank


@dataclass
class _Display:
    """The display feed's rows as last written under a stamp (`memos.DISPLAY_TEXTS`): each
    player's pairings by name (their place among them and JSON text) and all of them joined, in
    order (UTF-8); each player's standing row's text after its rank (`tails`, UTF-8), and the
    ratings they show."""

    last: int
    pairings: dict[int, list[tuple[tuple, str]]]
    pairings_text: bytes
    tails: dict[int, bytes]
    afters: dict[int, int]
    records: dict[int, tuple[float, float, int, int]]  # wins, losses, spread, games
    people: dict[int, Any]  # the players by key (a result changes none)
    done: dict[int, Any]  # the round's games between two players with a result, by key


def _pairings_of(
    games: list[Any], people: dict[int, Any], only: set[int] | None = None
) -> dict[int, list[tuple[tuple, str]]]:
    """Each player's rows of the pairings by name (`only`: those players' alone), each with its
    place among them: by name, then as the round lists its games (by table, byes last), the
    first player's row first."""
    found: dict[int, list[tuple[tuple, str]]] = {}
    for g in games:
        one, two = people[g.player1_id], people.get(g.player2_id) if g.player2_id else None
        sides = [(one, two)] if two is None else [(one, two), (two, one)]
        for side, (me, other) in enumerate(sides):
            if only is not None and me.id not in only:
                continue
            row = {
                "name": me.name,
                "number": me.number,
                "table": g.table,
                "opponent": other.name if other else g.kind,
                "first": g.first == (1 if me is one else 2),
            }
            place = (me.name.casefold(), g.table is None, g.table or 0, g.pk, side)
            found.setdefault(me.id, []).append((place, json.dumps(row, ensure_ascii=False)))
    return found


def _joined(pairings: dict[int, list[tuple[tuple, str]]]) -> bytes:
    return ", ".join(t for _, t in sorted(chain.from_iterable(pairings.values()))).encode()


def _displayed(
    div: Division,
    stamps: DivisionStamps,
    read: Any,
    rows: list[Any],
    order: list[int],
    rated: list[Any],
) -> _Display:
    """The display's pairings and standing rows under `stamps`: from those this process keeps
    under an earlier stamp where a write of results alone came between (`stamps.kept_before`),
    the rows of the players it changed, and the standing rows of those whose rating changed,
    written again; else every row written."""
    last = _latest_round(read)
    afters = dict(zip(map(_PK, rated), map(_AFTER, rated), strict=True))
    records = dict(zip(order, map(RECORD, rows), strict=True))
    found = kept_before(div.pk, stamps.stamp, memos.DISPLAY_TEXTS, lambda s: (div.pk, s))
    if found is None or found[0].last != last or found[0].tails.keys() != records.keys():
        games = [g for g in read.rows.get(last, ()) if g.kind != Game.VOID]
        people = dict(zip(map(_ID, read.players), read.players, strict=True))
        pairings = _pairings_of(games, people)
        shown = _Display(
            last, pairings, _joined(pairings), {}, afters, records, people, _done(games)
        )
        changed = set(order)
    else:
        old, changed = found
        mine = [
            g for g in read.rows.get(last, ()) if g.player1_id in changed or g.player2_id in changed
        ]
        done = dict(old.done)
        for g in mine:
            done.pop(g.pk, None)
        done.update(_done(mine))
        mine = [g for g in mine if g.kind != Game.VOID]
        now = _pairings_of(mine, old.people, changed)
        shown = _Display(
            last, old.pairings, old.pairings_text, dict(old.tails), afters, records, old.people,
            done,
        )  # fmt: skip
        if any(now.get(pk, []) != old.pairings.get(pk, []) for pk in changed):
            pairings = {**old.pairings, **now}
            for pk in changed - now.keys():
                pairings.pop(pk, None)
            shown.pairings, shown.pairings_text = pairings, _joined(pairings)
        changed |= differing(afters, old.afters) | differing(records, old.records)
        changed &= shown.tails.keys()
    by_pk = rows_of(changed, order, rows)
    for pk in changed:
        row = _standing_row(by_pk[pk], afters.get(pk))
        del row["rank"]  # put in as the feed is written
        shown.tails[pk] = (", " + json.dumps(row, ensure_ascii=False)[1:]).encode()
    return shown


def _recent(
    div: Division, last: int, done: dict[int, Any], tables: tuple[int, int] | None
) -> list[Any]:
    """The latest results of the round (`done`: its games between two players with a result)
    by when they were saved, the last 12 (`tables`: of those tables alone): one small query of
    the round's games with a result, or, where the database holds others than `done` (a write
    since it was read), of `done`'s."""
    if tables is not None:
        done = {pk: g for pk, g in done.items() if g.table and tables[0] <= g.table <= tables[1]}
    with_result = Game.objects.filter(
        division=div, round=last, player2__isnull=False, score1__isnull=False,
        score2__isnull=False,
    ).exclude(kind=Game.VOID)  # fmt: skip
    if tables is not None:
        with_result = with_result.filter(table__range=tables)
    pks = list(with_result.order_by("-updated", "-pk").values_list("pk", flat=True)[:12])
    if not all(pk in done for pk in pks) or len(pks) < min(12, len(done)):
        order = Game.objects.filter(pk__in=list(done)).order_by("-updated", "-pk")
        pks = list(order.values_list("pk", flat=True)[:12])
    return [done[pk] for pk in pks]


def _pairings_text(shown: _Display, tables: tuple[int, int] | None) -> bytes:
    """The pairings' text: every player's, or (`tables`) those at those tables alone."""
    if tables is None:
        return shown.pairings_text
    first, last = tables
    at = [
        entry
        for entry in chain.from_iterable(shown.pairings.values())
        if not entry[0][1] and first <= entry[0][2] <= last  # its place: (…, no table, table…)
    ]
    return ", ".join(text for _, text in sorted(at)).encode()


def display(request: HttpRequest, page: Page[None], slug: str, division: str) -> HttpResponse:
    """All the hall display shows of a division, in one answer: the latest round's pairings by
    name, the standings, the latest results with rating changes, and the view pinned. Read
    through the read model (no model instance built for a game); the pairings' and standing
    rows' texts kept under the stamp (`_displayed`), so that a result writes again the rows of
    the players it changed (and the standing rows of those whose rating it changed), the ranks
    put in as the feed is written, in one join. `?tables=61-120`: the pairings and results of
    those tables alone (a screen beside them), the standings whole."""
    div = _division(request, slug, division)
    try:
        tables = table_range(request.GET.get("tables", ""))
    except ValueError as error:
        response = public_json({"error": str(error)})
        response.status_code = 400
        return response
    stamps = page.stamps(div)
    read = read_model.division_read(div, public=True, stamps=stamps)
    rows = read_model.division_standings(div, public=True, stamps=stamps)
    rated = read_model.division_ratings(div, public=True, stamps=stamps)
    order = list(map(_PK, rows))
    key = (div.pk, stamps.stamp)
    shown: _Display | None = memos.DISPLAY_TEXTS.get(key)
    if shown is None:
        shown = _displayed(div, stamps, read, rows, order, rated)
        memos.DISPLAY_TEXTS.put(key, shown)
    last, people = shown.last, shown.people
    recent = _recent(div, last, shown.done, tables)
    ratings = dict(zip(map(_PK, rated), rated, strict=True))

    def change(p: Any) -> int:
        r = ratings.get(p.id)
        if r is None or not r.by_round:
            return 0
        before = r.by_round[-2] if len(r.by_round) > 1 else r.before
        return r.by_round[-1] - before

    latest = [
        {
            "table": g.table,
            "one": people[g.player1_id].name,
            "two": people[g.player2_id].name,
            "scores": [g.score1, g.score2],
            "changes": [change(people[g.player1_id]), change(people[g.player2_id])],
        }
        for g in recent
    ]
    head = {
        "division": div.name,
        "round": last,
        "pin": div.display_pin if div.display_pin in DISPLAY_VIEWS else "",
        "tables": list(tables) if tables else None,
    }
    ranks = rank_texts(list(map(_RANK, rows)))
    tails = list(map(shown.tails.__getitem__, order))
    start = json.dumps(head, ensure_ascii=False)[:-1] + ', "pairings": ['
    end = '], "results": ' + json.dumps(latest, ensure_ascii=False) + "}"
    opening = b"".join((start.encode(), _pairings_text(shown, tables), b'], "standings": ['))
    return public_json_text(
        interleaved(opening, [[_RANK_OPENING] * len(tails), ranks, tails], (end.encode(),))
    )


def _standing_row(r: Any, rating: int | None) -> dict[str, Any]:
    return {
        "rank": r.rank,
        "name": r.player.name,
        "record": r.record,
        "spread": r.spread,
        "rating": rating,
    }
