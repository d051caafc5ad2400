"""Tile sets: which tiles a language's bag holds, how many of each and what they score.

A tile set is read from a small UTF-8 text file of our own (``scoring/data/tiles/NAME.tiles``
for the built-ins, or a tournament director's file)::

    # Spanish (FISE), 100 tiles, 192 face points.
    # Source: ...
    # letter count value
    ? 2 0
    A 12 1
    CH 1 5

``#`` starts a comment line (the first one is the set's description); fields are separated by
whitespace or commas; a letter may be several characters (``CH``, ``L·L``) and may be written in
brackets (``[CH]``); ``?`` is the blank and must be worth 0. A letter with count 0 is allowed: it
is a known letter of which the bag holds no tile (Norwegian Q, for instance).

Conventions used by the whole rules engine:

* a real tile is written in upper case (``"A"``, ``"CH"``);
* a blank is ``"?"`` on a rack, and the lower-case letter once it is played as that letter
  (``"a"``, ``"ch"``); a blank is worth 0;
* ``"."`` in a word stands for a tile already on the board (play-through).

This module uses only the standard library and never imports Django.
"""

from __future__ import annotations

import functools
import os
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import NamedTuple

__all__ = [
    "BLANK",
    "DETECT_ORDER",
    "TileSet",
    "TileSetError",
    "builtin_tileset",
    "builtin_tilesets",
    "detect_tileset",
    "load_tileset",
    "parse_tileset",
]

BLANK = "?"
PLAY_THROUGH = "."

DATA_DIR = Path(__file__).resolve().with_name("data") / "tiles"
SUFFIX = ".tiles"

#: Preference order of :func:`detect_tileset`. English first; then the sets whose letters
#: English lacks. French, Dutch, Finnish, Indonesian and English Super use no letter that an
#: earlier set lacks, so they are only ever used when a record declares them.
DETECT_ORDER: tuple[str, ...] = (
    "english",
    "polish",
    "german",
    "spanish",
    "french",
    "catalan",
    "norwegian",
    "swedish",
    "slovene",
    "dutch",
    "finnish",
    "indonesian",
    "english_super",
)

_ALIASES: dict[str, str] = {
    "en": "english",
    "eng": "english",
    "en_super": "english_super",
    "super": "english_super",
    "superscrabble": "english_super",
    "super_scrabble": "english_super",
    "fr": "french",
    "fra": "french",
    "fre": "french",
    "francais": "french",
    "français": "french",
    "de": "german",
    "deu": "german",
    "ger": "german",
    "deutsch": "german",
    "es": "spanish",
    "spa": "spanish",
    "espanol": "spanish",
    "español": "spanish",
    "ca": "catalan",
    "cat": "catalan",
    "catala": "catalan",
    "català": "catalan",
    "pl": "polish",
    "pol": "polish",
    "polski": "polish",
    "no": "norwegian",
    "nb": "norwegian",
    "nn": "norwegian",
    "nor": "norwegian",
    "norsk": "norwegian",
    "nl": "dutch",
    "nld": "dutch",
    "dut": "dutch",
    "nederlands": "dutch",
    "sl": "slovene",
    "slv": "slovene",
    "slovenian": "slovene",
    "slovenscina": "slovene",
    "slovenščina": "slovene",
    "sv": "swedish",
    "swe": "swedish",
    "svenska": "swedish",
    "fi": "finnish",
    "fin": "finnish",
    "suomi": "finnish",
    "id": "indonesian",
    "ind": "indonesian",
    "bahasa_indonesia": "indonesian",
}


class TileSetError(ValueError):
    """A tile-set file that cannot be read; message names the line number."""

    def __init__(self, message: str, line: int | None = None, source: str | None = None):
        self.line = line
        self.source = source
        where = ", ".join(
            part for part in ((source or ""), (f"line {line}" if line is not None else "")) if part
        )
        super().__init__(f"{where}: {message}" if where else message)


