"""Rating classes, class standings, the prize report and Gibsonized players through the app:
on the real 23-round event whose .t file gives each player's class, and on small divisions."""

from __future__ import annotations

import io
import re
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
from tournament.models import Division, Game, Player, Tournament
from tournament.reports import data
from tournament.results import services as results
from tournament.standings import prizes
from tournament.standings.gibson import gibsonized
from tournament.standings.stamps import read as read_stamps

JVC56 = (
    Path(__file__).resolve().parents[4]
    / "shared"
    / "corpus"
    / "tsh"
    / "jvc56_tournament_pairing_algorithms"
)
needs_corpus = pytest.mark.skipif(
    not JVC56.is_dir(), reason="the shared tsh corpus (../shared/corpus/tsh) is not here"
)


@needs_corpus
@pytest.mark.django_db
def test_class_standings_of_a_real_event_follow_the_t_files_class_and_final_rank(
    tmp_path: Path,
) -> None:
    target = tmp_path / "a.t"
    shutil.copyfile(JVC56 / "a.t", target)
    division = tsh_io.import_tsh(target, slug="event", name="Event").divisions.get()
    # The .t file, read here: each player's class and tsh's rank after the last round.
    expected: dict[str, list[str]] = {}
    finals = []
    for line in target.read_text().splitlines():
        name = re.match(r"^(.*?)\s+\d+\s", line).group(1).strip()  # type: ignore[union-attr]
        klass = re.search(r"; class ([^;\s]+)", line)
        rrank = re.search(r"; rrank ([\d ]+)", line)
        if rrank and len(rrank.group(1).split()) == 24:
            finals.append((int(rrank.group(1).split()[-1]), name, klass.group(1) if klass else ""))
    for _rank, name, klass in sorted(finals):
        expected.setdefault(klass, []).append(name)
    assert len(expected) > 1  # more than one class in this event

    rows = prizes.class_standings(division, stamps=read_stamps(division))
    for klass, names in expected.items():
        mine = [c for c in rows if c.player_class == klass and c.row.name in names]
        assert [c.row.name for c in mine] == names
        assert [c.class_rank for c in mine] == list(range(1, len(names) + 1))

    page = Client().get(reverse("standings", args=["event", division.name])).content.decode()
    assert "Class standings" in page and f"Class <bdi>{sorted(expected)[0]}</bdi>" in page
    book = openpyxl.load_workbook(io.BytesIO(reports.make(division, "standings", "xlsx").content))
    sheet = book["Standings"]
    header = [c.value for c in sheet[1]]
    assert header[-2:] == ["Class", "Cl. rank"]
    first = [c.value for c in sheet[2]]
    top_class = next(k for k, names in expected.items() if first[2] in names)
    assert first[-2:] == [top_class, 1]


@pytest.fixture
def played(division: Division, director: User) -> Division:
    """Ada 451–345 Ben, Cora 300–420 Eli, Gus 390–380 Fay; Hal a bye. Ratings give classes."""
    for line in ("1 451 2 345", "3 300 4 420", "6 390 5 380", "7 bye"):
        results.enter_line(division, 1, line, director)
    ratings = {1: 1900, 2: 1850, 3: 1500, 4: 1450, 5: 1400, 6: 1000, 7: 900}
    for p in division.players.all():
        Player.objects.filter(pk=p.pk).update(rating=ratings[p.number])
    division.class_bands = [["A", 1800], ["B", 1400], ["C", 0]]
    division.save()
    return division


def _prize_rows(division: Division) -> list[list]:
    book = openpyxl.load_workbook(io.BytesIO(reports.make(division, "prizes", "xlsx").content))
    return [[c.value for c in row] for row in book["Prizes"].iter_rows(min_row=2)]


