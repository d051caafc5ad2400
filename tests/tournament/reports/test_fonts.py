"""The reports' fonts are the project's own (tournament/reports/fonts/): with the operating
system's font folders out of reach, the slips, a scorecard and the standings still print Hangul
in the Korean font and Persian joined and right to left; the fonts are read from one folder
alone; every line of every PDF is drawn through `scripts.draw`; and the fonts folder holds each
font with its licence."""

from __future__ import annotations

import builtins
import io
import os
import shutil
from pathlib import Path

import pypdf
import pypdfium2 as pdfium
import pytest
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas as pdfcanvas
from scoring_support import game_record

from tests.tournament.reports.report_support import (
    embedded_fonts,
    glyphs,
    layout_problems,
    lines_of_arabic,
)
from tournament import reports
from tournament.core.sentences import isolate
from tournament.models import Division, Game, Player, Round, Scoresheet, Tournament
from tournament.reports import data, pdf, scripts

BASE = "https://hall.example.org/"
KOREAN = "김민준"
PERSIAN = "سارا احمدی"  # Sara Ahmadi
GREEK = "Παπαδόπουλος, Νίκος"
LATIN = "Smith, John"
NAMES = [KOREAN, PERSIAN, GREEK, LATIN]
# سارا احمدی as it is drawn, letter by letter in reading order: each letter in the form its
# neighbours give it (Unicode's presentation forms), as the PDF's text map gives them back.
SHAPED = "\ufeb3\ufe8e\ufead\ufe8d \ufe8d\ufea3\ufee4\ufeaa\ufbfc"
# The fonts a report may embed: the project's own, by their PostScript names.
OURS = {
    "DejaVuSans",
    "DejaVuSans-Bold",
    "SpreadHangul-Regular",
    "SpreadHangul-Bold",
    "NotoSansArabic-Regular",
    "NotoSansArabic-Bold",
}
# Where Debian, other Linux systems, macOS and Windows keep their fonts.
SYSTEM_FONTS = (
    "/usr/share/fonts",
    "/usr/local/share/fonts",
    "/Library/Fonts",
    "/System/Library/Fonts",
    str(Path.home() / ".fonts"),
    str(Path.home() / ".local" / "share" / "fonts"),
    "C:\\Windows\\Fonts",
)


@pytest.fixture
def fresh_fonts():
    """The fonts read again, and every measurement made again, in the test and after it."""
    scripts.reset()
    yield
    scripts.reset()


@pytest.fixture
def no_system_fonts(monkeypatch: pytest.MonkeyPatch, fresh_fonts: None) -> list[str]:
    """Every open, stat and listing of a system font folder fails; the paths tried are kept."""
    tried: list[str] = []

    def guard(path: object) -> None:
        if isinstance(path, str | bytes | os.PathLike):
            text = os.fsdecode(path)
            if text.startswith(SYSTEM_FONTS):
                tried.append(text)
                raise PermissionError(f"{text}: the system's fonts are hidden in this test")

    def hidden(real):
        def call(path=".", *args, **kwargs):
            guard(path)
            return real(path, *args, **kwargs)

        return call

    for module, name in ((builtins, "open"), (io, "open"), (os, "stat"), (os, "listdir")):
        monkeypatch.setattr(module, name, hidden(getattr(module, name)))
    monkeypatch.setattr(os, "scandir", hidden(os.scandir))
    return tried


@pytest.fixture
def division(db: None) -> Division:
    tournament = Tournament.objects.create(name="Seoul Open · مسابقات تهران", slug="seoul")
    division = Division.objects.create(tournament=tournament, name="A", planned_rounds=2)
    players = [
        Player.objects.create(division=division, number=n, name=name, rating=1500 + n)
        for n, name in enumerate(NAMES, start=1)
    ]
    korean, persian, greek, latin = players
    Game.objects.create(
        division=division,
        round=1,
        table=1,
        player1=korean,
        player2=persian,
        score1=420,
        score2=380,
        first=1,
    )
    Game.objects.create(
        division=division,
        round=1,
        table=2,
        player1=greek,
        player2=latin,
        score1=350,
        score2=390,
        first=2,
    )
    Round.objects.create(division=division, number=1, published=True)
    return division


