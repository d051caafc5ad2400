"""Text in any script on a PDF: the one path by which every report draws a line. Each run of a
line is in a font that has its glyphs, Persian is shaped and ordered right to left, and the
fonts are the project's own (`fonts/`), never the operating system's.

reportlab draws a string with one font and in the order given, without joining Arabic letters
(its own shaping needs uharfbuzz and applies to platypus paragraphs, not to the strings this
project draws on the canvas). So a line is made ready here:

1. **Shaped and ordered**: a line holding right-to-left script is reshaped by arabic-reshaper
   (each Arabic letter to its isolated, initial, medial or final presentation form, lam-alef
   ligatures) and then put in visual order by python-bidi (the Unicode bidirectional algorithm):
   Persian runs right to left, numbers and Latin names inside them left to right, and a name
   isolated with `tournament.sentences.isolate` (FSI…PDI) is ordered as one unit that does not
   turn the sentence around it. The marks and isolates that steered the ordering are not drawn.
2. **Split into runs by font**: Latin, Greek, Cyrillic and the rest in DejaVu Sans; Hangul in
   Spread Hangul (Nanum Gothic, subset and renamed: TrueType, as reportlab's TTFont refuses the
   CFF outlines of Noto Sans CJK); Arabic script in Noto Sans Arabic. A character the chosen
   font lacks goes to the first font that has it.

The fonts are read from `FONT_DIR` alone (a test points it elsewhere, then calls `reset`); a
font missing there is a `MissingFont` naming the file, never a silent fall back to boxes.
`width` measures a line as it will be drawn; `draw` draws it, left- or right-aligned or centred.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any
from weakref import WeakKeyDictionary

import arabic_reshaper
from bidi import get_display
from bidi.mirror import MIRRORED
from reportlab.lib.rl_accel import fp_str
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from tournament.core.sentences import MARKS

# The one folder the fonts are read from: the project's own (see fonts/README.md).
FONT_DIR = Path(__file__).resolve().parent / "fonts"

LATIN = "latin"
HANGUL = "hangul"
ARABIC = "arabic"

# script -> (the name reportlab knows it by, the regular file, the bold file) under FONT_DIR
FILES = {
    LATIN: ("SpreadSans", "dejavu/DejaVuSans.ttf", "dejavu/DejaVuSans-Bold.ttf"),
    HANGUL: (
        "SpreadHangul",
        "hangul/SpreadHangul-Regular.ttf",
        "hangul/SpreadHangul-Bold.ttf",
    ),
    ARABIC: (
        "SpreadArabic",
        "noto-arabic/NotoSansArabic-Regular.ttf",
        "noto-arabic/NotoSansArabic-Bold.ttf",
    ),
}


class MissingFont(RuntimeError):
    """A font file of the project is not in its folder (an incomplete copy of Spread)."""


@dataclass(frozen=True)
class Face:
    name: str  # as registered with reportlab
    cmap: frozenset[int]  # the code points it has glyphs for


@cache
def face(script: str, bold: bool = False) -> Face:
    """The script's font, regular or bold, registered with reportlab on first use."""
    base, regular, heavy = FILES[script]
    path = FONT_DIR / (heavy if bold else regular)
    if not path.is_file():
        raise MissingFont(f"the reports' font {path} is missing: see {FONT_DIR / 'README.md'}")
    name = f"{base}-Bold" if bold else base
    font = TTFont(name, str(path))
    pdfmetrics.registerFont(font)
    _REGISTERED[name] = font.face.name
    return Face(name, frozenset(font.face.charToGlyph))


def faces(bold: bool) -> dict[str, Face]:
    """The script fonts other than the Latin one, by script, in regular or bold."""
    return {script: face(script, bold) for script in (HANGUL, ARABIC)}


_RESETS: list[Callable[[], Any]] = []
_REGISTERED: dict[str, bytes] = {}  # the names registered with reportlab, and their faces'


def on_reset(clear: Callable[[], Any]) -> None:
    """Have `reset` also clear a cache of measurements made with the fonts (pdf.fit)."""
    _RESETS.append(clear)


