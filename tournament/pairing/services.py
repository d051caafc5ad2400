"""Pairing rounds at the director's desk: pair, check, swap, publish (players joining and
leaving are `tournament.players`').

The pairing itself is `tournament.engine.pairing`'s: this module loads the division's players
and games, hands them over as plain data, and writes what comes back in one transaction,
logged as a `Change` like every result. A round paired here stays hidden from the public
pages until a director publishes it; its byes are scored when it is published.

Player ids given to the engine are the players' primary keys.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from django.db import transaction
from django.db.models import F, Max, Min
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from tournament.core import audit, sentences, signals
from tournament.core.actor import Actor
from tournament.core.changes import RESULT_ACTIONS, snapshot, stale_text
from tournament.core.errors import EntryError
from tournament.engine import pairing
from tournament.engine import standings as engine
from tournament.engine.pairing.messages import Message
from tournament.engine.pairing.registry import automatic
from tournament.models import Change, Division, Game, Player, Round
from tournament.pairing import missed
from tournament.pairing.basis import basis, changed_rounds, not_checked_in, played_rounds
from tournament.standings import read_model
from tournament.standings.gibson import rules

# Change.action values written here.
PAIR = Change.Action.PAIR
SWAP = Change.Action.SWAP
PUBLISH = Change.Action.PUBLISH
UNPAIR = Change.Action.UNPAIR


class PairingRefused(EntryError):
    """The round cannot be paired or changed as asked; the message says why."""


class StaleRound(PairingRefused):
    """The round was paired from results that changed since: publishing it needs a yes."""


# -- loading the division as plain data ----------------------------------------------------------


@dataclass
class History:
    """What the engine needs to pair round `round`: results of 1..based_on, pairings after."""

    players: list[Player]
    results: list[list[engine.Game]]  # [0] is round 1
    paired: list[list[engine.Game]]  # rounds based_on+1 .. round-1, pairings only
    round: int
    based_on: int
    # Players (pks) left out of this round: not checked in (round 1), or marked absent for it.
    absent: frozenset[int] = frozenset()

    @property
    def engine_players(self) -> list[engine.Player]:
        return [
            replace(read_model.engine_player(p), withdrawn_from_round=self.round)
            if p.pk in self.absent
            else read_model.engine_player(p)
            for p in self.players
        ]


def marked_absent(players: Sequence[Player], round_number: int) -> list[Player]:
    """The players marked absent for the round (`players.set_absent`), still in the event."""
    return [p for p in players if p.absent_in(round_number)]


def tables_for(
    division: Division, pairs: Sequence[tuple[Player, Player | None]]
) -> list[int | None]:
    """The table of each pair, in order (a bye has none): a pair with a player who has a fixed
    table (`Player.fixed_table`) sits there, the others take the division's numbers from
    `first_table` on, in order, skipping the fixed ones."""
    fixed: list[int | None] = []
    taken: set[int] = set()
    for first, second in pairs:
        table = None
        if second is not None:
            for p in (first, second):
                if p.fixed_table and p.fixed_table not in taken:
                    table = p.fixed_table
                    break
        fixed.append(table)
        if table is not None:
            taken.add(table)
    free = division.first_table or 1
    tables: list[int | None] = []
    for (_first, second), table in zip(pairs, fixed, strict=True):
        if second is None:
            tables.append(None)
            continue
        if table is None:
            while free in taken:
                free += 1
            table, free = free, free + 1
        tables.append(table)
    return tables


def beyond_range(division: Division, tables: Sequence[int | None]) -> list[int]:
    """The tables outside the division's range (`first_table` to `last_table`)."""
    low, high = division.first_table or 1, division.last_table
    return sorted(t for t in tables if t is not None and (t < low or (high and t > high)))


