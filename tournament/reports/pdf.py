"""Reports as PDF, drawn with reportlab: A4 or US Letter, a header on every page (tournament,
division, round), page numbers, table headers repeated on each page.

Tables are laid out here rather than by platypus's own Table: every cell is measured with the
font it is printed in, a name too long for its column is shrunk (to three quarters of the size
at most) and then wrapped, never cut; and drawing strings straight onto the canvas keeps 500
scorecards within a few seconds. Every line, of every report, is measured and drawn through
`scripts` (never the canvas's own drawString): each run in the project's font for its script
(DejaVu Sans, Spread Hangul, Noto Sans Arabic, shipped in `fonts/`), Persian shaped and ordered
right to left; a report printed in Persian aligns its headings right.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache

import segno
from django.utils.translation import get_language, gettext
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, LETTER, landscape
from reportlab.pdfgen import canvas as pdfcanvas
from reportlab.platypus import BaseDocTemplate, Flowable, Frame, KeepTogether, PageTemplate, Spacer

from tournament.core.sentences import isolate
from tournament.reports import scripts
from tournament.reports.data import Column, Report, Slip, Table, display

PAPERS = {"a4": A4, "letter": LETTER}
MARGIN = 36.0  # half an inch all round: inside every printer's printable area
HEADER = 36.0  # the running header: two lines and a rule, above the frame
FOOTER = 18.0
SIZE = 9.0  # the body text
SMALLEST = 0.75  # a cell's text is shrunk to this share of its size, then wrapped
PAD = 4.0  # between a cell's text and its rules


@dataclass(frozen=True)
class Fonts:
    regular: str
    bold: str


def fonts() -> Fonts:
    """The body text's font, DejaVu Sans (the project's own, registered on first use); the
    other scripts' fonts are chosen run by run (`scripts.runs`)."""
    return Fonts(scripts.face(scripts.LATIN).name, scripts.face(scripts.LATIN, bold=True).name)


def width(text: str, font: str, size: float) -> float:
    """A line's width as it is drawn: each run in its script's font, Persian shaped."""
    return scripts.width(text, font, size, rtl())


# The direction of the report being rendered, read from the language once by `render` (the
# active language is a lookup too slow for every cell of a 2,000-player crosstable).
_RIGHT_TO_LEFT: ContextVar[bool | None] = ContextVar("right_to_left", default=None)


def rtl() -> bool:
    """The report is printed in a right-to-left language (Persian): its headings align right."""
    known = _RIGHT_TO_LEFT.get()
    return _language_is_rtl() if known is None else known


def _language_is_rtl() -> bool:
    return (get_language() or "").split("-")[0] == "fa"


def leading(size: float) -> float:
    return size * 1.2


# -- fitting text ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Fitted:
    """A cell's text as it will be printed: its size and its lines."""

    size: float
    lines: tuple[str, ...]

    @property
    def height(self) -> float:
        return leading(self.size) * len(self.lines)


@lru_cache(maxsize=65536)
def fit(text: str, font: str, size: float, room: float) -> Fitted:
    """`text` (lines split at "\\n") within `room` points: as it is, else shrunk, else wrapped at
    the smallest size; a word longer than the room is broken between letters."""
    lines = text.split("\n")
    widest = max(width(line, font, size) for line in lines)
    if widest <= room:
        return Fitted(size, tuple(lines))
    shrunk = math.floor(size * room / widest * 10) / 10
    if shrunk >= size * SMALLEST:
        return Fitted(shrunk, tuple(lines))
    small = round(size * SMALLEST, 1)
    wrapped: list[str] = []
    for line in lines:
        wrapped += _wrap(line, font, small, room)
    return Fitted(small, tuple(wrapped))


scripts.on_reset(fit.cache_clear)


def one_line(text: str, font: str, size: float, room: float) -> float:
    """The size at which `text` fits `room` on one line: `size`, or smaller (never wrapped)."""
    wide = width(text, font, size)
    return size if wide <= room else math.floor(size * room / wide * 10) / 10