def test_the_prize_report_awards_class_prizes_one_prize_a_player(played: Division) -> None:
    played.prizes = [
        {"kind": "rank", "place": 1, "value": "$100", "note": "", "class": "B"},
        {"kind": "rank", "place": 1, "value": "$300", "note": ""},
        {"kind": "highgame", "place": 1, "value": "$20", "note": ""},
        {"kind": "rank", "place": 1, "value": "$50", "note": "", "class": "C"},
        {"kind": "rank", "place": 2, "value": "$200", "note": ""},
    ]
    played.save()
    # Standings: Eli +120 (class B), Ada +106 (A), Hal's bye +50 (C), Gus +10 (C), Fay -10
    # (B), Ben -106 (A), Cora -120 (B).
    report = data.build("prizes", played)
    rows = [[r[0], r[1], r[3], r[7]] for r in report.tables[0].rows]
    # Places first (Eli, Ada); class B's 1st passes over Eli to Fay, class C's goes to Hal; the
    # high game passes over Ada's 451 and Eli's 420 to Gus's 390.
    assert rows == [
        ["1st place", "$300", "Moss, Eli", ""],
        ["2nd place", "$200", "Quill, Ada", ""],
        ["1st place, class B", "$100", "North, Fay", "rank 5 overall, class B"],
        ["1st place, class C", "$50", "Reed, Hal", "rank 3 overall, class C"],
        ["1st high game", "$20", "Stone, Gus", "the highest score: 390-380 v North, Fay, round 1"],
    ]
    assert report.heading.endswith("one prize a player")
    played.prizes_more_than_one = True
    played.save()
    rows = [[r[0], r[3]] for r in data.build("prizes", played).tables[0].rows]
    assert rows[2:] == [
        ["1st place, class B", "Moss, Eli"],
        ["1st place, class C", "Reed, Hal"],
        ["1st high game", "Quill, Ada"],
    ]


def test_prize_lines_with_a_class_are_read_and_written_back(
    played: Division, tmp_path: Path
) -> None:
    config = tsh.read_config(
        "division A a.t\nprize rank 1 A '$100' class=B\nprize highwin 1 A $5\n"
    )
    assert config.prizes("A") == [
        {"kind": "rank", "place": 1, "value": "$100", "note": "", "class": "B"},
        {"kind": "highwin", "place": 1, "value": "$5", "note": ""},
    ]
    played.prizes = config.prizes("A") + [{"kind": "lowwin", "place": 1, "value": "mug"}]
    played.save()
    written = tsh_io.export_tsh(played.tournament, tmp_path / "out")
    text = next(p for p in written if p.name == "config.tsh").read_text()
    assert "prize rank 1 A '$100' class=B\nprize highwin 1 A '$5'\nprize lowwin 1 A 'mug'\n" in text
    assert tsh.read_config(text).prizes("A")[0]["class"] == "B"


def test_tsh_classes_line_gives_classes_by_rating_order_to_standings_and_prizes(
    played: Division, tmp_path: Path
) -> None:
    played.class_bands = []
    played.rating_classes = 3
    played.prizes = [
        {"kind": "rank", "place": 1, "value": "$300", "note": ""},
        {"kind": "rank", "place": 2, "value": "$200", "note": ""},
        {"kind": "rank", "place": 1, "value": "$100", "note": "", "class": "B"},
        {"kind": "rank", "place": 1, "value": "$50", "note": "", "class": "C"},
    ]
    played.save()
    # Ratings 1900 Ada, 1850 Ben, 1500 Cora, 1450 Eli, 1400 Fay, 1000 Gus, 900 Hal: tsh puts
    # Fay, Gus, Hal in C, Eli and Cora in B, Ben and Ada in A.
    rows = prizes.class_standings(played, stamps=read_stamps(played))
    assert [(c.row.name, c.player_class, c.class_rank) for c in rows] == [
        ("Moss, Eli", "B", 1),
        ("Quill, Ada", "A", 1),
        ("Reed, Hal", "C", 1),
        ("Stone, Gus", "C", 2),
        ("North, Fay", "C", 3),
        ("Crane, Ben", "A", 2),
        ("Vale, Cora", "B", 2),
    ]
    awarded = [[r[0], r[3]] for r in data.build("prizes", played).tables[0].rows]
    assert awarded == [
        ["1st place", "Moss, Eli"],
        ["2nd place", "Quill, Ada"],
        ["1st place, class B", "Vale, Cora"],
        ["1st place, class C", "Reed, Hal"],
    ]
    # Rating bands, when the division has them, come first.
    played.class_bands = [["A", 1800], ["B", 0]]
    played.save()
    assert {c.player_class for c in prizes.class_standings(played, stamps=read_stamps(played))} == {
        "A",
        "B",
    }
    played.class_bands = []
    played.save()

    # The line round trip: written after the division line, replaced when changed.
    written = tsh_io.export_tsh(played.tournament, tmp_path / "out")
    config_path = next(p for p in written if p.name == "config.tsh")
    text = config_path.read_text()
    assert "classes A 3\n" in text and tsh.read_config(text).classes("A") == 3
    again = tsh_io.import_tsh(config_path, slug="again").divisions.get()
    assert again.rating_classes == 3
    assert [c.player_class for c in prizes.class_standings(again, stamps=read_stamps(again))] == [
        c.player_class for c in rows
    ]
    assert tsh.with_classes(text, {"A": 2}).count("classes A") == 1
    assert "classes A 2\n" in tsh.with_classes(text, {"A": 2})
    assert "classes A" not in tsh.with_classes(text, {"A": 0})


