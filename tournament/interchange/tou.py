"""The `.tou` results file rating bodies take (tsh's AUPAIR command writes it).

Layout, a division after another, lines ending in CR LF, ASCII only:

    *M<DD.MM.YYYY> <tournament name>
    *<division name>
    <38 spaces>0                   (the high word line: Spread records none)
    <name, 20 wide> <game> <game> …  one line a player, in player-number order
    *** END OF FILE ***

A game is `<result><score> <opponent>`: the result 2 won, 1 drew, a space lost; the score
modulo 1000 in three places; a space; the opponent's line number (1 is the division's first
player) right-aligned in three places (four when the division has more than 99 players),
led by `+` when the player went first. A game with no opponent (a bye, a forfeit) is written
against the player's own number, as rating programs skip such games: a bye as its spread and
no result mark, a forfeit lost as the forfeit's spread without its sign. A round with no result
(not played, withdrawn) is written as a zero against the player's own number, so that every
line keeps one column a round.

A score is three digits; a losing score below zero (a penalty, as WESPA's files sometimes
record on a forfeit) is written with its sign in the result's place, `-50` or `-100`.

Names are ASCII: the caller gives each player's name in Latin letters (`Player.latin_name`),
and `ascii_text` spells what is left (accents dropped, any other letter transliterated); the
first 20 characters are written.

This follows the only public writer of the format known to us (Woogles' TOU export, whose
golden file it reproduces); tsh's own AUPAIR code is not public.

`read` takes the files WESPA's archive holds (see "reading" below) and `section_games` matches
each game of a line with its opponent's line and gives it its round. An imported game keeps
its entries as written (`TouGame.raw`), so that it is written back unchanged.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from anyascii import anyascii

NAME_WIDTH = 20
CRLF = "\r\n"


@dataclass(frozen=True)
class TouGame:
    """A round of one player: `opponent` None for a bye, a forfeit or no game."""

    opponent: int | None  # the opponent's line number, 1-based
    score: int | None  # None: no result; for a bye or forfeit, its spread
    opponent_score: int | None
    went_first: bool = False
    raw: TouEntry | None = None  # an imported game as its line wrote it: written back as is


@dataclass(frozen=True)
class TouPlayer:
    name: str
    games: list[TouGame]


@dataclass(frozen=True)
class TouDivision:
    name: str
    players: list[TouPlayer]
    high_word: str = ""  # as read from an imported file; "" writes Spread's own


def ascii_text(text: str) -> str:
    """The text in ASCII: accents dropped, other letters spelled out (anyascii: ß "ss", Ð "D",
    김 "Gim"), control characters left out."""
    return "".join(ch for ch in anyascii(text) if ch.isprintable()).strip()


def _ascii_line(text: str) -> str:
    """`ascii_text` keeping the line's leading spaces (a high-word line's columns)."""
    indent = len(text) - len(text.lstrip())
    return " " * indent + ascii_text(text.replace("\t", " "))


class TouError(ValueError):
    """A result the format cannot hold; the message says which."""


def _game(player: int, game: TouGame, wide: bool) -> str:
    if game.raw is not None:
        return game.raw.text(wide)
    if game.score is None:
        result, score, opponent = " ", 0, str(player)
    elif game.opponent is None:
        result, score, opponent = " ", abs(game.score), str(player)
    else:
        mine, theirs = game.score, game.opponent_score or 0
        result = "2" if mine > theirs else "1" if mine == theirs else " "
        score = mine
        opponent = f"+{game.opponent}" if game.went_first else str(game.opponent)
    negative = result == " " and -1000 < score < 0  # a lost game's penalty: its sign in front
    if not (0 <= score < 1000 or negative):
        raise TouError(f"player {player}: a score of {score} cannot be written in a .tou file")
    code = f"{score:4d}" if negative else f"{result}{score:3d}"
    return f"{code} {opponent:>{4 if wide else 3}}"


def write(
    tournament: str,
    date: datetime.date,
    divisions: Iterable[TouDivision],
    results_only: bool = False,
) -> str:
    """The file; `results_only` writes `*N` (an event that recorded only wins and losses)."""
    lines = []
    mark = "N" if results_only else "M"
    for division in divisions:
        lines.append(f"*{mark}{date:%d.%m.%Y} {ascii_text(tournament)}")
        lines.append(f"*{ascii_text(division.name)}")
        high_word = division.high_word.rstrip()
        # A high word read from a file keeps its columns; accents go as in names.
        lines.append(_ascii_line(high_word) if high_word.strip() else " " * 38 + "0")
        wide = len(division.players) > 99
        for number, player in enumerate(division.players, start=1):
            name = ascii_text(player.name)[:NAME_WIDTH].rstrip()
            if not name:
                raise TouError(
                    f"division {division.name}, player {number}: {player.name!r} has no "
                    "letter a .tou file can hold: give them a name in Latin letters"
                )
            games = "".join(" " + _game(number, g, wide) for g in player.games)
            lines.append(f"{name:<{NAME_WIDTH}}{games}")
    lines.append("*** END OF FILE ***")
    return CRLF.join(lines) + CRLF


# --------------------------------------------------------------------------- reading
#
# Real files (WESPA's archive) differ from what `write` produces: the first line may be
# `*N…` (only wins and losses recorded, the scores placeholders); the high-word line after a
# section line is a number alone or `name WORD score`; lines end in LF or CR LF; text is
# Latin-1; a tab may stand for spaces; a score may start in column 21, right after a name
# that fills columns 1-20. A player paired with their own number had no opponent that round.

END = "*** END OF FILE ***"
_REPEATED_HEADER = re.compile(r"^\*[MN]\d\d\.\d\d\.\d{4}(\s|$)")


class TouFormatError(ValueError):
    """A line of a `.tou` file that cannot be read; the message names the line."""

    def __init__(self, line: int, message: str) -> None:
        self.line = line
        super().__init__(f"line {line}: {message}")


@dataclass(frozen=True)
class TouEntry:
    """One game of a player line, as written."""

    code: int  # the score with 2000 added for a win, 1000 for a tie; below 0, a lost penalty
    opponent: int  # the opponent's number as written; the player's own: no opponent
    first: bool  # `+` before the number: the player went first
    column21: bool = False  # the score started in column 21, right after the name

    @property
    def score(self) -> int:
        return self.code if self.code < 0 else self.code % 1000

    @property
    def result(self) -> int:
        """2 won, 1 tied, 0 lost, as the thousands digit says (a negative score lost)."""
        return min(max(self.code, 0) // 1000, 2)

    def text(self, wide: bool = False) -> str:
        opponent = f"+{self.opponent}" if self.first else str(self.opponent)
        return f"{self.code:4d} {opponent:>{4 if wide else 3}}"


@dataclass(frozen=True)
class TouRow:
    line: int
    name: str
    entries: tuple[TouEntry, ...]


@dataclass(frozen=True)
class TouSection:
    name: str
    line: int
    high_word: str  # the line after the section line, as written ("" if there was none)
    rows: tuple[TouRow, ...]


@dataclass(frozen=True)
class TouFile:
    results_only: bool  # `*N`: only wins and losses were recorded
    date: datetime.date | None
    event: str
    sections: tuple[TouSection, ...]


def _digits(token: str) -> bool:
    # `str.isdigit` accepts characters such as `²`; only ASCII digits make a number here.
    return bool(token) and token.isascii() and token.isdigit()


# A score as a line writes it: 0-2999 (2000 added for a win, 1000 for a tie), or a penalty
# below zero, -1 to -999, with no result digit.
_SCORE = re.compile(r"[0-9]{1,6}|-[1-9][0-9]{0,2}")


def decode_text(data: bytes) -> str:
    """UTF-8 when the bytes are UTF-8, else Latin-1 (which WESPA's files are written in)."""
    try:
        return data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def _header(text: str) -> tuple[bool, datetime.date | None, str]:
    if len(text) < 2 or text[0] != "*" or text[1] not in "MN":
        raise TouFormatError(1, "a .tou file starts with *M<dd.mm.yyyy> <event> (or *N…)")
    rest = text[2:].strip()
    stamp, _, event = rest.partition(" ")
    try:
        date = datetime.datetime.strptime(stamp, "%d.%m.%Y").date()
    except ValueError:
        raise TouFormatError(1, f"{stamp!r} is not a date written dd.mm.yyyy") from None
    return text[1] == "N", date, event.strip()


def _player_line(number: int, text: str) -> TouRow:
    """A player line: the name in columns 1-20, then score and opponent pairs."""
    head = text[:NAME_WIDTH]
    if "\t" in head:  # a tab ends the name early: the games follow it
        name, _, rest = text.partition("\t")
        column21 = False
    else:
        name, rest = head, text[NAME_WIDTH:]
        column21 = rest[:1].isascii() and rest[:1].isdigit()
    tokens = rest.split()
    name = name.strip()
    if not name:
        raise TouFormatError(number, "a player line has no name in columns 1-20")
    if len(tokens) % 2:
        raise TouFormatError(number, f"{name}: the games are not score and opponent pairs")
    entries = []
    for i in range(0, len(tokens), 2):
        score, opponent = tokens[i], tokens[i + 1]
        first = opponent.startswith("+")
        opponent = opponent[1:] if first else opponent
        if not _SCORE.fullmatch(score) or int(score) > 2999:
            raise TouFormatError(number, f"{name}: {score!r} is not a score (-999 to 2999)")
        if not _digits(opponent) or int(opponent) == 0:
            raise TouFormatError(number, f"{name}: {tokens[i + 1]!r} is not a player number")
        entries.append(TouEntry(int(score), int(opponent), first, column21 and i == 0))
    return TouRow(number, name, tuple(entries))


def _high_word_line(text: str) -> bool:
    """The line after a section line is its high word: a number alone or `name WORD score`;
    a line that reads as a player's games is taken as the first player instead."""
    if not text[:NAME_WIDTH].strip():
        return True
    try:
        _player_line(0, text)
    except TouFormatError:
        return True
    return False


def _refuse_nul(lines: list[str]) -> None:
    """A NUL byte is no text (PostgreSQL cannot even store it): the file is refused, wherever
    it holds one, as a tsh file is."""
    for number, text in enumerate(lines, start=1):
        if "\x00" in text:
            raise TouFormatError(number, "a NUL byte (\\0): not a text file")


def read(data: bytes | str) -> TouFile:
    """A `.tou` file; TouFormatError names the first line that cannot be read."""
    text = decode_text(data) if isinstance(data, bytes) else data
    lines = text.splitlines()
    _refuse_nul(lines)
    if not lines:
        raise TouFormatError(1, "the file is empty")
    results_only, date, event = _header(lines[0].strip())
    # Each section as read so far: name, line, high_word and its rows.
    sections: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None
    expect_high_word = False
    for number, raw in enumerate(lines[1:], start=2):
        line = raw.rstrip()
        if line.strip() == END or line.startswith("*** END"):
            break  # a file cut before this line is read as far as it goes
        if _REPEATED_HEADER.match(line):
            continue  # the writer repeats the event line before each section
        if line.startswith("*"):
            name = line[1:].strip()
            if not name:
                raise TouFormatError(number, "a section line (*NAME) has no name")
            current = {"name": name, "line": number, "high_word": "", "rows": []}
            sections.append(current)
            expect_high_word = True
            continue
        if not line.strip():
            continue
        if current is None:
            raise TouFormatError(number, "a player line before the first *SECTION line")
        if expect_high_word:
            expect_high_word = False
            if _high_word_line(line):
                current["high_word"] = line
                continue
        current["rows"].append(_player_line(number, line))
    if not sections:
        raise TouFormatError(2, "the file has no *SECTION line")
    out = []
    for s in sections:
        rows = tuple(s["rows"])
        for row in rows:
            for e in row.entries:
                if e.opponent > len(rows):
                    raise TouFormatError(
                        row.line,
                        f"{row.name}: opponent {e.opponent} is not a player of section "
                        f"{s['name']} ({len(rows)} players)",
                    )
        out.append(TouSection(s["name"], s["line"], s["high_word"], rows))
    return TouFile(results_only, date, event, tuple(out))


# --------------------------------------------------------------------------- games of a section


@dataclass(frozen=True)
class TouPairing:
    """A game of a section: the entries of one or two player lines, with its round.

    `a` and `b` are (player index, entry index), 0-based; `b` is None for a round without an
    opponent (a self-pairing, or an entry whose opponent's line names nobody for it).
    """

    round: int
    a: tuple[int, int]
    b: tuple[int, int] | None


@dataclass(frozen=True)
class TouGames:
    pairings: tuple[TouPairing, ...]
    rounds: int
    compact: bool  # some lines list only the rounds played (rows of different lengths)
    notes: tuple[str, ...]  # what was read past: an opponent misnumbered, a result digit …


def _entry_rounds(
    rows: tuple[TouRow, ...], links: dict[tuple[int, int], tuple[int, int]]
) -> dict[tuple[int, int], int]:
    """The earliest round of each entry: after the line's previous entry, and the same round
    as the entry it is linked with. Lines that hold every round come out as written; a line
    that left out a missed round gets its later games in their opponents' rounds."""
    rnd = {(p, i): i + 1 for p, row in enumerate(rows) for i in range(len(row.entries))}
    limit = sum(len(r.entries) for r in rows) + 1
    changed = True
    while changed:
        changed = False
        for p, row in enumerate(rows):
            for i in range(len(row.entries)):
                want = rnd[p, i]
                if i:
                    want = max(want, rnd[p, i - 1] + 1)
                other = links.get((p, i))
                if other is not None:
                    want = max(want, rnd[other])
                if want != rnd[p, i]:
                    if want > limit:
                        raise TouFormatError(
                            row.line,
                            f"{row.name}: the games cannot be put in rounds that agree "
                            "with the opponents' lines",
                        )
                    rnd[p, i] = want
                    changed = True
    return rnd


Entry = tuple[int, int]  # (row, entry), 0-based
Links = dict[Entry, Entry]  # an entry -> the opponent's entry


def section_games(section: TouSection) -> TouGames:
    """Match each game of a line with the opponent's line, and give each game its round.

    An entry is matched with the opponent's entry naming this player in the same column;
    failing that (a line that left out a missed round), with the next such entry in order.
    What is left over is read round by round (`_read_past`): entries that name one another
    in one way only are games whose other line misnumbered the opponent; an entry whose
    opponent's line names someone else (or no one) is a game against the one other player of
    the round that no line names, when there is exactly one, else no game, the player's own
    score kept. What can be paired in more than one way, or in none, is TouFormatError.
    """
    rows = section.rows
    links = _links(rows)
    rnd = _entry_rounds(rows, links)
    notes: list[str] = []
    _read_past(rows, links, rnd, notes)
    pairings = _pairings(rows, links, rnd, notes)
    rounds = max(rnd.values(), default=0)
    lengths = {len(r.entries) for r in rows}
    return TouGames(tuple(pairings), rounds, len(lengths) > 1, tuple(notes))


def _links(rows: tuple[TouRow, ...]) -> Links:
    """Each entry and the opponent's entry naming this player: in the same column, else (a line
    that left out a missed round) the next such entry in order."""
    links: Links = {}
    for p, row in enumerate(rows):
        for i, e in enumerate(row.entries):
            q = e.opponent - 1
            if q == p or (p, i) in links:
                continue
            entries = rows[q].entries
            if i < len(entries) and entries[i].opponent - 1 == p and (q, i) not in links:
                links[p, i] = (q, i)
                links[q, i] = (p, i)
    for p, row in enumerate(rows):
        for i, e in enumerate(row.entries):
            q = e.opponent - 1
            if q == p or (p, i) in links:
                continue
            later = [
                j
                for j, f in enumerate(rows[q].entries)
                if f.opponent - 1 == p and (q, j) not in links
            ]
            mine = [
                j for j, f in enumerate(row.entries) if f.opponent - 1 == q and (p, j) not in links
            ]
            for j, k in zip(mine, later, strict=False):
                links[p, j] = (q, k)
                links[q, k] = (p, j)
    return links


def _read_past(
    rows: tuple[TouRow, ...], links: Links, rnd: dict[Entry, int], notes: list[str]
) -> None:
    """Read, round by round, the entries whose opponent's line does not name them back.

    Within a round, such entries are joined where one names the other's player: each group
    so joined must pair off in exactly one way, each game named by one of its two lines (the
    other line misnumbered the opponent), else TouFormatError. An entry whose opponent's line
    names someone else, names no one (the opponent's own number) or has no game that round,
    and that no other such entry names, is alone: scored 0, a round without a game (nothing
    was played); the two of a round alone whose results agree, a game between them (both
    lines misnumbered); any other, no game, the player's own score kept.
    """
    orphans: dict[int, dict[int, int]] = {}  # round -> player -> entry
    for p, row in enumerate(rows):
        for i, e in enumerate(row.entries):
            if e.opponent - 1 != p and (p, i) not in links:
                orphans.setdefault(rnd[p, i], {})[p] = i
    for round_, entries in sorted(orphans.items()):
        alone = []
        for group in _groups(rows, entries):
            if len(group) == 1:
                alone.append(group[0])
                continue
            for p, q in _pair_off(rows, entries, group, round_):
                a, b = (p, entries[p]), (q, entries[q])
                links[a], links[b] = b, a
                notes.append(_misnumbered_note(rows, rnd, a, b, round_))
        _read_alone(rows, links, rnd, entries, alone, round_, notes)


def _groups(rows: tuple[TouRow, ...], entries: dict[int, int]) -> list[list[int]]:
    """The players of a round's left-over entries, joined where one names the other."""
    near: dict[int, set[int]] = {p: set() for p in entries}
    for p, i in entries.items():
        q = rows[p].entries[i].opponent - 1
        if q in entries:
            near[p].add(q)
            near[q].add(p)
    groups, seen = [], set()
    for p in sorted(entries):
        if p in seen:
            continue
        group, todo = [], [p]
        seen.add(p)
        while todo:
            v = todo.pop()
            group.append(v)
            for w in sorted(near[v] - seen):
                seen.add(w)
                todo.append(w)
        groups.append(sorted(group))
    return groups


def _pair_off(
    rows: tuple[TouRow, ...], entries: dict[int, int], group: list[int], round_: int
) -> list[tuple[int, int]]:
    """The one way to pair off a group, each pair named by one of its lines.

    Each entry names one player, so a group holds at most as many namings as players: a
    tree, paired off (if at all) in one way from its leaves, or a tree with one ring, which
    leaves an even ring two ways and an odd one none.
    """
    near: dict[int, set[int]] = {p: set() for p in group}
    for p in group:
        q = rows[p].entries[entries[p]].opponent - 1
        if q in near:
            near[p].add(q)
            near[q].add(p)
    pairs = []
    left = set(group)
    leaves = sorted(p for p in group if len(near[p]) == 1)
    while leaves:
        v = leaves.pop()
        if v not in left:
            continue
        if not near[v]:
            raise _unpairable(rows, entries, group, round_)
        (u,) = near[v]
        pairs.append((v, u))
        left -= {v, u}
        for w in near[u] | near[v]:
            near[w] -= {u, v}
            if w in left and len(near[w]) <= 1:
                leaves.append(w)
    if len(left) % 2:
        raise _unpairable(rows, entries, group, round_)
    if left:  # an even ring: two ways
        lines = ", ".join(_names(rows, entries, sorted(left)))
        raise TouFormatError(
            rows[min(left)].line,
            f"in round {round_}, {lines}: these players pair off in two ways, each game "
            "named by one of its lines; which games were played cannot be told",
        )
    return pairs


def _names(rows: tuple[TouRow, ...], entries: dict[int, int], players: list[int]) -> list[str]:
    return [
        f"{rows[p].name} (line {rows[p].line}) names player {rows[p].entries[entries[p]].opponent}"
        for p in players
    ]


def _unpairable(
    rows: tuple[TouRow, ...], entries: dict[int, int], group: list[int], round_: int
) -> TouFormatError:
    """A group that cannot be paired off: as a rule two lines name one player."""
    named: dict[int, list[int]] = {}
    for p in group:
        named.setdefault(rows[p].entries[entries[p]].opponent - 1, []).append(p)
    for q, by in sorted(named.items()):
        if len(by) > 1:
            a, b = by[:2]
            return TouFormatError(
                rows[a].line,
                f"{rows[a].name} and {rows[b].name} (line {rows[b].line}) both name "
                f"{rows[q].name} in round {round_}, whose line (line {rows[q].line}) "
                f"{_said(rows, entries, q)}: which of them played {rows[q].name} cannot be told",
            )
    lines = ", ".join(_names(rows, entries, group))
    return TouFormatError(
        rows[group[0]].line,
        f"in round {round_}, {lines}: these players cannot be paired off so that each game "
        "is named by one of its lines",
    )


def _said(rows: tuple[TouRow, ...], entries: dict[int, int], q: int) -> str:
    return f"names player {rows[q].entries[entries[q]].opponent}"


def _in_round(rows: tuple[TouRow, ...], rnd: dict[Entry, int], q: int, round_: int) -> str:
    """What a player's line says of a round: whom it names, if anyone."""
    for j, f in enumerate(rows[q].entries):
        if rnd[q, j] == round_:
            if f.opponent - 1 == q:
                return "names no opponent in that round"
            return f"names player {f.opponent} in that round"
    return "has no game in that round"


def _misnumbered_note(
    rows: tuple[TouRow, ...], rnd: dict[Entry, int], a: Entry, b: Entry, round_: int
) -> str:
    """The note of two entries read as one game: the line that named someone else."""
    if rows[a[0]].entries[a[1]].opponent - 1 != b[0]:
        a, b = b, a  # a names b; b's line misnumbered the opponent
    q = rows[b[0]]
    return (
        f"line {q.line}: {q.name} in round {round_} names player {q.entries[b[1]].opponent}; "
        f"read as the game {rows[a[0]].name} (line {rows[a[0]].line}) says they played"
    )


def _read_alone(
    rows: tuple[TouRow, ...],
    links: Links,
    rnd: dict[Entry, int],
    entries: dict[int, int],
    alone: list[int],
    round_: int,
    notes: list[str],
) -> None:
    """The entries of a round that no other left-over entry names (`_read_past`)."""
    scored = [p for p in alone if rows[p].entries[entries[p]].code != 0]
    pair = None
    if len(scored) == 2:
        a, b = ((p, entries[p]) for p in scored)
        if rows[a[0]].entries[a[1]].result + rows[b[0]].entries[b[1]].result == 2:
            pair = (a, b)
            links[a], links[b] = b, a
    for p in alone:
        row, i = rows[p], entries[p]
        e = row.entries[i]
        q = e.opponent - 1
        if e.code == 0:
            notes.append(
                f"line {row.line}: {row.name} scored 0 against player {e.opponent} in round "
                f"{round_}, whose line does not name them: read as a round without a game"
            )
            continue
        said = f"line {row.line}: {row.name}'s round {round_} names player {e.opponent}"
        said += f", whose line (line {rows[q].line}) {_in_round(rows, rnd, q, round_)}"
        if pair is not None:
            other = rows[pair[1][0] if pair[0][0] == p else pair[0][0]]
            notes.append(
                f"{said}: read as a game against {other.name} (line {other.line}), the one "
                f"other player of round {round_} whom no line names"
            )
        else:
            notes.append(f"{said}: read as no game, keeping their own score ({e.code})")


def _pairings(
    rows: tuple[TouRow, ...], links: Links, rnd: dict[Entry, int], notes: list[str]
) -> list[TouPairing]:
    """Each game once, with a note where the two lines' result digits and scores disagree."""
    pairings = []
    seen = set()
    for p, row in enumerate(rows):
        for i, e in enumerate(row.entries):
            if (p, i) in seen:
                continue
            other = links.get((p, i))
            if other is not None:
                seen.add(other)
                opposite = rows[other[0]].entries[other[1]]
                if e.result + opposite.result != 2 or (
                    (e.score > opposite.score) - (e.score < opposite.score) != e.result - 1
                ):
                    notes.append(
                        f"line {row.line}: {row.name} {e.code} v {rows[other[0]].name} "
                        f"{opposite.code} in round {rnd[p, i]}: the result digits do not agree "
                        "with the scores; the digits are counted"
                    )
            notes.extend(_penalties(rows, (p, i), other, rnd[p, i]))
            pairings.append(TouPairing(rnd[p, i], (p, i), other))
    return pairings


def _penalties(
    rows: tuple[TouRow, ...], a: tuple[int, int], b: tuple[int, int] | None, round_: int
) -> list[str]:
    """A note for each negative score of a game: a penalty, read as a loss by that much."""
    notes = []
    for mine, theirs in ((a, b), (b, a)):
        if mine is None:
            continue
        row = rows[mine[0]]
        e = row.entries[mine[1]]
        if e.code >= 0:
            continue
        if theirs is None:
            what = f"a forfeit loss by {-e.code}"
        else:
            other = rows[theirs[0]]
            what = f"a loss to {other.name}, {e.code} to {other.entries[theirs[1]].score}"
        notes.append(
            f"line {row.line}: {row.name} has a negative score, {e.code}, in round {round_} "
            f"(a penalty): read as {what}"
        )
    return notes