def reset() -> None:
    """Forget the fonts read and every measurement made with them: the next line reads the
    fonts again from `FONT_DIR`."""
    for cached in (face, _cmap, runs, _measured):
        cached.cache_clear()
    for clear in _RESETS:
        clear()
    _WRITTEN.clear()
    # reportlab keeps the first font registered under a name: forget ours, to read them anew.
    for name, face_name in _REGISTERED.items():
        pdfmetrics._fonts.pop(name, None)
        pdfmetrics._dynFaceNames.pop(face_name, None)
    _REGISTERED.clear()


@cache
def _cmap(font: str) -> frozenset[int]:
    return frozenset(pdfmetrics.getFont(font).face.charToGlyph)


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


def has_rtl(text: str) -> bool:
    """The line holds right-to-left letters (Arabic script, Hebrew)."""
    return any(unicodedata.bidirectional(c) in ("R", "AL") for c in text)


_RESHAPER = arabic_reshaper.ArabicReshaper(
    configuration={"delete_harakat": False, "support_ligatures": True}
)


# Bidirectional marks, embeddings and isolates: hints to the ordering, invisible once applied.
_CONTROLS = dict.fromkeys([0x200E, 0x200F, 0x061C, *range(0x202A, 0x202F), *range(0x2066, 0x206A)])


_ISOLATES = frozenset(MARKS)  # LRI, RLI, FSI, PDI
_LEVEL = re.compile(r"Level\(\s*(\d+),\s*\)")


def _levels(text: str, rtl: bool) -> tuple[list[int], int]:
    """Each character's embedding level by the bidirectional algorithm, and the line's own.

    python-bidi (unicode-bidi) reorders but does not mirror, so "(2)" in a Persian line would
    print as ")2(": its levels are read here (one a byte of the UTF-8 text, in its debug
    report), and the line is mirrored and reordered by `_display`."""
    report = str(get_display(text, base_dir="R" if rtl else None, debug=True))
    levels_part, _, paragraph_part = report.partition("paragraphs:")
    by_byte = [int(n) for n in _LEVEL.findall(levels_part.partition("levels:")[2])]
    base = int(_LEVEL.findall(paragraph_part)[0])
    levels = []
    at = 0
    for char in text:
        levels.append(by_byte[at])
        at += len(char.encode("utf-8"))
    if at != len(by_byte):
        raise RuntimeError("python-bidi's levels do not match the text: pin python-bidi")
    return levels, base


def _display(text: str, rtl: bool) -> str:
    """`text` in visual order (rules L1 to L4 of the algorithm): the whitespace and isolates
    that end the line at the line's level, a mirrored character (brackets) at a right-to-left
    level in its mirror image, and each run reversed from the highest level down."""
    levels, base = _levels(text, rtl)
    end = len(text)
    while end and (text[end - 1].isspace() or text[end - 1] in _ISOLATES):
        end -= 1
        levels[end] = base
    chars = [MIRRORED.get(c, c) if level % 2 else c for c, level in zip(text, levels, strict=True)]
    odd = [level for level in levels if level % 2]
    for level in range(max(levels), min(odd) - 1 if odd else max(levels), -1):
        i = 0
        while i < len(chars):
            if levels[i] >= level:
                j = i
                while j < len(chars) and levels[j] >= level:
                    j += 1
                chars[i:j] = chars[i:j][::-1]
                levels[i:j] = levels[i:j][::-1]
                i = j
            else:
                i += 1
    return "".join(chars)


def reads_right_to_left(text: str, rtl: bool) -> bool:
    """The line is ordered right to left: it holds right-to-left letters, or, in a Persian
    report, an isolated name (a cell of the wall sheet): it aligns right there."""
    return has_rtl(text) or (rtl and not _ISOLATES.isdisjoint(text))


@lru_cache(maxsize=65536)
def visual(text: str, rtl: bool = False) -> str:
    """The line as it is drawn left to right: Arabic script shaped, every run in visual order,
    brackets mirrored in right-to-left runs. The line's own direction is its first letter's
    outside any isolated name, or right to left in a Persian report (where a line holding an
    isolated name is ordered too: "⁨Smith, John⁩ (4)" prints "(4) Smith, John")."""
    if text.isascii():  # no right-to-left letter, isolate or mark: drawn as it is
        return text
    if reads_right_to_left(text, rtl):
        text = _display(_RESHAPER.reshape(text), rtl)
    return text.translate(_CONTROLS)  # the marks that steered the ordering are not drawn