def _wrap(text: str, font: str, size: float, room: float) -> list[str]:
    lines: list[str] = []
    current = ""
    for word in text.split(" "):
        candidate = f"{current} {word}" if current else word
        if width(candidate, font, size) <= room:
            current = candidate
            continue
        if current:
            lines.append(current)
        current = ""
        while width(word, font, size) > room:  # a word wider than the column: break it
            cut = len(word) - 1
            while cut > 1 and width(word[:cut], font, size) > room:
                cut -= 1
            lines.append(word[:cut])
            word = word[cut:]
        current = word
    if current or not lines:
        lines.append(current)
    return lines


# -- column widths ---------------------------------------------------------------------------


class TooWide(ValueError):
    """The fixed columns alone do not fit the page."""


def natural_widths(
    header: Sequence[str], rows: Sequence[Sequence[str]], size: float = SIZE
) -> list[float]:
    """Each column's width at `size`: its widest line, header (bold) or cell, and the padding."""
    f = fonts()
    right = rtl()
    natural: list[float] = []
    for i, head in enumerate(header):
        lines = {line for row in rows if row[i] for line in row[i].split("\n")}
        widest = max(scripts.width(line, f.bold, size, right) for line in head.split("\n"))
        widest = max([widest, *(scripts.width(line, f.regular, size, right) for line in lines)])
        natural.append(math.ceil(widest + 2 * PAD))
    return natural


def column_widths(
    columns: Sequence[Column],
    header: Sequence[str],
    rows: Sequence[Sequence[str]],
    room: float,
    size: float = SIZE,
    stretch: bool = True,
    strict: bool = False,
    natural: Sequence[float] | None = None,
) -> list[float]:
    """Each fixed column as wide as its widest cell; flexible ones share what is left, each at
    least 60 points (a name then shrinks or wraps). `TooWide` if that cannot be done, or, when
    `strict`, if a flexible column would get less than its widest cell (up to 180 points).
    `natural`: the columns' `natural_widths`, when they are measured already."""
    if natural is None:
        natural = natural_widths(header, rows, size)
    flexible = [i for i, c in enumerate(columns) if c.flexible]
    fixed = sum(w for i, w in enumerate(natural) if i not in flexible)
    left = room - fixed
    if left < 60 * len(flexible) or (not flexible and left < 0):
        raise TooWide(f"{fixed:.0f} points of fixed columns in {room:.0f}")
    if strict and left < sum(min(natural[i], 180) for i in flexible):
        raise TooWide(f"{fixed:.0f} points of fixed columns leave the names too little room")
    widths = list(map(float, natural))
    if not flexible:
        return widths
    wanted = sum(natural[i] for i in flexible)
    if wanted <= left and not stretch:
        return widths
    # Shared in proportion to what each wants, none under 60 points.
    share = {i: max(60.0, left * natural[i] / wanted) for i in flexible}
    excess = sum(share.values()) - left
    if excess > 0:
        big = [i for i in flexible if share[i] > 60.0]
        total_big = sum(share[i] - 60.0 for i in big)
        for i in big:
            share[i] -= excess * (share[i] - 60.0) / total_big
    for i in flexible:
        widths[i] = math.floor(share[i] * 10) / 10
    return widths


# -- a table that splits across pages --------------------------------------------------------


@dataclass
class _Layout:
    widths: list[float]
    numeric: list[bool]
    header: list[Fitted]
    header_height: float
    cells: list[list[Fitted]]
    heights: list[float]
    ruled: bool
    shade: list[bool]


