"""Who is Gibsonized in a division, as the pairing engine decides it
(`engine/pairing/contention.py`), read for the public standings, the hall's cards and the
reports; and the division's pairing settings as the engine takes them (`rules`), which the
pairing at the desk (`pairing/services.py`) uses too."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import ngettext

from tournament.engine import pairing
from tournament.engine import standings as engine
from tournament.engine.pairing.contention import gibsons, swing
from tournament.engine.pairing.history import build_field
from tournament.engine.text import ordinal
from tournament.models import Division, Player
from tournament.standings import read_model
from tournament.standings.stamps import DivisionStamps


def rules(
    division: Division,
    entry: pairing.ScheduleEntry | None = None,
    players: Sequence[Player] | None = None,
) -> pairing.PairingRules:
    """The division's pairing settings as the engine takes them (`players`: the division's,
    when the caller has them loaded already)."""
    players = list(division.players.all()) if players is None else players
    by_number = {p.number: p.pk for p in players}
    forbidden = []
    for pair in division.forbidden_pairs or []:
        ids = [by_number.get(n) for n in pair]
        if len(ids) == 2 and None not in ids:
            forbidden.append(frozenset(ids))
    groups: dict[engine.PlayerId, str] | None = None
    if division.avoid_same:
        groups = {
            p.pk: getattr(p, division.avoid_same)
            for p in players
            if getattr(p, division.avoid_same)
        }
    repeats = division.max_repeats
    options: dict[str, Any] = {}
    if entry is not None:
        repeats = entry.repeats if entry.repeats is not None else repeats
        options = dict(entry.options)
    kwargs: dict[str, Any] = {}
    if division.gibson_spread is not None:
        kwargs["gibson_spread"] = division.gibson_spread
    return pairing.PairingRules(
        max_repeats=repeats,
        rounds_total=division.planned_rounds,
        gibson=division.gibson,
        prize_bands=division.prize_bands,
        bye_spread=division.bye_spread,
        forbidden_pairs=tuple(forbidden),
        groups=groups,
        spread_cap=division.spread_cap,
        options=options,
        **kwargs,
    )


@dataclass(frozen=True)
class Gibson:
    player: Player
    place: int
    rule: str  # why, as a director reads it


def gibsonized(
    division: Division,
    after: int | None = None,
    public: bool = False,
    *,
    stamps: DivisionStamps,
) -> list[Gibson]:
    """The players whose place within the prizes is settled after the round, as the pairing
    engine Gibsonizes them (`engine/pairing/contention.py`), each with the rule that made it so;
    none when the division does not Gibsonize or has no rounds left; read under the request's
    `stamps`."""
    planned = division.planned_rounds
    if not division.gibson or not planned or (after is not None and after >= planned):
        return []  # known without a query: no page pays for what cannot apply
    players, results = read_model.players_and_results(division, public, stamps)
    done = len(results) if after is None else min(after, len(results))
    if done == 0 or done >= planned:
        return []
    fld = build_field(
        [read_model.engine_player(p) for p in players],
        results[:done],
        done + 1,
        rules(division, players=players),
    )
    settled = gibsons(fld, fld.active)
    if not settled:
        return []
    by_id: dict[engine.PlayerId, Player] = {p.pk: p for p in players}
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