@pytest.mark.django_db
def test_a_gibsonized_leader_is_marked_with_the_rule(director: User) -> None:
    tournament = Tournament.objects.create(name="Gibson Open", slug="gibson")
    division = Division.objects.create(tournament=tournament, name="A", planned_rounds=3)
    for n, name in enumerate(["Ann", "Bea", "Cal", "Dan"], start=1):
        Player.objects.create(division=division, number=n, name=name, rating=1500 - n)
    p = {x.number: x for x in division.players.all()}
    for rnd, one, two, s1, s2 in ((1, 1, 2, 800, 200), (1, 3, 4, 400, 300), (2, 1, 3, 800, 200),
                                  (2, 2, 4, 500, 400)):  # fmt: skip
        Game.objects.create(
            division=division, round=rnd, player1=p[one], player2=p[two], score1=s1, score2=s2
        )
    found = gibsonized(division, stamps=read_stamps(division))
    assert [(g.player.name, g.place) for g in found] == [("Ann", 1)]
    assert found[0].rule.startswith("Gibsonized after round 2: no one below can catch them for 1st")
    assert gibsonized(division, after=1, stamps=read_stamps(division)) == []
    page = Client().get(reverse("standings", args=["gibson", "A"])).content.decode()
    assert "<strong><bdi>Ann</bdi></strong> (G): Gibsonized after round 2" in page
    table = data.build("standings", division).tables[0]
    assert table.columns[-1].header == "Gibson" and table.rows[0][-1] == "1st settled"


def test_the_desk_edits_prizes_and_classes_and_lists_them_in_award_order(
    played: Division, desk: Client, client_for, stranger: User
) -> None:
    url = reverse("desk-prizes", args=[played.tournament.slug, played.pk])
    form = {
        "prizes": "highgame 1 $20\nrank 1 $100 class=B\nrank 1 '$300'\n",
        "class_bands": "A 1800\nB 1400\nC 0\n",
        "team_order": "spread",
    }
    assert desk.post(url, form).status_code == 302
    played.refresh_from_db()
    assert played.prizes == [
        {"kind": "highgame", "place": 1, "note": "", "value": "$20"},
        {"kind": "rank", "place": 1, "note": "", "class": "B", "value": "$100"},
        {"kind": "rank", "place": 1, "note": "", "value": "$300"},
    ]
    assert (played.prizes_more_than_one, played.team_order) == (False, "spread")
    page = desk.get(url).content.decode()
    # Award order: 1st place (Eli), class B (Fay: Eli has a prize), then the high game (Ada).
    assert page.index("Moss, Eli") < page.index("North, Fay") < page.index("Quill, Ada")
    assert "rank 1 $100 class=B" in page

    bad = desk.post(
        url, {"prizes": "rank 1 $300\nrank one $5\n", "class_bands": "", "team_order": "wins"}
    )
    assert bad.status_code == 400
    assert "line 2: the place &#x27;one&#x27; is not a number from 1" in bad.content.decode()
    bad = desk.post(url, {"prizes": "", "class_bands": "A 1800\nA 1500", "team_order": "wins"})
    assert "line 2: class A is given twice" in bad.content.decode()
    played.refresh_from_db()
    assert len(played.prizes) == 3  # nothing saved from a refused form
    assert client_for(stranger).post(url, form).status_code == 403


