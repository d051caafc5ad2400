"""The read-only JSON API, version 1, and TSH's `tourney.js`: published rounds only, and a
playoff once the director has published it.

Every answer goes through the public page cache (`standings/pages.py`): kept under the divisions'
stamps, with the stamp as its ETag, so a display polling with If-None-Match gets a 304.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.db.models import F
from django.http import Http404, HttpRequest, HttpResponse
from django.utils.translation import gettext

from tournament.core.access import get_public_division, get_public_tournament
from tournament.core.choices import DISPLAY_VIEWS
from tournament.core.http import public_json, public_json_text
from tournament.hall import photos
from tournament.models import Division, Game
from tournament.playoffs import services as playoffs
from tournament.standings import memos, queries, read_model
from tournament.standings.pages import Page
from tournament.standings.stamps import DivisionStamps


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


def _latest_round(div: Division, stamps: Any) -> tuple[int, list[Any], dict[int, Any]]:
    """The division's latest published round with games: its number, its games (plain rows,
    by table, byes last) and the players by key, from the read model (read once per stamp in
    each process, no model instance built for a game)."""
    read = read_model.division_read(div, public=True, stamps=stamps)
    rounds = [n for n, rows in read.rows.items() if any(g.kind != Game.VOID for g in rows)]
    last = max(rounds, default=0)
    games = [g for g in read.rows.get(last, ()) if g.kind != Game.VOID]
    games.sort(key=lambda g: (g.table is None, g.table or 0, g.pk))
    return last, games, {p.pk: p for p in read.players}


def display(request: HttpRequest, page: Page[None], slug: str, division: str) -> HttpResponse:
    """All the hall display shows of a division, in one answer: the latest round's pairings by
    name, the standings, the latest results with rating changes, and the view pinned. Read
    through the read model (a feed rendered again after every result of the division: at 500
    players building the games' model instances was most of its cost); each pairing's and
    standing's JSON text kept by what it shows, so that a result writes again the rows it
    changed (at 2,000 players writing every row was most of the rest)."""
    div = _division(request, slug, division)
    stamps = page.stamps(div)
    last, games, people = _latest_round(div, stamps)
    rated = read_model.division_ratings(div, public=True, stamps=stamps)
    ratings = {r.player.id: r for r in rated}
    kept = memos.DISPLAY_TEXTS.get(div.pk) or {}
    made: dict[tuple, str] = {}  # each row's JSON text, kept by what it shows

    by_name: list[tuple[str, str]] = []
    for g in games:
        one, two = people[g.player1_id], people.get(g.player2_id) if g.player2_id else None
        sides = [(one, two)] if two is None else [(one, two), (two, one)]
        for me, other in sides:
            pairing: tuple = (
                "pairing", me.name, me.number, g.table, other.name if other else g.kind,
                g.first == (1 if me is one else 2),
            )  # fmt: skip
            found = kept.get(pairing)
            if found is None:
                found = json.dumps(_pairing_row(pairing), ensure_ascii=False)
            made[pairing] = found
            by_name.append((me.name.casefold(), found))
    by_name.sort(key=lambda row: row[0])
    done = {g.pk: g for g in games if g.has_result and g.player2_id is not None}
    # The latest results by when they were saved: one small query of the round's keys.
    order = Game.objects.filter(pk__in=list(done)).order_by("-updated", "-pk")
    recent = [done[pk] for pk in order.values_list("pk", flat=True)[:12]]

    def change(p: Any) -> int:
        r = ratings.get(p.pk)
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
    rows = read_model.division_standings(div, public=True, stamps=stamps)
    standing = []
    for r in rows:
        rated_row = ratings.get(r.player.id)
        rating = rated_row.after if rated_row is not None else None
        shown: tuple = ("standing", r.rank, r.player.name, r.wins, r.losses, r.spread, rating)
        found = kept.get(shown)
        if found is None:
            found = json.dumps(_standing_row(r, rating), ensure_ascii=False)
        made[shown] = found
        standing.append(found)
    memos.DISPLAY_TEXTS.put(div.pk, made)
    head = {
        "division": div.name,
        "round": last,
        "pin": div.display_pin if div.display_pin in DISPLAY_VIEWS else "",
    }
    return public_json_text(
        json.dumps(head, ensure_ascii=False)[:-1]
        + ', "pairings": ['
        + ", ".join(t for _, t in by_name)
        + '], "standings": ['
        + ", ".join(standing)
        + '], "results": '
        + json.dumps(latest, ensure_ascii=False)
        + "}"
    )


def _pairing_row(row: tuple) -> dict[str, Any]:
    _, name, number, table, opponent, first = row
    return {"name": name, "number": number, "table": table, "opponent": opponent, "first": first}


def _standing_row(r: Any, rating: int | None) -> dict[str, Any]:
    return {
        "rank": r.rank,
        "name": r.player.name,
        "record": r.record,
        "spread": r.spread,
        "rating": rating,
    }
