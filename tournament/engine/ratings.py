"""Ratings: pre-event ratings and each round's games in; the rating after every round out.

The one system implemented is NASPA's "nsa2008", computed the way tsh computes it (the Perl modules
`Ratings` and `Ratings::Elo`; `shared/reference/ratings.md` §2), so that the ratings written here
agree with the `newr` values tsh writes into a `.t` file. Other systems plug in by name through
`register_rating_system`.

Plain data only: no Django, no database.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from tournament.engine.standings import Game, GameKind, PlayerId, mirrors


class RatingInputError(ValueError):
    """The players or games handed in cannot be rated as they stand (a mistake in the data)."""


class UnknownRatingSystem(KeyError):
    """No rating system is registered under the name asked for."""


@dataclass(frozen=True, slots=True)
class RatedPlayer:
    """A player as the rating list knew them before the event."""

    id: PlayerId
    rating: float = 0  # 0 = unrated (a newcomer), as in a .t file
    career_games: int = 0  # rated games before the event: `lifeg` in a .t file


@dataclass(frozen=True, slots=True)
class PlayerRatings:
    """One player's rating before the event and after each round played so far."""

    player: PlayerId
    before: float
    after_round: tuple[int, ...]  # after_round[0] is the rating after round 1

    @property
    def final(self) -> float:
        return self.after_round[-1] if self.after_round else self.before


@dataclass(frozen=True, slots=True)
class Pairing:
    """A rated game between two players, from the first player's side."""

    first: PlayerId
    second: PlayerId
    first_score: int
    second_score: int


class RatingSystem(Protocol):
    """A rating system rates the games of some rounds of an event scheduled for `max_rounds`.

    `rate` returns every player's rating after all the rounds given. `max_rounds` is the event's
    full length, which may be more than the rounds played so far: systems that split long events
    into segments split by the schedule, not by what has been played.
    """

    @property
    def name(self) -> str: ...

    def rate(
        self,
        players: Sequence[RatedPlayer],
        rounds: Sequence[Sequence[Pairing]],
        max_rounds: int,
    ) -> dict[PlayerId, int]: ...


_SYSTEMS: dict[str, RatingSystem] = {}


def register_rating_system(system: RatingSystem) -> RatingSystem:
    """Make `system` available to `rate_event` under its name (replacing one of the same name)."""
    _SYSTEMS[system.name] = system
    return system


def rating_system(name: str) -> RatingSystem:
    try:
        return _SYSTEMS[name]
    except KeyError:
        known = ", ".join(sorted(_SYSTEMS))
        raise UnknownRatingSystem(f"no rating system {name!r} (known: {known})") from None


def rating_system_names() -> list[str]:
    return sorted(_SYSTEMS)


class RatingsMemo(Protocol):
    """Where the ratings after each round are kept between calls (Django's cache is one)."""

    def get_many(self, keys: list[str]) -> Mapping[str, dict[PlayerId, int]]: ...

    def set_many(self, data: dict[str, dict[PlayerId, int]]) -> object: ...


# This module's own source in every memo key: ratings kept by another version are not taken.
_CODE = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:16]


def _prefix_keys(
    rater: RatingSystem,
    players: Sequence[RatedPlayer],
    pairings: Sequence[Sequence[Pairing]],
    scheduled: int,
) -> list[str]:
    """For each round k, a key naming everything the ratings after round k are computed from:
    the code, the system, the event's length, the players and the games of rounds 1 to k."""
    people = [(p.id, p.rating, p.career_games) for p in players]
    digest = hashlib.sha256(repr((_CODE, rater, scheduled, people)).encode())
    keys = []
    for games in pairings:
        rows = [(g.first, g.second, g.first_score, g.second_score) for g in games]
        digest.update(repr(rows).encode())
        keys.append("ratings-after:" + digest.copy().hexdigest())
    return keys


