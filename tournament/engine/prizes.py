"""Prizes and rating classes: who takes each prize of TSH's prize table, in the order of award.

Every `prize` type of TSH's `PRiZes` (its definitions, ../shared/reference/tsh.md §9b):

- `rank`: the standings (`class=` limits it to a class);
- `highgame`, `highwin`, `highloss`, `lowwin`, `lowloss`: a player's best score of that kind
  over rounds `first`..`last`;
- `tuffluck` / `luckystiff`: the smallest sum of a player's N smallest losing / winning margins
  (N = `rounds`, default 6; a player needs N such games);
- `roundrecord`: the best record over rounds `first`..`last` (wins, fewer losses, spread);
- `brlh`: the same among the lower half of the standings after round `first` − 1;
- `spread`: the most spread over rounds `first`..`last`;
- `overseed`: final rank minus seed (rank by pre-event rating, players level share a seed),
  the smallest, then the better final rank;
- `overexp`: wins over the rating engine's expected wins, against rated opponents;
- `highratingchange`: new rating minus pre-event rating, rated players only (`unratedok=1`
  admits the unrated);
- `handicap`: the player's handicap plus two points a win;
- `upset`: the largest rating difference overcome in a win (pre-event ratings, both rated);
- `totalteam`: a team's average record (wins, fewer losses, then spread), all its members
  sharing it.

`members=` (player numbers or names, comma-separated) limits any prize to a group of players.
Layout lines (`separator`, `break`, `note`, `title`) are listed where they stand, never awarded.

The order of award: the division's place prizes (`rank`) by place, then each class's place
prizes by class and place, then every other prize as listed. Each prize in turn goes to the
best player still eligible:

- Exclusivity: a prize with `exclusive=G` passes over a player who already took a prize of
  group G. A prize without `exclusive=` passes over a player who took another such prize,
  unless `more_than_one` is allowed (then only the prizes of its own block, below, exclude).
- A block: the prizes of one kind with the same parameters (1st, 2nd, … tuffluck). A player
  takes at most one prize of a block; players level on the figure for a run of a block's
  prizes share those prizes, each award naming the prizes pooled.

The listing: the order of award, each prize with `order=N` moved to the Nth place (a prize
without one keeps the number of its place in the order of award; ties keep that order).

Plain data only: no Django, no database.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field

from tournament.engine.ratings import nsa2008_expectation
from tournament.engine.text import ordinal

PlayerId = Hashable

SCORE_PRIZES = {
    "highgame": "the highest score",
    "highwin": "the highest winning score",
    "highloss": "the highest losing score",
    "lowwin": "the lowest winning score",
    "lowloss": "the lowest losing score",
}
# Prizes decided by each player's figure (the score prizes too).
FIGURE_PRIZES = (
    "tuffluck",
    "luckystiff",
    "roundrecord",
    "brlh",
    "spread",
    "overseed",
    "overexp",
    "highratingchange",
    "handicap",
    "upset",
    "totalteam",
)
KINDS = ("rank", *SCORE_PRIZES, *FIGURE_PRIZES)
LAYOUT = ("separator", "break", "note", "title")
TUFFLUCK_ROUNDS = 6  # TSH's default N for tuffluck and luckystiff


@dataclass(frozen=True, slots=True)
class Prize:
    kind: str  # one of KINDS, one of LAYOUT, or a director's own
    place: int | str
    value: str = ""
    player_class: str = ""  # a class prize's class
    note: str = ""
    first: int | None = None  # the rounds counted: first..last (None: from 1, to the end)
    last: int | None = None
    rounds: int | None = None  # tuffluck's and luckystiff's N
    members: tuple[str, ...] = ()  # player numbers or names: the prize's group of players
    exclusive: str = ""  # the exclusive= group
    order: int | None = None  # the order= place in the listing
    unrated_ok: bool = False  # highratingchange: admit unrated players
    refused: str = ""  # why it cannot be awarded (e.g. a memberfile= not read)

    @property
    def block(self) -> tuple[object, ...]:
        """The prizes one player takes at most one of, and that players level pool."""
        return (
            self.kind,
            self.player_class,
            self.first,
            self.last,
            self.rounds,
            self.members,
            self.exclusive,
            self.unrated_ok,
        )


@dataclass(frozen=True, slots=True)
class Contender:
    id: PlayerId
    name: str
    rank: int  # in the division's standings; players level share a rank
    player_class: str = ""
    number: int = 0  # the player's number in the division
    rating: int = 0  # pre-event; 0: unrated
    new_rating: int | None = None  # after the rounds counted
    team: str = ""
    handicap: int = 0


@dataclass(frozen=True, slots=True)
class GameScore:
    """A player's result in a round. A bye or forfeit (`played=False`) has the spread as
    `score - opponent_score` and counts in records only, never as a score."""

    player: PlayerId
    round: int
    score: int
    opponent_score: int
    opponent: str = ""  # the opponent's name
    opponent_id: PlayerId | None = None
    played: bool = True
    result: float | None = None  # 1, ½, 0; None: from the scores

    @property
    def spread(self) -> int:
        return self.score - self.opponent_score

    @property
    def won(self) -> float:
        if self.result is not None:
            return self.result
        return 1.0 if self.spread > 0 else 0.5 if self.spread == 0 else 0.0


@dataclass
class Award:
    prize: Prize
    winners: list[PlayerId] = field(default_factory=list)
    detail: str = ""  # the figure: the score, the margins, the prizes pooled
    shared: int = 1  # how many share it
    team: str = ""  # totalteam: the team that takes it


@dataclass(frozen=True, slots=True)
class Entry:
    """A contender for a prize: their figure as a sort key (smaller is better; equal keys are
    level) and as written."""

    id: PlayerId
    key: tuple[float, ...]
    figure: str
    team: str = ""


def signed(n: float) -> str:
    text = f"{n:.2f}".rstrip("0").rstrip(".") if isinstance(n, float) else str(n)
    return text if text.startswith("-") or text == "0" else "+" + text


def count(n: float) -> str:
    return f"{n:g}" if n != int(n) else str(int(n))


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
    """The prizes in the order they are awarded; a layout line stays just before the prize
    that follows it in the list."""

    def key(i: int, p: Prize) -> tuple[int, str, int, float]:
        place = p.place if isinstance(p.place, int) else 0
        if p.kind == "rank" and not p.player_class:
            return (0, "", place, i)
        if p.kind == "rank":
            return (1, p.player_class, place, i)
        if p.kind in SCORE_PRIZES or p.kind in FIGURE_PRIZES:
            return (2, "", 0, i)
        return (3, "", 0, i)

    keys: list[tuple[int, str, int, float]] = [(9, "", 0, 0.0)] * len(prizes)
    following: tuple[int, str, int, float] | None = None
    for i in range(len(prizes) - 1, -1, -1):
        p = prizes[i]
        if p.kind in LAYOUT:
            base = following if following is not None else (9, "", 0, float(i))
            keys[i] = (base[0], base[1], base[2], base[3] - 0.5 + i / (10 * (len(prizes) + 1)))
        else:
            keys[i] = key(i, p)
            following = keys[i]
    return [prizes[i] for i in sorted(range(len(prizes)), key=lambda i: keys[i])]


def listing(awards: Sequence[Award]) -> list[Award]:
    """The awards as listed: the order of award, each prize with `order=N` moved to the Nth
    place; a layout line follows the prize after it."""
    keys: list[tuple[float, int]] = []
    following: float | None = None
    for i in range(len(awards) - 1, -1, -1):
        p = awards[i].prize
        if p.kind in LAYOUT:
            keys.append((following if following is not None else i + 1, i))
        else:
            following = float(p.order) if p.order is not None else float(i + 1)
            keys.append((following, i))
    keys.reverse()
    return [awards[i] for i in sorted(range(len(awards)), key=lambda i: keys[i])]


def award(
    prizes: Sequence[Prize],
    standings: Sequence[Contender],
    games: Sequence[GameScore] = (),
    more_than_one: bool = False,
    earlier_ranks: Mapping[int, Mapping[PlayerId, int]] | None = None,
    minimum_team: int = 1,
) -> list[Award]:
    """Who takes each prize, in the order of award (`standings` in rank order; `games` every
    result, both sides of each game; `earlier_ranks[r]` the ranks after round r, for `brlh`).
    `listing` puts them in the order they are listed."""
    won: dict[str, set[PlayerId]] = {}
    block_won: dict[tuple[object, ...], set[PlayerId]] = {}
    awards: list[Award] = []
    pooled: dict[int, Award] = {}  # a prize already given as part of a pool
    ordered = award_order(prizes)
    for index, prize in enumerate(ordered):
        if index in pooled:
            awards.append(pooled[index])
            continue
        if prize.kind in LAYOUT:
            awards.append(Award(prize, shared=0))
            continue
        if prize.refused:
            awards.append(Award(prize, detail=prize.refused, shared=0))
            continue
        if prize.kind not in KINDS or (prize.kind == "rank" and not isinstance(prize.place, int)):
            awards.append(Award(prize, detail="awarded by the director", shared=0))
            continue
        pool = _eligible(prize, standings)
        entries = _entries(prize, pool, standings, games, earlier_ranks or {}, minimum_team)
        if entries is None:
            awards.append(Award(prize, detail=_nobody(prize), shared=0))
            continue
        group = prize.exclusive if prize.exclusive else (None if more_than_one else "")
        barred = set(block_won.get(prize.block, set()))
        if group is not None:
            barred |= won.get(group, set())
        found = _place(ordered, index, entries, barred, pooled)
        for a in found[:1]:
            winners = set(a.winners)
            block_won.setdefault(prize.block, set()).update(winners)
            if group is not None:
                won.setdefault(group, set()).update(winners)
        awards += found
    return awards


def ranking(
    prize: Prize,
    standings: Sequence[Contender],
    games: Sequence[GameScore] = (),
    earlier_ranks: Mapping[int, Mapping[PlayerId, int]] | None = None,
    minimum_team: int = 1,
) -> list[Entry]:
    """Every contender for `prize` with their figure, best first (TSH's report commands:
    TUFFluck, OVERSEED, HighRatingChange, …); none when no player qualifies."""
    pool = _eligible(prize, standings)
    return _entries(prize, pool, standings, games, earlier_ranks or {}, minimum_team) or []


def leading(entries: Sequence[Entry], size: int = 10) -> list[Entry]:
    """The first `size` entries and every entry level with the last of them."""
    if len(entries) <= size:
        return list(entries)
    cut = entries[size - 1].key
    return [e for e in entries if e.key <= cut]


def _nobody(prize: Prize) -> str:
    if prize.kind in SCORE_PRIZES:
        return "no game qualifies"
    if prize.kind in ("tuffluck", "luckystiff"):
        n = prize.rounds or TUFFLUCK_ROUNDS
        what = "losses" if prize.kind == "tuffluck" else "wins"
        return f"no player has {n} {what}"
    return "no player qualifies"


def _eligible(prize: Prize, standings: Sequence[Contender]) -> list[Contender]:
    pool = list(standings)
    if prize.player_class:
        pool = [c for c in pool if c.player_class == prize.player_class]
    if prize.members:
        wanted = {m.strip().casefold() for m in prize.members}
        pool = [c for c in pool if str(c.number) in wanted or c.name.casefold() in wanted]
    return pool


def _in_rounds(prize: Prize, g: GameScore) -> bool:
    return (prize.first is None or g.round >= prize.first) and (
        prize.last is None or g.round <= prize.last
    )


def _rounds_text(prize: Prize, games: Sequence[GameScore]) -> str:
    if prize.first is None and prize.last is None:
        return ""
    last = prize.last if prize.last is not None else max((g.round for g in games), default=0)
    first = prize.first or 1
    return f", round {first}" if first == last else f", rounds {first}-{last}"


def _entries(
    prize: Prize,
    pool: list[Contender],
    standings: Sequence[Contender],
    games: Sequence[GameScore],
    earlier: Mapping[int, Mapping[PlayerId, int]],
    minimum_team: int,
) -> list[Entry] | None:
    """The prize's contenders, best first; None when no player qualifies."""
    kind = prize.kind
    ids = {c.id for c in pool}
    mine: dict[PlayerId, list[GameScore]] = {c.id: [] for c in pool}
    for g in games:
        if g.player in ids and _in_rounds(prize, g):
            mine[g.player].append(g)
    found: list[Entry] = []
    if kind == "rank":
        found = [
            Entry(c.id, (c.rank,), f"rank {c.rank} overall, class {c.player_class}")
            if prize.player_class
            else Entry(c.id, (c.rank,), "")
            for c in pool
        ]
        return found or None
    ratings = {o.id: o.rating for o in standings}
    for c in pool:
        entry = _figure(prize, c, mine[c.id], standings, ratings)
        if entry is not None:
            found.append(entry)
    if kind == "totalteam":
        found = _teams(pool, mine, minimum_team)
    if kind == "brlh":
        found = _lower_half(prize, pool, found, standings, earlier)
    found.sort(key=lambda e: e.key)
    return found or None


