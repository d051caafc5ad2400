"""What a replay gives back: each event as the engine saw it (``Turn``), the players' totals and
the findings (``Report``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from . import gcg
from .board import Board
from .findings import ERROR, Finding
from .rules import Ruleset
from .tiles import BLANK, TileSet

OUT = "out"  # a player went out
SCORELESS = "scoreless"  # consecutive scoreless turns
PASSES = "passes"  # every player passed the agreed number of times in a row

# The tiles off the board before a move, and how the record's racks split into tiles: what a
# turn's ``unseen`` is made from when it is first asked for.
Unseen = tuple[dict[str, int], Callable[[str], list[str]]]


@dataclass(slots=True)
class Turn:
    """One event of the record as the engine saw it."""

    event: gcg.Event = field(repr=False)
    computed_score: int | None  # None where the engine could not compute it
    computed_total: int
    words: list[tuple[str, str]] = field(default_factory=list)  # (word formed, validity mark)
    position: str | None = None  # canonical position and word of a play
    word: str | None = None
    # For drawing the game turn by turn without replaying it: the events replayed up to and
    # including this one (``verify(upto=number)`` shows the board after it), the tiles it put
    # down as (row, column, tile), those a withdrawn phony took off as (row, column), and (the
    # property ``unseen``) the tiles its player could not see before moving.
    number: int = 0
    placed: list[tuple[int, int, str]] = field(default_factory=list)
    removed: list[tuple[int, int]] = field(default_factory=list)
    seen_from: Unseen | None = field(default=None, repr=False, compare=False)
    _unseen: dict[str, int] | None = field(default=None, repr=False, compare=False)

    @property
    def unseen(self) -> dict[str, int]:
        """The tiles the player could not see before moving (tile tracking): not on the board,
        nor on the rack the line records. Made when first asked for: most callers never do."""
        if self._unseen is None:
            self._unseen = _unseen_by(self.event.rack, self.seen_from) if self.seen_from else {}
            self.seen_from = None
        return self._unseen

    @unseen.setter
    def unseen(self, tiles: dict[str, int]) -> None:
        self._unseen, self.seen_from = tiles, None

    @property
    def line(self) -> int:
        return self.event.line

    @property
    def nick(self) -> str:
        return self.event.nick

    @property
    def kind(self) -> str:
        return self.event.kind

    @property
    def recorded_score(self) -> int:
        return self.event.score

    @property
    def recorded_total(self) -> int:
        return self.event.total

    @property
    def text(self) -> str:
        """The event as a canonical GCG line."""
        return gcg.event_text(self.event, self.word, self.position)


def _unseen_by(rack: str, seen_from: Unseen) -> dict[str, int]:
    """The tiles of the pool (a copy kept for the turn) less those of the rack as written,
    quietly: the move's own checks report a rack that cannot be read."""
    left, split = seen_from
    if rack and rack != "UNKNOWN":
        for t in split(rack.upper()):
            t = BLANK if t == "." else t
            if left.get(t, 0) > 0:
                left[t] -= 1
    return {t: c for t, c in left.items() if c > 0}


@dataclass
class PlayerResult:
    nick: str
    name: str
    final: int  # the last running total recorded
    computed: int  # the total the engine computed


@dataclass
class Report:
    players: list[PlayerResult]
    turns: list[Turn]
    findings: list[Finding]
    rules: Ruleset
    tiles: TileSet
    board: Board
    ended: str | None  # OUT, SCORELESS, PASSES or None
    conventions: dict[str, str] = field(default_factory=dict)
    canonical: dict[int, tuple[str, str]] = field(default_factory=dict)  # line -> (position, word)
    unseen: dict[str, int] = field(default_factory=dict)  # tiles not on the board at the end

    @property
    def verified(self) -> bool:
        return not any(f.severity == ERROR for f in self.findings)

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == ERROR]

    def as_dict(self, file: str | None = None) -> dict[str, Any]:
        data: dict[str, Any] = {}
        if file is not None:
            data["file"] = file
        data["verified"] = self.verified
        data["rules"] = self.rules.name
        data["tiles"] = self.tiles.name
        data["players"] = [
            {"nick": p.nick, "name": p.name, "final": p.final, "computed": p.computed}
            for p in self.players
        ]
        data["findings"] = [f.as_dict() for f in self.findings]
        return data