def rate_event(
    players: Sequence[RatedPlayer],
    rounds: Sequence[Iterable[Game]],
    *,
    system: str = "nsa2008",
    max_rounds: int | None = None,
    memo: RatingsMemo | None = None,
) -> dict[PlayerId, PlayerRatings]:
    """Every player's rating after each round, as the named system computes it.

    `rounds[0]` holds the games of round 1, as `standings.Game`s: only games played between two
    players are rated (a bye, a forfeit of either kind, a result without an opponent is not).
    `max_rounds` is the scheduled length of the event
    (tsh's `max_rounds`); without it, the rounds given are taken to be the whole event.

    With a `memo`, the ratings after round k are taken from it when it holds them for the same
    players and games of rounds 1 to k, and kept in it when computed: a result entered in the
    last round rates that round again, not every round before it.
    """
    rater = rating_system(system)
    _check_players(players)
    known = {p.id for p in players}
    pairings = [_pairings_of_round(n, games, known) for n, games in enumerate(rounds, 1)]
    scheduled = len(pairings) if max_rounds is None else max_rounds
    if scheduled < len(pairings):
        raise RatingInputError(
            f"{len(pairings)} rounds were played but the event has only {scheduled}"
        )
    # tsh rates the division afresh after each round from the results so far, so the rating
    # after round k does not depend on anything entered later.
    after: dict[PlayerId, list[int]] = {p.id: [] for p in players}
    keys = _prefix_keys(rater, players, pairings, scheduled) if memo is not None else []
    kept = dict(memo.get_many(keys)) if memo is not None else {}
    computed: dict[str, dict[PlayerId, int]] = {}
    for played in range(1, len(pairings) + 1):
        ratings = kept.get(keys[played - 1]) if keys else None
        if ratings is None:
            ratings = rater.rate(players, pairings[:played], scheduled)
            if keys:
                computed[keys[played - 1]] = ratings
        for player in players:
            after[player.id].append(ratings[player.id])
    if memo is not None and computed:
        memo.set_many(computed)
    return {p.id: PlayerRatings(p.id, p.rating, tuple(after[p.id])) for p in players}


def _check_players(players: Sequence[RatedPlayer]) -> None:
    seen: set[PlayerId] = set()
    for player in players:
        if player.id in seen:
            raise RatingInputError(f"player {player.id!r} is listed twice")
        if player.rating < 0:
            raise RatingInputError(f"player {player.id!r} has a negative rating")
        if player.career_games < 0:
            raise RatingInputError(f"player {player.id!r} has a negative count of career games")
        seen.add(player.id)


def _pairings_of_round(number: int, games: Iterable[Game], known: set[PlayerId]) -> list[Pairing]:
    """The rated games of one round, each once; byes and forfeits dropped after being checked
    (`known`: the event's players)."""
    busy: dict[PlayerId, Game] = {}
    rated: list[Pairing] = []
    for game in games:
        for who in (game.player, game.opponent):
            if who is not None and who not in known:
                raise RatingInputError(f"round {number}: {who!r} is not a player of the event")
        if game.player == game.opponent:
            raise RatingInputError(f"round {number}: {game.player!r} is paired with themselves")
        earlier = busy.get(game.player)
        if earlier is not None:
            if mirrors(earlier, game):
                continue  # the same game written from the other side
            raise RatingInputError(f"round {number}: {game.player!r} has two games")
        if game.opponent is not None and game.opponent in busy:
            if mirrors(busy[game.opponent], game):
                continue
            raise RatingInputError(f"round {number}: {game.opponent!r} has two games")
        busy[game.player] = game
        if game.opponent is not None:
            busy[game.opponent] = game
        if game.opponent is not None and game.kind is GameKind.PLAYED:
            rated.append(Pairing(game.player, game.opponent, game.score, game.opponent_score))
    return rated


# --- nsa2008 -------------------------------------------------------------------------------------

LOGISTIC_FACTOR = 0.0031879
BAND_EDGES = (1800, 2000)
NEWCOMER_FLOOR = 500
NEWCOMER_SEARCH = (0, 3000)
NEWCOMER_ITERATIONS = 50
NEWCOMER_NO_RATED_OPPONENT = 1500


def nsa2008_expectation(rating: float, opponent_rating: float) -> float:
    """The share of a win a player rated `rating` is expected to score against `opponent_rating`."""
    # Written as tsh writes it (1 - 1/(1 + e^x)) rather than the equal 1/(1 + e^-x): the last bit
    # of a float can tip a rating that ends in .5 one way or the other.
    try:
        return 1 - 1 / (1 + math.exp(LOGISTIC_FACTOR * (rating - opponent_rating)))
    except OverflowError:
        # Ratings over 220,000 apart (Woogles exports its own ratings, in the millions): Perl's
        # exp gives infinity there, and tsh's expectation is then a certain win.
        return 1.0


# A player with this many career games is established: no longer provisional (nsa2008's
# larger multiplier below it).
ESTABLISHED_GAMES = 50


def nsa2008_multiplier(career_games: int, rating: float) -> int:
    """Points per excess win: smaller for established players and for the higher bands."""
    if career_games < ESTABLISHED_GAMES:
        return 30 if rating < 1800 else 24 if rating < 2000 else 15
    return 20 if rating < 1800 else 16 if rating < 2000 else 10