@pytest.mark.django_db
def test_a_4_team_round_robin_is_paired_and_its_team_standings_are_shown() -> None:
    from tournament.pairing import services as pairing_services

    tournament = Tournament.objects.create(name="Team Cup", slug="team-cup")
    division = Division.objects.create(
        tournament=tournament,
        name="A",
        planned_rounds=6,
        avoid_same="team",
        pairing_schedule=[{"rounds": "1-6", "system": "teamrr"}],
    )
    teams = ["Lions", "Owls", "Foxes", "Crows"]
    for n in range(1, 9):
        Player.objects.create(
            division=division, number=n, name=f"P{n}", rating=2000 - n, team=teams[(n - 1) % 4]
        )
    plan = pairing_services.plan(division, 1)
    by_id = {p.pk: p for p in division.players.all()}
    met = set()
    for pairing in plan.result.pairings:
        one, two = by_id[pairing.first], by_id[pairing.second]
        assert one.team != two.team
        met.add(frozenset((one.team, two.team)))
        # The Lions win every game by 100, the Owls theirs by 50; Foxes beat Crows by 10.
        order = {"Lions": 0, "Owls": 1, "Foxes": 2, "Crows": 3}
        winner, loser = sorted((one, two), key=lambda p: order[p.team])
        margin = {"Lions": 100, "Owls": 50, "Foxes": 10}[winner.team]
        Game.objects.create(
            division=division, round=1, player1=winner, player2=loser,
            score1=400 + margin, score2=400,
        )  # fmt: skip
    assert len(met) == 2  # two team matches, each team's players against one other team
    page = Client().get(reverse("standings", args=["team-cup", "A"])).content.decode()
    assert "Team standings" in page
    text = re.sub(r"<[^>]+>", " ", page[page.index('id="teams"') :])
    rows = re.findall(r"(\d) \s*(Lions|Owls|Foxes|Crows) \s*2 \s*(\d) \s*(\d) \s*(-?\d+)", text)
    # The Lions won both their games by 100: first on wins, 2-0 +200; every team is listed.
    assert rows[0] == ("1", "Lions", "2", "0", "200")
    assert sorted(r[1] for r in rows) == sorted(teams)


CORPUS = JVC56.parent


@pytest.mark.skipif(not CORPUS.is_dir(), reason="the shared tsh corpus is not here")
@pytest.mark.django_db
def test_the_corpus_events_prize_lines_are_imported_and_exported_round_trip(
    tmp_path: Path,
) -> None:
    # The Lagos event: ten `prize rank` lines over two divisions, values with commas.
    lagos = (CORPUS / "domino14_tsh-parser" / "config.tsh").read_text()
    config = tsh.read_config(lagos)
    assert [(p["place"], p["value"]) for p in config.prizes("A")] == [
        (1, "1,500,000+TROPHY"), (2, "800,000"), (3, "500,000"), (4, "300,000"), (5, "200,000")
    ]  # fmt: skip
    assert [p["value"] for p in config.prizes("B")] == [
        "1,000,000", "500,000", "300,000", "200,000", "100,000"
    ]  # fmt: skip
    assert config.classes("A") == 0  # its `classes a 2` line is a comment
    rewritten = tsh.with_prizes(lagos, {"A": config.prizes("A")})
    assert tsh.read_config(rewritten).prizes("A") == config.prizes("A")
    assert tsh.read_config(rewritten).prizes("B") == config.prizes("B")

    # The Sri Lankan event, imported whole: its prizes, then written back as they were.
    folder = tmp_path / "event"
    folder.mkdir()
    source = CORPUS / "e4c5_team_pairings"
    text = (source / "tournament1_config.tsh").read_text(encoding="utf-8-sig")
    (folder / "config.tsh").write_text(text)
    shutil.copyfile(source / "tournament1_a.t", folder / "a.t")
    division = tsh_io.import_tsh(folder / "config.tsh", slug="lanka").divisions.get()
    expected = tsh.read_config(text).prizes("a")
    assert division.prizes == expected and len(expected) == text.count("\nprize ") == 13
    assert expected[0] == {"kind": "rank", "place": 1, "value": "25pts", "note": ""}
    out = tsh_io.export_tsh(division.tournament, tmp_path / "out")
    exported = next(p for p in out if p.name == "config.tsh").read_text()
    prize_lines = [line for line in text.splitlines() if line.startswith("prize ")]
    assert [line for line in exported.splitlines() if line.startswith("prize ")] == prize_lines
    # Changed at the desk: the new prizes are written, and read back the same.
    division.prizes = expected[:2] + [{"kind": "highgame", "place": 1, "value": "5pts", "note": ""}]
    division.save()
    out = tsh_io.export_tsh(division.tournament, tmp_path / "again")
    exported = next(p for p in out if p.name == "config.tsh").read_text()
    assert tsh.read_config(exported).prizes("a") == division.prizes


def test_the_desk_sets_classes_by_rating_order(played: Division, desk: Client) -> None:
    url = reverse("desk-prizes", args=[played.tournament.slug, played.pk])
    form = {"prizes": "", "class_bands": "", "rating_classes": "3", "team_order": "wins"}
    assert desk.post(url, form).status_code == 302
    played.refresh_from_db()
    assert (played.class_bands, played.rating_classes) == ([], 3)
    assert "Classes by rating order" in desk.get(url).content.decode()
    page = Client().get(reverse("standings", args=[played.tournament.slug, played.name]))
    assert "Class standings" in page.content.decode()
    bad = desk.post(url, {**form, "rating_classes": "27"})
    assert bad.status_code == 400
    played.refresh_from_db()
    assert played.rating_classes == 3
