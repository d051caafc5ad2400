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
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from tournament.engine.patched import GONE, _Gone, patched
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
    rater, known, pairings, scheduled = _prepared(players, rounds, system, max_rounds)
    after, _held = _rated_rounds(rater, players, pairings, scheduled, memo, hold=False)
    return {p.id: PlayerRatings(p.id, p.rating, tuple(after[p.id])) for p in players}


@dataclass(frozen=True)
class RatedEvent:
    """An event's ratings after every round (`ratings`, as `rate_event` gives them) with what
    they were computed from, kept to rate the event again after a change to a few players'
    games (`rerate_event`). Read-only: shared as it is."""

    system: str
    players: tuple[RatedPlayer, ...]
    known: frozenset[PlayerId]
    scheduled: int
    rounds: tuple[Sequence[Game], ...]  # each round's games as given (kept, not copied)
    pairings: tuple[list[Pairing] | None, ...]  # each round's rated games (None: not read yet)
    ratings: Mapping[PlayerId, PlayerRatings]
    held: _Nsa2008Held | None  # the last round's computation, where the system keeps one


def rated_event(
    players: Sequence[RatedPlayer],
    rounds: Sequence[Sequence[Game]],
    *,
    system: str = "nsa2008",
    max_rounds: int | None = None,
    memo: RatingsMemo | None = None,
) -> RatedEvent:
    """`rate_event`'s ratings, with what `rerate_event` rates them again from: the last round
    is computed here (not taken from the `memo`), with its parts kept. The rounds' lists are
    kept as they are, not copied: the caller does not change them after."""
    rater, known, pairings, scheduled = _prepared(players, rounds, system, max_rounds)
    after, held = _rated_rounds(rater, players, pairings, scheduled, memo, hold=True)
    return RatedEvent(
        system,
        tuple(players),
        frozenset(known),
        scheduled,
        tuple(rounds),
        tuple(pairings),
        {p.id: PlayerRatings(p.id, p.rating, tuple(after[p.id])) for p in players},
        held,
    )


