"""How long the Swiss takes to pair a big division: 500 players after 20 rounds.

The 20 rounds are played out first with seeded random results: each player has a hidden
strength, a game's scores are drawn around 380 plus a share of the difference of strengths,
and each round is paired by the engine's own Swiss (so the history looks like a real event's:
score groups, rematches avoided). Then round 21 is paired and timed. Prints figures only.

    .venv/bin/python bench/pairing.py [players] [rounds]
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tournament.engine.pairing import PairingRules, pair_round  # noqa: E402
from tournament.engine.standings import Game, GameKind, Player  # noqa: E402


def play(rng: random.Random, strength: dict[int, float], a: int, b: int) -> tuple[int, int]:
    edge = (strength[a] - strength[b]) / 8
    return round(rng.gauss(380 + edge, 55)), round(rng.gauss(380 - edge, 55))


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    played = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    rng = random.Random(2026)
    players = [
        Player(i, f"Player {i}", round(rng.gauss(1500, 300)), i) for i in range(1, count + 1)
    ]
    strength = {p.id: p.rating + rng.gauss(0, 150) for p in players}
    rules = PairingRules(max_repeats=0, rounds_total=played + 3)
    rounds: list[list[Game]] = []
    history_time = 0.0
    for number in range(1, played + 1):
        start = time.perf_counter()
        result = pair_round(players, rounds, number, "swiss", rules)
        history_time += time.perf_counter() - start
        games = []
        for p in result.pairings:
            if p.second is None:
                games.append(Game(p.first, None, 50, kind=GameKind.BYE))
                continue
            s1, s2 = play(rng, strength, p.first, p.second)
            if s1 == s2:
                s1 += 1
            games.append(Game(p.first, p.second, s1, s2, first=True))
        rounds.append(games)
    start = time.perf_counter()
    result = pair_round(players, rounds, played + 1, "swiss", rules)
    elapsed = time.perf_counter() - start
    rematches = sum(1 for w in result.warnings if w.code in ("rematch", "repeat_limit"))
    gaps = [w for w in result.warnings if w.code == "rank_gap"]
    print(f"players: {count}, rounds played: {played}")
    print(
        f"history: {played} Swiss rounds paired in {history_time:.2f} s "
        f"({history_time / played:.2f} s a round)"
    )
    print(f"round {played + 1}: {len(result.pairings)} tables paired in {elapsed:.2f} s")
    print(f"  rematches: {rematches}, pairs two or more wins apart: {len(gaps)}")


if __name__ == "__main__":
    main()
