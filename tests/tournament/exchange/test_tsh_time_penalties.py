"""Time penalties in a `.t` file: tsh's `penalty` field, one negative value a round, beside the
score as tsh keeps it (before the penalty); written for a player who has one and read back on
import, the counted score the file's plus the penalty. A file without one is written byte for
byte as it was read, and a `penalty` field that is not a time penalty is kept as it came."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError

from tournament.models import Game, Tournament
from tournament.results import services as results

SLUG = "event"
# Round 1: Al 400 – Bo 350, Cy a bye. Round 2: Al 380 – Cy 410, Bo a bye.
WITHOUT = (
    "Al, B                   1500 2 3; 400 380; board 1 1; p12 1 2\n"
    "Bo, C                   1400 1 0; 350 50; board 1 0; p12 2 0\n"
    "Cy, D                   1300 0 1; 50 410; board 0 1; p12 0 1\n"
)


def _import(folder: Path, text: str) -> Tournament:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "a.t").write_text(text)
    call_command("importtsh", str(folder / "a.t"), slug=SLUG, name=SLUG, stdout=StringIO())
    return Tournament.objects.get(slug=SLUG)


def _export(folder: Path) -> str:
    call_command("exporttsh", SLUG, output=str(folder), stdout=StringIO())
    return (folder / "a.t").read_text()


@pytest.mark.django_db
def test_a_file_without_time_penalties_is_exported_byte_for_byte(tmp_path: Path) -> None:
    _import(tmp_path / "in", WITHOUT)

    assert (tmp_path / "in" / "a.t").read_bytes() == WITHOUT.encode()
    call_command("exporttsh", SLUG, output=str(tmp_path / "out"), stdout=StringIO())
    assert (tmp_path / "out" / "a.t").read_bytes() == WITHOUT.encode()


@pytest.mark.django_db
def test_a_time_penalty_entered_is_written_in_its_round_and_read_back(
    tmp_path: Path, django_user_model: type[User]
) -> None:
    tournament = _import(tmp_path / "in", WITHOUT)
    tournament.directors.add(director := django_user_model.objects.create(username="td"))
    division = tournament.divisions.get()
    # Round 2: Cy's 430 on the sheet, two minutes over: 410 as it counts.
    results.enter_line(division, 2, "3 430 1 380 ot 3 2", director, reason="time over")

    written = _export(tmp_path / "out")

    assert written == (
        "Al, B                   1500 2 3; 400 380; board 1 1; p12 1 2\n"
        "Bo, C                   1400 1 0; 350 50; board 1 0; p12 2 0\n"
        "Cy, D                   1300 0 1; 50 430; board 0 1; p12 0 1; penalty 0 -20\n"
    )
    Tournament.objects.all().delete()
    again = _import(tmp_path / "again", written).divisions.get()
    game = again.games.get(round=2, player2__isnull=False)
    assert (game.player1.number, game.score1, game.score2) == (1, 380, 410)
    assert (game.penalty1, game.penalty2) == (0, 20)
    assert list(again.games.values_list("penalty1", "penalty2").order_by("round", "pk")) == [
        (0, 0),
        (0, 0),
        (0, 20),
        (0, 0),
    ]
    assert again.players.get(number=3).tsh_extras == [["board", ["0", "1"]], ["p12", ["0", "1"]]]
    assert _export(tmp_path / "out2") == written


@pytest.mark.django_db
def test_a_time_penalty_of_the_first_listed_player_is_read_for_player1(tmp_path: Path) -> None:
    text = WITHOUT.replace("p12 1 2\n", "p12 1 2; penalty -10\n")

    division = _import(tmp_path / "in", text).divisions.get()

    game = division.games.get(round=1, player2__isnull=False)
    # Al's 400 in the file is before the penalty: 390 as it counts.
    assert (game.player1.number, game.score1, game.score2) == (1, 390, 350)
    assert (game.penalty1, game.penalty2) == (10, 0)
    assert set(division.games.filter(kind=Game.BYE).values_list("penalty1", flat=True)) == {0}
    # Written back with a value for each of Al's rounds.
    assert _export(tmp_path / "out") == text.replace("penalty -10", "penalty -10 0")


@pytest.mark.django_db
@pytest.mark.parametrize(
    "field",
    ["p12 2 0; penalty 0 -20", "p12 2 0; penalty 5 0"],
    ids=["on a bye", "a bonus"],
)
def test_a_penalty_field_that_is_not_a_time_penalty_is_kept_as_it_came(
    tmp_path: Path, field: str
) -> None:
    text = WITHOUT.replace("p12 2 0", field)

    division = _import(tmp_path / "in", text).divisions.get()

    assert set(division.games.values_list("penalty1", "penalty2")) == {(0, 0)}
    assert division.games.get(round=1, player2__isnull=False).score2 == 350
    assert _export(tmp_path / "out") == text


@pytest.mark.django_db
def test_a_time_penalty_out_of_range_is_refused_naming_the_line(tmp_path: Path) -> None:
    (tmp_path / "a.t").write_text(WITHOUT.replace("p12 2 0\n", "p12 2 0; penalty -2000\n"))

    with pytest.raises(CommandError) as refused:
        call_command("importtsh", str(tmp_path / "a.t"), slug=SLUG, name=SLUG, stdout=StringIO())

    assert str(refused.value) == "a.t: line 2: the penalty -2000 is beyond ±1000"
    assert not Tournament.objects.exists()
