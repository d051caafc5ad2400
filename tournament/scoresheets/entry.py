"""Board entry of a scoresheet: a turn as a player writes it on paper, placed and scored by the
rules engine, and written as the GCG line(s) it adds to the record.

A turn (`Spec`) is a play (the square its word starts on, across or down, and the word as typed:
letters already on the board as they are or as `.`, a blank as a lower-case letter or `?` and
its letter), a pass, an exchange, a phony challenged off, a challenge bonus, a time penalty or
the end of the game. `add_turns` replays the record so far with the engine (`scoring.verify`),
puts the turn after it and writes its line: the canonical position and word (`8H` across, `H8`
down; played-through letters as `.`; blanks in lower case), the engine's score, or the player's
own figure where they typed one (the difference is the engine's finding, as on a typed sheet),
and the running total. A turn that cannot stand where it is (a word off the board, not touching
the tiles played, disagreeing with the letters there; a phony with no play before it; an end
before the game is over) is refused: a `Refusal`, a code and its parameters that the app makes
a sentence of (`board_entry.py`), and nothing is added.

Pure Python: no Django here.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import scoring
from scoring import gcg
from scoring.board import parse_position

KINDS = ("play", "pass", "exchange", "phony", "challenge", "time", "end")
WORD_CHARACTERS = 45  # a 15-letter word with every tile in brackets ([CH]) is 45 characters
RACK_CHARACTERS = 30
MOST_MINUTES = 99
MOST_POINTS = 9999
MOST_WORDS = 30

# The engine's findings on a new line that mean it cannot stand there: the turn is refused with
# the finding's sentence. Every other finding is kept with the record, as on a typed sheet.
REFUSING = frozenset(
    {
        "bad_position",
        "off_board",
        "not_connected",
        "square_occupied",
        "playthrough_empty",
        "no_new_tiles",
        "malformed_move",
        "not_whole_word",
        "first_move_off_centre",
        "first_move_one_tile",
        "unknown_tile",
        "event_after_end",
        "end_before_end",
        "unexpected_end_points",
        "repeated_end_points",
        "repeated_time_penalty",
        "malformed_exchange",
        "malformed_rack",
    }
)
# Findings about what is still to come while a game is being entered (its end not yet written):
# not shown against a turn until the record is saved.
STILL_TO_COME = frozenset({"not_finished", "missing_end_points"})


class Refusal(Exception):
    """Why a turn cannot be added: a code (the engine's finding's, or one of `REFUSALS`) and its
    parameters; `turn`, the turn's index among those sent; `engine`, whether the code is the
    engine's (its sentence made from the engine's catalog)."""

    def __init__(
        self, code: str, params: Mapping[str, Any] | None = None, *, engine: bool = False
    ) -> None:
        super().__init__(code)
        self.code = code
        self.params: dict[str, Any] = dict(params or {})
        self.engine = engine
        self.turn = 0


# The codes of board entry's own refusals (their sentences are the app's: `board_entry.py`).
REFUSALS = (
    "bad_turn",
    "two_players",
    "no_square",
    "bad_square",
    "no_word",
    "bad_word",
    "blank_letter",
    "bad_rack",
    "no_tiles",
    "bad_tiles",
    "not_after_play",
    "no_bonus",
    "bonus_points",
    "no_time_penalty",
    "time_player",
    "bad_minutes",
    "not_over",
    "ended_already",
    "rack_left",
    "board_unknown",
)


@dataclass(frozen=True)
class Spec:
    """One turn as the board entry sends it (all but `kind` optional)."""

    kind: str
    row: int | None = None  # 0-based: the square the word starts on
    col: int | None = None
    across: bool = True
    word: str = ""  # as typed
    score: int | None = None  # the player's own figure, where it is not the engine's
    rack: str = ""  # the rack, where the player knows it
    tiles: str = ""  # an exchange's tiles (or their count); the rack left at the end
    player: int | None = None  # 0 or 1, in the record's order: a time penalty's, an end line's
    points: int | None = None  # a challenge bonus's points; a time penalty's, as points
    minutes: int | None = None  # a time penalty's minutes
    words: int | None = None  # the words of a play challenged (a bonus per word)

    def as_dict(self) -> dict[str, Any]:
        """The spec as JSON, without what it leaves at its default."""
        data: dict[str, Any] = {"kind": self.kind}
        for name in (
            "row",
            "col",
            "word",
            "score",
            "rack",
            "tiles",
            "player",
            "points",
            "minutes",
            "words",
        ):
            value = getattr(self, name)
            if value not in (None, ""):
                data[name] = value
        if self.kind == "play":
            data["across"] = self.across
        return data


def _number(value: Any, lo: int, hi: int, *, signed: bool = False) -> int | None:
    """A whole number from JSON (an int, or a string of ASCII digits); None when absent."""
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        raise Refusal("bad_turn")
    if isinstance(value, str):
        text = value.strip()
        body = text[1:] if signed and text[:1] in "+-" else text
        if not (body.isascii() and body.isdigit()) or len(body) > 9:
            raise Refusal("bad_turn")
        value = int(text)
    if not isinstance(value, int) or not lo <= value <= hi:
        raise Refusal("bad_turn")
    return value


def _text(value: Any, most: int) -> str:
    if value is None:
        return ""
    if not isinstance(value, str) or len(value) > most:
        raise Refusal("bad_turn")
    return unicodedata.normalize("NFC", "".join(value.split()))


def read_spec(data: Any) -> Spec:
    """A turn from JSON, its types and sizes checked; `Refusal("bad_turn")` otherwise."""
    if not isinstance(data, Mapping) or data.get("kind") not in KINDS:
        raise Refusal("bad_turn")
    across = data.get("across", True)
    if not isinstance(across, bool):
        raise Refusal("bad_turn")
    return Spec(
        kind=str(data["kind"]),
        row=_number(data.get("row"), 0, 99),
        col=_number(data.get("col"), 0, 99),
        across=across,
        word=_text(data.get("word"), WORD_CHARACTERS * 2),
        score=_number(data.get("score"), -MOST_POINTS, MOST_POINTS, signed=True),
        rack=_text(data.get("rack"), RACK_CHARACTERS),
        tiles=_text(data.get("tiles"), RACK_CHARACTERS),
        player=_number(data.get("player"), 0, 1),
        points=_number(data.get("points"), 0, MOST_POINTS),
        minutes=_number(data.get("minutes"), 0, MOST_MINUTES),
        words=_number(data.get("words"), 0, MOST_WORDS),
    )


def engine_word(typed: str) -> str:
    """The word as the engine reads it: `?` and a letter become that letter in lower case (a
    blank); letters, `.` (a tile already on the board), brackets (a tile of several letters)
    and parentheses (letters already on the board, written so) are kept; nothing else is."""
    word = "".join(typed.split())
    if not word:
        raise Refusal("no_word")
    if len(word) > WORD_CHARACTERS:
        raise Refusal("bad_word", {"word": word[:WORD_CHARACTERS] + "…"})
    out: list[str] = []
    i = 0
    while i < len(word):
        ch = word[i]
        if ch == "?":
            rest = word[i + 1 :]
            if rest[:1] == "[" and "]" in rest:
                end = rest.index("]")
                out.append(rest[: end + 1].lower())
                i += end + 2
                continue
            if rest[:1].isalpha():
                out.append(rest[0].lower())
                i += 2
                continue
            raise Refusal("blank_letter", {"word": word})
        if not (ch.isalpha() or ch in ".()[]"):
            raise Refusal("bad_word", {"word": word})
        out.append(ch)
        i += 1
    return "".join(out)


def _rack(typed: str, what: str = "bad_rack") -> str:
    rack = "".join(typed.split())
    if rack and not all(ch.isalpha() or ch in "?[]" for ch in rack):
        raise Refusal(what, {"tiles" if what == "bad_tiles" else "rack": rack})
    return rack.upper()


@dataclass
class Placed:
    """What a play does, for the entry to show before it is added."""

    position: str
    word: str
    score: int  # the engine's
    words: list[str]
    placed: list[tuple[int, int, str]]
    premiums: list[tuple[str, int, int]]  # (square, letter multiplier, word multiplier)
    bingo: bool


@dataclass
class Added:
    """The record after the turns, the lines each turn added, and the engine's report on it."""

    text: str
    lines: list[list[str]]
    report: scoring.Report
    placed: Placed | None = None  # the last turn's, when it is a play
    state: dict[str, Any] = field(default_factory=dict)


