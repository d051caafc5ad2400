"""Which language a page speaks.

The precedence, highest first (docs/DESIGN.md, "Languages"):

1. the visitor's explicit choice: the language cookie set by the header's switcher
   (Django's `set_language` view);
2. the tournament's default language (`Tournament.language`), on that tournament's public pages,
   its players' phone pages, its hall display and its public reports;
3. the browser's Accept-Language;
4. English.

Django's LocaleMiddleware does 1, 3 and 4 for every request; `apply_tournament_language` steps in
for 2 once a public view knows its tournament.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest
from django.utils import translation

from tournament.core.sentences import FSI, LRI, PDI, move_nick

CODES = frozenset(code for code, _name in settings.LANGUAGES)


def explicit_choice(request: HttpRequest) -> str | None:
    """The language the visitor chose with the switcher, if any (and if it is one of ours)."""
    code = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME, "")
    return code if code in CODES else None


def page_language(request: HttpRequest, tournament_language: str) -> str:
    """The language of a tournament's public page for this request (the precedence above)."""
    chosen = explicit_choice(request)
    if chosen:
        return chosen
    if tournament_language in CODES:
        return tournament_language
    return translation.get_language_from_request(request)


def apply_tournament_language(request: HttpRequest, tournament_language: str) -> str:
    """Activate the page's language for the rest of the request, and return it."""
    code = page_language(request, tournament_language)
    if code != translation.get_language():
        translation.activate(code)
        request.LANGUAGE_CODE = code  # type: ignore[attr-defined]
    return code


def gcg_text(text: str) -> str:
    """A line of a GCG record as plain text (a caption a script writes with textContent): left
    to right in every language, a move's nickname (`>nick:`) isolated in its own direction, so
    that `>سارا: 8D DJINN +30 30` keeps its order. Pages use the `gcg` filter instead."""
    move = move_nick(text)
    if move is not None:
        text = f">{FSI}{move[0]}{PDI}{move[1]}"
    return f"{LRI}{text}{PDI}"


def ltr_text(text: str) -> str:
    """`text` (a GCG move, a record) kept left to right inside a right-to-left sentence made as
    plain text (a caption a script writes with textContent): Unicode's left-to-right isolate
    around it on a right-to-left page, nothing otherwise. Pages use the `ltr` filter instead."""
    return f"{LRI}{text}{PDI}" if translation.get_language_bidi() else text