class FitTable(Flowable):
    """Rows of fitted cells; split between pages with the header row repeated on each."""

    def __init__(self, layout: _Layout, start: int = 0, end: int | None = None) -> None:
        super().__init__()
        self.layout = layout
        self.start = start
        self.end = len(layout.cells) if end is None else end
        self.width = sum(layout.widths)
        self.height = layout.header_height + sum(layout.heights[self.start : self.end])

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        return self.width, self.height

    def split(self, avail_width: float, avail_height: float) -> list[Flowable]:
        room = avail_height - self.layout.header_height
        count = 0
        used = 0.0
        for h in self.layout.heights[self.start : self.end]:
            if used + h > room:
                break
            used += h
            count += 1
        if count == 0 or count == self.end - self.start:
            return []
        cut = self.start + count
        return [FitTable(self.layout, self.start, cut), FitTable(self.layout, cut, self.end)]

    def draw(self) -> None:
        c = self.canv
        lay = self.layout
        f = fonts()
        top = self.height
        xs = [0.0]
        for w in lay.widths:
            xs.append(xs[-1] + w)
        # The header band.
        c.setFillColor(colors.Color(0.88, 0.88, 0.88))
        c.rect(0, top - lay.header_height, self.width, lay.header_height, stroke=0, fill=1)
        y = top - lay.header_height
        c.setFillColor(colors.Color(0.95, 0.95, 0.95))
        for i in range(self.start, self.end):
            if lay.shade[i]:
                c.rect(0, y - lay.heights[i], self.width, lay.heights[i], stroke=0, fill=1)
            y -= lay.heights[i]
        c.setFillColor(colors.black)
        _draw_row(c, lay.header, xs, top, lay.numeric, f.bold)
        y = top - lay.header_height
        for i in range(self.start, self.end):
            _draw_row(c, lay.cells[i], xs, y, lay.numeric, f.regular)
            y -= lay.heights[i]
        bottom = y
        c.setLineWidth(0.5 if lay.ruled else 0.3)
        c.setStrokeColor(colors.black if lay.ruled else colors.Color(0.55, 0.55, 0.55))
        lines: list[tuple[float, float, float, float]] = [
            (0, top, self.width, top),
            (0, bottom, self.width, bottom),
        ]
        lines.append((0, top - lay.header_height, self.width, top - lay.header_height))
        if lay.ruled:
            y = top - lay.header_height
            for i in range(self.start, self.end):
                y -= lay.heights[i]
                lines.append((0, y, self.width, y))
        lines += [(x, top, x, bottom) for x in xs]
        c.lines(lines)


def _draw_row(c, cells: list[Fitted], xs: list[float], top: float, numeric, font: str) -> None:
    right = rtl()
    for i, cell in enumerate(cells):
        if not cell.lines or cell.lines == ("",):
            continue
        lead = leading(cell.size)
        y = top - PAD - cell.size * 0.95
        for line in cell.lines:
            if numeric[i] or (right and scripts.reads_right_to_left(line, True)):
                scripts.draw(c, xs[i + 1] - PAD, y, line, font, cell.size, right=True, rtl=right)
            else:
                scripts.draw(c, xs[i] + PAD, y, line, font, cell.size, rtl=right)
            y -= lead


def layout_table(
    columns: Sequence[Column],
    rows: Sequence[Sequence[str]],
    widths: Sequence[float],
    size: float = SIZE,
    ruled: bool = False,
    row_height: float = 0.0,
    zebra: bool = True,
) -> _Layout:
    f = fonts()
    header = [
        fit(c.header, f.bold, size, w - 2 * PAD) for c, w in zip(columns, widths, strict=True)
    ]
    header_height = max(h.height for h in header) + 2 * PAD
    cells = []
    heights = []
    for row in rows:
        fitted = [
            fit(text, f.regular, size, w - 2 * PAD) for text, w in zip(row, widths, strict=True)
        ]
        cells.append(fitted)
        heights.append(max(row_height, max(x.height for x in fitted) + 2 * PAD))
    shade = [zebra and i % 2 == 1 for i in range(len(rows))]
    return _Layout(
        list(widths),
        [c.numeric for c in columns],
        header,
        header_height,
        cells,
        heights,
        ruled,
        shade,
    )


def shown(table: Table) -> list[list[str]]:
    """The table's cells as printed."""
    styles = [c.style for c in table.columns]
    return [[display(v, s) for v, s in zip(row, styles, strict=True)] for row in table.rows]


# -- single lines ----------------------------------------------------------------------------


class FitLine(Flowable):
    """A heading line: shrunk, then wrapped, to the width it is given."""

    def __init__(self, text: str, size: float = 12, bold: bool = True, after: float = 4) -> None:
        super().__init__()
        self.text = text
        self.size = size
        self.bold = bold
        self.after = after
        self.fitted = Fitted(size, (text,))

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        f = fonts()
        self.fitted = fit(self.text, f.bold if self.bold else f.regular, self.size, avail_width)
        self.width = avail_width
        self.height = self.fitted.height + self.after
        return avail_width, self.height

    def draw(self) -> None:
        f = fonts()
        font = f.bold if self.bold else f.regular
        y = self.height - self.fitted.size * 0.95
        right = rtl()
        for line in self.fitted.lines:
            x = self.width if right else 0
            scripts.draw(self.canv, x, y, line, font, self.fitted.size, right=right, rtl=right)
            y -= leading(self.fitted.size)