def history(division: Division, round_number: int, based_on: int | None = None) -> History:
    """The division as the pairing of `round_number` sees it, from the results up to `based_on`
    (default: the round before), as if nothing after it had been recorded."""
    based_on = round_number - 1 if based_on is None else based_on
    if round_number < 1:
        raise PairingRefused(
            gettext("There is no round %(round_number)s.") % {"round_number": round_number}
        )
    if not 0 <= based_on < round_number:
        raise PairingRefused(
            gettext(
                "Round %(round_number)s can be paired from the results of an earlier "
                "round (0 to %(value)s), not round %(based_on)s."
            )
            % {"round_number": round_number, "value": round_number - 1, "based_on": based_on}
        )
    players = list(division.players.all())
    games = [g for g in division.games.all() if g.kind != Game.VOID and g.round < round_number]
    results: list[list[engine.Game]] = [[] for _ in range(based_on)]
    paired: list[list[engine.Game]] = [[] for _ in range(round_number - 1 - based_on)]
    missing: dict[int, int] = {}
    for g in games:
        if g.round <= based_on:
            if g.has_result:
                results[g.round - 1].append(read_model.engine_game(g))
            else:
                missing[g.round] = missing.get(g.round, 0) + 1
        else:
            paired[g.round - based_on - 1].append(read_model.engine_game(g, with_scores=False))
    if missing:
        late = ", ".join(f"round {r}: {n}" for r, n in sorted(missing.items()))
        raise PairingRefused(
            gettext(
                "Round %(round_number)s is to be paired from the results of round "
                "%(based_on)s, but some games have no result yet (%(late)s). Enter them "
                "first."
            )
            % {"round_number": round_number, "based_on": based_on, "late": late}
        )
    absent = frozenset(p.pk for p in not_checked_in(players)) if round_number == 1 else frozenset()
    absent |= frozenset(p.pk for p in marked_absent(players, round_number))
    return History(players, results, paired, round_number, based_on, absent)


def schedule_entry(division: Division, round_number: int) -> pairing.ScheduleEntry:
    try:
        return pairing.parse_schedule(division.pairing_schedule or []).entry_for(round_number)
    except ValueError as error:
        raise PairingRefused(
            gettext("The division's pairing schedule is wrong: %(error)s") % {"error": error}
        ) from error


# -- planning (nothing written) ------------------------------------------------------------------


@dataclass
class Plan:
    """A pairing the engine proposes, with names, before anything is saved."""

    division: Division
    result: pairing.PairingResult
    players: dict[Any, Player]

    def rows(self) -> list[dict[str, Any]]:
        return [
            {
                "table": p.table,
                "first": self.players[p.first].name,
                "second": self.players[p.second].name if p.second is not None else None,
            }
            for p in self.result.pairings
        ]


def plan(
    division: Division,
    round_number: int,
    based_on: int | None = None,
    system: str | None = None,
    repeats: int | None = None,
    options: Mapping[str, Any] | None = None,
) -> Plan:
    """Pair `round_number` without saving: the schedule's system unless `system` is given.
    COP takes the division's COP settings, under the schedule entry's options and `options`
    (e.g. read from a file by the `pair` command)."""
    entry = schedule_entry(division, round_number)
    based_on = entry.based_on if based_on is None else based_on
    system = system or entry.system
    if system not in automatic():
        raise PairingRefused(
            gettext("No pairing system %(system)r: choose one of %(join)s.")
            % {"system": system, "join": ", ".join(automatic())}
        )
    past = history(division, round_number, based_on)
    settings = rules(division, entry, past.players)
    if system != entry.system:
        # The schedule's options are its own system's: keep those the chosen system takes too.
        allowed = pairing.REGISTRY[system].allowed_options()
        kept = {k: v for k, v in settings.options.items() if k in allowed}
        settings = replace(settings, options=kept)
    if repeats is not None:
        settings = replace(settings, max_repeats=repeats)
    if system == "cop" or options:
        cop = division.cop_settings if system == "cop" else {}
        merged = {**cop, **settings.options, **(options or {})}
        settings = replace(settings, options=_by_number(merged, past.players))
    try:
        result = pairing.pair_round(
            past.engine_players,
            past.results,
            round_number,
            system,
            settings,
            paired=past.paired,
        )
    except pairing.PairingError as error:
        raise PairingRefused(str(error)) from error
    return Plan(division, result, {p.pk: p for p in past.players})


def _by_number(options: dict[str, Any], players: Sequence[Player]) -> dict[str, Any]:
    """COP's options name players by their number (or name): the engine knows them by pk."""
    pks = {str(p.number): p.pk for p in players}

    def pk(key: Any) -> Any:
        return pks.get(str(key), key) if key is not None else None

    out = dict(options)
    if isinstance(out.get("player_classes"), dict):
        out["player_classes"] = {pk(k): v for k, v in out["player_classes"].items()}
    if isinstance(out.get("prepaired"), list):
        out["prepaired"] = [[pk(x) for x in pair] for pair in out["prepaired"]]
    return out


