"""Reading and writing tsh's files: the `.t` division file and `config.tsh`.

A `.t` file has one player a line (`shared/reference/tsh.md` §7.1); the line's place among the
player lines is the player's number, and opponents are player numbers, 0 for a bye or forfeit:

    NAME  RATING  OPP1 OPP2 …; SCORE1 SCORE2 …; key value value …; key value …

Every field of a line is kept: the name as written, the rating as written, opponents, scores,
and each `; key values` field in its original order and text. Writing a file back rebuilds each
line from those fields in tsh's own layout (`TFile::FormatLine`), keeping the whitespace between
name and rating as it was read, so a file tsh wrote comes back byte for byte. What is not kept,
because tsh neither keeps nor writes it: whitespace at either end of a player line, runs of
spaces between numbers or words (one space is written), and a line without any `;` (written
with tsh's ` ; `). Comment and blank lines are kept verbatim, and every line keeps its own line
ending (real files mix `\r\n` and `\n`).

`config.tsh` is kept line by line as written; the lines the tournament needs are also read into
fields (divisions, `config` settings, `autopair`), and changing a setting rewrites only its value.

Bad input raises `TshFormatError` with the line number; nothing here imports Django.
"""

from __future__ import annotations

import datetime
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeAlias, TypeVar

from scoring.text import decode_with_encoding
from tournament.interchange import files

# The kinds of value a checked `config` setting has.
_Setting = TypeVar("_Setting", str, int)

NO_VALUE = "00"  # tsh's mark for "nothing recorded here" in a list of numbers
BYE = 0  # the opponent number of a bye or a forfeit

# tsh's own writer: the name left-justified in 22 columns, a space, the rating in 5.
NAME_WIDTH = 22
RATING_WIDTH = 5

# Realm presets tsh applies when `bye_spread` is not configured (TSH::Config RealmDefaults).
REALM_BYE_SPREAD = {"absp": 100, "go": 2, "ken": 100, "pol": 300, "thai": 100, "wespa": 100}
DEFAULT_BYE_SPREAD = 50

# TFile's pattern for a player line, kept as tsh has it so that lines split where tsh splits them:
# the name (two characters at least) is the shortest text that leaves a rating, opponents, `;`
# and scores after it.
# Numbers are ASCII digits only: `\d` would take any script's digits, and `int()` reads them.
_PLAYER_LINE = re.compile(
    r"^(.+?\S)(\s+)(\d+(?:[.+]\d+)*)\s*([\d\s]*);\s*([-\d\s]*)(;.*)?$", re.ASCII
)
_EOL = re.compile(r"\r\n|\r|\n")
_RATING_NUMBER = re.compile(r"\d+(?:\.\d+)?", re.ASCII)
# At most 18 digits: `int()` refuses thousands of them, and a column holds far fewer anyway.
_WHOLE = re.compile(r"-?[0-9]{1,18}")


def whole_number(text: str) -> int | None:
    """`text` as a whole number if it is one written in ASCII digits (an optional `-`), else
    None: `str.isdigit()` and `int()` also take `²` or `٣`, which no tsh file means as numbers,
    and a number of more than 18 digits is no number a tsh file holds."""
    return int(text) if _WHOLE.fullmatch(text) else None


class TshFormatError(ValueError):
    """A line of a tsh file that cannot be read; `line` is its 1-based number in the file."""

    def __init__(self, line: int, message: str, *, source: str = "") -> None:
        self.line = line
        self.message = message
        self.source = source
        where = f"{source}: " if source else ""
        super().__init__(f"{where}line {line}: {message}")


# --------------------------------------------------------------------------- text and bytes


@dataclass(frozen=True)
class _Lines:
    lines: list[tuple[str, str]]  # (text, line ending as read; "" for a last line without one)
    newline: str  # the first line ending of the file, for lines added later
    bom: bool


def _split_lines(text: str) -> _Lines:
    bom = text.startswith("\ufeff")
    if bom:
        text = text[1:]
    parts = _EOL.split(text)
    ends = _EOL.findall(text) + [""]
    lines = list(zip(parts, ends, strict=True))
    if lines[-1] == ("", ""):
        lines.pop()  # the file ends with a line ending, not with an empty last line
    return _Lines(lines, ends[0] or "\n", bom)


def _refuse_nul(lines: _Lines, source: str, first_line: int = 1) -> None:
    """A NUL byte is no text (PostgreSQL cannot even store it): the file is refused."""
    for number, (text, _) in enumerate(lines.lines, first_line):
        if "\x00" in text:
            raise TshFormatError(number, "a NUL byte (\\0): not a text file", source=source)


def _join_lines(lines: list[tuple[str, str | None]], newline: str, bom: bool) -> str:
    out = ["\ufeff" if bom else ""]
    for index, (text, end) in enumerate(lines):
        # A line added after what was the last line needs that line to end after all.
        if end is None or (end == "" and index < len(lines) - 1):
            end = newline
        out.append(text + end)
    return "".join(out)


def decode(data: bytes) -> tuple[str, str]:
    """The text of a tsh file and the encoding it was read in.

    tsh reads `.t` files as ISO-8859-1 unless told otherwise, but most files now are UTF-8, and
    Windows editors save UTF-16: the engine's one decoding rule (``scoring.text``) reads them
    all. A byte-order mark stays at the head of the text (``TFile.bom``), and the encoding named
    is the one without a mark, so that writing the file back gives the same bytes.
    """
    text, encoding = decode_with_encoding(data)
    if encoding in _MARKED:
        little = data[:2] == b"\xff\xfe"
        encoding = _MARKED[encoding] + (
            "" if encoding == "utf-8-sig" else "-le" if little else "-be"
        )
        text = "\ufeff" + text
    return text, encoding


