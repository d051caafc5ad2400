"""Games verified per second over the real game records in ../shared/corpus/gcg (one core).

Prints figures, asserts nothing. Goal: at least 2,500 games a second.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scoring import verify  # noqa: E402

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "gcg"


def main() -> int:
    if not CORPUS.is_dir():
        print(f"corpus not found at {CORPUS}; nothing to measure")
        return 0
    records = [p.read_bytes() for p in sorted(CORPUS.rglob("*.gcg"))]
    events = sum(r.count(b"\n>") + r.startswith(b">") for r in records)
    for data in records:  # warm the caches (tile sets, layout)
        verify(data)
    best = float("inf")
    rounds = 15
    for _ in range(rounds):
        start = time.perf_counter()
        for data in records:
            verify(data)
        best = min(best, time.perf_counter() - start)
    per_second = len(records) / best
    print(f"records: {len(records)} ({events} events)")
    print(f"best of {rounds}: {best * 1000:.1f} ms for all records")
    print(f"games verified per second: {per_second:,.0f} (goal 2,500)")
    print(f"events per second: {events / best:,.0f}")
    print(f"ratio to goal: {per_second / 2500:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
