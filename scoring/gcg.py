"""Reading and writing GCG game records.

Reading never raises on a bad record: what cannot be read becomes a finding with its line number,
and the line is kept so that writing the record back loses nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .findings import ERROR, WARNING, Finding
from .text import decode_with_encoding, sniff

# Event kinds.
PLAY = "play"
PASS = "pass"
EXCHANGE = "exchange"
PHONY = "phony"  # a phony withdrawn after a successful challenge
CHALLENGE = "challenge"  # a bonus for a play that stood after a challenge
END_POINTS = "end_points"  # the opponents' racks, to the player who went out
RACK_PENALTY = "rack_penalty"  # a player's own rack, taken off at the end
TIME = "time"  # a time penalty

MARKS = "*#$!"  # phony, Collins only, North American only, offensive
SUPPORTED_ENCODINGS = ("utf-8", "utf8", "iso-8859-1", "iso8859-1", "latin-1", "latin1")

HEADER_PRAGMAS = {
    "title",
    "description",
    "id",
    "lexicon",
    "game-type",
    "board-layout",
    "tile-distribution",
    "tile-set",
    "tile",
    "character-encoding",
    "game-board",
    "incomplete",
}
REPEATABLE = {"description", "tile", "note", "-", "game-board", "incomplete"}
KNOWN_GAME_TYPES = {"classic", "crossword", "crosswordgame", "standard"}

# Numbers are the ASCII digits 0-9 only (\d and str.isdigit() take ², ① and other scripts' digits,
# which int() then refuses), and at most MAX_DIGITS of them: no game has a score of 12 digits.
MAX_DIGITS = 11
_POSITION = re.compile(r"^([0-9]{1,2}[A-Za-z]|[A-Za-z][0-9]{1,2})$")
_EVENT = re.compile(r"^>(\S+?):(.*)$")
# The common case, a play with its rack recorded, read in one match; anything else is tokenised.
_PLAY_LINE = re.compile(
    r">(\S+?):\s+([^\s(\-0-9]+)\s+([0-9]{1,2}[A-Za-z]|[A-Za-z][0-9]{1,2})\s+([^\s*#$!]+)([*#$!]*)"
    r"\s+([+-][0-9]{1,11})\s+([+-]?[0-9]{1,11})(?:\s+(.*))?"
)
_PLAYER = re.compile(r"^player([0-9]{1,9})$")
_LAST_RACK = re.compile(r"^rack([0-9]{1,9})$")


@dataclass
class Player:
    number: int  # 1-based, as in #player1
    nick: str
    name: str
    line: int = 0  # where the #player line stands


@dataclass(slots=True)
class Event:
    line: int
    nick: str
    kind: str
    rack: str = ""  # the tiles the player held, as written ("" when not recorded)
    position: str = ""  # as written, e.g. "8H"
    word: str = ""  # as written, validity marks removed
    marks: str = ""  # validity marks the recorder wrote after the word
    tiles: str = ""  # exchanged tiles, or the rack in parentheses on end lines
    count: int | None = None  # for an exchange recorded as a number of tiles
    score: int = 0  # the signed score on the line
    total: int = 0  # the running total on the line
    extra: str = ""  # tokens after the total (old records list cross-words there)
    notes: list[str] = field(default_factory=list)


@dataclass
class Pragma:
    line: int
    keyword: str
    value: str


@dataclass
class Unread:
    """A line that could not be read, kept as it was."""

    line: int
    text: str
    nick: str = ""  # the player of an event line that could not be read


@dataclass
class GameRecord:
    players: list[Player] = field(default_factory=list)
    items: list[Pragma | Event | Unread] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    encoding: str = "utf-8"

    @property
    def events(self) -> list[Event]:
        return [i for i in self.items if isinstance(i, Event)]

    def pragma(self, keyword: str) -> str | None:
        item = self.pragma_item(keyword)
        return item.value if item is not None else None

    def pragma_item(self, keyword: str) -> Pragma | None:
        """The first pragma with this keyword, with its line."""
        for item in self.items:
            if isinstance(item, Pragma) and item.keyword == keyword:
                return item
        return None

    def last_racks(self) -> list[Pragma]:
        return [i for i in self.items if isinstance(i, Pragma) and _LAST_RACK.match(i.keyword)]

    @property
    def incomplete(self) -> bool:
        return self.pragma("incomplete") is not None or bool(self.last_racks())

    def player(self, nick: str) -> Player | None:
        for p in self.players:
            if p.nick == nick:
                return p
        return None


def decode(data: bytes) -> tuple[str, str, list[Finding]]:
    """Text, encoding, findings: a byte-order mark (or UTF-16's NUL bytes) first, then the
    declared encoding, else as ``scoring.text`` reads any file (UTF-8, else Windows-1252)."""
    findings: list[Finding] = []
    if sniff(data) is None:
        first = re.split(rb"[\r\n]", data, maxsplit=1)[0].strip()
        declared = None
        if first.startswith(b"#character-encoding"):
            declared = first[len(b"#character-encoding") :].strip().decode("ascii", "replace")
            declared = declared.lower()
        if declared in ("utf-8", "utf8"):
            return data.decode("utf-8", "replace"), "utf-8", findings
        if declared in SUPPORTED_ENCODINGS[2:]:
            return data.decode("latin-1"), "latin-1", findings
    # An unsupported declaration is reported when the pragma is read.
    decoded, encoding = decode_with_encoding(data)
    return decoded, encoding, findings


def _digits(text: str) -> bool:
    """Plain ASCII digits, at most MAX_DIGITS of them."""
    return 0 < len(text) <= MAX_DIGITS and text.isascii() and text.isdigit()


def number(token: str) -> int | None:
    """A whole number written with ASCII digits and an optional sign, or None."""
    digits = token[1:] if token[:1] in ("+", "-") else token
    return int(token) if _digits(digits) else None


def _is_score(token: str) -> bool:
    return len(token) > 1 and token[0] in "+-" and _digits(token[1:])


def _is_total(token: str) -> bool:
    return _digits(token) or _is_score(token)


# Why a line is not a move: the case of its ``malformed_line`` finding and the parameters.
Why = dict[str, Any]


def _not_a_number(token: str, what: str) -> Why | None:
    """Why a token that looks like a number is not one, or None when it does not look like one.

    ``what`` is ``score``, ``total`` or ``tiles``."""
    digits = token.lstrip("+-")
    if digits and all(c.isdigit() or c.isnumeric() for c in digits):
        shown = token if len(token) <= 20 else token[:12] + "…"
        if not (digits.isascii() and digits.isdigit()):
            return {"case": f"{what}_digits", "token": shown}
        if len(digits) > MAX_DIGITS:
            return {"case": "too_long", "token": shown, "digits": len(digits)}
    return None


def _tail(
    toks: list[str],
    i: int,
    nick: str,
    line: int,
    kind: str,
    rack: str = "",
    tiles: str = "",
    count: int | None = None,
) -> Event | Why:
    """The event once its score (``toks[i]``) and total (``toks[i + 1]``) are read."""
    if len(toks) < i + 2:
        return {"case": "no_score"}
    score, total = toks[i], toks[i + 1]
    if not _is_score(score) and not (kind in (PASS, EXCHANGE) and score == "0"):
        return _not_a_number(score, "score") or {"case": "not_score", "token": score}
    if not _is_total(total):
        return _not_a_number(total, "total") or {"case": "not_total", "token": total}
    extra = " ".join(toks[i + 2 :]) if len(toks) > i + 2 else ""
    if extra and kind != PLAY:
        return {"case": "after_total", "extra": extra}
    return Event(
        line,
        nick,
        kind,
        rack,
        tiles=tiles,
        count=count,
        score=int(score),
        total=int(total),
        extra=extra,
    )


def _parse_body(nick: str, line: int, toks: list[str]) -> Event | Why:
    """An event from the tokens after ``>nick:``, or why it cannot be read."""
    n = len(toks)
    if n == 0:
        return {"case": "no_move"}
    # The rack, when recorded, comes first: letters only, so never a position, "-…" or "(…)".
    first = toks[0]
    if first[0] in "-(" or (n > 1 and _POSITION.match(first) and not _POSITION.match(toks[1])):
        i, rack = 0, ""
    else:
        i, rack = 1, first
    if i >= n:
        return {"case": "rack_no_move"}
    action = toks[i]
    head = action[0]
    if head == "(":
        if action == "(challenge)":
            return _tail(toks, i + 1, nick, line, CHALLENGE, rack)
        if action == "(time)":
            return _tail(toks, i + 1, nick, line, TIME, rack)
        if not (action.endswith(")") and len(action) >= 2):
            return {"case": "not_rack", "token": action}
        event = _tail(toks, i + 1, nick, line, END_POINTS, rack, tiles=action[1:-1])
        # "-0" is the penalty for a rack of blanks, worth nothing: the sign says which line.
        if isinstance(event, Event) and toks[i + 1].startswith("-"):
            event.kind = RACK_PENALTY
        return event
    if head == "-":
        if action == "--":
            return _tail(toks, i + 1, nick, line, PHONY, rack)
        if action in ("-", "-0"):
            return _tail(toks, i + 1, nick, line, PASS, rack)
        tiles = action[1:]
        wrong = _not_a_number(tiles, "tiles")
        if wrong:
            return wrong
        if _digits(tiles):
            return _tail(toks, i + 1, nick, line, EXCHANGE, rack, count=int(tiles))
        return _tail(toks, i + 1, nick, line, EXCHANGE, rack, tiles=tiles)
    if not _POSITION.match(action) or n < i + 2:
        return {"case": "not_move"}
    word = toks[i + 1]
    stripped = word.rstrip(MARKS)
    event = _tail(toks, i + 2, nick, line, PLAY, rack)
    if isinstance(event, Event):
        event.position, event.word, event.marks = action, stripped, word[len(stripped) :]
    return event


def _after_last_rack(line: int, nick: str, rack_line: int) -> Finding:
    return Finding(
        line,
        ERROR,
        "event_after_last_rack",
        {"rack_line": rack_line},
        player=nick,
    )


def parse(text: str | bytes) -> GameRecord:
    """Read a GCG record. Every problem becomes a finding; nothing raises."""
    record = GameRecord()
    findings = record.findings
    if isinstance(text, bytes):
        text, record.encoding, found = decode(text)
        findings.extend(found)
    if not text.strip():
        findings.append(Finding(0, ERROR, "empty"))
        return record
    items = record.items
    seen: dict[str, int] = {}
    last_event: Event | None = None
    in_note = False
    after_last_rack: int | None = None
    # Lines end in \n, \r\n or \r (two string replaces: much quicker than a regex split).
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    for number, raw in enumerate(lines, start=1):
        stripped = raw.strip()
        if not stripped:
            continue
        if stripped[0] == ">":
            in_note = False
            m = _PLAY_LINE.fullmatch(stripped)
            if m:  # the common case, read in one match
                nick, rack, position, word, marks, score, total, extra = m.groups("")
                event: Event | Unread = Event(
                    number, nick, PLAY, rack, position, word, marks, "", None, int(score),
                    int(total), extra,
                )
            else:
                event = _read_event(number, stripped, findings)
            items.append(event)
            if type(event) is Event:
                if after_last_rack is not None:
                    findings.append(_after_last_rack(number, event.nick, after_last_rack))
                    after_last_rack = None  # said once
                last_event = event
            continue
        if stripped[0] == "#":
            keyword, _, value = stripped[1:].replace("\t", " ").partition(" ")
            value = value.strip()
            in_note = keyword == "note" or keyword == "-"
            if in_note:
                _read_note(record, number, keyword, value, last_event)
                continue
            _read_pragma(record, number, keyword, value, seen, last_event is not None)
            if _LAST_RACK.match(keyword) and after_last_rack is None:
                after_last_rack = number
            continue
        if in_note and last_event is not None:
            last_event.notes[-1] += "\n" + stripped
        elif in_note and isinstance(items[-1], Pragma):
            items[-1].value += "\n" + stripped  # a note before the first move
        else:
            items.append(Unread(number, stripped))
            findings.append(Finding(number, ERROR, "malformed_line"))
    return record


def _read_event(number: int, stripped: str, findings: list[Finding]) -> Event | Unread:
    """An event line other than a play with its rack recorded: the event, or the line kept as
    it was with a finding."""
    m = _EVENT.match(stripped)
    if not m:
        findings.append(Finding(number, ERROR, "malformed_line", {"case": "no_nick"}))
        return Unread(number, stripped)
    nick, body = m.group(1), m.group(2)
    parsed = _parse_body(nick, number, body.split())
    if not isinstance(parsed, Event):
        findings.append(Finding(number, ERROR, "malformed_line", parsed, player=nick))
        return Unread(number, stripped, nick)
    return parsed


def _read_note(
    record: GameRecord, number: int, keyword: str, value: str, last_event: Event | None
) -> None:
    """A ``#note`` line: the last event's, or kept as a pragma before the first one."""
    if last_event is None:
        record.findings.append(Finding(number, WARNING, "note_before_events"))
        record.items.append(Pragma(number, keyword, value))
    else:
        last_event.notes.append(value)


def _read_pragma(
    record: GameRecord, number: int, keyword: str, value: str, seen: dict[str, int], started: bool
) -> None:
    """A pragma line: kept, and checked where its keyword is one GCG defines."""
    record.items.append(Pragma(number, keyword, value))
    m = _PLAYER.match(keyword)
    if m:
        _read_player(record, number, int(m.group(1)), value, started)
    elif keyword == "character-encoding":
        _read_encoding(record.findings, number, value)
    elif _LAST_RACK.match(keyword):
        if keyword in seen:
            record.findings.append(
                Finding(number, ERROR, "repeated_pragma", {"keyword": keyword})
            )
        seen[keyword] = number
    elif keyword in HEADER_PRAGMAS:
        # GCG is open to new pragmata (#style, #game-board, …): others are kept, not checked.
        _read_header(record.findings, number, keyword, value, seen, started)


def _read_player(record: GameRecord, number: int, index: int, value: str, started: bool) -> None:
    """``#player<index> nick name``: a player, unless the line names one already named."""
    findings = record.findings
    nick, _, name = value.partition(" ")
    if not nick:
        findings.append(Finding(number, ERROR, "malformed_pragma"))
        return
    if not 1 <= index <= 4:
        params = {"case": "number", "number": index}
        findings.append(Finding(number, ERROR, "malformed_pragma", params))
        return
    if any(p.number == index for p in record.players):
        params = {"number": index}
        findings.append(Finding(number, ERROR, "duplicate_player_number", params, player=nick))
        return
    if record.player(nick):
        findings.append(Finding(number, ERROR, "duplicate_nick", {"nick": nick}, player=nick))
        return
    if name and any(p.name == name.strip() for p in record.players):
        findings.append(Finding(number, WARNING, "duplicate_name", {"name": name}))
    if started:
        params = {"case": "player", "number": index}
        findings.append(Finding(number, WARNING, "pragma_after_events", params))
    record.players.append(Player(index, nick, name.strip() or nick, number))
    record.players.sort(key=lambda p: p.number)


def _read_encoding(findings: list[Finding], number: int, value: str) -> None:
    if value.lower() not in SUPPORTED_ENCODINGS:
        findings.append(
            Finding(number, ERROR, "unsupported_encoding", {"value": value}, recorded=value)
        )
    if number != 1:
        findings.append(Finding(number, WARNING, "misplaced_encoding"))


def _read_header(
    findings: list[Finding],
    number: int,
    keyword: str,
    value: str,
    seen: dict[str, int],
    started: bool,
) -> None:
    """A header pragma GCG defines: once only (most of them), before the first event."""
    if keyword in seen and keyword not in REPEATABLE:
        params = {"case": "header", "keyword": keyword, "first": seen[keyword]}
        findings.append(Finding(number, WARNING, "repeated_pragma", params))
    seen.setdefault(keyword, number)
    if started and keyword not in ("incomplete",):
        findings.append(Finding(number, WARNING, "pragma_after_events", {"keyword": keyword}))
    if keyword == "game-type" and value.lower() not in KNOWN_GAME_TYPES:
        findings.append(
            Finding(number, WARNING, "unknown_game_type", {"value": value}, recorded=value)
        )


def _signed(n: int) -> str:
    return f"+{n}" if n >= 0 else str(n)


def event_text(event: Event, word: str | None = None, position: str | None = None) -> str:
    """One event as a canonical GCG line."""
    rack = event.rack
    head = f">{event.nick}: {rack}".rstrip() if rack else f">{event.nick}:"
    if event.kind == PLAY:
        body = f"{position or event.position.upper()} {(word or event.word)}{event.marks}"
    elif event.kind == PASS:
        body = "-"
    elif event.kind == EXCHANGE:
        body = "-" + (str(event.count) if event.count is not None else event.tiles)
    elif event.kind == PHONY:
        body = "--"
    elif event.kind == CHALLENGE:
        body = "(challenge)"
    elif event.kind == TIME:
        body = "(time)"
    else:
        body = f"({event.tiles})"
    line = f"{head} {body} {_signed(event.score)} {event.total}"
    if event.extra:
        line += " " + event.extra
    return line


def write(record: GameRecord, words: dict[int, tuple[str, str]] | None = None) -> str:
    """The record as canonical GCG: UTF-8, one space between tokens, upper-case positions.

    ``words`` maps an event's line to its (position, word) with play-through written as ``.``;
    the replay provides it. Lines that could not be read are written back as they were.
    """
    words = words or {}
    out: list[str] = []
    encoding = record.pragma("character-encoding")
    if not record.items:
        return ""
    supported = encoding is None or encoding.lower() in SUPPORTED_ENCODINGS
    first = record.items[0] if record.items else None
    if supported and not (
        isinstance(first, Pragma) and first.keyword == "character-encoding" and first.line == 1
    ):
        out.append("#character-encoding UTF-8")
    for item in record.items:
        if isinstance(item, Pragma):
            if item.keyword == "character-encoding" and supported and item.line == 1:
                out.append("#character-encoding UTF-8")
                continue
            out.append(f"#{item.keyword} {item.value}".rstrip())
        elif isinstance(item, Unread):
            out.append(item.text)
        else:
            position, word = words.get(item.line, (None, None))
            out.append(event_text(item, word, position))
            for note in item.notes:
                out.append(f"#note {note}".rstrip())
    return "\n".join(out) + "\n"