def _hangul_inked(content: bytes) -> list[str]:
    """The Hangul syllables on the first page that are drawn with ink (a real glyph, not the
    outline of an empty box or nothing)."""
    document = pdfium.PdfDocument(content)
    image = document[0].render(scale=2).to_pil().convert("L")
    found, (size, *_) = glyphs(content)
    inked = []
    for g in found:
        if g.page == 0 and "\uac00" <= g.char <= "\ud7a3":
            box = [round(v * 2) for v in (g.left, size[1] - g.top, g.right, size[1] - g.bottom)]
            if sum(image.crop(box).histogram()[:128]) > 20:
                inked.append(g.char)
    document.close()
    return inked


@pytest.mark.parametrize(
    "kind, hangul, arabic",
    [
        ("slips", "SpreadHangul-Bold", "NotoSansArabic-Bold"),  # the names in bold
        ("scorecards", "SpreadHangul-Bold", "NotoSansArabic-Regular"),  # heading; opponent
        ("standings", "SpreadHangul-Regular", "NotoSansArabic-Regular"),
    ],
)
def test_hangul_and_joined_persian_print_with_the_systems_fonts_hidden(
    division: Division, no_system_fonts: list[str], kind: str, hangul: str, arabic: str
) -> None:
    with pytest.raises(PermissionError):  # the system's fonts are out of reach indeed
        Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf").read_bytes()
    no_system_fonts.clear()

    content = reports.make(division, kind, "pdf", base=BASE).content

    assert no_system_fonts == []
    embedded = embedded_fonts(content)
    assert {"DejaVuSans", hangul, arabic} <= embedded <= OURS
    pages = pypdf.PdfReader(io.BytesIO(content)).pages
    text = " ".join(" ".join(page.extract_text().split()) for page in pages)  # a name may wrap
    for name in (KOREAN, SHAPED, GREEK, LATIN):
        assert name in text, name
    assert PERSIAN not in text  # never its letters unjoined
    assert _hangul_inked(content).count("김") >= 1
    assert {"김", "민", "준"} <= set(_hangul_inked(content))
    # Read from the right edge, the letters on the page spell the name.
    assert "سارااحمدی" in lines_of_arabic(content)
    problems = [p for p in layout_problems(content, pdf.MARGIN) if " overlaps " not in p]
    assert problems == []


def test_a_persian_slip_reads_right_to_left_with_its_lines_on_the_right(
    division: Division, no_system_fonts: list[str]
) -> None:
    content = reports.make(division, "slips", base=BASE, lang="fa").content
    found, (size, *_) = glyphs(content)
    slip = (size[0] - 2 * pdf.MARGIN) / pdf.SLIP_COLUMNS
    baseline = size[1] - pdf.MARGIN - pdf.HEADER - 24  # the first row's names
    for column, name in ((0, "김민준"), (1, "سارااحمدی")):
        drawn = [
            g
            for g in found
            if pdf.MARGIN + column * slip < g.left < pdf.MARGIN + (column + 1) * slip
            and baseline - 8 <= g.bottom
            and g.top <= baseline + 20
        ]
        # read from the right, as a Persian reader does: the name, whole
        assert "".join(g.char for g in sorted(drawn, key=lambda g: -g.right)) == (
            name[::-1] if column == 0 else name
        )
        # the name ends at the right of the slip's text, 6 points inside the slip's edge
        assert abs(max(g.right for g in drawn) - (pdf.MARGIN + (column + 1) * slip - 6)) < 1.5
    assert no_system_fonts == []


def test_a_name_isolated_in_a_line_keeps_the_lines_own_order() -> None:
    drawn = SHAPED[::-1]  # the name as drawn from the left: its last letter first
    # An English line: the number, then the name; a Persian one: the name left of "2." (read
    # from the right: "2." first).
    assert scripts.visual(f"2. {isolate(PERSIAN)}") == f"2. {drawn}"
    assert scripts.visual(f"2. {isolate(PERSIAN)}", rtl=True) == f"{drawn} .2"
    assert scripts.visual(f"{isolate(PERSIAN)}: gibsonized.") == f"{drawn}: gibsonized."
    # Not isolated, the name's direction would turn the English sentence around.
    assert scripts.visual(f"{PERSIAN}: gibsonized.") == f".gibsonized :{drawn}"


