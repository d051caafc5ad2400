"""COP's simulation of the rounds left, as Woogles' COP runs it (woogles-io/liwords,
pkg/pair/standings): the standings as packed integers, random results drawn from real games'
spreads, and the three kinds of run COP makes of them.

- `Sim.factor_runs`: every remaining round paired by factor pairing within each Gibson group
  (the last round king of the hill), results at random; how often each player finishes in each
  place; more runs while a chance is too close to the hopefulness threshold to tell.
- `Sim.control_loss`: for contenders who win every game, whether playing the leader rather than
  their factor opponent makes them win the event more often (the leader has lost control of
  the event to them); a binary search for the lowest such contender.
- `Sim.runs_with`: runs with pairings given (the factor-3 test of the second-to-last round).

A record is `wins << 48 | spread << 16 | key`, each field offset to stay positive, so that
sorting the integers ranks the players (wins, then spread, then the key: the place the player
started the simulation in, the higher place first). Wins count twice a win plus a draw, and a
simulated game moves the winner up one and the loser down one, which ranks as the same thing.
Seeded `random.Random`: the same request gives the same figures.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

WINS_SHIFT = 48
SPREAD_SHIFT = 16
KEY_MASK = 0xFFFF
WINS_OFFSET = 1 << 14
SPREAD_OFFSET = 1 << 31
BYE_KEY = 0xFFFF  # the stand-in player that evens an odd field
WIN_ALL_VS_FIRST_ROUNDS = 4  # more rounds left than this: a contender must always win v 1st
RESIM_BATCH = 10000  # more runs, when the first are not enough to tell who is hopeful
CONFIDENCE = 0.99

# How many games of a sample of real tournament games were won by 0, 1, 2 … points
# (Woogles' score_differences.go, 6,787 games). A simulated game's spread is drawn from it,
# capped at the Gibson spread; the 29 draws are the first entries.
# fmt: off
SPREAD_COUNTS: tuple[int, ...] = (
    29, 55, 50, 51, 53, 60, 58, 57, 57, 63, 57, 52, 50, 59, 57, 53, 54, 50, 54, 52, 54, 50,
    60, 56, 53, 51, 45, 52, 48, 43, 49, 45, 52, 49, 46, 50, 46, 48, 46, 44, 50, 45, 54, 49,
    45, 50, 48, 52, 49, 45, 43, 46, 44, 42, 42, 41, 38, 40, 43, 42, 44, 39, 46, 45, 41, 44,
    42, 43, 39, 35, 38, 38, 42, 40, 38, 40, 39, 39, 36, 32, 36, 39, 36, 33, 37, 37, 36, 40,
    34, 32, 38, 32, 35, 36, 32, 35, 33, 34, 33, 31, 37, 37, 36, 36, 31, 30, 32, 31, 28, 26,
    31, 27, 33, 29, 24, 30, 28, 29, 25, 26, 30, 30, 27, 24, 24, 22, 26, 25, 22, 25, 22, 25,
    26, 22, 18, 19, 24, 22, 21, 21, 26, 21, 22, 20, 22, 18, 16, 17, 18, 23, 16, 17, 22, 19,
    19, 15, 16, 18, 18, 19, 16, 13, 15, 14, 13, 16, 12, 13, 13, 19, 19, 14, 13, 14, 13, 13,
    13, 13, 12, 12, 12, 11, 11, 12, 9, 10, 8, 12, 12, 9, 10, 8, 8, 10, 12, 8, 9, 8, 8, 9, 8,
    9, 8, 9, 5, 6, 8, 8, 6, 8, 6, 5, 7, 8, 5, 6, 6, 6, 9, 7, 6, 5, 5, 6, 6, 6, 4, 5, 7, 5, 5,
    3, 3, 4, 5, 5, 5, 3, 4, 3, 2, 4, 4, 3, 2, 3, 1, 5, 2, 3, 2, 3, 3, 3, 3, 2, 3, 3, 2, 2, 2,
    1, 3, 2, 2, 2, 4, 1, 1, 1, 2, 2, 1, 2, 2, 3, 1, 3, 2, 1, 1, 1, 1, 2, 1, 2, 2, 1, 1, 1, 2,
    1, 1, 2, 2, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1, 1, 1, 0, 0, 1, 1, 1, 1, 1, 1, 1, 0, 1,
    0, 1, 1, 1, 0, 1, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0,
    0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1
)
# fmt: on


def _record(wins2: int, spread: int, key: int) -> int:
    return (wins2 + WINS_OFFSET) << WINS_SHIFT | (spread + SPREAD_OFFSET) << SPREAD_SHIFT | key


def _wins(record: int) -> int:
    return record >> WINS_SHIFT


def _spread(record: int) -> int:
    return (record >> SPREAD_SHIFT) & 0xFFFFFFFF


def game_results(gibson_spread: int) -> tuple[list[int], int]:
    """What a simulated game adds to the winner's record (and takes from the loser's), one
    entry per game of the sample, draws first; and how many draws there are."""
    results: list[int] = []
    for diff, count in enumerate(SPREAD_COUNTS):
        if diff == 0:
            results.extend([0] * count)
        else:
            results.extend([1 << WINS_SHIFT | min(diff, gibson_spread) << SPREAD_SHIFT] * count)
    return results, SPREAD_COUNTS[0]


@dataclass
class SimResults:
    """One run of simulations. Indexed by the place a player starts in (their rank)."""

    final_ranks: list[list[int]]  # [start rank][final place]: how many runs ended so
    gibson_groups: list[int]
    gibsonized: list[bool]
    segment_factors: list[int]
    total: int = 0
    lowest_control_loss: int = -1  # the highest-placed contender to whom the leader lost control
    vs_first: dict[int, int] = field(default_factory=dict)  # rank -> event wins playing 1st
    vs_factor: dict[int, int] = field(default_factory=dict)  # rank -> event wins as paired


class Sim:
    """The standings of the players still playing, sorted, and the rounds left to play."""

    def __init__(
        self,
        wins2: Sequence[int],
        spreads: Sequence[int],
        *,
        rounds_left: int,
        gibson_spread: int,
        place_prizes: int,
        rng: random.Random,
    ) -> None:
        n = len(wins2)
        self.n = n
        self.rounds_left = rounds_left
        self.gibson_spread = gibson_spread
        self.place_prizes = place_prizes
        self.rng = rng
        self.records = sorted(
            (_record(wins2[i], spreads[i], n - 1 - i) for i in range(n)), reverse=True
        )
        self.results, self.draws = game_results(gibson_spread)

    # ----------------------------------------------------------------- reading the standings

    def order(self) -> list[int]:
        """The index (in the order given) of the player in each place."""
        return [self.n - 1 - (r & KEY_MASK) for r in self.records]

    def wins2(self, rank: int) -> int:
        return _wins(self.records[rank]) - WINS_OFFSET

    def spread(self, rank: int) -> int:
        return _spread(self.records[rank]) - SPREAD_OFFSET

    def can_catch(self, rounds: int, cume_spread: int, i: int, j: int) -> bool:
        """Whether the player in place j (below i) can still reach i in `rounds` games, a game
        moving the spread by at most what `cume_spread` allows over them all."""
        return can_catch_records(self.records[i], self.records[j], rounds, cume_spread)

    def gibsonized(self) -> list[bool]:
        """Players in the prize places whom no one can catch and who can catch no one."""
        return gibsonized_records(
            self.records, self.rounds_left, self.gibson_spread, self.place_prizes
        )

    # ----------------------------------------------------------------- the runs

    def _evened(self) -> list[int]:
        """The records, with a stand-in player at the bottom when the field is odd."""
        records = list(self.records)
        if len(records) % 2:
            lowest = _wins(records[-1]) - WINS_OFFSET
            records.append(_record(lowest - (self.rounds_left + 1) * 2, 0, BYE_KEY))
        return records

    def factor_runs(
        self,
        sims: int,
        max_factor: int,
        previous: list[int] | None = None,
        hopefulness: float | None = None,
    ) -> SimResults | None:
        """`sims` runs of the rounds left, factor pairing within Gibson groups. None when
        `previous` segment factors are the ones this would use (nothing would change).

        With `hopefulness`, more runs follow, in batches of 10,000, while some player's
        chance of the last prize place (or of first, when the leader is not Gibsonized) is too
        close to it to tell at 99% confidence, as Woogles does; Woogles stops after 6 s, here
        after `sims` more runs, so that the same request always gives the same figures."""
        records = self._evened()
        plan = _plan(records, self, max_factor, control_loss=False)
        if previous is not None and plan.segment_factors == previous:
            return None
        counts = self._run(records, plan.pairings, sims)
        total = sims
        if hopefulness is not None:
            places = [self.place_prizes - 1]
            if not plan.gibsonized[0]:
                places.append(0)
            extra = sims
            while extra > 0 and not clear_of(counts, places, total, hopefulness):
                batch = min(RESIM_BATCH, extra)
                more = self._run(records, plan.pairings, batch)
                counts = [
                    [x + y for x, y in zip(a, b, strict=True)]
                    for a, b in zip(counts, more, strict=True)
                ]
                total += batch
                extra -= batch
        return plan.results(_trim(counts, self.n), total)

    def runs_with(self, sims: int, pairings: list[list[int]]) -> tuple[list[list[int]], int]:
        """`sims` runs of the rounds left with the pairings (places, in pairs) given."""
        records = self._evened()
        return _trim(self._run(records, pairings, sims), self.n), sims

    def control_loss(
        self, sims: int, max_factor: int, lowest_hopeful: int, threshold: float
    ) -> SimResults:
        """The highest-placed contender (down to `lowest_hopeful`) who, winning every game,
        wins the event at least `threshold` more often playing the leader than not."""
        records = self._evened()
        plan = _plan(records, self, max_factor, control_loss=True)
        out = plan.results([], 0)
        rounds = self.rounds_left

        def evaluate(rank: int) -> tuple[int, int]:
            if rank not in out.vs_first:
                key = records[rank] & KEY_MASK
                out.vs_first[rank] = self._force_winner(records, plan.pairings, key, sims, True)
                out.vs_factor[rank] = self._force_winner(records, plan.pairings, key, sims, False)
                out.total += 2 * sims
            return out.vs_first[rank], out.vs_factor[rank]

        left, right = 1, lowest_hopeful
        while left <= right:
            mid = (left + right) // 2
            vs_first, vs_factor = evaluate(mid)
            lost = vs_first - vs_factor >= threshold * sims
            if rounds > WIN_ALL_VS_FIRST_ROUNDS and vs_first < sims:
                right = mid - 1
            elif lost:
                right = mid - 1
                if out.lowest_control_loss == -1 or mid < out.lowest_control_loss:
                    out.lowest_control_loss = mid
            else:
                left = mid + 1
        if out.lowest_control_loss == -1 and rounds == 2:
            # Two rounds left: below the contenders who win the event whatever happens, the
            # next one has lost control if playing the leader helps them at all.
            lowest_sure = -1
            for rank in range(1, lowest_hopeful + 1):
                vs_first, vs_factor = evaluate(rank)
                if vs_first == sims and vs_factor == sims:
                    lowest_sure = rank
                elif lowest_sure != -1:
                    break
            if lowest_sure != -1 and lowest_sure + 1 <= lowest_hopeful:
                b = lowest_sure + 1
                vs_first, vs_factor = evaluate(b)
                if vs_first > vs_factor:
                    out.lowest_control_loss = b
        return out

    def force_winner_runs(
        self, pairings: list[list[int]], rank: int, sims: int, vs_first: bool
    ) -> int:
        """How often the player in place `rank`, winning every game, wins the event."""
        records = self._evened()
        return self._force_winner(records, pairings, records[rank] & KEY_MASK, sims, vs_first)

    # ----------------------------------------------------------------- one run

    def _run(self, start: list[int], pairings: list[list[int]], sims: int) -> list[list[int]]:
        n = len(start)
        start_rank = {r & KEY_MASK: i for i, r in enumerate(start)}
        key_rank = [0] * (KEY_MASK + 1)
        for key, rank in start_rank.items():
            key_rank[key] = rank
        flat = [0] * (n * n)
        # A game's result as what the first of the pair gains: the winner's gain, or its
        # opposite when the second wins (half the draws each way).
        signed = self.results + [-d for d in self.results]
        count = len(signed)
        rand = self.rng.random
        rounds = [list(zip(p[0::2], p[1::2], strict=True)) for p in pairings]
        for _ in range(sims):
            records = start[:]
            for pairs in rounds:
                for a, b in pairs:
                    d = signed[int(rand() * count)]
                    records[a] += d
                    records[b] -= d
                records.sort(reverse=True)
            for place, r in enumerate(records):
                flat[key_rank[r & KEY_MASK] * n + place] += 1
        return [flat[i * n : (i + 1) * n] for i in range(n)]

    def _force_winner(
        self, start: list[int], pairings: list[list[int]], key: int, sims: int, vs_first: bool
    ) -> int:
        rng = self.rng
        results = self.results
        count = len(results)
        draws = self.draws
        rounds = len(pairings)
        wins = 0
        plan = [list(p) for p in pairings]
        for _ in range(sims):
            records = start[:]
            for r in range(rounds):
                seats = plan[r]
                me = next(i for i, rec in enumerate(records) if rec & KEY_MASK == key)
                at = seats.index(me)
                swap = None
                if r < rounds - 1:
                    if vs_first:
                        swap = (1, at)  # play the leader; the last round is king of the hill
                    elif at == 1:
                        # Drawn against the leader: the leader plays the next player instead.
                        target = 2 if me == 1 else 1
                        swap = (1, seats.index(target))
                if swap is not None:
                    i, j = swap
                    seats[i], seats[j] = seats[j], seats[i]
                for s in range(0, len(seats), 2):
                    a, b = seats[s], seats[s + 1]
                    if a == me or b == me:
                        winner, loser = (a, b) if a == me else (b, a)
                        d = results[draws + int(rng.random() * (count - draws))]
                    else:
                        winner, loser = (a, b) if rng.random() < 0.5 else (b, a)
                        d = results[int(rng.random() * count)]
                    records[winner] += d
                    records[loser] -= d
                if swap is not None:
                    i, j = swap
                    seats[i], seats[j] = seats[j], seats[i]
                records.sort(reverse=True)
            if records[0] & KEY_MASK == key:
                wins += 1
        return wins


def can_catch_records(high: int, low: int, rounds: int, cume_spread: int) -> bool:
    gap = _wins(high) - _wins(low)
    most = rounds * 2
    if gap != most:
        return gap < most
    behind = _spread(high) - _spread(low)
    return behind <= 0 or behind <= cume_spread


def clear_of(counts: list[list[int]], places: list[int], total: int, threshold: float) -> bool:
    """Whether every player's chance of each of `places` is known to be above or below the
    threshold: its exact (Clopper–Pearson) interval at CONFIDENCE, shared out over all the
    chances tested (Bonferroni), leaves the threshold out."""
    rows = counts  # the stand-in player of an odd field counts too, as in Woogles
    alpha = (1 - CONFIDENCE) / (len(rows) * len(places))
    spread = 6 * math.sqrt(threshold * (1 - threshold) / total) + 5 / total
    for place in places:
        for row in rows:
            k = row[place]
            if abs(k / total - threshold) > spread:
                continue  # far from the threshold: no need of the exact interval
            above = k > 0 and _beta_cdf(threshold, k, total - k + 1) < alpha / 2
            below = k < total and _beta_cdf(threshold, k + 1, total - k) > 1 - alpha / 2
            if not (above or below):
                return False
    return True


def _beta_cdf(x: float, a: float, b: float) -> float:
    """The regularized incomplete beta function I_x(a, b) (a continued fraction, Lentz's
    method, as Numerical Recipes' betai)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    if x < (a + 1) / (a + b + 2):
        return front * _beta_fraction(x, a, b) / a
    return 1.0 - front * _beta_fraction(1 - x, b, a) / b


def _beta_fraction(x: float, a: float, b: float) -> float:
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 100000):
        m2 = 2 * m
        for num in (
            m * (b - m) * x / ((a + m2 - 1) * (a + m2)),
            -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1)),
        ):
            d = 1 + num * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + num / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1) < 1e-12:
            break
    return h