def rerate_event(
    kept: RatedEvent,
    rounds: Sequence[Sequence[Game]],
    *,
    changed_rounds: Iterable[int],
    changed_players: Iterable[PlayerId],
    max_rounds: int | None = None,
) -> tuple[RatedEvent, set[PlayerId] | None]:
    """The event's ratings after a change to its games, from those `kept` before it, and the
    players whose ratings may differ from those kept (None: any player's). Equal to
    `rated_event` of the same players and `rounds`, exactly.

    `rounds`: every round's games now, the same as `kept.rounds` but in `changed_rounds` and
    in the rounds `kept` has not (more rounds played); in a round that changed, only the games
    of `changed_players` differ (a game that changed, as it was and as it is, has both its
    players among them). `max_rounds` as for `rated_event`; the rounds' lists are kept, not
    copied, as there.

    The ratings after each round before the first that changed or was added are those kept
    (computed from those rounds alone, which are the same). Where the one round that changed is
    the last, a system that keeps its computation of that round (nsa2008) rates again only the
    changed players and their opponents (`Nsa2008.rerate`); otherwise each round from the first
    changed or added is rated again from its start. A change to the event's length (its
    segments) rates it afresh.
    """
    last, before = len(rounds), len(kept.rounds)
    scheduled = last if max_rounds is None else max_rounds
    if scheduled != kept.scheduled:
        system = kept.system
        return rated_event(kept.players, rounds, system=system, max_rounds=max_rounds), None
    if scheduled < last:
        raise RatingInputError(f"{last} rounds were played but the event has only {scheduled}")
    changed = sorted({n for n in changed_rounds if 1 <= n <= min(last, before)})
    if last == before and not changed:
        return kept, set()

    def fresh(n: int) -> bool:
        return n > before or n in changed

    now = tuple(rounds[n - 1] if fresh(n) else kept.rounds[n - 1] for n in range(1, last + 1))
    pairings = [None if fresh(n) else kept.pairings[n - 1] for n in range(1, last + 1)]
    rater = rating_system(kept.system)
    if changed == [last] == [before] and kept.held is not None and isinstance(rater, Nsa2008):
        again = rater.rerate(kept.held, now[last - 1], set(changed_players), kept.known, last)
        if again is not None:
            held, final = again
            ratings: dict[PlayerId, PlayerRatings] = {}
            for pid, rating in final.items():
                was = kept.ratings[pid]
                ratings[pid] = PlayerRatings(pid, was.before, (*was.after_round[:-1], rating))
            made = RatedEvent(
                kept.system,
                kept.players,
                kept.known,
                kept.scheduled,
                now,
                tuple(pairings),
                patched(kept.ratings, ratings),
                held,
            )
            return made, set(final)
    for number, games in enumerate(now, 1):
        if pairings[number - 1] is None:
            pairings[number - 1] = _pairings_of_round(number, games, kept.known)
    read = [p for p in pairings if p is not None]
    # Rated again from the first round changed or added; with fewer rounds, the last is rated
    # again for its computation to be kept.
    first = max(1, min([*changed, before + 1, last if last < before else before + 1]))
    after = {pid: list(r.after_round[: first - 1]) for pid, r in kept.ratings.items()}
    holding: _Nsa2008Held | None = None
    for played in range(first, last + 1):
        if played == last and isinstance(rater, Nsa2008):
            holding, rated = rater.rate_held(kept.players, read, kept.scheduled)
        else:
            rated = rater.rate(kept.players, read[:played], kept.scheduled)
        for player in kept.players:
            after[player.id].append(rated[player.id])
    made = RatedEvent(
        kept.system,
        kept.players,
        kept.known,
        kept.scheduled,
        now,
        tuple(read),
        {p.id: PlayerRatings(p.id, p.rating, tuple(after[p.id])) for p in kept.players},
        holding,
    )
    return made, None


def _prepared(
    players: Sequence[RatedPlayer],
    rounds: Sequence[Iterable[Game]],
    system: str,
    max_rounds: int | None,
) -> tuple[RatingSystem, set[PlayerId], list[list[Pairing]], int]:
    rater = rating_system(system)
    _check_players(players)
    known = {p.id for p in players}
    pairings = [_pairings_of_round(n, games, known) for n, games in enumerate(rounds, 1)]
    scheduled = len(pairings) if max_rounds is None else max_rounds
    if scheduled < len(pairings):
        raise RatingInputError(
            f"{len(pairings)} rounds were played but the event has only {scheduled}"
        )
    return rater, known, pairings, scheduled


def _rated_rounds(
    rater: RatingSystem,
    players: Sequence[RatedPlayer],
    pairings: list[list[Pairing]],
    scheduled: int,
    memo: RatingsMemo | None,
    *,
    hold: bool,
) -> tuple[dict[PlayerId, list[int]], _Nsa2008Held | None]:
    """Each player's rating after each round; with `hold`, the last round computed with its
    parts kept (where the system keeps them)."""
    # tsh rates the division afresh after each round from the results so far, so the rating
    # after round k does not depend on anything entered later.
    after: dict[PlayerId, list[int]] = {p.id: [] for p in players}
    keys = _prefix_keys(rater, players, pairings, scheduled) if memo is not None else []
    kept = dict(memo.get_many(keys)) if memo is not None else {}
    computed: dict[str, dict[PlayerId, int]] = {}
    held: _Nsa2008Held | None = None
    for played in range(1, len(pairings) + 1):
        holding = hold and played == len(pairings) and isinstance(rater, Nsa2008)
        ratings = kept.get(keys[played - 1]) if keys and not holding else None
        if ratings is None:
            if holding:
                assert isinstance(rater, Nsa2008)  # noqa: S101 - `holding` says so
                held, ratings = rater.rate_held(players, pairings[:played], scheduled)
            else:
                ratings = rater.rate(players, pairings[:played], scheduled)
            if keys and keys[played - 1] not in kept:
                computed[keys[played - 1]] = ratings
        for player in players:
            after[player.id].append(ratings[player.id])
    if memo is not None and computed:
        memo.set_many(computed)
    return after, held


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


