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
(scrabbleplayers.org/ratings/data/full/current.txt). Its layout is read as tsh reads it: tsh's
UPDATERATINGS mirrors that folder into tsh's lib/ratings/nsa/ (and .../data/csw/full into
naspa-csw), and tsh's `Ratings::LoadFileToHash` (Ratings.pm, 2008-2012) reads
`ratings/<rating_list>/current.txt` so: fields separated by tabs, in the order `name`,
`rating`, `rank`, `expiry`, `games`, unless the first line has no digit, when it is a header
naming the columns (tab separated) and its names are used. tsh keys a player by the name in
capitals with its comma taken out and "(EXP)" / "(GM)" removed. Spread reads the same: the
`name` column (those marks removed), the `rating` (a whole number), the `games` if given, and a
member ID only if a header names an `id` column (tsh reads none). A line without a tab has no
rating (tsh would read the whole line as the name). The 2011 post that ranks the file's first
fields agrees: the line starts with the last name in capitals.

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
    "no-tab": "no tab on this line: NASPA's list has its columns separated by tabs",
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
    columns: tuple[str, ...] = NASPA_COLUMNS
    entries: list[Entry] = []
    more = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        if number > MAX_LINES:
            problems.append(Problem(0, "too-long", {"most": MAX_LINES}))
            break
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if fmt == "wespa":
            found = _wespa_line(number, line)
        elif number == 1 and not any(c.isdigit() for c in line):
            # tsh: a first line without a digit names the columns.
            columns = tuple(f.strip().lower() for f in raw.split("\t"))
            continue
        else:
            found = _naspa_line(number, raw.strip("\r\n "), columns)
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


# tsh's Ratings::LoadFileToHash: a NASPA list's columns, unless a header line names them.
NASPA_COLUMNS = ("name", "rating", "rank", "expiry", "games")
_MARKS = re.compile(r"\((?:EXP|GM)\)", re.IGNORECASE)  # tsh removes these from the name


def _naspa_line(number: int, line: str, columns: Sequence[str]) -> Entry | Problem | None:
    if "\t" not in line:
        return Problem(number, "no-tab")
    data = dict(zip(columns, (f.strip() for f in line.split("\t")), strict=False))
    name = " ".join(_MARKS.sub(" ", data.get("name", "")).split())
    if not name:
        return Problem(number, "no-name")
    rating_text = data.get("rating", "")
    if not rating_text:
        return Problem(number, "no-rating")
    rating = _number(rating_text, MAX_RATING)
    if rating is None:
        return Problem(number, "bad-rating", {"text": rating_text, "most": MAX_RATING})
    games_text = data.get("games", "")
    games = None
    if games_text:
        games = _number(games_text, 10**6)
        if games is None:
            return Problem(number, "bad-games", {"text": games_text})
    if len(name) > MAX_NAME:
        return Problem(number, "long-name", {"most": MAX_NAME})
    member_id = data.get("id", "")
    return Entry(number, name, rating, games, member_id if _NASPA_ID.fullmatch(member_id) else "")


def member_suffix(name: str) -> tuple[str, str]:
    """A tsh name's ":AA000000" membership suffix taken off: ("Smith, John", "AA000000");
    ("Smith, John", "") for a name without one."""
    found = _SUFFIX_ID.search(name)
    if found is None:
        return name, ""
    return name[: found.start()].rstrip(), found.group().strip()[1:].upper()


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


# -- writing ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Listed:
    """A player as a rating list writes them."""

    name: str
    rating: int
    games: int
    rank: int
    latin: str = ""  # the name in Latin letters, for WESPA's nickname
    member_id: str = ""
    last_played: str = ""  # YYYYMMDD


def _one_line(name: str) -> str:
    return " ".join(name.split())


def write_naspa(rows: Sequence[Listed]) -> str:
    """A NASPA-style list, tab separated under a header naming its columns (tsh reads a first
    line without a digit as the columns' names; `read` does the same): name, rating, rank,
    games, and the member ID where it is NASPA's (two letters, six digits)."""
    lines = ["name\trating\trank\tgames\tid"]
    for row in rows:
        member = row.member_id.upper() if _NASPA_ID.fullmatch(row.member_id.upper()) else ""
        lines.append(f"{_one_line(row.name)}\t{row.rating}\t{row.rank}\t{row.games}\t{member}")
    return "\n".join(lines) + "\n"


def write_wespa(rows: Sequence[Listed], last_event: str, last_date: str) -> str:
    """A WESPA-style list (linrat's `rating.dat`): the header naming the last event and its
    date, then NICK STATE NAME GAMES RATING DATE a line. The state is always written, as
    "XX" (the list knows no country), so that a name's first word in capitals ("KIM Minjun")
    is never read as one; the nickname is the first four Latin letters of the name."""
    lines = [f"NICKstateNAME {_one_line(last_event) or 'list'}.tou {last_date}".rstrip()]
    for row in rows:
        letters = [c for c in (row.latin or row.name).upper() if "A" <= c <= "Z"]
        nick = "".join(letters[:4]) or "X"
        fields = [nick, "XX", _one_line(row.name), str(row.games), str(row.rating)]
        if row.last_played:
            fields.append(row.last_played)
        lines.append(" ".join(fields))
    return "\n".join(lines) + "\n"