# -- the document ----------------------------------------------------------------------------


class _NumberedCanvas(pdfcanvas.Canvas):
    """Writes "page N of M" once the number of pages is known."""

    def __init__(self, *args, **kwargs) -> None:
        # The project's font from the start, never reportlab's Helvetica, even unused.
        kwargs["initialFontName"] = kwargs.get("initialFontName") or fonts().regular
        super().__init__(*args, **kwargs)
        self._pages: list[dict] = []

    def showPage(self) -> None:  # noqa: N802 - reportlab's name
        self._pages.append(dict(self.__dict__))
        self._startPage()

    def save(self) -> None:
        total = len(self._pages)
        for state in self._pages:
            self.__dict__.update(state)
            self._page_number(total)
            super().showPage()
        super().save()

    def _page_number(self, total: int) -> None:
        f = fonts()
        self.setFillColor(colors.black)
        w, _ = self._pagesize
        text = gettext("Page %(page)s of %(total)s") % {"page": self._pageNumber, "total": total}
        scripts.draw(self, w - MARGIN, MARGIN + 2, text, f.regular, 8, right=True)


def page_size(paper: str, wide: bool = False) -> tuple[float, float]:
    try:
        size = PAPERS[paper.lower()]
    except KeyError:
        raise ValueError(gettext("paper %(paper)r: a4 or letter") % {"paper": paper}) from None
    return landscape(size) if wide else size


def frame_width(paper: str, wide: bool = False) -> float:
    return page_size(paper, wide)[0] - 2 * MARGIN


def _header_lines(report: Report) -> tuple[str, str]:
    where = gettext("Division %(division)s") % {"division": isolate(report.division)}
    if report.round is not None:
        where += " · " + gettext("Round %(round)s") % {"round": report.round}
    return report.tournament, f"{where} · {report.heading}"


def make_document(report: Report, story: list[Flowable], paper: str, wide: bool = False) -> bytes:
    size = page_size(paper, wide)
    buffer = io.BytesIO()
    first, second = _header_lines(report)

    def on_page(c: pdfcanvas.Canvas, doc: BaseDocTemplate) -> None:
        f = fonts()
        room = size[0] - 2 * MARGIN
        top = size[1] - MARGIN
        # One line each, however long the names: shrunk to the width, never wrapped or cut.
        one = one_line(first, f.bold, 11.0, room)
        two = one_line(second, f.regular, 9.0, room)
        x, right = (size[0] - MARGIN, True) if rtl() else (MARGIN, False)
        scripts.draw(c, x, top - 11, first, f.bold, one, right=right, rtl=right)
        scripts.draw(c, x, top - 24, second, f.regular, two, right=right, rtl=right)
        c.setLineWidth(0.5)
        c.line(MARGIN, top - 29, size[0] - MARGIN, top - 29)
        scripts.draw(c, MARGIN, MARGIN + 2, "Spread", f.regular, 8)

    frame = Frame(
        MARGIN,
        MARGIN + FOOTER,
        size[0] - 2 * MARGIN,
        size[1] - 2 * MARGIN - HEADER - FOOTER,
        leftPadding=0,
        rightPadding=0,
        topPadding=0,
        bottomPadding=0,
        id="body",
    )
    doc = BaseDocTemplate(
        buffer,
        pagesize=size,
        leftMargin=MARGIN,
        rightMargin=MARGIN,
        topMargin=MARGIN,
        bottomMargin=MARGIN,
        title=f"{report.tournament} – {report.division} – {report.heading}",
        author="Spread",
        pageTemplates=[PageTemplate(id="page", frames=[frame], onPage=on_page)],
    )
    doc.build(story or [Spacer(1, 1)], canvasmaker=_NumberedCanvas)
    return buffer.getvalue()


# -- the reports -----------------------------------------------------------------------------


