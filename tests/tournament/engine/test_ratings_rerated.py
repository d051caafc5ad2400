"""nsa2008 ratings rated again after a change to a few players' games (`rerate_event`), from
the computation kept before it, against the same ratings computed from scratch (`rated_event`):
equal exactly, every part of the kept computation too, through many random events (rated and
unrated players, established and provisional, ratings at the band edges, one, two and three
segments) and many random results entered, corrected, removed and re-paired."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import pytest

from tournament.engine import ratings
from tournament.engine.ratings import (
    PlayerId,
    RatedEvent,
    RatedPlayer,
    rate_event,
    rated_event,
    rerate_event,
)
from tournament.engine.standings import Game, GameKind


@dataclass
class _Event:
    """An event as a director enters it: every round paired ahead, results entered by table."""

    players: list[RatedPlayer]
    system: str
    scheduled: int
    planned: int | None  # the length the event is rated by (None: the rounds played)
    # Each round's tables: [one, two, scores or None]; each round's byes.
    tables: list[list[list]] = field(default_factory=list)
    byes: list[list[PlayerId]] = field(default_factory=list)

    def played(self) -> int:
        """The last round with a result."""
        return max(
            (n for n, tables in enumerate(self.tables, 1) if any(t[2] for t in tables)),
            default=0,
        )

    def rounds(self) -> list[list[Game]]:
        """The games of each round up to the last with a result, as the read model gives them:
        the round's byes and its results entered."""
        found = []
        for number in range(1, self.played() + 1):
            games = [Game(p, None, 50, kind=GameKind.BYE) for p in self.byes[number - 1]]
            for one, two, scores in self.tables[number - 1]:
                if scores is not None:
                    games.append(Game(one, two, scores[0], scores[1]))
            found.append(games)
        return found


def _player(rng: random.Random, pid: int) -> RatedPlayer:
    roll = rng.random()
    if roll < 0.2:
        rating = 0.0  # a newcomer
    elif roll < 0.45:
        rating = rng.choice([1800, 2000]) + rng.randint(-6, 6)  # at a band's edge
    elif roll < 0.5:
        rating = rng.randint(1, 40)  # near the floor
    else:
        rating = rng.randint(400, 2300)
    career = 0 if not rating else rng.choice([0, 12, 49, 50, 51, 300])
    return RatedPlayer(pid, rating, career)


