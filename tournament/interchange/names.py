"""How a player's name is written: in Latin letters for the rating bodies' files, and in the
division's one style, "Last, First" or "First Last".

Latin letters. A `.tou` file holds ASCII only, and a rating body's list is kept in Latin
letters, so every player has a name in Latin letters beside their own (`Player.latin_name`).
`automatic` writes it: Latin letters (with their accents) and punctuation are kept, and a letter
of any other script is spelled out by anyascii (a transliteration table per character, kept
up to date with Unicode), e.g. 김민수 → "GimMinSu", محمد حسینی → "Mhmd Hsyny". Such a spelling
is a guess a director checks (`needs_check`): Korean is spelled by syllable, Persian without
its vowels.

Name styles. tsh writes names "Last, First"; many events write "First Last". A division keeps
one style: `style_of` tells it from names already there (most of them with a comma: "Last,
First"), and `in_style` writes a new name in it.

Pure: no Django here.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from anyascii import anyascii

# Scripts that write the family name first, with no comma ("김 민수" is 김's given name 민수):
# "Last, First" puts the comma after the first word, and "First Last" keeps the order.
_FAMILY_FIRST = ("HANGUL", "CJK", "HIRAGANA", "KATAKANA")

# Words that end a name after the family name ("King Jr."): they stay with the family name.
_SUFFIXES = {"jr", "jr.", "sr", "sr.", "ii", "iii", "iv"}


def _latin(ch: str) -> bool:
    """A character a name in Latin letters may hold as it is: ASCII, a Latin letter (with its
    accents), a combining accent, a space or a punctuation mark."""
    if ch.isascii():
        return ch.isprintable()
    category = unicodedata.category(ch)
    if category[0] in "MZP":
        return True
    return "LATIN" in unicodedata.name(ch, "")


def _foreign(ch: str) -> bool:
    """A letter of another script, or a symbol (an emoji): what a transliteration guesses at.
    Digits of any script and punctuation are spelled out without a doubt."""
    if ch.isascii():
        return False
    category = unicodedata.category(ch)
    return (category[0] == "L" and "LATIN" not in unicodedata.name(ch, "")) or category[0] == "S"


def needs_check(name: str) -> bool:
    """Whether the name's automatic Latin spelling is a transliteration a director should check:
    the name holds a letter of another script (or a symbol)."""
    return any(_foreign(ch) for ch in unicodedata.normalize("NFC", name))


def automatic(name: str) -> str:
    """The name in Latin letters: Latin letters and punctuation as they are, every other
    character spelled out by anyascii, each word of a script without capitals capitalized
    (without an apostrophe at its edges: علی is "Ly"), spaces made single."""
    words = []
    for word in unicodedata.normalize("NFC", name).split():
        out = []
        spelled = False
        for ch in word:
            if _latin(ch):
                out.append(ch)
            else:
                out.append(anyascii(ch))
                spelled = spelled or not ch.isupper() and not ch.islower() and ch.isalpha()
        text = "".join(out).replace("`", "'")
        if spelled:
            # An ayn or hamza spelled at a word's edge ("`ly" for علی) is left out: "Ly".
            text = _capitalized(text.strip("'") or text)
        if text.strip():
            words.append(" ".join(text.split()))
    return " ".join(words)


def _capitalized(text: str) -> str:
    for i, ch in enumerate(text):
        if ch.isalpha():
            return text[:i] + ch.upper() + text[i + 1 :]
    return text


def latin_problem(text: str) -> str | None:
    """Why `text` is not a name in Latin letters (the characters that are not), or None."""
    if not text.strip():
        return "empty"
    others = []
    for ch in unicodedata.normalize("NFC", text):
        if not _latin(ch) and ch not in others:
            others.append(ch)
    return "".join(others) or None


# --------------------------------------------------------------------------- name styles


def style_of(names: Iterable[str]) -> bool | None:
    """True when most of the names are written "Last, First" (with a comma), False when they
    are not, None when there are none; a name of one word ("Cher") is written alike in both."""
    either = [n for n in names if "," in n or len(n.split()) > 1]
    if not either:
        return None
    return sum("," in n for n in either) * 2 > len(either)


def _family_first(word: str) -> bool:
    return any(unicodedata.name(ch, "").startswith(_FAMILY_FIRST) for ch in word[:1])


def in_style(name: str, last_first: bool | None) -> str:
    """`name` written "Last, First" (`last_first` True) or "First Last" (False); None, or a
    name of one word, leaves it as it is.

    "Ada Quill" ↔ "Quill, Ada"; the family name keeps the lower-case words before it ("Jan van
    der Berg" ↔ "van der Berg, Jan") and a suffix after it ("King Jr., Martin"); a name in a
    script that writes the family name first keeps its order ("김 민수" ↔ "김, 민수")."""
    name = " ".join(name.split())
    if last_first is None:
        return name
    if "," in name:
        parts = [" ".join(p.split()) for p in name.split(",")]
        parts = [p for p in parts if p]
        if len(parts) != 2:
            return ", ".join(parts) if last_first else name
        last, first = parts
        if last_first:
            return f"{last}, {first}"
        return f"{last} {first}" if _family_first(last) else f"{first} {last}"
    words = name.split()
    if not last_first or len(words) < 2:
        return name
    if _family_first(words[0]):
        return f"{words[0]}, {' '.join(words[1:])}"
    end = len(words)
    if words[-1].casefold() in _SUFFIXES and len(words) > 2:
        end -= 1
    start = end - 1
    # Lower-case words before a capitalized family name are part of it ("de", "van der").
    if words[start][:1].isupper():
        while start > 1 and words[start - 1].islower():
            start -= 1
    last = " ".join(words[start:])
    return f"{last}, {' '.join(words[:start])}"
