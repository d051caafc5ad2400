"""The consistency check (`manage.py checkevent`) and the event simulator's steps, at 100 and
500 players.

1. `checkevent` on a synthetic division (every round played, nothing cached and then cached):
   seconds and queries, at 100 × 10 and 500 × 31.
2. A simulated event (`event/simulate.py`) of one division: each step's services timed (p50,
   p99, max) and the check after each round, at 100 players over three rounds and 500 over two.

Prints figures, asserts nothing. Uses a throw-away SQLite file.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import standings as synthetic  # noqa: E402  (sets up Django on a throw-away database)
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from tournament.event import checks, simulate  # noqa: E402
from tournament.standings import memos  # noqa: E402


def ms(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return 1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def check_figures(players: int, rounds: int) -> None:
    division = synthetic.build(players, rounds)
    memos.clear_all()
    for label in ("cold", "warm"):
        with CaptureQueriesContext(connection) as queries:
            started = time.perf_counter()
            found = checks.check_event(division.tournament)
            seconds = time.perf_counter() - started
        print(
            f"checkevent {players} players x {rounds} rounds, {label}: {seconds:.2f} s, "
            f"{len(queries)} queries, {len(found)} findings"
        )


def simulated(players: int, rounds: int) -> None:
    outcome = simulate.Outcome()
    started = time.perf_counter()
    simulate.Event(
        5, 0, outcome, players=(players, players), rounds_planned=(rounds, rounds), divisions=1,
        check_each_step=False,
    ).run()  # fmt: skip
    total = time.perf_counter() - started
    steps, checked = outcome.step_seconds, outcome.check_seconds
    print(
        f"simulated event, {players} players x {rounds} rounds: {outcome.steps} steps in "
        f"{total:.1f} s; "
        f"a step's services p50 {ms(steps, 0.5):.0f} ms, p99 {ms(steps, 0.99):.0f} ms, "
        f"max {ms(steps, 1.0):.0f} ms; the check after each round "
        f"p50 {ms(checked, 0.5):.0f} ms, max {ms(checked, 1.0):.0f} ms; "
        f"{len(outcome.violations)} violations"
    )


def main() -> int:
    call_command("migrate", verbosity=0)
    check_figures(100, 10)
    check_figures(500, 31)
    simulated(100, 3)
    simulated(500, 2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
