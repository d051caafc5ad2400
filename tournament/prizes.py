"""Prizes and rating classes of a division from the database: the players' classes, their
ranks within their class, and who takes each prize (`engine/prizes.py` decides)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import ngettext

from tournament import services
from tournament.engine import prizes as engine
from tournament.engine.text import ordinal
from tournament.models import Division, Game, Player


def own_class(player: Player) -> str:
    """The `class` field of the player's .t line, if any."""
    found = ""
    for key, values in player.tsh_extras or []:
        if key == "class" and values:
            found = str(values[0])
    return found


def bands(division: Division) -> list[tuple[str, int]]:
    return [(str(name), int(lowest)) for name, lowest in division.class_bands or []]


def by_rating_order(division: Division, players: list[Player] | None = None) -> dict[int, str]:
    """tsh's `classes DIV N` (`division.rating_classes`): the classes of the division's active
    players by rating order (`engine.classes_by_rating`); empty when the division has none, or
    has rating bands (which come first)."""
    if not division.rating_classes or division.class_bands:
        return {}
    everyone = players if players is not None else list(division.players.all())
    active = [(p.pk, p.rating) for p in everyone if p.withdrawn_from_round is None]
    found = engine.classes_by_rating(active, division.rating_classes)
    return {int(str(k)): v for k, v in found.items()}


def player_class(division: Division, player: Player, ordered: dict[int, str] | None = None) -> str:
    """The player's class: by the division's rating bands, else by rating order (tsh's
    `classes` line; `ordered` from `by_rating_order` if the caller has it), else their own."""
    if not division.class_bands and division.rating_classes:
        if ordered is None:
            ordered = by_rating_order(division)
        return ordered.get(player.pk, "")
    return engine.rating_class(player.rating, bands(division), own_class(player))


def has_classes(division: Division, players: list[Player] | None = None) -> bool:
    if division.class_bands or division.rating_classes:
        return True
    everyone = players if players is not None else list(division.players.all())
    return any(own_class(p) for p in everyone)


@dataclass(frozen=True)
class ClassRow:
    row: services.Row
    player_class: str
    class_rank: int | None  # None: withdrawn, not ranked


def class_standings(
    division: Division,
    after: int | None = None,
    public: bool = False,
    rows: list[services.Row] | None = None,
) -> list[ClassRow]:
    """The standings (`rows` if the caller has them) with each player's class and rank within
    it, in the standings' order."""
    if rows is None:
        rows = services.division_standings(division, after, public=public)
    ordered = by_rating_order(division)
    contenders = _contenders(division, rows, ordered)
    ranks = engine.class_ranks(contenders)
    classes = {c.id: c.player_class for c in contenders}
    return [
        ClassRow(
            r,
            classes.get(r.player.pk, player_class(division, r.player, ordered)),
            ranks.get(r.player.pk),
        )
        for r in rows
    ]


def _contenders(
    division: Division, rows: list[services.Row], ordered: dict[int, str] | None = None
) -> list[engine.Contender]:
    if ordered is None:
        ordered = by_rating_order(division)
    return [
        engine.Contender(r.player.pk, r.name, r.rank, player_class(division, r.player, ordered))
        for r in rows
        if r.rank is not None
    ]


def prize_of(item: dict[str, Any]) -> engine.Prize:
    return engine.Prize(
        str(item.get("kind", "rank")),
        item.get("place", ""),
        str(item.get("value", "")),
        str(item.get("class", "") or ""),
        str(item.get("note", "")),
    )


def awards(
    division: Division, after: int | None = None, public: bool = False
) -> tuple[list[engine.Award], dict[int, services.Row]]:
    """Who takes each of the division's prizes after the round, in the order of award; and
    the standings' rows by player."""
    rows = services.division_standings(division, after, public=public)
    games = division.games.filter(kind=Game.PLAYED, player2__isnull=False)
    games = games.exclude(score1=None).exclude(score2=None)
    if after is not None:
        games = games.filter(round__lte=after)
    if public:
        games = games.published()
    names = {r.player.pk: r.name for r in rows}
    scores = []
    for g in games.only("round", "player1_id", "player2_id", "score1", "score2"):
        scores.append(
            engine.GameScore(g.player1_id, g.round, g.score1, g.score2, names.get(g.player2_id, ""))
        )
        scores.append(
            engine.GameScore(g.player2_id, g.round, g.score2, g.score1, names.get(g.player1_id, ""))
        )
    found = engine.award(
        [prize_of(p) for p in division.prizes or []],
        _contenders(division, rows),
        scores,
        division.prizes_more_than_one,
    )
    return found, {r.player.pk: r for r in rows}


@dataclass(frozen=True)
class Gibson:
    player: Player
    place: int
    rule: str  # why, as a director reads it


def gibsonized(division: Division, after: int | None = None, public: bool = False) -> list[Gibson]:
    """The players whose place within the prizes is settled after the round, as the pairing
    engine Gibsonizes them (`engine/pairing/contention.py`), each with the rule that made it so;
    none when the division does not Gibsonize or has no rounds left."""
    from tournament import rounds
    from tournament.engine.pairing.contention import gibsons, swing
    from tournament.engine.pairing.history import build_field

    planned = division.planned_rounds
    if not division.gibson or not planned or (after is not None and after >= planned):
        return []  # known without a query: no page pays for what cannot apply
    players, results = services._players_and_results(division, public)
    done = len(results) if after is None else min(after, len(results))
    if done == 0 or done >= planned:
        return []
    rules = rounds.rules(division, players=players)
    fld = build_field([services.engine_player(p) for p in players], results[:done], done + 1, rules)
    settled = gibsons(fld, fld.active)
    if not settled:
        return []
    by_id = {p.pk: p for p in players}
    left = planned - done
    allowance = swing(fld)
    found = []
    for place, pid in enumerate(settled, start=1):
        rule = ngettext(
            "Gibsonized after round %(round)s: no one below can catch them for %(ordinal)s "
            "place with %(left)s round left, even gaining the %(allowance)s spread the "
            "Gibson spread allows",
            "Gibsonized after round %(round)s: no one below can catch them for %(ordinal)s "
            "place with %(left)s rounds left, even gaining the %(allowance)s spread the "
            "Gibson spread allows",
            left,
        ) % {"round": done, "ordinal": ordinal(place), "left": left, "allowance": allowance}
        found.append(Gibson(by_id[pid], place, rule))
    return found
