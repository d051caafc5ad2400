"""The bounds of what one game record may make the server do: the one place they are kept.

Every path that reads a scoresheet goes through `record_text` before the rules engine sees it:
the live check as a record is typed (the desk's and a player's from their link), a sheet typed
or uploaded at the desk (one file or many), and a sheet sent from a phone. A record over a bound
is refused whole, with one sentence that says which bound and by how much; nothing of it is
checked or saved. Under the bounds the engine's work is small (a real game is 20 to 250 lines
and under 8 KB: `../shared/corpus/gcg`), and so is what a check answers (`FINDINGS_SHOWN`,
`QUOTED`). A link's live checks are charged by their cost (`check_cost`) against
`CHECK_BUDGET` (`phone.services.spend`), not counted.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext

from scoring import gcg
from tournament.core.errors import EntryError

MAX_SCORESHEET_BYTES = 256 * 1024  # a record's bytes (UTF-8)
MAX_RECORD_LINES = 1000  # a record's lines: the corpus's longest game is 245
MAX_RECORD_NOTES = 300  # its #note lines (and their `#-` form): the corpus's most is 20

# What a live check answers: at most this many findings, each quoting at most QUOTED characters
# of what the record wrote (a token, a name); the others are counted, not listed.
FINDINGS_SHOWN = 60
QUOTED = 40

# A link's live checks, charged one unit a line and one a KiB (`check_cost`), within a minute:
# a player typing a 40-line game checks it a few hundred times a minute and never meets it; a
# record at every bound (1,256 units) can be checked 9 times a minute.
CHECK_BUDGET = 12_000
CHECK_WINDOW = 60  # seconds


# What a personal link's pages post as a urlencoded form: a report, a check-in (a few fields).
# Their scoresheet goes as multipart (the form and the live check alike), which Django reads in
# a millisecond; a urlencoded body of 240 KB takes it 55 ms to parse, before any view runs.
PHONE_FORM_BYTES = 16 * 1024


class RecordRefused(EntryError):
    """A record over a bound; the message says which, in one sentence."""


@dataclass(frozen=True)
class Measure:
    size: int  # bytes, UTF-8 (or as uploaded)
    lines: int
    notes: int | None  # None: not counted (the lines are over their bound already)


# A #note line (or its `#-` form) as `scoring.gcg` reads one: the keyword alone or before a space.
_NOTE = re.compile(r"^[ \t]*#(?:note|-)(?:[ \t]|$)", re.MULTILINE)


def measure(text: str, size: int | None = None, notes: bool = True) -> Measure:
    """A record's size in bytes (`size` if given: the bytes as uploaded), lines and #note lines
    (with `notes`, and only when the lines are within their bound), as `scoring.gcg` splits
    them; in C loops only, no line parsed (a 240 KB record takes about a millisecond)."""
    if size is None:
        size = len(text.encode("utf-8", "surrogatepass"))
    plain = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = plain.count("\n") + (1 if plain and not plain.endswith("\n") else 0)
    counted = None
    if notes and lines <= MAX_RECORD_LINES:
        counted = sum(1 for _ in _NOTE.finditer(plain)) if "#" in plain else 0
    return Measure(size, lines, counted)


def check_cost(text: str) -> int:
    """What a live check of `text` is charged: a unit a line and a unit a KiB, each no more than
    the bound (a record refused for its size costs what the largest record allowed costs)."""
    found = measure(text, notes=False)
    lines = min(found.lines, MAX_RECORD_LINES)
    return max(1, lines + min(found.size, MAX_SCORESHEET_BYTES) // 1024)


def refusal(text: str, *, saving: bool, size: int | None = None) -> str | None:
    """Why `text` is over a bound, in one sentence ending in what is not done (saving it, or
    checking it); None when it is within every bound. `size`: the bytes as uploaded."""
    found = measure(text, size)
    if found.size > MAX_SCORESHEET_BYTES:
        values = {"size": format(found.size, ","), "value": MAX_SCORESHEET_BYTES // 1024}
        said = (
            gettext(
                "The scoresheet is %(size)s bytes, over the %(value)s KiB a game record "
                "can take: not saved."
            )
            if saving
            else gettext(
                "The record is %(size)s bytes, over the %(value)s KiB a game record can take: "
                "not checked."
            )
        )
        return said % values
    if found.lines > MAX_RECORD_LINES:
        values = {"count": format(found.lines, ","), "value": format(MAX_RECORD_LINES, ",")}
        said = (
            gettext(
                "The scoresheet has %(count)s lines, over the %(value)s a game record can "
                "take: not saved."
            )
            if saving
            else gettext(
                "The record has %(count)s lines, over the %(value)s a game record can take: "
                "not checked."
            )
        )
        return said % values
    if found.notes is not None and found.notes > MAX_RECORD_NOTES:
        values = {"count": format(found.notes, ","), "value": format(MAX_RECORD_NOTES, ",")}
        said = (
            gettext(
                "The scoresheet has %(count)s #note lines, over the %(value)s a game record "
                "can take: not saved."
            )
            if saving
            else gettext(
                "The record has %(count)s #note lines, over the %(value)s a game record can "
                "take: not checked."
            )
        )
        return said % values
    return None


def record_text(data: str | bytes, *, saving: bool = True) -> str:
    """The record's text (bytes decoded as `scoring.gcg` reads them, NUL dropped: PostgreSQL
    cannot store it), refused (`RecordRefused`) over any bound; bytes are measured as uploaded,
    and bytes over the size bound are not decoded at all."""
    size = None
    if isinstance(data, bytes):
        size = len(data)
        text = "" if size > MAX_SCORESHEET_BYTES else gcg.decode(data)[0]
    else:
        text = data
    problem = refusal(text, saving=saving, size=size)
    if problem:
        raise RecordRefused(problem)
    return text.replace("\x00", "")


def quoted(value: Any) -> Any:
    """A value a finding quotes from the record, cut to QUOTED characters for a live check's
    answer (a 200 KB token is not sent back twice)."""
    if isinstance(value, str) and len(value) > QUOTED:
        return value[: QUOTED - 1] + "…"
    return value


class PhoneFormLimit:
    """Middleware, before the session and CSRF ones: a urlencoded POST of more than
    PHONE_FORM_BYTES to a personal link's address (`/p/…`) is answered 413 before its body is
    read. No page of the link sends one; a flood of them would cost a worker 55 ms each."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if (
            request.method == "POST"
            and request.path_info.startswith("/p/")
            and request.content_type == "application/x-www-form-urlencoded"
        ):
            try:
                size = int(request.META.get("CONTENT_LENGTH") or 0)
            except ValueError:
                size = 0
            if size > PHONE_FORM_BYTES:
                return HttpResponse(
                    gettext("This form is too large to be sent from a personal link."),
                    status=413,
                    content_type="text/plain; charset=utf-8",
                )
        return self.get_response(request)


# -- numbers typed or read --------------------------------------------------------------------

_NUMBER = re.compile(r"[0-9]{1,9}")
_SIGNED_NUMBER = re.compile(r"[+-]?[0-9]{1,9}")


def plain_number(text: str, signed: bool = False) -> int | None:
    """The number `text` is if it is plain ASCII digits (a sign first if `signed`); else None.

    Every number typed at the desk or in a page's address goes through here. Not `isdigit()`,
    which is true of "²" and "①" (`int()` refuses them), nor `\\d`, which takes any script's
    digits; and at most nine digits: no player, score or round needs more, and `int()` refuses
    a number of thousands of digits.
    """
    return int(text) if (_SIGNED_NUMBER if signed else _NUMBER).fullmatch(text) else None