def _pairings_of_round(
    number: int, games: Iterable[Game], known: AbstractSet[PlayerId]
) -> list[Pairing]:
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


def _games_by_player(games: Iterable[Pairing]) -> dict[PlayerId, tuple[PlayerId, float]]:
    """Each player's rated game among `games` (one a player): (opponent, share of a win)."""
    found: dict[PlayerId, tuple[PlayerId, float]] = {}
    for game in games:
        first_wins = _share_of_win(game.first_score, game.second_score)
        found[game.first] = (game.second, first_wins)
        found[game.second] = (game.first, 1 - first_wins)
    return found


@dataclass(slots=True)
class _Record:
    """One player's rated games in one segment, in round order."""

    opponents: list[PlayerId]
    wins: float = 0.0


@dataclass(frozen=True, slots=True)
class _Segment:
    """One segment's computation, each part by player: what `Nsa2008.rerate` starts from."""

    first: int  # its first and last round
    last: int
    start: Mapping[PlayerId, float]  # the ratings at its start (0: unrated)
    records: Mapping[PlayerId, _Record]
    effective: Mapping[PlayerId, float]  # the start, or a newcomer's estimate
    bonus: Mapping[PlayerId, float]  # the acceleration bonus, of the players who earn one
    settled: Mapping[PlayerId, float]  # the new rating with its bonus, held at the floor