def _tables_story(report: Report, room: float, titles: bool = False) -> list[Flowable]:
    story: list[Flowable] = []
    if report.message:
        story += [FitLine(report.message, 11, bold=False, after=8)]
    for table in report.tables:
        texts = shown(table)
        if titles or len(report.tables) > 1:
            story.append(FitLine(table.title, 11))
        story += _table_slices(table, texts, room)
        if table.note:
            story.append(FitLine(table.note, 9, bold=False))
        story.append(Spacer(1, 12))
    return story


def _table_slices(table: Table, texts: list[list[str]], room: float) -> list[Flowable]:
    """The table, or, when it is too wide for the page, slices of it side by side in turn,
    each with the key columns again (the crosstable's rounds 1-16, then 17-31)."""
    header = [c.header for c in table.columns]
    # A table with key columns can be sliced: rather that than names squeezed to fit.
    strict = any(c.key for c in table.columns)
    # Each column measured once: a slice's columns are as wide in it as in the whole table.
    natural = natural_widths(header, texts)
    try:
        widths = column_widths(table.columns, header, texts, room, strict=strict, natural=natural)
        return [FitTable(layout_table(table.columns, texts, widths))]
    except TooWide:
        pass
    keys = [i for i, c in enumerate(table.columns) if c.key]
    others = [i for i, c in enumerate(table.columns) if not c.key]
    slices: list[list[int]] = []
    current: list[int] = []
    for i in others:
        trial = keys + current + [i]
        try:
            column_widths(
                [table.columns[j] for j in trial],
                [header[j] for j in trial],
                [],
                room,
                strict=True,
                natural=[natural[j] for j in trial],
            )
            current.append(i)
        except TooWide:
            if not current:
                raise
            slices.append(current)
            current = [i]
    if current:
        slices.append(current)
    story: list[Flowable] = []
    for part in slices:
        chosen = keys + part
        columns = [table.columns[j] for j in chosen]
        part_texts = [[row[j] for j in chosen] for row in texts]
        widths = column_widths(
            columns,
            [header[j] for j in chosen],
            part_texts,
            room,
            natural=[natural[j] for j in chosen],
        )
        first, last = table.columns[part[0]].header, table.columns[part[-1]].header
        story.append(FitLine(f"{table.title}: {first} to {last}", 10, after=6))
        story.append(FitTable(layout_table(columns, part_texts, widths)))
        story.append(Spacer(1, 12))
    return story


def tables_pdf(report: Report, paper: str = "a4") -> bytes:
    room = frame_width(paper, report.landscape)
    return make_document(report, _tables_story(report, room), paper, report.landscape)


# -- QR codes and the players' slips -----------------------------------------------------------

QR_ERROR = "m"  # 15% of the code may be smudged or torn and it still reads
QR_BORDER = 4  # the quiet zone, in modules, that a reader needs around the code


def qr_matrix(text: str) -> list[bytearray]:
    """The QR code of `text` as rows of modules (1 dark), without its quiet zone."""
    return list(segno.make(text, error=QR_ERROR, micro=False).matrix)


def draw_qr(c: pdfcanvas.Canvas, text: str, x: float, y: float, side: float) -> None:
    """The QR code of `text` drawn as vector squares in a `side`-point square whose lower left
    corner is (x, y), quiet zone included. Each row's dark runs are one rectangle each, drawn
    in the code's own units (a module is 1 × 1, row 0 at the top), so the page holds the
    matrix exactly as it is."""
    matrix = qr_matrix(text)
    n = len(matrix)
    module = side / (n + 2 * QR_BORDER)
    c.saveState()
    c.translate(x + QR_BORDER * module, y + side - QR_BORDER * module)
    c.scale(module, -module)
    c.setFillColor(colors.black)
    path = c.beginPath()
    for row, modules in enumerate(matrix):
        col = 0
        while col < n:
            if modules[col]:
                start = col
                while col < n and modules[col]:
                    col += 1
                path.rect(start, row, col - start, 1)
            else:
                col += 1
    c.drawPath(path, stroke=0, fill=1)
    c.restoreState()


class QRCode(Flowable):
    def __init__(self, text: str, side: float) -> None:
        super().__init__()
        self.text = text
        self.width = self.height = side

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        return self.width, self.height

    def draw(self) -> None:
        draw_qr(self.canv, self.text, 0, 0, self.width)


