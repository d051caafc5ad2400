"""Make the fonts folder from Debian's font packages: a developer's step, run once when a font
is updated, never at run time (it needs fontTools, which Spread does not depend on).

    python tournament/reports/fonts/build.py FOLDER

FOLDER holds Debian's usr/share/fonts/truetype (unpacked from fonts-dejavu-core, fonts-nanum and
fonts-noto-core: see README.md). DejaVu Sans and Noto Sans Arabic are copied as they are.
Nanum Gothic is cut to what the reports print in it (Hangul and the punctuation beside it) and,
as its licence asks of a modified font (OFL 1.1, condition 3: "Nanum" and "NanumGothic" are
Reserved Font Names), renamed "Spread Hangul".
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont

HERE = Path(__file__).resolve().parent

# Hangul (syllables, jamo, compatibility jamo, extended jamo) and what sits beside it in a
# Korean name or heading: ASCII, Latin-1 punctuation, general punctuation, CJK symbols and
# punctuation, enclosed Hangul, full- and half-width forms. Not Hanja, kana or Han.
HANGUL_UNICODES = (
    "U+0020-007E,U+00A0-00FF,U+1100-11FF,U+2000-206F,U+3000-303F,U+3130-318F,U+3200-32FF,"
    "U+A960-A97F,U+AC00-D7A3,U+D7B0-D7FF,U+FF00-FFEF"
)

COPIED = {
    "dejavu/DejaVuSans.ttf": "dejavu/DejaVuSans.ttf",
    "dejavu/DejaVuSans-Bold.ttf": "dejavu/DejaVuSans-Bold.ttf",
    "noto/NotoSansArabic-Regular.ttf": "noto-arabic/NotoSansArabic-Regular.ttf",
    "noto/NotoSansArabic-Bold.ttf": "noto-arabic/NotoSansArabic-Bold.ttf",
}
HANGUL = {
    "nanum/NanumGothic.ttf": ("hangul/SpreadHangul-Regular.ttf", "Regular"),
    "nanum/NanumGothicBold.ttf": ("hangul/SpreadHangul-Bold.ttf", "Bold"),
}


def rename(path: Path, style: str, original: Path) -> None:
    """The font's names as a user sees them become "Spread Hangul"; its copyright stays, and so
    does its date (the same packages make the same files)."""
    font = TTFont(path, recalcTimestamp=False)
    font["head"].modified = TTFont(original)["head"].modified
    table = font["name"]
    copyright_ = table.getDebugName(0)
    version = table.getDebugName(5)
    names = {
        0: f"{copyright_} Spread Hangul is a subset of NanumGothic, renamed.",
        1: "Spread Hangul",
        2: style,
        3: f"Spread Hangul {style}; subset of NanumGothic {version}",
        4: f"Spread Hangul {style}",
        5: version,
        6: f"SpreadHangul-{style}",
        13: "This Font Software is licensed under the SIL Open Font License, Version 1.1.",
        14: "https://openfontlicense.org",
    }
    table.names = []
    for number, text in names.items():
        table.setName(text, number, 3, 1, 0x409)  # Windows, Unicode BMP, English
        table.setName(text, number, 1, 0, 0)  # Macintosh, Roman, English
    font.save(path)


def main(source: Path) -> None:
    for src, dest in COPIED.items():
        (HERE / dest).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source / src, HERE / dest)
    for src, (dest, style) in HANGUL.items():
        out = HERE / dest
        out.parent.mkdir(parents=True, exist_ok=True)
        subset.main(
            [
                str(source / src),
                f"--unicodes={HANGUL_UNICODES}",
                "--layout-features=*",
                f"--output-file={out}",
            ]
        )
        rename(out, style, source / src)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