_MARKED = {"utf-8-sig": "utf-8", "utf-16": "utf-16", "utf-32": "utf-32"}


# --------------------------------------------------------------------------- .t files


@dataclass
class ExtraField:
    """One `; key value value …` field of a player line.

    Values are the words as written (tsh's `\\;` and `\\\\` escapes undone); `00` is tsh's mark
    for a missing value in a per-round list. A key of "" stands for an empty `; ;` group, which
    tsh ignores and which is kept only so that the line is written back as it was.
    """

    key: str
    values: list[str] = field(default_factory=list)


@dataclass
class TshPlayer:
    number: int  # 1-based place among the player lines: the player's id in tsh
    name: str  # as written, e.g. "Smylie, Jackson" (NASPA files may append ":AA000000")
    rating: str  # as written: digits, optionally with `.digits` or `+digits` groups; "0" unrated
    opponents: list[int | None] = field(default_factory=list)  # per round; 0 bye, None "00"
    scores: list[int | None] = field(default_factory=list)  # per round; a bye's is its spread
    extras: list[ExtraField] = field(default_factory=list)
    gap: str | None = None  # whitespace between name and rating as read; None: tsh's layout
    line: int = 0  # where the player stands in the file, for messages
    end: str | None = None  # the line ending as read; None: the file's

    @property
    def rating_value(self) -> float:
        """The rating as a number (tsh compares ratings numerically, ignoring `+n` suffixes)."""
        match = _RATING_NUMBER.match(self.rating)
        return float(match.group()) if match else 0.0

    def extra(self, key: str) -> list[str] | None:
        """The values of the `key` field; tsh keeps the last of repeated keys, and so does this."""
        found = None
        for extra in self.extras:
            if extra.key == key:
                found = extra.values
        return found

    def extra_numbers(self, key: str) -> list[int | None] | None:
        """The values of the `key` field as integers, `00` as None (for `rrank`, `board` …)."""
        values = self.extra(key)
        if values is None:
            return None
        numbers = [None if v == NO_VALUE else whole_number(v) for v in values]
        if any(n is None for v, n in zip(values, numbers, strict=True) if v != NO_VALUE):
            raise TshFormatError(self.line, f"{key} holds a value that is not a whole number")
        return numbers

    @property
    def inactive(self) -> bool:
        """tsh's `off` field: the player takes no further part (byes of the `off` spread)."""
        return self.extra("off") is not None

    @property
    def withdrawn_from_round(self) -> int | None:
        """For an inactive player, the first round of the unbroken run of byes ending their line.

        tsh records no date of withdrawal: it fills the rounds after it with opponent 0 and the
        `off` spread (`SpliceInactive`), so the run of opponent-0 rounds at the end is the best
        the file can tell. A bye or forfeit entered just before the withdrawal falls in the run.
        """
        if not self.inactive:
            return None
        first = len(self.opponents)
        while first > 0 and self.opponents[first - 1] == BYE:
            first -= 1
        return first + 1


@dataclass
class TshText:
    """A line that is not a player: a `#` comment or a blank line, kept verbatim."""

    text: str
    line: int = 0
    end: str | None = None  # the line ending as read; None: the file's


TshLine: TypeAlias = TshPlayer | TshText


@dataclass(frozen=True)
class TshResult:
    """One result as a `.t` file holds it: a game once, from the lower-numbered player's side."""

    round: int  # 1-based
    player: int
    opponent: int | None  # None: a bye or a forfeit (tsh's opponent 0)
    score: int
    opponent_score: int  # 0 for a bye or forfeit, whose score is its spread


@dataclass
class TFile:
    lines: list[TshLine] = field(default_factory=list)
    newline: str = "\n"  # the line ending of lines added to the file
    bom: bool = False
    encoding: str = "utf-8"

    @property
    def players(self) -> list[TshPlayer]:
        return [line for line in self.lines if isinstance(line, TshPlayer)]

    def player(self, number: int) -> TshPlayer:
        players = self.players
        if not 1 <= number <= len(players):
            raise KeyError(f"no player {number} (the file has {len(players)})")
        return players[number - 1]

    @property
    def rounds(self) -> int:
        """How many rounds have at least one score."""
        return max((len(p.scores) for p in self.players), default=0)

    def results(self) -> list[list[TshResult]]:
        """The results of each round (`[0]` is round 1), each game once.

        A game counts once both players' scores are in (tsh would count a lone score against
        a missing one as against 0, with a warning); a bye or forfeit counts once its score is in.
        """
        players = self.players
        rounds: list[list[TshResult]] = [[] for _ in range(self.rounds)]
        for p in players:
            for index, score in enumerate(p.scores):
                opponent = p.opponents[index] if index < len(p.opponents) else None
                if score is None or opponent is None:
                    continue
                if opponent == BYE:
                    rounds[index].append(TshResult(index + 1, p.number, None, score, 0))
                    continue
                if opponent < p.number:
                    continue  # counted from the other side
                other = players[opponent - 1]
                their = other.scores[index] if index < len(other.scores) else None
                if their is not None:
                    rounds[index].append(TshResult(index + 1, p.number, opponent, score, their))
        return rounds


def read_t(text: str, *, source: str = "", first_line: int = 1) -> TFile:
    """Read the text of a `.t` file; `source` (e.g. the file name) goes into error messages,
    and `first_line` is the number of the text's first line there (a `.t` file carried inside
    a config.tsh starts after its `#begin_file` line)."""
    split = _split_lines(text)
    _refuse_nul(split, source, first_line)
    lines: list[TshLine] = []
    number = 0
    for index, (raw, end) in enumerate(split.lines, first_line):
        if not raw.strip() or raw.lstrip().startswith("#"):
            lines.append(TshText(raw, index, end))
            continue
        number += 1
        player = _read_player(raw, number, index, source)
        player.end = end
        lines.append(player)
    tfile = TFile(lines, split.newline, split.bom)
    _check_pairings(tfile, source)
    return tfile


