"""TSH's whole prize table through the app: every prize type on the real 60-player event of
the corpus (each winner and figure worked out by hand from its a.t, in the comments), the
prize lines' options read from config.tsh, typed at the desk and written back on export, and
the prize table as a spreadsheet."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import openpyxl
import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tournament import reports
from tournament.exchange import tsh_io
from tournament.interchange import tsh
from tournament.models import Division, Tournament
from tournament.reports import data

MGI = Path(__file__).resolve().parents[4] / "shared" / "corpus" / "tsh" / "domino14_tsh-parser"
needs_corpus = pytest.mark.skipif(
    not (MGI / "a.t").is_file(), reason="the shared tsh corpus (../shared/corpus/tsh) is not here"
)

# One line of each type, as a director would add them to the event's config.tsh.
PRIZE_LINES = """\
prize title 1 A 'Prizes of the day'
prize tuffluck 1 A 'T1' exclusive=luck
prize luckystiff 1 A 'L1' exclusive=luck
prize lowloss 1 A 'LL'
prize roundrecord 1 A 'RR' first=7 last=12
prize brlh 1 A 'BR' first=7 last=12
prize spread 1 A 'SP' first=7
prize overseed 1 A 'OS'
prize overexp 1 A 'OE'
prize highratingchange 1 A 'HR'
prize handicap 1 A 'HC'
prize upset 1 A 'UP'
prize totalteam 1 A 'TT'
prize separator 1 A
prize highwin 1 A 'HW' members=3,4,5 order=1
"""


@pytest.fixture
def mgi(db: None, tmp_path: Path) -> Division:
    """MGI Scrabble Premier League 2022, Match Day One (60 players, 12 rounds, no byes), its
    config.tsh with the prize lines above added; its division B's file stands in as A's."""
    config = (MGI / "config.tsh").read_text(encoding="utf-8") + PRIZE_LINES
    (tmp_path / "config.tsh").write_text(config, encoding="utf-8")
    shutil.copyfile(MGI / "a.t", tmp_path / "a.t")
    shutil.copyfile(MGI / "a.t", tmp_path / "b.t")
    division = tsh_io.import_tsh(tmp_path / "config.tsh", slug="mgi").divisions.get(name="A")
    division.prizes_more_than_one = True  # each type on its own: TSH's default
    division.save()
    return division


def rows(division: Division) -> dict[str, list]:
    table = data.build("prizes", division).tables[0]
    return {str(r[1]): [r[0], r[3], r[7]] for r in table.rows if r[1]}


@needs_corpus
def test_every_prize_type_on_the_real_event_matches_a_hand_count_of_its_t_file(
    mgi: Division,
) -> None:
    found = rows(mgi)
    # Losing margins, the six smallest: Okorodas 5+8+12+14+25+42 = 106 (next: Raji 125).
    assert found["T1"] == ["1st Tuff Luck", "Okorodas, Preye", "106 = 5+8+12+14+25+42"]
    # Winning margins: Oduwole 2+8+19+21+21+32 = 103 (next: Ofidi 122). Not the same player
    # as the Tuff Luck, so exclusive=luck changes nothing.
    assert found["L1"] == ["1st Lucky Stiff", "Oduwole, Olatunde", "103 = 2+8+19+21+21+32"]
    # The lowest losing score of the event: Ikpere's 200 against Igali's 425 in round 2.
    assert found["LL"] == [
        "1st low loss",
        "Ikpere, Sylvanus",
        "the lowest losing score: 200-425 v Igali, Precious, round 2",
    ]
    # Rounds 7-12: Wellington won all six, +540 (Quickpen and Victor 5-1).
    assert found["RR"] == [
        "1st best record, rounds 7–12",
        "Wellington, Jighere",
        "6-0 +540, rounds 7-12",
    ]
    # The lower half after round 6 (ranks 31-60, 30 players): Oduwole, 33rd, went 5-1 +163
    # in rounds 7-12 (Mayuku, 34th, 4-2).
    assert found["BR"] == [
        "1st best record of the lower half, rounds 7–12",
        "Oduwole, Olatunde",
        "5-1 +163, rounds 7-12",
    ]
    # Spread from round 7 on: Wellington +540 (Quickpen +477).
    assert found["SP"] == [
        "1st most spread, from round 7",
        "Wellington, Jighere",
        "+540, rounds 7-12",
    ]
    # Seed by rating against final rank: Ryan (seed 39, 6th), Mayuku (51, 18th) and Eniekebi
    # (54, 21st) all gained 33 places; the better final rank, Ryan's, takes it.
    assert found["OS"] == ["1st most places over seed", "Ryan, Jacob", "+33: seed 39, finished 6th"]
    # Wins over expectation from the pre-event ratings (nsa2008's expectation): Ojior (1221)
    # won 7 against 3.61 expected, +3.39 (Wellington +2.96). tsh's own excwins field, from its
    # rating iterations, also puts Ojior first (4.83).
    assert found["OE"] == [
        "1st most wins over expectation",
        "Ojior, Osikhena",
        "+3.39 = 7 wins - 3.61 expected",
    ]
    # New rating minus pre-event rating, by Spread's rating engine: Ojior 1221 to 1364, +143.
    # tsh's own newr field after round 12 has him at 1354 (+133), also the most (Oguntade
    # +75 there): the engines differ by ten points on him, not on the winner.
    assert found["HR"] == ["1st highest rating gain", "Ojior, Osikhena", "+143 = 1221 to 1364"]
    # No handicap fields: two points a win, Wellington's 10 wins.
    assert found["HC"] == ["1st handicap", "Wellington, Jighere", "20 = 0 + 2x10 wins"]
    # Ojior (1221) beat Olaribigbe (1638) in round 6: 417 points (next: his 378 over Doko).
    assert found["UP"] == [
        "1st biggest upset",
        "Ojior, Osikhena",
        "417 = 1221 beat 1638 (Olaribigbe, Hakeem), round 6",
    ]
    # Teams of five: Brainiacs 38-22, +1662 in all: 7.6-4.4 +332.4 a player (Airpop Alpha
    # 7.2-4.8).
    assert found["TT"] == [
        "1st best team",
        "Brainiacs",
        "Brainiacs: 7.60-4.40 +332.4 a player, 5 players",
    ]


@needs_corpus
def test_order_and_members_and_layout_lines_on_the_real_event(mgi: Division) -> None:
    table = data.build("prizes", mgi).tables[0]
    labels = [r[0] for r in table.rows]
    # order=1 puts the high win among players 3-5 first (level with 1st place, it comes after
    # it in the order of award), the separator before it with it; the title stays before the
    # prize after it.
    assert labels[:4] == ["1st place", "", "1st high win", "2nd place"]
    assert labels.index("Prizes of the day") == labels.index("1st Tuff Luck") - 1
    # Players 3, 4, 5 (Etim, Igbinadolor, Olaribigbe): Etim's 615 in round 9 is the highest
    # win among them.
    high = next(r for r in table.rows if r[0] == "1st high win")
    assert high[3] == "Etim, Nsikak" and high[7].startswith("the highest winning score: 615-")
    assert high[1] == "HW"


@needs_corpus
def test_the_options_are_read_from_config_tsh_and_written_back(
    mgi: Division, tmp_path: Path
) -> None:
    by_value = {p["value"]: p for p in mgi.prizes}
    assert by_value["T1"] == {
        "kind": "tuffluck",
        "place": 1,
        "value": "T1",
        "note": "",
        "exclusive": "luck",
    }
    assert by_value["HW"]["members"] == ["3", "4", "5"] and by_value["HW"]["order"] == 1
    assert by_value["RR"]["first"] == 7 and by_value["RR"]["last"] == 12
    mgi.prizes = [
        *mgi.prizes,
        {"kind": "tuffluck", "place": 2, "value": "T2", "note": "", "rounds": 5},
    ]
    mgi.save()
    written = tsh_io.export_tsh(mgi.tournament, tmp_path / "out")
    text = next(p for p in written if p.name == "config.tsh").read_text()
    assert "prize roundrecord 1 A 'RR' first=7 last=12\n" in text
    assert "prize highwin 1 A 'HW' members=3,4,5 order=1\n" in text
    assert "prize separator 1 A\n" in text
    assert "prize tuffluck 2 A 'T2' rounds=5\n" in text
    assert tsh.read_config(text).prizes("A") == mgi.prizes


@needs_corpus
def test_the_prize_table_as_a_spreadsheet_one_row_a_prize(mgi: Division) -> None:
    book = openpyxl.load_workbook(io.BytesIO(reports.make(mgi, "prizes", "xlsx").content))
    sheet = book["Prizes"]
    header = [c.value for c in sheet[1]]
    assert header == ["Prize", "Value", "No.", "Winner", "W", "L", "Spread", "Figure"]
    got = {r[1]: r for r in ([c.value for c in row] for row in sheet.iter_rows(min_row=2))}
    # 1st place: Wellington, player 36, 10-2 +747 (the hand count of a.t).
    assert got["1,500,000+TROPHY"] == [
        "1st place",
        "1,500,000+TROPHY",
        36,
        "Wellington, Jighere",
        10,
        2,
        747,
        None,
    ]
    assert got["T1"][3:] == ["Okorodas, Preye", None, None, None, "106 = 5+8+12+14+25+42"]
    assert got["TT"][3] == "Brainiacs"


@needs_corpus
def test_a_memberfile_is_refused_with_a_note_and_the_desk_types_every_option(
    mgi: Division, director: User, client_for
) -> None:
    played = mgi
    played.tournament.directors.add(director)
    desk: Client = client_for(director)
    url = reverse("desk-prizes", args=[played.tournament.slug, played.pk])
    form = {
        "prizes": "tuffluck 1 $50 rounds=2 exclusive=luck order=2\n"
        "highwin 1 mug memberfile=kids.txt\nnote 1 Luck\n",
        "class_bands": "",
        "team_order": "wins",
    }
    assert desk.post(url, form).status_code == 302
    played.refresh_from_db()
    assert played.prizes == [
        {
            "kind": "tuffluck",
            "place": 1,
            "value": "$50",
            "note": "",
            "rounds": 2,
            "exclusive": "luck",
            "order": 2,
        },
        {"kind": "highwin", "place": 1, "value": "mug", "note": "", "memberfile": "kids.txt"},
        {"kind": "note", "place": 1, "value": "Luck", "note": ""},
    ]
    page = desk.get(url).content.decode()
    assert "tuffluck 1 $50 rounds=2 exclusive=luck order=2" in page
    refused = next(r for r in data.build("prizes", played).tables[0].rows if r[1] == "mug")
    assert refused[3] == ""
    assert refused[7] == (
        "memberfile= is not read (a file named in config.tsh): list the players with members="
    )
    bad = desk.post(url, {**form, "prizes": "spread 1 $5 first=0\n"})
    assert bad.status_code == 400
    assert (
        "line 1: first=, last=, rounds= and order= take a whole number from 1"
        in bad.content.decode()
    )


@needs_corpus
def test_the_tuffluck_and_overseed_reports_list_the_ten_best(mgi: Division) -> None:
    table = data.build("tuffluck", mgi).tables[0]
    # The ten smallest sums of six losing margins, by hand from a.t: 106, 125, 153, 158,
    # 227, 234, 277, 295, 302, 316 (the 11th, Esan's 323, is not level with the tenth).
    assert [(r[0], r[2], int(str(r[3]).split(" ")[0])) for r in table.rows] == [
        (1, "Okorodas, Preye", 106),
        (2, "Raji, Kazeem", 125),
        (3, "Curtis, John", 153),
        (4, "Agbajor, Bawo", 158),
        (5, "Jimoh, Saheed", 227),
        (6, "Ikpere, Sylvanus", 234),
        (7, "Edewor, Bobor", 277),
        (8, "Alli, Oyebola", 295),
        (9, "Idahosa, Bright", 302),
        (10, "Aiyedun, John", 316),
    ]
    table = data.build("overseed", mgi).tables[0]
    # Four gained 33 places (seeds 39, 51, 54, 60; finished 6th, 18th, 21st, 27th): the
    # better final rank first; then Oguntade +31 (seed 57, 26th).
    assert [r[3] for r in table.rows[:5]] == [
        "+33: seed 39, finished 6th",
        "+33: seed 51, finished 18th",
        "+33: seed 54, finished 21st",
        "+33: seed 60, finished 27th",
        "+31: seed 57, finished 26th",
    ]
    assert [r[0] for r in table.rows] == list(range(1, 11))
    book = openpyxl.load_workbook(io.BytesIO(reports.make(mgi, "luckystiff", "xlsx").content))
    first = [c.value for c in book["Lucky Stiff"][2]]
    assert first == [1, first[1], "Oduwole, Olatunde", "103 = 2+8+19+21+21+32"]


@needs_corpus
def test_the_rating_change_upsets_and_performance_reports(mgi: Division) -> None:
    change = data.build("highratingchange", mgi).tables[0].rows
    assert change[0][2:] == ["Ojior, Osikhena", "+143 = 1221 to 1364"]
    upsets = data.build("upsets", mgi).tables[0].rows
    # Round 6: Ojior (1221) beat Olaribigbe (1638), 417 points.
    assert upsets[0][:6] == [6, 417, "Ojior, Osikhena", 1221, "Olaribigbe, Hakeem", 1638]
    perf = data.build("performance", mgi).tables[0]
    top = perf.rows[0]
    # Wellington won 10 of 12 against opponents averaging 1572.7: the nsa2008 expectation
    # equals 10 wins at 2088.73 (bisection by hand), which the integer search ends at 2088.
    assert top[1:] == ["Wellington, Jighere", 1685, 12, 10, 1573, 2088]


@needs_corpus
def test_the_prize_reports_download_from_the_desk_as_pdf_and_xlsx(
    mgi: Division, director: User, client_for
) -> None:
    from tests.tournament.reports.report_support import pdf_lines

    mgi.tournament.directors.add(director)
    desk: Client = client_for(director)
    for kind in (
        "prizes",
        "tuffluck",
        "luckystiff",
        "overseed",
        "highratingchange",
        "upsets",
        "performance",
    ):
        for fmt in ("pdf", "xlsx"):
            url = reverse("desk-report", args=["mgi", mgi.pk, kind, fmt])
            response = desk.get(url)
            assert response.status_code == 200, (kind, fmt)
            assert response["Content-Disposition"] == (
                f'attachment; filename="mgi-a-{kind}-r12.{fmt}"'
            )
    lines = pdf_lines(
        desk.get(reverse("desk-report", args=["mgi", mgi.pk, "tuffluck", "pdf"])).content
    )
    assert (
        "1 "
        + str(mgi.players.get(name="Okorodas, Preye").number)
        + (" Okorodas, Preye 106 = 5+8+12+14+25+42")
        in lines
    )
    dashboard = desk.get(reverse("desk-dashboard", args=["mgi"])).content.decode()
    assert reverse("desk-report", args=["mgi", mgi.pk, "performance", "xlsx"]) in dashboard


@needs_corpus
def test_a_prize_line_with_a_bad_number_refuses_the_import_in_one_line(
    db: None, tmp_path: Path
) -> None:
    config = (MGI / "config.tsh").read_text(encoding="utf-8") + "prize spread 1 A x first=two\n"
    (tmp_path / "config.tsh").write_text(config, encoding="utf-8")
    shutil.copyfile(MGI / "a.t", tmp_path / "a.t")
    shutil.copyfile(MGI / "a.t", tmp_path / "b.t")
    lines = config.count("\n")
    with pytest.raises(tsh_io.ImportError_) as refused:
        tsh_io.import_tsh(tmp_path / "config.tsh", slug="bad")
    assert str(refused.value) == (
        f"config.tsh: line {lines}: prize: first=two should be a whole number from 1"
    )
    assert not Tournament.objects.filter(slug="bad").exists()
