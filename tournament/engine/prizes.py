"""Prizes and rating classes: who takes each prize, in the order prizes are awarded.

The order of award: the division's place prizes (`rank`) by place, then each class's place
prizes (`rank` with a class) by class and place, then the score prizes (`highgame`, `highwin`,
`highloss`, `lowwin`) as listed; anything else (a director's own prize) is listed, not awarded.

- A player takes at most one prize unless `more_than_one` is allowed: a place prize passes to
  the next player in the standings who has none yet, a score prize to the next best score.
- Players level in the standings (the same rank) for a run of place prizes share those
  prizes: two tied for 1st share 1st and 2nd, each award naming the prizes pooled.
- Players level on the score a score prize is for share that prize.
- A class comes from the division's rating bands (the highest band whose lowest rating the
  player's pre-event rating reaches), else from tsh's `classes DIV N` line (`classes_by_rating`:
  N classes by rating order, as tsh's Config::AssignClasses), else from the player's own `class`
  field (.t files).

Plain data only: no Django, no database.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field

PlayerId = Hashable

SCORE_PRIZES = {
    "highgame": "the highest score",
    "highwin": "the highest winning score",
    "highloss": "the highest losing score",
    "lowwin": "the lowest winning score",
}


@dataclass(frozen=True, slots=True)
class Prize:
    kind: str  # "rank", one of SCORE_PRIZES, or a director's own
    place: int | str
    value: str = ""
    player_class: str = ""  # a class prize's class
    note: str = ""


@dataclass(frozen=True, slots=True)
class Contender:
    id: PlayerId
    name: str
    rank: int  # in the division's standings; players level share a rank
    player_class: str = ""


@dataclass(frozen=True, slots=True)
class GameScore:
    player: PlayerId
    round: int
    score: int
    opponent_score: int
    opponent: str = ""


@dataclass
class Award:
    prize: Prize
    winners: list[PlayerId] = field(default_factory=list)
    detail: str = ""  # why: the score, the rank within the class, the prizes pooled
    shared: int = 1  # how many share it


def rating_class(rating: int, bands: Sequence[tuple[str, int]], own: str = "") -> str:
    """The class of a player: by the division's rating bands (name, lowest rating) when it has
    them, else the player's own class."""
    if bands:
        for name, lowest in sorted(bands, key=lambda b: -b[1]):
            if rating >= lowest:
                return name
        return ""
    return own


def classes_by_rating(players: Sequence[tuple[PlayerId, int]], count: int) -> dict[PlayerId, str]:
    """tsh's `classes DIV N` (Config::AssignClasses, tsh 3.x): the division's active players
    in N classes A, B, … by rating, about as many in each. From the lowest rated up, each player
    adds N to a counter and takes the current class (the last letter first); once the counter
    reaches the number of players it drops by that number and the class moves up a letter. A
    player rated the same as the one just below takes that player's class, so players level on
    rating are never split (the tie goes to the lower class). `players`: (id, rating) in any
    order, best first after sorting (highest rating first, ties in the order given)."""
    if count < 1 or not players:
        return {}
    ordered = sorted(players, key=lambda p: -p[1])
    found: dict[PlayerId, str] = {}
    phase = 0
    current = chr(ord("A") + count - 1)
    last_rating: int | None = None
    last_class = current
    for pid, rating in reversed(ordered):
        phase += count
        if last_rating is not None and last_rating == rating:
            found[pid] = last_class
        else:
            last_rating, last_class = rating, current
            found[pid] = current
        if phase >= len(ordered):
            phase -= len(ordered)
            current = chr(ord(current) - 1)
    return found


def class_ranks(contenders: Sequence[Contender]) -> dict[PlayerId, int]:
    """Each player's rank within their class, from the standings' order: players level in the
    standings share a rank within the class too."""
    found: dict[PlayerId, int] = {}
    seen: dict[str, list[Contender]] = {}
    for c in contenders:
        mine = seen.setdefault(c.player_class, [])
        level = next((found[o.id] for o in mine if o.rank == c.rank), None)
        mine.append(c)
        found[c.id] = level if level is not None else len(mine)
    return found


