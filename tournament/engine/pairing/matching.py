"""Minimum-cost perfect matching over a sparse graph of likely opponents (rustworkx underneath).

A complete graph of 500 players has 125,000 edges, too many to price and solve at the desk. Good
pairings join players near each other in the standings (or near a known ideal place, such as
half a score group away in a Swiss), so each player is linked only to the nearest `neighbours`
players above and below that they may meet, plus any extra candidates the system names. When
that graph has no perfect matching the neighbourhoods are doubled, up to the complete graph, so
an answer is found whenever one exists.

Costs are whole numbers, combined lexicographically by the callers (`levels`), and the matching
is exact: rustworkx's blossom algorithm (Galil's, in Rust, on 128-bit integers) finds a cheapest
perfect matching of the graph; it is the algorithm networkx implements in Python, which took
11 s of CPU for a Swiss of 2,000 players, and which still solves the rare graph whose weights
are too wide for 128 bits (`WIDE`). Where two matchings cost the same, the two may choose
differently; the cost is the same.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import networkx as nx
import rustworkx as rx

from tournament.engine.standings import PlayerId

Cost = Callable[[PlayerId, PlayerId], int | None]  # None: the two may not meet

BYE = ("__bye__",)  # the stand-in opponent of whoever gets the bye


@dataclass
class Matched:
    pairs: list[tuple[PlayerId, PlayerId]]  # in the order of the higher-placed player
    bye: PlayerId | None
    cost: int


def levels(*bounds: int) -> list[int]:
    """Weights for lexicographic costs: `bounds[i]` bounds the total of level i over a round
    (the lowest level first); each weight exceeds everything the levels below can add up to."""
    weights = []
    weight = 1
    total = 0
    for bound in bounds:
        weights.append(weight)
        total += weight * bound
        weight = total + 1
    return weights


def min_cost_matching(
    order: Sequence[PlayerId],
    cost: Cost,
    *,
    neighbours: int = 8,
    counts: Callable[[PlayerId, PlayerId], bool] | None = None,
    extra: Callable[[int], Iterable[int]] | None = None,
    bye_cost: Callable[[PlayerId], int | None] | None = None,
) -> Matched | None:
    """The cheapest way to pair everyone in `order` (standings order), or None if there is none.

    With an odd number of players, `bye_cost` prices giving each one the bye (None: never).
    `counts(a, b)` says whether an allowed opponent counts towards the `neighbours` wanted
    (an allowed but forbidden pair does not); `extra(i)` names more candidate positions for
    the player at position i.
    """
    n = len(order)
    odd = n % 2 == 1
    if odd and bye_cost is None:
        raise ValueError("an odd number of players to pair and no bye allowed")
    if n == 0:
        return Matched([], None, 0)
    width = max(1, neighbours)
    cache: dict[tuple[int, int], int | None] = {}

    def edge_cost(i: int, j: int) -> int | None:
        key = (i, j) if i < j else (j, i)
        if key not in cache:
            cache[key] = cost(order[key[0]], order[key[1]])
        return cache[key]

    byes: dict[int, int] = {}
    if odd:
        assert bye_cost is not None
        for i, pid in enumerate(order):
            c = bye_cost(pid)
            if c is not None:
                byes[i] = c
        if not byes:
            return None
    while True:
        edges = _candidate_edges(n, width, edge_cost, order, counts, extra)
        found = _solve(n, edges, byes)
        if found is not None or width >= n:
            break
        width *= 2
    if found is None:
        return None
    pairs, bye, total = found
    ordered = sorted(pairs, key=lambda p: min(p))
    return Matched(
        [(order[a], order[b]) for a, b in ordered],
        None if bye is None else order[bye],
        total,
    )


def _candidate_edges(
    n: int,
    width: int,
    edge_cost: Callable[[int, int], int | None],
    order: Sequence[PlayerId],
    counts: Callable[[PlayerId, PlayerId], bool] | None,
    extra: Callable[[int], Iterable[int]] | None,
) -> dict[tuple[int, int], int]:
    edges: dict[tuple[int, int], int] = {}

    def add(i: int, j: int) -> bool:
        c = edge_cost(i, j)
        if c is None:
            return False
        edges[(i, j) if i < j else (j, i)] = c
        return counts is None or counts(order[i], order[j])

    for i in range(n):
        for step in (1, -1):
            found = 0
            j = i + step
            while 0 <= j < n and found < width:
                if add(i, j):
                    found += 1
                j += step
        if extra is not None:
            for j in extra(i):
                if 0 <= j < n and j != i:
                    add(i, j)
    return edges


# The weights rustworkx takes are 128-bit integers, and its blossom algorithm adds up to a few
# of them at a time: below this bound nothing overflows. Above it (a rare field, with costs of
# many levels over thousands of players) networkx solves the same problem in Python's integers.
WIDE = 2**120


def _solve(
    n: int, edges: dict[tuple[int, int], int], byes: dict[int, int]
) -> tuple[list[tuple[int, int]], int | None, int] | None:
    costs = list(edges.values()) + list(byes.values())
    # Maximising (top - cost) over matchings of the largest size is minimising the cost over
    # perfect matchings, when there are any.
    top = max(costs, default=0) + 1
    bye_node = n
    weighted = [(i, j, top - c) for (i, j), c in edges.items()]
    weighted += [(i, bye_node, top - c) for i, c in byes.items()]
    if top < WIDE:
        graph = rx.PyGraph(multigraph=False)
        graph.add_nodes_from(range(n + 1))
        graph.add_edges_from(weighted)
        matching = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    else:
        matching = _solve_wide(n + 1, weighted)
    size = n + (1 if byes else 0)
    if 2 * len(matching) < size:
        return None
    pairs: list[tuple[int, int]] = []
    bye: int | None = None
    total = 0
    for a, b in matching:
        if bye_node in (a, b):
            bye = a if b == bye_node else b
            total += byes[bye]
            continue
        i, j = (a, b) if a < b else (b, a)
        pairs.append((i, j))
        total += edges[(i, j)]
    return pairs, bye, total


def _solve_wide(nodes: int, weighted: list[tuple[int, int, int]]) -> set[tuple[int, int]]:
    graph = nx.Graph()
    graph.add_nodes_from(range(nodes))
    graph.add_weighted_edges_from(weighted)
    return set(nx.max_weight_matching(graph, maxcardinality=True))


def unpairable(
    order: Sequence[PlayerId], allowed: Callable[[PlayerId, PlayerId], bool]
) -> list[PlayerId]:
    """Players a largest possible pairing under `allowed` leaves out (complete graph)."""
    graph = rx.PyGraph(multigraph=False)
    graph.add_nodes_from(range(len(order)))
    graph.add_edges_from_no_data(
        [
            (i, j)
            for i, a in enumerate(order)
            for j in range(i + 1, len(order))
            if allowed(a, order[j])
        ]
    )
    matching = rx.max_weight_matching(graph, max_cardinality=True)
    matched = {i for pair in matching for i in pair}
    return [p for i, p in enumerate(order) if i not in matched]
