"""How long the Swiss takes to pair a big division: 500 players after 20 rounds; and how long
COP takes to pair a round near the end of an event.

The 20 rounds are played out first with seeded random results: each player has a hidden
strength, a game's scores are drawn around 380 plus a share of the difference of strengths,
and each round is paired by the engine's own Swiss (so the history looks like a real event's:
score groups, rematches avoided). Then round 21 is paired and timed. Prints figures only.

    .venv/bin/python bench/pairing.py [players] [rounds]
    .venv/bin/python bench/pairing.py cop

`cop` plays 24 rounds of a 27-round event by Swiss for 30 players and for 300, then times COP
pairing round 25 (3 rounds left, control loss active): 30 players with Woogles' default
simulations (100,000 of the division, 10,000 for each control-loss test), 300 players with
them scaled down by the players' number, as Woogles' fixed time budget a phase (6 s) does in
effect (10,000 and 1,000). Prints the time of each phase: the division's runs, control loss,
the matching.
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


def history(
    count: int, played: int, rules: PairingRules
) -> tuple[list[Player], list[list[Game]], float]:
    """`played` rounds of seeded random results, each round paired by the Swiss."""
    rng = random.Random(2026)
    players = [
        Player(i, f"Player {i}", round(rng.gauss(1500, 300)), i) for i in range(1, count + 1)
    ]
    strength = {p.id: p.rating + rng.gauss(0, 150) for p in players}
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
    return players, rounds, history_time


def cop() -> None:
    from tournament.engine.pairing import cop as cop_module
    from tournament.engine.pairing import cop_sim

    total_rounds, played = 27, 24
    swiss = PairingRules(max_repeats=1, rounds_total=total_rounds, options={"relax_repeats": True})
    for count, sims, control in ((30, 100_000, 10_000), (300, 10_000, 1_000)):
        players, rounds, _ = history(count, played, swiss)
        options = {"division_sims": sims, "control_loss_sims": control, "seed": 1}
        rules = PairingRules(max_repeats=1, rounds_total=total_rounds, options=options)
        phases: dict[str, float] = {}
        wrapped = []
        for module, name in (
            (cop_sim.Sim, "factor_runs"),
            (cop_sim.Sim, "control_loss"),
            (cop_sim.Sim, "runs_with"),
            (cop_module, "_match"),
        ):
            original = getattr(module, name)
            wrapped.append((module, name, original))

            def timed(*args, _original=original, _name=name, _phases=phases, **kwargs):  # type: ignore[no-untyped-def]  # noqa: E501
                start = time.perf_counter()
                try:
                    return _original(*args, **kwargs)
                finally:
                    _phases[_name] = _phases.get(_name, 0.0) + time.perf_counter() - start

            setattr(module, name, timed)
        try:
            start, cpu = time.perf_counter(), time.process_time()
            result = pair_round(players, rounds, played + 1, "cop", rules)
            elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
        finally:
            for module, name, original in wrapped:
                setattr(module, name, original)
        print(
            f"COP, {count} players, round {played + 1} of {total_rounds} "
            f"({sims:,} division sims, {control:,} control-loss sims): {elapsed:.2f} s "
            f"({cpu:.2f} s of CPU)"
        )
        for name, seconds in phases.items():
            print(f"  {name}: {seconds:.2f} s")
        note = next(n for n in result.notes if n.code == "cop_summary")
        print(f"  {note}")
        control_note = [n for n in result.notes if n.code == "cop_control_loss_note"]
        print(f"  {control_note[0] if control_note else 'no control loss'}")


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "cop":
        cop()
        return
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    played = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    rules = PairingRules(max_repeats=0, rounds_total=played + 3)
    players, rounds, history_time = history(count, played, rules)
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
