"""The event's consistency check: like a file system's fsck, it reads the whole event and names
every break of its invariants, one finding a line, with the division, the round and the
players. Read-only: it changes nothing, and keeps nothing in any cache.

The invariants:

- in every paired round, every player in the event for it plays exactly one game, or has a bye,
  a forfeit or the division's result for a missed round (`pairing.missed`), or is withdrawn;
  nobody plays twice, or against themselves;
- a round paired from results (or a field) that have changed since is marked stale;
- the standings, ratings and prizes the caches hold equal those computed afresh from the rows
  (`memos.afresh`), for the desk and for the public;
- each scoresheet's verdict (verified or not) is the engine's on its current record; a
  scoresheet whose final scores differ from the game's result is flagged (or resolved);
- each player's report (claim) is of a game of theirs; no round has results that was never
  paired.

`manage.py checkevent SLUG` prints the findings and exits 1 when there is any; the dashboard's
check page shows them; a restore runs it; the simulator (`event/simulate.py`) runs it after
every step.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext, ngettext

from tournament.core.sentences import isolate
from tournament.models import Change, Claim, Division, Game, Player, Scoresheet, Tournament
from tournament.pairing import basis as paired_from
from tournament.pairing import missed
from tournament.scoresheets import services as sheets
from tournament.standings import memos, prizes, read_model
from tournament.standings import stamps as division_stamps
from tournament.standings.rows import RatingRow, Row
from tournament.standings.stamps import DivisionStamps


@dataclass(frozen=True)
class Finding:
    """One break of an invariant: its code (for tests and scripts), the division and round
    (None: the whole division), the players' numbers, and the sentence."""

    code: str
    division: str
    round: int | None
    players: tuple[int, ...]
    text: str
    division_id: int | None = None  # for a page's link to the round

    def line(self) -> str:
        """The finding in one line: "A, round 1: …" or "A: …"."""
        if self.round is None:
            where = gettext("Division %(division)s") % {"division": self.division}
        else:
            where = gettext("Division %(division)s, round %(round)s") % {
                "division": self.division,
                "round": self.round,
            }
        return f"{where}: {self.text}"


def check_event(tournament: Tournament) -> list[Finding]:
    """Every finding of the tournament's divisions, in division order."""
    found: list[Finding] = []
    for division in tournament.divisions.order_by("name"):
        found.extend(check_division(division))
    return found


def check_division(division: Division) -> list[Finding]:
    """Every finding of one division."""
    players = {p.pk: p for p in division.players.all()}
    games = list(division.games.exclude(kind=Game.VOID).order_by("round", "table", "pk"))
    found = []
    found += _pairings(division, players, games)
    found += _stale(division)
    found += _caches(division)
    found += _scoresheets(division)
    found += _claims(division)
    return found


def _name(player: Player | None) -> str:
    return isolate(player.name) if player is not None else "?"


def _finding(
    code: str, division: Division, round_number: int | None, who: Iterable[Player], text: str
) -> Finding:
    numbers = tuple(p.number for p in who)
    return Finding(code, division.name, round_number, numbers, text, division.pk)


def _excused(division: Division) -> dict[int, set[int]]:
    """The rounds a late entry was given nothing for by the director's choice (player number
    → rounds): their missed rounds are as the director said."""
    excused: dict[int, set[int]] = {}
    for change in Change.objects.filter(
        tournament_id=division.tournament_id, action=Change.Action.LATE_ENTRY
    ).only("after"):
        after = change.after or {}
        if after.get("division") != division.name or not after.get("nothing"):
            continue
        number = after.get("player")
        if isinstance(number, int):
            excused.setdefault(number, set()).update(after["nothing"])
    return excused


def _pairings(division: Division, players: dict[int, Player], games: list[Game]) -> list[Finding]:
    found: list[Finding] = []
    by_round: dict[int, list[Game]] = {}
    for g in games:
        by_round.setdefault(g.round, []).append(g)
    paired_rounds = set(division.rounds.values_list("number", flat=True))
    gives_forfeit = division.absent_result == "forfeit"
    excused = _excused(division) if gives_forfeit else {}
    for number, round_games in sorted(by_round.items()):
        seen: Counter[int] = Counter()
        for g in round_games:
            one, two = players.get(g.player1_id), players.get(g.player2_id or 0)
            if one is None or (g.player2_id is not None and two is None):
                found.append(
                    _finding(
                        "foreign_player",
                        division,
                        number,
                        [p for p in (one, two) if p is not None],
                        gettext("a game (table %(table)s) has a player of another division.")
                        % {"table": g.table or "-"},
                    )
                )
                continue
            if g.player2_id == g.player1_id:
                found.append(
                    _finding(
                        "paired_with_self",
                        division,
                        number,
                        [one],
                        gettext("%(name)s is paired with themselves.") % {"name": _name(one)},
                    )
                )
            seen[g.player1_id] += 1
            if g.player2_id is not None and g.player2_id != g.player1_id:
                seen[g.player2_id] += 1
        for pk, count in sorted(seen.items()):
            if count > 1:
                player = players[pk]
                found.append(
                    _finding(
                        "plays_twice",
                        division,
                        number,
                        [player],
                        ngettext(
                            "%(name)s has %(count)s game in the round.",
                            "%(name)s has %(count)s games in the round.",
                            count,
                        )
                        % {"name": _name(player), "count": count},
                    )
                )
        two_player = any(g.player2_id is not None for g in round_games)
        never = number not in paired_rounds and not two_player
        if gives_forfeit and not never:
            for player in players.values():
                if (
                    player.pk not in seen
                    and missed.in_round(player, number)
                    and number not in excused.get(player.number, ())
                ):
                    found.append(
                        _finding(
                            "nothing",
                            division,
                            number,
                            [player],
                            gettext(
                                "%(name)s has no game, bye or forfeit, and is not withdrawn: "
                                "the division gives a player who misses a round a forfeit "
                                "loss."
                            )
                            % {"name": _name(player)},
                        )
                    )
        if never:
            who = [players[g.player1_id] for g in round_games if g.player1_id in players]
            found.append(
                _finding(
                    "never_paired",
                    division,
                    number,
                    who,
                    gettext("the round was never paired, but has results for %(names)s.")
                    % {"names": ", ".join(_name(p) for p in who)},
                )
            )
    return found