# -- writes --------------------------------------------------------------------------------------


def locked_division(division: Division) -> Division:
    return Division.objects.select_for_update().get(pk=division.pk)


def _round_games(division: Division, round_number: int) -> list[Game]:
    return list(
        Game.objects.select_for_update(of=("self",))  # PostgreSQL locks no outer-joined row
        .filter(division=division, round=round_number)
        .select_related("player1", "player2")
        .order_by(F("table").asc(nulls_last=True), "pk")
    )


def _refuse_if_played(games: Sequence[Game], round_number: int, doing: str) -> None:
    played = [
        g for g in games if g.kind != Game.BYE and g.has_result and not missed.made_with_pairing(g)
    ]
    if played:
        raise PairingRefused(
            ngettext(
                "Round %(round_number)s already has %(count)s result: it cannot be %(doing)s. "
                "Correct or delete the results first.",
                "Round %(round_number)s already has %(count)s results: it cannot be %(doing)s. "
                "Correct or delete the results first.",
                len(played),
            )
            % {"round_number": round_number, "count": len(played), "doing": doing}
        )


def _clear_round(
    division: Division, round_number: int, doing: str
) -> tuple[Division, list[dict[str, Any]]]:
    """Delete the round's games, refused when one has a result: the division locked for the
    rest of the caller's transaction, and the games as they were, for the log."""
    division = locked_division(division)
    games = _round_games(division, round_number)
    _refuse_if_played(games, round_number, doing)
    before = [snapshot(g) for g in games]
    for g in games:
        g.delete()
    return division, before


def _warning_dicts(warnings: Sequence[pairing.PairingWarning]) -> list[dict[str, Any]]:
    # Codes and parameters, not sentences: `sentences` writes them in the reader's language.
    return [
        {"code": w.code, "params": dict(w.params), "players": list(w.players)} for w in warnings
    ]


def note_lines(state: Round | None) -> list[str]:
    """A round's stored notes (the engine's, and each table's reasons) as sentences, in the
    active language."""
    return sentences.messages(state.notes) if state is not None else []


def _log(division: Division, user: Actor, action: str, before: list, after: list, reason: str):
    """A change to a round's games, as results log theirs: `{"games": [snapshot, …]}`."""
    games = {"games": before} if before else None
    return log_change(division, user, action, games, {"games": after} if after else None, reason)


def log_change(
    division: Division,
    user: Actor,
    action: str,
    before: dict | None,
    after: dict | None,
    reason: str,
) -> Change:
    """A change to a round or a player; `user` is None from the command line."""
    return audit.record(division, action, actor=user, before=before, after=after, reason=reason)


def save_pairings(
    division: Division,
    round_number: int,
    pairs: Sequence[tuple[Player, Player | None]],
    user: Actor,
    *,
    system: str = "manual",
    based_on: int | None = None,
    notes: Sequence[dict[str, Any]] = (),
    reason: str = "",
    auto: bool = False,
    simulation: dict[str, Any] | None = None,
) -> Round:
    """Replace round `round_number`'s pairings with `pairs` (first player first), unpublished:
    the tables numbered in the order given from the division's first table (a player's fixed
    table kept: `tables_for`), the byes after them. A player marked absent for the round and
    not paired gets the division's `absent_result`: a forfeit loss, or nothing.

    Refused when the round already has results. `notes` are messages as dicts
    (`Message.as_dict()`); the warnings are the engine's checks of the pairs as saved. The
    round keeps what it was paired from (`basis`), and `auto` says the division paired it by
    itself, so that a change to those results pairs it again (`revisit`). `simulation` is
    COP's table of chances (`SimulationTable.as_dict()`), when COP paired the round.
    """
    with transaction.atomic():
        division, before = _clear_round(division, round_number, gettext("paired again"))
        created = []
        byes_last = sorted(pairs, key=lambda pair: pair[1] is None)  # stable: tables keep order
        tables = tables_for(division, byes_last)
        for table, (first, second) in zip(tables, byes_last, strict=True):
            created.append(
                Game.objects.create(
                    division=division,
                    round=round_number,
                    table=table,
                    player1=first,
                    player2=second,
                    kind=Game.PLAYED if second is not None else Game.BYE,
                    first=1 if second is not None else 0,
                    # A bye is scored when paired (`scored_when_paired`), as the
                    # absent's forfeit is: publishing the round then changes nothing the desk
                    # saw (a prize certificate printed before it still confirms after).
                    score1=None if second is not None else division.bye_spread,
                    version=1,
                )
            )
        # Everyone in the round's field and not in `pairs` gets what the division gives a
        # player who misses a round (`missed.decide`), in this same change.
        everyone = list(division.players.all())
        seated = {p.pk for pair in pairs for p in pair if p is not None}
        checked_out = [p.pk for p in not_checked_in(everyone)] if round_number == 1 else []
        reasons = missed.why_left_out(everyone, round_number, checked_out)
        given = []
        for p in everyone:
            if p.pk in seated or p.pk not in reasons:
                continue
            result = missed.decide(division, p, round_number, reasons[p.pk])
            given.append((p, result))
            game = missed.make(division, p, round_number, result)
            if game is not None:
                created.append(game)
        notes = [*notes, *missed.notes(division, round_number, given)]
        warnings = _check(division, round_number, created)
        from_round = _checked_from(division, round_number) if based_on is None else based_on
        state, _ = Round.objects.update_or_create(
            division=division,
            number=round_number,
            defaults={
                "system": system,
                "based_on": based_on,
                "published": False,
                "published_at": None,
                "notes": list(notes),
                "warnings": _warning_dicts(warnings),
                "auto": auto,
                "basis": basis(division, round_number, from_round),
                "stale": [],
                "simulation": simulation or {},
            },
        )
        _log(division, user, PAIR, before, [snapshot(g) for g in created], reason)
        return state


