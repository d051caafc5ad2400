"""The rating body's `.tou` file, line by line, for a small event worked out by hand."""

from __future__ import annotations

import datetime
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tournament.interchange import tou
from tournament.models import Division, Game, Player, Tournament
from tournament.reports.data import tou_text


@pytest.fixture
def event(small: Tournament) -> Tournament:
    small.start_date = datetime.date(2026, 3, 7)
    small.save()
    division = Division.objects.create(tournament=small, name="A")
    ada, ben, lukasz = (
        Player.objects.create(division=division, number=n, name=name)
        for n, name in enumerate(["Ada Quill", "Ben Crane", "Łukasz Müller"], start=1)
    )
    # Round 1: Ada, going first, beats Ben 420-380; Łukasz has a bye.
    Game.objects.create(
        division=division,
        round=1,
        table=1,
        player1=ada,
        player2=ben,
        score1=420,
        score2=380,
        first=1,
    )
    Game.objects.create(division=division, round=1, player1=lukasz, score1=50, kind="bye")
    # Round 2: Ben, going first, ties Łukasz 400-400; Ada forfeits.
    Game.objects.create(
        division=division,
        round=2,
        table=1,
        player1=ben,
        player2=lukasz,
        score1=400,
        score2=400,
        first=1,
    )
    Game.objects.create(division=division, round=2, player1=ada, score1=-50, kind="forfeit")
    return small


EXPECTED = [
    "*M07.03.2026 Spring Open",
    "*A",
    " " * 38 + "0",
    "Ada Quill            2420  +2   50   1",
    "Ben Crane             380   1 1400  +3",
    "Lukasz Muller          50   3 1400   2",
    "*** END OF FILE ***",
]


def test_the_tou_file_has_a_line_a_player_with_each_game_as_the_format_writes_it(
    event: Tournament,
) -> None:
    assert tou_text(event) == "\r\n".join(EXPECTED) + "\r\n"


def test_exporttou_writes_the_file_in_ascii(event: Tournament, tmp_path: Path) -> None:
    target = tmp_path / "spring.tou"
    call_command("exporttou", "spring-open", output=str(target), stdout=StringIO())
    assert target.read_bytes() == ("\r\n".join(EXPECTED) + "\r\n").encode("ascii")


def test_exporttou_names_a_tournament_that_does_not_exist(db: None, tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="no tournament 'nope'"):
        call_command("exporttou", "nope", output=str(tmp_path / "x.tou"))


def test_woogles_golden_lines_are_reproduced() -> None:
    # The first line of Woogles' wtf5 golden file: won 473 v 4 going second, and so on.
    player = tou.TouPlayer(
        "jellomochas",
        [
            tou.TouGame(4, 473, 300),
            tou.TouGame(3, 561, 300, went_first=True),
            tou.TouGame(2, 478, 300, went_first=True),
            tou.TouGame(4, 460, 300),
        ],
    )
    text = tou.write(
        "testTournament", datetime.date(2025, 11, 30), [tou.TouDivision("CSW", [player])]
    )
    assert text.split("\r\n")[:4] == [
        "*M30.11.2025 testTournament",
        "*CSW",
        "                                      0",
        "jellomochas          2473   4 2561  +3 2478  +2 2460   4",
    ]


def test_a_score_of_a_thousand_is_refused_with_a_reason() -> None:
    player = tou.TouPlayer("Big", [tou.TouGame(2, 1003, 300)])
    with pytest.raises(tou.TouError, match="1003"):
        tou.write("X", datetime.date(2026, 1, 1), [tou.TouDivision("A", [player])])