def read_t_file(path: str | Path) -> TFile:
    """A `.t` file given by its path: a regular file under the cap (`files.read_file`; a
    refusal is `files.FileRefused`)."""
    path = Path(path)
    return read_t_data(files.read_file(path), source=path.name)


def read_t_data(data: bytes, *, source: str = "") -> TFile:
    """A `.t` file's bytes, in the encoding they are written in."""
    text, encoding = decode(data)
    tfile = read_t(text, source=source)
    tfile.encoding = encoding
    return tfile


def write_t(tfile: TFile) -> str:
    texts = [
        (line.text if isinstance(line, TshText) else format_player(line), line.end)
        for line in tfile.lines
    ]
    return _join_lines(texts, tfile.newline, tfile.bom)


def write_t_file(tfile: TFile, path: str | Path) -> None:
    Path(path).write_bytes(write_t(tfile).encode(tfile.encoding))


def format_player(p: TshPlayer) -> str:
    """One player line in tsh's layout (`TFile::FormatLine`), with the name-rating gap as read."""
    if _EOL.search(p.name):
        raise ValueError(f"player {p.number}: a name on more than one line: {p.name!r}")
    gap = p.gap if p.gap is not None else tsh_gap(p.name, p.rating)
    opponents = " ".join(NO_VALUE if o is None else str(o) for o in p.opponents)
    scores = " ".join(NO_VALUE if s is None else str(s) for s in p.scores)
    text = f"{p.name}{gap}{p.rating} {opponents}; {scores}"
    for extra in p.extras:
        text += " ".join([";", extra.key, *(_escape(v) for v in extra.values)])
    # A name ending in a number, a one-letter name, a value with a space in it … would be read
    # back differently (by tsh too): refuse to write what would not come back as it is.
    try:
        again = _fields(read_player_line(text, p.number))
    except TshFormatError:
        again = None
    if again != _fields(p):
        raise ValueError(f"player {p.number}: tsh would not read this line back as it is: {text!r}")
    return text


def _fields(p: TshPlayer) -> tuple[object, ...]:
    return (p.name, p.rating, p.opponents, p.scores, p.extras)


def tsh_gap(name: str, rating: str) -> str:
    """The spaces tsh writes between a name and a rating (`%-22s %5s`)."""
    return " " * (max(0, NAME_WIDTH - len(name)) + 1 + max(0, RATING_WIDTH - len(rating)))


def read_player_line(text: str, number: int = 1, *, line: int = 1, source: str = "") -> TshPlayer:
    """One player line on its own (opponents are not checked against a file)."""
    return _read_player(text, number, line, source)


def _read_player(raw: str, number: int, line: int, source: str) -> TshPlayer:
    text = raw.strip()
    if ";" not in text:
        text += ";"  # a roster line with no results yet, as tsh reads it
    match = _PLAYER_LINE.match(text)
    if not match:
        raise TshFormatError(
            line, "not a player line (NAME RATING OPPONENTS; SCORES; …)", source=source
        )
    name, gap, rating, opponents, scores, extras = match.groups()
    return TshPlayer(
        number=number,
        name=name,
        rating=rating,
        opponents=_numbers(opponents, line, "opponent", source),
        scores=_numbers(scores, line, "score", source),
        extras=_extras(extras or ""),
        gap=gap,
        line=line,
    )


def _numbers(text: str, line: int, what: str, source: str) -> list[int | None]:
    numbers: list[int | None] = []
    for word in text.split():
        if word == NO_VALUE:
            numbers.append(None)
            continue
        number = whole_number(word)
        if number is None:
            shown = word if len(word) <= 20 else word[:20] + "…"
            raise TshFormatError(line, f"{what} {shown!r} is not a number", source=source)
        numbers.append(number)
    return numbers


def _extras(text: str) -> list[ExtraField]:
    """Split `; key v …; key v …` on unescaped `;`, undoing tsh's `\\;` and `\\\\`."""
    if not text:
        return []
    groups: list[str] = []
    current: list[str] = []
    chars = iter(text[1:])  # the text starts with the `;` that ends the scores
    for char in chars:
        if char == "\\":
            following = next(chars, "")
            if following in ("\\", ";"):
                current.append(following)
            else:
                # tsh keeps a backslash that escapes nothing as it is.
                current.append("\\" + following)
        elif char == ";":
            groups.append("".join(current))
            current = []
        else:
            current.append(char)
    groups.append("".join(current))
    # An empty group (`; ;`) is skipped by tsh; it is kept here so the line comes back as it was.
    return [ExtraField(w[0], w[1:]) if (w := group.split()) else ExtraField("") for group in groups]


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace(";", "\\;")


def _check_pairings(tfile: TFile, source: str) -> None:
    """Opponents must be players of the file, and a pairing must appear on both players' lines."""
    players = tfile.players
    for p in players:
        for index, opponent in enumerate(p.opponents):
            if opponent is None or opponent == BYE:
                continue
            where = f"round {index + 1}"
            if opponent > len(players):
                raise TshFormatError(
                    p.line,
                    f"{where}: opponent {opponent}, but the file has {len(players)} players",
                    source=source,
                )
            if opponent == p.number:
                raise TshFormatError(p.line, f"{where}: paired with themselves", source=source)
            other = players[opponent - 1]
            back = other.opponents[index] if index < len(other.opponents) else None
            if back != p.number:
                raise TshFormatError(
                    p.line,
                    f"{where}: paired with player {opponent} (line {other.line}), whose "
                    f"opponent that round is {NO_VALUE if back is None else back}",
                    source=source,
                )


