"""The PDFs looked at as a person would: rendered by PDFium, no glyph stands on another, none
goes past the margins, no ink outside them; names in any script print, long ones are shrunk or
wrapped, never cut."""

from __future__ import annotations

import pytest
from reportlab.pdfbase import pdfmetrics

from tests.tournament.reports.report_support import ink_outside_margins, layout_problems, pdf_text
from tournament import reports
from tournament.models import Division, Game, Player, Tournament
from tournament.reports import pdf, scripts
from tournament.reports.data import Column

KINDS = ["pairings", "standings", "scorecards", "crosstable", "ratings", "prizes"]


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("kind", KINDS)
def test_nothing_overlaps_or_passes_the_margins_in_any_report_of_the_real_event(
    mgi: Division, kind: str, paper: str
) -> None:
    content = reports.make(mgi, kind, "pdf", paper=paper).content
    assert layout_problems(content, pdf.MARGIN) == []


@pytest.mark.parametrize("kind", ["standings", "crosstable", "scorecards"])
def test_the_rendered_pages_have_no_ink_outside_the_margins(mgi: Division, kind: str) -> None:
    content = reports.make(mgi, kind, "pdf").content
    assert ink_outside_margins(content, pdf.MARGIN) == []


NAMES = [
    "Müller, Łukasz",
    "Шостакович, Дмитрий",
    "Παπαδόπουλος, Αλέξανδρος",
    "Ng, Sørina Ðorđević-Çelik",
    # Long enough to need shrinking and wrapping in any column.
    "Wolfeschlegelsteinhausenbergerdorff, Hubert Blaine Maximilian Alexander Konstantin "
    "Bartholomew Theodore",
]


@pytest.fixture
def world(db: None) -> Division:
    tournament = Tournament.objects.create(name="Open international de Montréal", slug="mtl")
    division = Division.objects.create(tournament=tournament, name="Élite", planned_rounds=3)
    players = [
        Player.objects.create(division=division, number=n, name=name, rating=1500 + n)
        for n, name in enumerate(NAMES, start=1)
    ]
    for r in (1, 2):
        order = players[r - 1 :] + players[: r - 1]
        for t in range(2):
            a, b = order[2 * t], order[2 * t + 1]
            Game.objects.create(
                division=division,
                round=r,
                table=t + 1,
                player1=a,
                player2=b,
                score1=400 + t,
                score2=350 - r,
                first=1,
            )
        Game.objects.create(division=division, round=r, player1=order[4], score1=50, kind="bye")
    return division


@pytest.mark.parametrize("kind", KINDS[:-1])
def test_names_in_any_script_print_whole_and_read_back(world: Division, kind: str) -> None:
    content = reports.make(world, kind, "pdf").content
    text = " ".join(pdf_text(content).split())
    for name in NAMES[:4]:
        assert name in text
    # The long name may be wrapped: every word of it is there, none is cut.
    for word in NAMES[4].replace(",", "").split():
        assert word in text
    assert "Open international de Montréal" in text and "Division Élite" in text
    assert layout_problems(content, pdf.MARGIN) == []


def test_the_body_text_is_dejavu_sans_from_the_projects_own_folder() -> None:
    f = pdf.fonts()
    assert (f.regular, f.bold) == ("SpreadSans", "SpreadSans-Bold")
    folder = scripts.FONT_DIR / "dejavu"
    assert pdfmetrics.getFont(f.regular).face.filename == str(folder / "DejaVuSans.ttf")
    assert pdfmetrics.getFont(f.bold).face.filename == str(folder / "DejaVuSans-Bold.ttf")


def test_a_name_too_long_for_its_column_is_shrunk_then_wrapped_never_cut() -> None:
    f = pdf.fonts()
    short = pdf.fit("Ada Quill", f.regular, 9, 100)
    assert short == pdf.Fitted(9, ("Ada Quill",))
    shrunk = pdf.fit("Bartholomew Wolfeschlegel", f.regular, 9, 100)
    assert pdf.SMALLEST * 9 <= shrunk.size < 9 and len(shrunk.lines) == 1
    wrapped = pdf.fit(NAMES[4], f.regular, 9, 100)
    assert len(wrapped.lines) > 1
    assert "".join(wrapped.lines).replace(" ", "") == NAMES[4].replace(" ", "")
    for line in wrapped.lines:
        assert pdf.width(line, f.regular, wrapped.size) <= 100


def test_a_table_too_wide_for_the_page_is_sliced_with_its_key_columns_repeated() -> None:
    columns = [Column("Name", flexible=True, key=True)] + [Column(f"R{r}") for r in range(1, 41)]
    rows = [["Ada Quill"] + ["W 12\n450-400"] * 40]
    with pytest.raises(pdf.TooWide):
        pdf.column_widths(columns, [c.header for c in columns], rows, 500, strict=True)
