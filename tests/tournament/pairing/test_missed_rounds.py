"""Nobody silently has nothing: a player who misses a round by any path (not checked in, marked
absent, left out of pairings made by hand, entered late, reinstated after rounds paired without
them) gets what the division gives a player who misses a round (`pairing.missed`), in the same
change, and the desk says so."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from text_support import plain

from tournament.models import Change, Division, Game, Tournament
from tournament.pairing import services as pairing_services
from tournament.players import roster
from tournament.players import services as players
from tournament.results import services as results
from tournament.standings import read_model
from tournament.standings.stamps import read as read_stamps

NAMES = "Quill, Ada, 1800\nCrane, Ben, 1700\nسارا احمدی, 1650\nKim Min-jun, 1600\nFox, Ed, 1500\n"


@pytest.fixture
def event(director: User) -> Division:
    tournament = Tournament.objects.create(name="Club Night", slug="club-night")
    tournament.directors.add(director)
    division = Division.objects.create(
        tournament=tournament, name="A", bye_spread=50, forfeit_spread=50, planned_rounds=4
    )
    roster.add_players(division, NAMES, director)
    return division


def record_of(division: Division, number: int) -> tuple[float, float, int]:
    row = next(
        r
        for r in read_model.division_standings(division, public=False, stamps=read_stamps(division))
        if r.player.number == number
    )
    return row.wins, row.losses, row.spread


def play(division: Division, round_number: int, director: User) -> None:
    """Every game of the round between two players won by its first player, 400–350."""
    for game in division.games.filter(round=round_number, kind=Game.PLAYED):
        results.enter_line(
            division,
            round_number,
            f"{game.player1.number} 400 {game.player2.number} 350",
            director,
        )


def test_a_player_not_checked_in_gets_the_forfeit_loss_in_the_pairings_change(
    desk: Client, event: Division, director: User
) -> None:
    ed = event.players.get(name="Fox, Ed")
    for player in event.players.exclude(pk=ed.pk):
        roster.set_checked_in(player, True, director)

    page = desk.post(
        f"/desk/club-night/division/{event.pk}/pairing/pair",
        {"round": "1", "system": "koth"},
        follow=True,
    ).content.decode()

    assert "Not checked in, so left out of round 1 with a forfeit loss (−50): Fox, Ed." in plain(
        page
    )
    forfeit = event.games.get(round=1, player1=ed)
    assert (forfeit.kind, forfeit.score1, forfeit.player2, forfeit.table) == (
        Game.FORFEIT,
        -50,
        None,
        None,
    )
    # The forfeit is part of the pairing's own change, not a change of its own.
    pairing = Change.objects.get(action="pair")
    assert forfeit.pk in {g["id"] for g in pairing.after["games"]}
    play(event, 1, director)
    assert record_of(event, ed.number) == (0, 1, -50)


def test_ed_fox_is_0_1_after_round_1_and_not_above_a_player_who_lost(
    event: Division, director: User
) -> None:
    ed = event.players.get(name="Fox, Ed")
    for player in event.players.exclude(pk=ed.pk):
        roster.set_checked_in(player, True, director)
    pairing_services.pair(event, 1, director, system="koth")
    play(event, 1, director)
    standings = read_model.division_standings(event, public=False, stamps=read_stamps(event))
    by_name = {r.player.name: (r.rank, r.wins, r.losses, r.spread) for r in standings}
    # Four checked in: two winners +50, two losers −50; Ed's forfeit −50 ranks with the losers.
    assert by_name["Fox, Ed"][1:] == (0, 1, -50)
    assert sorted(v[1:] for v in by_name.values()) == [
        (0, 1, -50),
        (0, 1, -50),
        (0, 1, -50),
        (1, 0, 50),
        (1, 0, 50),
    ]


def test_a_division_that_gives_nothing_gives_nothing_and_says_so(
    event: Division, director: User
) -> None:
    event.absent_result = "nothing"
    event.save()
    ed = event.players.get(name="Fox, Ed")
    for player in event.players.exclude(pk=ed.pk):
        roster.set_checked_in(player, True, director)
    state = pairing_services.pair(event, 1, director, system="koth")
    assert not event.games.filter(round=1, player1=ed).exists()
    assert plain(pairing_services.note_lines(state)[-1]) == (
        "Not checked in, so left out of round 1 with no result: Fox, Ed."
    )


def test_pairings_by_hand_that_leave_a_player_out_give_them_the_forfeit(
    desk: Client, event: Division
) -> None:
    response = desk.post(
        f"/desk/club-night/division/{event.pk}/round/1/manual",
        {"pairs": "1 2\n3 4"},
        follow=True,
    )
    page = plain(response.content.decode())
    assert "Not in the pairings, so left out of round 1 with a forfeit loss (−50): Fox, Ed." in page
    assert event.games.get(round=1, player1__number=5).score1 == -50
    # Paired again by hand with everyone, the forfeit made with the pairing goes.
    desk.post(
        f"/desk/club-night/division/{event.pk}/round/1/manual",
        {"pairs": "1 2\n3 4\n5 bye"},
    )
    kinds = sorted(event.games.filter(round=1).values_list("kind", flat=True))
    assert kinds == [Game.BYE, Game.PLAYED, Game.PLAYED]


def test_a_late_entry_after_pairing_gets_the_forfeit_and_the_round_is_marked_stale(
    event: Division, director: User
) -> None:
    pairing_services.save_manual(event, 1, [(1, 2), (3, 4), (5, None)], director)
    ivy = players.late_entry(event, players.NewPlayer(name="Ash, Ivy"), director)
    # Round 1 is paired but not played: the newcomer has the division's missed-round result,
    # and the round, paired by hand, is marked stale for the director to pair again.
    forfeit = event.games.get(round=1, player1=ivy)
    assert (forfeit.kind, forfeit.score1) == (Game.FORFEIT, -50)
    assert event.rounds.get(number=1).stale
    assert "Round 1 was paired from results that have changed" in ivy.said[0]
    change = Change.objects.filter(action="late entry").latest("pk")
    assert plain(change.reason) == "Ash, Ivy added as player 6, forfeit losses in rounds 1"
    # Paired again with the newcomer in, the forfeit is gone and nobody is left out.
    pairing_services.save_manual(event, 1, [(1, 2), (3, 4), (5, 6)], director)
    assert not event.games.filter(round=1, kind=Game.FORFEIT).exists()


def test_a_late_entry_follows_the_division_that_gives_nothing(
    event: Division, director: User
) -> None:
    event.absent_result = "nothing"
    event.save()
    pairing_services.save_manual(event, 1, [(1, 2), (3, 4), (5, None)], director)
    play(event, 1, director)
    ivy = players.late_entry(event, players.NewPlayer(name="Ash, Ivy"), director)
    assert not ivy.games_as_1.exists()
    assert plain(Change.objects.filter(action="late entry").latest("pk").reason) == (
        "Ash, Ivy added as player 6, nothing for rounds 1"
    )


def test_a_player_reinstated_gets_the_forfeit_for_the_rounds_paired_without_them(
    event: Division, director: User
) -> None:
    pairing_services.save_manual(event, 1, [(1, 2), (3, 4), (5, None)], director)
    play(event, 1, director)
    ed = event.players.get(number=5)
    players.withdraw(ed, 2, director)
    pairing_services.save_manual(event, 2, [(1, 3), (2, 4)], director)
    # Withdrawn, Ed has nothing in round 2: he takes no part in it.
    assert not event.games.filter(round=2, player1=ed).exists()
    players.reinstate(ed, director)
    forfeit = event.games.get(round=2, player1=ed)
    assert (forfeit.kind, forfeit.score1) == (Game.FORFEIT, -50)
    change = Change.objects.filter(action="reinstate").get()
    assert plain(change.reason) == (
        "Fox, Ed reinstated: Withdrawn when round 2 was paired, so given a forfeit loss (−50) "
        "in it: Fox, Ed."
    )
    assert change.after["games"][0]["round"] == 2


def test_a_player_marked_absent_and_left_out_is_named_in_the_rounds_notes(
    event: Division, director: User
) -> None:
    kim = event.players.get(number=4)
    players.set_absent(kim, 1, True, director)
    state = pairing_services.pair(event, 1, director, system="koth")
    assert f"Marked absent, so left out of round 1 with a forfeit loss (−50): {kim.name}." in [
        plain(line) for line in pairing_services.note_lines(state)
    ]
    assert event.games.get(round=1, player1=kim).score1 == -50
