"""Small builders for the pairing tests: players, results, pairs as plain sets."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from tournament.engine.pairing import PairingResult
from tournament.engine.standings import Game, GameKind, Player


def field(*names: str) -> list[Player]:
    """Players seeded in the order given, the first with the highest rating."""
    return [Player(n, n, 2000 - 10 * i, i + 1) for i, n in enumerate(names)]


def numbered(count: int) -> list[Player]:
    return [Player(i, f"P{i}", 2000 - i, i) for i in range(1, count + 1)]


def win(a: object, b: object, by: int = 100, *, a_first: bool | None = None) -> Game:
    return Game(a, b, 400 + by, 400, first=a_first)


def bye(a: object, spread: int = 50) -> Game:
    return Game(a, None, spread, kind=GameKind.BYE)


def pairs(result: PairingResult) -> set[frozenset[object]]:
    """The round's games as unordered pairs (a bye as a one-player set)."""
    return {frozenset(p.players) for p in result.pairings}


def sets(*groups: Sequence[object]) -> set[frozenset[object]]:
    return {frozenset(g) for g in groups}


def games_of(result: PairingResult, winners: Iterable[object] = ()) -> list[Game]:
    """Results for a paired round: the first player wins unless the other is in `winners`."""
    chosen = set(winners)
    games = []
    for p in result.pairings:
        if p.second is None:
            games.append(bye(p.first))
        elif p.second in chosen:
            games.append(Game(p.second, p.first, 450, 350, first=False))
        else:
            games.append(Game(p.first, p.second, 450, 350, first=True))
    return games
