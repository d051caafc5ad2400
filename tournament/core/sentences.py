"""The engines' messages in the reader's language: the one place the app turns a finding or a
pairing reason, note or warning into a sentence.

The database keeps codes and parameters (`sheet_report`, `Round.notes`, `Round.warnings`); a page,
report, download or JSON answer makes the sentence here, in the active Django language
(`get_language()`, set by the request or by `translation.override` around a report), through the
engines' own catalog (`scoring.i18n`). The desk's own findings about checking a sheet
(`DESK_MESSAGES`) are the app's words, so their templates come from Django's catalog.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import get_language, gettext, gettext_noop

from scoring import messages as findings
from scoring.i18n import language as engine_language
from tournament.engine.pairing import messages as pairing

# The desk's own findings about checking a scoresheet (translated in Django's catalog).
DESK_MESSAGES: Mapping[str, str] = {
    "desk_settings.ruleset": gettext_noop(
        "the division's ruleset {ruleset!r} is unknown: checked under auto"
    ),
    "desk_settings.tiles": gettext_noop(
        "the division's tile set {tiles!r} is unknown: guessed from the record"
    ),
    "desk_settings.lexicon": gettext_noop("{error}: its words are not checked"),
    "engine_failure": gettext_noop("not checked: {error}"),
}
# The engine's findings and the desk's, as a stored sheet report's findings are written.
SHEET_MESSAGES: Mapping[str, str] = {**findings.MESSAGES, **DESK_MESSAGES}


# First strong isolate … pop directional isolate: a name or any user text inside a plain-text
# sentence (a JSON message, a PDF line, a `.t` comment) keeps its own direction and leaves the
# sentence's order alone. In HTML the same job is `{{ value|bdi }}` (templatetags/spread_i18n).
# Left-to-right and right-to-left isolates, and the set of all four marks: the one definition
# every page, report and file writer reads.
LRI, RLI, FSI, PDI = "\u2066", "\u2067", "\u2068", "\u2069"
MARKS = LRI + RLI + FSI + PDI


def isolate(text: object) -> str:
    """`text` (a player's name, a club, a reason typed by a director) isolated for plain text;
    None and "" stay empty, and text already isolated is not wrapped twice."""
    if text is None or text == "":
        return ""
    text = str(text)
    if text.startswith(FSI) and text.endswith(PDI):
        return text
    return f"{FSI}{text}{PDI}"


def move_nick(line: str) -> tuple[str, str] | None:
    """A GCG move's line (`>nick: 8D DJINN +30 30`) as its nickname and the rest after the
    colon (`: 8D DJINN +30 30`); None for another line. What `language.gcg_text` and
    `html.gcg_line_html` isolate."""
    head, colon, rest = line.partition(":")
    if line.startswith(">") and colon:
        return head[1:], colon + rest
    return None


_NO_MARKS = str.maketrans("", "", MARKS)


def penalty_note(points: int) -> str:
    """A time penalty as it follows a score on a page: `(−20 time)`; nothing for none."""
    if not points:
        return ""
    return gettext("(−%(points)s time)") % {"points": points}


def unmarked(text: str) -> str:
    """`text` without isolation marks: for what a program reads (a spreadsheet's cell, a file),
    where they would be stray characters in a name."""
    return text.translate(_NO_MARKS)


def language() -> str:
    """The engines' language for the active Django language (English when it has no catalog)."""
    return engine_language(get_language())


def finding(code: str, params: Mapping[str, Any]) -> str:
    """A finding (the engine's or the desk's) in the active language; never raises."""
    key = findings.template_key(code, params)
    desk = DESK_MESSAGES.get(key)
    template = gettext(desk) if desk is not None else None
    return findings.render(code, params, SHEET_MESSAGES, language(), template)


def _ltr(text: str) -> str:
    return f"{LRI}{text}{PDI}"


# Each name in a pairing sentence isolated in its own direction, a place and record after a
# name ("(3rd, 5-2 +310)") left to right.
_NAMES = (isolate, _ltr)


def message(stored: Mapping[str, Any]) -> str:
    """A pairing reason, note or warning (`Message.as_dict()`) in the active language, each
    name in it isolated (a command's output drops the marks: `management.base.plain`)."""
    return pairing.render_all([stored], language(), names=_NAMES)[0]


def messages(stored: Iterable[Mapping[str, Any]]) -> list[str]:
    """Stored pairing messages in the active language, names isolated; never raises."""
    return pairing.render_all(stored, language(), names=_NAMES)


@dataclass(frozen=True)
class Said:
    """A message's code (for a page's script and tests) and its sentence in the active language."""

    code: str
    message: str

    def __str__(self) -> str:
        return self.message


def warnings(found: Iterable[Any]) -> list[Said]:
    """The pairing engine's warnings (`PairingWarning`: code and params) as sentences."""
    return [Said(w.code, message(w.message.as_dict())) for w in found]


def stored_warnings(stored: Iterable[Mapping[str, Any]]) -> list[Said]:
    """A round's warnings as they were stored when it was paired or last changed
    (`Round.warnings`: code, params, players) as sentences."""
    return [Said(w["code"], message(w)) for w in stored]
