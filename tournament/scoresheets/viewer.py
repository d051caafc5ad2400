"""The game viewer: the board at any turn of a scoresheet, built from its STORED report.

Never replays the record: each stored turn (`SheetTurn`) carries the tiles it put down and took
back, so the board after N events is those turns applied in order, the same board as
`python -m scoring show FILE --turn N`. `viewer_context` gives a page what it draws: the SVG, the
text alternative, the moves with their findings, and the data static/viewer.js steps through.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.http import Http404
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

import scoring
from scoring import gcg
from scoring.board import Board, builtin_layout
from tournament.core import bounds
from tournament.core.language import gcg_text
from tournament.core.sentences import isolate
from tournament.core.sheet_report import SheetFinding, SheetPlayer, SheetReport, SheetTurn
from tournament.models import Division, Scoresheet
from tournament.scoresheets import services as scoresheets
from tournament.scoresheets.board_svg import Square, board_svg, legend

# A finding as the engine gives it, or as a scoresheet's stored report keeps it: both have the
# same fields and make their `message` from their code and parameters.
AnyFinding = scoring.Finding | SheetFinding


@dataclass(frozen=True)
class TurnLine:
    """One turn of a scoresheet, with what the engine found on its line."""

    turn: scoring.Turn | SheetTurn
    findings: list[AnyFinding]

    @property
    def score_differs(self) -> bool:
        return self.turn.computed_score != self.turn.recorded_score

    @property
    def total_differs(self) -> bool:
        return self.turn.computed_total != self.turn.recorded_total


@dataclass(frozen=True)
class Replay:
    report: scoring.Report
    turns: list[TurnLine]
    other_findings: list[AnyFinding]  # on the record as a whole, or on no turn's line


def _on_lines(
    turns: list, findings: Iterable[AnyFinding]
) -> tuple[list[TurnLine], list[AnyFinding]]:
    """Each turn with the findings on its line, and the findings on no turn's line; each as the
    desk shows it (`SheetFinding`: its sentence in the active language)."""
    lines = {turn.line for turn in turns}
    on_line: dict[int, list[AnyFinding]] = defaultdict(list)
    other: list[AnyFinding] = []
    for found in findings:
        finding = found if isinstance(found, SheetFinding) else SheetFinding.of(found)
        (on_line[finding.line] if finding.line in lines else other).append(finding)
    return [TurnLine(turn, on_line.get(turn.line, [])) for turn in turns], other


@dataclass(frozen=True)
class SheetView:
    """A scoresheet's stored report, as its page shows it (no engine run)."""

    verified: bool
    errors: int
    players: list[SheetPlayer]
    turns: list[TurnLine]
    other_findings: list[AnyFinding]
    board: str  # the board after the last move, as text


def sheet_view(report: SheetReport) -> SheetView:
    """The page of a stored report (`scoresheets.current_report`)."""
    findings = report.findings
    lines, other = _on_lines(report.turns, findings)
    return SheetView(
        verified=report.verified,
        errors=sum(f.severity == scoring.ERROR for f in findings),
        players=report.players,
        turns=lines,
        other_findings=other,
        board=report.board,
    )


def replay_scoresheet(scoresheet: Scoresheet, division: Division) -> Replay:
    """The scoresheet replayed under its division's rules and tiles (no query)."""
    report = scoring.verify(scoresheet.gcg, rules=division.ruleset, tiles=division.tile_set)
    turns, other = _on_lines(report.turns, report.findings)
    return Replay(report, turns, other)


def layout_of(report: SheetReport) -> scoring.Layout:
    return builtin_layout(report.layout or "standard15") or scoring.load_layout()


def step_of(report: SheetReport, turn: int | None) -> int:
    """The viewer's step for `?turn=N` (the board after N events): how many stored turns
    those events made. None: the last step."""
    if turn is None:
        return len(report.turns)
    return sum(1 for t in report.turns if t.number <= turn)


def board_at(report: SheetReport, step: int) -> dict[Square, str]:
    """The tiles on the board after the first `step` turns."""
    board: dict[Square, str] = {}
    for t in report.turns[:step]:
        for row, col, tile in t.placed:
            board[(row, col)] = tile
        for row, col in t.removed:
            board.pop((row, col), None)
    return board


def text_board(layout: scoring.Layout, tiles: dict[Square, str]) -> str:
    """The board as `scoring show` prints it (its text alternative)."""
    board = Board(layout)
    for (row, col), tile in tiles.items():
        board.put(row, col, tile)
    return board.render()


def _marks(layout: scoring.Layout) -> list[str]:
    """What the text board shows on each empty square, row by row (the engine's own marks)."""
    return [line[4:].replace(" ", "") for line in Board(layout).render().splitlines()[1:]]


def unseen_text(unseen: dict[str, int]) -> str:
    """`AAAA B CC [CH][CH]`: each tile as often as it is unseen, multi-letter tiles bracketed."""
    return " ".join((t if len(t) == 1 else f"[{t}]") * c for t, c in unseen.items() if c > 0)