# --------------------------------------------------------------------------- config.tsh


@dataclass
class ConfigLine:
    """One line of `config.tsh` exactly as written (without its line ending)."""

    number: int
    text: str
    end: str | None = field(default=None, kw_only=True)  # the line ending as read; None: the file's


@dataclass
class OtherLine(ConfigLine):
    # blank, comment, prize, classes, begin, perl, encoding, attachment
    kind: str


@dataclass
class DivisionLine(ConfigLine):
    """`division NAME FILE.t`."""

    name: str
    file: str

    @property
    def key(self) -> str:
        """The name as tsh matches it: letters and digits only, upper case."""
        return canonical_division(self.name)


@dataclass
class ConfigSetting(ConfigLine):
    """`config KEY = VALUE` or `config KEY{'SUB'} = VALUE`; VALUE is a Perl expression."""

    key: str
    subkey: str | None  # for KEY{'A'} or KEY[0]: "A" / "0", upper-cased as tsh does
    value_text: str  # the expression as written, without a trailing `;`
    value_start: int  # where value_text stands in `text`, so that it can be replaced alone

    @property
    def value(self) -> Any:
        """The value, for the Perl literals tsh configs use (numbers, strings, lists, hashes)."""
        try:
            return perl_value(self.value_text)
        except ValueError as error:
            raise TshFormatError(self.number, f"config {self.key}: {error}") from None


@dataclass
class AutopairLine(ConfigLine):
    """`autopair DIV SOURCE_ROUND TARGET_ROUND COMMAND ARGS`: pair TARGET once SOURCE is in."""

    division: str
    source_round: int
    target_round: int
    command: str
    args: list[str]


ConfigEntry: TypeAlias = OtherLine | DivisionLine | ConfigSetting | AutopairLine

_CONFIG = re.compile(
    r"^config\s+(\w+)\s*((?:\[[^\]]+\]|\{[^}]+\})*)\s*=\s*(.*)$", re.IGNORECASE | re.DOTALL
)
_DIVISION = re.compile(r"^division\s+(\S+)\s+(.*)$", re.IGNORECASE)
_AUTOPAIR = re.compile(
    r"^autopair\s+(\w+)\s*([0-9]+)\s+([0-9]+)\s+(\w+)(?:\s+(.*))?$", re.IGNORECASE
)
_CLASSES = re.compile(r"^classes\s+(\S+)\s+(\S+)$", re.IGNORECASE)


# The key=value options a prize line may end in (TSH's PRiZes), in the order they are written.
PRIZE_OPTIONS = (
    "class",
    "first",
    "last",
    "rounds",
    "members",
    "memberfile",
    "exclusive",
    "order",
    "unratedok",
)
PRIZE_NUMBER_OPTIONS = ("first", "last", "rounds", "order")
PRIZE_LAYOUT = ("separator", "break", "note", "title")
_PRIZE_OPTION = re.compile(r"\s+([A-Za-z]+)=(\S*)\s*$")


def prize_fields(kind: str, subtype: str, value: str) -> dict[str, Any]:
    """One prize line's fields as Division.prizes keeps them, from its type, subtype and the
    rest of the line (the value, then any key=value options): `tuffluck 1 '$50' rounds=5` is
    {"kind": "tuffluck", "place": 1, "value": "$50", "note": "", "rounds": 5}. A number option
    that is not a whole number from 1 raises ValueError; an unknown option stays in the value."""
    place: int | str = subtype
    if (number := whole_number(subtype)) is not None and number > 0:
        place = number
    options: dict[str, Any] = {}
    rest = " " + value
    while (found := _PRIZE_OPTION.search(rest)) and found.group(1).lower() in PRIZE_OPTIONS:
        options[found.group(1).lower()] = found.group(2)
        rest = rest[: found.start()]
    prize: dict[str, Any] = {
        "kind": kind.lower(),
        "place": place,
        "value": rest.strip().strip("'\""),
        "note": "",
    }
    for key in PRIZE_OPTIONS:
        if key not in options:
            continue
        text = options[key]
        if key in PRIZE_NUMBER_OPTIONS:
            number = whole_number(text)
            if number is None or number < 1:
                raise ValueError(f"{key}={text} should be a whole number from 1")
            prize[key] = number
        elif key == "members":
            prize[key] = [m for m in text.split(",") if m]
        elif key == "unratedok":
            prize[key] = text not in ("", "0")
        else:
            prize[key] = text
    return prize


def prize_text(prize: dict[str, Any]) -> str:
    """A prize's line without `prize` and the division, as the desk types it:
    `tuffluck 1 $50 rounds=5`."""
    line = f"{prize.get('kind', 'rank')} {prize.get('place', '')} {prize.get('value', '')}"
    return (line.rstrip() + _options_text(prize)).strip()


def _options_text(prize: dict[str, Any]) -> str:
    text = ""
    for key in PRIZE_OPTIONS:
        value = prize.get(key)
        if value in (None, "", [], False):
            continue
        if key == "members":
            value = ",".join(str(m) for m in value)
        elif key == "unratedok":
            value = 1
        text += f" {key}={value}"
    return text


def prize_line(division: str, prize: dict[str, Any]) -> str:
    """A prize as config.tsh writes it: `prize rank 1 A '$500' class=B`."""
    value = str(prize.get("value", "")).replace("'", "")
    line = f"prize {prize.get('kind', 'rank')} {prize.get('place', 1)} {division}"
    if value or prize.get("kind") not in PRIZE_LAYOUT:
        line += f" '{value}'"
    return line + _options_text(prize)


