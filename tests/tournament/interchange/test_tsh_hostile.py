"""Hostile tsh files: each is refused in one line naming the file and the line, or imported so
that every public page and report works. Also names exporttsh must write so that they come
back, and a database that fails in the middle of an import."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import OperationalError
from django.test import Client
from django.urls import reverse

from tournament import reports
from tournament.interchange.tsh import TshFormatError, read_config, read_t, read_t_file
from tournament.models import Division, Game, Player, Tournament

T_FILE = (
    "Quill, Ada             1850 2 3; 400 380\n"
    "Crane, Ben             1720 1 4; 300 420\n"
    "Vale, Cora             1640 0 1; 50 390\n"
    "Moss, Eli              1580 0 2; -50 300\n"
)


def write_event(folder: Path, config: str, t_file: str = T_FILE) -> Path:
    (folder / "a.t").write_text(t_file, encoding="utf-8")
    (folder / "config.tsh").write_text(config, encoding="utf-8")
    return folder / "config.tsh"


def import_tsh(path: Path) -> str:
    out = StringIO()
    call_command("importtsh", str(path), slug="event", stdout=out)
    return out.getvalue()


def refused(path: Path) -> str:
    with pytest.raises(CommandError) as caught:
        import_tsh(path)
    assert not Tournament.objects.exists()  # nothing saved
    message = str(caught.value)
    assert "\n" not in message
    return message


def assert_pages_answer(division: str = "A") -> None:
    """The public standings, a player's page, the crosstable, the ratings page and a PDF."""
    client = Client()
    for url in (
        reverse("standings", args=["event", division]),
        reverse("player", args=["event", division, 1]),
        reverse("crosstable", args=["event", division]),
        reverse("ratings", args=["event", division]),
        reverse("pairings", args=["event", division, 1]),
        reverse(
            "public-report",
            kwargs={"slug": "event", "division": division, "kind": "standings", "fmt": "pdf"},
        ),
    ):
        response = client.get(url)
        assert response.status_code == 200, url


# --------------------------------------------------------------------------- imported


@pytest.mark.django_db
def test_a_400_digit_show_inactive_is_read_as_true(tmp_path: Path) -> None:
    # Read through a float it was infinity, and int(infinity) raised OverflowError.
    withdrawn = T_FILE + "Stone, Gus             1500 0 0; 0 0; off 0\n"
    path = write_event(tmp_path, f"config show_inactive = {'9' * 400}\ndivision A a.t\n", withdrawn)
    import_tsh(path)
    assert_pages_answer()
    page = Client().get("/t/event/A/").content.decode()
    assert "Stone, Gus" in page


@pytest.mark.django_db
def test_a_prize_with_a_unicode_digit_is_a_named_prize_not_a_number(tmp_path: Path) -> None:
    # "²".isdigit() is True and int("²") raises ValueError: the import failed with a traceback.
    path = write_event(tmp_path, "division A a.t\nprize rank ² A $5\nprize rank 1 A $50\n")
    import_tsh(path)
    division = Division.objects.get()
    assert division.prizes == [
        {"kind": "rank", "place": "²", "value": "$5", "note": ""},
        {"kind": "rank", "place": 1, "value": "$50", "note": ""},
    ]
    assert_pages_answer()
    assert reports.make(division, "prizes", "pdf", None, "a4").content.startswith(b"%PDF")


def test_digits_of_other_scripts_are_not_numbers_in_a_t_file() -> None:
    with pytest.raises(TshFormatError, match="line 1: not a player line"):
        read_t("Quill, Ada 1850 ٢; 400\n")
    with pytest.raises(TshFormatError, match="line 2: not a player line"):
        read_t("Quill, Ada 1850 2; 400\nCrane, Ben 1720 1; ٤٠٠\n")
    (p,) = read_t("Quill, Ada 1850 ; ; board ²\n").players
    with pytest.raises(TshFormatError, match="board holds a value that is not a whole number"):
        p.extra_numbers("board")


def test_a_classes_count_in_other_digits_is_refused() -> None:
    with pytest.raises(TshFormatError, match="line 2: classes: '²' is not 1 to 26"):
        read_config("division A a.t\nclasses A ²\n")


# --------------------------------------------------------------------------- refused


