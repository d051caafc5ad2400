"""Writers announce, packages subscribe (`core/signals.py`): each write of results or of the field
is sent once, inside its transaction, with the changes it logged; what the subscribers did comes
back as the change's `said`; a write that knows nothing of them gets them all the same."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.dispatch import Signal
from text_support import plain

from tournament.core import audit, signals
from tournament.core.changes import CREATE, snapshot
from tournament.core.errors import EntryError
from tournament.models import Change, Claim, Division, Game
from tournament.pairing import services as pairing
from tournament.players import services as players
from tournament.results import services as results


@contextmanager
def heard(*sent: Signal) -> Iterator[list[tuple[Signal, signals.Outcome]]]:
    """Every send of the signals while the block runs, with its outcome."""
    seen: list[tuple[Signal, signals.Outcome]] = []
    receivers = []
    for signal in sent:

        def receiver(sender: type, outcome: signals.Outcome, signal: Signal = signal, **kw: Any):
            seen.append((signal, outcome))

        signal.connect(receiver, weak=False)
        receivers.append((signal, receiver))
    try:
        yield seen
    finally:
        for signal, receiver in receivers:
            signal.disconnect(receiver)


def test_a_result_is_announced_once_with_the_change_it_logged(
    division: Division, director: User, game_of
) -> None:
    with heard(signals.results_changed, signals.field_changed) as seen:
        change = results.enter_line(division, 1, "1 400 2 350", director)
    [(signal, outcome)] = seen
    assert signal is signals.results_changed
    assert outcome.changes == [change]
    assert outcome.actor == director
    assert (outcome.games(), outcome.rounds()) == ([game_of(1).pk], [1])
    assert change.said is outcome.said


def test_a_forfeit_between_paired_players_names_both_of_its_games(
    division: Division, director: User
) -> None:
    with heard(signals.results_changed) as seen:
        change = results.enter_line(division, 1, "3 forfeit", director)
    [(_, outcome)] = seen
    three, four = (division.games.get(round=1, player1__number=n) for n in (3, 4))
    assert sorted(outcome.games()) == sorted([three.pk, four.pk])
    assert outcome.changes == [change]


def test_a_withdrawal_is_a_change_to_the_field(division: Division, director: User) -> None:
    gus = division.players.get(number=6)
    with heard(signals.results_changed, signals.field_changed) as seen:
        players.withdraw(gus, 2, director)
    [(signal, outcome)] = seen
    assert signal is signals.field_changed
    assert [c.action for c in outcome.changes] == [Change.Action.WITHDRAW]


def test_a_write_inside_another_of_the_division_is_announced_once_as_the_outer_ends(
    division: Division, director: User
) -> None:
    with heard(signals.results_changed) as seen, signals.announcing(division, director) as outer:
        first = results.enter_line(division, 1, "1 400 2 350", director)
        second = results.enter_line(division, 1, "3 380 4 360", director)
        assert seen == []
    assert [(signal, outcome) for signal, outcome in seen] == [(signals.results_changed, outer)]
    assert outer.changes == [first, second]
    assert first.said is second.said is outer.said


def test_a_subscriber_that_refuses_takes_the_write_back(
    division: Division, director: User, game_of
) -> None:
    def refuse(sender: type, outcome: signals.Outcome, **kwargs: Any) -> None:
        raise EntryError("refused by a subscriber")

    logged = Change.objects.count()
    signals.results_changed.connect(refuse, weak=False)
    try:
        with pytest.raises(EntryError, match="refused by a subscriber"):
            results.enter_line(division, 1, "1 400 2 350", director)
    finally:
        signals.results_changed.disconnect(refuse)
    assert game_of(1).score1 is None
    assert Change.objects.count() == logged


def test_a_new_writer_of_results_settles_the_players_reports_without_knowing_of_them(
    division: Division, director: User, game_of
) -> None:
    game = game_of(1)
    Claim.objects.create(game=game, player=game.player1, my_score=400, opponent_score=350)
    Claim.objects.create(game=game, player=game.player2, my_score=360, opponent_score=400)
    # A writer that only saves the game and logs the change, inside `announcing`.
    with signals.announcing(division, director) as outcome:
        before = snapshot(game)
        game.score1, game.score2, game.version = 400, 350, game.version + 1
        game.save()
        audit.record(
            division,
            CREATE,
            actor=director,
            game=game,
            before={"games": [before]},
            after={"games": [snapshot(game)]},
        )
    assert not Claim.objects.filter(game=game).exists()
    assert plain(outcome.said) == [
        "It settles the players' reports (Quill, Ada: 400–350 · Crane, Ben: 360–400)."
    ]


def test_the_desk_hears_what_the_subscribers_did_in_their_order(
    division: Division, director: User, game_of
) -> None:
    """Round 2 was paired by the division itself from round 1; a correction of round 1 over
    the players' disagreeing reports settles them, then round 2 is paired again."""
    for line in ("1 400 2 350", "3 380 4 360", "5 300 6 420", "7 bye"):
        results.enter_line(division, 1, line, director)
    pairing.pair(division, 2, director, auto=True)
    game = game_of(1)
    Claim.objects.create(game=game, player=game.player1, my_score=350, opponent_score=400)
    change = results.enter_line(
        division, 1, "2 400 1 350", director, version=game.version, reason="swapped"
    )
    said = plain(change.said)
    assert said[0] == "It settles the players' reports (Quill, Ada: 350–400)."
    assert said[1].startswith("Round 2 ")
    assert Game.objects.filter(division=division, round=2).exists()


def test_a_round_published_is_announced(division: Division, director: User) -> None:
    heard_rounds: list[tuple[int, int]] = []

    def receiver(sender: type, division: Division, round: int, **kwargs: Any) -> None:
        heard_rounds.append((division.pk, round))

    signals.round_published.connect(receiver, weak=False)
    try:
        pairing.publish(division, 1, director)
    finally:
        signals.round_published.disconnect(receiver)
    assert heard_rounds == [(division.pk, 1)]