def nsa2008_segments(max_rounds: int) -> list[tuple[int, int]]:
    """First and last round (1-based) of each segment an event of `max_rounds` is rated in."""
    # tsh's MakeSplits: no segment may run longer than 16 games, so each segment sees
    # ratings that are at most 16 games old.
    last = max_rounds - 1
    if last < 16:
        return [(1, max_rounds)]
    if last < 35:
        half = last // 2
        return [(1, half + 1), (half + 2, max_rounds)]
    third, two_thirds = last // 3, (2 * last + 1) // 3
    return [(1, third + 1), (third + 2, two_thirds + 1), (two_thirds + 2, max_rounds)]


def spend_excess(rating: float, excess: float, career_games: int) -> float:
    """Turn excess wins into a new rating, at each band's multiplier when a band edge is crossed."""
    # Going up, a band is left at 1800 or 2000; going down at 1999 or 1799, so that the whole
    # change is never converted at the multiplier of a band the player has left.
    while excess:
        start = rating
        multiplier = nsa2008_multiplier(career_games, start)
        target = start + multiplier * excess
        if nsa2008_multiplier(career_games, target) == multiplier:
            return target
        if start < BAND_EDGES[0]:
            edge = BAND_EDGES[0]
        elif start < BAND_EDGES[1]:
            edge = BAND_EDGES[1] if excess > 0 else BAND_EDGES[0] - 1
        else:
            edge = BAND_EDGES[1] - 1
        excess -= (edge - start) / multiplier
        rating = edge
    return rating


PERFORMANCE_SEARCH = (0, 4000)


def performance_rating(opponents: Sequence[float], wins: float) -> int | None:
    """The rating at which the nsa2008 expectation against `opponents` (their pre-event
    ratings, rated opponents only) equals `wins`; a perfect or zero score aims at 95% or 5%,
    as tsh rates a newcomer. None without a rated opponent."""
    rated = [r for r in opponents if r]
    if not rated:
        return None
    played = len(rated)
    target = min(max(wins, played * 0.05), played * 0.95)
    found = binary_search(
        lambda x: sum(nsa2008_expectation(x, r) for r in rated) - target, *PERFORMANCE_SEARCH
    )
    return found


def round_half_up(value: float) -> int:
    # Perl's int(0.5 + x), which truncates towards zero; ratings are never negative here.
    return math.trunc(0.5 + value)


def binary_search(shortfall: Callable[[int], float], low: int, high: int) -> int:
    """tsh's `Search`: the last midpoint tried while closing in on the root of `shortfall`."""
    # It returns the last midpoint, not the bracket's low or high end; an integer rating one
    # point off would change a newcomer's rating.
    mid = low
    while high - low > 1:
        mid = (low + high) // 2
        if shortfall(mid) < 0:
            low = mid
        else:
            high = mid
    return mid


def _share_of_win(score: int, opponent_score: int) -> float:
    return ((score > opponent_score) - (score < opponent_score) + 1) / 2


@dataclass(slots=True)
class _Record:
    """One player's rated games in one segment."""

    opponents: list[PlayerId]
    wins: float = 0.0