@pytest.mark.django_db
def test_a_rating_of_2_to_the_31_is_refused(tmp_path: Path) -> None:
    lines = T_FILE.splitlines(keepends=True)
    lines[1] = "Crane, Ben             2147483648 1 4; 300 420\n"
    path = write_event(tmp_path, "division A a.t\n", "".join(lines))
    assert refused(path) == (
        "a.t: line 2: the rating 2147483648 is above 2147483647, the highest accepted"
    )


@pytest.mark.django_db
def test_the_highest_rating_accepted_imports_and_every_page_answers(tmp_path: Path) -> None:
    lines = T_FILE.splitlines(keepends=True)
    # Rated against 1720 and 1640: the rating maths overflowed (math.exp) on the player page.
    lines[0] = "Quill, Ada             2147483647 2 3; 400 380\n"
    import_tsh(write_event(tmp_path, "division A a.t\n", "".join(lines)))
    assert Player.objects.get(number=1).rating == 2147483647
    assert_pages_answer()


@pytest.mark.django_db
def test_a_division_name_that_cannot_be_in_a_url_is_refused(tmp_path: Path) -> None:
    path = write_event(tmp_path, "division A/B a.t\n")
    assert refused(path) == (
        "config.tsh: line 1: a division name cannot be 'A/B' (no '/' or '\\', and not only dots)"
    )
    path = write_event(tmp_path, "division .. a.t\n")
    assert refused(path).startswith("config.tsh: line 1: a division name cannot be '..'")


@pytest.mark.django_db
def test_a_division_name_longer_than_its_column_is_refused(tmp_path: Path) -> None:
    path = write_event(tmp_path, f"division {'D' * 51} a.t\n")
    assert refused(path) == (
        "config.tsh: line 1: the division name is 51 characters long; at most 50"
    )


@pytest.mark.django_db
def test_a_player_name_longer_than_its_column_is_refused(tmp_path: Path) -> None:
    lines = T_FILE.splitlines(keepends=True)
    lines[2] = f"{'Vale' * 60}, Cora 1640 0 1; 50 390\n"
    path = write_event(tmp_path, "division A a.t\n", "".join(lines))
    assert refused(path) == "a.t: line 3: the name is 246 characters long; at most 200 are kept"


@pytest.mark.django_db
def test_a_nul_byte_is_refused_naming_its_line(tmp_path: Path) -> None:
    lines = T_FILE.splitlines(keepends=True)
    lines[3] = "Moss,\x00Eli              1580 0 2; -50 300\n"
    path = write_event(tmp_path, "division A a.t\n", "".join(lines))
    assert refused(path) == "a.t: line 4: a NUL byte (\\0): not a text file"
    path = write_event(tmp_path, "division A a.t\n# \x00\n")
    assert refused(path) == "config.tsh: line 2: a NUL byte (\\0): not a text file"


@pytest.mark.django_db
def test_two_subkeys_on_a_config_line_are_refused_naming_the_line(tmp_path: Path) -> None:
    # The error class was called with the file name as a positional argument: a TypeError.
    path = write_event(tmp_path, "division A a.t\nconfig x{'A'}{'B'} =\n")
    assert refused(path) == (
        "config.tsh: line 2: only one {'KEY'} or [N] is understood: {'A'}{'B'}"
    )


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("setting", "message"),
    [
        (f"max_rounds = {'7' * 400}", "config max_rounds: a 400-digit number is not 1 to 1000"),
        ("bye_spread = 1e400", "config bye_spread: 1e400 is too large a number"),
        ("spread_cap = [100, 99999999999]", "config spread_cap: 99999999999 is not 0 to 99999"),
        ("prize_bands{'A'} = [0]", "config prize_bands: 0 is not 1 to 1000000"),
    ],
)
def test_a_setting_beyond_what_spread_keeps_is_refused(
    tmp_path: Path, setting: str, message: str
) -> None:
    path = write_event(tmp_path, f"division A a.t\nconfig {setting}\n")
    assert refused(path) == f"config.tsh: line 2: {message}"


@pytest.mark.django_db
def test_a_score_beyond_any_game_is_refused(tmp_path: Path) -> None:
    lines = T_FILE.splitlines(keepends=True)
    lines[0] = "Quill, Ada             1850 2 3; 400 99999999999\n"
    path = write_event(tmp_path, "division A a.t\n", "".join(lines))
    assert refused(path) == "a.t: line 1: the score 99999999999 is beyond ±99999"


