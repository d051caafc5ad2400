"""The matching under every pairing: rustworkx's blossom gives the exact minimum, the same cost
as networkx on the same graph (the solver before it, still used for very wide weights), and as
trying every matching of a small field."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from tests.tournament.engine.test_pairing_corpus import EVENTS, _event, _rounds
from tournament.engine.pairing import PairingRules, matching
from tournament.engine.pairing.history import build_field
from tournament.engine.pairing.matching import levels, min_cost_matching, unpairable
from tournament.engine.pairing.systems import pair_swiss
from tournament.engine.standings import Player


def _matchings(rest: list[int], allowed: set[frozenset[int]]) -> Iterator[list[tuple[int, int]]]:
    if not rest:
        yield []
        return
    a = rest[0]
    for b in rest[1:]:
        if frozenset((a, b)) in allowed:
            others = [p for p in rest if p not in (a, b)]
            for found in _matchings(others, allowed):
                yield [(a, b), *found]


def _brute(order: list[int], costs: dict[frozenset[int], int], byes: dict[int, int]) -> int | None:
    best: int | None = None
    allowed = set(costs)
    for bye in byes if len(order) % 2 else [None]:
        rest = [p for p in order if p != bye]
        extra = 0 if bye is None else byes[bye]
        for found in _matchings(rest, allowed):
            total = extra + sum(costs[frozenset(pair)] for pair in found)
            best = total if best is None or total < best else best
    return best


def _problem(seed: int, n: int) -> tuple[list[int], dict[frozenset[int], int], dict[int, int]]:
    rng = random.Random(seed)
    order = list(range(n))
    weights = levels(n * n, n, n)  # place, repeat, wins: lexicographic, as the systems price
    costs = {}
    for i in order:
        for j in order[i + 1 :]:
            if rng.random() < 0.75:  # the rest have met: not allowed
                terms = (abs(j - i), rng.randint(0, 1), rng.randint(0, 2))
                costs[frozenset((i, j))] = sum(w * t for w, t in zip(weights, terms, strict=True))
    byes = {p: (n - p) * weights[-1] * 3 for p in order if rng.random() < 0.5}
    return order, costs, byes


@pytest.mark.parametrize("near_the_bound", [False, True])
@pytest.mark.parametrize("seed", range(40))
def test_the_matching_is_the_cheapest_of_all(seed: int, near_the_bound: bool) -> None:
    n = 7 + seed % 4  # 7 to 10 players: odd fields take a bye
    order, costs, byes = _problem(seed, n)
    if near_the_bound:  # weights just below what the 128-bit solver takes
        widest = max([*costs.values(), *byes.values()])
        scale = 2 ** (matching.WIDE.bit_length() - 2 - widest.bit_length())
        costs = {pair: c * scale for pair, c in costs.items()}
        byes = {p: c * scale for p, c in byes.items()}
        assert matching.WIDE // 4 <= max([*costs.values(), *byes.values()]) < matching.WIDE // 2
    expected = _brute(order, costs, byes)
    found = min_cost_matching(
        order,
        lambda a, b: costs.get(frozenset((a, b))),
        neighbours=n,
        bye_cost=lambda p: byes.get(p),
    )
    if expected is None:
        assert found is None
        return
    assert found is not None
    assert found.cost == expected
    assert sum(costs[frozenset(p)] for p in found.pairs) + byes.get(found.bye, 0) == expected


def test_weights_too_wide_for_128_bits_are_matched_exactly_by_networkx() -> None:
    huge = 2**140
    costs = {
        frozenset((1, 2)): 3 * huge,
        frozenset((3, 4)): 3 * huge,
        frozenset((1, 3)): huge,
        frozenset((2, 4)): huge + 1,
        frozenset((1, 4)): 2 * huge,
        frozenset((2, 3)): 2 * huge - 2,
    }
    found = min_cost_matching([1, 2, 3, 4], lambda a, b: costs.get(frozenset((a, b))))
    assert found is not None
    assert found.pairs == [(1, 3), (2, 4)]
    assert found.cost == 2 * huge + 1


@pytest.mark.parametrize("name", EVENTS)
def test_a_real_events_swiss_costs_the_same_by_either_solver(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    tfile = _event(name)
    rounds = _rounds(tfile)
    players = [Player(p.number, p.name, p.rating_value, p.number) for p in tfile.players]
    rules = PairingRules(max_repeats=2, rounds_total=tfile.rounds, gibson=False)
    compared = 0
    for number in range(2, tfile.rounds + 1):
        fld = build_field(players, rounds[: number - 1], number, rules)
        ours = pair_swiss(fld)
        with monkeypatch.context() as patch:
            patch.setattr(matching, "WIDE", 0)
            reference = pair_swiss(fld)
        assert ours.cost == reference.cost, f"{name} round {number}"
        assert len(ours.tables) == len(reference.tables) == (len(players) + 1) // 2
        compared += 1
    assert compared == tfile.rounds - 1


def test_who_a_largest_pairing_leaves_out() -> None:
    allowed = {frozenset(p) for p in [("A", "B"), ("B", "C"), ("C", "D"), ("D", "E"), ("E", "F")]}

    def may(a: str, b: str) -> bool:
        return frozenset((a, b)) in allowed

    assert unpairable(["A", "B", "C", "D", "E", "F"], may) == []
    assert unpairable(["A", "B", "C", "D", "E", "F", "G"], may) == ["G"]
    assert sorted(unpairable(["A", "B", "C", "D", "E"], may)) in (["A"], ["C"], ["E"])
