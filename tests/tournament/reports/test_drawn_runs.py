"""A line is drawn by `scripts.draw` in exactly the operators reportlab's own `drawString` writes
for each of its runs (written once a document, then reused): the same page, byte for byte, in
every script, whether the run is drawn for the first time or again."""

from __future__ import annotations

import io

import pytest
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen import canvas as pdfcanvas

from tournament.reports import scripts

LINES = [
    "W 12",
    "417-388",
    "+29",
    "Smith, John (3)",
    "back\\slash (and) brackets",
    "김민준",
    "احمدی، مریم",
    "Bye +50",
    "Müller, Łukasz 김민준 احمدی",
    "",
]


def _page(draw) -> bytes:
    buffer = io.BytesIO()
    c = pdfcanvas.Canvas(buffer, invariant=1, pageCompression=0)
    regular = scripts.face(scripts.LATIN).name
    bold = scripts.face(scripts.LATIN, bold=True).name
    y = 800.0
    for _ in range(2):  # each line twice: the second time from what the document wrote
        for i, line in enumerate(LINES):
            font = bold if i % 3 == 0 else regular
            size = 9.0 if i % 2 else 6.8
            draw(c, 36.0 + i * 0.37, y, line, font, size, right=i % 4 == 1, rtl=i % 5 == 2)
            y -= 11.3
    c.showPage()
    c.save()
    return buffer.getvalue()


def _draw_string(c, x, y, text, font, size, right=False, rtl=False) -> None:
    """A line drawn run by run with reportlab's own `drawString`."""
    shown = scripts.runs(scripts.visual(text, rtl), font)
    total = sum(pdfmetrics.stringWidth(p, f, size) for p, f in shown)
    if right:
        x -= total
    for piece, name in shown:
        c.setFont(name, size)
        c.drawString(x, y, piece)
        x += pdfmetrics.stringWidth(piece, name, size)
    c.setFont(font, size)


@pytest.mark.parametrize("twice", [False, True])
def test_a_line_is_drawn_in_the_operators_drawstring_writes(twice: bool) -> None:
    ours = _page(scripts.draw)
    if twice:  # a second document starts afresh: nothing written for the first is reused
        ours = _page(scripts.draw)
    theirs = _page(_draw_string)

    assert b"BT 1 0 0 1 36 800 Tm" in theirs
    assert ours == theirs


def test_a_line_is_as_wide_as_its_runs() -> None:
    regular = scripts.face(scripts.LATIN).name
    runs = scripts.runs(scripts.visual("Smith 김민준"), regular)

    assert [font for _, font in runs] == [regular, scripts.face(scripts.HANGUL).name]
    assert scripts.width("Smith 김민준", regular, 9) == sum(
        pdfmetrics.stringWidth(p, f, 9) for p, f in runs
    )