def _nfc(text: str) -> str:
    return text if text.isascii() else unicodedata.normalize("NFC", text)


def _normalise_letter(letter: str) -> str:
    """The upper-case form of a letter as written in a file or mapping; ValueError if unusable."""
    if not isinstance(letter, str):
        raise ValueError(f"letter must be a string, not {type(letter).__name__}")
    letter = _nfc(letter.strip())
    if len(letter) > 2 and letter[0] == "[" and letter[-1] == "]":
        letter = letter[1:-1]
    if letter == BLANK:
        return BLANK
    if not letter:
        raise ValueError("empty letter")
    if any(ch.isspace() or ch in "[],#?." for ch in letter):
        raise ValueError(f"letter {letter!r} contains a reserved character")
    upper = letter.upper()
    lower = upper.lower()
    if upper == lower:
        raise ValueError(f"letter {letter!r} has no upper/lower case (needed to mark blanks)")
    if lower.upper() != upper or letter.lower() != lower:
        raise ValueError(f"letter {letter!r} does not keep its form when its case is changed")
    return upper


@dataclass(frozen=True)
class TileSet:
    """A bag of tiles: how many there are of each letter and what each scores.

    ``counts`` and ``values`` are keyed by upper-case letters (possibly several characters) and
    always contain the blank ``"?"`` (count possibly 0, value 0). Both are read-only mappings in
    the order of the file.
    """

    name: str
    counts: Mapping[str, int] = field(repr=False)
    values: Mapping[str, int] = field(repr=False)
    description: str = ""

    # Precomputed look-ups for the hot paths (value, count, split, knows).
    _value_of: dict[str, int] = field(init=False, repr=False, compare=False)
    _count_of: dict[str, int] = field(init=False, repr=False, compare=False)
    _known: frozenset[str] = field(init=False, repr=False, compare=False)
    _multi: dict[str, tuple[str, ...]] = field(init=False, repr=False, compare=False)
    _bracketed: dict[str, str] = field(init=False, repr=False, compare=False)
    _size: int = field(init=False, repr=False, compare=False)
    _face_points: int = field(init=False, repr=False, compare=False)
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        counts: dict[str, int] = {}
        values: dict[str, int] = {}
        for raw, number in self.counts.items():
            letter = _normalise_letter(raw)
            if letter in counts:
                raise ValueError(f"letter {letter!r} given twice in counts")
            if isinstance(number, bool) or not isinstance(number, int) or number < 0:
                raise ValueError(f"count of {letter!r} must be a whole number >= 0: {number!r}")
            counts[letter] = number
        for raw, number in self.values.items():
            letter = _normalise_letter(raw)
            if letter in values:
                raise ValueError(f"letter {letter!r} given twice in values")
            if isinstance(number, bool) or not isinstance(number, int) or number < 0:
                raise ValueError(f"value of {letter!r} must be a whole number >= 0: {number!r}")
            values[letter] = number
        if values.get(BLANK, 0) != 0:
            raise ValueError("the blank must be worth 0")
        if BLANK not in counts:
            counts = {BLANK: 0, **counts}
        values.setdefault(BLANK, 0)
        if counts.keys() != values.keys():
            missing = sorted(counts.keys() ^ values.keys())
            raise ValueError(f"letters need both a count and a value: {', '.join(missing)}")
        values = {letter: values[letter] for letter in counts}  # same order as counts

        blanks = counts[BLANK]
        value_of: dict[str, int] = {BLANK: 0}
        count_of: dict[str, int] = {BLANK: blanks}
        bracketed: dict[str, str] = {BLANK: BLANK}
        multi: dict[str, list[str]] = {}
        for letter, value in values.items():
            if letter == BLANK:
                continue
            lower = letter.lower()
            value_of[letter] = value
            value_of[lower] = 0
            count_of[letter] = counts[letter]
            count_of[lower] = blanks
            bracketed[letter] = letter
            bracketed[lower] = lower
            if len(letter) > 1:
                multi.setdefault(letter[0], []).append(letter)
                multi.setdefault(lower[0], []).append(lower)
        set_ = object.__setattr__
        set_(self, "counts", MappingProxyType(counts))
        set_(self, "values", MappingProxyType(values))
        set_(self, "_value_of", value_of)
        set_(self, "_count_of", count_of)
        set_(self, "_known", frozenset(value_of))
        set_(self, "_bracketed", bracketed)
        set_(
            self,
            "_multi",
            {first: tuple(sorted(forms, key=len, reverse=True)) for first, forms in multi.items()},
        )
        set_(self, "_size", sum(counts.values()))
        set_(self, "_face_points", sum(counts[letter] * values[letter] for letter in counts))
        # Kept: the replay's per-set tables are cached under the set, looked up for every record.
        set_(self, "_hash", hash((self.name, tuple(counts.items()), tuple(values.items()))))

    def __hash__(self) -> int:
        return self._hash

    # -- look-ups -------------------------------------------------------------------------

    def value(self, tile: str) -> int:
        """Face value: ``"A"`` -> 1; a blank (``"?"`` or a lower-case letter) -> 0.

        An unknown tile raises KeyError.
        """
        return self._value_of[tile]

    def count(self, tile: str) -> int:
        """How many of this tile the bag holds; ``"?"`` or a lower-case letter -> the blanks.

        An unknown tile -> 0.
        """
        return self._count_of.get(tile, 0)

    def knows(self, tile: str) -> bool:
        """Whether this letter (any case; also ``"?"``) belongs to the set, even with count 0."""
        return tile in self._known or _nfc(tile).upper() in self._value_of

    @property
    def blanks(self) -> int:
        return self._count_of[BLANK]

    @property
    def size(self) -> int:
        """Total number of tiles, blanks included (English: 100)."""
        return self._size

    @property
    def face_points(self) -> int:
        """Sum of count x value over the bag (English: 187)."""
        return self._face_points

    @property
    def letters(self) -> tuple[str, ...]:
        """The letters (not the blank) in file order, those with count 0 included."""
        return tuple(letter for letter in self.counts if letter != BLANK)

    def rack_value(self, tiles: Iterable[str]) -> int:
        """Sum of the tiles' values (blanks 0). A string is split first. Unknown -> KeyError."""
        if isinstance(tiles, str):
            tiles = self.split(tiles)
        value_of = self._value_of
        return sum(value_of[tile] for tile in tiles)

    def split(self, text: str, *, bracketed_only: bool = False) -> list[str]:
        """Tokenise a word or rack string into tiles.

        Multi-character tiles are matched longest first, written all upper case (a real tile)
        or all lower case (a blank played as it), or in brackets: ``[CH]``, ``[ch]``; a mixed
        case ``Ch`` is not one tile. ``"?"`` (a blank on a rack) and ``"."`` (play-through) are
        returned as they are, and so is every other character (one at a time), so that the
        caller can report it. Spanish: ``"chuRRo"`` -> ``["ch", "u", "RR", "o"]``.

        ``bracketed_only``: a multi-character tile only in brackets, so that ``"LL"`` is two L's
        (records that declare their multi-character tiles with ``#tile`` write them so).
        """
        if not text.isascii():
            text = unicodedata.normalize("NFC", text)
        multi = {} if bracketed_only else self._multi
        if not multi and "[" not in text:
            return list(text)
        bracketed = self._bracketed
        out: list[str] = []
        append = out.append
        i = 0
        n = len(text)
        while i < n:
            ch = text[i]
            if ch == "[":
                end = text.find("]", i + 1)
                if end > i + 1:
                    tile = bracketed.get(text[i + 1 : end])
                    if tile is not None:
                        append(tile)
                        i = end + 1
                        continue
                append(ch)
                i += 1
                continue
            forms = multi.get(ch)
            if forms:
                for form in forms:
                    if text.startswith(form, i):
                        append(form)
                        i += len(form)
                        break
                else:
                    append(ch)
                    i += 1
                continue
            append(ch)
            i += 1
        return out