def _figure(
    prize: Prize,
    c: Contender,
    games: list[GameScore],
    standings: Sequence[Contender],
    ratings: Mapping[PlayerId, int],
) -> Entry | None:
    kind = prize.kind
    played = [g for g in games if g.played]
    if kind in SCORE_PRIZES:
        keep: Callable[[GameScore], bool] = {
            "highgame": lambda g: True,
            "highwin": lambda g: g.won == 1,
            "highloss": lambda g: g.won == 0,
            "lowwin": lambda g: g.won == 1,
            "lowloss": lambda g: g.won == 0,
        }[kind]
        scores = [g for g in played if keep(g)]
        if not scores:
            return None
        low = kind.startswith("low")
        # The earliest of a player's equal scores is the one named.
        best = min(scores, key=lambda g: (g.score if low else -g.score, g.round))
        figure = f"{SCORE_PRIZES[kind]}: {best.score}-{best.opponent_score}"
        figure += f" v {best.opponent}, round {best.round}"
        return Entry(c.id, (best.score if low else -best.score,), figure)
    if kind in ("tuffluck", "luckystiff"):
        n = prize.rounds or TUFFLUCK_ROUNDS
        if kind == "tuffluck":
            margins = sorted(-g.spread for g in played if g.won == 0)
        else:
            margins = sorted(g.spread for g in played if g.won == 1)
        if len(margins) < n:
            return None
        smallest = margins[:n]
        return Entry(c.id, (sum(smallest),), f"{sum(smallest)} = " + "+".join(map(str, smallest)))
    if kind in ("roundrecord", "brlh"):
        wins = sum(g.won for g in games)
        losses = len(games) - wins
        spread = sum(g.spread for g in games)
        if not games:
            return None
        figure = f"{count(wins)}-{count(losses)} {signed(spread)}" + _rounds_text(prize, games)
        return Entry(c.id, (-wins, losses, -spread), figure)
    if kind == "spread":
        if not games:
            return None
        spread = sum(g.spread for g in games)
        return Entry(c.id, (-spread,), signed(spread) + _rounds_text(prize, games))
    if kind == "overseed":
        seed = 1 + sum(1 for o in standings if o.rating > c.rating)
        gain = seed - c.rank
        return Entry(
            c.id, (-gain, c.rank), f"{signed(gain)}: seed {seed}, finished {ordinal(c.rank)}"
        )
    if kind == "overexp":
        if not c.rating:
            return None
        rated = [g for g in played if g.opponent_id is not None and _rating(ratings, g)]
        if not rated:
            return None
        expected = sum(nsa2008_expectation(c.rating, _rating(ratings, g)) for g in rated)
        wins = sum(g.won for g in rated)
        over = round(wins - expected, 2)
        figure = f"{signed(over)} = {count(wins)} wins - {expected:.2f} expected"
        return Entry(c.id, (-over,), figure)
    if kind == "highratingchange":
        if c.new_rating is None or not (c.rating or prize.unrated_ok):
            return None
        change = c.new_rating - c.rating
        return Entry(c.id, (-change,), f"{signed(change)} = {c.rating} to {c.new_rating}")
    if kind == "handicap":
        wins = sum(g.won for g in games)
        points = c.handicap + 2 * wins
        return Entry(c.id, (-points,), f"{count(points)} = {c.handicap} + 2x{count(wins)} wins")
    if kind == "upset":
        beaten = [
            (_rating(ratings, g) - c.rating, g.round, g)
            for g in played
            if g.won == 1 and c.rating and _rating(ratings, g) > c.rating
        ]
        if not beaten:
            return None
        gap, _, g = min(beaten, key=lambda b: (-b[0], b[1]))
        figure = f"{gap} = {c.rating} beat {_rating(ratings, g)} ({g.opponent}), round {g.round}"
        return Entry(c.id, (-gap,), figure)
    return None