def normal_text(record: str) -> str:
    """The record with one kind of line ending and a final newline (no empty line after it)."""
    text = record.replace("\r\n", "\n").replace("\r", "\n").rstrip("\n")
    return text + "\n" if text.strip() else ""


def _line_count(text: str) -> int:
    return text.count("\n")


def _signed(n: int) -> str:
    return f"+{n}" if n >= 0 else str(n)


def _line(nick: str, rack: str, body: str, score: int, total: int) -> str:
    head = f">{nick}: {rack}" if rack else f">{nick}:"
    return f"{head} {body} {_signed(score)} {total}"


_MOVES = (gcg.PLAY, gcg.PASS, gcg.EXCHANGE)


@dataclass
class State:
    """Where the record stands: whose turn it is, the totals, how (if) the game ended and the
    end lines it still owes."""

    nicks: list[str]
    to_move: int
    totals: dict[str, int]
    ended: str | None
    out: int | None  # the player who went out
    last: gcg.Event | None  # the last event
    last_play: gcg.Event | None  # the play a challenge line goes with
    ends: set[str]  # players with an end line
    pending: list[int]  # players still owing an end line
    blind: int | None  # the line from which the board is unknown


def state(report: scoring.Report) -> State:
    nicks = [p.nick for p in report.players]
    index = {nick: i for i, nick in enumerate(nicks)}
    to_move = 0
    totals = {nick: 0 for nick in nicks}
    last: gcg.Event | None = None
    last_play: gcg.Event | None = None
    out: int | None = None
    ends: set[str] = set()
    for turn in report.turns:
        ev = turn.event
        if ev.kind in _MOVES and ev.nick in index:
            to_move = (index[ev.nick] + 1) % max(1, len(nicks))
        if ev.kind == gcg.PLAY:
            last_play = ev
        elif ev.kind != gcg.CHALLENGE:  # a bonus goes with the play before it; nothing else does
            last_play = None
        if ev.kind in (gcg.END_POINTS, gcg.RACK_PENALTY):
            ends.add(ev.nick)
        if ev.kind == gcg.PLAY and ev.nick in index:
            out = index[ev.nick]
        totals[ev.nick] = ev.total
        last = ev
    ended = report.ended
    if ended != "out":
        out = None
    pending: list[int] = []
    if ended == "out" and out is not None:
        need = [out]
        if _end_convention(report) == "transfer":
            need += [i for i in range(len(nicks)) if i != out]
        pending = [i for i in need if nicks[i] not in ends]
    elif ended is not None:
        pending = [i for i in range(len(nicks)) if nicks[i] not in ends]
    blind = next((f.line for f in report.findings if f.code == "board_unknown"), None)
    return State(nicks, to_move, totals, ended, out, last, last_play, ends, pending, blind)


