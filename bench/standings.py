"""Standings of a 500-player, 31-round division: time to compute, time to render the public page,
and the page's number of SQL queries (which must not grow with players or rounds).

Prints figures, asserts nothing. Goal: the page in under 200 ms. Uses a throw-away SQLite file.
Measured as a gunicorn worker runs (`config/gunicorn_conf.py`: what is loaded frozen out of the
garbage collector, collections every 50,000 allocations), so that a full collection the
process's own start left due does not fall inside the first call timed.
"""

from __future__ import annotations

import os
import random
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
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.urls import reverse  # noqa: E402

from config.gunicorn_conf import post_worker_init  # noqa: E402
from tournament.models import Division, Game, Player, Tournament  # noqa: E402
from tournament.standings import read_model, stamps  # noqa: E402


def build(players: int, rounds: int, seed: int = 1) -> Division:
    rng = random.Random(seed)
    tournament = Tournament.objects.create(
        name=f"Bench {players}x{rounds}", slug=f"b{players}-{rounds}"
    )
    division = Division.objects.create(tournament=tournament, name="A", planned_rounds=rounds)
    people = Player.objects.bulk_create(
        Player(division=division, number=n, name=f"Player {n:03d}", rating=rng.randint(800, 2100))
        for n in range(1, players + 1)
    )
    games = []
    for r in range(1, rounds + 1):
        order = people[:]
        rng.shuffle(order)
        for t, k in enumerate(range(0, len(order) - 1, 2), start=1):
            a, b = order[k], order[k + 1]
            games.append(
                Game(
                    division=division,
                    round=r,
                    table=t,
                    player1=a,
                    player2=b,
                    score1=rng.randint(250, 550),
                    score2=rng.randint(250, 550),
                    first=1,
                )
            )
        if len(order) % 2:
            games.append(Game(division=division, round=r, player1=order[-1], score1=50, kind="bye"))
    Game.objects.bulk_create(games, batch_size=2000)
    return division


def measure(division: Division, repeat: int = 5) -> tuple[float, float, float, float, int]:
    client = Client()
    url = reverse("standings", args=[division.tournament.slug, division.name])
    # Cold: the first view after a result changed computes the standings and renders the table.
    # Each read of the standings reads the division's stamps first, as a request does.
    cold_compute = _timed(
        lambda: read_model._standings(division, None, False, None, True, stamps.read(division))
    )
    cold_page = _timed(lambda: client.get(url))
    best_compute = min(
        _timed(lambda: read_model.division_standings(division, stamps=stamps.read(division)))
        for _ in range(repeat)
    )
    best_page = float("inf")
    queries = 0
    for _ in range(repeat):
        with CaptureQueriesContext(connection) as captured:
            start = time.perf_counter()
            response = client.get(url)
            best_page = min(best_page, time.perf_counter() - start)
        assert response.status_code == 200, response.status_code
        queries = len(captured.captured_queries)
    return cold_compute, cold_page, best_compute, best_page, queries


def _timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main() -> int:
    call_command("migrate", verbosity=0)
    for players, rounds in [(20, 5), (500, 31)]:
        division = build(players, rounds)
        post_worker_init(None)
        cold_compute, cold_page, compute, page, queries = measure(division)
        print(
            f"{players} players, {rounds} rounds: after a change, standings computed in "
            f"{cold_compute * 1000:.1f} ms and the page in {cold_page * 1000:.1f} ms; "
            f"from the cache, standings in {compute * 1000:.1f} ms and the page in "
            f"{page * 1000:.1f} ms with {queries} SQL queries"
        )
    print("goal: the 500 x 31 page under 200 ms, queries the same for both sizes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
