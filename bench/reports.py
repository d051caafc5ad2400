"""All scorecards and the crosstable of a 500-player, 31-round division as PDF: the time each
takes and their sum. Prints figures, asserts nothing. Goal: under 10 s together.
Uses a throw-away SQLite file.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
_db = Path(tempfile.mkdtemp()) / "bench.sqlite3"
os.environ["DATABASE_URL"] = f"sqlite:///{_db}"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402

from bench.standings import build  # noqa: E402
from tournament import reports  # noqa: E402


def main() -> int:
    call_command("migrate", verbosity=0)
    division = build(500, 31)
    timings = {}
    for kind in ("scorecards", "crosstable"):
        start = time.perf_counter()
        made = reports.make(division, kind, "pdf")
        timings[kind] = time.perf_counter() - start
        print(f"{kind}: {timings[kind]:.2f} s, {len(made.content) // 1024} KiB")
    print(f"500 players, 31 rounds: scorecards and crosstable in {sum(timings.values()):.2f} s")
    print("goal: under 10 s together")
    return 0


if __name__ == "__main__":
    sys.exit(main())