@dataclass(frozen=True, slots=True)
class _Nsa2008Held:
    """The computation of the ratings after the last round played (`Nsa2008.rate_held`): the
    segment that holds that round, with what a player's rating after it is computed from."""

    career: dict[PlayerId, int]
    order: dict[PlayerId, int]  # each player's place in the players' order
    segment: _Segment
    later: tuple[tuple[int, int], ...]  # the segments after it: none of their rounds played
    # Each player's rated game of the last round played: (opponent, share of a win).
    last_games: Mapping[PlayerId, tuple[PlayerId, float]]


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
        ratings: Mapping[PlayerId, float] = {p.id: p.rating for p in players}
        career = {p.id: p.career_games for p in players}
        for first, last in nsa2008_segments(max_rounds):
            ratings = self._segment(first, last, ratings, career, rounds)[1]
        return {pid: round_half_up(r) for pid, r in ratings.items()}

    def rate_held(
        self,
        players: Sequence[RatedPlayer],
        rounds: Sequence[Sequence[Pairing]],
        max_rounds: int,
    ) -> tuple[_Nsa2008Held, dict[PlayerId, int]]:
        """`rate`'s ratings, and the computation of the segment that holds the last round of
        `rounds` (`rerate` starts from it)."""
        ratings: Mapping[PlayerId, float] = {p.id: p.rating for p in players}
        career = {p.id: p.career_games for p in players}
        segments = nsa2008_segments(max_rounds)
        played = len(rounds)
        holding = next((i for i, (_, last) in enumerate(segments) if played <= last), 0)
        held: _Segment | None = None
        for at, (first, last) in enumerate(segments):
            segment, ratings = self._segment(first, last, ratings, career, rounds)
            if at == holding:
                held = segment
        assert held is not None  # noqa: S101 - every event has a segment
        order = {p.id: at for at, p in enumerate(players)}
        final = {pid: round_half_up(r) for pid, r in ratings.items()}
        last_games = _games_by_player(rounds[-1] if rounds else ())
        later = tuple(segments[holding + 1 :])
        return _Nsa2008Held(career, order, held, later, last_games), final

    def rerate(
        self,
        held: _Nsa2008Held,
        games: Iterable[Game],
        changed: set[PlayerId],
        known: AbstractSet[PlayerId],
        played: int,
    ) -> tuple[_Nsa2008Held, dict[PlayerId, int]] | None:
        """The computation of the ratings after round `played`, the last played, from `held`
        (their computation before a change to that round alone, whose games are now `games`),
        and the rating after it of every player whose rating may differ; None where they are to
        be computed afresh.

        Only the games of the `changed` players differ (a changed game has both its players
        among them, as it was and as it is), and none of them was unrated at the start of the
        segment: every other player's record is as it was, and so are the newcomers'
        estimates, which come from the newcomers' records alone. The changed players' ratings
        are computed again from their records, then the feedback of every player who met one of
        them whose bonus changed, added up from scratch in the order the full computation adds
        it (by the place of the player it comes from), then the later segments (without a game)
        of those players.
        Exact: every float is the one the full computation makes. What is kept of `held` is
        shared, not copied (`patched`): the work is in proportion to the players rated again."""
        segment = held.segment
        start = segment.start
        if not segment.first <= played <= segment.last:
            return None
        if any(start.get(pid, 0) == 0 for pid in changed):
            return None  # a newcomer's game changed (or a player not in the event)
        now = self._pairings_of(played, games, changed, known)
        if now is None or any(
            p in held.last_games and held.last_games[p][0] not in changed for p in changed
        ):
            return None  # a game of a player not among the changed ones differs
        records: dict[PlayerId, _Record] = {}
        for pid in changed:
            kept = segment.records[pid]
            opponents, wins = kept.opponents, kept.wins
            was = held.last_games.get(pid)
            if was is not None:  # the player's last game of the segment: the round played
                opponents, wins = opponents[:-1], wins - was[1]
            game = now.get(pid)
            if game is not None:
                opponents, wins = [*opponents, game[0]], wins + game[1]
            records[pid] = _Record(opponents, wins)
        all_records = patched(segment.records, records)
        bonus: dict[PlayerId, float | _Gone] = {}
        settled: dict[PlayerId, float] = {}
        # Whose feedback may change: the changed players, and everyone who met one whose
        # bonus changed (every other player's opponents and their bonuses are as they were).
        touched = set(changed)
        for pid in changed:
            spent = self._spent(pid, start, all_records, segment.effective, held.career[pid])
            earned = self._bonus(start[pid], spent, records[pid])
            bonus[pid] = GONE if earned is None else earned
            settled[pid] = self._settled(start[pid], spent, earned)
            if earned != segment.bonus.get(pid):
                touched.update(records[pid].opponents)
                touched.update(segment.records[pid].opponents)
        all_bonus = patched(segment.bonus, bonus)
        all_settled = patched(segment.settled, settled)
        end: dict[PlayerId, int] = {}
        for pid in touched:
            feedback = self._feedback_of(pid, start, all_records, all_bonus, held.order)
            end[pid] = round_half_up(all_settled[pid] + feedback)
        again = _Segment(
            segment.first,
            segment.last,
            start,
            all_records,
            segment.effective,
            all_bonus,
            all_settled,
        )
        # The later segments have no game: each player's rating goes through them alone.
        ratings: Mapping[PlayerId, float] = end
        for first, last in held.later:
            ratings = self._segment(first, last, ratings, held.career, [])[1]
        final = {pid: round_half_up(ratings[pid]) for pid in touched}
        games_now = {pid: now.get(pid, GONE) for pid in changed}
        made = _Nsa2008Held(
            held.career, held.order, again, held.later, patched(held.last_games, games_now)
        )
        return made, final

    @staticmethod
    def _pairings_of(
        played: int, games: Iterable[Game], changed: set[PlayerId], known: AbstractSet[PlayerId]
    ) -> dict[PlayerId, tuple[PlayerId, float]] | None:
        """The rated game of each changed player in the round (opponent, share of a win), from
        the round's games; None if one is against a player not among the changed."""
        mine = [g for g in games if g.player in changed or g.opponent in changed]
        rated = _pairings_of_round(played, mine, known)
        if any(game.first not in changed or game.second not in changed for game in rated):
            return None
        return _games_by_player(rated)

    def _segment(
        self,
        first: int,
        last: int,
        start: Mapping[PlayerId, float],
        career: dict[PlayerId, int],
        rounds: Sequence[Sequence[Pairing]],
    ) -> tuple[_Segment, dict[PlayerId, int]]:
        """A segment's computation, and the ratings at its end from those at its start (0 =
        unrated) and the games of its rounds among `rounds` (`rounds[0]`: round 1)."""
        records = {pid: _Record([]) for pid in start}
        for games in rounds[first - 1 : last]:
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
        spent = {pid: self._spent(pid, start, records, effective, career[pid]) for pid in start}

        bonus: dict[PlayerId, float] = {}
        feedback = dict.fromkeys(start, 0.0)
        if self.acceleration:
            for pid, old in start.items():
                earned = self._bonus(old, spent[pid], records[pid])
                if earned is None:
                    continue
                bonus[pid] = earned
                # The opponents it was gained from were underrated too; newcomers have no
                # rating yet to correct.
                for opponent in records[pid].opponents:
                    if start[opponent]:
                        feedback[opponent] += earned / self.feedback_divisor
        settled = {
            pid: self._settled(old, spent[pid], bonus.get(pid)) for pid, old in start.items()
        }
        # Feedback comes after the floor and before rounding, as in tsh.
        end = {pid: round_half_up(settled[pid] + feedback[pid]) for pid in start}
        return _Segment(first, last, start, records, effective, bonus, settled), end

    @staticmethod
    def _spent(
        pid: PlayerId,
        start: Mapping[PlayerId, float],
        records: Mapping[PlayerId, _Record],
        effective: Mapping[PlayerId, float],
        career_games: int,
    ) -> float:
        """A player's new rating from their excess wins, before any bonus (a newcomer's: their
        estimate)."""
        old = start[pid]
        if not old:
            return effective[pid]
        record = records[pid]
        if not record.opponents:
            return old
        # Subtracted one game at a time, as tsh does: the order of float additions matters
        # for a total that lands near .5.
        excess = record.wins
        rating = effective[pid]
        for opponent in record.opponents:
            excess -= nsa2008_expectation(rating, effective[opponent])
        return spend_excess(old, excess, career_games)

    def _bonus(self, old: float, spent: float, record: _Record) -> float | None:
        """A rated player's acceleration bonus, if they earn one."""
        if not old or not self.acceleration:
            return None
        games_played = len(record.opponents)
        bonus = self.acceleration * (spent - old - self.games_per_free_point * games_played)
        return bonus if bonus > 0 else None

    def _settled(self, old: float, spent: float, bonus: float | None) -> float:
        """The new rating with its bonus, held at the floor (a rated player's)."""
        new = spent if bonus is None else spent + bonus
        if old and self.floor is not None and new < self.floor:
            return self.floor
        return new

    def _feedback_of(
        self,
        pid: PlayerId,
        start: Mapping[PlayerId, float],
        records: Mapping[PlayerId, _Record],
        bonus: Mapping[PlayerId, float],
        order: dict[PlayerId, int],
    ) -> float:
        """A player's feedback from their accelerated opponents, added in the order `_segment`
        adds it: by each opponent's place in the players' order (an opponent met twice gives it
        twice, one after the other)."""
        total = 0.0
        if not start[pid]:
            return total
        for opponent in sorted(records[pid].opponents, key=order.__getitem__):
            earned = bonus.get(opponent)
            if earned is not None:
                total += earned / self.feedback_divisor
        return total

    def _rate_newcomers(
        self, start: Mapping[PlayerId, float], records: Mapping[PlayerId, _Record]
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
