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
    # including this one (``verify(upto=number)`` shows the board after it), those a withdrawn
    # phony took off as (row, column); and, made when first asked for (most callers never do),
    # the properties ``placed`` and ``unseen``, from the squares and tiles the play laid and the
    # count of each tile off the board before the turn (in ``tracking.tiles`` order).
    number: int = 0
    removed: list[tuple[int, int]] = field(default_factory=list)
    tracking: Tracking | None = field(default=None, repr=False, compare=False)
    laid: tuple[list[int], list[str]] | None = field(default=None, repr=False, compare=False)
    pool: tuple[int, ...] | None = field(default=None, repr=False, compare=False)
    _placed: list[tuple[int, int, str]] | None = field(default=None, repr=False, compare=False)
    _unseen: dict[str, int] | None = field(default=None, repr=False, compare=False)

    @property
    def placed(self) -> list[tuple[int, int, str]]:
        """The tiles the play put down, as (row, column, tile)."""
        if self._placed is None:
            laid, tracking = self.laid, self.tracking
            self._placed = tracking.cells(*laid) if laid and tracking else []
        return self._placed

    @placed.setter
    def placed(self, tiles: list[tuple[int, int, str]]) -> None:
        self._placed = tiles

    @property
    def unseen(self) -> dict[str, int]:
        """The tiles the player could not see before moving (tile tracking): not on the board,
        nor on the rack the line records."""
        if self._unseen is None:
            tracking, pool = self.tracking, self.pool
            if tracking is not None and pool is not None:
                self._unseen = tracking.unseen(self.event.rack, pool)
            else:
                self._unseen = {}
        return self._unseen

    @unseen.setter
    def unseen(self, tiles: dict[str, int]) -> None:
        self._unseen = tiles

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


class Tracking:
    """What the turns of one replay need to make their ``placed`` and ``unseen`` when asked: the
    board's width (squares are numbered as on ``Board.squares``), the set's tiles in the order of
    a turn's ``pool``, and how a rack splits into tiles. It holds no turn: a report's objects
    are freed as soon as it is."""

    __slots__ = ("width", "tiles", "split")

    def __init__(
        self, width: int, tiles: tuple[str, ...], split: Callable[[str], list[str]]
    ) -> None:
        self.width = width
        self.tiles = tiles
        self.split = split

    def cells(self, squares: list[int], tiles: list[str]) -> list[tuple[int, int, str]]:
        """(row, column, tile) of tiles on these squares."""
        width = self.width
        return [(sq // width - 1, sq % width - 1, t) for sq, t in zip(squares, tiles, strict=True)]

    def unseen(self, rack: str, pool: tuple[int, ...]) -> dict[str, int]:
        """The tiles off the board (``pool``) less the rack as written."""
        return _unseen_by(rack, dict(zip(self.tiles, pool, strict=True)), self.split)


def _unseen_by(
    rack: str, pool: dict[str, int], split: Callable[[str], list[str]]
) -> dict[str, int]:
    """The tiles of the pool less those of the rack as written, quietly: the move's own checks
    report a rack that cannot be read."""
    left = pool
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
