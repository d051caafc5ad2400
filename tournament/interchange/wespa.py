"""WESPA's "Results and ratings" printout, and the standings WESPA's rating program computes.

The printout gives, per section and grouped by games played, each player's rank, wins, margin
(spread), country, name, and old rating, change and new rating; `&` (still provisional) and `*`
(previously unrated) mark provisional players, whose ratings are in parentheses.

WESPA's rating program is not public. Its standings can be worked out from what it prints:
- a round without an opponent (the player's own number) is counted nowhere (not in wins,
  margin or games); a game scored 0 is a missed round and is also dropped from the player's
  list of games, whatever opponent it names: the program looks at the score, not at the
  opponent (in the 2008 Kings Cup, Thailand, forfeits are written 2100 for the winner and 0
  against the winner for the loser, and a 0 names a player who played someone else; the
  printout counts none of those 0 games); so is a negative score (a penalty: -100 in the 2012
  Princess Cup, Thailand, -50 in the 2013 Pakistan championship, each against a player who
  played someone else: the printouts count neither);
- the opponent's score is read by position: the score at the same place in the opponent's
  list. After a missed round (or in a line that left it out) it so reads the score of another
  round, and past the end of the list a score left over from an earlier event (unknown here:
  any of 0-999);
- a score that starts in column 21 has that digit read as 0 (2371 is read as 0371: a loss);
- wins are the thousands digits (2 a win, 1 half), whatever the scores say.
`flawed_figures` applies these rules, so a test can show each difference from Spread's own
figures is one of them. Nothing here imports Django.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from tournament.interchange.tou import TouRow, TouSection

_ROW = re.compile(
    r"^\s*(?P<rank>\d+)\s+(?P<wins>\d+(?:\.\d+)?)\s+(?P<margin>[+-]?\d+)(?P<mark>[ &*])"
    r"\s*(?P<country>[A-Z]{2,3})\s(?P<name>.{1,20})(?P<rest>.*)$"
)
_GAMES = re.compile(r"^\s*(\d+) games\s*$")
_RATING = re.compile(r"\(\s*\d+\)|[+-]\d+|\d+")


class PrintoutError(ValueError):
    """A printout line that cannot be read; the message names the line."""


@dataclass(frozen=True)
class PrintoutRow:
    line: int
    section: str
    games: int | None  # the "N games" group it is printed under
    rank: int
    wins: float
    margin: int
    mark: str  # "&" still provisional, "*" previously unrated, "" neither
    country: str
    name: str
    old: str  # as printed, "(1128)" when provisional; "" when previously unrated
    change: str  # "+28", "" when not printed
    new: str

    def figures(self) -> dict[str, str]:
        """What Spread keeps of a player's WESPA rating, as printed."""
        return {
            "old": self.old,
            "change": self.change,
            "new": self.new,
            "mark": self.mark,
            "country": self.country,
        }


def read_printout(text: str, sections: list[str]) -> list[PrintoutRow]:
    """The player rows of a printout. A line naming one of `sections` starts that section;
    rows before any such line belong to the first section."""
    rows = []
    section = sections[0] if sections else ""
    games = None
    names = {s.strip(): s for s in sections}
    for number, line in enumerate(text.splitlines(), start=1):
        if "\x00" in line:  # no text (PostgreSQL cannot even store it), as in a .tou file
            raise PrintoutError(f"line {number}: a NUL byte (\\0): not a text file")
        stripped = line.strip()
        if stripped in names and not _ROW.match(line):
            section, games = names[stripped], None
            continue
        found = _GAMES.match(line)
        if found:
            games = int(found.group(1))
            continue
        m = _ROW.match(line)
        if not m:
            continue
        tokens = _RATING.findall(m["rest"])
        signed = [t for t in tokens if t[0] in "+-"]
        plain = [t.replace(" ", "") for t in tokens if t[0] not in "+-"]
        if len(plain) > 2 or len(signed) > 1:
            raise PrintoutError(f"line {number}: cannot read the ratings {m['rest'].strip()!r}")
        old, new = (plain[0], plain[1]) if len(plain) == 2 else ("", plain[0] if plain else "")
        rows.append(
            PrintoutRow(
                number,
                section,
                games,
                int(m["rank"]),
                float(m["wins"]),
                int(m["margin"]),
                m["mark"].strip(),
                m["country"],
                m["name"].strip(),
                old,
                signed[0] if signed else "",
                new,
            )
        )
    return rows


@dataclass(frozen=True)
class Figures:
    wins: float
    margin: int | None  # None: a score read past the end of an opponent's list
    games: int
    # With `margin` None: the margin without the scores read past the end, and how many
    # such scores were read (each 0-999), so a printed margin can still be bounded.
    known: int = field(default=0, compare=False)
    unread: int = field(default=0, compare=False)

    def could_print(self, margin: int) -> bool:
        """Whether WESPA's program could print this margin: exactly, or with any score
        from 0 to 999 read past the end of a list."""
        if self.margin is not None:
            return margin == self.margin
        return 0 <= self.known - margin <= 999 * self.unread


def _as_read(row: TouRow, index: int) -> int:
    """An entry's code as WESPA's program reads it: a digit in column 21 read as 0."""
    e = row.entries[index]
    if not e.column21:
        return e.code
    width = len(str(e.code)) if e.code >= 1000 else 4
    return e.code % 10 ** (width - 1) if len(str(e.code)) == width else e.code % 100


def _score(code: int) -> int:
    """A code's score (a negative one, dropped as missed, is never read as an opponent's)."""
    return code if code < 0 else code % 1000


def missed(row: TouRow, index: int) -> bool:
    """A round WESPA's program takes as missed: a score of 0 or below (a penalty), against the
    player's own number or against anyone else (read the same way, by its score alone)."""
    return row.entries[index].code <= 0


def flawed_figures(section: TouSection) -> list[Figures]:
    """Each player's wins, margin and games as WESPA's program computes them (module doc)."""
    lists = [
        [i for i in range(len(row.entries)) if not missed(row, i)]
        for p, row in enumerate(section.rows)
    ]
    out = []
    for p, row in enumerate(section.rows):
        wins = 0.0
        known = unread = games = 0
        for place, i in enumerate(lists[p]):
            e = row.entries[i]
            if e.opponent == p + 1:
                continue  # a bye or a forfeit: counted nowhere
            games += 1
            code = _as_read(row, i)
            wins += min(max(code, 0) // 1000, 2) / 2
            q = e.opponent - 1
            known += _score(code)
            if place >= len(lists[q]):
                unread += 1  # past the end of the list: a score from an earlier event
                continue
            known -= _score(_as_read(section.rows[q], lists[q][place]))
        out.append(Figures(wins, None if unread else known, games, known, unread))
    return out
