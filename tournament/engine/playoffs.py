"""Playoffs after the last round: a best-of-N final between the top two, as national
championships hold it, and single-elimination brackets seeded from the standings (Woogles'
elimination mode).

A best-of-N series is decided as soon as one player has won more than half of the N games
(3 of 5: after 3–0, 3–1 or 3–2); a tie counts half to each, so a series may need more games
than planned only if ties leave it level, and then it goes on game by game until one leads
(`needs_more`). Who goes first alternates, the higher seed first in game 1.

A bracket holds the next power of two of seeds: seed 1 meets the last, 2 the next to last …,
placed so that 1 and 2 can meet only in the final; a missing seed is a bye.

Plain data only: no Django, no database.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

PlayerId = Hashable


class PlayoffError(ValueError):
    """A playoff that cannot be held as asked; the message is a sentence for the director."""


@dataclass(frozen=True, slots=True)
class SeriesGame:
    score1: int  # the higher seed's
    score2: int


@dataclass(frozen=True, slots=True)
class Series:
    """A best-of-`length` series between `seed1` (the higher seed) and `seed2`."""

    seed1: PlayerId
    seed2: PlayerId
    length: int
    games: tuple[SeriesGame, ...] = ()

    def __post_init__(self) -> None:
        if self.length < 1 or self.length % 2 == 0:
            raise PlayoffError(f"a best-of-{self.length} series: N must be odd and at least 1")

    @property
    def wins(self) -> tuple[float, float]:
        one = sum(
            1 if g.score1 > g.score2 else 0.5 if g.score1 == g.score2 else 0 for g in self.games
        )
        return one, len(self.games) - one

    @property
    def spread(self) -> int:
        return sum(g.score1 - g.score2 for g in self.games)

    @property
    def needed(self) -> float:
        """The wins that decide it: more than half of the games planned."""
        return self.length // 2 + 1

    @property
    def winner(self) -> PlayerId | None:
        one, two = self.wins
        if one >= self.needed or (self.needs_more and one > two):
            return self.seed1
        if two >= self.needed or (self.needs_more and two > one):
            return self.seed2
        return None

    @property
    def decided(self) -> bool:
        return self.winner is not None

    @property
    def needs_more(self) -> bool:
        """All the games planned are played and ties leave it level: one more game is played."""
        return len(self.games) >= self.length

    def add(self, score1: int, score2: int) -> Series:
        """The series with one more game; PlayoffError once it is decided."""
        if self.decided:
            raise PlayoffError("the series is decided: no more games are played")
        return Series(
            self.seed1, self.seed2, self.length, (*self.games, SeriesGame(score1, score2))
        )

    def first_in(self, game: int) -> PlayerId:
        """Who goes first in game `game` (1-based): the higher seed in the odd games."""
        return self.seed1 if game % 2 == 1 else self.seed2

    @property
    def result(self) -> str:
        """The series as it stands: "3–2" from the higher seed's side, halves kept."""
        one, two = self.wins
        return f"{_count(one)}–{_count(two)}"


def _count(x: float) -> str:
    return str(int(x)) if x == int(x) else f"{x:g}"


def final(standings: Sequence[PlayerId], length: int = 5) -> Series:
    """A best-of-`length` final between the top two of the standings (in rank order)."""
    if len(standings) < 2:
        raise PlayoffError("a final needs two players in the standings")
    return Series(standings[0], standings[1], length)


def bracket_order(size: int) -> list[int]:
    """The seeds (1-based) in bracket order for a bracket of `size` (a power of two): 1 v size,
    and the top two seeds in opposite halves. 8: [1, 8, 4, 5, 2, 7, 3, 6]."""
    if size < 2 or size & (size - 1):
        raise PlayoffError(f"a bracket holds a power of two of players, not {size}")
    order = [1, 2]
    while len(order) < size:
        n = len(order) * 2
        order = [x for seed in order for x in (seed, n + 1 - seed)]
    return order


def first_round(seeded: Sequence[PlayerId]) -> list[tuple[PlayerId, PlayerId | None]]:
    """The first round of a single-elimination bracket of `seeded` players (best first): pairs
    in bracket order, the higher seed first; a top seed without an opponent has a bye."""
    if len(seeded) < 2:
        raise PlayoffError("a bracket needs two players at least")
    size = 1
    while size < len(seeded):
        size *= 2
    order = bracket_order(size)
    pairs: list[tuple[PlayerId, PlayerId | None]] = []
    for i in range(0, size, 2):
        a, b = order[i], order[i + 1]
        high, low = min(a, b), max(a, b)
        pairs.append((seeded[high - 1], seeded[low - 1] if low <= len(seeded) else None))
    return pairs


def next_round(winners: Sequence[PlayerId]) -> list[tuple[PlayerId, PlayerId]]:
    """The next round of a bracket from the winners of the last, in bracket order: the winners
    of matches 1 and 2 meet, then 3 and 4 …"""
    if len(winners) < 2 or len(winners) % 2:
        raise PlayoffError(f"{len(winners)} winners cannot make a round of a bracket")
    return [(winners[i], winners[i + 1]) for i in range(0, len(winners), 2)]


@dataclass(frozen=True, slots=True)
class Match:
    """One match of a playoff: a best-of-N series, or a bye (`series` None) for `bye`."""

    stage: int  # 1: the first round of the bracket; the last stage is the final
    slot: int  # 1-based, in bracket order
    series: Series | None
    bye: PlayerId | None = None

    @property
    def winner(self) -> PlayerId | None:
        return self.bye if self.series is None else self.series.winner


def playoff(
    seeded: Sequence[PlayerId],
    length: int,
    games: dict[tuple[int, int], Sequence[SeriesGame]] | None = None,
) -> list[list[Match]]:
    """A playoff as it stands: its stages, each a list of matches in bracket order, from the
    seeds (best first), the length of every series, and the games played in each match
    (keyed by stage and slot, in order). Two seeds are a best-of-N final; more are a
    single-elimination bracket whose next stage is known once every match of a stage is
    decided. Games given for a match that does not exist yet are ignored."""
    played = games or {}
    stages: list[list[Match]] = []
    pairs: list[tuple[PlayerId, PlayerId | None]] = list(first_round(seeded))
    stage = 1
    while True:
        matches = []
        for slot, (high, low) in enumerate(pairs, start=1):
            if low is None:
                matches.append(Match(stage, slot, None, high))
                continue
            series = Series(high, low, length)
            for g in played.get((stage, slot), ()):
                if series.decided:
                    break
                series = series.add(g.score1, g.score2)
            matches.append(Match(stage, slot, series))
        stages.append(matches)
        winners = [m.winner for m in matches]
        if len(matches) == 1 or any(w is None for w in winners):
            return stages
        pairs = list(next_round([w for w in winners if w is not None]))
        stage += 1


def champion(stages: Sequence[Sequence[Match]]) -> PlayerId | None:
    """The playoff's winner once its final is decided."""
    last = stages[-1] if stages else []
    return last[0].winner if len(last) == 1 else None
