"""Numbers as English words: ordinals, counts of wins, counted nouns. Pure Python, shared by the
engines and the app, so that every page and report writes them the same way."""

from __future__ import annotations

# One ordinal and one counted noun for the engines and the app: the rules engine's, which writes
# them in any language of its catalog as well (`scoring.i18n.Translator`).
from scoring.i18n import counted, ordinal

__all__ = ["count_text", "counted", "ordinal", "plural"]


def count_text(x: float) -> str:
    """Wins or losses as written: 7, or 7.5 with a tie."""
    return str(int(x)) if x == int(x) else f"{x:g}"


def plural(n: int, noun: str) -> str:
    """`n` and the noun, with an "s" unless n is 1: "1 warning", "2 warnings"."""
    return f"{n} {noun}{'' if n == 1 else 's'}"