@dataclass(frozen=True)
class Nsa2008:
    """NASPA's rating system since 2008, as tsh's `Ratings::Elo` with rating_system 'nsa2008'."""

    name: str = "nsa2008"
    floor: int | None = 1  # the lowest rating a rated player can fall to (None: no floor)
    acceleration: float = 1  # share of the acceleration bonus given
    feedback_divisor: int = 20  # each rated opponent of an accelerated player gets bonus / 20
    games_per_free_point: int = 5  # gains above 5 points a game count as acceleration
    newcomer_iterations: int = NEWCOMER_ITERATIONS

    def rate(
        self,
        players: Sequence[RatedPlayer],
        rounds: Sequence[Sequence[Pairing]],
        max_rounds: int,
    ) -> dict[PlayerId, int]:
        ratings: dict[PlayerId, float] = {p.id: p.rating for p in players}
        career = {p.id: p.career_games for p in players}
        for first, last in nsa2008_segments(max_rounds):
            games = [g for r in rounds[first - 1 : last] for g in r]
            ratings = dict(self._rate_segment(ratings, career, games))
        return {pid: round_half_up(r) for pid, r in ratings.items()}

    def _rate_segment(
        self,
        start: dict[PlayerId, float],
        career: dict[PlayerId, int],
        games: list[Pairing],
    ) -> dict[PlayerId, int]:
        """Ratings at the end of a segment, from the ratings at its start (0 = unrated)."""
        records = {pid: _Record([]) for pid in start}
        for game in games:
            first_wins = _share_of_win(game.first_score, game.second_score)
            records[game.first].opponents.append(game.second)
            records[game.first].wins += first_wins
            records[game.second].opponents.append(game.first)
            records[game.second].wins += 1 - first_wins

        estimates = self._rate_newcomers(start, records)
        # Veterans' expectations against a newcomer use the newcomer's estimate, unrounded; a
        # newcomer without a rated game stays unrated (0).
        effective = {pid: r if r else estimates.get(pid) or 0 for pid, r in start.items()}

        new: dict[PlayerId, float] = {}
        for pid, old in start.items():
            if not old:
                new[pid] = effective[pid]
                continue
            # Subtracted one game at a time, as tsh does: the order of float additions matters
            # for a total that lands near .5.
            excess = records[pid].wins
            for opponent in records[pid].opponents:
                excess -= nsa2008_expectation(effective[pid], effective[opponent])
            new[pid] = spend_excess(old, excess, career[pid]) if records[pid].opponents else old

        feedback = dict.fromkeys(start, 0.0)
        if self.acceleration:
            for pid, old in start.items():
                if not old:
                    continue
                games_played = len(records[pid].opponents)
                bonus = self.acceleration * (
                    new[pid] - old - self.games_per_free_point * games_played
                )
                if bonus <= 0:
                    continue
                new[pid] += bonus
                # The opponents it was gained from were underrated too; newcomers have no
                # rating yet to correct.
                for opponent in records[pid].opponents:
                    if start[opponent]:
                        feedback[opponent] += bonus / self.feedback_divisor

        for pid, old in start.items():
            if old and self.floor is not None and new[pid] < self.floor:
                new[pid] = self.floor
        # Feedback comes after the floor and before rounding, as in tsh.
        return {pid: round_half_up(new[pid] + feedback[pid]) for pid in start}

    def _rate_newcomers(
        self, start: dict[PlayerId, float], records: dict[PlayerId, _Record]
    ) -> dict[PlayerId, float]:
        """Iterated performance ratings of the unrated players who played a rated game."""
        unrated = [pid for pid, r in start.items() if not r]
        if not unrated:
            return {}
        current: dict[PlayerId, float] = {}
        target: dict[PlayerId, float] = {}
        for pid in unrated:
            record = records[pid]
            rated = [start[o] for o in record.opponents if start[o]]
            current[pid] = sum(rated) / len(rated) if rated else NEWCOMER_NO_RATED_OPPONENT
            games_played = len(record.opponents)
            # A perfect or zero score has no finite performance rating: aim at 95% or 5%.
            if record.wins == 0:
                target[pid] = games_played * 0.05
            elif record.wins == games_played:
                target[pid] = games_played * 0.95
            else:
                target[pid] = record.wins
        playing = [pid for pid in unrated if records[pid].opponents]

        def shortfall(pid: PlayerId, rating: float, estimates: dict[PlayerId, float]) -> float:
            expected = 0.0
            for opponent in records[pid].opponents:
                against = start[opponent] or estimates.get(opponent) or 0
                expected += nsa2008_expectation(rating, against)
            return expected - target[pid]

        def performance(pid: PlayerId, estimates: dict[PlayerId, float]) -> float:
            found = binary_search(lambda x: shortfall(pid, x, estimates), *NEWCOMER_SEARCH)
            return max(found, NEWCOMER_FLOOR)

        def capped(pid: PlayerId, rating: float, best_opponent: float) -> float:
            # Stay near the strongest opponent: 400 points above it for an all-win record.
            record = records[pid]
            if best_opponent:
                limit = best_opponent + 400 * record.wins / len(record.opponents)
                if rating > limit:
                    return limit
            return rating

        for _ in range(self.newcomer_iterations):
            changed = False
            following: dict[PlayerId, float] = {}
            for pid in playing:
                opponents = records[pid].opponents
                best_rated = max((start[o] for o in opponents if start[o]), default=0)
                best_unrated = max(
                    (current[o] for o in opponents if not start[o] and o in current), default=0
                )
                rating = capped(pid, performance(pid, current), best_rated or best_unrated)
                changed = changed or rating != current[pid]
                following[pid] = rating
            # Newcomers without a game drop out here: they have no estimate to keep.
            current = following
            if not changed:
                return current

        # No fixed point (the estimates cycle): tsh averages a further round of iterations.
        totals = dict.fromkeys(playing, 0.0)
        for _ in range(self.newcomer_iterations):
            following = {}
            for pid in playing:
                best_rated = max((start[o] for o in records[pid].opponents), default=0)
                following[pid] = capped(pid, performance(pid, current), best_rated)
                totals[pid] += following[pid]
            current = following
        return {pid: totals[pid] / self.newcomer_iterations for pid in playing}


register_rating_system(Nsa2008())
# NASPA's CSW ratings as tsh computes them: tsh's Ratings::Elo gives 'naspa-csw' the parameters
# of 'nsa2008' (logistic expectation, no Homan approximations, the same multipliers, segments,
# acceleration and feedback) except `floor => 1`, so a rated player's rating is not held at 1.
register_rating_system(Nsa2008(name="naspa-csw", floor=None))
