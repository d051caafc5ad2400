"""PDFs in every script: Korean names print in a Hangul font, Persian names shaped (each letter in
its joined form) and ordered right to left, each run in a font that has a real glyph for every
character; and a whole report printed in each of the five languages, Persian's headings on the
right."""

from __future__ import annotations

import io
from pathlib import Path

import pypdf
import pypdfium2 as pdfium
import pytest
from django.core.management import call_command
from django.urls import reverse
from reportlab.pdfbase import pdfmetrics

from tests.tournament.reports.report_support import (
    arabic_letter,
    embedded_fonts,
    glyphs,
    layout_problems,
    lines_of_arabic,
)
from tournament import reports
from tournament.models import Division, Game, Player, Tournament
from tournament.reports import pdf, scripts

KOREAN = ["김민준", "박서연"]
# Maryam Ahmadi and Nushin Rezaei: م starts and ends مریم, ن starts and ends نوشین.
PERSIAN = ["احمدی، مریم", "رضایی، نوشین"]
NAMES = [KOREAN[0], PERSIAN[0], PERSIAN[1], "Müller, Łukasz", KOREAN[1], "Smith, John"]

# Arabic presentation forms (Unicode's FExx block): the joined shapes of a letter.
MEEM = {"isolated": "\ufee1", "final": "\ufee2", "initial": "\ufee3", "medial": "\ufee4"}
NOON = {"isolated": "\ufee5", "final": "\ufee6", "initial": "\ufee7", "medial": "\ufee8"}


@pytest.fixture
def mixed(db: None) -> Division:
    tournament = Tournament.objects.create(name="서울 오픈 · مسابقات تهران", slug="seoul-tehran")
    division = Division.objects.create(tournament=tournament, name="A", planned_rounds=2)
    players = [
        Player.objects.create(division=division, number=n, name=name, rating=1500 + n)
        for n, name in enumerate(NAMES, start=1)
    ]
    for table in range(3):
        Game.objects.create(
            division=division,
            round=1,
            table=table + 1,
            player1=players[2 * table],
            player2=players[2 * table + 1],
            score1=400 + table,
            score2=350,
            first=1,
        )
    return division


def problems(content: bytes) -> list[str]:
    """`layout_problems`, but for joined Arabic letters, whose strokes reach into their
    neighbours' boxes by design (that is what joined means)."""
    return [
        p
        for p in layout_problems(content, pdf.MARGIN)
        if not (
            " overlaps " in p and arabic_letter(p.split("'")[1]) and arabic_letter(p.split("'")[3])
        )
    ]


def test_each_run_of_a_name_is_in_a_font_with_a_real_glyph_for_every_character(
    mixed: Division,
) -> None:
    regular = pdf.fonts().regular
    for name in NAMES:
        for piece, font in scripts.runs(scripts.visual(name), regular):
            cmap = pdfmetrics.getFont(font).face.charToGlyph
            for char in piece:
                assert cmap.get(ord(char), 0) != 0, (name, char, font)  # 0 is .notdef, a box
    hangul = {f for p, f in scripts.runs(KOREAN[0], regular)}
    arabic = {f for p, f in scripts.runs(scripts.visual(PERSIAN[0]), regular)}
    assert hangul == {"SpreadHangul"} and arabic == {"SpreadArabic"}

    content = reports.make(mixed, "standings", "pdf").content

    assert {"SpreadHangul-Regular", "NotoSansArabic-Regular", "DejaVuSans"} <= embedded_fonts(
        content
    )
    assert problems(content) == []


def test_persian_letters_are_joined_and_ordered_right_to_left(mixed: Division) -> None:
    content = reports.make(mixed, "standings", "pdf").content
    # What each drawn glyph stands for (the PDF's ToUnicode map, read by pypdf): the letter's form.
    printed = "".join(page.extract_text() for page in pypdf.PdfReader(io.BytesIO(content)).pages)

    for name in KOREAN:
        assert name in printed
    # Every Persian letter was drawn in a joined form: no unshaped letter of the Arabic block.
    assert not any("\u0620" <= c <= "\u064a" or c in "یکپچژگ" for c in printed)
    # The same letter at the start and at the end of a word draws differently: م of مریم, ن of
    # نوشین, with distinct glyphs of the font.
    for letter in (MEEM, NOON):
        assert letter["initial"] in printed and letter["final"] in printed
    arabic = pdfmetrics.getFont("SpreadArabic").face.charToGlyph
    for letter in (MEEM, NOON):
        start, end = arabic[ord(letter["initial"])], arabic[ord(letter["final"])]
        assert 0 != start != end != 0
    # Right to left: read from the right edge, the letters on the page spell the names.
    lines = lines_of_arabic(content)
    assert "احمدی،مریم" in lines and "رضایی،نوشین" in lines
    assert "مسابقاتتهران" in lines  # the tournament's name in the running header