SLIP_COLUMNS = 2
SLIP_HEIGHT = 164.0  # four rows of slips, eight slips, to an A4 or Letter page
SLIP_QR = 120.0


class SlipRow(Flowable):
    """A row of slips, with dashed cut lines between and around them."""

    def __init__(self, slips: Sequence[Slip], tournament: str, width: float) -> None:
        super().__init__()
        self.slips = slips
        self.tournament = tournament
        self.width = width
        self.height = SLIP_HEIGHT

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        return self.width, self.height

    def draw(self) -> None:
        c = self.canv
        f = fonts()
        w = self.width / SLIP_COLUMNS
        c.setDash(3, 3)
        c.setLineWidth(0.4)
        c.setStrokeColor(colors.Color(0.6, 0.6, 0.6))
        c.rect(0, 0, self.width, self.height, stroke=1, fill=0)
        for i in range(1, SLIP_COLUMNS):
            c.line(i * w, 0, i * w, self.height)
        c.setDash()
        c.setFillColor(colors.black)
        right = rtl()
        for i, slip in enumerate(self.slips):
            x = i * w
            draw_qr(c, slip.link, x + 4, self.height - SLIP_QR - 8, SLIP_QR)
            room = w - SLIP_QR - 16
            left = x + SLIP_QR + 10
            at = left + room if right else left  # a Persian slip's lines end at the right
            top = self.height - 24
            name = fit(slip.name, f.bold, 15, room)
            for part in name.lines:
                scripts.draw(c, at, top, part, f.bold, name.size, right=right, rtl=right)
                top -= leading(name.size)
            number = gettext("Player %(number)s") % {"number": slip.number}
            _line(c, at, top - 4, number, f.regular, 11, room)
            division = gettext("Division %(division)s") % {"division": isolate(slip.division)}
            _line(c, at, top - 18, division, f.regular, 11, room)
            _line(c, at, top - 34, self.tournament, f.regular, 9, room)
            link = fit(slip.link, f.regular, 8, w - 16)
            y = 26.0 + leading(link.size) * (len(link.lines) - 1)
            for part in link.lines:  # an address reads left to right in every language
                scripts.draw(c, x + 8, y, part, f.regular, link.size)
                y -= leading(link.size)
            at = x + w - 8 if right else x + 8
            scan = gettext("Scan for your table, your results and your scoresheet.")
            keep = gettext("Keep it to yourself: it reports in your name.")
            _line(c, at, 15, scan, f.regular, 7, w - 16)
            _line(c, at, 6, keep, f.regular, 7, w - 16)


def _line(c, x: float, y: float, text: str, font: str, size: float, room: float) -> None:
    """One line at x, shrunk to `room`; in a Persian report it ends at x, from the right."""
    right = rtl()
    scripts.draw(c, x, y, text, font, one_line(text, font, size, room), right=right, rtl=right)


def slips_pdf(report: Report, paper: str = "a4") -> bytes:
    """The players' slips, two to a row, cut along the dashes."""
    room = frame_width(paper)
    story: list[Flowable] = []
    for i in range(0, len(report.slips), SLIP_COLUMNS):
        story.append(SlipRow(report.slips[i : i + SLIP_COLUMNS], report.tournament, room))
    return make_document(report, story, paper)


# -- the wall sheet --------------------------------------------------------------------------

WALL_SIZE = 20.0  # read from two or three steps away


def wall_pdf(report: Report, paper: str = "a4") -> bytes:
    """A round's pairings by name in large print, the header row repeated on every page."""
    room = frame_width(paper)
    story: list[Flowable] = []
    for table in report.tables:
        texts = shown(table)
        header = [c.header for c in table.columns]
        widths = column_widths(table.columns, header, texts, room, size=WALL_SIZE)
        story.append(FitLine(report.heading, 28, after=10))
        story.append(FitTable(layout_table(table.columns, texts, widths, size=WALL_SIZE)))
    return make_document(report, story, paper)