# --------------------------------------------------------------------------- the database


@pytest.mark.django_db
def test_a_database_that_fails_during_an_import_gives_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def gone(*args: object, **kwargs: object) -> None:
        raise OperationalError("server closed the connection unexpectedly\n\tThis probably …")

    monkeypatch.setattr(Game.objects, "bulk_create", gone)
    path = write_event(tmp_path, "division A a.t\n")
    assert refused(path) == (
        "the database failed during the import, nothing was saved: "
        "server closed the connection unexpectedly"
    )
    assert not Player.objects.exists()


# --------------------------------------------------------------------------- exporttsh


@pytest.mark.django_db
def test_names_the_desk_accepts_are_exported_so_that_they_come_back(tmp_path: Path) -> None:
    import_tsh(write_event(tmp_path, "division A a.t\n"))
    Player.objects.filter(number=1).update(name="Quill, Ada 2")
    Player.objects.filter(number=2).update(name="Crane,\nBen")
    Player.objects.filter(number=3).update(name="Vale 1900")
    out = StringIO()
    call_command("exporttsh", "event", output=str(tmp_path / "out"), stdout=out)
    assert out.getvalue().splitlines()[2:] == [
        "division A, player 1: 'Quill, Ada 2' written as 'Quill, Ada-2' "
        "(tsh could not read the name back as it is)",
        "division A, player 2: 'Crane,\\nBen' written as 'Crane, Ben' "
        "(tsh could not read the name back as it is)",
        "division A, player 3: 'Vale 1900' written as 'Vale-1900' "
        "(tsh could not read the name back as it is)",
    ]
    exported = read_t_file(tmp_path / "out" / "a.t")
    names = ["Quill, Ada-2", "Crane, Ben", "Vale-1900", "Moss, Eli"]
    assert [p.name for p in exported.players] == names
    assert [p.scores for p in exported.players] == [[400, 380], [300, 420], [50, 390], [-50, 300]]
    call_command("importtsh", str(tmp_path / "out" / "config.tsh"), slug="again", stdout=StringIO())
    again = Division.objects.get(tournament__slug="again")
    assert [p.name for p in again.players.all()] == names


@pytest.mark.django_db
def test_a_divisions_file_is_exported_where_the_config_names_it_but_never_outside(
    tmp_path: Path,
) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "a.t").write_text(T_FILE)
    (tmp_path / "config.tsh").write_text("division A data/a.t\n")
    import_tsh(tmp_path / "config.tsh")
    out = tmp_path / "deep" / "out"
    call_command("exporttsh", "event", output=str(out), stdout=StringIO())
    fields = [(p.name, p.opponents, p.scores) for p in read_t(T_FILE).players]
    exported = read_t_file(out / "data" / "a.t").players
    assert [(p.name, p.opponents, p.scores) for p in exported] == fields
    call_command("importtsh", str(out / "config.tsh"), slug="again", stdout=StringIO())
    assert Division.objects.get(tournament__slug="again").players.count() == 4

    Division.objects.filter(tournament__slug="event").update(tsh_file="../../escaped.t")
    call_command("exporttsh", "event", output=str(out), stdout=StringIO())
    assert [(p.name, p.opponents, p.scores) for p in read_t_file(out / "escaped.t").players] == (
        fields
    )
    assert not (tmp_path / "escaped.t").exists()


@pytest.mark.django_db
def test_a_round_asked_for_in_other_digits_is_not_found(tmp_path: Path) -> None:
    import_tsh(write_event(tmp_path, "division A a.t\n"))
    client = Client()
    assert client.get("/t/event/A/ratings/?round=1").status_code == 200
    assert client.get("/t/event/A/ratings/?round=²").status_code == 404
    assert client.get("/t/event/A/report/standings.pdf?round=²").status_code == 404


def test_a_number_of_thousands_of_digits_in_a_t_file_is_refused_in_one_short_line() -> None:
    # Found by the fuzzer: `int()` raised on 5,000 digits before the reader could say so.
    from tournament.interchange import tsh

    with pytest.raises(tsh.TshFormatError) as refused:
        tsh.read_t("Able, Ann 1500 2 " + "9" * 5000 + "; 400\n", source="a.t")
    assert str(refused.value) == "a.t: line 1: opponent '99999999999999999999…' is not a number"
