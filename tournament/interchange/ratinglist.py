"""Rating lists as the associations publish them, read to fill in players' ratings by name
(tsh's USERATINGS). Two formats, each with what could be confirmed about it:

**WESPA** — the rating list of the ratings program WESPA's and ASPA's ratings are computed with
(`linrat`, and `RatCatcher`, which fetches `rating.dat` before an event). Its layout is
confirmed by ASPA's own page on the program (scrabble.org.au/ratings/linrat.html), which shows
a world list in it::

    NICKstateNAME isc18.tou 20081211
    LMAC UK Lewis Mackay 43 2232 20081027

A first line naming the columns (`NICKstateNAME`, then the last event rated and its date), then
one player a line, fields separated by white space: a nickname of up to four characters, the
"state" (a country or state code of up to four capitals: `UK`, `MY`, `NSW`, `OS`), the name as
printed ("First Last", as WESPA's printouts have them), the rated games, the rating, and the
date last played (YYYYMMDD). The same program prints WESPA's "Results and ratings"
(`wespa.py`; the corpus's printouts start "Results and ratings: …" then "following … on
YYYYMMDD", as ASPA's page shows it). A line without a date of eight digits is read if the
rest fits (the state is optional: a second field that is not all capitals is part of the name).

**NASPA** — the full ratings list NASPA publishes as text
(scrabbleplayers.org/ratings/data/full/current.txt, the file tsh's UPDATERATINGS fetches for
rating system "nsa"). What could be confirmed of it: one player a line, the line starting
with the player's last name in capitals (hyphenated names joined: `JANOTA-BZOWSKI`), and
NASPA member IDs are two letters and six digits (`AA000083`). Its exact columns could not be
confirmed from any stored source, so Spread reads it by what each field is, not by position:
fields are separated by tabs (or, without tabs, by white space); the fields before the first
number or member ID are the name: one field, or fields with a comma, are the name as written
("SMITH, JOHN" or "John Smith"), two or more without a comma are the last name then the given
names ("Last, First"); a field of two
capitals and six digits is the member ID; the first whole number after the name is the
rating, the next (if any) the games. A line naming columns (starting with "name" or "last")
is skipped. The format note on the desk's page says this.

Both: one problem a bad line, with its line number (never an exception); blank lines and
lines starting with `#` are skipped. Names are matched by `name_key` (see `match`).

Plain data only: no Django, no database.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field

from scoring.text import decode

FORMATS = ("naspa", "wespa")
MAX_BYTES = 16 * 1024 * 1024  # NASPA's full list is a few MB
MAX_LINES = 300_000
MAX_PROBLEMS = 200  # problems kept; the count of the rest is kept too
MAX_NAME = 200
MAX_RATING = 9_999
_DIGITS = re.compile(r"[0-9]{1,6}")
_DATE = re.compile(r"[0-9]{8}")
_NASPA_ID = re.compile(r"[A-Z]{2}[0-9]{6}")
_STATE = re.compile(r"[A-Z]{1,4}")
_SUFFIX_ID = re.compile(r":[A-Za-z]{2}[0-9]{6}\s*$")  # tsh writes "Smith, John:AA000000"

MESSAGES = {
    "too-big": "the file is {size} bytes; a rating list is read up to {most} bytes",
    "too-long": "the file has more than {most} lines; the rest is not read",
    "no-rating": "no rating on this line",
    "no-name": "no name on this line",
    "bad-rating": "the rating {text!r} is not a whole number from 0 to {most}",
    "bad-games": "the games {text!r} are not a whole number",
    "too-few": "a WESPA line is NICK STATE NAME GAMES RATING DATE; this one has {count} fields",
    "long-name": "the name is longer than {most} characters",
}


@dataclass(frozen=True, slots=True)
class Problem:
    line: int  # 0: the file as a whole
    code: str
    params: dict[str, object] = field(default_factory=dict)

    @property
    def text(self) -> str:
        sentence = MESSAGES[self.code].format(**self.params)
        return f"line {self.line}: {sentence}" if self.line else sentence


@dataclass(frozen=True, slots=True)
class Entry:
    line: int
    name: str  # as the list writes it
    rating: int
    games: int | None = None
    member_id: str = ""
    country: str = ""  # WESPA's "state"
    last_played: str = ""  # WESPA: YYYYMMDD


@dataclass(frozen=True, slots=True)
class RatingList:
    format: str
    entries: tuple[Entry, ...]
    problems: tuple[Problem, ...]
    more_problems: int = 0  # problems beyond MAX_PROBLEMS, counted only


def read(data: bytes | str, fmt: str) -> RatingList:
    """The entries of a rating list in format `fmt` ("naspa" or "wespa") and its problems."""
    if fmt not in FORMATS:
        raise ValueError(f"{fmt!r} is not a rating list format: {', '.join(FORMATS)}")
    problems: list[Problem] = []
    if isinstance(data, bytes):
        if len(data) > MAX_BYTES:
            problem = Problem(0, "too-big", {"size": len(data), "most": MAX_BYTES})
            return RatingList(fmt, (), (problem,))
        text = decode(data.replace(b"\x00", b""))
    else:
        text = data.replace("\x00", "")
    reader = _wespa_line if fmt == "wespa" else _naspa_line
    entries: list[Entry] = []
    more = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        if number > MAX_LINES:
            problems.append(Problem(0, "too-long", {"most": MAX_LINES}))
            break
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        found = reader(number, line)
        if isinstance(found, Entry):
            entries.append(found)
        elif found is not None:
            if len(problems) < MAX_PROBLEMS:
                problems.append(found)
            else:
                more += 1
    return RatingList(fmt, tuple(entries), tuple(problems), more)


def _number(text: str, most: int) -> int | None:
    if not _DIGITS.fullmatch(text):
        return None
    value = int(text)
    return value if value <= most else None


def _wespa_line(number: int, line: str) -> Entry | Problem | None:
    fields = line.split()
    if number == 1 and fields[0].upper().startswith("NICK"):
        return None  # the header: NICKstateNAME, the last event rated, its date
    date = ""
    if _DATE.fullmatch(fields[-1]):
        date, fields = fields[-1], fields[:-1]
    if len(fields) < 4:
        return Problem(number, "too-few", {"count": len(line.split())})
    *head, games_text, rating_text = fields
    rating = _number(rating_text, MAX_RATING)
    if rating is None:
        return Problem(number, "bad-rating", {"text": rating_text, "most": MAX_RATING})
    games = _number(games_text, 10**6)
    if games is None:
        return Problem(number, "bad-games", {"text": games_text})
    names = head[1:]  # after the nickname
    country = ""
    if len(names) > 1 and _STATE.fullmatch(names[0]):
        country, names = names[0], names[1:]
    name = " ".join(names)
    if not name:
        return Problem(number, "no-name")
    if len(name) > MAX_NAME:
        return Problem(number, "long-name", {"most": MAX_NAME})
    return Entry(number, name, rating, games, "", country, date)


_HEADER_WORDS = ("name", "last", "surname", "player")


def _naspa_line(number: int, line: str) -> Entry | Problem | None:
    fields = [f.strip() for f in line.split("\t")] if "\t" in line else line.split()
    fields = [f for f in fields if f]
    if fields[0].lower().rstrip(":").split()[0] in _HEADER_WORDS:
        return None
    names: list[str] = []
    member_id = ""
    numbers: list[str] = []
    for f in fields:
        if _NASPA_ID.fullmatch(f):
            member_id = member_id or f
        elif f.lstrip("-").isdigit() or _DIGITS.fullmatch(f):
            numbers.append(f)
        elif not numbers and not member_id:
            names.append(f)
    if not names:
        return Problem(number, "no-name")
    if not numbers:
        return Problem(number, "no-rating")
    rating = _number(numbers[0], MAX_RATING)
    if rating is None:
        return Problem(number, "bad-rating", {"text": numbers[0], "most": MAX_RATING})
    games = _number(numbers[1], 10**6) if len(numbers) > 1 else None
    written = " ".join(names)
    # One field, or a comma already there: the name as written; else last name, given names.
    name = written if len(names) == 1 or "," in written else f"{names[0]}, {' '.join(names[1:])}"
    if len(name) > MAX_NAME:
        return Problem(number, "long-name", {"most": MAX_NAME})
    return Entry(number, name, rating, games, member_id)


# -- matching by name ---------------------------------------------------------------------------


def name_key(name: str) -> tuple[str, ...]:
    """What two ways of writing one name share: its words without case, accents or
    punctuation, in any order. "Smith, John", "JOHN SMITH" and "Jöhn Smith" give
    ("john", "smith"); "O'Brien" and "OBrien" give "obrien"; "Janota-Bzowski" is two words.
    A tsh ":AA000000" suffix is dropped. Middle names and initials count: "John A. Smith" is
    not "John Smith"."""
    name = _SUFFIX_ID.sub("", name)
    plain = "".join(
        c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c)
    ).casefold()
    plain = re.sub(r"['’`.]", "", plain)
    words = re.sub(r"[^\w]+|_", " ", plain).split()
    return tuple(sorted(words))


@dataclass(frozen=True, slots=True)
class Match:
    player: Hashable
    name: str
    old: int
    outcome: str  # "update", "same", "unmatched", "ambiguous"
    entries: tuple[Entry, ...] = ()

    @property
    def new(self) -> int | None:
        return self.entries[0].rating if self.outcome in ("update", "same") else None


def match(
    players: Sequence[tuple[Hashable, str, int, str]], rating_list: RatingList
) -> list[Match]:
    """Each player `(id, name, rating, member id)` matched by `name_key` to the list's entries:
    one entry (or several that agree on the rating) is a match, "update" or "same"; none is
    "unmatched"; entries with different ratings are "ambiguous", unless exactly one of them
    carries the player's member ID. Nothing is changed for the last two."""
    by_key: dict[tuple[str, ...], list[Entry]] = {}
    for entry in rating_list.entries:
        by_key.setdefault(name_key(entry.name), []).append(entry)
    out: list[Match] = []
    for pid, name, old, member_id in players:
        found = by_key.get(name_key(name), [])
        if len({e.rating for e in found}) > 1 and member_id:
            same_id = [e for e in found if e.member_id and e.member_id == member_id.upper()]
            if len(same_id) == 1:
                found = same_id
        if not found:
            out.append(Match(pid, name, old, "unmatched"))
        elif len({e.rating for e in found}) > 1:
            out.append(Match(pid, name, old, "ambiguous", tuple(found)))
        else:
            outcome = "same" if found[0].rating == old else "update"
            out.append(Match(pid, name, old, outcome, (found[0],)))
    return out