def _neutral(char: str) -> bool:
    return char.isspace() or unicodedata.category(char)[0] in "PZ"


_PRINTABLE_ASCII = frozenset(range(0x20, 0x7F))


@lru_cache(maxsize=65536)
def runs(text: str, font: str) -> tuple[tuple[str, str], ...]:
    """`text` (in visual order) as (piece, font) runs: `font` (the Latin one, regular or bold)
    for what it has, the script fonts for Hangul and Arabic script."""
    latin = _cmap(font)
    if text.isascii() and text.isprintable() and latin >= _PRINTABLE_ASCII:
        return ((text, font),) if text else ()  # a number, a score, a Latin name
    bold = font.endswith("-Bold")
    scripts = faces(bold)
    out: list[list[str]] = []
    for char in text:
        code = ord(char)
        script = script_of(char)
        if script in scripts and code in scripts[script].cmap:
            chosen = scripts[script].name
        elif out and _neutral(char) and code in _cmap(out[-1][1]):
            chosen = out[-1][1]  # a space or a comma stays in the run it is in
        elif code in latin:
            chosen = font
        else:
            chosen = next((f.name for f in scripts.values() if code in f.cmap), font)
        if out and out[-1][1] == chosen:
            out[-1][0] += char
        else:
            out.append([char, chosen])
    return tuple((piece, name) for piece, name in out)


Measured = tuple[tuple[str, str, float], ...]  # (piece, font, width) a run


@lru_cache(maxsize=65536)
def _measured(text: str, font: str, size: float, rtl: bool) -> tuple[Measured, float]:
    """The line's runs with their widths, and the whole line's width."""
    pieces = tuple(
        (p, f, pdfmetrics.stringWidth(p, f, size)) for p, f in runs(visual(text, rtl), font)
    )
    return pieces, sum(w for _, _, w in pieces)


def width(text: str, font: str, size: float, rtl: bool = False) -> float:
    """The width of a line as `draw` draws it."""
    return _measured(text, font, size, rtl)[1]


# What each canvas has drawn already: a run's text operators (font, size, glyph codes) by its
# piece, font and size. A run is drawn in the operators reportlab's `drawString` writes for it
# (its font's subset, size and leading, then the glyph codes: `PDFTextObject._formatText`),
# made once a document: a 2,000-player crosstable draws 170,000 runs, 55,000 of them distinct,
# and reportlab's own path cost most of its time. tests/tournament/reports/test_drawn_runs.py
# holds the two to the same bytes.
_WRITTEN: WeakKeyDictionary[Any, dict[tuple[str, str, float], str]] = WeakKeyDictionary()


def _operators(canvas: Any, piece: str, font: str, size: float) -> str:
    """The run's operators between its position and the line's end, as `drawString` writes
    them; its glyphs are given their codes in the font's subsets of the document here."""
    written = _WRITTEN.setdefault(canvas, {})
    key = (piece, font, size)
    found = written.get(key)
    if found is None:
        face = pdfmetrics.getFont(font)
        doc = canvas._doc
        sized = f"{fp_str(size)} Tf {fp_str(size * 1.2)} TL"
        parts = []
        for subset, codes in face.splitString(piece, doc):
            parts.append(f"{face.getSubsetInternalName(subset, doc)} {sized}")
            parts.append(f"({canvas._escape(codes)}) Tj")
        found = written[key] = " ".join(parts)
    return found


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
    shown, total = _measured(text, font, size, rtl)
    if right:
        x -= total
    elif centre:
        x -= total / 2
    code = canvas._code  # the page's operators, where `drawString` writes them
    for piece, name, wide in shown:
        operators = _operators(canvas, piece, name, size)
        code.append(f"BT 1 0 0 1 {fp_str(x, y)} Tm {operators} T* ET")
        x += wide
    canvas.setFont(font, size)