def _end_convention(report: scoring.Report) -> str:
    """How going out is scored: under a ruleset that takes either, as the record already does,
    else twice the rack (the North American rule)."""
    rule = report.rules.end_out
    if rule != "any":
        return rule
    return report.conventions.get("end", "double")


def _refusal_on(report: scoring.Report, line: int) -> None:
    for found in report.findings:
        if found.line == line and found.code in REFUSING and found.severity == scoring.ERROR:
            raise Refusal(found.code, found.params, engine=True)


def _rack_value(report: scoring.Report, tiles: str) -> int:
    try:
        return report.tiles.rack_value(report.tiles.split(tiles.upper()))
    except KeyError:
        raise Refusal("bad_tiles", {"tiles": tiles}) from None


class _Entry:
    def __init__(
        self,
        rules: scoring.Ruleset | str,
        tiles: scoring.TileSet | str,
        lexicons: scoring.Lexicons | None,
    ) -> None:
        self.rules = rules
        self.tiles = tiles
        self.lexicons = lexicons

    def verify(self, text: str) -> scoring.Report:
        return scoring.verify(text, rules=self.rules, tiles=self.tiles, lexicons=self.lexicons)

    def tried(self, text: str, line: str) -> tuple[str, scoring.Report, int]:
        """The record with `line` after it, the engine's report on it and the line's number;
        refused where the engine says the line cannot stand there."""
        after = text + line + "\n"
        number = _line_count(after)
        report = self.verify(after)
        _refusal_on(report, number)
        return after, report, number

    def lines(
        self, text: str, report: scoring.Report, spec: Spec
    ) -> tuple[list[str], Placed | None]:
        """The GCG line(s) `spec` adds to the record `text` (whose report is `report`)."""
        now = state(report)
        if len(now.nicks) != 2:
            raise Refusal("two_players", {"count": len(now.nicks)})
        nicks = now.nicks
        mover = nicks[spec.player if spec.player is not None else now.to_move]
        rack = _rack(spec.rack)
        if spec.kind == "play":
            return self.play(text, report, now, spec, mover, rack)
        if spec.kind == "pass":
            line = _line(mover, rack, "-", 0, now.totals[mover])
            self.tried(text, line)
            return [line], None
        if spec.kind == "exchange":
            tiles = "".join(spec.tiles.split())
            if not tiles:
                raise Refusal("no_tiles")
            if not (tiles.isascii() and tiles.isdigit()):
                tiles = _rack(tiles, "bad_tiles")
            line = _line(mover, rack, "-" + tiles, 0, now.totals[mover])
            self.tried(text, line)
            return [line], None
        if spec.kind == "phony":
            play = now.last if now.last is not None and now.last.kind == gcg.PLAY else None
            if play is None:
                raise Refusal("not_after_play", {"case": "phony"})
            total = now.totals[play.nick] - play.score
            line = _line(play.nick, play.rack, "--", -play.score, total)
            self.tried(text, line)
            return [line], None
        if spec.kind == "challenge":
            return self.challenge(text, report, now, spec)
        if spec.kind == "time":
            return self.time(text, report, now, spec)
        return self.end(text, report, now, spec)

    def play(
        self,
        text: str,
        report: scoring.Report,
        now: State,
        spec: Spec,
        mover: str,
        rack: str,
    ) -> tuple[list[str], Placed]:
        if spec.row is None or spec.col is None:
            raise Refusal("no_square")
        size = report.board.size
        if not (0 <= spec.row < size and 0 <= spec.col < size):
            raise Refusal("bad_square")
        word = engine_word(spec.word)
        column = chr(ord("A") + spec.col)
        position = f"{spec.row + 1}{column}" if spec.across else f"{column}{spec.row + 1}"
        total = now.totals[mover]
        _, tried, number = self.tried(text, _line(mover, rack, f"{position} {word}", 0, total))
        turn = tried.turns[-1] if tried.turns else None
        if turn is None or turn.line != number or turn.computed_score is None:
            raise Refusal("board_unknown", {"line": now.blind or number})
        score = turn.computed_score
        own = spec.score if spec.score is not None else score
        line = _line(mover, rack, f"{turn.position} {turn.word}", own, total + own)
        layout = tried.board.layout
        premiums = []
        for row, col, _tile in turn.placed:
            i = row * layout.size + col
            mults = (layout.letter_mult[i], layout.word_mult[i])
            if mults != (1, 1):
                premiums.append((f"{row + 1}{chr(ord('A') + col)}", *mults))
        placed = Placed(
            position=turn.position or position,
            word=turn.word or word,
            score=score,
            words=[w for w, _mark in turn.words],
            placed=list(turn.placed),
            premiums=premiums,
            bingo=len(turn.placed) >= tried.rules.rack_size,
        )
        return [line], placed

    def challenge(
        self, text: str, report: scoring.Report, now: State, spec: Spec
    ) -> tuple[list[str], None]:
        play = now.last_play
        if play is None or now.last is None or now.last.kind not in (gcg.PLAY, gcg.CHALLENGE):
            raise Refusal("not_after_play", {"case": "challenge"})
        rules = report.rules
        if rules.challenge == "double":
            raise Refusal("no_bonus", {"rules": rules.name})
        if spec.points is not None:
            points = spec.points
        elif rules.challenge == "penalty":
            points = rules.challenge_points * (spec.words or 1)
        else:
            raise Refusal("bonus_points")
        line = _line(play.nick, "", "(challenge)", points, now.totals[play.nick] + points)
        self.tried(text, line)
        return [line], None

    def time(
        self, text: str, report: scoring.Report, now: State, spec: Spec
    ) -> tuple[list[str], None]:
        per_minute = report.rules.time_penalty_per_minute
        if per_minute == 0:
            raise Refusal("no_time_penalty", {"rules": report.rules.name})
        if spec.player is None:
            raise Refusal("time_player")
        if spec.points is not None:
            points = spec.points
        elif spec.minutes:
            points = spec.minutes * per_minute
        else:
            raise Refusal("bad_minutes")
        if points <= 0:
            raise Refusal("bad_minutes")
        nick = now.nicks[spec.player]
        line = _line(nick, "", "(time)", -points, now.totals[nick] - points)
        self.tried(text, line)
        return [line], None

    def end(
        self, text: str, report: scoring.Report, now: State, spec: Spec
    ) -> tuple[list[str], None]:
        if now.blind is not None and now.ended is None:
            raise Refusal("board_unknown", {"line": now.blind})
        if now.ended is None:
            raise Refusal("not_over")
        if not now.pending:
            raise Refusal("ended_already")
        players = [spec.player] if spec.player is not None else now.pending
        if spec.player is not None and spec.player not in now.pending:
            raise Refusal("ended_already")
        lines: list[str] = []
        totals = dict(now.totals)

        def write(nick: str, left: str, points: int, penalty: bool) -> None:
            totals[nick] += points
            # A penalty of 0 (a rack of blanks) is written -0: its sign says which line it is.
            shown = "-0" if penalty and points == 0 else _signed(points)
            lines.append(f">{nick}: ({left}) {shown} {totals[nick]}")

        if now.ended == "out":
            left = _rack(spec.tiles, "bad_tiles") or "".join(
                sorted(tile for tile, n in report.unseen.items() for _ in range(n))
            )
            value = _rack_value(report, left)
            double = _end_convention(report) != "transfer"
            for p in players:
                points = (value * (2 if double else 1)) if p == now.out else -value
                if spec.score is not None:
                    points = spec.score
                write(now.nicks[p], left, points, p != now.out)
        else:
            nick = now.nicks[players[0]]
            left = _rack(spec.tiles, "bad_tiles")
            if not left:
                raise Refusal("rack_left", {"player": nick})
            points = -_rack_value(report, left) if spec.score is None else spec.score
            write(nick, left, points, True)
        after = text
        for line in lines:
            after, _, _ = self.tried(after, line)
        return lines, None