def pair(
    division: Division,
    round_number: int,
    user: Actor,
    based_on: int | None = None,
    system: str | None = None,
    repeats: int | None = None,
    auto: bool = False,
) -> Round:
    """Pair the round by the engine and save it, unpublished (`auto`: by the division itself)."""
    return save_plan(plan(division, round_number, based_on, system, repeats), user, auto)


def save_plan(proposal: Plan, user: Actor, auto: bool = False) -> Round:
    """Save what `plan` proposed, unpublished."""
    result = proposal.result
    players = proposal.players
    pairs = [
        (players[p.first], players[p.second] if p.second is not None else None)
        for p in sorted(result.pairings, key=lambda p: p.table)
    ]
    # Why each table was paired so: the engine's reasons, by the players' names, which stay
    # true of the pair whatever its table becomes.
    reasons = [
        Message(
            "table",
            first=players[p.first].name,
            second=players[p.second].name,
            reasons=list(p.reasons),
        )
        for p in result.pairings
        if p.second is not None and p.reasons
    ]
    return save_pairings(
        proposal.division,
        result.round,
        pairs,
        user,
        system=result.system,
        based_on=result.based_on,
        notes=[n.as_dict() for n in (*result.notes, *reasons)],
        reason=f"paired by {result.system} from round {result.based_on}",
        auto=auto,
        simulation=result.simulation.as_dict() if result.simulation is not None else None,
    )


def _check(
    division: Division, round_number: int, games: Sequence[Game]
) -> list[pairing.PairingWarning]:
    """The engine's warnings for the round's pairings as they stand."""
    past = history(division, round_number, _checked_from(division, round_number))
    # A forfeit is a paired game lost (and won) by absence, not a bye: its two one-player
    # rows are left out of the pairs, and so of the count of byes.
    forfeits = {g.player1_id for g in games if g.kind == Game.FORFEIT}
    pairs = [(g.player1_id, g.player2_id) for g in games if g.kind not in (Game.VOID, Game.FORFEIT)]
    # A forfeit entered for a paired game (or a player marked absent after pairing) is its two
    # rows at the game's table: still a pair, so the field's byes are counted as paired.
    at_table: dict[int, list[int]] = {}
    for g in games:
        if g.kind == Game.FORFEIT and g.player2_id is None and g.table is not None:
            at_table.setdefault(g.table, []).append(g.player1_id)
    forfeit_pairs = [(two[0], two[1]) for two in at_table.values() if len(two) == 2]
    pairs += forfeit_pairs
    # A player marked absent once paired was in the field the round was paired from.
    past = replace(past, absent=past.absent - {pk for pair in forfeit_pairs for pk in pair})
    warnings = pairing.check_pairings(
        past.engine_players,
        past.results,
        round_number,
        pairs,
        rules(division, schedule_entry(division, round_number), past.players),
        paired=past.paired,
    )
    return [w for w in warnings if not (w.code == "unpaired" and set(w.players) <= forfeits)]