def test_a_standings_page_renders_with_ink_in_every_name(mixed: Division, tmp_path: Path) -> None:
    content = reports.make(mixed, "standings", "pdf").content
    document = pdfium.PdfDocument(content)
    image = document[0].render(scale=2).to_pil().convert("L")
    image.save(tmp_path / "standings.png")  # looked at: Hangul, joined Persian, DejaVu
    found, (size, *_) = glyphs(content)
    height = size[1]
    for name in (KOREAN[0], KOREAN[1]):
        boxes = [g for g in found if g.char in name]
        assert boxes
        for g in boxes:
            box = [round(v * 2) for v in (g.left, height - g.top, g.right, height - g.bottom)]
            dark = sum(image.crop(box).histogram()[:128])
            assert dark > 10, (g.char, dark)  # a drawn glyph, not an empty box's outline only
    document.close()


def test_a_report_in_persian_aligns_its_headings_right(mixed: Division) -> None:
    width = pdf.page_size("a4")[0]
    for lang, side in (("en", "left"), ("fa", "right")):
        content = reports.make(mixed, "standings", "pdf", lang=lang).content
        found, _ = glyphs(content)
        top = max(g.top for g in found)
        heading = [g for g in found if abs(g.top - top) < 3]
        if side == "right":
            assert abs(max(g.right for g in heading) - (width - pdf.MARGIN)) < 2
        else:
            assert abs(min(g.left for g in heading) - pdf.MARGIN) < 2
        assert problems(content) == []


@pytest.mark.parametrize("lang", reports.LANGUAGES)
def test_a_whole_report_prints_in_each_language(mixed: Division, lang: str) -> None:
    made = reports.make(mixed, "standings", "pdf", lang=lang)
    assert made.content.startswith(b"%PDF")
    assert problems(made.content) == []


def test_a_language_the_reports_do_not_have_is_refused(mixed: Division) -> None:
    with pytest.raises(reports.ReportError, match="'de' is not a language of the reports"):
        reports.make(mixed, "standings", "pdf", lang="de")


def test_the_report_command_and_the_download_take_a_language(
    mixed: Division, tmp_path: Path, client
) -> None:
    out = tmp_path / "standings.pdf"
    call_command(
        "report",
        "seoul-tehran",
        "standings",
        "--division",
        "A",
        "--lang",
        "fa",
        "--output",
        str(out),
    )
    edge = pdf.page_size("a4")[0] - pdf.MARGIN

    def heading_right(content: bytes) -> float:
        found, _ = glyphs(content)
        top = max(g.top for g in found)
        return max(g.right for g in found if abs(g.top - top) < 3)

    assert abs(heading_right(out.read_bytes()) - edge) < 2
    url = reverse("public-report", args=["seoul-tehran", "A", "standings", "pdf"])
    response = client.get(url, {"lang": "fa"})
    assert response.status_code == 200
    assert abs(heading_right(response.content) - edge) < 2
    assert client.get(url, {"lang": "xx"}).status_code == 404
    assert heading_right(client.get(url).content) < edge - 100  # English: from the left


def test_bidirectional_marks_steer_the_order_and_are_not_drawn() -> None:
    line = "سطر \u200e#pragma 8H\u200e است"
    shown = scripts.visual(line)
    assert "\u200e" not in shown
    # Latin and numbers left to right inside the Persian sentence, the Persian words reversed.
    assert "#pragma 8H" in shown
    assert shown.index("#pragma") > shown.index("\ufe96")  # ت of است (final form), drawn first
    assert scripts.visual("Smith, John") == "Smith, John"  # no Arabic script: as it is
