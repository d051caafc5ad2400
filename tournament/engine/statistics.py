"""A division's statistics, as TSH's statistics reports and Woogles' players read them.

Played games in, figures out: each player's average score for and against; the highest
scores, the highest losing scores, the lowest winning scores and the highest combined scores;
the biggest upsets (a win over a higher-rated player, by the difference of their pre-event
ratings); how often the player who went first won; the longest winning streaks; and, where
scoresheets give them, the highest-scoring plays and the bingos.

What counts:
- only games played between two players with both scores count: a bye or a forfeit has no
  score of its own and is left out of every figure;
- a tie is neither a win nor a loss for the high-loss and low-win lists; it counts half a win
  for the first player's win rate, and ends a winning streak;
- a streak runs over a player's played games in round order: a bye or a round off neither
  ends nor extends it;
- an upset needs both players rated (a rating of 0 is unrated);
- a list keeps its `size` best entries, and every entry level with the last of them.

Plain data only: no Django, no database.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

PlayerId = Hashable
T = TypeVar("T")

LIST_SIZE = 10


@dataclass(frozen=True, slots=True)
class Entrant:
    id: PlayerId
    name: str
    rating: int = 0  # pre-event; 0 = unrated


@dataclass(frozen=True, slots=True)
class Played:
    """One game between two players, with both scores; `first` is 1 or 2 for who went first,
    0 when it is not known."""

    round: int
    player1: PlayerId
    player2: PlayerId
    score1: int
    score2: int
    first: int = 0


@dataclass(frozen=True, slots=True)
class Play:
    """One scored turn of a scoresheet: the engine's computed score, the play as written, and
    the number of tiles it placed."""

    round: int
    player: PlayerId
    opponent: PlayerId
    score: int
    text: str
    tiles: int


@dataclass(frozen=True, slots=True)
class Score:
    """One game seen from `player`'s side."""

    round: int
    player: Entrant
    opponent: Entrant
    score: int
    opponent_score: int

    @property
    def combined(self) -> int:
        return self.score + self.opponent_score

    @property
    def spread(self) -> int:
        return self.score - self.opponent_score


@dataclass(frozen=True, slots=True)
class Average:
    player: Entrant
    games: int
    points_for: int
    points_against: int

    @property
    def average_for(self) -> float | None:
        return self.points_for / self.games if self.games else None

    @property
    def average_against(self) -> float | None:
        return self.points_against / self.games if self.games else None


@dataclass(frozen=True, slots=True)
class Upset:
    game: Score  # from the winner's side
    difference: int  # the loser's rating less the winner's


@dataclass(frozen=True, slots=True)
class Streak:
    player: Entrant
    length: int
    start: int  # the round of its first win
    end: int  # the round of its last win
    running: bool  # not ended yet: the player's last game was a win


@dataclass(frozen=True, slots=True)
class HighPlay:
    player: Entrant
    opponent: Entrant
    round: int
    score: int
    text: str


@dataclass(frozen=True, slots=True)
class BingoCount:
    player: Entrant
    bingos: int
    games: int  # the player's games with a scoresheet


@dataclass
class Statistics:
    games: int = 0
    averages: list[Average] = field(default_factory=list)  # by average for, highest first
    average_score: float | None = None  # of every score of every game
    average_winning: float | None = None
    average_losing: float | None = None
    high_games: list[Score] = field(default_factory=list)
    high_losses: list[Score] = field(default_factory=list)
    low_wins: list[Score] = field(default_factory=list)
    high_combined: list[Score] = field(default_factory=list)  # from the winner's side
    upsets: list[Upset] = field(default_factory=list)
    first_games: int = 0  # games whose first player is known
    first_wins: float = 0  # won by the player who went first; a tie counts half
    streaks: list[Streak] = field(default_factory=list)
    sheets: int = 0  # games with a scoresheet
    high_plays: list[HighPlay] = field(default_factory=list)
    bingos: list[HighPlay] = field(default_factory=list)  # every bingo, highest first
    bingo_counts: list[BingoCount] = field(default_factory=list)  # most first

    @property
    def first_win_rate(self) -> float | None:
        return self.first_wins / self.first_games if self.first_games else None


def top(items: Iterable[T], key: Callable[[T], float], size: int = LIST_SIZE) -> list[T]:
    """The `size` items of highest `key`, and every item level with the last of them; in order
    of `key`, highest first (a stable sort: items level keep the order given)."""
    ranked = sorted(items, key=key, reverse=True)
    if len(ranked) <= size:
        return ranked
    cut = key(ranked[size - 1])
    return [item for item in ranked if key(item) >= cut]


def _mean(values: Sequence[int]) -> float | None:
    return sum(values) / len(values) if values else None