def scorecards_pdf(report: Report, paper: str = "a4") -> bytes:
    """A card a player, kept whole on a page, as many to a page as fit; every card's columns
    are the same widths, so that the stack of them reads alike."""
    room = frame_width(paper)
    story: list[Flowable] = []
    if report.cards:
        columns = report.cards[0].table.columns
        texts = [shown(card.table) for card in report.cards]
        every = [row for rows in texts for row in rows]
        widths = column_widths(columns, [c.header for c in columns], every, room)
        for card, rows in zip(report.cards, texts, strict=True):
            table = FitTable(
                layout_table(columns, rows, widths, ruled=True, row_height=17, zebra=False)
            )
            head: list[Flowable] = [
                FitLine(card.heading, 12, after=2),
                FitLine(card.details, 9, bold=False, after=4),
            ]
            if card.link:  # the personal link's QR code beside the heading
                head = [CardHead(head, card.link, room)]
            # The card's note (what a time penalty's `(−20)` is), under its table.
            note = [FitLine(card.table.note, 8, bold=False)] if card.table.note else []
            story.append(KeepTogether([*head, table, *note, Spacer(1, 16)]))
    return make_document(report, story, paper)


CARD_QR = 64.0


class CardHead(Flowable):
    """A scorecard's heading lines, with the player's personal link as a QR code on the right."""

    def __init__(self, lines: list[Flowable], link: str, width: float) -> None:
        super().__init__()
        self.lines = lines
        self.link = link
        self.width = width

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        used = sum(line.wrap(self.width - CARD_QR - 8, avail_height)[1] for line in self.lines)
        self.height = max(used, CARD_QR)
        return self.width, self.height

    def draw(self) -> None:
        y = self.height
        for line in self.lines:
            y -= line.height
            line.drawOn(self.canv, 0, y)
        draw_qr(self.canv, self.link, self.width - CARD_QR, self.height - CARD_QR, CARD_QR)


# -- a game record ---------------------------------------------------------------------------

PREMIUM_COLOURS = {
    (1, 3): colors.Color(0.93, 0.42, 0.40),  # triple word
    (1, 2): colors.Color(0.98, 0.78, 0.76),  # double word
    (3, 1): colors.Color(0.35, 0.60, 0.86),  # triple letter
    (2, 1): colors.Color(0.74, 0.87, 0.96),  # double letter
    (4, 1): colors.Color(0.20, 0.45, 0.75),
    (1, 4): colors.Color(0.80, 0.25, 0.25),
}


class BoardDiagram(Flowable):
    """The board as the engine left it: premium squares coloured, tiles with their letters,
    blanks in lower case and grey; columns lettered and rows numbered as GCG names them."""

    def __init__(self, board, side: float) -> None:
        super().__init__()
        self.board = board
        self.cells = board.size + 1  # one row and one column for the coordinates
        self.square = side / self.cells
        self.width = self.height = self.square * self.cells

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        return self.width, self.height

    def draw(self) -> None:
        c = self.canv
        f = fonts()
        board = self.board
        layout = board.layout
        q = self.square
        size = board.size
        label = min(8.0, q * 0.45)
        for col in range(size):
            x = (col + 1) * q + q / 2
            y = self.height - q / 2 - label / 3
            scripts.draw(c, x, y, layout.column_name(col), f.regular, label, centre=True)
        for row in range(size):
            y = self.height - (row + 1) * q - q / 2 - label / 3
            scripts.draw(c, q - 2, y, str(row + 1), f.regular, label, right=True)
        c.setLineWidth(0.4)
        for row in range(size):
            for col in range(size):
                x = (col + 1) * q
                y = self.height - (row + 2) * q
                tile = board.at(row, col)
                i = row * size + col
                premium = (layout.letter_mult[i], layout.word_mult[i])
                fill = (
                    colors.Color(0.98, 0.92, 0.72)
                    if tile
                    else PREMIUM_COLOURS.get(premium, colors.white)
                )
                c.setFillColor(fill)
                c.setStrokeColor(colors.Color(0.5, 0.5, 0.5))
                c.rect(x, y, q, q, stroke=1, fill=1)
                if tile:
                    letter = tile if len(tile) == 1 else tile[0]
                    blank = letter.islower()
                    c.setFillColor(colors.Color(0.45, 0.45, 0.45) if blank else colors.black)
                    text_size = q * 0.6
                    font = f.regular if blank else f.bold
                    fitted = fit(letter, font, text_size, q - 2)
                    scripts.draw(
                        c,
                        x + q / 2,
                        y + q / 2 - fitted.size * 0.36,
                        letter,
                        font,
                        fitted.size,
                        centre=True,
                    )
        c.setFillColor(colors.black)


