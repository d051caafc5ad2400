"""The engine's sentences in the reader's language: the standard library's gettext with the
engine's own catalog (domain ``spread-engine``, in ``scoring/locale/<lang>/LC_MESSAGES/``).

The English sentences are the message ids, so English needs no catalog and is what any language
without one, or any sentence a catalog lacks, falls back to. Every entry has a context saying what
it is: ``finding:<key>`` a finding's template (``scoring.messages``), ``pairing:<code>`` a pairing
reason, note or warning (``tournament.engine.pairing.messages``), ``counted`` a counted noun (with
its plural forms: the catalog's ``Plural-Forms`` header says how many a language has), ``word`` a
word or phrase the format specs write, ``list separator``, ``ordinal``, ``cli`` the command
line's own lines.

The catalog is written from the tables by ``python -m tournament.engine.catalog`` and compiled with
msgfmt (``make engine-messages``); the compiled ``.mo`` files are committed with their ``.po``.
"""

from __future__ import annotations

import gettext
from collections.abc import Iterable
from functools import cache
from pathlib import Path

__all__ = [
    "DOMAIN",
    "LANGUAGES",
    "LOCALE_DIR",
    "Translator",
    "counted",
    "language",
    "ordinal",
    "translator",
]

DOMAIN = "spread-engine"
LOCALE_DIR = Path(__file__).with_name("locale")
# English first: the language of the message ids.
LANGUAGES = ("en", "id", "ko", "fi", "fa")


def language(code: str | None) -> str:
    """One of LANGUAGES for a language code as Django or a browser gives it ("fi", "fi-FI",
    "fa_IR"); English for anything else."""
    base = (code or "").replace("_", "-").split("-")[0].strip().lower()
    return base if base in LANGUAGES else "en"


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th … 11th, 12th, 13th … 21st."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _counted_id(noun: str) -> str:
    return f"{{n}} {noun}(s)"


def counted(n: int, noun: str) -> str:
    """`n` and a noun whose plural is `noun` + "s", written "3 time(s)" in English as the desk's
    pairing reasons, warnings and findings have always been (a sentence made once reads for any
    n); in another language, the noun's form for `n` from the catalog (`Translator.counted`)."""
    return _counted_id(noun).format(n=n)


class Translator:
    """The engine's catalog for one language."""

    def __init__(self, lang: str, catalog: gettext.NullTranslations) -> None:
        self.lang = lang
        self._catalog = catalog

    def template(self, context: str, english: str) -> str:
        """A message table's template in this language (the English one if it has none)."""
        return self._catalog.pgettext(context, english)

    def word(self, english: str) -> str:
        return self._catalog.pgettext("word", english)

    def separator(self, english: str) -> str:
        return self._catalog.pgettext("list separator", english)

    def join(self, items: Iterable[object]) -> str:
        """Items joined as a list is written: "a, b, c"."""
        return self.separator(", ").join(str(i) for i in items)

    def counted(self, n: int, noun: str) -> str:
        if self.lang == "en":
            return counted(n, noun)
        english = _counted_id(noun)
        return self._catalog.npgettext("counted", english, english, n).format(n=n)

    def ordinal(self, n: int) -> str:
        if self.lang == "en":
            return ordinal(n)
        return self._catalog.pgettext("ordinal", "{n}th").format(n=n)

    def cli(self, english: str) -> str:
        return self._catalog.pgettext("cli", english)

    @property
    def rtl(self) -> bool:
        """The language is written right to left."""
        return self.lang == "fa"


@cache
def _translator(lang: str) -> Translator:
    catalog = gettext.translation(DOMAIN, LOCALE_DIR, [lang], fallback=True)
    return Translator(lang, catalog)


def translator(lang: str | None = "en") -> Translator:
    """The translator for a language code (see `language`); English when there is no catalog."""
    return _translator(language(lang))