def _steps(report: SheetReport) -> list[dict[str, Any]]:
    """What is said beside the board at each step (0 to the last): the move just made, the
    totals, who moves next with their rack and the tiles they cannot see. One pass."""
    turns = report.turns
    totals = {p.nick: [0, 0] for p in report.players}
    # A record's names and nicks, isolated: viewer.js writes them into its sentences as text.
    names = {p.nick: isolate(p.name or p.nick) for p in report.players}
    steps = []
    for step in range(len(turns) + 1):
        shown = turns[step - 1] if step else None
        if shown is not None and shown.nick in totals:
            totals[shown.nick] = [shown.recorded_total or 0, shown.computed_total or 0]
        if step < len(turns):
            unseen, rack = turns[step].unseen, turns[step].rack
            who = names.get(turns[step].nick) or isolate(turns[step].nick)
        else:
            unseen, who, rack = report.unseen, "", ""
        steps.append(
            {
                "turn": shown.number if shown else 0,
                "caption": gettext("after line %(line)s: %(move)s")
                % {"line": shown.line, "move": gcg_text(shown.text)}
                if shown
                else gettext("before the first move"),
                "totals": [
                    {"nick": names[nick], "recorded": r, "computed": c}
                    for nick, (r, c) in totals.items()
                ],
                "to_move": who,
                "rack": rack,
                "unseen": unseen_text(unseen),
                "unseen_count": sum(unseen.values()),
            }
        )
    return steps


@dataclass(frozen=True)
class MoveLine(TurnLine):
    """A turn of the moves list, with the viewer's step after it (1 for the first)."""

    step: int


def turn_param(value: str | None) -> int | None:
    """`?turn=N`: None when absent; a 404 for anything but plain digits."""
    if value is None or value == "":
        return None
    number = bounds.plain_number(value)
    if number is None:
        raise Http404(gettext("?turn= takes a number of moves."))
    return number


# A real game has under a hundred turns; a record of thousands lists its moves a page at a time.
MOVES_PER_PAGE = 200


def viewer_context(
    report: SheetReport, turn: int | None, page: int | None = None
) -> dict[str, Any]:
    """Everything the viewer's template needs for the board after `turn` events, with the
    moves of list page `page` (by default the page of that turn, or the first)."""
    layout = layout_of(report)
    step = step_of(report, turn)
    tiles = board_at(report, step)
    last = {(r, c) for r, c, _ in report.turns[step - 1].placed} if step else set()
    steps = _steps(report)
    info = steps[step]
    by_line = report.findings_by_line()
    pages = max(1, -(-len(report.turns) // MOVES_PER_PAGE))
    if page is None:
        page = (max(step, 1) - 1) // MOVES_PER_PAGE + 1 if turn is not None else 1
    if not 1 <= page <= pages:
        raise Http404(gettext("No such page of moves."))
    first = (page - 1) * MOVES_PER_PAGE
    moves = [
        MoveLine(turn=t, findings=list(by_line.get(t.line, [])), step=k)
        for k, t in enumerate(report.turns[first : first + MOVES_PER_PAGE], start=first + 1)
    ]
    on_lines = {t.line for t in report.turns}
    data = {
        "size": layout.size,
        "marks": _marks(layout),
        "values": report.values,
        "step": step,
        "turns": [{"n": t.number, "placed": t.placed, "removed": t.removed} for t in report.turns],
        "steps": steps,
    }
    svg: SafeString = mark_safe(  # noqa: S308 - built by board_svg, every text escaped there
        board_svg(
            layout,
            tiles,
            report.values,
            last,
            gettext("The board %(caption)s") % {"caption": info["caption"]},
        )
    )
    numbers = [0] + [t.number for t in report.turns]
    return {
        "prev_turn": numbers[max(step - 1, 0)],
        "next_turn": numbers[min(step + 1, len(report.turns))],
        "final_turn": numbers[-1],
        "board_svg": svg,
        "board_text": text_board(layout, tiles),
        "legend": legend(layout),
        "step": step,
        "last_step": len(report.turns),
        "info": info,
        "moves": moves,
        "page": page,
        "pages": range(1, pages + 1) if pages > 1 else range(0),
        "other_findings": [f for f in report.findings if f.line not in on_lines],
        "viewer_data": data,
    }


@dataclass(frozen=True)
class HighPlay:
    sheet: Scoresheet
    turn: SheetTurn
    player: str  # the name on the scoresheet, else its nick

    @property
    def score(self) -> int:
        return self.turn.computed_score if self.turn.computed_score is not None else 0

    @property
    def move(self) -> str:
        """`8D GARDEN`: the play's position and word from its canonical line."""
        tokens = self.turn.text.split(": ", 1)[-1].split()
        # ">nick: [RACK] POSITION WORD +score total": the two tokens before the score.
        scored = next((k for k, t in enumerate(tokens) if t[:1] in "+-"), len(tokens))
        return " ".join(tokens[max(scored - 2, 0) : scored])


def high_plays(sheets: Iterable[Scoresheet]) -> list[HighPlay]:
    """Every play of the scoresheets that stayed on the board, highest first (by the engine's
    score; the earlier round and line first among equals), from their stored reports."""
    plays = []
    for sheet in sheets:
        report = scoresheets.current_report(sheet)
        names = {p.nick: p.name or p.nick for p in report.players}
        for t in report.turns:
            if t.kind == gcg.PLAY and t.placed and not t.withdrawn:
                plays.append(HighPlay(sheet, t, names.get(t.nick, t.nick)))
    plays.sort(key=lambda p: (-p.score, p.sheet.game.round, p.sheet.pk, p.turn.line))
    return plays
