"""Word lists and the validity marks they give a word.

``*`` not in any list (a phony), ``#`` only in the Collins list, ``$`` only in the North American
list, ``!`` on an offensive-words list. Real lists are the director's own; one word a line.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

COLLINS = "collins"
NORTH_AMERICAN = "na"
OFFENSIVE = "offensive"
OTHER = "other"
KINDS = (COLLINS, NORTH_AMERICAN, OFFENSIVE, OTHER)

_GUESSES = (
    (OFFENSIVE, re.compile(r"offens|expurg|slur", re.I)),
    (COLLINS, re.compile(r"csw|collins|sowpods", re.I)),
    (NORTH_AMERICAN, re.compile(r"nwl|twl|owl|otcwl|naspa", re.I)),
)


class LexiconError(ValueError):
    """A word list that cannot be read."""


@dataclass(frozen=True)
class Lexicon:
    name: str
    kind: str
    words: frozenset[str]

    def __contains__(self, word: str) -> bool:
        return word.upper() in self.words


def guess_kind(name: str) -> str:
    for kind, pattern in _GUESSES:
        if pattern.search(name):
            return kind
    return OTHER


def parse_lexicon(text: str, name: str, kind: str | None = None) -> Lexicon:
    kind = kind or guess_kind(name)
    if kind not in KINDS:
        raise LexiconError(f"word list {name}: unknown kind {kind!r} ({', '.join(KINDS)})")
    words = set()
    for line in text.splitlines():
        fields = line.split("#", 1)[0].split()
        if fields:
            words.add(fields[0].upper())
    return Lexicon(name, kind, frozenset(words))


def load_lexicon(spec: str) -> Lexicon:
    """``PATH`` (its kind guessed from the name: CSW, NWL, offensive…) or ``KIND:PATH``."""
    kind = None
    path_text = spec
    head, sep, rest = spec.partition(":")
    if sep and head.lower() in KINDS:
        kind, path_text = head.lower(), rest
    path = Path(path_text)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise LexiconError(f"cannot read the word list {path_text}: {exc}") from exc
    return parse_lexicon(text, path.stem, kind)


class Lexicons:
    """Several lists consulted together."""

    def __init__(self, lexicons: Iterable[Lexicon] = ()) -> None:
        self.lists = list(lexicons)

    def __len__(self) -> int:
        return len(self.lists)

    def mark(self, word: str) -> str:
        word = word.upper()
        if any(word in lx.words for lx in self.lists if lx.kind == OFFENSIVE):
            return "!"
        valid = [lx for lx in self.lists if lx.kind != OFFENSIVE]
        if not valid:
            return ""
        found = {lx.kind for lx in valid if word in lx.words}
        if not found:
            return "*"
        kinds = {lx.kind for lx in valid}
        if found == {COLLINS} and NORTH_AMERICAN in kinds:
            return "#"
        if found == {NORTH_AMERICAN} and COLLINS in kinds:
            return "$"
        return ""

    def marks(self, words: Iterable[str]) -> list[str]:
        return [self.mark(w) for w in words]