def _checked_from(division: Division, round_number: int) -> int:
    """The latest round before `round_number` whose results are all in: the check's standings."""
    first_incomplete = (
        division.games.filter(round__lt=round_number, score1=None)
        .exclude(kind=Game.VOID)
        .aggregate(first=Min("round"))["first"]
    )
    return round_number - 1 if first_incomplete is None else first_incomplete - 1


def current_warnings(division: Division, round_number: int) -> list[pairing.PairingWarning]:
    games = list(division.games.filter(round=round_number))
    return _check(division, round_number, games)


def swap(division: Division, round_number: int, a: Player, b: Player, user: Actor) -> Round:
    """Exchange two players' places in the round's pairings; the warnings are checked again."""
    if a.pk == b.pk:
        raise PairingRefused(gettext("Choose two different players to swap."))
    with transaction.atomic():
        division = locked_division(division)
        games = _round_games(division, round_number)
        seats: dict[int, tuple[Game, str]] = {}
        for g in games:
            seats[g.player1_id] = (g, "player1")
            if g.player2_id is not None:
                seats[g.player2_id] = (g, "player2")
        for p in (a, b):
            if p.pk not in seats:
                raise PairingRefused(
                    gettext("%(number)s %(name)s is not paired in round %(round_number)s.")
                    % {
                        "number": p.number,
                        "name": sentences.isolate(p.name),
                        "round_number": round_number,
                    }
                )
            if seats[p.pk][0].has_result and seats[p.pk][0].kind != Game.BYE:
                raise PairingRefused(
                    gettext(
                        "%(number)s %(name)s's round %(round_number)s game has a result: "
                        "it cannot be swapped."
                    )
                    % {
                        "number": p.number,
                        "name": sentences.isolate(p.name),
                        "round_number": round_number,
                    }
                )
        (game_a, seat_a), (game_b, seat_b) = seats[a.pk], seats[b.pk]
        if game_a.pk == game_b.pk:
            raise PairingRefused(
                gettext("%(name)s and %(name2)s already play each other.")
                % {"name": sentences.isolate(a.name), "name2": sentences.isolate(b.name)}
            )
        before = [snapshot(game_a), snapshot(game_b)]
        setattr(game_a, seat_a, b)
        setattr(game_b, seat_b, a)
        for g in (game_a, game_b):
            g.version += 1
            g.save()
        _keep_fixed_tables(division, games)
        state = _refresh_round(division, round_number)
        if state.auto:  # swapped by hand: a change to its results marks it, never re-pairs it
            state.auto = False
            state.save(update_fields=["auto"])
        _drop_stale_reasons(state, games)
        _log(division, user, SWAP, before, [snapshot(game_a), snapshot(game_b)], "")
        return state


def _keep_fixed_tables(division: Division, games: Sequence[Game]) -> None:
    """After a swap, a player with a fixed table may have moved: the round's tables are given
    again (`tables_for`), the games keeping their order."""
    seated = [g for g in games if g.player2_id is not None]
    pairs = [(g.player1, g.player2) for g in seated]
    if not any(a.fixed_table or (b is not None and b.fixed_table) for a, b in pairs):
        return
    tables = tables_for(division, pairs)
    for g, table in zip(seated, tables, strict=True):
        if g.table != table:
            g.table = table
            g.save(update_fields=["table", "updated"])


def _drop_stale_reasons(state: Round, games: Sequence[Game]) -> None:
    """After a swap, the engine's reasons for a table are true only of a pair still playing:
    the others are dropped, so that "why these pairings" never explains pairs that no longer
    exist. The engine's notes about the whole round stand."""
    pairs = {frozenset((g.player1.name, g.player2.name)) for g in games if g.player2 is not None}
    kept = [
        note
        for note in state.notes
        if note.get("code") != "table"
        or frozenset((note["params"].get("first"), note["params"].get("second"))) in pairs
    ]
    if len(kept) != len(state.notes):
        state.notes = kept
        state.save(update_fields=["notes"])


def _refresh_round(division: Division, round_number: int) -> Round:
    state, _ = Round.objects.get_or_create(
        division=division, number=round_number, defaults={"system": "manual", "published": True}
    )
    state.warnings = _warning_dicts(current_warnings(division, round_number))
    state.save(update_fields=["warnings"])
    return state