def _rating(ratings: Mapping[PlayerId, int], g: GameScore) -> int:
    return ratings.get(g.opponent_id, 0) if g.opponent_id is not None else 0


def _teams(
    pool: list[Contender], mine: Mapping[PlayerId, list[GameScore]], minimum: int
) -> list[Entry]:
    teams: dict[str, list[Contender]] = {}
    for c in pool:
        if c.team:
            teams.setdefault(c.team, []).append(c)
    found = []
    for team, members in teams.items():
        if len(members) < max(1, minimum):
            continue
        wins = sum(g.won for c in members for g in mine[c.id]) / len(members)
        losses = sum(1 - g.won for c in members for g in mine[c.id]) / len(members)
        spread = sum(g.spread for c in members for g in mine[c.id]) / len(members)
        figure = (
            f"{team}: {wins:.2f}-{losses:.2f} {signed(round(spread, 1))} "
            f"a player, {len(members)} players"
        )
        key = (-round(wins, 6), round(losses, 6), -round(spread, 6))
        # The team takes it: all its members share the one entry.
        for c in members:
            found.append(Entry(c.id, key, figure, team))
    return found


def _lower_half(
    prize: Prize,
    pool: list[Contender],
    found: list[Entry],
    standings: Sequence[Contender],
    earlier: Mapping[int, Mapping[PlayerId, int]],
) -> list[Entry]:
    """The entries of players in the lower half of the standings after round first - 1 (before
    round 1: by seed, the pre-event rating)."""
    before = (prize.first or 1) - 1
    if before > 0 and before in earlier:
        ranks = earlier[before]
    else:
        ranks = {c.id: 1 + sum(1 for o in standings if o.rating > c.rating) for c in standings}
    counted = len(ranks)
    lower = {pid for pid, r in ranks.items() if 2 * r > counted}
    return [e for e in found if e.id in lower]