def with_prizes(config: str, prizes: dict[str, list[dict[str, Any]]]) -> str:
    """`config` with each named division's `prize` lines replaced by its prizes as they stand:
    the other lines are kept as they are, the new prize lines written where the first old one
    stood, else at the end."""
    wanted = {canonical_division(name): name for name in prizes}
    out: list[str] = []
    placed: set[str] = set()
    for raw in config.splitlines(keepends=True):
        parts = raw.split(None, 4)
        if len(parts) >= 4 and parts[0].lower() == "prize":
            key = canonical_division(parts[3])
            if key in wanted:
                if key not in placed:
                    placed.add(key)
                    name = wanted[key]
                    out += [prize_line(name, p) + "\n" for p in prizes[name]]
                continue
        out.append(raw)
    if out and not out[-1].endswith("\n"):
        out[-1] += "\n"
    for key, name in wanted.items():
        if key not in placed:
            out += [prize_line(name, p) + "\n" for p in prizes[name]]
    return "".join(out)


def with_classes(config: str, classes: dict[str, int]) -> str:
    """`config` with each named division's `classes` line set to its number of classes (none
    for 0): an old line is replaced where it stands, a new one written after the division's
    `division` line; the other lines are kept as they are."""
    wanted = {canonical_division(name): (name, count) for name, count in classes.items()}
    done: set[str] = set()
    out: list[str] = []
    for raw in config.splitlines(keepends=True):
        parts = raw.split()
        key = canonical_division(parts[1]) if len(parts) == 3 else ""
        if len(parts) == 3 and parts[0].lower() == "classes" and key in wanted:
            name, count = wanted[key]
            if count and key not in done:
                out.append(f"classes {name} {count}\n")
            done.add(key)
            continue
        out.append(raw)
    for key, (name, count) in wanted.items():
        if key in done or not count:
            continue
        for i, raw in enumerate(out):
            parts = raw.split()
            division_line = len(parts) >= 3 and parts[0].lower() == "division"
            if division_line and canonical_division(parts[1]) == key:
                line = raw if raw.endswith("\n") else raw + "\n"
                out[i : i + 1] = [line, f"classes {name} {count}\n"]
                break
        else:
            out.append(f"classes {name} {count}\n")
    return "".join(out)


_KEYWORD = re.compile(r"^(prize|begin|perl|encoding)\s", re.IGNORECASE)
_BEGIN_FILE = re.compile(r"^#begin_file\s+name=(\S+)\s*$")
_SUBKEY = re.compile(r"^[\[{]\s*(?:'([^']*)'|\"([^\"]*)\"|([^\]}]*?))\s*[\]}]$")


@dataclass(frozen=True)
class Attachment:
    """A file carried inside config.tsh between `#begin_file name=X.t` and `#end_file
    name=X.t`, as tsh's own event archive and Woogles' export write a whole event in one file."""

    name: str
    text: str
    first_line: int  # the number in config.tsh of the file's first line