def gibsonized_records(
    records: list[int], rounds: int, gibson_spread: int, place_prizes: int
) -> list[bool]:
    n = len(records)
    cume = gibson_spread * rounds * 2
    out = [False] * n
    for i in range(min(place_prizes, n)):
        out[i] = not (
            (i > 0 and can_catch_records(records[i - 1], records[i], rounds, cume))
            or (i < n - 1 and can_catch_records(records[i], records[i + 1], rounds, cume))
        )
    return out


def _trim(counts: list[list[int]], n: int) -> list[list[int]]:
    return [row[:n] for row in counts[:n]]


# --------------------------------------------------------------------------- pairing the runs


@dataclass
class _Plan:
    pairings: list[list[int]]  # per round, places in pairs
    gibson_groups: list[int]
    gibsonized: list[bool]
    segment_factors: list[int]

    def results(self, final_ranks: list[list[int]], total: int) -> SimResults:
        return SimResults(
            final_ranks, self.gibson_groups, self.gibsonized, self.segment_factors, total
        )


def _plan(records: list[int], sim: Sim, max_factor: int, *, control_loss: bool) -> _Plan:
    """Split the field into Gibson groups (the players between two Gibsonized players, evened
    by taking in the Gibsonized player below when odd) and pair each for every round left."""
    n = len(records)
    rounds = sim.rounds_left
    gibsonized = gibsonized_records(records, rounds, sim.gibson_spread, sim.place_prizes)
    groups = [0] * n
    pairings = [[0] * n for _ in range(rounds)]
    factors: list[int] = []
    leftover: list[int] = []
    next_group = 1
    start = end = slot = 0
    while end <= n:
        if end == n:
            _pair_segment(
                slot,
                start,
                end - 1,
                rounds,
                max_factor,
                leftover,
                pairings,
                factors,
                sim.rng,
                n,
                control_loss,
            )
            break
        if gibsonized[end]:
            is_leftover = True
            if end != start:
                size = end - start
                if size % 2:
                    _pair_segment(
                        slot,
                        start,
                        end,
                        rounds,
                        max_factor,
                        [],
                        pairings,
                        factors,
                        sim.rng,
                        n,
                        control_loss,
                    )
                    slot += size + 1
                    for r in range(start, end + 1):
                        groups[r] = next_group
                    is_leftover = False
                else:
                    _pair_segment(
                        slot,
                        start,
                        end - 1,
                        rounds,
                        max_factor,
                        [],
                        pairings,
                        factors,
                        sim.rng,
                        n,
                        control_loss,
                    )
                    slot += size
                    for r in range(start, end):
                        groups[r] = next_group
                    groups[end] = 0
                next_group += 1
            if is_leftover:
                leftover.append(end)
            start = end + 1
        end += 1
    return _Plan(pairings, groups, gibsonized, factors)


