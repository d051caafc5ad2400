"""The board: premium layouts (read from data files), coordinates and the tiles on it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

from .text import decode

LAYOUT_DIR = Path(__file__).parent / "data" / "layouts"

# Symbol -> (letter multiplier, word multiplier).
PREMIUMS = {
    ".": (1, 1),
    "'": (2, 1),
    '"': (3, 1),
    "^": (4, 1),
    "-": (1, 2),
    "=": (1, 3),
    "~": (1, 4),
}


class LayoutError(ValueError):
    """A layout file that cannot be read."""


@dataclass(frozen=True)
class Layout:
    name: str
    size: int
    letter_mult: tuple[int, ...]  # per square, row-major
    word_mult: tuple[int, ...]
    centre: int  # index of the square the first move must cover

    def __hash__(self) -> int:
        # Not the premiums: a layout's tables are cached under it, looked up for every record.
        return hash((self.name, self.size, self.centre))

    def column_name(self, col: int) -> str:
        return chr(ord("A") + col)

    def square_name(self, index: int) -> str:
        row, col = divmod(index, self.size)
        return f"{row + 1}{self.column_name(col)}"


def parse_layout(text: str, name: str = "custom") -> Layout:
    rows = [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]
    size = len(rows)
    if size == 0 or size > 26:
        raise LayoutError(f"layout {name}: expected between 1 and 26 rows, found {size}")
    letter: list[int] = []
    word: list[int] = []
    for number, row in enumerate(rows, start=1):
        if len(row) != size:
            raise LayoutError(
                f"layout {name}: row {number} has {len(row)} squares, expected {size}"
            )
        for symbol in row:
            if symbol not in PREMIUMS:
                raise LayoutError(f"layout {name}: row {number} has an unknown square {symbol!r}")
            lm, wm = PREMIUMS[symbol]
            letter.append(lm)
            word.append(wm)
    centre = (size // 2) * size + size // 2
    return Layout(name, size, tuple(letter), tuple(word), centre)


# GCG names for the built-in layouts (see reference/gcg-format.md: Macondo and MAGPIE).
_LAYOUT_ALIASES = {"crosswordgame": "standard15", "standard": "standard15", "": "standard15"}


@cache
def builtin_layouts() -> frozenset[str]:
    return frozenset(p.stem for p in LAYOUT_DIR.glob("*.layout"))


def builtin_layout(name: str) -> Layout | None:
    """A built-in layout by name or GCG alias, case-insensitive; None for any other name.

    Never opens a path: this is all a game record may name.
    """
    key = name.strip().lower()
    key = _LAYOUT_ALIASES.get(key, key)
    return _builtin_layout(key) if key in builtin_layouts() else None


@cache
def _builtin_layout(key: str) -> Layout:
    return parse_layout((LAYOUT_DIR / f"{key}.layout").read_text(encoding="utf-8"), name=key)


def load_layout(name_or_path: str = "standard15") -> Layout:
    """A built-in layout by name (``standard15``; ``CrosswordGame`` is its GCG name) or, given
    by the caller (never by a record), a layout file."""
    layout = builtin_layout(name_or_path)
    if layout is not None:
        return layout
    path = Path(name_or_path)
    try:
        text = decode(path.read_bytes())
    except FileNotFoundError:
        raise LayoutError(f"unknown board layout {name_or_path!r}") from None
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the path
        raise LayoutError(f"cannot read the board layout {name_or_path!r}: {exc}") from None
    return parse_layout(text, name=path.stem)


# ASCII digits only: \d also matches other scripts' digits.
_ACROSS = re.compile(r"^([0-9]{1,2})([A-Za-z])$")
_DOWN = re.compile(r"^([A-Za-z])([0-9]{1,2})$")


@dataclass(frozen=True)
class Position:
    row: int  # 0-based
    col: int
    across: bool

    def text(self) -> str:
        col = chr(ord("A") + self.col)
        return f"{self.row + 1}{col}" if self.across else f"{col}{self.row + 1}"


@lru_cache(maxsize=4096)
def parse_position(token: str, size: int = 15) -> Position | None:
    """``8H`` (row first) is across, ``H8`` (column first) is down, in either case.

    None when the token is not a square of the board.
    """
    m = _ACROSS.match(token)
    if m:
        row, col, across = int(m.group(1)) - 1, ord(m.group(2).upper()) - ord("A"), True
    else:
        m = _DOWN.match(token)
        if not m:
            return None
        col, row, across = ord(m.group(1).upper()) - ord("A"), int(m.group(2)) - 1, False
    if not (0 <= row < size and 0 <= col < size):
        return None
    return Position(row, col, across)


class Board:
    """Tiles on the squares: an upper-case tile is a real tile, a lower-case one a blank.

    ``squares`` has a border of empty squares all round, so that walking along a word never
    needs a bounds check: square (row, col) is ``squares[(row + 1) * width + col + 1]``.
    """

    __slots__ = ("layout", "size", "width", "squares", "count")

    def __init__(self, layout: Layout | None = None) -> None:
        self.layout = layout or load_layout()
        self.size = self.layout.size
        self.width = self.size + 2
        self.squares: list[str | None] = [None] * (self.width * self.width)
        self.count = 0

    def copy(self) -> Board:
        other = Board.__new__(Board)
        other.layout = self.layout
        other.size = self.size
        other.width = self.width
        other.squares = self.squares.copy()
        other.count = self.count
        return other

    def index(self, row: int, col: int) -> int:
        return (row + 1) * self.width + col + 1

    def at(self, row: int, col: int) -> str | None:
        return self.squares[(row + 1) * self.width + col + 1]

    def put(self, row: int, col: int, tile: str | None) -> None:
        i = (row + 1) * self.width + col + 1
        self.count += (tile is not None) - (self.squares[i] is not None)
        self.squares[i] = tile

    def square_name(self, index: int) -> str:
        """``8H`` for the padded index of row 8, column H."""
        row, col = divmod(index, self.width)
        return f"{row}{self.layout.column_name(col - 1)}"

    def is_empty(self) -> bool:
        return self.count == 0

    def tiles(self) -> list[str]:
        return [t for t in self.squares if t is not None]

    def render(self) -> str:
        """The board as text, blanks in lower case, premium squares marked when empty."""
        marks = {(1, 3): "=", (1, 2): "-", (3, 1): '"', (2, 1): "'", (4, 1): "^", (1, 4): "~"}
        header = "    " + " ".join(chr(ord("A") + c) for c in range(self.size))
        lines = [header]
        for r in range(self.size):
            cells = []
            for c in range(self.size):
                tile = self.at(r, c)
                if tile is None:
                    i = r * self.size + c
                    key = (self.layout.letter_mult[i], self.layout.word_mult[i])
                    cells.append(marks.get(key, "."))
                else:
                    cells.append(tile if len(tile) == 1 else tile[0])
            lines.append(f"{r + 1:>3} " + " ".join(cells))
        return "\n".join(lines)


@cache
def padded_premiums(layout: Layout) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Letter and word multipliers indexed like ``Board.squares`` (1 on the border)."""
    width = layout.size + 2
    letter = [1] * (width * width)
    word = [1] * (width * width)
    for i, (lm, wm) in enumerate(zip(layout.letter_mult, layout.word_mult, strict=True)):
        row, col = divmod(i, layout.size)
        letter[(row + 1) * width + col + 1] = lm
        word[(row + 1) * width + col + 1] = wm
    return tuple(letter), tuple(word)