def _event(rng: random.Random, scheduled: int, started: tuple[int, int]) -> _Event:
    """An event of `scheduled` rounds, its first rounds played (as many as `started` allows)."""
    size = rng.randint(4, 22)
    players = [_player(rng, pid) for pid in range(1, size + 1)]
    planned = None if scheduled == 12 and rng.random() < 0.5 else scheduled
    event = _Event(players, rng.choice(["nsa2008", "naspa-csw"]), scheduled, planned)
    for _ in range(event.scheduled):
        present = [p.id for p in players if rng.random() > 0.08]
        rng.shuffle(present)
        byes = present[len(present) // 2 * 2 :]
        pairs = [[present[i], present[i + 1], None] for i in range(0, len(present) - 1, 2)]
        event.tables.append(pairs)
        event.byes.append(byes)
    for tables in event.tables[: rng.randint(*started)]:
        for table in tables:
            table[2] = _scores(rng)
    return event


def _scores(rng: random.Random) -> tuple[int, int]:
    one = rng.randint(300, 500)
    # Draws now and then, and lopsided results that earn a bonus.
    roll = rng.random()
    if roll < 0.1:
        return one, one
    if roll < 0.3:
        return one + 200, one - 150
    return one, rng.randint(300, 500)


def _write(rng: random.Random, event: _Event) -> tuple[int, set[PlayerId]] | None:
    """One write of results, mostly to the last round played: (its round, the players of the
    games it changed, before and after); None if nothing was written."""
    last = event.played()
    roll = rng.random()
    if last == 0 or (roll < 0.08 and last < event.scheduled):
        number = last + 1  # a new round's first result
    elif roll < 0.18 and last > 1:
        number = rng.randint(1, last - 1)  # a correction to an earlier round
    else:
        number = last
    tables = event.tables[number - 1]
    if not tables:
        return None
    pending = [t for t in tables if t[2] is None]
    entered = [t for t in tables if t[2] is not None]
    roll = rng.random()
    if pending and (roll < 0.45 or not entered):
        table = rng.choice(pending)
        table[2] = _scores(rng)
        return number, {table[0], table[1]}
    if roll < 0.75:
        table = rng.choice(entered)
        table[2] = _scores(rng)  # corrected
        return number, {table[0], table[1]}
    if roll < 0.9 or len(tables) < 2:
        table = rng.choice(entered)
        table[2] = None  # removed
        return number, {table[0], table[1]}
    # Two tables re-paired: each player meets another of the four.
    one, two = rng.sample(tables, 2)
    players = {one[0], one[1], two[0], two[1]}
    one[1], two[0] = two[0], one[1]
    for table in (one, two):
        table[2] = _scores(rng) if rng.random() < 0.8 else None
    return number, players


def _length(event: _Event) -> int | None:
    """The event's length as the read model gives it: its planned rounds, or without them
    (`planned` None) the rounds played."""
    return max(event.planned or 0, event.played()) or None


def _fresh(event: _Event) -> RatedEvent:
    return rated_event(
        event.players, event.rounds(), system=event.system, max_rounds=_length(event)
    )


def _check(got: RatedEvent, touched: set[PlayerId] | None, fresh: RatedEvent, before: RatedEvent):
    assert got.ratings == fresh.ratings
    # Every part of the kept computation, so that the next write starts from the exact one.
    assert got.held == fresh.held
    assert got.rounds == fresh.rounds
    if touched is not None:
        differ = {pid for pid, r in fresh.ratings.items() if before.ratings.get(pid) != r}
        assert differ <= touched


@pytest.mark.parametrize("seed", range(6))
def test_ratings_rated_again_after_each_write_equal_those_computed_from_scratch(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    rerated = ratings.Nsa2008.rerate
    ways = {"in part": 0, "afresh": 0}

    def counting(self: ratings.Nsa2008, *args: object) -> object:
        made = rerated(self, *args)  # type: ignore[arg-type]
        ways["in part" if made is not None else "afresh"] += 1
        return made

    monkeypatch.setattr(ratings.Nsa2008, "rerate", counting)
    rng = random.Random(seed)
    writes = 0
    seen = {"bonus": 0, "later segment": 0, "segments after": 0, "newcomer": 0}
    # In the first segment, the last, one between; one, two and three segments.
    for scheduled, started in [(12, (0, 11)), (20, (10, 19)), (40, (0, 12)), (40, (14, 39))]:
        event = _event(rng, scheduled, started)
        # Every state kept, with the writes since: a worker may hold one several writes back.
        history: list[tuple[RatedEvent, list[tuple[int, set[PlayerId]]]]] = []
        for _step in range(60):
            written = _write(rng, event)
            if written is None:
                continue
            writes += 1
            for _kept, since in history:
                since.append(written)
            fresh = _fresh(event)
            if history:
                kept, since = history[-1] if rng.random() < 0.8 else rng.choice(history)
                got, touched = rerate_event(
                    kept,
                    event.rounds(),
                    changed_rounds={n for n, _ in since},
                    changed_players={p for _, players in since for p in players},
                    max_rounds=_length(event),
                )
                _check(got, touched, fresh, kept)
                if got.held is not None:
                    segment = got.held.segment
                    seen["bonus"] += bool(segment.bonus)
                    seen["later segment"] += segment.first > 1
                    seen["segments after"] += bool(got.held.later)
                    seen["newcomer"] += not all(segment.start.values())
                history.append((got, []))
            else:
                history.append((fresh, []))
            del history[:-6]
        assert history[-1][0].ratings == rate_event(
            event.players, event.rounds(), system=event.system, max_rounds=_length(event)
        )
    assert writes > 200
    # Most writes were rated in part; newcomers' games and earlier rounds were rated afresh.
    assert ways["in part"] > writes / 3 and ways["afresh"] > 5, ways
    # Bonuses and their feedback, segments after the first and before the last, newcomers.
    assert min(seen.values()) > 5, seen


def test_a_write_to_no_round_rated_keeps_everything() -> None:
    players = [RatedPlayer("A", 1500, 100), RatedPlayer("B", 1600, 100)]
    kept = rated_event(players, [[Game("A", "B", 400, 300)]], max_rounds=12)

    again, touched = rerate_event(
        kept,
        [[Game("A", "B", 400, 300)]],
        changed_rounds=[2],  # a round not rated yet
        changed_players=["A", "B"],
        max_rounds=12,
    )

    assert again is kept and touched == set()


def test_a_round_added_is_rated_and_the_rounds_before_it_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    players = [RatedPlayer("A", 1500, 100), RatedPlayer("B", 1600, 100)]
    one = [[Game("A", "B", 400, 300)]]
    two = [*one, [Game("A", "B", 300, 400)]]
    kept = rated_event(players, one, max_rounds=12)
    rated: list[int] = []
    rate_held = ratings.Nsa2008.rate_held

    def counting(self: ratings.Nsa2008, players: object, rounds: list, length: int) -> object:
        rated.append(len(rounds))
        return rate_held(self, players, rounds, length)  # type: ignore[arg-type]

    monkeypatch.setattr(ratings.Nsa2008, "rate_held", counting)
    again, touched = rerate_event(kept, two, changed_rounds=[], changed_players=[], max_rounds=12)

    assert again.ratings == rated_event(players, two, max_rounds=12).ratings
    assert touched is None and rated == [2, 2]  # round 2 rated (and again for the check)


def test_an_event_of_another_length_is_rated_afresh() -> None:
    players = [RatedPlayer("A", 1500, 100), RatedPlayer("B", 1600, 100)]
    rounds = [[Game("A", "B", 400, 300)]] * 17
    kept = rated_event(players, rounds[:16])  # one segment

    again, touched = rerate_event(kept, rounds, changed_rounds=[], changed_players=[])

    assert again.ratings == rated_event(players, rounds).ratings  # two segments
    assert touched is None and again.scheduled == 17


def test_a_last_round_result_rates_again_its_players_and_the_opponents_of_a_new_bonus() -> None:
    rounds = [
        [Game("A", "B", 400, 300), Game("C", "D", 400, 300), Game("E", "F", 400, 300)],
        [Game("A", "C", 400, 300), Game("B", "E", 400, 300)],
    ]
    result = [rounds[0], [*rounds[1], Game("D", "F", 500, 300)]]  # the lists kept left alone
    even = [RatedPlayer(p, 1500 + 50 * i, 100) for i, p in enumerate("ABCDEF")]
    # D far below F: a win earns D a bonus, whose feedback goes to D's opponents C and F.
    steep = [*even[:3], RatedPlayer("D", 1000, 100), *even[4:]]
    touched_by = {}
    for players in (even, steep):
        kept = rated_event(players, rounds, max_rounds=12)

        again, touched = rerate_event(
            kept, result, changed_rounds=[2], changed_players={"D", "F"}, max_rounds=12
        )

        assert again.ratings == rated_event(players, result, max_rounds=12).ratings
        assert again.held == rated_event(players, result, max_rounds=12).held
        touched_by[players[3].rating] = touched
    assert touched_by == {1650: {"D", "F"}, 1000: {"C", "D", "F"}}