def award_order(prizes: Sequence[Prize]) -> list[Prize]:
    """The prizes in the order they are awarded."""

    def key(item: tuple[int, Prize]) -> tuple[int, str, int, int]:
        i, p = item
        place = p.place if isinstance(p.place, int) else 0
        if p.kind == "rank" and not p.player_class:
            return (0, "", place, i)
        if p.kind == "rank":
            return (1, p.player_class, place, i)
        if p.kind in SCORE_PRIZES:
            return (2, "", 0, i)
        return (3, "", 0, i)

    return [p for _, p in sorted(enumerate(prizes), key=key)]


def award(
    prizes: Sequence[Prize],
    standings: Sequence[Contender],
    games: Sequence[GameScore] = (),
    more_than_one: bool = False,
) -> list[Award]:
    """Who takes each prize, in the order of award (`standings` in rank order)."""
    won: set[PlayerId] = set()
    awards: list[Award] = []
    pooled: dict[int, Award] = {}  # a place prize already given as part of a pool
    ordered = award_order(prizes)
    for index, prize in enumerate(ordered):
        if index in pooled:
            awards.append(pooled[index])
            continue
        if prize.kind == "rank" and isinstance(prize.place, int):
            group = (
                [c for c in standings if c.player_class == prize.player_class]
                if (prize.player_class)
                else list(standings)
            )
            awards += _place(ordered, index, group, won, more_than_one, pooled)
        elif prize.kind in SCORE_PRIZES:
            awards.append(_score(prize, games, won, more_than_one))
        else:
            awards.append(Award(prize, detail="awarded by the director"))
    return awards


def _place(
    ordered: list[Prize],
    index: int,
    group: list[Contender],
    won: set[PlayerId],
    more_than_one: bool,
    pooled: dict[int, Award],
) -> list[Award]:
    prize = ordered[index]
    eligible = [c for c in group if more_than_one or c.id not in won]
    # Each eligible player's position: the prize of place p goes to the p-th eligible player,
    # counting the places already given in this group.
    given = sum(
        1
        for j in range(index)
        if ordered[j].kind == "rank"
        and ordered[j].player_class == prize.player_class
        and isinstance(ordered[j].place, int)
    )
    # With one prize a player, the winners of earlier prizes are no longer eligible: the next
    # prize goes to the first left.
    position = given if more_than_one else 0
    if position >= len(eligible):
        return [Award(prize, detail="no player left to take it")]
    first = eligible[position]
    level = [c for c in eligible[position:] if c.rank == first.rank]
    # The run of this group's place prizes the level players pool.
    run = [index]
    j = index + 1
    while len(run) < len(level) and j < len(ordered):
        p = ordered[j]
        if p.kind == "rank" and p.player_class == prize.player_class and isinstance(p.place, int):
            run.append(j)
        j += 1
    winners = [c.id for c in level]
    won.update(winners)
    where = f"rank {first.rank}" + (
        f" overall, class {prize.player_class}" if prize.player_class else ""
    )
    if len(level) == 1:
        # A place prize's winner is that place's player: only a class prize says more.
        return [Award(prize, winners, where if prize.player_class else "")]
    names = ", ".join(str(ordered[k].place) for k in run)
    detail = f"tied at {where}: {len(level)} share the prizes of places {names}"
    shared = [Award(ordered[k], winners, detail, len(level)) for k in run]
    for k, a in zip(run[1:], shared[1:], strict=True):
        pooled[k] = a
    return shared[:1]


def _score(
    prize: Prize, games: Sequence[GameScore], won: set[PlayerId], more_than_one: bool
) -> Award:
    def keep(g: GameScore) -> bool:
        if prize.kind == "highgame":
            return True
        if prize.kind == "highloss":
            return g.score < g.opponent_score
        return g.score > g.opponent_score  # highwin, lowwin

    candidates = [g for g in games if keep(g) and (more_than_one or g.player not in won)]
    if not candidates:
        return Award(prize, detail="no game qualifies")
    pick = min if prize.kind == "lowwin" else max
    best = pick(g.score for g in candidates)
    level = [g for g in candidates if g.score == best]
    winners = list(dict.fromkeys(g.player for g in level))
    won.update(winners)
    g = level[0]
    detail = f"{SCORE_PRIZES[prize.kind]}: {g.score}-{g.opponent_score}"
    detail += f" v {g.opponent}, round {g.round}" if len(level) == 1 else f", {len(level)} games"
    return Award(prize, winners, detail, len(winners))
