"""The ratings after a write of results: this worker's ratings of the stamp before, rated again
for the players the write changed (`read_model._rerated`), equal to the ratings computed
afresh in every variant (public or the desk's, after a round), through many random results,
corrections, undos, forfeits and withdrawals, with newcomers, ratings at the band edges,
established and provisional players, byes, two segments, and rounds added; a write that
changes more (a forfeit's new game, a withdrawal) rates them afresh."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache

from tournament.engine import ratings as ratings_engine
from tournament.models import Division, Game, Player, Round, Tournament
from tournament.players import services as players
from tournament.results import corrections
from tournament.results import services as results
from tournament.standings import memos, read_model, stamps

PLAYERS = 9  # one bye a round
ROUNDS = 13  # of 20 planned: rated in two segments of 10
PLAYED = 11  # the rounds with their results in at the start
VARIANTS = [
    {"public": public, "after_round": after} for public in (True, False) for after in (None, 5, 12)
]


@pytest.fixture
def event(director: User) -> Division:
    """Nine players (two newcomers, two at a band's edge, established and provisional), 13
    rounds paired at random with a bye each, the first 11 played, the last unpublished."""
    cache.clear()
    memos.clear_all()
    tournament = Tournament.objects.create(name="Winter Open", slug="winter-open")
    tournament.directors.add(director)
    division = Division.objects.create(
        tournament=tournament, name="A", bye_spread=50, forfeit_spread=50, planned_rounds=20
    )
    ratings = [0, 1799, 1801, 1999, 2003, 1500, 0, 1200, 2100]
    careers = [0, 49, 50, 51, 300, 10, None, 80, 1000]
    made = [
        Player.objects.create(
            division=division,
            number=n,
            name=f"Player {n}",
            rating=ratings[n - 1],
            lifetime_games=careers[n - 1],
        )
        for n in range(1, PLAYERS + 1)
    ]
    rng = random.Random(41)
    for number in range(1, ROUNDS + 1):
        Round.objects.create(division=division, number=number, published=number < ROUNDS)
        order = made[:]
        rng.shuffle(order)
        for table, (one, two) in enumerate(zip(order[0:8:2], order[1:8:2], strict=True), 1):
            scores = _scores(rng) if number <= PLAYED else (None, None)
            Game.objects.create(
                division=division,
                round=number,
                table=table,
                player1=one,
                player2=two,
                score1=scores[0],
                score2=scores[1],
            )
        Game.objects.create(
            division=division, round=number, player1=order[8], kind=Game.BYE, score1=50
        )
    return Division.objects.select_related("tournament").get(pk=division.pk)


def _scores(rng: random.Random) -> tuple[int, int]:
    # Draws now and then, and wins by far that earn a bonus.
    one = rng.randint(380, 420)
    roll = rng.random()
    if roll < 0.15:
        return one, one
    if roll < 0.4:
        return one + 150, one - 150
    return one, rng.randint(380, 420)


def _served_and_afresh(division: Division) -> list[tuple[list[Any], list[Any]]]:
    fresh = Division.objects.select_related("tournament").get(pk=division.pk)
    read = stamps.read(fresh)
    pairs = []
    for variant in VARIANTS:
        served = read_model.division_ratings(fresh, stamps=read, **variant)
        with memos.afresh():
            built = read_model.division_ratings(fresh, stamps=read, **variant)
        pairs.append((served, built))
    return pairs


def _table(rows: list[Any]) -> list[tuple]:
    return [(r.player.number, r.before, r.by_round, r.after_round) for r in rows]


def test_ratings_rated_again_for_the_changed_players_equal_those_computed_afresh(
    event: Division,
    director: User,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    ways = {"in part": 0, "rounds again": 0}
    rerated = ratings_engine.rerate_event
    in_part = ratings_engine.Nsa2008.rerate

    def counting(*args: Any, **kwargs: Any) -> Any:
        made = rerated(*args, **kwargs)
        ways["rounds again"] += made[1] is None
        return made

    def counting_in_part(self: ratings_engine.Nsa2008, *args: Any) -> Any:
        made = in_part(self, *args)
        ways["in part"] += made is not None
        return made

    monkeypatch.setattr(ratings_engine, "rerate_event", counting)
    monkeypatch.setattr(ratings_engine.Nsa2008, "rerate", counting_in_part)
    rng = random.Random(2026)
    _served_and_afresh(event)  # the ratings of the first stamp kept
    writes = {"result": 0, "correction": 0, "early correction": 0, "undo": 0}
    writes |= {"forfeit": 0, "withdrawal": 0}
    changed_ratings = 0
    for _step in range(70):
        games = list(Game.objects.filter(division=event).exclude(player2=None))
        pending = [g for g in games if g.score1 is None]
        entered = [g for g in games if g.score1 is not None]
        latest = max((g.round for g in entered), default=0)
        roll = rng.random()
        call: tuple[Callable[..., object], tuple[Any, ...], dict[str, Any]]
        if pending and (roll < 0.4 or not entered):
            g = rng.choice(pending)
            s1, s2 = _scores(rng)
            line = f"{g.player1.number} {s1} {g.player2.number} {s2}"  # type: ignore[union-attr]
            kind, call = "result", (results.enter_line, (event, g.round, line, director), {})
        elif entered and roll < 0.72:
            last = [g for g in entered if g.round == latest]
            early = rng.random() < 0.2
            g = rng.choice(entered if early else last)
            s1, s2 = _scores(rng)
            line = f"{g.player1.number} {s1} {g.player2.number} {s2}"  # type: ignore[union-attr]
            given = (event, g.round, line, director, g.version)
            kind = "early correction" if g.round < latest else "correction"
            call = (results.enter_line, given, {"reason": "the slip"})
        elif roll < 0.9:
            kind, call = "undo", (corrections.undo_last, (event, director), {})
        elif pending and roll < 0.95:
            g = rng.choice(pending)
            line = f"{g.player1.number} forfeit"
            kind, call = "forfeit", (results.enter_line, (event, g.round, line, director), {})
        else:
            player = rng.choice(list(Player.objects.filter(division=event)))
            given = (player, rng.randint(PLAYED, ROUNDS), director)
            kind, call = "withdrawal", (players.withdraw, given, {})
        before = _table(_served_and_afresh(event)[3][0])  # the desk's, after the last round
        try:
            with django_capture_on_commit_callbacks(execute=True):
                call[0](*call[1], **call[2])
        except Exception:  # noqa: BLE001 - a refused write (nothing to undo) writes nothing
            continue
        writes[kind] += 1
        served_tables = []
        for served, built in _served_and_afresh(event):
            assert _table(served) == _table(built)
            assert served == built
            served_tables.append(_table(served))
        changed_ratings += served_tables[3] != before
    # Every kind of write was made; most results were rated again in part, some rounds again
    # (a round's first result, a correction to an earlier round); the ratings changed.
    assert all(writes.values()), writes
    assert ways["in part"] >= writes["result"] // 2, (ways, writes)
    assert ways["rounds again"] > 0, ways
    assert changed_ratings > 20, (changed_ratings, writes, ways)


def test_a_worker_without_the_ratings_before_computes_them_afresh(
    event: Division, director: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    _served_and_afresh(event)
    g = Game.objects.filter(division=event, round=12).exclude(player2=None).first()
    assert g is not None
    results.enter_line(event, 12, f"{g.player1.number} 420 {g.player2.number} 380", director)  # type: ignore[union-attr]
    memos.clear_all()  # another worker: it holds no ratings of the stamp before
    monkeypatch.setattr(ratings_engine, "rerate_event", None)  # never called
    for served, built in _served_and_afresh(event):
        assert served == built