def test_brackets_in_a_right_to_left_run_are_mirrored_and_numbers_stay_as_they_are() -> None:
    drawn = SHAPED[::-1]
    # The wall sheet's "name (number)": read from the right, the name, then "(2)".
    assert scripts.visual(f"{isolate(PERSIAN)} (2)", rtl=True) == f"(2) {drawn}"
    assert scripts.visual(f"{PERSIAN} (2)") == f"(2) {drawn}"
    assert scripts.visual(f"{isolate(PERSIAN)} (2)") == f"{drawn} (2)"  # in an English report
    assert scripts.visual(f"{isolate(LATIN)} (4)", rtl=True) == "(4) Smith, John"
    assert scripts.visual(f"{isolate(KOREAN)} (1)", rtl=True) == "(1) 김민준"
    assert scripts.visual("[گ]") == "[\ufb92]"  # each mirrored, the run reversed: still "[گ]"
    for plain in ("+50", "1-0", "Page 1 of 1", "Smith, John (4)"):
        assert scripts.visual(plain, rtl=True) == plain


def test_a_scorecards_heading_prints_the_number_before_a_persian_name(
    division: Division,
) -> None:
    content = reports.make(division, "scorecards", "pdf").content
    found, _ = glyphs(content)
    lines: list[list] = []  # the glyphs of each printed line, by where their middles stand
    for g in sorted(found, key=lambda g: (g.page, -(g.top + g.bottom))):
        last = lines[-1][-1] if lines else None
        if last and last.page == g.page and abs(last.top + last.bottom - g.top - g.bottom) < 8:
            lines[-1].append(g)
        else:
            lines.append([g])
    # Each line as it stands from the left; a Persian name's letters stand last first.
    shown = ["".join(g.char for g in sorted(line, key=lambda g: g.left)) for line in lines]
    assert "2." + "سارااحمدی"[::-1] in shown  # the card's heading: "2. سارا احمدی"
    assert "1.김민준" in shown


def test_the_fonts_are_read_from_the_one_folder_the_finder_is_given(
    division: Division, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_fonts: None
) -> None:
    copy = tmp_path / "fonts"
    shutil.copytree(scripts.FONT_DIR, copy)
    monkeypatch.setattr(scripts, "FONT_DIR", copy)
    scripts.reset()

    content = reports.make(division, "standings", "pdf").content

    assert {"DejaVuSans", "SpreadHangul-Regular", "NotoSansArabic-Regular"} <= embedded_fonts(
        content
    )
    for name, file in (
        ("SpreadSans", "dejavu/DejaVuSans.ttf"),
        ("SpreadHangul", "hangul/SpreadHangul-Regular.ttf"),
        ("SpreadArabic", "noto-arabic/NotoSansArabic-Regular.ttf"),
    ):
        assert pdfmetrics.getFont(name).face.filename == str(copy / file)


def test_an_empty_font_folder_is_a_clear_error_not_boxes(
    division: Division, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_fonts: None
) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    monkeypatch.setattr(scripts, "FONT_DIR", empty)
    scripts.reset()

    with pytest.raises(scripts.MissingFont) as raised:
        reports.make(division, "standings", "pdf")

    assert str(raised.value) == (
        f"the reports' font {empty / 'dejavu' / 'DejaVuSans.ttf'} is missing: "
        f"see {empty / 'README.md'}"
    )