@dataclass
class ConfigFile:
    lines: list[ConfigEntry] = field(default_factory=list)
    newline: str = "\n"  # the line ending of lines added to the file
    bom: bool = False
    encoding: str = "utf-8"
    attachments: dict[str, Attachment] = field(default_factory=dict)

    def attachment(self, name: str) -> Attachment | None:
        """The file `name` carried in this config, matched as tsh's AttachedContent matches it:
        exactly, else without regard to case."""
        found = self.attachments.get(name)
        if found is None:
            found = next(
                (a for a in self.attachments.values() if a.name.lower() == name.lower()), None
            )
        return found

    def without_attachments(self) -> ConfigFile:
        """The configuration alone, for an event whose `.t` files are kept elsewhere."""
        lines = [
            line
            for line in self.lines
            if not (isinstance(line, OtherLine) and line.kind == "attachment")
        ]
        return ConfigFile(lines, self.newline, self.bom, self.encoding)

    @property
    def divisions(self) -> list[DivisionLine]:
        return [line for line in self.lines if isinstance(line, DivisionLine)]

    @property
    def settings(self) -> list[ConfigSetting]:
        return [line for line in self.lines if isinstance(line, ConfigSetting)]

    @property
    def autopairs(self) -> list[AutopairLine]:
        return [line for line in self.lines if isinstance(line, AutopairLine)]

    def setting(self, key: str, subkey: str | None = None) -> ConfigSetting | None:
        """The line that sets `key` last (tsh applies the lines in order, so the last one wins)."""
        wanted = None if subkey is None else subkey.upper()
        found = None
        for line in self.settings:
            if line.key == key and line.subkey == wanted:
                found = line
        return found

    def value(self, key: str, subkey: str | None = None, default: Any = None) -> Any:
        line = self.setting(key, subkey)
        return default if line is None else line.value

    def set_value(self, key: str, value_text: str, subkey: str | None = None) -> ConfigSetting:
        """Set `key` to the Perl expression `value_text`, rewriting only the value of the line
        that sets it last, or adding `config KEY = VALUE` at the end."""
        perl_value(value_text)  # refuse what tsh could not read back
        line = self.setting(key, subkey)
        if line is None:
            sub = "" if subkey is None else "{'" + subkey.upper() + "'}"
            text = f"config {key}{sub} = {value_text}"
            new = _read_config_line(text, len(self.lines) + 1, self, "")
        else:
            end = line.value_start + len(line.value_text)
            text = line.text[: line.value_start] + value_text + line.text[end:]
            new = _read_config_line(text, line.number, self, "")
            new.end = line.end
        if not isinstance(new, ConfigSetting):
            raise ValueError(f"config {key}: {value_text!r} does not make a config line")
        if line is None:
            self.lines.append(new)
        else:
            self.lines[self.lines.index(line)] = new
        return new

    def prize_bands(self, division: str) -> list[int] | None:
        """`config prize_bands{'A'}`: the last rank of each band of prize-equivalent ranks."""
        line = self.setting("prize_bands", division)
        if line is None:
            return None
        value = line.value
        if isinstance(value, list) and all(_whole(v) for v in value):
            return [int(v) for v in value]
        raise TshFormatError(line.number, "config prize_bands should be a list of ranks")

    def classes(self, division: str) -> int:
        """`classes DIV N`: the division's number of prize classes, which tsh assigns by rating
        order when it loads the event (Config::AssignClasses); 0 without such a line (the last
        one counts)."""
        wanted = canonical_division(division)
        found = 0
        for line in self.lines:
            if isinstance(line, OtherLine) and line.kind == "classes":
                parts = line.text.split()
                if len(parts) == 3 and canonical_division(parts[1]) == wanted:
                    found = whole_number(parts[2]) or 0
        return found

    def prizes(self, division: str) -> list[dict[str, Any]]:
        """The division's `prize TYPE SUBTYPE DIV VALUE` lines in order, as Division.prizes
        takes them: `prize rank 1 A $500` is {"kind": "rank", "place": 1, "value": "$500"},
        with any key=value options (`prize_fields`). Layout lines (separator, break, note,
        title) are kept in their place; `prize separator 1 A` needs no text."""
        wanted = canonical_division(division)
        found = []
        for line in self.lines:
            if not (isinstance(line, OtherLine) and line.kind == "prize"):
                continue
            parts = line.text.split(None, 4)
            if len(parts) == 4 and parts[1].lower() in PRIZE_LAYOUT:
                parts.append("")  # a separator or break has no text
            if len(parts) < 5 or canonical_division(parts[3]) != wanted:
                continue
            _, kind, subtype, _, value = parts
            try:
                prize = prize_fields(kind, subtype, value)
            except ValueError as error:
                raise TshFormatError(line.number, f"prize: {error}") from None
            found.append(prize)
        return found

    @property
    def realm(self) -> str | None:
        return self._checked("realm", str)

    @property
    def max_rounds(self) -> int | None:
        return self._checked("max_rounds", int)

    @property
    def bye_spread(self) -> int | None:
        """`config bye_spread` as set in the file (see `effective_bye_spread` for tsh's default)."""
        return self._checked("bye_spread", int)

    @property
    def effective_bye_spread(self) -> int:
        """The bye spread tsh uses: the configured one, else the realm's, else 50."""
        configured = self.bye_spread
        if configured is not None:
            return configured
        return REALM_BYE_SPREAD.get((self.realm or "").lower(), DEFAULT_BYE_SPREAD)

    @property
    def spread_cap(self) -> int | list[int] | None:
        """`config spread_cap`: one cap for all rounds, or one per round (the last repeats)."""
        return self._caps("spread_cap")

    @property
    def standings_spread_cap(self) -> int | list[int] | None:
        return self._caps("standings_spread_cap")

    @property
    def gibson_spread(self) -> int | list[int] | None:
        return self._caps("gibson_spread")

    def _checked(self, key: str, kind: type[_Setting]) -> _Setting | None:
        line = self.setting(key)
        if line is None:
            return None
        value = line.value
        if kind is int and isinstance(value, float) and value.is_integer():
            value = int(value)
        if not isinstance(value, kind) or isinstance(value, bool):
            wanted = "a whole number" if kind is int else "a quoted string"
            raise TshFormatError(line.number, f"config {key} should be {wanted}")
        return value

    def _caps(self, key: str) -> int | list[int] | None:
        line = self.setting(key)
        if line is None:
            return None
        value = line.value
        if isinstance(value, list) and value and all(_whole(v) for v in value):
            return [int(v) for v in value]
        if _whole(value):
            return int(value)
        raise TshFormatError(line.number, f"config {key} should be a number or a list of numbers")


