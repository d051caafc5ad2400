"""What a player does from their personal link: check in, report their own result, and type
or upload their game's scoresheet.

A report is a claim. When both players of a game have claimed the same scores, the result is
recorded through the desk's own write (`results.record_result`), with the change logged
under the player who completed the agreement. A disagreement, or a claim the opponent has not
matched yet, records nothing: it waits in the desk's queue (`pending`), where a director
accepts either claim or types the right result.
"""

from __future__ import annotations

import contextlib
import secrets
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import timedelta
from functools import lru_cache, partial
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from django.core.cache import cache
from django.db import InterfaceError, OperationalError, connection, transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext as _

from tournament.core import bounds, throttle, tokens
from tournament.core.actor import Actor, RequestUser
from tournament.core.language import ltr_text
from tournament.core.sentences import isolate
from tournament.models import (
    Change,
    Claim,
    Division,
    Game,
    Player,
    PlayerLink,
    Round,
    RoundClock,
    Scoresheet,
)
from tournament.phone import checkin, disputes, offline
from tournament.results import services as results
from tournament.scoresheets import services as scoresheets
from tournament.standings import memos, read_model
from tournament.standings import stamps as division_stamps
from tournament.standings.cache_once import get_or_compute
from tournament.standings.rows import record_text

if TYPE_CHECKING:
    pass

REPORTS_PER_MINUTE = 10  # reports, check-ins and scoresheets saved, per link per minute
# A link's live checks are charged by their cost against `bounds.CHECK_BUDGET` over the last
# `bounds.CHECK_WINDOW` seconds, kept in this many slices of the window (`spend`).
CHECK_SLICES = 6


class ReportRefused(ValueError):
    """The report cannot be taken; the message says why, in a sentence."""


# -- links --------------------------------------------------------------------------------------


def _hash(token: str) -> str:
    """What the cache's counters of a link are kept under: its lookup digest, never the token."""
    return tokens.digest(token)


def issue_link(player: Player) -> str:
    """A new token for the player; any link they had before stops working. The token is kept
    as its digest and sealed (`tournament/core/tokens.py`), never as it is."""
    token = secrets.token_urlsafe(24)
    with transaction.atomic():
        PlayerLink.objects.filter(player=player, revoked=None).update(revoked=timezone.now())
        PlayerLink.objects.create(
            player=player, token_hash=tokens.digest(token), token_sealed=tokens.seal(token)
        )
    return token


def live_token(player: Player) -> str:
    """The player's live token, issuing one if they have none, or if theirs cannot be opened
    here (sealed under another secret key: it would not open their page here either)."""
    link = PlayerLink.objects.filter(player=player, revoked=None).order_by("-pk").first()
    token = tokens.unseal(link.token_sealed) if link else None
    return token if token is not None else issue_link(player)


def revoke_links(player: Player) -> int:
    """Revoke the player's links; how many were live."""
    return PlayerLink.objects.filter(player=player, revoked=None).update(revoked=timezone.now())


def _live_links(token: str) -> Any:
    return PlayerLink.objects.filter(token_hash__in=tokens.digests(token), revoked=None)


def player_for(token: str) -> Player | None:
    """The player a live token belongs to, or None: looked up by the token's digest."""
    if not token or len(token) > 100:
        return None
    link = _live_links(token).select_related("player__division__tournament").first()
    if link is None or not tokens.matches(link.token_hash, token):
        return None
    return link.player


# A claim as a poll reads it: (game, player, my_score, opponent_score).
PollClaim = tuple[int, int, int, int]
# The division's round clock as a poll reads it, None for no clock: (round, length, ends_at,
# remaining, whether its round is one the public may not see yet: `hall/clock.round_shown`).
PollClock = tuple[int | None, int, Any, int | None, bool]
PollState = tuple[int, int, str, tuple[PollClaim, ...], str, PollClock | None]


def _fresh_rows(sql: str, params: list[Any]) -> list[tuple]:
    """The rows of one query, in one round trip to the database. With CONN_HEALTH_CHECKS the
    request's first query is preceded by a `SELECT 1` on a connection kept from before (a second
    round trip, as dear as the query itself); here it is left out, and a connection found broken
    by the query itself is closed and the query sent once more on a new one, as the check
    would have done."""
    checked = connection.health_check_done  # type: ignore[attr-defined]  # not in the stubs
    connection.health_check_done = True  # type: ignore[attr-defined]
    try:
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            return cursor.fetchall()
    except (OperationalError, InterfaceError):
        if checked or connection.in_atomic_block:
            raise
        connection.close()
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            return cursor.fetchall()