def _place(
    ordered: list[Prize],
    index: int,
    entries: list[Entry],
    barred: set[PlayerId],
    pooled: dict[int, Award],
) -> list[Award]:
    prize = ordered[index]
    eligible = [e for e in entries if e.id not in barred]
    if not eligible:
        return [Award(prize, detail="no player left to take it", shared=0)]
    first = eligible[0]
    level = [e for e in eligible if e.key == first.key]
    # A team's members are one winner; players level otherwise pool the block's next prizes.
    takers = len({e.team for e in level}) if first.team else len(level)
    run = [index]
    j = index + 1
    while len(run) < takers and j < len(ordered):
        if ordered[j].block == prize.block and j not in pooled and not ordered[j].refused:
            run.append(j)
        j += 1
    winners = [e.id for e in level]
    if prize.kind == "rank":
        where = f"rank {_rank_of(first)}" + (
            f" overall, class {prize.player_class}" if prize.player_class else ""
        )
        if len(level) == 1:
            # A place prize's winner is that place's player: only a class prize says more.
            return [Award(prize, winners, where if prize.player_class else "")]
        names = ", ".join(str(ordered[k].place) for k in run)
        detail = f"tied at {where}: {len(level)} share the prizes of places {names}"
    else:
        distinct = list({(e.team or e.id): e for e in level}.values())
        if prize.kind in SCORE_PRIZES:
            games = "; ".join(e.figure.split(": ", 1)[1] for e in distinct)
            detail = f"{SCORE_PRIZES[prize.kind]}: {games}"
        else:
            detail = "; ".join(dict.fromkeys(e.figure for e in distinct))
        if len(run) > 1:
            places = ", ".join(_place_name(ordered[k].place) for k in run)
            detail += f"; {takers} level share the prizes {places}"
    team = ", ".join(sorted({e.team for e in level if e.team}))
    shared = [Award(ordered[k], winners, detail, takers, team) for k in run]
    for k, a in zip(run[1:], shared[1:], strict=True):
        pooled[k] = a
    return shared[:1]


def _place_name(place: int | str) -> str:
    return ordinal(place) if isinstance(place, int) else str(place)


def _rank_of(e: Entry) -> int:
    return int(e.key[0])
