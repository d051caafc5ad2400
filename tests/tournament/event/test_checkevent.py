"""The consistency check (`manage.py checkevent`, `event/checks.py`) on rows damaged on purpose:
each break is found and named, one line each, with the round and the players; a sound event
passes with exit status 0."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from text_support import plain

from tournament.event import checks
from tournament.models import Claim, Division, Game, Tournament
from tournament.pairing import services as pairing
from tournament.results import services as results
from tournament.standings import read_model
from tournament.standings.stamps import read as read_stamps


def lines(tournament: Tournament) -> list[str]:
    return [plain(f.line()) for f in checks.check_event(tournament)]


@pytest.fixture
def played(division: Division, director: User) -> Division:
    """Round 1 played (1 v 2, 3 v 4, 5 v 6; 7's bye), round 2 paired by hand, unpublished."""
    for line in ("1 400 2 350", "3 380 4 390", "5 410 6 300"):
        results.enter_line(division, 1, line, director)
    pairing.publish(division, 1, director)
    pairing.save_manual(division, 2, [(1, 3), (2, 5), (4, 7), (6, None)], director)
    return division


def test_a_sound_event_has_no_finding_and_exits_0(played: Division) -> None:
    out = StringIO()
    call_command("checkevent", "spring-open", stdout=out)
    assert out.getvalue() == "spring-open: consistent (1 division(s) checked).\n"


def test_a_game_that_lost_a_player_is_found(played: Division) -> None:
    game = played.games.get(round=2, player1__number=1)
    Game.objects.filter(pk=game.pk).update(player2=None)
    assert lines(played.tournament) == [
        "Division A, round 2: Vale, Cora has no game, bye or forfeit, and is not withdrawn: "
        "the division gives a player who misses a round a forfeit loss."
    ]


def test_a_player_paired_twice_is_found_with_the_count(played: Division) -> None:
    game = played.games.get(round=2, player1__number=4)
    Game.objects.filter(pk=game.pk).update(player2=played.players.get(number=1))
    found = lines(played.tournament)
    assert "Division A, round 2: Quill, Ada has 2 games in the round." in found
    assert (
        "Division A, round 2: Reed, Hal has no game, bye or forfeit, and is not withdrawn: the "
        "division gives a player who misses a round a forfeit loss." in found
    )


def test_a_stale_round_left_unmarked_is_found(played: Division) -> None:
    # A result changed behind the services' back: round 2 was paired from the old one.
    game = played.games.get(round=1, player1__number=3)
    Game.objects.filter(pk=game.pk).update(score1=420)
    assert lines(played.tournament) == [
        "Division A, round 2: paired from results that have changed since (round 1), and not "
        "marked stale."
    ]


def test_a_stale_round_marked_by_the_services_is_no_finding(
    played: Division, director: User
) -> None:
    game = played.games.get(round=1, player1__number=3)
    results.enter_line(played, 1, "3 420 4 390", director, version=game.version, reason="typo")
    assert played.rounds.get(number=2).stale
    assert lines(played.tournament) == []


def test_a_cache_that_disagrees_with_the_rows_is_found(played: Division) -> None:
    read_model.division_standings(
        played, public=False, stamps=read_stamps(played)
    )  # kept under the division's stamp
    read_model.division_ratings(played, public=False, stamps=read_stamps(played))
    # A write that bypasses the models' signals leaves the stamp, and so the caches, as they
    # were.
    game = played.games.get(round=1, player1__number=5)
    Game.objects.filter(pk=game.pk).update(score2=500)
    found = lines(played.tournament)
    assert (
        "Division A: the desk's standings as cached differ from those computed afresh from the "
        "results." in found
    )
    assert (
        "Division A: the desk's ratings as cached differ from those computed afresh from the "
        "results." in found
    )


def test_a_claim_on_a_game_not_the_players_is_found(played: Division) -> None:
    game = played.games.get(round=2, player1__number=1)
    Claim.objects.create(
        game=game, player=played.players.get(number=6), my_score=1, opponent_score=2
    )
    assert lines(played.tournament) == [
        "Division A, round 2: Stone, Gus has a report of R2: Quill, Ada v Vale, Cora, a game not "
        "theirs."
    ]


def test_results_in_a_round_never_paired_are_found(played: Division) -> None:
    Game.objects.create(
        division=played,
        round=5,
        player1=played.players.get(number=2),
        kind=Game.FORFEIT,
        score1=-50,
    )
    assert lines(played.tournament) == [
        "Division A, round 5: the round was never paired, but has results for Crane, Ben."
    ]


def test_the_command_names_each_finding_and_exits_1(played: Division) -> None:
    game = played.games.get(round=2, player1__number=1)
    Game.objects.filter(pk=game.pk).update(player2=None)
    out = StringIO()
    with pytest.raises(CommandError) as refused:
        call_command("checkevent", "spring-open", stdout=out)
    assert refused.value.returncode == 1
    assert str(refused.value) == "spring-open: 1 finding(s) in 1 division(s)."
    assert out.getvalue() == (
        "Division A, round 2: Vale, Cora has no game, bye or forfeit, and is not withdrawn: the "
        "division gives a player who misses a round a forfeit loss.\n"
    )
    assert "\u2068" not in out.getvalue()


def test_a_scoresheet_whose_verdict_or_flag_is_wrong_is_found(
    played: Division, director: User, record
) -> None:
    from tournament.models import Scoresheet
    from tournament.scoresheets import services as sheets

    game = played.games.get(round=1, player1__number=1)
    sheet = sheets.attach_scoresheet(game, record("Quill, Ada", "Crane, Ben"), director)
    assert lines(played.tournament) == []
    Scoresheet.objects.filter(pk=sheet.pk).update(verified=not sheet.verified, flagged=False)
    found = lines(played.tournament)
    assert any("the scoresheet of R1: Quill, Ada v Crane, Ben is stored as" in f for f in found)


def test_the_dashboards_check_page_lists_the_findings(played: Division, desk: Client) -> None:
    page = plain(desk.get("/desk/spring-open/check/").content.decode())
    assert "No finding: the event is consistent." in page
    game = played.games.get(round=2, player1__number=1)
    Game.objects.filter(pk=game.pk).update(player2=None)
    page = plain(desk.get("/desk/spring-open/check/").content.decode())
    assert "Vale, Cora has no game, bye or forfeit" in page


def test_the_check_page_is_for_the_events_directors(played: Division, client_for, stranger) -> None:
    assert client_for(stranger).get("/desk/spring-open/check/").status_code in (403, 404)