# -- reading files ----------------------------------------------------------------------------

_FIELD_SEP = re.compile(r"[\s,]+")


def _whole_number(text: str) -> int | None:
    text = text.strip()
    # At most 9 digits: int() refuses thousands of them, and no bag holds a billion tiles.
    if not text.isascii() or not text.isdigit() or len(text) > 9:
        return None
    return int(text)


def parse_tileset(text: str, name: str = "custom") -> TileSet:
    """Read a tile set in our file format (see the module docstring).

    Raises TileSetError naming the line for: a line without exactly letter, count and value; a
    count or value that is not a whole number >= 0; an unusable letter; a letter given twice; a
    blank not worth 0; a file without any letter.
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    counts: dict[str, int] = {}
    values: dict[str, int] = {}
    first_line: dict[str, int] = {}
    description = ""
    lines = text.splitlines()
    for number, raw in enumerate(lines, start=1):
        line = _nfc(raw).strip()
        if not line:
            continue
        if line.startswith("#"):
            if not description:
                description = line.lstrip("#").strip()
            continue
        fields = [f for f in _FIELD_SEP.split(line) if f]
        for index, item in enumerate(fields):
            if item.startswith("#"):  # trailing comment
                fields = fields[:index]
                break
        if len(fields) < 3:
            what = ["letter", "count", "value"][len(fields)]
            raise TileSetError(
                f"missing {what}: expected 'letter count value', got {raw.strip()!r}",
                number,
                name,
            )
        if len(fields) > 3:
            raise TileSetError(
                f"too many fields: expected 'letter count value', got {raw.strip()!r}",
                number,
                name,
            )
        try:
            letter = _normalise_letter(fields[0])
        except ValueError as exc:
            raise TileSetError(str(exc), number, name) from None
        count = _whole_number(fields[1])
        if count is None:
            raise TileSetError(
                f"bad count {fields[1]!r} for {letter!r}: expected a whole number >= 0",
                number,
                name,
            )
        value = _whole_number(fields[2])
        if value is None:
            raise TileSetError(
                f"bad value {fields[2]!r} for {letter!r}: expected a whole number >= 0",
                number,
                name,
            )
        if letter in counts:
            raise TileSetError(
                f"duplicate letter {letter!r} (first given on line {first_line[letter]})",
                number,
                name,
            )
        if letter == BLANK and value != 0:
            raise TileSetError(f"the blank must be worth 0, not {value}", number, name)
        counts[letter] = count
        values[letter] = value
        first_line[letter] = number
    if not any(letter != BLANK for letter in counts):
        raise TileSetError(
            "no letters: expected lines of 'letter count value'"
            + (" (the file is empty)" if not counts else ""),
            max(len(lines), 1),
            name,
        )
    if sum(counts.values()) == 0:
        raise TileSetError("the bag holds no tiles (every count is 0)", len(lines), name)
    try:
        return TileSet(name=name, counts=counts, values=values, description=description)
    except ValueError as exc:  # pragma: no cover - everything is checked above
        raise TileSetError(str(exc), None, name) from None


def _canonical(name: str) -> str | None:
    key = _nfc(name).strip().lower().replace("-", "_").replace(" ", "_")
    if key.endswith(SUFFIX):
        key = key[: -len(SUFFIX)]
    key = _ALIASES.get(key, key)
    return key if key in _builtin_names() else None


@functools.lru_cache(maxsize=1)
def _builtin_names() -> frozenset[str]:
    return frozenset(p.name[: -len(SUFFIX)] for p in DATA_DIR.glob("*" + SUFFIX))


@functools.cache  # an lru_cache without a size limit
def _load_builtin(name: str) -> TileSet:
    path = DATA_DIR / (name + SUFFIX)
    return parse_tileset(path.read_text(encoding="utf-8"), name=name)


def builtin_tilesets() -> list[str]:
    """The names of the built-in tile sets, sorted."""
    return sorted(_builtin_names())


def builtin_tileset(name: str) -> TileSet | None:
    """A built-in tile set by name or alias (case-insensitive), or None: never opens a path."""
    canonical = _canonical(name)
    return _load_builtin(canonical) if canonical is not None else None


def load_tileset(name_or_path: str | os.PathLike[str]) -> TileSet:
    """A built-in tile set by name or alias (case-insensitive: ``"english"``, ``"en"``, ``"es"``,
    ...), cached; or else a tile-set file by path (not cached; named after the file's stem).

    Raises TileSetError when it is neither.
    """
    if isinstance(name_or_path, str):
        canonical = _canonical(name_or_path)
        if canonical is not None:
            return _load_builtin(canonical)
    path = Path(name_or_path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise TileSetError(
            f"no built-in tile set and no file {str(name_or_path)!r} "
            f"(built-ins: {', '.join(builtin_tilesets())})"
        ) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise TileSetError(f"cannot read {str(path)!r}: {exc}") from None
    return parse_tileset(text, name=path.stem)


def detect_tileset(letters: Iterable[str]) -> TileSet:
    """The tile set of a record that does not declare one.

    ``letters`` are the tiles the record uses (upper case, or lower case for blanks; a
    multi-character tile as ``"CH"`` or ``"[CH]"``); ``"?"``, ``"."`` and anything without a
    letter in it are ignored. English unless the record uses a letter English lacks; then the
    first set in :data:`DETECT_ORDER` whose bag holds a tile of every letter; failing that, the
    first that knows them all (count 0 allowed); failing that, the one that knows most of them.
    """
    return _detect(frozenset(letters))


@functools.cache
def _detect(letters: frozenset[str]) -> TileSet:
    # Records use few distinct letter sets (most are plain A-Z), so the answer is cached.
    wanted: set[str] = set()
    for item in letters:
        item = _nfc(item.strip())
        if len(item) > 2 and item[0] == "[" and item[-1] == "]":
            item = item[1:-1]
        if not any(ch.isalpha() for ch in item):
            continue
        wanted.add(item.upper())
    order = [name for name in DETECT_ORDER if name in _builtin_names()]
    order += [name for name in builtin_tilesets() if name not in DETECT_ORDER]
    sets = [_load_builtin(name) for name in order]
    if not wanted:
        return sets[0]
    for tileset in sets:
        if all(tileset.counts.get(letter, 0) > 0 for letter in wanted):
            return tileset
    for tileset in sets:
        if all(letter in tileset.counts for letter in wanted):
            return tileset
    return max(sets, key=lambda ts: sum(letter in ts.counts for letter in wanted))


class TileTables(NamedTuple):
    """A tile set as the replay looks tiles up, made once per set (``tables``)."""

    full: dict[str, int]  # how many of each tile the set has
    values: dict[str, int]  # the value of each way to write a tile on the board (a blank: 0)
    rack_form: dict[str, str]  # the tile each way to write one takes from the rack
    known: frozenset[str]  # every tile a rack may hold
    multi: bool  # whether any tile is written with more than one letter
    none: frozenset[str]  # the tiles the set has none of


@functools.cache
def tables(tiles: TileSet) -> TileTables:
    """The replay's tables of a tile set: lower case is a blank played as that tile."""
    full = {t: tiles.count(t) for t in tiles.counts}
    values: dict[str, int] = {}
    form: dict[str, str] = {}
    for t in tiles.counts:
        if t != BLANK:
            values[t], form[t] = tiles.value(t), t
            values[t.lower()], form[t.lower()] = 0, BLANK
    known = frozenset(values) | {BLANK}
    none = frozenset(t for t, c in full.items() if c <= 0)
    return TileTables(full, values, form, known, any(len(t) > 1 for t in tiles.counts), none)
