"""What a pairing needs to know about the division: who plays, how they stand, whom they met.

`Field` is built once per request from the players, the results of rounds 1..S and the pairings
already made for rounds S+1..R-1, and every pairing system reads it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from tournament.engine.pairing.model import PairingError, PairingRules
from tournament.engine.standings import (
    Game,
    GameKind,
    Player,
    PlayerId,
    Standing,
    StandingsError,
    standings,
)
from tournament.engine.text import ordinal


@dataclass(frozen=True, slots=True)
class Seat:
    """One player's part in one round: the opponent (None: no game) and who went first."""

    opponent: PlayerId | None
    first: bool | None  # True: went first; False: second; None: unknown, or no game
    bye: bool = False  # an awarded bye (GameKind.BYE), which is what bye fairness counts


@dataclass
class Field:
    players: list[Player]
    by_id: dict[PlayerId, Player]
    round_number: int  # the round being paired (R)
    based_on: int  # the last round with results (S)
    rules: PairingRules
    table: list[Standing]  # standings after round S, everyone (withdrawn players last)
    active: list[PlayerId]  # players to pair in round R, in standings order
    position: dict[PlayerId, int]  # 0-based place in the standings after S
    row: dict[PlayerId, Standing]
    seats: dict[PlayerId, list[Seat]]  # rounds 1..R-1, one seat per round (None: absent)
    met: Counter[frozenset[PlayerId]] = field(default_factory=Counter)

    # ----------------------------------------------------------------- history

    def times_met(self, a: PlayerId, b: PlayerId) -> int:
        return self.met[frozenset((a, b))]

    def last_opponent(self, player: PlayerId) -> PlayerId | None:
        seats = self.seats[player]
        return seats[-1].opponent if seats else None

    def byes(self, player: PlayerId) -> int:
        return sum(1 for s in self.seats[player] if s.bye)

    def firsts(self, player: PlayerId) -> int:
        return sum(1 for s in self.seats[player] if s.first is True)

    def seconds(self, player: PlayerId) -> int:
        return sum(1 for s in self.seats[player] if s.first is False)

    def allowed(self, a: PlayerId, b: PlayerId, repeats: int | None = None) -> bool:
        """Whether the repeat limit lets a and b meet once more."""
        limit = self.rules.max_repeats if repeats is None else repeats
        return self.times_met(a, b) <= limit

    # ----------------------------------------------------------------- standing

    def rank(self, player: PlayerId) -> int:
        """The player's rank as shown (shared ranks), or the place after the last for withdrawn."""
        r = self.row[player].rank
        return r if r is not None else self.position[player] + 1

    def wins(self, player: PlayerId) -> float:
        return self.row[player].wins

    def spread(self, player: PlayerId) -> int:
        row = self.row[player]
        return row.capped_spread if self.rules.spread_cap is not None else row.spread

    @property
    def rounds_left(self) -> int | None:
        """Rounds still to be played after the results counted, the round paired included."""
        total = self.rules.rounds_total
        return None if total is None else max(0, total - self.based_on)

    def last_prize_rank(self) -> int:
        bands = self.rules.prize_bands
        if bands:
            return int(bands[-1])
        # tsh's default: one band, the top quarter of the division (at least the winner).
        return max(1, len(self.active) // 4)

    def name(self, player: PlayerId) -> str:
        p = self.by_id[player]
        return p.name or str(p.id)

    def describe(self, player: PlayerId) -> str:
        """e.g. "Smith (3rd, 5-2 +310)"."""
        w, row = self.wins(player), self.row[player]
        record = f"{w:g}-{row.losses:g} {self.spread(player):+d}"
        return f"{self.name(player)} ({ordinal(self.rank(player))}, {record})"


def build_field(
    players: Sequence[Player],
    rounds: Sequence[Iterable[Game]],
    round_number: int,
    rules: PairingRules,
    paired: Sequence[Iterable[Game]] = (),
) -> Field:
    results = [list(games) for games in rounds]
    pending = [list(games) for games in paired]
    based_on = len(results)
    if round_number <= based_on:
        raise PairingError(
            f"round {round_number} already has results: pair a round after round {based_on}"
        )
    if based_on + len(pending) != round_number - 1:
        raise PairingError(
            f"pairing round {round_number} from the results of round {based_on} needs the "
            f"pairings of rounds {based_on + 1} to {round_number - 1}; {len(pending)} given"
        )
    try:
        table = standings(players, results, spread_cap=rules.spread_cap)
    except StandingsError as error:
        raise PairingError(str(error)) from None
    by_id = {p.id: p for p in players}
    seats: dict[PlayerId, list[Seat]] = {p.id: [] for p in players}
    met: Counter[frozenset[PlayerId]] = Counter()
    for number, games in enumerate(results + pending, 1):
        taken = _seats_of_round(number, games, by_id)
        for pid, seat in taken.items():
            if seat.opponent is not None and _key(pid) < _key(seat.opponent):
                met[frozenset((pid, seat.opponent))] += 1
        for pid in seats:
            seats[pid].append(taken.get(pid, Seat(None, None)))
    position = {row.id: i for i, row in enumerate(table)}
    row = {r.id: r for r in table}
    active = [
        r.id
        for r in table
        if not (
            r.player.withdrawn_from_round is not None
            and r.player.withdrawn_from_round <= round_number
        )
    ]
    return Field(
        players=list(players),
        by_id=by_id,
        round_number=round_number,
        based_on=based_on,
        rules=rules,
        table=table,
        active=active,
        position=position,
        row=row,
        seats=seats,
        met=met,
    )


def _key(pid: PlayerId) -> tuple[str, str]:
    # Ids may be of any hashable type; order them by type name and text to count each pair once.
    return (type(pid).__name__, repr(pid))


def _seats_of_round(
    number: int, games: Iterable[Game], by_id: dict[PlayerId, Player]
) -> dict[PlayerId, Seat]:
    taken: dict[PlayerId, Seat] = {}
    for game in games:
        if game.player not in by_id or (game.opponent is not None and game.opponent not in by_id):
            unknown = game.player if game.player not in by_id else game.opponent
            raise PairingError(f"round {number}: a game of {unknown!r}, who is not in the division")
        sides = [(game.player, game.opponent, game.first)]
        if game.opponent is not None:
            back = None if game.first is None else not game.first
            sides.append((game.opponent, game.player, back))
        for pid, opponent, first in sides:
            earlier = taken.get(pid)
            if earlier is not None:
                if earlier.opponent != opponent or opponent is None:
                    raise PairingError(f"round {number}: {pid!r} has more than one game")
                if earlier.first is None and first is not None:
                    taken[pid] = Seat(opponent, first)
                continue
            bye = opponent is None and game.kind is GameKind.BYE
            taken[pid] = Seat(opponent, first if opponent is not None else None, bye)
    return taken