def publish(division: Division, round_number: int, user: Actor, stale_ok: bool = False) -> Round:
    """Show the round's pairings to the players, and score its byes. A round paired from
    results that have changed since (`Round.stale`) is published only when `stale_ok` says
    the director saw that and confirmed."""
    with transaction.atomic():
        division = locked_division(division)
        games = _round_games(division, round_number)
        if not games:
            raise PairingRefused(
                gettext("Round %(round_number)s has no pairings to publish.")
                % {"round_number": round_number}
            )
        state, _ = Round.objects.get_or_create(division=division, number=round_number)
        if state.published:
            raise PairingRefused(
                gettext("Round %(round_number)s is already published.")
                % {"round_number": round_number}
            )
        if state.stale and not stale_ok:
            raise StaleRound(
                gettext(
                    "Round %(round_number)s was paired from results that have changed since "
                    "(%(changes)s). Pair it again, or confirm that it is to be published as "
                    "it is."
                )
                % {"round_number": round_number, "changes": stale_text(state)}
            )
        before, after = [], []
        for g in games:
            if g.kind == Game.BYE and g.score1 is None:
                before.append(snapshot(g))
                g.score1 = division.bye_spread
                g.version += 1
                g.save()
                after.append(snapshot(g))
        state.published = True
        state.published_at = timezone.now()
        state.save(update_fields=["published", "published_at"])
        _log(division, user, PUBLISH, before, after, f"round {round_number} published")
        signals.round_published.send(sender=Division, division=division, round=round_number)
        return state


def unpair(division: Division, round_number: int, user: Actor) -> None:
    """Take back a round's pairings (only while it has no results)."""
    with transaction.atomic():
        division, before = _clear_round(division, round_number, gettext("unpaired"))
        Round.objects.filter(division=division, number=round_number).delete()
        _log(division, user, UNPAIR, before, [], f"round {round_number} unpaired")


def next_round(division: Division) -> int:
    """The round after the last one with games."""
    last = division.games.aggregate(n=Max("round"))["n"] or 0
    return last + 1


def save_manual(
    division: Division, round_number: int, numbers: Sequence[tuple[int, int | None]], user: Actor
) -> Round:
    """The director's own pairings, by player numbers (`(n, None)` a bye), checked and saved
    unpublished with the engine's warnings."""
    players = {p.number: p for p in division.players.all()}
    seen: set[int] = set()
    pairs = []
    for first, second in numbers:
        for n in (first, second):
            if n is None:
                continue
            if n not in players:
                raise PairingRefused(
                    gettext("No player %(n)s in division %(name)s.")
                    % {"n": n, "name": division.name}
                )
            if n in seen:
                raise PairingRefused(
                    gettext("Player %(n)s %(name)s is paired twice.")
                    % {"n": n, "name": sentences.isolate(players[n].name)}
                )
            seen.add(n)
        pairs.append((players[first], players[second] if second is not None else None))
    return save_pairings(division, round_number, pairs, user, reason="paired by hand")


# -- the pairings of later rounds, kept in line with the results they were paired from -----------


def _first_round(changes: Sequence[Change]) -> int:
    """The earliest round the changes touch; 0 for a change to the field (a player)."""
    found = [
        s["round"]
        for c in changes
        for data in (c.before, c.after)
        for s in (data or {}).get("games") or []
        if isinstance(s, dict) and s.get("round")
    ]
    if any(c.action not in RESULT_ACTIONS for c in changes):
        found.append(0)
    return min(found, default=0)


# The changes of results; any other change passed to `revisit` is one to the field.


def _pairs(division: Division, round_number: int) -> set[frozenset[int | None]]:
    games = division.games.filter(round=round_number).exclude(kind=Game.FORFEIT)
    return {frozenset((one, two)) for one, two in games.values_list("player1_id", "player2_id")}


def _pair_again(division: Division, state: Round, user: Actor) -> str:
    """The division's own unpublished pairing of a round, made again from the results as they
    are now; what happened, in a sentence."""
    before = _pairs(division, state.number)
    try:
        with transaction.atomic():
            pair(division, state.number, user, auto=True)
    except PairingRefused as refused:
        return gettext(
            "Round %(round)s was paired by itself from results that have changed, and cannot "
            "be paired again: %(error)s"
        ) % {"round": state.number, "error": refused}
    after = _pairs(division, state.number)
    changed = len(after - before)
    return ngettext(
        "Round %(round)s paired again from the changed results: %(changed)s of %(count)s "
        "pair changed.",
        "Round %(round)s paired again from the changed results: %(changed)s of %(count)s "
        "pairs changed.",
        len(after),
    ) % {"round": state.number, "changed": changed, "count": len(after)}


