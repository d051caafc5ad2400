"""How long the Swiss takes to pair a big division: 500, 1,000 and 2,000 players after 20 rounds;
and how long COP takes to pair a round near the end of an event.

The 20 rounds are played out first with seeded random results: each player has a hidden
strength, a game's scores are drawn around 380 plus a share of the difference of strengths,
and each round is paired by the engine's own Swiss (so the history looks like a real event's:
score groups, rematches avoided). Then round 21 is paired and timed, in the process's CPU time
(wall time beside it), with the matching's own share. Then the same round is solved again by
networkx on the same graph (the solver `matching.py` falls back to for very wide weights, and
the one used before rustworkx): the pairs compared, and the cost of both, which must be equal.
Prints figures only.

    .venv/bin/python bench/pairing.py [players ...] [--rounds N] [--no-compare]
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

from tournament.engine.pairing import PairingRules, matching, pair_round  # noqa: E402
from tournament.engine.pairing.history import build_field  # noqa: E402
from tournament.engine.pairing.systems import pair_swiss  # noqa: E402
from tournament.engine.standings import Game, GameKind, Player  # noqa: E402


def play(rng: random.Random, strength: dict[int, float], a: int, b: int) -> tuple[int, int]:
    edge = (strength[a] - strength[b]) / 8
    return round(rng.gauss(380 + edge, 55)), round(rng.gauss(380 - edge, 55))


def load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


class SolverClock:
    """Adds up the CPU time spent in the matching solver (`matching._solve`)."""

    def __init__(self) -> None:
        self.spent = 0.0
        self.inner = matching._solve

    def __call__(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        start = time.process_time()
        try:
            return self.inner(*args, **kwargs)
        finally:
            self.spent += time.process_time() - start


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
        start = time.process_time()
        result = pair_round(players, rounds, number, "swiss", rules)
        history_time += time.process_time() - start
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


def run(count: int, played: int, compare: bool) -> None:
    rules = PairingRules(max_repeats=0, rounds_total=played + 3)
    players, rounds, history_time = history(count, played, rules)
    clock = SolverClock()
    matching._solve = clock  # type: ignore[assignment]
    try:
        before = load()
        wall = time.perf_counter()
        start = time.process_time()
        result = pair_round(players, rounds, played + 1, "swiss", rules)
        cpu = time.process_time() - start
        wall = time.perf_counter() - wall
    finally:
        matching._solve = clock.inner  # type: ignore[assignment]
    rematches = sum(1 for w in result.warnings if w.code in ("rematch", "repeat_limit"))
    gaps = [w for w in result.warnings if w.code == "rank_gap"]
    print(f"players: {count}, rounds played: {played}")
    print(
        f"  history: {played} Swiss rounds paired in {history_time:.2f} s CPU "
        f"({history_time / played:.2f} s a round)"
    )
    print(
        f"  round {played + 1}: {len(result.pairings)} tables paired in {cpu:.2f} s CPU "
        f"({wall:.2f} s wall), the matching solver {clock.spent:.2f} s  [load {before}]"
    )
    print(f"  rematches: {rematches}, pairs two or more wins apart: {len(gaps)}")
    if not compare:
        return
    fld = build_field(players, rounds, played + 1, rules)
    ours = pair_swiss(fld)
    wide, matching.WIDE = matching.WIDE, 0  # every matching by networkx
    try:
        start = time.process_time()
        reference = pair_swiss(fld)
        reference_cpu = time.process_time() - start
    finally:
        matching.WIDE = wide

    def pairs(draft_tables: list) -> set[frozenset[int | None]]:  # type: ignore[type-arg]
        return {frozenset((t.a, t.b)) for t in draft_tables}

    differ = len(pairs(ours.tables) ^ pairs(reference.tables)) // 2
    print(
        f"  networkx on the same graph: {reference_cpu:.2f} s CPU; pairs "
        + ("identical" if not differ else f"differ at {differ} tables")
        + f"; cost {ours.cost} against {reference.cost}: "
        + ("equal" if ours.cost == reference.cost else "NOT EQUAL")
    )


def main() -> None:
    args = sys.argv[1:]
    if args[:1] == ["cop"]:
        cop()
        return
    played = 20
    if "--rounds" in args:
        at = args.index("--rounds")
        played = int(args[at + 1])
        del args[at : at + 2]
    compare = "--no-compare" not in args
    sizes = [int(a) for a in args if a != "--no-compare"] or [500, 1000, 2000]
    for count in sizes:
        run(count, played, compare)


if __name__ == "__main__":
    main()