def _whole(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value == int(value)


def canonical_division(name: str) -> str:
    return re.sub(r"\W", "", name).upper()


def read_config(text: str, *, source: str = "") -> ConfigFile:
    """Read the text of a `config.tsh`; unknown line kinds are errors, as they are to tsh."""
    split = _split_lines(text)
    _refuse_nul(split, source)
    config = ConfigFile([], split.newline, split.bom)
    attachment_end: str | None = None
    attached: list[str] = []  # the text of the file being read, line by line with its ending
    for number, (raw, end) in enumerate(split.lines, 1):
        # `#begin_file name=…` … `#end_file name=…` carries another file (a .t) inside.
        if attachment_end is not None:
            config.lines.append(OtherLine(number, raw, "attachment", end=end))
            if raw.rstrip() in (attachment_end, "#end_file"):
                name = attachment_end.split("=", 1)[1]
                text = "".join(attached)
                config.attachments[name] = Attachment(name, text, number - len(attached))
                attachment_end = None
            else:
                attached.append(raw + (end or "\n"))
            continue
        if raw.startswith("#begin_file"):
            match = _BEGIN_FILE.match(raw)
            if not match:
                raise TshFormatError(
                    number, "#begin_file wants name=FILE (e.g. #begin_file name=a.t)", source=source
                )
            if match.group(1) in config.attachments:
                raise TshFormatError(
                    number, f"the file {match.group(1)!r} is carried twice", source=source
                )
            attachment_end = f"#end_file name={match.group(1)}"
            attached = []
            config.lines.append(OtherLine(number, raw, "attachment", end=end))
            continue
        line = _read_config_line(raw, number, config, source)
        line.end = end
        config.lines.append(line)
    if attachment_end is not None:
        raise TshFormatError(
            len(split.lines), f"no {attachment_end!r} before the end", source=source
        )
    for name in ("realm", "max_rounds", "bye_spread"):
        getattr(config, name)  # settings the tournament relies on are checked as they are read
    for name in ("spread_cap", "standings_spread_cap", "gibson_spread"):
        getattr(config, name)
    return config


def read_config_file(path: str | Path) -> ConfigFile:
    """A `config.tsh` given by its path: a regular file under the cap (`files.read_file`; a
    refusal is `files.FileRefused`). The files it names are read with `files.read_beside`."""
    path = Path(path)
    text, encoding = decode(files.read_file(path))
    config = read_config(text, source=path.name)
    config.encoding = encoding
    return config


def write_config(config: ConfigFile) -> str:
    return _join_lines([(line.text, line.end) for line in config.lines], config.newline, config.bom)


def write_config_file(config: ConfigFile, path: str | Path) -> None:
    Path(path).write_bytes(write_config(config).encode(config.encoding))


def _read_config_line(raw: str, number: int, config: ConfigFile, source: str) -> ConfigEntry:
    body = raw.strip()
    indent = len(raw) - len(raw.lstrip())
    if not body:
        return OtherLine(number, raw, "blank")
    if body.startswith("#"):
        return OtherLine(number, raw, "comment")
    if match := _CONFIG.match(body):
        key, subkeys, rhs = match.groups()
        value_text = re.sub(r"\s*;\s*$", "", rhs)
        return ConfigSetting(
            number,
            raw,
            key=key,
            subkey=_subkey(subkeys, number, source),
            value_text=value_text,
            value_start=indent + match.start(3),
        )
    if match := _DIVISION.match(body):
        return DivisionLine(number, raw, name=match.group(1), file=match.group(2))
    if body.lower().startswith("autopair"):
        return _autopair(raw, body, number, config, source)
    if match := _CLASSES.match(body):
        division, count = match.groups()
        _known_division(division, config, number, source)
        if not 1 <= (whole_number(count) or 0) <= 26:
            raise TshFormatError(number, f"classes: {count!r} is not 1 to 26", source=source)
        return OtherLine(number, raw, "classes")
    if match := _KEYWORD.match(body + " "):
        return OtherLine(number, raw, match.group(1).lower())
    raise TshFormatError(number, f"tsh does not know this line: {body!r}", source=source)


def _autopair(raw: str, body: str, number: int, config: ConfigFile, source: str) -> AutopairLine:
    match = _AUTOPAIR.match(body)
    if not match:
        raise TshFormatError(
            number,
            "autopair wants DIVISION SOURCE_ROUND TARGET_ROUND COMMAND ARGUMENTS",
            source=source,
        )
    division, source_round, target_round, command, args = match.groups()
    _known_division(division, config, number, source)
    if int(source_round) >= int(target_round):
        raise TshFormatError(
            number,
            f"autopair: round {target_round} cannot be paired from round {source_round}",
            source=source,
        )
    return AutopairLine(
        number,
        raw,
        division=division,
        source_round=int(source_round),
        target_round=int(target_round),
        command=command,
        args=(args or "").split(),
    )


def _known_division(name: str, config: ConfigFile, number: int, source: str) -> None:
    if canonical_division(name) not in {d.key for d in config.divisions}:
        raise TshFormatError(number, f"division {name!r} is not declared above", source=source)


def _subkey(text: str, number: int, source: str) -> str | None:
    if not text:
        return None
    match = _SUBKEY.match(text)
    if not match:
        raise TshFormatError(
            number, f"only one {{'KEY'}} or [N] is understood: {text}", source=source
        )
    return next(g for g in match.groups() if g is not None).upper()


# --------------------------------------------------------------------------- Perl values

_TOKEN = re.compile(
    r"""\s*(?:
        (?P<number>[-+]?(?:[0-9][0-9_]*(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?)
      | '(?P<single>(?:[^'\\]|\\.)*)'
      | "(?P<double>(?:[^"\\]|\\.)*)"
      | (?P<punct>=>|[\[\]{},])
      | (?P<word>\w+)
    )""",
    re.VERBOSE | re.DOTALL,
)


def perl_value(text: str) -> Any:
    """A Perl literal as tsh configs write them: numbers, quoted strings, `[…]` and `{…}`.

    Anything else (an expression, `q{}` quoting, a sub) raises ValueError.
    """
    tokens = list(_tokens(text))
    value, rest = _parse_value(tokens, 0)
    if rest != len(tokens):
        raise ValueError(f"unexpected {tokens[rest][1]!r} in {text!r}")
    return value


def _tokens(text: str) -> Iterator[tuple[str, str]]:
    position = 0
    text = text.rstrip()
    while position < len(text):
        match = _TOKEN.match(text, position)
        if not match or match.end() == position:
            raise ValueError(f"cannot read {text[position:]!r}")
        kind = match.lastgroup
        assert kind is not None
        yield kind, match.group(kind)
        position = match.end()


def _parse_value(tokens: list[tuple[str, str]], index: int) -> tuple[Any, int]:
    if index >= len(tokens):
        raise ValueError("a value is missing")
    kind, text = tokens[index]
    if kind == "number":
        cleaned = text.replace("_", "")
        if re.fullmatch(r"[-+]?[0-9]+", cleaned):
            # Read as a whole number, not through a float: 400 digits are not infinity.
            return int(cleaned), index + 1
        number = float(cleaned)
        if not math.isfinite(number):
            raise ValueError(f"{text} is too large a number")
        return number, index + 1
    if kind == "single":
        return re.sub(r"\\([\\'])", r"\1", text), index + 1
    if kind == "double":
        return re.sub(r"\\(.)", r"\1", text), index + 1
    if kind == "word":
        return (None if text == "undef" else text), index + 1
    if text in ("[", "{"):
        closing = "]" if text == "[" else "}"
        items: list[Any] = []
        index += 1
        while True:
            if index >= len(tokens):
                raise ValueError(f"no closing {closing!r}")
            if tokens[index][1] == closing:
                index += 1
                break
            item, index = _parse_value(tokens, index)
            items.append(item)
            if index < len(tokens) and tokens[index][1] in (",", "=>"):
                index += 1
            elif index >= len(tokens) or tokens[index][1] != closing:
                raise ValueError(f"expected ',' or {closing!r}")
        if text == "[":
            return items, index
        if len(items) % 2:
            raise ValueError("a hash with an odd number of items")
        return dict(zip(items[::2], items[1::2], strict=True)), index
    raise ValueError(f"unexpected {text!r}")


# --------------------------------------------------------------------------- cross-tables ids

# TSH's roster downloads end a name with its cross-tables id: "Tunnicliffe, Matthew:XT017175".
_XT_SUFFIX = re.compile(r":XT([0-9]{1,9})$")
XT_DIGITS = 6  # how the downloads write the id: zero-padded to six digits


def split_xtid(name: str) -> tuple[str, int | None]:
    """The name without a trailing `:XT<digits>`, and the id it gave (None if none)."""
    match = _XT_SUFFIX.search(name)
    if match is None:
        return name, None
    return name[: match.start()], int(match.group(1))


def with_xtid(name: str, xtid: int | None) -> str:
    """The name as the roster downloads write it, with its cross-tables id (none: as it is)."""
    return name if xtid is None else f"{name}:XT{xtid:0{XT_DIGITS}d}"


def player_xtid(player: TshPlayer) -> tuple[str, int | None, bool]:
    """A `.t` line's name without its `:XT` suffix, its cross-tables id (the `xtid` field's
    first, else the suffix's) and whether the name carried it."""
    name, suffixed = split_xtid(player.name)
    field_value = player.extra("xtid")
    if field_value:
        number = whole_number(field_value[0])
        if number is not None:
            return name, number, suffixed is not None
    return name, suffixed, suffixed is not None


# -- config event_date -------------------------------------------------------------------------

# The event's dates as config.tsh's `event_date` writes them: free text, "as it should appear in
# the NASPA submission". Read in the forms directors write: one day ("February 19, 2021",
# "19 February 2021", "2021-02-19"), days within a month ("February 19-20, 2021", "19-20
# February 2021"), across months ("February 28-March 1, 2021") and across years ("December 30,
# 2021-January 2, 2022"); a weekday name is ignored, months may be shortened ("Feb", "Sept.").
_MONTHS = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
]
_WEEKDAYS = re.compile(
    r"\b(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?\b\.?", re.IGNORECASE
)
_ISO_DAY = re.compile(r"\b([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})\b")
_DATE_TOKEN = re.compile(r"[^\W\d_]+|[0-9]+")
_RANGE = re.compile(r"\s*(?:-|–|—|\bto\b|\buntil\b|\bthrough\b|\bthru\b)\s*", re.IGNORECASE)
_MAX_EVENT_DAYS = 366


