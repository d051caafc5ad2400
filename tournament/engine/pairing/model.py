"""The plain data a pairing request and its answer are made of."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from tournament.engine.pairing.messages import Message
from tournament.engine.standings import PlayerId


class PairingError(ValueError):
    """A pairing request that cannot be met, with a sentence a director can act on."""


@dataclass(frozen=True)
class PairingRules:
    """How a division is paired. Every field has tsh's default where tsh has one."""

    max_repeats: int = 0  # times a pair may meet again (0 = no rematch), tsh's Repeats
    rounds_total: int | None = None  # tsh's max_rounds: needed by Gibson, cp and round robins
    gibson: bool = True
    # The most spread a game can swing, per game; a list gives it from the last round backwards
    # (tsh's gibson_spread), its last value standing for every earlier round.
    gibson_spread: int | Sequence[int] = 500
    # The last rank of each prize band (tsh's prize_bands); None: one band, the top quarter.
    prize_bands: Sequence[int] | None = None
    bye_spread: int = 50
    forbidden_pairs: Sequence[frozenset[PlayerId]] = ()
    groups: Mapping[PlayerId, str] | None = None  # same club, team or family: a forbidden pair
    spread_cap: int | Sequence[int] | None = None  # rank on capped spread, as standings() does
    options: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    def __post_init__(self) -> None:
        if self.max_repeats < 0:
            raise PairingError(f"a repeat limit cannot be negative ({self.max_repeats})")
        if self.rounds_total is not None and self.rounds_total < 1:
            raise PairingError(f"an event of {self.rounds_total} rounds")
        spreads = self.gibson_spreads()
        if not spreads or any(s < 0 for s in spreads):
            raise PairingError(f"gibson_spread should be positive numbers, not {spreads}")
        if self.prize_bands is not None and (
            any(b < 1 for b in self.prize_bands)
            or list(self.prize_bands) != sorted(self.prize_bands)
        ):
            raise PairingError(f"prize bands should be rising ranks, not {list(self.prize_bands)}")

    def gibson_spreads(self) -> list[int]:
        spread = self.gibson_spread
        return [spread] if isinstance(spread, int) else [int(s) for s in spread]

    def gibson_spread_for(self, rounds_from_end: int) -> int:
        """The spread one game may swing `rounds_from_end` rounds before the end (0 = the last)."""
        spreads = self.gibson_spreads()
        return spreads[min(rounds_from_end, len(spreads) - 1)]

    def forbidden(self, a: PlayerId, b: PlayerId) -> bool:
        if frozenset((a, b)) in self._forbidden_set():
            return True
        if self.groups is None:
            return False
        group = self.groups.get(a)
        return group is not None and group != "" and group == self.groups.get(b)

    def _forbidden_set(self) -> frozenset[frozenset[PlayerId]]:
        cached = self.__dict__.get("_forbidden_cache")
        if cached is None:
            cached = frozenset(frozenset(p) for p in self.forbidden_pairs)
            object.__setattr__(self, "_forbidden_cache", cached)
        return cached


@dataclass
class Pairing:
    """One table of a round: `first` goes first; `second` None is a bye for `first`."""

    table: int  # 1, 2 … from the top of the standings; 0 for a bye (no table)
    first: PlayerId
    second: PlayerId | None
    reasons: tuple[Message, ...] = ()

    @property
    def is_bye(self) -> bool:
        return self.second is None

    @property
    def players(self) -> tuple[PlayerId, ...]:
        return (self.first,) if self.second is None else (self.first, self.second)


@dataclass
class PairingWarning:
    """Something a director should look at: a stable `code`, its `params` (plain JSON values)
    and the players it is about; `message` is the sentence `messages.TEMPLATES` makes of them."""

    code: str
    params: Mapping[str, Any]
    players: tuple[PlayerId, ...] = ()

    @property
    def message(self) -> Message:
        return Message(self.code, **self.params)


@dataclass
class SimulationRow:
    """One player's line of COP's simulation table."""

    player: PlayerId
    chances: list[float]  # of finishing 1st, 2nd … down to the last prize place (0..1)
    hopeful: int  # the best place reached in at least the hopefulness threshold's share of runs
    lowest: int  # the worst place reached in any run
    gibsonized: bool


@dataclass
class SimulationTable:
    """COP's simulations of the rounds left: each player's chance of each prize place, in the
    standings' order."""

    sims: int
    places: int
    rows: list[SimulationRow]
    seed: int = 0

    def as_dict(self) -> dict[str, Any]:
        """Plain JSON values (the player ids as they are)."""
        return {
            "sims": self.sims,
            "places": self.places,
            "seed": self.seed,
            "rows": [
                {
                    "player": r.player,
                    "chances": [round(c, 6) for c in r.chances],
                    "hopeful": r.hopeful,
                    "lowest": r.lowest,
                    "gibsonized": r.gibsonized,
                }
                for r in self.rows
            ],
        }


@dataclass
class PairingResult:
    round: int
    system: str
    based_on: int  # the last round whose results the pairing used
    pairings: list[Pairing]
    warnings: list[PairingWarning] = field(default_factory=list)
    notes: list[Message] = field(default_factory=list)
    simulation: SimulationTable | None = None  # COP's: each player's chance of each prize place

    def pairs(self) -> list[tuple[PlayerId, PlayerId | None]]:
        return [(p.first, p.second) for p in self.pairings]

    def opponent_of(self, player: PlayerId) -> PlayerId | None:
        for p in self.pairings:
            if p.first == player:
                return p.second
            if p.second == player:
                return p.first
        raise KeyError(player)
