"""Reading reports back as a person would: the PDF's text, and where each glyph stands on the
page, from two readers other than the one that wrote them (pypdf, PDFium)."""

from __future__ import annotations

import io
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import pypdf
import pypdfium2 as pdfium
import pytest

SHARED = Path(__file__).resolve().parents[4] / "shared"
MGI = SHARED / "corpus" / "tsh" / "domino14_tsh-parser"


def corpus_file(name: str) -> Path:
    path = MGI / name
    if not path.is_file():
        pytest.skip(f"the shared tsh corpus is not beside the project ({path} is absent)")
    return path


def pdf_text(content: bytes) -> str:
    reader = pypdf.PdfReader(io.BytesIO(content))
    return "\n".join(page.extract_text(extraction_mode="layout") for page in reader.pages)


def pdf_pages(content: bytes) -> list[str]:
    reader = pypdf.PdfReader(io.BytesIO(content))
    return [page.extract_text(extraction_mode="layout") for page in reader.pages]


def pdf_lines(content: bytes) -> list[str]:
    return [" ".join(line.split()) for line in pdf_text(content).splitlines()]


@dataclass(frozen=True)
class Glyph:
    page: int
    char: str
    left: float
    bottom: float
    right: float
    top: float


def embedded_fonts(content: bytes) -> set[str]:
    """The fonts embedded in the PDF, by their PostScript names, without subset prefixes."""
    reader = pypdf.PdfReader(io.BytesIO(content))
    names = set()
    for page in reader.pages:
        for font in page["/Resources"]["/Font"].values():
            names.add(str(font.get_object()["/BaseFont"]).split("+")[-1])
    return names


def glyphs(content: bytes) -> tuple[list[Glyph], list[tuple[float, float]]]:
    """Every printed character's box, and each page's size."""
    document = pdfium.PdfDocument(content)
    found = []
    sizes = []
    for n in range(len(document)):
        page = document[n]
        sizes.append((page.get_width(), page.get_height()))
        text = page.get_textpage()
        for i in range(text.count_chars()):
            char = text.get_text_range(i, 1)
            if not char.strip():
                continue
            left, bottom, right, top = text.get_charbox(i)
            found.append(Glyph(n, char, left, bottom, right, top))
    return found, sizes


def arabic_letter(char: str) -> bool:
    """A letter of the Arabic block, or one of its presentation forms."""
    return "\u0600" <= char <= "\u06ff" or "\ufb50" <= char <= "\ufeff"


def lines_of_arabic(content: bytes) -> list[str]:
    """Each line's Arabic letters as PDFium reads the page (letters, not their forms), read from
    the right: the text as a Persian reader reads it."""
    found, _ = glyphs(content)
    letters = sorted((g for g in found if arabic_letter(g.char)), key=lambda g: g.top + g.bottom)
    lines: list[list[Glyph]] = []
    for g in letters:
        if lines and (g.top + g.bottom) - (lines[-1][-1].top + lines[-1][-1].bottom) <= 12:
            lines[-1].append(g)
        else:
            lines.append([g])
    return [
        "".join(g.char for g in sorted(line, key=lambda g: -(g.left + g.right))) for line in lines
    ]


def layout_problems(content: bytes, margin: float, slack: float = 0.4) -> list[str]:
    """Glyphs outside the margins, and pairs of glyphs that overlap one another."""
    found, sizes = glyphs(content)
    problems = []
    for g in found:
        width, height = sizes[g.page]
        if (
            g.left < margin - slack
            or g.bottom < margin - slack
            or g.right > width - margin + slack
            or g.top > height - margin + slack
        ):
            problems.append(
                f"page {g.page + 1}: {g.char!r} at {g.left:.1f},{g.bottom:.1f} past the margin"
            )
    buckets: dict[tuple[int, int, int], list[Glyph]] = defaultdict(list)
    for g in found:
        for bx in range(int(g.left // 10), int(g.right // 10) + 1):
            for by in range(int(g.bottom // 10), int(g.top // 10) + 1):
                buckets[(g.page, bx, by)].append(g)
    seen = set()
    for group in buckets.values():
        for i, a in enumerate(group):
            for b in group[i + 1 :]:
                if min(a.right, b.right) - max(a.left, b.left) > slack and (
                    min(a.top, b.top) - max(a.bottom, b.bottom) > slack
                ):
                    key = (a, b)
                    if key not in seen:
                        seen.add(key)
                        problems.append(
                            f"page {a.page + 1}: {a.char!r} overlaps {b.char!r}"
                            f" at {a.left:.1f},{a.bottom:.1f}"
                        )
    return problems


def ink_outside_margins(content: bytes, margin: float, scale: float = 1.0) -> list[int]:
    """Pages (1-based) with any non-white pixel outside the margins, rendered at `scale`."""
    document = pdfium.PdfDocument(content)
    bad = []
    for n in range(len(document)):
        image = document[n].render(scale=scale).to_pil().convert("L")
        w, h = image.size
        m = int(margin * scale) - 1
        blank = image.copy()
        blank.paste(255, (m, m, w - m, h - m))
        if blank.getextrema()[0] < 250:
            bad.append(n + 1)
    return bad