def revisit(division: Division, user: Actor, changes: Sequence[Change]) -> list[str]:
    """Bring the later rounds' pairings in line with `changes` (results, or the field), in the
    caller's transaction; what the desk is told, a sentence each.

    A round not yet played whose pairing was made from results that differ now is paired
    again if the division paired it by itself and it is unpublished; otherwise (paired,
    swapped or typed by hand, or published) it is left as it is and marked stale with the
    changes, until it is paired again or the results are as they were (an undo), which takes
    the mark off. Then, when a round the changes touch is complete, the next one is paired by
    itself (`auto_pair`)."""
    changes = [c for c in changes if c is not None]
    if not changes:
        return []
    first = _first_round(changes)
    said = []
    states = list(division.rounds.filter(number__gt=first).order_by("number"))
    played = played_rounds(division, first) if states else set()
    for state in states:
        if not state.basis or state.number in played:
            continue
        now = basis(division, state.number, state.basis["based_on"])
        changed = changed_rounds(state.basis, now)
        if not changed:
            if state.stale:
                state.stale = []
                state.save(update_fields=["stale"])
                said.append(
                    gettext(
                        "Round %(round)s is up to date again with the results it was paired from."
                    )
                    % {"round": state.number}
                )
            continue
        on_demand = state.system in pairing.REGISTRY and pairing.REGISTRY[state.system].on_demand
        if state.auto and not state.published and not on_demand:
            said.append(_pair_again(division, state, user))
            state.refresh_from_db()
            if not changed_rounds(state.basis, now):
                continue
        known = {entry["change"] for entry in state.stale}
        state.stale = [
            *state.stale,
            *({"change": c.pk, "rounds": changed} for c in changes if c.pk not in known),
        ]
        state.save(update_fields=["stale"])
        said.append(
            gettext(
                "Round %(round)s was paired from results that have changed (%(changes)s): "
                "it is left as it is. Pair it again on its pairing page if it should change."
            )
            % {"round": state.number, "changes": stale_text(state)}
        )
    for number in sorted(_touched_rounds(changes)):
        said.extend(auto_pair(division, number, user))
    return said


def _touched_rounds(changes: Sequence[Change]) -> set[int]:
    return {
        s["round"]
        for c in changes
        if c.action in RESULT_ACTIONS
        for s in (c.after or {}).get("games") or []
        if isinstance(s, dict) and s.get("round")
    }


def auto_pair(division: Division, round_number: int, user: Actor) -> list[str]:
    """Pair the round after `round_number` by the schedule, unpublished, if the division pairs
    by itself, `round_number`'s results are complete and the next round is planned and not
    paired yet; what the desk is told."""
    division.refresh_from_db(fields=["auto_pair", "planned_rounds"])
    if not division.auto_pair:
        return []
    if division.planned_rounds and round_number >= division.planned_rounds:
        return []
    games = division.games.filter(round=round_number).exclude(kind=Game.VOID)
    if not games.exists() or games.filter(score1=None).exists():
        return []
    if division.games.filter(round=round_number + 1).exists():
        return []
    try:
        system = schedule_entry(division, round_number + 1).system
    except PairingRefused:
        system = ""
    if system in pairing.REGISTRY and pairing.REGISTRY[system].on_demand:
        return [
            gettext(
                "Round %(round)s's results are complete: round %(next)s is paired by "
                "%(system)s, which runs its simulations when you press Pair on its pairing page."
            )
            % {"round": round_number, "next": round_number + 1, "system": system}
        ]
    try:
        with transaction.atomic():
            state = pair(division, round_number + 1, user, auto=True)
    except PairingRefused as refused:
        return [
            gettext("Round %(round)s could not be paired by itself: %(error)s")
            % {"round": round_number + 1, "error": refused}
        ]
    return [
        gettext(
            "Round %(round)s's results are complete: round %(next)s is paired by %(system)s, "
            "not published yet — check it on the pairing page."
        )
        % {"round": round_number, "next": state.number, "system": state.system}
    ]