def game_pdf(report: Report, paper: str = "a4") -> bytes:
    room = frame_width(paper)
    story: list[Flowable] = [
        FitLine(report.extra["summary"], 10, bold=False, after=6),
        FitLine(report.extra["board_caption"], 11, after=4),
        BoardDiagram(report.extra["board"], min(room, 360.0)),
        Spacer(1, 12),
    ]
    story += _tables_story(report, room, titles=True)
    return make_document(report, story, paper)


RENDERERS: dict[str, Callable[[Report, str], bytes]] = {
    "scorecards": scorecards_pdf,
    "slips": slips_pdf,
    "wall": wall_pdf,
    "game": game_pdf,
}


# -- the prize ceremony's slides --------------------------------------------------------------


class SlideLine(Flowable):
    """A slide's line, centred, shrunk to the page's width and never wrapped."""

    def __init__(self, text: str, size: float, bold: bool = False, after: float = 12) -> None:
        super().__init__()
        self.text, self.size, self.bold, self.after = text, size, bold, after

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        f = fonts()
        font = f.bold if self.bold else f.regular
        wide = width(self.text, font, self.size) if self.text else 0
        self.shown = min(self.size, self.size * avail_width / wide) if wide else self.size
        self.width = avail_width
        self.height = leading(self.shown) + self.after
        return avail_width, self.height

    def draw(self) -> None:
        f = fonts()
        font = f.bold if self.bold else f.regular
        y = self.height - self.shown * 0.95
        scripts.draw(
            self.canv, self.width / 2, y, self.text, font, self.shown, centre=True, rtl=rtl()
        )


def slides_pdf(report: Report, paper: str = "a4") -> bytes:
    """One landscape page a slide: the prize, its value, the winners and the figure."""
    from reportlab.platypus import PageBreak

    story: list[Flowable] = []
    for i, slide in enumerate(report.extra.get("slides", [])):
        if i:
            story.append(PageBreak())
        story.append(Spacer(1, 60 if slide.winners else 160))
        story.append(SlideLine(slide.title, 36, bold=True, after=18))
        if slide.value:
            story.append(SlideLine(slide.value, 28, after=30))
        for name in slide.winners:
            story.append(SlideLine(name, 44, bold=True, after=10))
        if slide.figure:
            story.append(SlideLine(slide.figure, 20, after=0))
    return make_document(report, story, paper, wide=True)


RENDERERS["slides"] = slides_pdf


def certificates_pdf(report: Report, paper: str = "a4") -> bytes:
    """A page a prize-winner: the event, the winner, the prize and its figure, and the code
    with its QR code that opens the public page confirming it."""
    from reportlab.platypus import PageBreak

    story: list[Flowable] = []
    for i, c in enumerate(report.extra.get("certificates", [])):
        if i:
            story.append(PageBreak())
        story.append(Spacer(1, 50))
        story.append(SlideLine(report.tournament, 20, after=24))
        story.append(SlideLine(gettext("Certificate"), 40, bold=True, after=30))
        story.append(SlideLine(c["name"], 34, bold=True, after=24))
        story.append(SlideLine(c["prize"], 26, bold=True, after=10))
        if c["value"]:
            story.append(SlideLine(c["value"], 20, after=10))
        story.append(
            SlideLine(gettext("Division %(division)s") % {"division": report.division}, 14, after=6)
        )
        if c["figure"]:
            story.append(SlideLine(c["figure"], 14, after=30))
        qr = QRCode(c["link"], 130)
        qr.hAlign = "CENTER"
        story.append(qr)
        story.append(Spacer(1, 8))
        story.append(SlideLine(c["code"], 14, bold=True, after=4))
        story.append(SlideLine(c["link"], 8, after=0))
    return make_document(report, story, paper)


RENDERERS["certificates"] = certificates_pdf
RENDERERS["participation"] = certificates_pdf


def render(report: Report, paper: str = "a4") -> bytes:
    direction = _RIGHT_TO_LEFT.set(_language_is_rtl())
    try:
        return RENDERERS.get(report.kind, tables_pdf)(report, paper)
    finally:
        _RIGHT_TO_LEFT.reset(direction)