def _month(word: str) -> int | None:
    word = word.lower()
    if len(word) < 3:
        return None
    for number, name in enumerate(_MONTHS, start=1):
        if name.startswith(word) or (word == "sept" and number == 9):
            return number
    return None


def _date_side(text: str) -> tuple[int | None, int, int | None] | None:
    """(month, day, year) of one side of a range; None when it is not a day of a date."""
    month = year = day = None
    for token in _DATE_TOKEN.findall(text):
        if token.isdigit():
            value = int(token) if len(token) <= 4 else 0
            if len(token) == 4 and year is None:
                year = value
            elif len(token) <= 2 and 1 <= value <= 31 and day is None:
                day = value
            else:
                return None
        else:
            found = _month(token)
            if found is None or month is not None:
                return None
            month = found
    if day is None:
        return None
    return month, day, year


def event_dates(text: str) -> tuple[datetime.date, datetime.date] | None:
    """The first and last day (`datetime.date`s) `event_date` gives, or None when the text is
    not a date in one of the forms above (a missing year, an impossible day, an end before the
    start or more than a year after it)."""
    text = _WEEKDAYS.sub(" ", text.replace(",", " ").replace(".", " "))
    days: list[datetime.date] = []
    try:
        iso = _ISO_DAY.findall(text)
        if iso:
            if len(iso) > 2 or _RANGE.sub(" ", _ISO_DAY.sub(" ", text)).strip():
                return None
            days = [datetime.date(int(y), int(m), int(d)) for y, m, d in iso]
        else:
            parts = _RANGE.split(text.strip(), maxsplit=1)
            if len(parts) == 2 and _RANGE.search(parts[1]):
                return None
            sides = [_date_side(part) for part in parts]
            if any(side is None for side in sides):
                return None
            first = sides[0]
            last = sides[-1]
            assert first is not None and last is not None
            end_month = last[0] if last[0] is not None else first[0]
            start_month = first[0] if first[0] is not None else end_month
            end_year = last[2] if last[2] is not None else first[2]
            if start_month is None or end_month is None or end_year is None:
                return None
            start_year = first[2]
            if start_year is None:
                start_year = end_year - (start_month > end_month)
            days = [
                datetime.date(start_year, start_month, first[1]),
                datetime.date(end_year, end_month, last[1]),
            ]
    except ValueError:
        return None
    start, end = days[0], days[-1]
    if end < start or (end - start).days > _MAX_EVENT_DAYS:
        return None
    return start, end
