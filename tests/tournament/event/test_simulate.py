"""The event simulator (`event/simulate.py`, `manage.py simulate`): a short seeded run is clean;
a planted fault is named with its seed and step; and each seed that once found a violation is
kept here, with the fault it found as a test of its own."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError

from tournament.event import checks, simulate
from tournament.exchange import backup
from tournament.models import Division, Game, Player
from tournament.pairing import missed
from tournament.pairing import services as pairing
from tournament.players import roster
from tournament.players import services as players
from tournament.results import services as results
from tournament.standings import read_model
from tournament.standings import stamps as division_stamps

pytestmark = pytest.mark.django_db(transaction=False)


def test_a_short_seeded_run_has_no_violation() -> None:
    out = StringIO()
    call_command("simulate", "--events", "1", "--seed", "7", "--players", "6", "9",
                 "--rounds", "3", "4", stdout=out)  # fmt: skip
    last = out.getvalue().splitlines()[-1]
    assert last.startswith("1 events, ") and last.endswith(" steps, 0 violations")


def test_the_same_seed_plays_the_same_event() -> None:
    one, two = simulate.Outcome(), simulate.Outcome()
    simulate.Event(11, 0, one, players=(6, 8), rounds_planned=(3, 3), divisions=1).run()
    simulate.Event(11, 0, two, players=(6, 8), rounds_planned=(3, 3), divisions=1).run()
    assert one.steps == two.steps and one.violations == two.violations == []


def test_a_service_that_forgets_the_absent_result_is_named(monkeypatch) -> None:
    # The planted fault: the missed round's row is never made.
    monkeypatch.setattr(missed, "make", lambda *args: None)
    out = StringIO()
    with pytest.raises(CommandError) as failed:
        call_command("simulate", "--events", "1", "--seed", "3", "--players", "8", "10",
                     "--rounds", "3", "3", stdout=out)  # fmt: skip
    assert failed.value.returncode == 1
    lines = out.getvalue().splitlines()
    named = [line for line in lines if "has no game, bye or forfeit, and is not withdrawn" in line]
    assert named, lines
    assert named[0].startswith("seed 3, event 0, step ")
    assert str(failed.value).startswith("1 events, ")


@pytest.mark.parametrize("index", [0, 2])
def test_seed_1_which_found_two_seams_stays_clean(index: int) -> None:
    # Seed 1 found: a round paired by itself and then a player marked absent in it was taken
    # for stale (event 0); a restored event's rounds were taken for stale (events 1 and 2).
    outcome = simulate.Outcome()
    simulate.Event(1, index, outcome).run()
    assert [v.line() for v in outcome.violations] == []


def test_seed_16990_ranks_a_player_withdrawn_from_a_round_not_yet_played() -> None:
    # Seed 16990 found the check's own recount unranking a player withdrawn from round 6 while
    # the division stood after round 5: the standings rank them until round 6 is paired.
    outcome = simulate.Outcome()
    simulate.Event(16990, 13, outcome).run()
    assert [v.line() for v in outcome.violations] == []
    jon = Player.objects.get(
        name="Jon Hart", division__tournament__name="Simulated 16990-13", withdrawn_from_round=6
    )
    assert max(jon.division.games.values_list("round", flat=True)) == 5
    rows = read_model.division_standings(
        jon.division, public=False, stamps=division_stamps.read(jon.division)
    )
    assert [(r.rank, r.wins, r.losses, r.spread) for r in rows if r.player == jon] == [
        (3, 3.0, 2.0, 273)
    ]


@pytest.fixture
def paired(director: User) -> Division:
    from tournament.event import services as event

    tournament = event.create_tournament(
        director, "Seam Open", [event.NewDivision(name="A", planned_rounds=3)]
    )
    division = tournament.divisions.get()
    roster.add_players(
        division, "Ada Quill, 1800\nBen Crane, 1700\nسارا احمدی, 1600\n김민준, 1500\n", director
    )
    pairing.pair(division, 1, director)
    pairing.publish(division, 1, director)
    for game in division.games.filter(round=1, kind=Game.PLAYED):
        results.enter_line(
            division, 1, f"{game.player1.number} 400 {game.player2.number} 300", director
        )
    assert division.games.filter(round=2).exists()  # paired by itself
    return division


def test_a_player_marked_absent_in_a_round_paired_by_itself_leaves_it_in_line(
    paired: Division, director: User
) -> None:
    away = paired.games.filter(round=2, kind=Game.PLAYED).first().player1
    players.set_absent(away, 2, True, director)
    assert paired.games.get(round=2, player1=away).kind == Game.FORFEIT
    assert not paired.rounds.get(number=2).stale
    assert checks.check_event(paired.tournament) == []


def test_a_restored_events_rounds_stay_in_line_with_their_results(paired: Division) -> None:
    restored = backup.restore(backup.write(paired.tournament), slug="seam-open-r").tournament
    assert restored.divisions.get().rounds.get(number=2).basis
    assert checks.check_event(restored) == []
