"""What one result costs the server, page by page, in one process: the 500-player, 31-round
synthetic event (bench/standings.py) with its last round's results taken out; each result is
entered at the desk as a director does (the JSON save), then the pages a hall asks for are
asked for once each: the standings, the ratings, the crosstable, the last round's pairings and
fifteen players' pages (every page kept, with its games table, before the first result).

This is the work that makes the tail of `bench/load.py` with writes: every page below is
rendered afresh once per result, on whichever worker is asked first. The process runs as a
gunicorn worker does (`config/gunicorn_conf.py`: the loaded objects frozen out of the garbage
collector, collections every 50,000 allocations), on a throw-away SQLite file with each
process's own cache.

    .venv/bin/python bench/result_cost.py [--results 12] [--players 500] [--rounds 31]

Prints the mean time of each step over the results after the first (the first also reads every
round of the desk's own view), and their sum: the cost of one result. Asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

GZIP = {"HTTP_ACCEPT_ENCODING": "gzip"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=int, default=12)
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=31)
    args = parser.parse_args()

    import bench.standings  # sets Django up on a throw-away database: before the rest

    build = bench.standings.build
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.test import Client

    from config.gunicorn_conf import post_worker_init
    from tournament.models import Game
    from tournament.standings import stamps

    call_command("migrate", verbosity=0)
    division = build(args.players, args.rounds)
    tournament, last = division.tournament, args.rounds
    games = list(
        division.games.filter(round=last).exclude(player2=None).select_related("player1", "player2")
    )
    Game.objects.filter(pk__in=[g.pk for g in games]).update(score1=None, score2=None)
    stamps.touch([division.pk])  # an update() bypasses the signals that replace the stamp
    director = User.objects.create_user("director")
    tournament.directors.add(director)
    desk, viewer = Client(), Client()
    desk.force_login(director)
    base = f"/t/{tournament.slug}/{division.name}/"
    pages = {
        "standings": base,
        "ratings": f"{base}ratings/",
        "crosstable": f"{base}crosstable/",
        "pairings of the round": f"{base}round/{last}/",
    }
    for path in pages.values():
        viewer.get(path, **GZIP)
    for number in range(1, args.players + 1):
        viewer.get(f"{base}player/{number}/", **GZIP)
    save = f"/desk/{tournament.slug}/division/{division.pk}/round/{last}/enter"
    post_worker_init(None)  # as a worker starts: the loaded objects frozen

    rng = random.Random(1)
    times: dict[str, list[float]] = {}

    def step(name: str, fn) -> None:
        start = time.perf_counter()
        fn()
        times.setdefault(name, []).append(time.perf_counter() - start)

    for game in games[: args.results]:
        line = f"{game.player1.number} {rng.randint(250, 550)} {game.player2.number} " + str(
            rng.randint(250, 550)
        )

        def enter(line: str = line) -> None:
            response = desk.post(save, {"line": line}, HTTP_ACCEPT="application/json")
            if response.status_code != 200 or not response.json().get("ok"):
                raise SystemExit(f"the save was refused: {response.content[:200]!r}")

        step("the desk's save", enter)
        for name, path in pages.items():
            step(name, lambda path=path: viewer.get(path, **GZIP))
        numbers = rng.sample(range(1, args.players + 1), 15)

        def players(numbers: list[int] = numbers) -> None:
            for n in numbers:
                viewer.get(f"{base}player/{n}/", **GZIP)

        step("15 players' pages", players)

    print(
        f"{args.players} players, {args.rounds} rounds: one result in the last round and the "
        f"pages it renews (mean of results 2 to {args.results}):"
    )
    total = 0.0
    for name, values in times.items():
        rest = values[1:] or values
        mean = sum(rest) / len(rest)
        total += mean
        print(f"  {name:24s} {mean * 1000:7.1f} ms   (the first result: {values[0] * 1000:.1f})")
    print(f"  {'one result in all':24s} {total * 1000:7.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
