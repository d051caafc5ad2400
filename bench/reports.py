"""All scorecards and the crosstable of a 500-player and a 2,000-player division, 31 rounds
each, as PDF: the CPU and the wall time each takes, with the load average beside them; then, at
2,000 players, the crosstable asked for at the desk as a director does (built apart from the
request, `tournament/reports/prepared.py`): the longest any of its requests took, and when the
file was there. Prints figures, asserts nothing. Goals: at 500 × 31 both under 10 s together;
the crosstable of 2,000 × 31 under 6 s; no request of the desk's download held for more than a
fraction of a second. Uses a throw-away SQLite file.

    .venv/bin/python bench/reports.py            # 500 × 31 and 2,000 × 31
    .venv/bin/python bench/reports.py 500        # one size
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
os.environ.setdefault("ALLOWED_HOSTS", "testserver,127.0.0.1,localhost")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402

from bench.standings import build  # noqa: E402
from tournament import reports  # noqa: E402
from tournament.models import Division  # noqa: E402

ROUNDS = 31


def load() -> str:
    return open("/proc/loadavg").read().split()[0]


def timed_reports(division: Division, players: int) -> float:
    """Each report made as the desk makes it; the crosstable's time."""
    crosstable = 0.0
    for kind in ("scorecards", "crosstable"):
        wall, cpu = time.perf_counter(), time.process_time()
        made = reports.make(division, kind, "pdf", base="http://127.0.0.1:8000/")
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        print(
            f"{players} × {ROUNDS} {kind}: {wall:.2f} s ({cpu:.2f} s of CPU), "
            f"{len(made.content) // 1024} KiB, load {load()}",
            flush=True,
        )
        if kind == "crosstable":
            crosstable = wall
    return crosstable


def desk_download(division: Division) -> None:
    """The crosstable as a director downloads it: the waiting page asks again every
    `prepared.REFRESH` seconds until the file is there."""
    from django.contrib.auth.models import User
    from django.test import Client
    from django.urls import reverse

    from tournament.reports import prepared

    if not prepared.built_apart(division):
        print("the division is too small to be built apart: REPORTS_BUILT_APART_FROM")
        return
    director = User.objects.create_user(f"bench-{division.pk}")
    division.tournament.directors.add(director)
    client = Client()
    client.force_login(director)
    url = reverse("desk-report", args=[division.tournament.slug, division.pk, "crosstable", "pdf"])
    longest = 0.0
    start = time.perf_counter()
    query: dict[str, str] = {}
    requests = 0
    while True:
        asked = time.perf_counter()
        response = client.get(url, query)
        longest = max(longest, time.perf_counter() - asked)
        requests += 1
        if response.status_code == 200 and response.get("Content-Disposition"):
            break
        if response.status_code not in (200, 202) or time.perf_counter() - start > 300:
            print(f"the desk's download stopped at {response.status_code}")
            return
        query = {"wait": "1"} if response.status_code == 202 else {}
        if response.status_code == 202:
            time.sleep(prepared.REFRESH)
    print(
        f"{division.players.count()} × {ROUNDS} crosstable at the desk: the file after "
        f"{time.perf_counter() - start:.1f} s and {requests} requests, the longest request "
        f"{longest * 1000:.0f} ms, {len(response.content) // 1024} KiB, load {load()}"
    )


def main() -> int:
    sizes = [int(a) for a in sys.argv[1:]] or [500, 2000]
    call_command("migrate", verbosity=0)
    for players in sizes:
        division = build(players, ROUNDS)
        crosstable = timed_reports(division, players)
        if players >= 2000:
            print(f"goal: the crosstable of 2,000 × 31 under 6 s ({crosstable:.2f} s)")
            desk_download(division)
    print("goals: at 500 × 31 scorecards and crosstable under 10 s together; at 2,000 × 31 the")
    print("crosstable under 6 s; the desk's download never holding a request past a second")
    return 0


if __name__ == "__main__":
    sys.exit(main())
