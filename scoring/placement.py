"""Where a play's tiles land: the board, the squares a play covers and the words it forms.

``Placement.place`` puts a play on the board or says, as a finding, why it cannot go there. It
gives back the squares it covered and the words it formed, tile by tile; what they score is the
scoring part's (``scoring.scores``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

from . import gcg
from .board import Board, Layout, Position, builtin_layout, builtin_layouts, parse_position
from .findings import Findings
from .tiles import BLANK, TileSet, tables

_PARENS = re.compile(r"\(([^)]*)\)")
_NO_CELLS: frozenset[int] = frozenset()

Split = Callable[[str], list[str]]
# A play's position on the bordered board: (position, label, first square, step along the
# word, step along its cross-words, squares before it in its line).
Geometry = tuple[Position, str, int, int, int, int]


# A play on the board, a plain tuple (one is made for every play):
#   the squares it covered, in order along the word;
#   the tile it put on each, as written (lower case: a blank);
#   the tiles it took from the rack, "?" for a blank;
#   the word along the play, tile by tile ([] for one tile written alone);
#   each cross-word: its new square, the tile put there, and its tiles;
#   the words formed, the main word first, each with no validity mark: (word, "");
#   the canonical position, and the canonical word (play-through written as ".").
Crosses = list[tuple[int, str, list[str]]]
Words = list[tuple[str, str]]
Placed = tuple[list[int], list[str], list[str], list[str], Crosses, Words, str, str]


def record_layout(record: gcg.GameRecord, findings: Findings) -> Layout:
    """The layout a record names (``#board-layout``, built-in layouts only: a path in it is
    never opened), else the standard one."""
    layout = builtin_layout("standard15")
    declared = record.pragma_item("board-layout")
    if declared is not None:
        named = builtin_layout(declared.value)
        if named is None:
            findings.error(
                declared.line,
                "unknown_layout",
                {"value": declared.value, "layouts": sorted(builtin_layouts())},
                recorded=declared.value,
            )
        else:
            layout = named
    assert layout is not None  # the standard layout ships with the engine
    return layout


class Placement:
    """The board of one replay and the rules of where tiles may go on it."""

    def __init__(self, layout: Layout, tiles: TileSet, split: Split, findings: Findings) -> None:
        self.board = Board(layout)
        self.size = layout.size
        self.tiles = tiles
        self.split = split
        self.findings = findings
        self.geometries = _geometries(self.size)
        table = tables(tiles)
        self.values, self.rack_form, self.multi = table.values, table.rack_form, table.multi
        # The line of a play that could not be placed: from there on the board is unknown, so
        # later plays are checked for turn order and arithmetic only.
        self.blind: int | None = None

    def place(self, ev: gcg.Event) -> Placed | None:
        """Put a play on the board; None when it cannot be placed (the finding says why)."""
        geometry = self.geometries.get(ev.position) or self._geometry(ev)
        if geometry is None:
            return None
        pos, label, start, step, cross, along = geometry
        word = ev.word
        if "(" in word:
            tiles, through = self._tiles(word)
        else:
            tiles, through = self.split(word), _NO_CELLS
        n = len(tiles)
        squares = self.board.squares
        if (
            n == 0
            or along + n > self.size
            or (through and any(squares[start + k * step] is None for k in through))
        ):
            self.placement_error(ev, pos, tiles, through)
            return None
        new: list[int] = []
        laid: list[str] = []
        used: list[str] = []
        rewritten: list[int] = []
        stop = self._lay(tiles, start, step, new, laid, used, rewritten)
        if not new:
            self.placement_error(ev, pos, tiles, through)
            return None
        first_move = self.board.count == 0
        ends_touch = squares[start - step] is not None or squares[stop] is not None
        if ends_touch:
            self.findings.error(
                ev.line, "not_whole_word", {"word": word, "position": label}, ev.nick, recorded=word
            )
        self.board.count += len(new)
        # One tile written on its own forms no word that way: only its cross-word counts. Every
        # square from the start of a word to its end holds a tile, so the slices are of tiles.
        main: list[str] = squares[start:stop:step] if n > 1 else []  # type: ignore[assignment]
        words: Words = [("".join(main), "")] if n > 1 else []
        crosses: Crosses = []
        for q, t in zip(new, laid, strict=True):
            if squares[q - cross] is None and squares[q + cross] is None:
                continue
            # The border of empty squares stops both walks.
            lo = q - cross
            hi = q + cross
            while squares[lo] is not None:
                lo -= cross
            while squares[hi] is not None:
                hi += cross
            across: list[str] = squares[lo + cross : hi : cross]  # type: ignore[assignment]
            crosses.append((q, t, across))
            words.append(("".join(across), ""))
        if first_move:
            self._check_first_move(ev, new)
        elif len(new) == n and not crosses and not ends_touch:
            self.findings.error(
                ev.line,
                "not_connected",
                {"word": word, "position": label},
                ev.nick,
                recorded=f"{ev.position} {word}",
            )
        if rewritten or self.multi:
            canon = self._canonical(tiles, rewritten, start, step)
        else:
            canon = "".join(tiles)
        return new, laid, used, main, crosses, words, label, canon

    def _geometry(self, ev: gcg.Event) -> Geometry | None:
        geometry = _geometry(ev.position, self.size)
        if geometry is None:
            self.findings.error(
                ev.line, "bad_position", {"position": ev.position}, ev.nick, recorded=ev.position
            )
            return None
        self.geometries[ev.position] = geometry
        return geometry

    def _tiles(self, word: str) -> tuple[list[str], frozenset[int] | set[int]]:
        """The tiles of a word written with parentheses, and which of them are in parentheses
        (played through)."""
        through: set[int] = set()
        tiles: list[str] = []
        for k, piece in enumerate(_PARENS.split(word)):
            for t in self.split(piece):
                if k % 2:
                    through.add(len(tiles))
                tiles.append(t)
        return tiles, through

    def _lay(
        self,
        tiles: list[str],
        start: int,
        step: int,
        new: list[int],
        laid: list[str],
        used: list[str],
        rewritten: list[int],
    ) -> int:
        """Put the tiles down from ``start``, filling in the squares covered, the tile put on
        each, the tiles taken from the rack and the squares played through but written as their
        tile: the square after the word. Nothing is covered, and the board is as it was, when
        a tile is not of the set or differs from the one already there."""
        squares = self.board.squares
        form = self.rack_form
        sq = start
        try:
            for t in tiles:
                here = squares[sq]
                if here is None:
                    used.append(form[t])  # KeyError: not a tile of the set ("." included)
                    squares[sq] = t
                    new.append(sq)
                    laid.append(t)
                elif t != ".":
                    if t != here and t.upper() != here.upper():
                        raise KeyError(t)
                    rewritten.append(sq)
                sq += step
        except KeyError:
            for q in new:
                squares[q] = None
            new.clear()
        return sq

    def _check_first_move(self, ev: gcg.Event, new: list[int]) -> None:
        layout = self.board.layout
        row, col = divmod(layout.centre, self.size)
        if self.board.index(row, col) not in new:
            self.findings.error(
                ev.line,
                "first_move_off_centre",
                {"square": layout.square_name(layout.centre)},
                ev.nick,
                recorded=f"{ev.position} {ev.word}",
            )
        if len(new) < 2:
            self.findings.error(ev.line, "first_move_one_tile", player=ev.nick)

    def _canonical(self, tiles: list[str], rewritten: list[int], start: int, step: int) -> str:
        """The word as canonical GCG writes it: "." where it plays through a tile, multi-letter
        tiles in brackets."""
        canon = tiles
        if rewritten:
            canon = list(tiles)
            for q in rewritten:
                canon[(q - start) // step] = "."
        if self.multi:
            canon = [t if len(t) == 1 else f"[{t}]" for t in canon]
        return "".join(canon)

    def cells(self, squares: list[int]) -> list[tuple[int, int]]:
        """(row, column) of each of these squares."""
        width = self.board.width
        return [(sq // width - 1, sq % width - 1) for sq in squares]

    def lift(self, squares: list[int]) -> list[str]:
        """Take a withdrawn play's tiles off the board: the tiles they were on the rack."""
        board = self.board.squares
        tiles = []
        for sq in squares:
            t = board[sq]
            assert t is not None  # the withdrawn play's own tiles are on the board
            tiles.append(BLANK if t.islower() else t)
            board[sq] = None
        self.board.count -= len(squares)
        return tiles

    def placement_error(
        self, ev: gcg.Event, pos: Position, tiles: list[str], through: frozenset[int] | set[int]
    ) -> None:
        """Say why a play cannot be placed (the slow path, taken only for a bad play)."""
        label = pos.text()
        if not tiles:
            self.findings.error(ev.line, "malformed_move", player=ev.nick)
            return
        along = pos.col if pos.across else pos.row
        if along + len(tiles) > self.size:
            self.findings.error(
                ev.line,
                "off_board",
                {"word": ev.word, "position": label},
                ev.nick,
                recorded=f"{ev.position} {ev.word}",
            )
            return
        step = 1 if pos.across else self.size + 2
        sq = self.board.index(pos.row, pos.col)
        for k, t in enumerate(tiles):
            if self._square_error(ev, label, sq, k, t, through):
                return
            sq += step
        self.findings.error(
            ev.line,
            "no_new_tiles",
            {"word": ev.word, "position": label},
            ev.nick,
            recorded=ev.word,
        )

    def _square_error(
        self, ev: gcg.Event, label: str, sq: int, k: int, t: str, through: frozenset[int] | set[int]
    ) -> bool:
        """Report why tile ``k`` of a play (``t``) cannot go on square ``sq``, if it cannot."""
        here = self.board.squares[sq]
        where = self.board.square_name
        if t == "." and here is None:
            self.findings.error(
                ev.line,
                "playthrough_empty",
                {"word": ev.word, "position": label, "square": where(sq)},
                ev.nick,
                recorded=ev.word,
            )
        elif t != "." and t not in self.values:
            self.findings.error(
                ev.line,
                "unknown_tile",
                {"tile": t, "word": ev.word, "tiles": self.tiles.name},
                ev.nick,
                recorded=ev.word,
            )
        elif here is not None and t != "." and here.upper() != t.upper():
            self.findings.error(
                ev.line,
                "square_occupied",
                {"word": ev.word, "position": label, "tile": t, "square": where(sq), "here": here},
                ev.nick,
                expected=here,
                recorded=t,
            )
        elif here is None and k in through:
            self.findings.error(
                ev.line,
                "playthrough_empty",
                {"case": "parens", "word": ev.word, "tile": t, "square": where(sq)},
                ev.nick,
                recorded=ev.word,
            )
        else:
            return False
        return True


def splitter(record: gcg.GameRecord, tiles: TileSet) -> Split:
    """How the record's words and racks split into tiles. A record that declares its
    multi-character tiles (#tile) writes them in brackets only: there "LL" is two L's, and
    "[LL]" the Spanish tile."""
    if record.pragma_item("tile") is not None:
        return functools.partial(tiles.split, bracketed_only=True)
    return tiles.split


@functools.cache
def _geometries(size: int) -> dict[str, Geometry | None]:
    """Play geometries by position as written, for one size of board: filled as positions are
    met, and kept for every record."""
    return {}


def _geometry(token: str, size: int) -> Geometry | None:
    pos = parse_position(token, size)
    if pos is None:
        return None
    width = size + 2
    start = (pos.row + 1) * width + pos.col + 1
    if pos.across:
        return pos, pos.text(), start, 1, width, pos.col
    return pos, pos.text(), start, width, 1, pos.row