def poll_state(token: str) -> PollState | None:
    """What a poll of the player's page needs to know whether its kept body still holds: the
    player (by a live token's digest), their division and its stamp, the claims of the games
    they have claimed, theirs and their opponent's (a claim is no result: it leaves the stamp
    alone, so a phone reads them here, and sees its opponent's only once it has claimed too:
    `PollClaim`), what the division's round clock is kept by (its row as read, "" for none:
    `hall/clock.py`) and the clock itself (`PollClock`). Read fresh in one fixed query written
    out, in one round trip (a poll is the hall's commonest request: the ORM's compiling, a
    second query or a health check would be most of its cost). None for a link that does not
    work."""
    if not token or len(token) > 100:
        return None
    link, player, division = (m._meta.db_table for m in (PlayerLink, Player, Division))
    claim, clock, round_ = Claim._meta.db_table, RoundClock._meta.db_table, Round._meta.db_table
    digests = tokens.digests(token)
    marks = ", ".join(["%s"] * len(digests))
    # The player's row first (kind 0), then the claims (kind 1) in the same columns.
    rows = _fresh_rows(
        "SELECT 0, l.player_id, d.id, d.stamp, c.round, c.length, c.ends_at, c.remaining, "
        f"EXISTS (SELECT 1 FROM {round_} r WHERE r.division_id = d.id "  # noqa: S608
        "AND r.number = c.round AND NOT r.published) "
        f"FROM {link} l JOIN {player} p ON p.id = l.player_id "
        f"JOIN {division} d ON d.id = p.division_id "
        f"LEFT JOIN {clock} c ON c.division_id = d.id "
        f"WHERE l.token_hash IN ({marks}) AND l.revoked IS NULL "
        "UNION ALL "
        "SELECT 1, o.game_id, o.player_id, NULL, o.my_score, o.opponent_score, NULL, NULL, NULL "
        f"FROM {claim} o WHERE o.game_id IN (SELECT m.game_id FROM {claim} m "
        f"JOIN {link} l ON l.player_id = m.player_id "
        f"WHERE l.token_hash IN ({marks}) AND l.revoked IS NULL) "
        "ORDER BY 1, 2, 3",
        [*digests, *digests],
    )
    if not rows or rows[0][0] != 0:
        return None
    player_id, division_id, stamp, *held, hidden = rows[0][1:]
    claims = tuple((r[1], r[2], r[4], r[5]) for r in rows[1:])
    if held[1] is None:  # a clock always has a length: none here
        return player_id, division_id, stamp, claims, "", None
    version = ":".join(str(v) for v in held)
    return player_id, division_id, stamp, claims, version, (*held, bool(hidden))


def allow(token: str, limit: int = REPORTS_PER_MINUTE) -> bool:
    """Count one write (a report, a check-in, a scoresheet saved) from this link; False past
    `limit` within a minute of the window's first.

    Counted in the database, on the link's own row, never in the cache: a write is recorded
    whatever the cache's state, before any cache is touched, and the count holds across every
    worker and server. The window opens at the link's first write and closes 60 s later, so a
    burst is never split across a clock minute's edge. Two conditional updates, each atomic:
    the first opens a new window if the last is over, else the second counts one within it.
    """
    now = timezone.now()
    links = _live_links(token)
    with transaction.atomic():
        over = Q(writes_since__isnull=True) | Q(writes_since__lte=now - timedelta(seconds=60))
        if links.filter(over).update(writes_since=now, writes=1):
            return True
        return bool(links.filter(writes__lt=limit).update(writes=F("writes") + 1))