def test_every_line_of_every_pdf_is_drawn_through_the_script_aware_path(
    division: Division, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A string drawn on the canvas other than by `scripts.draw` would print Hangul as boxes
    and Persian unjoined: every report, the game record too, is drawn and none is."""
    inside = [0]
    draw = scripts.draw

    def counted(*args, **kwargs):
        inside[0] += 1
        try:
            draw(*args, **kwargs)
        finally:
            inside[0] -= 1

    strays: list[str] = []

    def watched(name: str):
        real = getattr(pdfcanvas.Canvas, name)

        def call(self, *args, **kwargs):
            if not inside[0]:
                strays.append(f"{name}{args!r}")
            return real(self, *args, **kwargs)

        return call

    monkeypatch.setattr(scripts, "draw", counted)
    for name in ("drawString", "drawRightString", "drawCentredString", "drawText"):
        monkeypatch.setattr(pdfcanvas.Canvas, name, watched(name))
    division.prizes = [{"kind": "rank", "place": 1, "value": "100"}]
    division.save()
    game = division.games.get(table=1)
    sheet = Scoresheet.objects.create(game=game, gcg=game_record("Kim", KOREAN, "Sara", PERSIAN))

    # Every report of a division printed as PDF (results are xlsx only; this division has no
    # playoff, whose report is drawn as the other tables are), in English and in Persian.
    kinds = [k for k in reports.KINDS if k not in ("results", "playoffs")]
    assert kinds == [
        "pairings",
        "standings",
        "scorecards",
        "slips",
        "wall",
        "crosstable",
        "ratings",
        "prizes",
        "stats",
        "tuffluck",
        "luckystiff",
        "overseed",
        "highratingchange",
        "upsets",
        "performance",
        "slides",
        "certificates",
        "participation",
    ]
    for kind in kinds:
        for lang in ("en", "fa"):
            assert reports.make(division, kind, "pdf", base=BASE, lang=lang).content
    assert pdf.render(data.game_record(sheet)).startswith(b"%PDF")

    assert inside == [0] and strays == []


# -- the fonts folder ------------------------------------------------------------------------

FONTS = scripts.FONT_DIR


def _cmap(path: Path) -> set[int]:
    return set(TTFont("Probe", str(path)).face.charToGlyph)


def test_each_font_ships_with_its_licence_and_the_folder_stays_small() -> None:
    licences = {
        "dejavu": "Fonts are (c) Bitstream (see below). DejaVu changes are in public domain.",
        "hangul": "Copyright (c) 2010, NAVER Corporation (http://www.nhncorp.com),",
        "noto-arabic": "Copyright 2015-2020 Google LLC. All Rights Reserved.",
    }
    for folder, first in licences.items():
        text = (FONTS / folder / "LICENSE").read_text()
        assert text.startswith(first), folder
    for folder in ("hangul", "noto-arabic"):
        assert (
            "SIL OPEN FONT LICENSE\n\nVersion 1.1 - 26 February 2007"
            in (FONTS / folder / "LICENSE").read_text()
        )
    files = sorted(p.relative_to(FONTS).as_posix() for p in FONTS.rglob("*.ttf"))
    assert files == [
        "dejavu/DejaVuSans-Bold.ttf",
        "dejavu/DejaVuSans.ttf",
        "hangul/SpreadHangul-Bold.ttf",
        "hangul/SpreadHangul-Regular.ttf",
        "noto-arabic/NotoSansArabic-Bold.ttf",
        "noto-arabic/NotoSansArabic-Regular.ttf",
    ]
    total = sum(p.stat().st_size for p in FONTS.rglob("*") if p.is_file())
    assert total < 7 * 2**20, total


def test_the_fonts_hold_what_the_reports_print() -> None:
    for style in ("Regular", "Bold"):
        path = FONTS / "hangul" / f"SpreadHangul-{style}.ttf"
        assert TTFont("Probe", str(path)).face.name == f"SpreadHangul-{style}".encode()
        hangul = _cmap(path)
        syllables = set(range(0xAC00, 0xD7A4))
        # the modern jamo: 19 initial consonants, 21 vowels, 27 final consonants
        jamo = {*range(0x1100, 0x1113), *range(0x1161, 0x1176), *range(0x11A8, 0x11C3)}
        assert syllables <= hangul and jamo <= hangul
        assert set(range(0x3131, 0x318F)) <= hangul  # compatibility jamo
        assert set(range(0x20, 0x7F)) <= hangul  # a name's spaces and commas stay in its run
    for style in ("Regular", "Bold"):
        arabic = _cmap(FONTS / "noto-arabic" / f"NotoSansArabic-{style}.ttf")
        persian = "آابپتثجچحخدذرزژسشصضطظعغفقکگلمنوهی۰۱۲۳۴۵۶۷۸۹،؛؟"
        shaped = scripts.visual(" ".join(f"{c}{c}{c}" for c in persian))
        missing = [c for c in shaped + persian if c != " " and ord(c) not in arabic]
        assert missing == []
    for style in ("", "-Bold"):
        latin = _cmap(FONTS / "dejavu" / f"DejaVuSans{style}.ttf")
        for first, last in ((0x20, 0x7E), (0xA0, 0x17F), (0x391, 0x3A1), (0x3A3, 0x3C9)):
            assert set(range(first, last + 1)) <= latin
        assert set(range(0x400, 0x460)) <= latin  # Cyrillic
        assert {ord(c) for c in "·–—…‘’“”•→"} <= latin
