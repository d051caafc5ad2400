"""The standings after a write of results: this worker's records of the stamp before, the
changed players' records counted again, rank exactly as the standings computed afresh, in every
variant (public or the desk's, capped spread, after a round, withdrawn players ranked or not),
through many random results, corrections, undos and forfeits, with ties, byes and withdrawn
players; a write that changes more (a forfeit's new game, a withdrawal) counts them afresh."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache

from tournament.engine import standings as engine
from tournament.models import Division, Game, Player, Round, Tournament
from tournament.players import services as players
from tournament.results import corrections
from tournament.results import services as results
from tournament.standings import memos, read_model, stamps

PLAYERS = 9  # one bye a round
ROUNDS = 4
VARIANTS = [
    {"public": public, "capped": capped, "after_round": after, "show_inactive": inactive}
    for public in (True, False)
    for capped in (False, True)
    for after in (None, 2)
    for inactive in (None, True)
]


@pytest.fixture
def event(director: User) -> Division:
    """Nine players, four rounds paired at random (the last not yet published), a bye each
    round, a spread cap that differs by round, and a player withdrawn from round 3."""
    cache.clear()
    memos.clear_all()
    tournament = Tournament.objects.create(name="Winter Open", slug="winter-open")
    tournament.directors.add(director)
    division = Division.objects.create(
        tournament=tournament,
        name="A",
        bye_spread=50,
        forfeit_spread=50,
        planned_rounds=ROUNDS,
        spread_cap=[60, 80],
    )
    made = [
        Player.objects.create(
            division=division,
            number=n,
            name=f"Player {n}",
            rating=1500 + 10 * (n % 3),
            withdrawn_from_round=3 if n == 9 else None,
        )
        for n in range(1, PLAYERS + 1)
    ]
    rng = random.Random(41)
    for number in range(1, ROUNDS + 1):
        Round.objects.create(division=division, number=number, published=number < ROUNDS)
        order = made[:]
        rng.shuffle(order)
        for table, (one, two) in enumerate(zip(order[0:8:2], order[1:8:2], strict=True), 1):
            Game.objects.create(
                division=division, round=number, table=table, player1=one, player2=two
            )
        Game.objects.create(
            division=division, round=number, player1=order[8], kind=Game.BYE, score1=50
        )
    return Division.objects.select_related("tournament").get(pk=division.pk)


def _served_and_afresh(division: Division) -> list[tuple[list[Any], list[Any]]]:
    fresh = Division.objects.select_related("tournament").get(pk=division.pk)
    read = stamps.read(fresh)
    pairs = []
    for variant in VARIANTS:
        served = read_model.division_standings(fresh, stamps=read, **variant)
        with memos.afresh():
            built = read_model._standings(
                fresh,
                variant["after_round"],
                variant["capped"],
                variant["show_inactive"],
                variant["public"],
                read,
            )
        pairs.append((served, built))
    return pairs


def _table(rows: list[Any]) -> list[tuple]:
    return [(r.rank, r.player.number, r.wins, r.losses, r.spread, r.games) for r in rows]


def test_standings_counted_again_for_the_changed_players_equal_those_computed_afresh(
    event: Division,
    director: User,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    recounts: list[int] = []
    recounted = engine.recounted

    def counting(*args: Any, **kwargs: Any) -> dict:
        recounts.append(1)
        return recounted(*args, **kwargs)

    monkeypatch.setattr(engine, "recounted", counting)
    rng = random.Random(2026)
    _served_and_afresh(event)  # the records of the first stamp kept
    writes = {"result": 0, "correction": 0, "undo": 0, "forfeit": 0, "withdrawal": 0}
    shared_ranks = ties = 0
    for _step in range(80):
        games = list(Game.objects.filter(division=event).exclude(player2=None))
        pending = [g for g in games if g.score1 is None]
        entered = [g for g in games if g.score1 is not None]
        roll = rng.random()
        call: tuple[Callable[..., object], tuple[Any, ...], dict[str, Any]]
        if pending and (roll < 0.4 or not entered):
            g = rng.choice(pending)
            one, two = g.player1.number, g.player2.number  # type: ignore[union-attr]
            # Scores close together: draws, and players level on wins, losses and spread.
            line = f"{one} {rng.randint(395, 405)} {two} {rng.randint(395, 405)}"
            kind, call = "result", (results.enter_line, (event, g.round, line, director), {})
        elif entered and roll < 0.7:
            g = rng.choice(entered)
            one, two = g.player1.number, g.player2.number  # type: ignore[union-attr]
            line = f"{one} {rng.randint(395, 405)} {two} {rng.randint(300, 500)}"
            given = (event, g.round, line, director, g.version)
            kind, call = "correction", (results.enter_line, given, {"reason": "the slip"})
        elif roll < 0.86:
            kind, call = "undo", (corrections.undo_last, (event, director), {})
        elif pending and roll < 0.93:
            g = rng.choice(pending)
            line = f"{g.player1.number} forfeit"
            kind, call = "forfeit", (results.enter_line, (event, g.round, line, director), {})
        else:
            player = rng.choice(list(Player.objects.filter(division=event)))
            given = (player, rng.randint(2, ROUNDS), director)
            kind, call = "withdrawal", (players.withdraw, given, {})
        try:
            with django_capture_on_commit_callbacks(execute=True):
                call[0](*call[1], **call[2])
        except Exception:  # noqa: BLE001 - a refused write (nothing to undo) writes nothing
            continue
        writes[kind] += 1
        for served, built in _served_and_afresh(event):
            assert _table(served) == _table(built)
            assert served == built
            ranks = [r.rank for r in served if r.rank is not None]
            shared_ranks += len(ranks) - len(set(ranks))
            records = [(r.wins, r.losses, r.spread) for r in served]
            ties += len(records) - len(set(records))
    # Every kind of write was made, the records were counted again for most of them, and the
    # standings had players level and sharing a rank.
    assert all(writes.values()), writes
    assert len(recounts) >= len(VARIANTS) * writes["result"], (len(recounts), writes)
    assert shared_ranks > 0 and ties > 0


def test_a_worker_without_the_records_before_counts_them_afresh(
    event: Division, director: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    _served_and_afresh(event)
    g = Game.objects.filter(division=event, round=1).exclude(player2=None).first()
    assert g is not None
    results.enter_line(event, 1, f"{g.player1.number} 420 {g.player2.number} 380", director)  # type: ignore[union-attr]
    memos.clear_all()  # another worker: it holds no records of the stamp before
    monkeypatch.setattr(engine, "recounted", None)  # never called
    for served, built in _served_and_afresh(event):
        assert served == built