def add_turns(
    record: str,
    specs: Sequence[Spec],
    *,
    rules: scoring.Ruleset | str = "auto",
    tiles: scoring.TileSet | str = "auto",
    lexicons: scoring.Lexicons | None = None,
) -> Added:
    """The record with each turn of `specs` added in turn; refused (`Refusal`, its `turn` the
    index of the turn refused) when any cannot be. No turns: the record as it is, checked."""
    entry = _Entry(rules, tiles, lexicons)
    text = normal_text(record)
    report = entry.verify(text)
    added: list[list[str]] = []
    placed: Placed | None = None
    for k, spec in enumerate(specs):
        try:
            lines, placed = entry.lines(text, report, spec)
        except Refusal as refusal:
            refusal.turn = k
            raise
        added.append(lines)
        text += "".join(line + "\n" for line in lines)
        report = entry.verify(text)
    return Added(text, added, report, placed)


def specs_of(
    record: str,
    *,
    rules: scoring.Ruleset | str = "auto",
    tiles: scoring.TileSet | str = "auto",
    lexicons: scoring.Lexicons | None = None,
) -> tuple[str, list[Spec]] | None:
    """A record read back as the board entry's turns: its header (the lines before its first
    move, #note lines aside) and a spec a move. None when the record cannot be read back whole
    (a line the engine cannot read, not two players, a move of a player it does not name)."""
    text = normal_text(record)
    parsed = gcg.parse(text)
    if len(parsed.players) != 2 or any(isinstance(i, gcg.Unread) for i in parsed.items):
        return None
    events = parsed.events
    lines = text.split("\n")
    first = events[0].line if events else len(lines)
    header = "".join(
        line + "\n"
        for line in lines[: first - 1]
        if line.strip() and not line.lstrip().startswith(("#note", "#-"))
    )
    report = scoring.verify(text, rules=rules, tiles=tiles, lexicons=lexicons)
    computed = {t.line: t for t in report.turns}
    nicks = [p.nick for p in parsed.players]
    index = {nick: i for i, nick in enumerate(nicks)}
    specs: list[Spec] = []
    to_move = 0
    size = report.board.size
    for ev in events:
        if ev.nick not in index:
            return None
        p = index[ev.nick]
        turn = computed.get(ev.line)
        engine = turn.computed_score if turn is not None else None
        own = ev.score if engine != ev.score else None
        rack = ev.rack if ev.rack != "UNKNOWN" else ""
        who = p if ev.kind in (gcg.TIME, gcg.END_POINTS, gcg.RACK_PENALTY) else None
        if ev.kind in _MOVES:
            who = p if p != to_move else None
            to_move = (p + 1) % 2
        if ev.kind == gcg.PLAY:
            pos = parse_position(ev.position, size)
            if pos is None:
                return None
            word = turn.word if turn is not None and turn.word else ev.word
            specs.append(Spec("play", pos.row, pos.col, pos.across, word, own, rack, player=who))
        elif ev.kind == gcg.PASS:
            specs.append(Spec("pass", rack=rack, player=who))
        elif ev.kind == gcg.EXCHANGE:
            shown = str(ev.count) if ev.count is not None else ev.tiles
            specs.append(Spec("exchange", rack=rack, tiles=shown, player=who))
        elif ev.kind == gcg.PHONY:
            specs.append(Spec("phony"))
        elif ev.kind == gcg.CHALLENGE:
            specs.append(Spec("challenge", points=ev.score))
        elif ev.kind == gcg.TIME:
            specs.append(Spec("time", player=who, points=-ev.score))
        else:
            specs.append(Spec("end", tiles=ev.tiles, player=who, score=own))
    return header, specs