def _stale(division: Division) -> list[Finding]:
    """A round paired from results or a field that have changed since, not played yet and not
    marked stale."""
    found: list[Finding] = []
    states = [s for s in division.rounds.order_by("number") if s.basis]
    if not states:
        return found
    played = paired_from.played_rounds(division, 0)
    for state in states:
        if state.number in played or state.stale:
            continue
        now = paired_from.basis(division, state.number, state.basis["based_on"])
        changed = paired_from.changed_rounds(state.basis, now)
        if changed:
            what = ", ".join(
                gettext("the field") if n == 0 else gettext("round %(n)s") % {"n": n}
                for n in changed
            )
            found.append(
                _finding(
                    "stale_unmarked",
                    division,
                    state.number,
                    [],
                    gettext(
                        "paired from results that have changed since (%(what)s), and not "
                        "marked stale."
                    )
                    % {"what": what},
                )
            )
    return found


def _standing_values(rows: list[Row]) -> list[tuple[Any, ...]]:
    return [(r.rank, r.player.pk, r.wins, r.losses, r.spread, r.games) for r in rows]


def _rating_values(rows: list[RatingRow]) -> list[tuple[Any, ...]]:
    return [(r.player.pk, r.before, r.by_round) for r in rows]


def _award_values(
    division: Division, public: bool, stamps: DivisionStamps
) -> list[tuple[Any, ...]]:
    listing, _rows = prizes.awards(division, public=public, stamps=stamps)
    return [(repr(a.prize), tuple(a.winners), a.detail, a.shared, a.team) for a in listing]


def _caches(division: Division) -> list[Finding]:
    """The standings, ratings and prizes as the caches give them, against the same computed
    afresh from the rows, both under the stamps read once here."""
    found = []
    stamps = division_stamps.read(division)
    views: list[tuple[str, Any]] = [
        (
            "standings",
            lambda public: _standing_values(
                read_model.division_standings(division, public=public, stamps=stamps)
            ),
        ),
        (
            "ratings",
            lambda public: _rating_values(
                read_model.division_ratings(division, public=public, stamps=stamps)
            ),
        ),
    ]
    if division.prizes:
        views.append(("prizes", lambda public: _award_values(division, public, stamps)))
    words = {
        "standings": gettext("standings"),
        "ratings": gettext("ratings"),
        "prizes": gettext("prizes"),
    }
    # With nothing hidden from the public, the public's values afresh are the desk's: computed
    # once (a 500 × 31 division's ratings take about two seconds).
    same = not division.games.exclude(
        pk__in=Game.objects.published().filter(division=division)
    ).exists()
    for what, read in views:
        fresh_desk = None
        for public in (False, True):
            kept = read(public)
            if public and same and fresh_desk is not None:
                fresh = fresh_desk
            else:
                with memos.afresh():
                    fresh = read(public)
            if not public:
                fresh_desk = fresh
            if kept != fresh:
                who = gettext("the public's") if public else gettext("the desk's")
                found.append(
                    _finding(
                        f"cache_{what}",
                        division,
                        None,
                        [],
                        gettext(
                            "%(who)s %(what)s as cached differ from those computed afresh "
                            "from the results."
                        )
                        % {"who": who, "what": words[what]},
                    )
                )
    return found


def _scoresheets(division: Division) -> list[Finding]:
    found = []
    for sheet in Scoresheet.objects.filter(game__division=division).select_related(
        "game", "game__player1", "game__player2"
    ):
        game = sheet.game
        who = [p for p in (game.player1, game.player2) if p is not None]
        report = sheets.check_scoresheet(division, sheet.gcg)
        if report.verified != sheet.verified:
            found.append(
                _finding(
                    "sheet_verdict",
                    division,
                    game.round,
                    who,
                    gettext(
                        "the scoresheet of %(game)s is stored as %(stored)s, but the engine "
                        "finds its record %(now)s."
                    )
                    % {
                        "game": str(game),
                        "stored": gettext("verified")
                        if sheet.verified
                        else gettext("not verified"),
                        "now": gettext("verified") if report.verified else gettext("not verified"),
                    },
                )
            )
        if sheets.differs(game, report) and not (sheet.flagged or sheet.resolved):
            found.append(
                _finding(
                    "sheet_unflagged",
                    division,
                    game.round,
                    who,
                    gettext(
                        "the scoresheet of %(game)s ends with other scores than the result, "
                        "and is not flagged."
                    )
                    % {"game": str(game)},
                )
            )
    return found


def _claims(division: Division) -> list[Finding]:
    found = []
    for claim in Claim.objects.filter(game__division=division).select_related(
        "game", "player", "game__player1", "game__player2"
    ):
        game = claim.game
        if claim.player_id not in (game.player1_id, game.player2_id):
            found.append(
                _finding(
                    "claim_not_theirs",
                    division,
                    game.round,
                    [claim.player],
                    gettext("%(name)s has a report of %(game)s, a game not theirs.")
                    % {"name": _name(claim.player), "game": str(game)},
                )
            )
    return found
