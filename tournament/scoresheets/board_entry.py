"""Board entry at the desk and on a player's phone: the service both typing pages call as a
turn is tapped in (`board_turns`), and what their board is drawn from (`board_context`).

The placing and scoring is `entry.py`'s (pure, through the rules engine); here the division's
ruleset, tile set and word lists are loaded, the record is held to its bounds
(`bounds.record_text`) before and after, and the answer is made in the reader's language: each
turn on a line (number, player, move, score, running totals, findings), the board, whose turn
it is, and a refusal's reason. Like the live check, it answers about the record it is sent and
keeps nothing: the page keeps the sheet (in the browser's local storage until it is saved).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext, gettext_lazy, ngettext

import scoring
from scoring import gcg
from tournament.core import bounds, jsonin, sentences
from tournament.core.sheet_report import SheetReport
from tournament.models import Game
from tournament.scoresheets import entry
from tournament.scoresheets import services as scoresheets
from tournament.scoresheets.board_svg import NAMES, PREMIUMS

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

# The most turns one request may place (a whole game again, after its first turn is changed).
MOST_TURNS = bounds.MAX_RECORD_LINES
MOST_TURNS_BYTES = 128 * 1024  # the turns' JSON

# Board entry's own reasons for refusing a turn (`entry.REFUSALS`), each a clause after
# "Not added: ". The engine's reasons are its findings' sentences.
REFUSALS: dict[str, StrOrPromise] = {
    "bad_turn": gettext_lazy("the turn could not be read"),
    "bad_turns": gettext_lazy("the turns sent could not be read"),
    "two_players": gettext_lazy(
        "the board is for a game of two players, and this record has %(count)s"
    ),
    "no_square": gettext_lazy("tap the square where the word starts first"),
    "bad_square": gettext_lazy("that square is not on the board"),
    "no_word": gettext_lazy("type the word first"),
    "bad_word": gettext_lazy(
        "%(word)s holds a character that is not a letter: type letters, a dot for a letter "
        "already on the board, and ? before a blank's letter"
    ),
    "blank_letter": gettext_lazy(
        "in %(word)s a ? is not followed by the letter the blank stands for"
    ),
    "bad_rack": gettext_lazy("the rack %(rack)s holds a character that is not a tile"),
    "no_tiles": gettext_lazy("type the tiles exchanged in Tiles, or how many there were"),
    "bad_tiles": gettext_lazy("%(tiles)s are not tiles of the set"),
    "not_after_play.phony": gettext_lazy(
        "Challenged off takes back the play just made, and the last turn is not a play"
    ),
    "not_after_play.challenge": gettext_lazy(
        "a challenge bonus goes with the play just made, and the last turn is not a play"
    ),
    "no_bonus": gettext_lazy(
        "under the %(rules)s rules a wrong challenge earns no points: the challenger loses "
        "their turn, so enter it as a Pass"
    ),
    "bonus_points": gettext_lazy("type the bonus's points"),
    "no_time_penalty": gettext_lazy("the %(rules)s rules have no time penalties"),
    "time_player": gettext_lazy("choose whose time penalty it is"),
    "bad_minutes": gettext_lazy("type the minutes over time"),
    "not_over": gettext_lazy("the game is not over yet"),
    "ended_already": gettext_lazy("the end of the game is entered already"),
    "rack_left": gettext_lazy("type the tiles left on %(player)s's rack in Tiles"),
    "board_unknown": gettext_lazy(
        "the board is not known from line %(line)s on: correct that turn first"
    ),
}


def refusal_text(refusal: entry.Refusal, number: int | None = None) -> str:
    """Why a turn was not added, in one sentence in the active language; `number`, the turn's
    number when it is not the turn being added (a later one, placed again after an edit)."""
    params = {k: sentences.isolate(bounds.quoted(v)) for k, v in refusal.params.items()}
    if refusal.engine:
        reason = sentences.finding(refusal.code, refusal.params)
    else:
        key = refusal.code
        case = refusal.params.get("case")
        if case and f"{key}.{case}" in REFUSALS:
            key = f"{key}.{case}"
        reason = str(REFUSALS.get(key, REFUSALS["bad_turn"])) % params
    reason = reason.rstrip(".")
    if number is not None:
        return gettext("Not added: turn %(number)s: %(reason)s.") % {
            "number": number,
            "reason": reason,
        }
    return gettext("Not added: %(reason)s.") % {"reason": reason}


class Unreadable(ValueError):
    """The turns a request sent are not JSON a page of ours sends (a 400): the sentence says so."""


def read_turns(data: str) -> list[entry.Spec]:
    """The turns a request sends (JSON: a list of specs), bounded (`core/jsonin.py`);
    `Unreadable` when the JSON cannot be read, `Refusal` when a turn is not one."""
    try:
        items = jsonin.read(data, MOST_TURNS_BYTES) if data.strip() else []
    except jsonin.Refused as why:
        said = str(REFUSALS["bad_turns"])
        if len(data) <= MOST_TURNS_BYTES and str(why) == gettext("it is not JSON"):
            raise Unreadable(gettext("Not added: %(reason)s.") % {"reason": said}) from None
        raise Unreadable(
            gettext("Not added: %(reason)s: %(why)s.") % {"reason": said, "why": why}
        ) from None
    if not isinstance(items, list) or len(items) > MOST_TURNS:
        raise entry.Refusal("bad_turns")
    specs = []
    for k, item in enumerate(items):
        try:
            specs.append(entry.read_spec(item))
        except entry.Refusal as refusal:
            refusal.turn = k
            raise
    return specs


def turns_cost(record: str, turns: int) -> int:
    """What a request of board entry is charged (a link's budget, `phone.services.spend`): the
    live check's cost of the record (`bounds.check_cost`) for each engine replay it takes."""
    return bounds.check_cost(record) * (2 + turns)


def board_turns(game: Game, record: str, turns: str, first: int = 0) -> dict[str, Any]:
    """The record `record` (GCG text, bounded) with the turns `turns` (JSON specs) added: the
    lines each adds (`lines`) and what the page shows (`answer`); or, when a turn cannot be
    added, `refused`, why, and `turn`, its index among those sent. `first`: the number of
    turns before the first sent (for a refusal's sentence). A record over a bound, before or
    after, is refused (`bounds.RecordRefused`); turns that are not readable JSON, too
    (`Unreadable`: the views answer 400)."""
    text = bounds.record_text(record, saving=False)
    try:
        specs = read_turns(turns)
    except entry.Refusal as refusal:
        return {"refused": refusal_text(refusal), "turn": refusal.turn}
    rules, tiles, lexicons, _notes = scoresheets.engine_settings(game.division)
    try:
        added = entry.add_turns(text, specs, rules=rules, tiles=tiles, lexicons=lexicons)
    except entry.Refusal as refusal:
        number = first + refusal.turn + 1 if refusal.turn else None
        return {"refused": refusal_text(refusal, number), "turn": refusal.turn}
    bounds.record_text(added.text, saving=False)
    answer = board_answer(game, added)
    return {"lines": added.lines, **answer}


def _move(ev: gcg.Event, turn: scoring.Turn) -> str:
    """A turn's move, as the turn list shows it."""
    if ev.kind == gcg.PLAY:
        return f"{turn.position or ev.position} {turn.word or ev.word}"
    if ev.kind == gcg.PASS:
        return gettext("pass")
    if ev.kind == gcg.EXCHANGE:
        tiles = str(ev.count) if ev.count is not None else ev.tiles
        return gettext("exchange %(tiles)s") % {"tiles": tiles}
    if ev.kind == gcg.PHONY:
        return gettext("challenged off")
    if ev.kind == gcg.CHALLENGE:
        return gettext("challenge bonus")
    if ev.kind == gcg.TIME:
        return gettext("time penalty")
    if ev.kind == gcg.END_POINTS:
        return gettext("went out: %(tiles)s left") % {"tiles": ev.tiles}
    return gettext("rack left: %(tiles)s") % {"tiles": ev.tiles}


def _finding(found: scoring.Finding) -> dict[str, str]:
    params = {k: bounds.quoted(v) for k, v in found.params.items()}
    return {"severity": found.severity, "message": sentences.finding(found.code, params)}


def board_answer(game: Game, added: entry.Added) -> dict[str, Any]:
    """What the board entry shows of the record: each turn on a line, the board, the state of
    the game and the engine's findings, in the active language; `preview`, the last turn
    sent when it is a play (the tiles it puts down and how it scores)."""
    report = added.report
    now = entry.state(report)
    nicks = now.nicks
    complete = now.ended is not None and not now.pending
    shown = [f for f in report.findings if complete or f.code not in entry.STILL_TO_COME]
    by_line: dict[int, list[scoring.Finding]] = {}
    for found in shown[: bounds.FINDINGS_SHOWN]:
        by_line.setdefault(found.line, []).append(found)
    running = dict.fromkeys(nicks, 0)
    turns = []
    for turn in report.turns:
        ev = turn.event
        running[ev.nick] = ev.total
        said = by_line.get(turn.line, [])
        turns.append(
            {
                "line": turn.line,
                "nick": bounds.quoted(ev.nick),
                "kind": ev.kind,
                "move": bounds.quoted(_move(ev, turn)),
                "score": ev.score,
                "computed": turn.computed_score,
                "totals": [running.get(n, 0) for n in nicks],
                "findings": [_finding(f) for f in said],
                "wrong": bool(said)
                or (turn.computed_score is not None and turn.computed_score != ev.score),
            }
        )
    board = report.board
    tiles = [
        [r, c, tile]
        for r in range(board.size)
        for c in range(board.size)
        if (tile := board.at(r, c)) is not None
    ]
    last = next((t.placed for t in reversed(report.turns) if t.placed or t.removed), [])
    errors = sum(1 for f in shown if f.severity == scoring.ERROR)
    return {
        "turns": turns,
        "board": tiles,
        "last": [[r, c] for r, c, _t in last],
        "nicks": [bounds.quoted(n) for n in nicks],
        "legend": gettext("Running totals: %(players)s")
        % {"players": " – ".join(sentences.isolate(bounds.quoted(n)) for n in nicks)},
        "to_move": None if now.ended else now.to_move,
        "ended": now.ended,
        "pending": [bounds.quoted(nicks[p]) for p in now.pending],
        "status": _status(report, now),
        "summary": _summary(game, report, now, errors, complete),
        "record_findings": [_finding(f) for f in by_line.get(0, [])],
        "more": max(0, len(shown) - bounds.FINDINGS_SHOWN),
        "preview": _preview(added.placed, report) if added.placed else None,
    }


def _status(report: scoring.Report, now: entry.State) -> str:
    nicks = now.nicks
    if len(nicks) != 2:
        return gettext("The board is for a game of two players.")
    if now.ended is None:
        return gettext("Turn %(number)s: %(player)s to play.") % {
            "number": len(report.turns) + 1,
            "player": sentences.isolate(nicks[now.to_move]),
        }
    if not now.pending:
        return gettext("The game is over and its end is entered: check the turns, then Save.")
    player = sentences.isolate(nicks[now.pending[0]])
    if now.ended == "out" and now.out is not None:
        return gettext(
            "The game is over: %(player)s went out. End of game adds the rack points."
        ) % {"player": sentences.isolate(nicks[now.out])}
    return gettext(
        "The game is over. Type the tiles left on %(player)s's rack in Tiles, then End of game."
    ) % {"player": player}


def _summary(
    game: Game, report: scoring.Report, now: entry.State, errors: int, complete: bool
) -> str:
    if not report.turns:
        return gettext("No moves yet: nothing is verified.")
    if errors:
        said = ngettext(
            "The engine finds %(count)s error.", "The engine finds %(count)s errors.", errors
        ) % {"count": errors}
    elif complete:
        said = gettext("Verified: the engine finds nothing wrong.")
    else:
        said = gettext("Nothing wrong so far.")
    if complete:
        sheet = SheetReport.from_dict(
            {
                "players": [
                    {"nick": p.nick, "name": p.name, "final": p.final, "computed": p.computed}
                    for p in report.players
                ],
                # The time penalties, compared with the entered ones.
                "turns": [
                    {
                        "line": t.line,
                        "nick": t.nick,
                        "kind": t.kind,
                        "text": t.text,
                        "recorded_score": t.recorded_score,
                    }
                    for t in report.turns
                    if t.kind == gcg.TIME
                ],
            }
        )
        if scoresheets.differs(game, sheet):
            said += " " + gettext(
                "The final scores differ from the entered result: the scoresheet will be flagged."
            )
        said = " ".join([said, *scoresheets.penalty_differences(game, sheet)])
    return said


def _preview(placed: entry.Placed, report: scoring.Report) -> dict[str, Any]:
    parts = [
        gettext("%(word)s at %(position)s scores %(score)s.")
        % {"word": placed.word, "position": placed.position, "score": placed.score}
    ]
    if placed.words:
        parts.append(gettext("Words formed: %(words)s.") % {"words": ", ".join(placed.words)})
    premiums = []
    for square, letter, word in placed.premiums:
        kind = PREMIUMS.get((letter, word))
        if kind is not None:
            premiums.append(f"{square} {NAMES[kind[0]]}")
    if premiums:
        parts.append(gettext("Premium squares: %(squares)s.") % {"squares": ", ".join(premiums)})
    if placed.bingo:
        parts.append(gettext("Bingo: +%(bonus)s.") % {"bonus": report.rules.bingo_bonus})
    return {
        "position": placed.position,
        "word": placed.word,
        "score": placed.score,
        "placed": [list(p) for p in placed.placed],
        "text": " ".join(parts),
    }


# -- the board the page draws -------------------------------------------------------------------


def _square_label(row: int, col: int, premium: tuple[str, str] | None) -> str:
    name = f"{row + 1}{chr(ord('A') + col)}"
    if premium is None:
        return name
    return f"{name}, {NAMES[premium[0]]}"


def board_context(
    game: Game, record: str, *, turn_url: str, save_url: str, saved: str = ""
) -> dict[str, Any]:
    """What `_board_entry.html` draws: the squares (each a button named by its coordinate, row
    first, and its premium), the players, the ruleset's choices, and the sheet to start from:
    `record` (a new sheet's header, or a saved sheet, read back turn by turn where it can be)."""
    rules, tiles, lexicons, _notes = scoresheets.engine_settings(game.division)
    layout = scoring.load_layout("standard15")
    rows = []
    for r in range(layout.size):
        squares = []
        for c in range(layout.size):
            i = r * layout.size + c
            premium = PREMIUMS.get((layout.letter_mult[i], layout.word_mult[i]))
            squares.append(
                {
                    "row": r,
                    "col": c,
                    "label": _square_label(r, c, premium),
                    "cls": premium[0] if premium else "",
                    "mark": "★" if i == layout.centre else (premium[1] if premium else ""),
                }
            )
        rows.append({"number": r + 1, "squares": squares})
    header = scoresheets.scoresheet_header(game)
    specs: list[entry.Spec] = []
    read = entry.specs_of(record, rules=rules, tiles=tiles, lexicons=lexicons) if record else None
    if read is not None and bounds.refusal(record, saving=False) is None:
        header, specs = read
    try:
        added = entry.add_turns(header, specs, rules=rules, tiles=tiles, lexicons=lexicons)
    except entry.Refusal:
        header = scoresheets.scoresheet_header(game)
        added = entry.add_turns(header, [], rules=rules, tiles=tiles, lexicons=lexicons)
        specs = []
    ruleset = added.report.rules
    data = {
        "header": [line for line in header.splitlines() if line.strip()],
        "entries": [
            {"spec": spec.as_dict(), "lines": lines}
            for spec, lines in zip(specs, added.lines, strict=True)
        ],
        "saved": saved,
        "answer": board_answer(game, added),
        # The tiles of several letters (Spanish CH), one tile each as the Word box is typed.
        "digraphs": [t for t in added.report.tiles.letters if len(t) > 1],
    }
    return {
        "rows": rows,
        "columns": [chr(ord("A") + c) for c in range(layout.size)],
        "turn_url": turn_url,
        "save_url": save_url,
        "challenge": ruleset.challenge,
        "challenge_points": ruleset.challenge_points,
        "time_penalty": ruleset.time_penalty_per_minute,
        "nicks": [p.nick for p in added.report.players],
        "data": data,
    }
