"""Numbers as English words: ordinals, counts of wins, counted nouns. Pure Python, shared by the
engines and the app, so that every page and report writes them the same way."""

from __future__ import annotations


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th … 11th, 12th, 13th … 21st."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def count_text(x: float) -> str:
    """Wins or losses as written: 7, or 7.5 with a tie."""
    return str(int(x)) if x == int(x) else f"{x:g}"


def counted(n: int, noun: str) -> str:
    """`n` and a noun whose plural is `noun` + "s", written "3 time(s)" as the desk's pairing
    reasons, warnings and messages have always been (a sentence made once reads for any n)."""
    return f"{n} {noun}(s)"


def plural(n: int, noun: str) -> str:
    """`n` and the noun, with an "s" unless n is 1: "1 warning", "2 warnings"."""
    return f"{n} {noun}{'' if n == 1 else 's'}"
