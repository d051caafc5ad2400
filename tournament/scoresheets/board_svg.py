"""The board drawn as inline SVG on the server, so that it shows without JavaScript.

Colours come from classes in static/spread.css (a strict CSP forbids `style=`). Each tile is a
`<g class="tile" data-square="H8">` (column letter, then row) holding its letter as text;
static/viewer.js draws tiles the same way when it steps through the game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.html import escape
from django.utils.translation import gettext_lazy as _

from scoring.board import Layout

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

CELL = 40
MARGIN = 22  # room for the coordinates
# (letter multiplier, word multiplier) -> CSS class and label of an empty square.
PREMIUMS = {
    (2, 1): ("dl", "DL"),
    (3, 1): ("tl", "TL"),
    (4, 1): ("ql", "QL"),
    (1, 2): ("dw", "DW"),
    (1, 3): ("tw", "TW"),
    (1, 4): ("qw", "QW"),
}
# The legend's names, in the reader's language; the squares themselves keep the Latin marks
# (DL, TW…) and the board its orientation in every language (docs/DESIGN.md, "Languages").
NAMES = {
    "dl": _("double letter"),
    "tl": _("triple letter"),
    "ql": _("quadruple letter"),
    "dw": _("double word"),
    "tw": _("triple word"),
    "qw": _("quadruple word"),
}

Square = tuple[int, int]


def square_name(row: int, col: int) -> str:
    """`H8`: the column's letter, then the row's number."""
    return f"{chr(ord('A') + col)}{row + 1}"


def premium(layout: Layout, row: int, col: int) -> tuple[str, str] | None:
    i = row * layout.size + col
    return PREMIUMS.get((layout.letter_mult[i], layout.word_mult[i]))


def legend(layout: Layout) -> list[tuple[str, StrOrPromise]]:
    """(class, name) of each kind of premium square the layout has, in the usual order."""
    present = {
        p[0] for r in range(layout.size) for c in range(layout.size) if (p := premium(layout, r, c))
    }
    return [(cls, NAMES[cls]) for cls in ("tw", "dw", "tl", "dl", "qw", "ql") if cls in present]


def tile_svg(row: int, col: int, tile: str, values: dict[str, int], last: bool) -> str:
    x, y = MARGIN + col * CELL, MARGIN + row * CELL
    blank = tile.islower()
    classes = "tile" + (" blank" if blank else "") + (" last" if last else "")
    letter = tile.upper()
    size = " multi" if len(letter) > 1 else ""
    value = "" if blank else str(values.get(tile, ""))
    return (
        f'<g class="{classes}" data-square="{square_name(row, col)}" data-tile="{escape(tile)}">'
        f'<rect x="{x + 2}" y="{y + 2}" width="{CELL - 4}" height="{CELL - 4}" rx="4"/>'
        f'<text class="letter{size}" x="{x + CELL / 2 - 3}" y="{y + CELL / 2 + 1}">'
        f"{escape(letter)}</text>"
        f'<text class="value" x="{x + CELL - 5}" y="{y + CELL - 6}">{escape(value)}</text></g>'
    )


def board_svg(
    layout: Layout,
    tiles: dict[Square, str],
    values: dict[str, int],
    last: set[Square],
    title: str,
) -> str:
    """The whole board: squares (premiums by class), coordinates, and the tiles on it."""
    size = layout.size
    full = MARGIN + size * CELL + 2
    parts = [
        f'<svg class="board" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {full} {full}" '
        f'role="img" aria-labelledby="board-title" data-cell="{CELL}" data-margin="{MARGIN}">',
        f'<title id="board-title">{escape(title)}</title>',
        '<g class="coords">',
    ]
    for k in range(size):
        centre = MARGIN + k * CELL + CELL / 2
        parts.append(f'<text x="{centre}" y="{MARGIN - 7}">{chr(ord("A") + k)}</text>')
        parts.append(f'<text x="{MARGIN / 2}" y="{centre + 4}">{k + 1}</text>')
    parts.append('</g><g class="squares">')
    centre_row, centre_col = divmod(layout.centre, size)
    for r in range(size):
        for c in range(size):
            x, y = MARGIN + c * CELL, MARGIN + r * CELL
            found = premium(layout, r, c)
            cls = f"sq {found[0]}" if found else "sq"
            parts.append(f'<rect class="{cls}" x="{x}" y="{y}" width="{CELL}" height="{CELL}"/>')
            if (r, c) == (centre_row, centre_col):
                parts.append(
                    f'<text class="star" x="{x + CELL / 2}" y="{y + CELL / 2 + 7}">★</text>'
                )
            elif found:
                label = f'<text class="prem" x="{x + CELL / 2}" y="{y + CELL / 2 + 4}">'
                parts.append(f"{label}{found[1]}</text>")
    parts.append('</g><g class="tiles">')
    for (r, c), tile in sorted(tiles.items()):
        parts.append(tile_svg(r, c, tile, values, (r, c) in last))
    parts.append("</g></svg>")
    return "".join(parts)