def statistics(
    entrants: Iterable[Entrant],
    games: Iterable[Played],
    plays: Iterable[Play] = (),
    sheet_games: Iterable[tuple[int, PlayerId, PlayerId]] = (),
    rack_size: int = 7,
    size: int = LIST_SIZE,
) -> Statistics:
    """The division's statistics. `plays` are the scored plays of the scoresheets and
    `sheet_games` the (round, player, opponent) of each game that has one; a play that places
    `rack_size` tiles is a bingo."""
    people = {e.id: e for e in entrants}
    played = sorted(games, key=lambda g: (g.round, str(g.player1), str(g.player2)))
    sides: list[Score] = []
    stats = Statistics(games=len(played))
    winners: list[Score] = []
    for g in played:
        one, two = people[g.player1], people[g.player2]
        a = Score(g.round, one, two, g.score1, g.score2)
        b = Score(g.round, two, one, g.score2, g.score1)
        sides += [a, b]
        if a.spread:
            winners.append(a if a.spread > 0 else b)
        if g.first in (1, 2):
            stats.first_games += 1
            first = a if g.first == 1 else b
            stats.first_wins += 1 if first.spread > 0 else 0.5 if first.spread == 0 else 0
    if not sides:
        return stats

    totals: dict[PlayerId, list[int]] = defaultdict(lambda: [0, 0, 0])
    for s in sides:
        t = totals[s.player.id]
        t[0] += 1
        t[1] += s.score
        t[2] += s.opponent_score
    # Every player is listed, one without a played game (byes only) last, with no average.
    stats.averages = sorted(
        (Average(e, *totals.get(e.id, [0, 0, 0])) for e in people.values()),
        key=lambda a: (
            a.games == 0,
            -(a.average_for or 0),
            a.average_against or 0,
            a.player.name,
        ),
    )
    stats.average_score = _mean([s.score for s in sides])
    stats.average_winning = _mean([w.score for w in winners])
    stats.average_losing = _mean([w.opponent_score for w in winners])

    losers = [s for s in sides if s.spread < 0]
    stats.high_games = top(sides, lambda s: s.score, size)
    stats.high_losses = top(losers, lambda s: s.score, size)
    stats.low_wins = top(winners, lambda s: -s.score, size)
    # A tie has no winner: its combined score is seen from player1's side.
    combined = winners + [s for s in sides[::2] if s.spread == 0]
    stats.high_combined = top(combined, lambda s: s.combined, size)
    upsets = [
        Upset(w, w.opponent.rating - w.player.rating)
        for w in winners
        if w.player.rating and w.opponent.rating and w.opponent.rating > w.player.rating
    ]
    stats.upsets = top(upsets, lambda u: u.difference, size)
    stats.streaks = top(_streaks(sides), lambda s: s.length, size)
    _sheet_figures(stats, people, list(plays), list(sheet_games), rack_size, size)
    return stats


def _streaks(sides: list[Score]) -> list[Streak]:
    """Each player's longest run of wins (the earliest, if two are as long)."""
    by_player: dict[PlayerId, list[Score]] = defaultdict(list)
    for s in sides:
        by_player[s.player.id].append(s)
    found = []
    for mine in by_player.values():
        mine.sort(key=lambda s: s.round)
        best: Streak | None = None
        run: list[Score] = []
        ends: list[Score | None] = [*mine, None]  # None: after the player's last game
        for side in ends:
            if side is not None and side.spread > 0:
                run.append(side)
                continue
            if run and (best is None or len(run) > best.length):
                best = Streak(run[0].player, len(run), run[0].round, run[-1].round, side is None)
            run = []
        if best is not None:
            found.append(best)
    found.sort(key=lambda s: (-s.length, s.start, s.player.name))
    return found


def _sheet_figures(
    stats: Statistics,
    people: dict[PlayerId, Entrant],
    plays: list[Play],
    sheet_games: list[tuple[int, PlayerId, PlayerId]],
    rack_size: int,
    size: int,
) -> None:
    stats.sheets = len(sheet_games)
    if not sheet_games:
        return
    high = [HighPlay(people[p.player], people[p.opponent], p.round, p.score, p.text) for p in plays]
    high.sort(key=lambda h: (h.round, h.player.name))
    stats.high_plays = top(high, lambda h: h.score, size)
    bingos = [
        HighPlay(people[p.player], people[p.opponent], p.round, p.score, p.text)
        for p in plays
        if p.tiles >= rack_size
    ]
    bingos.sort(key=lambda h: (h.round, h.player.name))
    stats.bingos = sorted(bingos, key=lambda h: -h.score)
    sheets_of: dict[PlayerId, int] = defaultdict(int)
    for _round, one, two in sheet_games:
        sheets_of[one] += 1
        sheets_of[two] += 1
    count: dict[PlayerId, int] = defaultdict(int)
    for b in bingos:
        count[b.player.id] += 1
    stats.bingo_counts = sorted(
        (BingoCount(people[pid], n, sheets_of[pid]) for pid, n in count.items()),
        key=lambda c: (-c.bingos, c.games, c.player.name),
    )


def tiles_placed(word: str) -> int:
    """The tiles a play's word placed, as a canonical GCG line writes it: a letter or a
    bracketed digraph ("[CH]") is one tile, "." a tile already on the board."""
    count = 0
    inside = False
    for char in word:
        if char == "[":
            inside = True
            count += 1
        elif char == "]":
            inside = False
        elif not inside and char != ".":
            count += 1
    return count
