"""Importing WESPA's `.tou` result files: every shared event, its round trip, its standings."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.management import call_command

from tests.tournament.wespa_support import event_file, events, player_lines
from tournament.exchange.tou import import_tou
from tournament.interchange import tou
from tournament.models import Division, Game, Tournament
from tournament.reports.data import tou_text
from tournament.standings import read_model
from tournament.standings.rows import Row
from tournament.standings.stamps import read as read_stamps

EVENTS = events() or ["2014_ISR_isrop14"]


@pytest.mark.django_db
@pytest.mark.parametrize("stem", EVENTS)
def test_every_shared_event_imports_and_exports_its_games_as_they_came(stem: str) -> None:
    source = event_file(stem)
    imported = import_tou(source, slug="event", printout=event_file(stem, ".txt"))
    written = tou_text(imported.tournament)
    assert player_lines(written) == player_lines(source.read_bytes().decode("latin-1"))
    read = tou.read(source.read_bytes())
    divisions = list(imported.tournament.divisions.all())
    assert [d.name for d in divisions] == [s.name for s in read.sections]
    assert imported.tournament.start_date == read.date


def _standings(stem: str) -> dict[str, Row]:
    imported = import_tou(event_file(stem), slug="event")
    return {
        row.name: row
        for division in imported.tournament.divisions.all()
        for row in read_model.division_standings(division, stamps=read_stamps(division))
    }


@pytest.mark.django_db
def test_standings_count_games_by_their_scores_and_self_pairings_by_the_settings() -> None:
    # Israel Open 2014: Toh Weibin's line, added up by hand from the file: 16 wins, a tie
    # (1434 against Raz Naot's 434 in round 7) and 5 losses, margin +2083 as WESPA printed.
    rows = _standings("2014_ISR_isrop14")
    toh = rows["Toh Weibin"]
    assert (toh.wins, toh.losses, toh.spread, toh.games) == (16.5, 5.5, 2083, 22)
    # The players of 21 games have a 2001 against their own number: a bye worth the
    # division's bye spread (100, tsh's WESPA preset).
    division = Division.objects.get(tournament__slug="event")
    byes = Game.objects.filter(division=division, player2=None)
    assert byes.count() == 22
    assert set(byes.values_list("kind", "score1")) == {(Game.BYE, 100)}


@pytest.mark.django_db
def test_a_missed_round_written_as_0_is_an_absence_and_a_low_code_a_forfeit() -> None:
    rows = _standings("2016_UAE_dubai16")
    division = Division.objects.get(tournament__slug="event")
    unopposed = sorted(
        (g.tou["1"][0], g.kind, g.score1)
        for g in Game.objects.filter(division=division, player2=None)
    )
    assert set(unopposed) == {(2, Game.FORFEIT, -50), (1350, Game.BYE, 0)}
    assert len(unopposed) == 32
    assert rows  # the division still has its standings


def test_importtou_reports_a_line_it_cannot_read_and_imports_nothing(
    db: None, tmp_path: Path
) -> None:
    bad = tmp_path / "bad.tou"
    bad.write_bytes(
        b"*M01.02.2015 Club night\n*A\n                                      0\n"
        b"Ann Able            2400   2\nBob Bell             35x   1\n*** END OF FILE ***\n"
    )
    with pytest.raises(Exception, match=r"bad.tou: line 5: Bob Bell: '35x' is not a score"):
        call_command("importtou", str(bad), slug="club")
    assert not Tournament.objects.exists()