def spend(token: str, cost: int, budget: int = bounds.CHECK_BUDGET, what: str = "check") -> bool:
    """Charge `cost` to the link's budget for `what` over the last `bounds.CHECK_WINDOW`
    seconds; False, and nothing charged, when that would pass `budget`.

    The window slides by sixths: each sixth's spending is one counter in the cache, charged
    first (incr is atomic in every backend: Redis's INCRBY) and refunded if the window's sum
    then passes the budget, so checks sent together from one link never overspend together.
    """
    step = bounds.CHECK_WINDOW / CHECK_SLICES
    now = int(time.time() // step)
    base = f"selfservice:{what}:{_hash(token)}"
    key = f"{base}:{now}"
    spent = throttle.charge(key, cost, bounds.CHECK_WINDOW + int(step) + 1)
    earlier = cache.get_many([f"{base}:{n}" for n in range(now - CHECK_SLICES + 1, now)])
    if spent + sum(earlier.values()) <= budget:
        return True
    with contextlib.suppress(ValueError):  # expired meanwhile: nothing to refund
        cache.decr(key, cost)
    return False


# -- reports ------------------------------------------------------------------------------------


def current_game(player: Player) -> Game | None:
    """The player's game of the latest published round they are paired in."""
    games = Game.objects.published().filter(division_id=player.division_id)
    mine = (games.filter(player1=player) | games.filter(player2=player)).select_related(
        "player1", "player2"
    )
    return mine.order_by("-round", "pk").first()


def parse_score(text: str | None, label: str) -> int:
    value = bounds.plain_number((text or "").strip(), signed=True)
    if value is None:
        raise ReportRefused(gettext("Type %(label)s in digits.") % {"label": label})
    if not results.MIN_SCORE <= value <= results.MAX_SCORE:
        raise ReportRefused(
            gettext("%(value)s is not a possible score (%(low)s to %(high)s).")
            % {"value": value, "low": results.MIN_SCORE, "high": results.MAX_SCORE}
        )
    return value


@dataclass
class Outcome:
    recorded: bool
    message: str


@dataclass(frozen=True)
class GameState:
    """What decides whether a player may report a game or send its scoresheet, as plain values:
    read from the database for one game (`_state`), or from the division's phone snapshot."""

    self_report: bool
    theirs: bool  # the player is one of the game's two players (a bye has one)
    published: bool
    round: int
    round_locked: bool
    tournament_locked: bool
    played: bool
    has_result: bool


def _state(game: Game, player: Player) -> GameState:
    return GameState(
        self_report=game.division.self_report,
        theirs=player.pk in (game.player1_id, game.player2_id) and game.player2_id is not None,
        published=Game.objects.published().filter(pk=game.pk).exists(),
        round=game.round,
        round_locked=Round.objects.filter(
            division_id=game.division_id, number=game.round, locked=True
        ).exists(),
        tournament_locked=game.division.tournament.locked,
        played=game.kind == Game.PLAYED,
        has_result=game.has_result,
    )


def report_refusal(state: GameState) -> str | None:
    """Why a player may not report this game from their link, or None."""
    if not state.self_report:
        return gettext("Reporting results from this page is turned off: report at the desk.")
    if not state.theirs:
        return gettext("Only the two players of a game can report it.")
    if not state.published:
        return gettext("This round is not published.")
    if state.round_locked:
        return gettext("Round %(round)s is locked: report at the desk.") % {"round": state.round}
    if state.tournament_locked:
        return gettext("The tournament is locked: report at the desk.")
    if not state.played:
        return gettext("This game is not a played game: see the desk.")
    if state.has_result:
        return gettext("This game's result is already recorded: see the desk to correct it.")
    return None


def _refusal(game: Game, player: Player) -> str | None:
    return report_refusal(_state(game, player))


def can_report(game: Game, player: Player) -> bool:
    return _refusal(game, player) is None


def report(
    player: Player, game: Game, my_score: int, opponent_score: int, key: str | None = None
) -> Outcome:
    """Take the player's claim; record the result if the opponent's claim agrees. Sent again
    with its `key` (a phone that did not hear the answer), answered as the first time and
    nothing done. A report of a game recorded meanwhile (one the phone kept while offline) is
    answered with what was recorded, and not applied."""

    def write() -> offline.Answer:
        outcome = _report(player, game, my_score, opponent_score)
        return {"recorded": outcome.recorded, "message": outcome.message}

    answer = offline.refusals_kept(player, key, write, ReportRefused, (results.EntryError,))
    return Outcome(answer["recorded"], answer["message"])


def recorded_refusal(game: Game) -> str:
    """What a report of a game already recorded is answered: the recorded result."""
    assert game.player2 is not None
    scores = {
        "one": isolate(game.player1.name),
        "score1": ltr_text(str(game.score1)),
        "two": isolate(game.player2.name),
        "score2": ltr_text(str(game.score2)),
    }
    return (
        gettext(
            "Already recorded: %(one)s %(score1)s – %(two)s %(score2)s. Your report was not "
            "applied: see the desk to correct it."
        )
        % scores
    )


def _report(player: Player, game: Game, my_score: int, opponent_score: int) -> Outcome:
    with transaction.atomic():
        # The round's games are locked in the entry line's order before the game itself, so
        # that two reports of one round (and the desk) never deadlock.
        results.locked_round(game.division, game.round)
        game = Game.objects.select_related("division", "player1", "player2").get(pk=game.pk)
        state = _state(game, player)
        if state.theirs and state.has_result and game.kind == Game.PLAYED:
            raise ReportRefused(recorded_refusal(game))
        refused = report_refusal(state)
        if refused:
            raise ReportRefused(refused)
        Claim.objects.update_or_create(
            game=game,
            player=player,
            defaults={"my_score": my_score, "opponent_score": opponent_score},
        )
        other = game.player2 if game.player1_id == player.pk else game.player1
        assert other is not None
        theirs = Claim.objects.filter(game=game, player=other).first()
        if theirs is None:
            return Outcome(
                False,
                gettext("Reported. Waiting for %(name)s to report too.")
                % {"name": isolate(other.name)},
            )
        if (theirs.my_score, theirs.opponent_score) != (opponent_score, my_score):
            return Outcome(
                False,
                gettext(
                    "%(name)s reported %(scores)s: the desk will decide. You may change your "
                    "report until then."
                )
                % {
                    "name": isolate(other.name),
                    "scores": ltr_text(f"{theirs.my_score}–{theirs.opponent_score}"),
                },
            )
        record(game, player, my_score, opponent_score, actor=player)
        return Outcome(True, gettext("Both reports agree: the result is recorded."))


def record(game: Game, claimant: Player, score: int, other_score: int, actor: Actor) -> list[str]:
    """Record a claim's scores through the desk's own write (`results.record_result`), the
    game's claims cleared first; what the write's subscribers did (later rounds' pairings),
    a sentence each.

    The pairing's first player stands; a game paired without one records player1 as first,
    as the desk's line does when it is typed in the pairing's order.
    """
    assert game.player2 is not None
    claimant_is_1 = game.player1_id == claimant.pk
    score1, score2 = (score, other_score) if claimant_is_1 else (other_score, score)
    first = 2 if game.first == 2 else 1
    Claim.objects.filter(game=game).delete()
    return results.record_result(game, score1, score2, actor, first=first).said


def accept(claim: Claim, user: RequestUser) -> list[str]:
    """A director accepts one claim of a game as its result; what later rounds' pairings
    did, a sentence each."""
    with transaction.atomic():
        results.locked_round(claim.game.division, claim.game.round)
        game = Game.objects.select_related("division", "player1", "player2").get(pk=claim.game_id)
        if game.has_result:
            raise ReportRefused(gettext("This game's result is already recorded."))
        return record(game, claim.player, claim.my_score, claim.opponent_score, actor=user)


# -- scoresheets --------------------------------------------------------------------------------


def game_of(player: Player, game_id: int) -> Game | None:
    """One of the player's own games of a published round, or None."""
    games = Game.objects.published().filter(division_id=player.division_id, pk=game_id)
    game = (games.filter(player1=player) | games.filter(player2=player)).select_related(
        "division__tournament", "player1", "player2"
    )
    return game.first()


def sheet_state_refusal(state: GameState) -> str | None:
    """Why a player may not send a scoresheet of this game from their link, or None.

    The same switches as reports, except that a recorded result does not close it: the sheet
    of a finished game is checked against the result, and flagged if it disagrees.
    """
    if not state.self_report:
        return _("Sending scoresheets from this page is turned off: bring yours to the desk.")
    if not state.theirs:
        return _("Only the two players of a game can send its scoresheet.")
    if not state.published:
        return _("This round is not published.")
    if state.round_locked:
        return _("Round %(round)s is locked: bring your scoresheet to the desk.") % {
            "round": state.round
        }
    if state.tournament_locked:
        return _("The tournament is locked: bring your scoresheet to the desk.")
    if not state.played:
        return _("This game is not a played game: see the desk.")
    return None


def sheet_refusal(game: Game, player: Player) -> str | None:
    return sheet_state_refusal(_state(game, player))


def own_sheet(game: Game, player: Player) -> Scoresheet | None:
    """The player's own scoresheet of the game: the latest they sent from their link."""
    return game.scoresheets.filter(sent_by=player).order_by("-pk").first()


def send_sheet(
    player: Player, game: Game, data: str | bytes, file: str = "", key: str | None = None
) -> Scoresheet:
    """Save the player's scoresheet of the game, checked and flagged as the desk's are.

    A player has one sheet a game: sending again replaces their own sheet (logged as a
    correction), until a director has resolved it; sending the same record again changes
    nothing. A sheet the desk attached, or the
    opponent's, is never replaced from a phone. Empty and oversized records are refused.
    Sent again with its `key`, answered as the first time (the sheet it saved) and nothing
    done.
    """

    def write() -> offline.Answer:
        return {"sheet": _send_sheet(player, game, data, file).pk}

    answer = offline.refusals_kept(player, key, write, ReportRefused, (results.EntryError,))
    sheet = Scoresheet.objects.filter(pk=answer["sheet"]).first() or own_sheet(game, player)
    if sheet is None:  # the desk has removed it since
        raise ReportRefused(_("The desk has already dealt with your scoresheet: see the desk."))
    return sheet


def _send_sheet(player: Player, game: Game, data: str | bytes, file: str) -> Scoresheet:
    refused = sheet_refusal(game, player)
    if refused:
        raise ReportRefused(refused)
    text = bounds.record_text(data)  # refused over a bound (an EntryError), said in one line
    if not text.strip():
        raise ReportRefused(_("The scoresheet is empty: type your moves or choose a file."))
    with transaction.atomic():
        # The game's row locked before the player's sheet is looked for: two devices of one
        # link sending at once take turns, and the second replaces the first's sheet (or finds
        # it the same) instead of storing a second one. One sheet a game and player, whatever
        # the race (SQLite takes its write lock at the transaction's start: the same).
        Game.objects.select_for_update(of=("self",)).filter(pk=game.pk).values_list("pk").first()
        mine = own_sheet(game, player)
        if mine is None:
            return scoresheets.attach_scoresheet(game, text, player, file)
        if scoresheets.same_record(mine.gcg, text):
            return mine  # the same sheet sent twice: nothing changes
        if mine.resolved:
            raise ReportRefused(
                _("The desk has already dealt with your scoresheet: see the desk to change it.")
            )
        reason = _("sent again from the player's link")
        return scoresheets.update_scoresheet(mine, text, player, reason)


# -- the phone page's snapshot of the division ----------------------------------------------------


def snapshot_key(division_id: int, stamp: str) -> str:
    """The snapshot's cache key: the division's stamp as read with the player's link (any change
    to its players, rounds, games, scoresheets or settings, or its tournament's, replaces it)."""
    return f"phone-snapshot:{division_id}:{stamp}"


def kept_snapshot(division_id: int, stamp: str) -> dict[str, Any] | None:
    """The division's snapshot under this stamp if this worker holds it already."""
    return memos.PHONE_SNAPSHOTS.get(snapshot_key(division_id, stamp))


def snapshot(division: Division) -> dict[str, Any]:
    """What every player's phone page shows of the division, for the public (published rounds
    only), computed once per stamp for all its players and kept in the cache under it.

    Plain values only: each player's games (their side of each), rank and record, the players'
    numbers and names, the games' states for reporting and sending a scoresheet, which player
    sent a scoresheet of which game, who recorded each player's latest result (`_who_recorded`),
    the games' disputes (`disputes.side`) and whether self check-in is open (`checkin.is_open`).
    Seven queries and the cached standings; after a result, the worker's snapshot of the stamp
    before it with the parts the result changed (`_patched`).
    """

    def build() -> dict[str, Any]:
        return _build_snapshot(division)

    key = snapshot_key(division.pk, division.stamp)
    found = memos.PHONE_SNAPSHOTS.get(key)
    if found is None:
        found = _patched(division) or get_or_compute(key, build, 6 * 3600) or build()
        # Kept in the worker too: unpickling a 200-player snapshot from the shared cache on every
        # page build would cost more than the build of the page. Exact: the key holds the stamp.
        memos.PHONE_SNAPSHOTS.put(key, found)
    return found


def _patched(division: Division) -> dict[str, Any] | None:
    """The snapshot under the division's stamp made from one this worker holds under an
    earlier stamp, the games of the players each write since changed read again
    (`stamps.kept_before`); None where a write between changed more than games (the
    snapshot is built afresh) or this worker holds none of the stamps before.

    Exact: nothing else of the snapshot changes under a write of games' results, scoresheets
    or disputes alone (anything else replaces the frame stamp, and keeps no record); the
    players' games are read after the stamp, so never older than it; the ranks and records
    are read afresh (`read_model`, under the stamp)."""
    found = division_stamps.kept_before(
        division.pk, division.stamp, memos.PHONE_SNAPSHOTS, partial(snapshot_key, division.pk)
    )
    if found is None:
        return None
    base, players = found
    changed = _snapshot_games(division, division.tournament.locked, list(players), True)
    standing = Standing(division_stamps.read(division), division)
    return {**base, "games": {**base["games"], **changed}, "standing": standing}


def warm_after_commit(division_id: int) -> None:
    """After a result: the division's phones all poll for what changed, so its snapshot is made
    once, after the commit, by the write (`warm_snapshot`), rather than by the first poll of
    each worker while that worker's other polls wait on it."""
    transaction.on_commit(partial(warm_snapshot, division_id))


def warm_snapshot(division_id: int) -> None:
    """The division's snapshot under its new stamp, made and kept now (`snapshot`), where
    some player of it has a live link (no phone, no snapshot to make)."""
    links = PlayerLink.objects.filter(player__division_id=division_id, revoked__isnull=True)
    if not links.exists():
        return
    division = Division.objects.select_related("tournament").filter(pk=division_id).first()
    if division is not None:
        snapshot(division)


def _standing(division: Division) -> dict[int, dict[str, Any]]:
    """Each player's record and rank, by the player's key (the cached standings). Players of
    the same record and rank share one entry (`_standing_entry`): read, never changed."""
    return dict(Standing(division_stamps.read(division), division).items())


class Standing(Mapping[int, dict[str, Any]]):
    """`_standing` as a worker keeps it after a result: each entry made when it is asked for,
    from the standings' rows (a result moves most players' ranks; a poll asks for one)."""

    def __init__(self, stamps: division_stamps.DivisionStamps, division: Division) -> None:
        rows = read_model.division_standings(division, public=True, stamps=stamps)
        self._rows = dict(zip(map(_PLAYER_KEY, rows), rows, strict=True))

    def __getitem__(self, pk: int) -> dict[str, Any]:
        row = self._rows[pk]
        return _standing_entry(row.wins, row.losses, row.rank)

    def __iter__(self) -> Iterator[int]:
        return iter(self._rows)

    def __len__(self) -> int:
        return len(self._rows)


_PLAYER_KEY = attrgetter("player.pk")


@lru_cache(maxsize=4096)
def _standing_entry(wins: float, losses: float, rank: int | None) -> dict[str, Any]:
    return {"record": record_text(wins, losses), "rank": rank}


def _build_snapshot(division: Division) -> dict[str, Any]:
    """The division's snapshot as `snapshot` keeps it, read afresh."""
    tournament = division.tournament
    players = {
        pk: {"number": number, "name": name, "checked_in": checked_in}
        for pk, number, name, checked_in in Player.objects.filter(
            division_id=division.pk
        ).values_list("pk", "number", "name", "checked_in")
    }
    games = _snapshot_games(division, tournament.locked, list(players))
    return {
        "players": players,
        "games": games,
        "standing": _standing(division),
        "division": {
            "id": division.pk,
            "name": division.name,
            "check_in_open": checkin.is_open(division),
        },
        "tournament": {"name": tournament.name, "language": tournament.language},
    }


def _snapshot_games(
    division: Division, tournament_locked: bool, players: list[int], only: bool = False
) -> dict[int, list[dict[str, Any]]]:
    """Each player's published games (by the player's pk), their own side of each: the
    opponent, scores and first as the player sees them, whether they may report it or send its
    scoresheet, and whether they sent one (verified or not). `only`: `players` are some of the
    division's, and only their games are read."""
    locked = set(
        Round.objects.filter(division_id=division.pk, locked=True).values_list("number", flat=True)
    )
    theirs = Q(player1_id__in=players) | Q(player2_id__in=players)
    # Some players' games are found by the players' own indexes alone: a filter by the division
    # beside them has the database scan every game of the division (a player's games are all
    # of their division).
    read = Game.objects.filter(theirs) if only else Game.objects.filter(division_id=division.pk)
    sheets = Scoresheet.objects.filter(sent_by__isnull=False)
    sheets = sheets.filter(game__in=read) if only else sheets.filter(game__division=division)
    sent = {
        (game, player): verified
        for game, player, verified in sheets.values_list("game_id", "sent_by_id", "verified")
    }
    disputed = disputes.for_snapshot(division, players if only else None)
    games: dict[int, list[dict[str, Any]]] = {pk: [] for pk in players}
    rows = (
        read.published()
        .order_by("round", "table", "pk")
        .values_list(
            "pk", "round", "table", "player1_id", "player2_id", "first", "kind",
            "score1", "score2",
        )
    )  # fmt: skip
    for pk, rnd, table, one, two, first, kind, score1, score2 in rows:
        for me, other, mine, theirs, side in (
            (one, two, score1, score2, 1),
            (two, one, score2, score1, 2),
        ):  # noqa: E501
            mine_now = games.get(me) if me is not None else None
            if mine_now is None:
                continue
            has_result = kind != Game.VOID and score1 is not None
            state = GameState(
                self_report=division.self_report,
                theirs=two is not None,
                published=True,
                round=rnd,
                round_locked=rnd in locked,
                tournament_locked=tournament_locked,
                played=kind == Game.PLAYED,
                has_result=has_result,
            )
            mine_now.append(
                {
                    "game": pk,
                    "side": side,  # 1: the player is the game's player1
                    "round": rnd,
                    "table": table,
                    "opponent": other,
                    "first": 0 if not first else (1 if first == side else 2),
                    "kind": kind,
                    "score": mine if has_result else None,
                    "opponent_score": theirs if has_result else None,
                    "can_report": report_refusal(state) is None,
                    "can_send_sheet": sheet_state_refusal(state) is None,
                    "sheet": sent.get((pk, me)),
                    "recorded_by": None,
                    **disputes.side(
                        disputed.get(pk, []), me, has_result, rnd in locked or tournament_locked
                    ),
                }
            )
    _who_recorded(games)
    return games


# Who a phone says recorded its latest game's result (`_who_recorded`).
AGREED, DESK, DESK_CORRECTED = "agreed", "desk", "desk corrected"


def _who_recorded(games: dict[int, list[dict[str, Any]]]) -> None:
    """Each player's latest game with a result told who recorded it, from the change that
    wrote it last (`recorded_by`): the players' reports agreeing (a player wrote it), or the
    desk, naming the director where their full name is known. One query, of the latest games'
    result changes alone."""
    latest = [mine[-1] for mine in games.values() if mine and mine[-1]["score"] is not None]
    ids = {g["game"] for g in latest if g["opponent"] is not None}
    if not ids:
        return
    writes = (
        Change.objects.filter(
            game_id__in=ids,
            scoresheet__isnull=True,
            action__in=(Change.Action.CREATE, Change.Action.CORRECT, Change.Action.UNDO),
        )
        .order_by("pk")
        .values_list(
            "game_id", "action", "player_id", "user_id", "user__first_name", "user__last_name"
        )
    )
    found: dict[int, dict[str, str]] = {}
    for game, action, by_player, _user, first, last in writes:
        if by_player:  # a player: the two reports agreed (pks are never 0)
            found[game] = {"by": AGREED, "name": ""}
        else:  # a director, or no one (the command line): the desk
            how = DESK if action == Change.Action.CREATE else DESK_CORRECTED
            found[game] = {"by": how, "name": f"{first or ''} {last or ''}".strip()}
    for g in latest:
        g["recorded_by"] = found.get(g["game"])
