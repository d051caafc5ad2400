"""Text in any script on a PDF: each run of a line in a font that has its glyphs, Persian shaped
and ordered right to left.

reportlab draws a string with one font and in the order given, without joining Arabic letters
(its own shaping needs uharfbuzz and applies to platypus paragraphs, not to the strings this
project draws on the canvas). So a line is made ready here:

1. **Shaped and ordered**: a line holding Arabic script is reshaped by arabic-reshaper (each letter
   to its isolated, initial, medial or final presentation form, lam-alef ligatures) and then put
   in visual order by python-bidi (the Unicode bidirectional algorithm): Persian runs right to
   left, numbers and Latin names inside them left to right.
2. **Split into runs by font**: Latin, Greek, Cyrillic and the rest in DejaVu Sans (as before);
   Hangul in Nanum Gothic (Debian's fonts-nanum: TrueType; Noto Sans CJK is packaged as an
   OpenType collection with CFF outlines, which reportlab's TTFont refuses); Arabic script in Noto
   Sans Arabic (fonts-noto-core). A character no chosen font has goes to the first that has it.

`width` measures a line as it will be drawn; `draw` draws it, left- or right-aligned.
A font file that is not installed is left out: its script then prints as DejaVu does (boxes).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

import arabic_reshaper
from bidi import get_display
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

NANUM = [Path("/usr/share/fonts/truetype/nanum")]
NOTO = [Path("/usr/share/fonts/truetype/noto")]

HANGUL = "hangul"
ARABIC = "arabic"


@dataclass(frozen=True)
class Face:
    name: str  # as registered with reportlab
    cmap: frozenset[int]  # the code points it has glyphs for


def _register(name: str, folders: Sequence[Path], filename: str) -> Face | None:
    for folder in folders:
        path = folder / filename
        if path.is_file():
            font = TTFont(name, str(path))
            pdfmetrics.registerFont(font)
            return Face(name, frozenset(font.face.charToGlyph))
    return None


@cache
def faces(bold: bool) -> dict[str, Face]:
    """The script fonts installed, by script, in regular or bold."""
    found = {
        HANGUL: _register(
            f"SpreadHangul{'-Bold' if bold else ''}",
            NANUM,
            "NanumGothicBold.ttf" if bold else "NanumGothic.ttf",
        ),
        ARABIC: _register(
            f"SpreadArabic{'-Bold' if bold else ''}",
            NOTO,
            "NotoSansArabic-Bold.ttf" if bold else "NotoSansArabic-Regular.ttf",
        ),
    }
    return {script: face for script, face in found.items() if face is not None}


@cache
def _cmap(font: str) -> frozenset[int]:
    face: Any = pdfmetrics.getFont(font)
    inner = getattr(face, "face", None)
    return frozenset(getattr(inner, "charToGlyph", {}) or range(0x20, 0x100))


def script_of(char: str) -> str | None:
    code = ord(char)
    if (
        0xAC00 <= code <= 0xD7AF
        or 0x1100 <= code <= 0x11FF
        or 0x3130 <= code <= 0x318F
        or 0xA960 <= code <= 0xA97F
        or 0xD7B0 <= code <= 0xD7FF
    ):
        return HANGUL
    if (
        0x0600 <= code <= 0x06FF
        or 0x0750 <= code <= 0x077F
        or 0x08A0 <= code <= 0x08FF
        or 0xFB50 <= code <= 0xFDFF
        or 0xFE70 <= code <= 0xFEFF
    ):
        return ARABIC
    return None


def has_arabic(text: str) -> bool:
    return any(script_of(c) == ARABIC for c in text)


_RESHAPER = arabic_reshaper.ArabicReshaper(
    configuration={"delete_harakat": False, "support_ligatures": True}
)


# Bidirectional marks, embeddings and isolates: hints to the ordering, invisible once applied.
_CONTROLS = dict.fromkeys([0x200E, 0x200F, 0x061C, *range(0x202A, 0x202F), *range(0x2066, 0x206A)])


@lru_cache(maxsize=65536)
def visual(text: str, rtl: bool = False) -> str:
    """The line as it is drawn left to right: Arabic script shaped, every run in visual order.
    The line's own direction is its first letter's, or right to left in a Persian report."""
    if not has_arabic(text):
        return text
    shown = str(get_display(_RESHAPER.reshape(text), base_dir="R" if rtl else None))
    return shown.translate(_CONTROLS)  # the marks that steered the ordering are not drawn


def _neutral(char: str) -> bool:
    return char.isspace() or unicodedata.category(char)[0] in "PZ"


@lru_cache(maxsize=65536)
def runs(text: str, font: str) -> tuple[tuple[str, str], ...]:
    """`text` (in visual order) as (piece, font) runs: `font` (DejaVu, regular or bold) for what
    it has, the script fonts for Hangul and Arabic script."""
    bold = font.endswith("-Bold")
    scripts = faces(bold)
    latin = _cmap(font)
    out: list[list[str]] = []
    for char in text:
        code = ord(char)
        script = script_of(char)
        if script in scripts and code in scripts[script].cmap:
            chosen = scripts[script].name
        elif out and _neutral(char) and code in _cmap(out[-1][1]):
            chosen = out[-1][1]  # a space or a comma stays in the run it is in
        elif code in latin or not scripts:
            chosen = font
        else:
            chosen = next((f.name for f in scripts.values() if code in f.cmap), font)
        if out and out[-1][1] == chosen:
            out[-1][0] += char
        else:
            out.append([char, chosen])
    return tuple((piece, name) for piece, name in out)


@lru_cache(maxsize=65536)
def width(text: str, font: str, size: float, rtl: bool = False) -> float:
    """The width of a line as `draw` draws it."""
    return sum(pdfmetrics.stringWidth(p, f, size) for p, f in runs(visual(text, rtl), font))


def draw(
    canvas: Any,
    x: float,
    y: float,
    text: str,
    font: str,
    size: float,
    right: bool = False,
    centre: bool = False,
    rtl: bool = False,
) -> None:
    """Draw a line at (x, y): from x, or ending at x (`right`), or centred on x (`centre`);
    `rtl`: the line is of a right-to-left report."""
    shown = runs(visual(text, rtl), font)
    total = sum(pdfmetrics.stringWidth(p, f, size) for p, f in shown)
    if right:
        x -= total
    elif centre:
        x -= total / 2
    for piece, name in shown:
        canvas.setFont(name, size)
        canvas.drawString(x, y, piece)
        x += pdfmetrics.stringWidth(piece, name, size)
    canvas.setFont(font, size)