def _pair_segment(
    slot: int,
    first: int,
    last: int,
    rounds_left: int,
    max_factor: int,
    leftover: list[int],
    pairings: list[list[int]],
    factors: list[int],
    rng: random.Random,
    total: int,
    control_loss: bool,
) -> None:
    """Seats for places first..last from `slot` on, each round: factor pairing (1 v 1+F …,
    the rest factor half their number), or with `control_loss` only the top pair by factor
    and the rest drawn at random within half the field; the last round king of the hill.
    Leftover Gibsonized players sit after the segment."""
    size = last - first + 1
    for left in range(rounds_left, 0, -1):
        factor = min(left, max_factor, size // 2)
        factors.append(factor)
        seats = pairings[rounds_left - left]
        if left == 1:
            for k in range(size):
                seats[slot + k] = first + k
        elif control_loss:
            seats[slot], seats[slot + 1] = first, first + factor
            rest = [r for r in range(first, last + 1) if r not in (first, first + factor)]
            half = total // 2
            best = list(rest)
            best_bad = _too_far(best, half)
            shuffled = list(rest)
            attempt = 0
            while attempt < 10 and best_bad > 0:
                rng.shuffle(shuffled)
                bad = _too_far(shuffled, half)
                if bad < best_bad:
                    best, best_bad = list(shuffled), bad
                attempt += 1
            for k, r in enumerate(best):
                seats[slot + 2 + k] = r
        else:
            for k in range(factor):
                seats[slot + 2 * k] = first + k
                seats[slot + 2 * k + 1] = first + k + factor
            remaining = size - 2 * factor
            half = remaining // 2
            base, base_slot = first + 2 * factor, slot + 2 * factor
            for k in range(half):
                seats[base_slot + 2 * k] = base + k
                seats[base_slot + 2 * k + 1] = base + k + half
            if remaining % 2:
                seats[base_slot + remaining - 1] = base + remaining - 1
        for k, g in enumerate(leftover):
            seats[slot + size + k] = g


def _too_far(order: list[int], most: int) -> int:
    return sum(1 for i in range(0, len(order) - 1, 2) if abs(order[i] - order[i + 1]) > most)
