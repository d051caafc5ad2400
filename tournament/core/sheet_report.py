"""The rules engine's report on a scoresheet, as stored (JSON) on a `Scoresheet`, typed.

`SheetReport.from_dict` reads what is stored, old rows too: a key an older row does not have
takes its default, and a key this module does not know is kept in `extra` and written back by
`as_dict`, so that reading and writing a row never loses anything.

A finding is stored as its code and parameters (`scoring.messages`), never as a sentence: pages
make the sentence (`SheetFinding.message`). A finding stored as a sentence, before findings
carried parameters, is read as the `legacy` case that keeps the sentence.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from scoring.messages import legacy
from tournament.core import sentences

# The keys as the engine's `Report.as_dict` orders them, then the desk's own.
_KEYS = (
    "file",
    "verified",
    "rules",
    "tiles",
    "players",
    "findings",
    "turns",
    "board",
    "ended",
    "layout",
    "unseen",
    "values",
    "key",
)


@dataclass(frozen=True)
class SheetPlayer:
    nick: str
    name: str = ""
    final: int | None = None  # the last total written on the scoresheet
    computed: int | None = None  # the engine's


@dataclass(frozen=True)
class SheetFinding:
    line: int  # 0: the record as a whole
    severity: str  # "error" or "warning"
    code: str
    params: dict[str, Any] = field(default_factory=dict, hash=False)  # plain JSON values
    player: str | None = None
    expected: Any = None
    recorded: Any = None

    @property
    def message(self) -> str:
        """The finding in the active language, made from its code and parameters."""
        return sentences.finding(self.code, self.params)

    @classmethod
    def of(cls, found: Any) -> SheetFinding:
        """The engine's `scoring.Finding` (or a stored one) as the desk shows it."""
        return cls(
            found.line,
            found.severity,
            found.code,
            dict(found.params),
            found.player,
            found.expected,
            found.recorded,
        )

    def as_json(self) -> dict[str, Any]:
        """As stored, with the sentence: for a page's script."""
        return {**asdict(self), "message": self.message}


def _finding(item: Mapping[str, Any]) -> dict[str, Any]:
    """A stored finding's fields; one stored as a sentence keeps it as a `legacy` one."""
    if "params" not in item and "message" in item:
        return {**item, "params": legacy(str(item["message"]))}
    return dict(item)


@dataclass(frozen=True)
class SheetTurn:
    line: int
    nick: str
    kind: str
    text: str
    recorded_score: int | None = None
    computed_score: int | None = None
    recorded_total: int | None = None
    computed_total: int | None = None
    # What the game viewer draws each turn from, without replaying the record (older rows lack
    # them and are made again: `scoresheets.current_report`).
    number: int = 0  # events replayed up to this one: the board after it is `?turn=number`
    rack: str = ""  # as the record writes it
    notes: list[str] = field(default_factory=list)  # the #note lines after the move
    placed: list[list[Any]] = field(default_factory=list)  # [row, column, tile] (0-based)
    removed: list[list[int]] = field(default_factory=list)  # [row, column]: a withdrawn phony's
    unseen: dict[str, int] = field(default_factory=dict)  # unseen by its player before moving
    bingo: bool = False  # the play used a whole rack
    withdrawn: bool = False  # the play was taken back (a phony)

    @property
    def wrong(self) -> bool:
        """The engine scores the turn otherwise than the scoresheet."""
        return self.computed_score is not None and self.computed_score != self.recorded_score


def _typed(kind: type, items: Any) -> list:
    """Each stored dict as `kind`, with only the fields `kind` has (older rows may lack some)."""
    names = {f.name for f in fields(kind)}
    return [kind(**{k: v for k, v in item.items() if k in names}) for item in items or []]


@dataclass
class SheetReport:
    verified: bool = False
    players: list[SheetPlayer] = field(default_factory=list)
    findings: list[SheetFinding] = field(default_factory=list)
    turns: list[SheetTurn] = field(default_factory=list)
    board: str = ""  # the board after the last move, drawn as text
    ended: str | None = None  # how the game ended, where it did
    layout: str = ""  # the board's layout (scoring's name), for drawing it
    unseen: dict[str, int] = field(default_factory=dict)  # tiles not on the board at the end
    values: dict[str, int] = field(default_factory=dict)  # each tile's points (a blank's: 0)
    rules: str = ""
    tiles: str = ""
    file: str = ""  # the name of the file it was uploaded as, if any
    key: str = ""  # what it was made from (`scoresheets.report_key`): made again when that changes
    extra: dict[str, Any] = field(default_factory=dict)  # keys stored that are not the above

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> SheetReport:
        data = data or {}
        return cls(
            verified=bool(data.get("verified", False)),
            players=_typed(SheetPlayer, data.get("players")),
            findings=_typed(SheetFinding, [_finding(f) for f in data.get("findings") or []]),
            turns=_typed(SheetTurn, data.get("turns")),
            board=data.get("board") or "",
            ended=data.get("ended"),
            layout=data.get("layout") or "",
            unseen=data.get("unseen") or {},
            values=data.get("values") or {},
            rules=data.get("rules") or "",
            tiles=data.get("tiles") or "",
            file=data.get("file") or "",
            key=data.get("key") or "",
            extra={k: v for k, v in data.items() if k not in _KEYS},
        )

    def as_dict(self) -> dict[str, Any]:
        """As stored: the engine's keys in its order, `file` only where there is one."""
        data: dict[str, Any] = {"file": self.file} if self.file else {}
        data.update(
            verified=self.verified,
            rules=self.rules,
            tiles=self.tiles,
            players=[asdict(p) for p in self.players],
            findings=[asdict(f) for f in self.findings],
            turns=[asdict(t) for t in self.turns],
            board=self.board,
            ended=self.ended,
        )
        if self.layout:
            data["layout"] = self.layout
        if self.unseen:
            data["unseen"] = self.unseen
        if self.values:
            data["values"] = self.values
        if self.key:
            data["key"] = self.key
        data.update(self.extra)
        return data

    @property
    def record_findings(self) -> list[SheetFinding]:
        """The findings on the record as a whole, not on a line."""
        return [f for f in self.findings if not f.line]

    def findings_by_line(self) -> dict[int, list[SheetFinding]]:
        by_line: dict[int, list[SheetFinding]] = {}
        for f in self.findings:
            by_line.setdefault(f.line, []).append(f)
        return by_line

    def turns_by_line(self) -> dict[int, SheetTurn]:
        return {t.line: t for t in self.turns}
