"""A whole event in one file (tsh's archive, Woogles' export), division names in any case,
standings after a round nobody played, and a rating system Spread does not compute."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse

from tournament import reports, services
from tournament.interchange.tsh import read_t, read_t_file
from tournament.models import Division, Tournament
from tournament.reports.data import ratings as ratings_report
from tournament.reports.data import standings as standings_report
from tournament.reports.data import tou_text

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "tsh"
TEST_DATA_A = CORPUS / "jvc56_tournament_pairing_algorithms" / "test_data_a.t.86aeb79"

# Round 1: Alice 400 Bob 300, Carol a bye (+50), Dave a forfeit loss (-50).
# Round 2: Carol 390 Alice 380, Bob 420 Dave 300.
# rrank, as tsh writes it: the rank before round 1 (by rating), then after each round.
A_T = (
    "Alice 1800 2 3; 400 380; rrank 1 1 2\n"
    "Bob 1700 1 4; 300 420; rrank 2 4 3\n"
    "Carol 1600 0 1; 50 390; rrank 3 2 1\n"
    "Dave 1500 0 2; -50 300; rrank 4 3 4\n"
)
B_T = "Eve 1400 2; 350; rrank 1 1\nFay 1300 1; 340; rrank 2 2\n"


def archive(config: str, files: dict[str, str]) -> str:
    """An event as Woogles and tsh write it in one file: the configuration, then each `.t`
    file between `#begin_file name=X.t` and `#end_file name=X.t`."""
    carried = "".join(
        f"#begin_file name={name}\n{text.rstrip(chr(10))}\n#end_file name={name}\n"
        for name, text in files.items()
    )
    return config + carried


def import_file(path: Path, slug: str = "event") -> str:
    out = StringIO()
    call_command("importtsh", str(path), slug=slug, stdout=out)
    return out.getvalue()


def standings(division: str, after_round: int | None = None, slug: str = "event") -> list[dict]:
    out = StringIO()
    options: dict[str, object] = {"division": division, "json": True}
    if after_round is not None:
        options["after_round"] = after_round
    call_command("standings", slug, stdout=out, **options)
    return json.loads(out.getvalue())


@pytest.fixture
def small(db: None) -> Tournament:
    return Tournament.objects.create(name="Spring Open", slug="spring-open")


@pytest.fixture
def woogles(tmp_path: Path) -> Path:
    path = tmp_path / "woogles-open.tsh"
    config = "config event_name = 'Woogles Open'\ndivision A A.t\ndivision B B.t\n"
    path.write_text(archive(config, {"A.t": A_T, "B.t": B_T}))
    return path


# --------------------------------------------------------------------------- archives


@pytest.mark.django_db
def test_an_event_in_one_file_imports_with_every_division_and_player(woogles: Path) -> None:
    out = import_file(woogles)
    assert out == "Imported Woogles Open as event: A (4 players), B (2 players)\n"
    names = {d.name: [p.name for p in d.players.all()] for d in Division.objects.all()}
    assert names == {"A": ["Alice", "Bob", "Carol", "Dave"], "B": ["Eve", "Fay"]}


@pytest.mark.django_db
def test_the_standings_of_an_archive_give_the_ranks_its_t_lines_carry(woogles: Path) -> None:
    import_file(woogles)
    for division, text in (("A", A_T), ("B", B_T)):
        tfile = read_t(text)
        for after in range(1, tfile.rounds + 1):
            ranks = {r["name"]: r["rank"] for r in standings(division, after)}
            assert ranks == {p.name: p.extra_numbers("rrank")[after] for p in tfile.players}
    assert [(r["name"], r["wins"], r["spread"]) for r in standings("A")] == [
        ("Carol", 2, 60),
        ("Alice", 1, 90),
        ("Bob", 1, 20),
        ("Dave", 0, -170),
    ]


@pytest.mark.django_db
def test_an_archive_gives_the_same_tou_as_its_files_side_by_side(
    woogles: Path, tmp_path: Path
) -> None:
    import_file(woogles)
    folder = tmp_path / "apart"
    folder.mkdir()
    (folder / "config.tsh").write_text(
        "config event_name = 'Woogles Open'\ndivision A A.t\ndivision B B.t\n"
    )
    (folder / "A.t").write_text(A_T)
    (folder / "B.t").write_text(B_T)
    import_file(folder / "config.tsh", slug="apart")
    tou = tou_text(Tournament.objects.get(slug="event"))
    assert tou == tou_text(Tournament.objects.get(slug="apart"))
    assert "Carol" in tou and "Dave" in tou


@pytest.mark.django_db
def test_an_archive_exports_as_a_config_and_its_t_files_that_import_again(
    woogles: Path, tmp_path: Path
) -> None:
    import_file(woogles)
    call_command("exporttsh", "event", output=str(tmp_path / "out"), stdout=StringIO())
    config = (tmp_path / "out" / "config.tsh").read_text()
    assert "#begin_file" not in config  # the divisions are their own files now
    assert [p.name for p in read_t_file(tmp_path / "out" / "A.t").players] == [
        "Alice",
        "Bob",
        "Carol",
        "Dave",
    ]
    import_file(tmp_path / "out" / "config.tsh", slug="again")
    for division in ("A", "B"):
        assert standings(division, slug="again") == standings(division)


@pytest.mark.django_db
def test_a_bad_line_inside_an_archive_is_refused_naming_the_archive_and_its_line(
    tmp_path: Path,
) -> None:
    path = tmp_path / "event.tsh"
    path.write_text(archive("division A A.t\n", {"A.t": "Alice 1800 2; 400\nBob 1700 x; 300\n"}))
    with pytest.raises(CommandError) as caught:
        import_file(path)
    assert (
        str(caught.value)
        == "event.tsh (A.t): line 4: not a player line (NAME RATING OPPONENTS; SCORES; …)"
    )
    assert not Tournament.objects.exists()


@pytest.mark.django_db
def test_an_archive_that_does_not_carry_a_divisions_file_reads_it_from_beside_it(
    tmp_path: Path,
) -> None:
    path = tmp_path / "event.tsh"
    path.write_text(archive("division A A.t\ndivision B B.t\n", {"A.t": A_T}))
    with pytest.raises(CommandError, match=r"^cannot read .*B\.t: No such file"):
        import_file(path)
    (tmp_path / "B.t").write_text(B_T)
    assert import_file(path).endswith("A (4 players), B (2 players)\n")


def test_an_unfinished_archive_is_refused_naming_its_last_line(tmp_path: Path) -> None:
    from tournament.interchange.tsh import TshFormatError, read_config

    with pytest.raises(TshFormatError, match="line 3: no '#end_file name=A.t' before the end"):
        read_config("division A A.t\n#begin_file name=A.t\nAlice 1800 ;\n")


@pytest.mark.django_db
def test_a_real_division_carried_in_an_archive_gives_the_ranks_tsh_wrote(tmp_path: Path) -> None:
    if not TEST_DATA_A.is_file():
        pytest.skip(f"the shared tsh corpus is not beside the project ({TEST_DATA_A} is absent)")
    text = TEST_DATA_A.read_bytes().decode("utf-8")
    path = tmp_path / "event.tsh"
    path.write_text(
        archive("config rating_system = 'nsa2008'\ndivision A a.t\n", {"a.t": text}),
        newline="",
    )
    import_file(path)
    tfile = read_t(text)
    checked = 0
    for after in range(1, tfile.rounds + 1):
        ranks = {r["name"]: r["rank"] for r in standings("A", after)}
        for p in tfile.players:
            assert ranks[p.name] == p.extra_numbers("rrank")[after], (p.name, after)
            checked += 1
    assert checked == 24 * 23
    out = StringIO()
    call_command("ratings", "event", division="a", json=True, stdout=out)
    after = {r["name"]: r["rating_after"] for r in json.loads(out.getvalue())}
    assert after == {p.name: p.extra_numbers("newr")[-1] for p in tfile.players}


# --------------------------------------------------------------------------- division names


@pytest.mark.django_db
def test_every_command_finds_a_division_in_any_case(woogles: Path, tmp_path: Path) -> None:
    import_file(woogles)
    assert standings("a") == standings("A")
    lower, upper = StringIO(), StringIO()
    call_command("ratings", "event", division="b", stdout=lower)
    call_command("ratings", "event", division="B", stdout=upper)
    assert lower.getvalue() == upper.getvalue()
    assert lower.getvalue().split()[:2] == ["Eve", "1400"]
    out = StringIO()
    call_command(
        "report", "event", "standings", division="a", output=str(tmp_path / "s.pdf"), stdout=out
    )
    assert out.getvalue().startswith(f"{tmp_path / 's.pdf'}: standings of division A, ")
    call_command("pair", "event", division="a", round_number=3, dry_run=True, stdout=StringIO())


@pytest.mark.django_db
def test_a_division_name_written_exactly_wins_over_one_in_another_case(small: Tournament) -> None:
    lower = Division.objects.create(tournament=small, name="a")
    upper = Division.objects.create(tournament=small, name="A", position=1)
    assert services.division_by_name(small.slug, "a") == lower
    assert services.division_by_name(small.slug, "A") == upper
    with pytest.raises(LookupError, match="no division 'c'"):
        services.division_by_name(small.slug, "c")


@pytest.mark.django_db
def test_the_public_pages_of_a_division_answer_in_any_case(woogles: Path) -> None:
    import_file(woogles)
    client = Client()
    for name in ("a", "A"):
        for url in (
            reverse("standings", args=["event", name]),
            reverse("player", args=["event", name, 1]),
            reverse("crosstable", args=["event", name]),
            reverse("ratings", args=["event", name]),
            reverse("pairings", args=["event", name, 1]),
            f"/t/event/{name}/report/standings.pdf",
        ):
            response = client.get(url)
            assert response.status_code == 200, url
    assert "Carol" in client.get("/t/event/a/").content.decode()
    assert client.get("/t/event/c/").status_code == 404


@pytest.mark.django_db
def test_a_non_ascii_division_name_is_found_in_any_case(small: Tournament) -> None:
    division = Division.objects.create(tournament=small, name="Élite")
    assert services.division_by_name(small.slug, "éLITE") == division


@pytest.mark.django_db
def test_two_divisions_whose_names_differ_only_in_case_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "event.tsh"
    path.write_text(archive("division A A.t\ndivision a B.t\n", {"A.t": A_T, "B.t": B_T}))
    with pytest.raises(CommandError) as caught:
        import_file(path)
    assert str(caught.value) == (
        "event.tsh: line 2: division 'a' is division 'A' of line 1 again "
        "(names are the same in any case)"
    )


# --------------------------------------------------------------------------- after a round


@pytest.mark.django_db
def test_standings_after_a_round_nobody_played_are_refused(woogles: Path) -> None:
    import_file(woogles)
    with pytest.raises(CommandError) as caught:
        standings("A", 3)
    assert str(caught.value) == "--after-round 3: division A has results up to round 2"
    assert [r["rank"] for r in standings("A", 0)] == [1, 2, 3, 4]  # before round 1: allowed
    with pytest.raises(CommandError, match="division B has results up to round 1"):
        call_command("ratings", "event", division="B", after_round=2, stdout=StringIO())


# --------------------------------------------------------------------------- rating systems


@pytest.mark.django_db
def test_a_rating_system_spread_does_not_compute_is_said_everywhere_ratings_show(
    tmp_path: Path,
) -> None:
    path = tmp_path / "event.tsh"
    config = "config rating_system = 'naspa-csw'\ndivision A A.t\n"
    path.write_text(archive(config, {"A.t": A_T}))
    note = (
        "The event asks for naspa-csw ratings, which Spread does not compute: "
        "these are nsa2008 figures, not naspa-csw's."
    )
    assert import_file(path).splitlines() == [
        "Imported tmp_path as event: A (4 players)".replace("tmp_path", tmp_path.name),
        note,
    ]
    division = Division.objects.get()
    assert division.rating_system == "nsa2008"
    assert services.ratings_note(division) == note

    out = StringIO()
    call_command("ratings", "event", division="A", stdout=out)
    assert out.getvalue().splitlines()[0] == note
    err = StringIO()
    call_command("ratings", "event", division="A", json=True, stdout=StringIO(), stderr=err)
    assert err.getvalue().strip() == note

    client = Client()
    assert note.replace("'", "&#x27;") in client.get("/t/event/A/ratings/").content.decode()
    assert note.replace("'", "&#x27;") in client.get("/t/event/A/player/1/").content.decode()

    made = ratings_report(division)
    assert made.tables[0].note == note
    assert [c.header for c in made.tables[0].columns][3] == "After (nsa2008, not naspa-csw)"
    table = standings_report(division).tables[0]
    assert [c.header for c in table.columns][7] == ("New (nsa2008, not naspa-csw)")
    pdf = reports.make(division, "ratings", "pdf", None, "a4").content
    assert pdf.startswith(b"%PDF")


@pytest.mark.django_db
def test_a_rating_system_spread_computes_is_used_without_a_note(tmp_path: Path) -> None:
    path = tmp_path / "event.tsh"
    path.write_text(archive("config rating_system = 'nsa2008'\ndivision A A.t\n", {"A.t": A_T}))
    assert len(import_file(path).splitlines()) == 1
    division = Division.objects.get()
    assert services.ratings_note(division) is None
    assert [c.header for c in ratings_report(division).tables[0].columns][3] == ("After")
