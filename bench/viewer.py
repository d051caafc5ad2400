"""The game viewer's page for one turn of a 30-move game (a real one from the shared corpus),
through Django's test client: the median and the slowest of N requests, each for another turn
with the page cache emptied first, so that every one is rendered. Also the report made once
(when a record is saved or the engine changes). Prints figures.
Goal: one turn's page under 50 ms. Uses a throw-away SQLite file.
"""

from __future__ import annotations

import os
import statistics
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

from django.contrib.auth.models import User  # noqa: E402
from django.core.cache import cache  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402
from django.urls import reverse  # noqa: E402

from tournament.models import Division, Game, Player, Tournament  # noqa: E402
from tournament.scoresheets import services as scoresheets  # noqa: E402

GAME = ROOT.parent / "shared" / "corpus" / "gcg" / "liwords"
GAME = GAME / "pkg__stats__testdata__josh_nationals_round_18.gcg"  # 30 moves, verified
REQUESTS = 200


def main() -> int:
    if not GAME.is_file():
        print(f"skipped: {GAME} is not there (the shared corpus)")
        return 0
    call_command("migrate", verbosity=0)
    tournament = Tournament.objects.create(name="Bench", slug="bench", public=True)
    division = Division.objects.create(tournament=tournament, name="A")
    one = Player.objects.create(division=division, number=1, name="One")
    two = Player.objects.create(division=division, number=2, name="Two")
    game = Game.objects.create(division=division, round=1, player1=one, player2=two)
    start = time.perf_counter()
    sheet = scoresheets.attach_scoresheet(
        game, GAME.read_bytes(), User.objects.create_user("bench"), GAME.name
    )
    made = time.perf_counter() - start
    turns = len(sheet.engine_report.turns)
    url = reverse("scoresheet", args=["bench", sheet.pk])
    client = Client(HTTP_HOST="localhost")
    client.get(url)  # templates compiled, connections open
    timings = []
    for k in range(REQUESTS):
        cache.clear()
        start = time.perf_counter()
        response = client.get(url, {"turn": k % (turns + 1)})
        timings.append(time.perf_counter() - start)
        if response.status_code != 200:
            print(f"the page answered {response.status_code}")
            return 1
    size = len(response.content) // 1024
    print(f"a {turns}-move game: its stored report made in {made * 1000:.1f} ms (once)")
    print(
        f"one turn's page, {REQUESTS} requests: median {statistics.median(timings) * 1000:.1f} ms,"
        f" slowest {max(timings) * 1000:.1f} ms, {size} KiB"
    )
    print("goal: under 50 ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
