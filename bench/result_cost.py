"""What one result costs the server, part by part, in one process, and how that grows with the
division: the synthetic event of bench/standings.py (31 rounds) at 500 and at 2,000 players,
its last round's results taken out and every player given a phone link; each result is entered
at the desk as a director does (the JSON save), then the hall's two feeds are asked for once
each (the scoreboard's cards and the display), as a hall asks after every result.

The CPU time of each part (`time.process_time`, each part's own: a part inside another is
taken out of the outer one's):

  the desk's save      the request, less the parts below that run inside it
  the round's lock     `results.services.locked_round`
  phone snapshot       `phone.services.warm_snapshot`: the phones' snapshot under the new stamp
  scoreboard           the cards' feed (`/api/v1/t/<slug>/<division>/scoreboard`)
  display              the display's feed (`/api/v1/t/<slug>/<division>/display`)
  standings            the read model's standings tables (`read_model.division_standings`),
                       wherever asked
  ratings              its ratings (`read_model.division_ratings`)
  division read        its read of the division's players and games (`division_read`);
                       "all but standings" is the rest, without these three

The process runs as a gunicorn worker does (`config/gunicorn_conf.py`: the loaded objects frozen
out of the garbage collector, collections every 50,000 allocations), on a throw-away SQLite file
with the process's own cache; each size in a process of its own.

    .venv/bin/python bench/result_cost.py [--results 12] [--sizes 500,2000] [--rounds 31]
    .venv/bin/python bench/result_cost.py --profile "the desk's save" --sizes 2000

Prints the mean of each part over the results after the first (the first also reads what the
desk's page had not), their sum, and the ratio of the largest size to the smallest.
Asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

PARTS = (
    "the desk's save",
    "the round's lock",
    "phone snapshot",
    "scoreboard",
    "display",
    "standings",
    "ratings",
    "division read",
)


class Parts:
    """Each part's own CPU time: a timed call inside another is taken out of the outer one."""

    def __init__(self) -> None:
        self.times: dict[str, float] = {}
        self._stack: list[list[float]] = []  # [start, time of the inner parts]

    def run(self, name: str, fn: Callable[[], Any]) -> Any:
        self._stack.append([time.process_time(), 0.0])
        try:
            return fn()
        finally:
            start, inner = self._stack.pop()
            spent = time.process_time() - start
            self.times[name] = self.times.get(name, 0.0) + spent - inner
            if self._stack:
                self._stack[-1][1] += spent

    def wrap(self, module: Any, attribute: str, name: str) -> None:
        original = getattr(module, attribute)

        def timed(*args: Any, **kwargs: Any) -> Any:
            return self.run(name, lambda: original(*args, **kwargs))

        setattr(module, attribute, timed)


def one_size(players: int, rounds: int, results: int, profile: str = "") -> dict[str, list[float]]:
    import bench.standings  # sets Django up on a throw-away database: before the rest

    # isort: split
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.test import Client

    from config.gunicorn_conf import post_worker_init
    from tournament.models import Game, PlayerLink
    from tournament.phone import services as phone
    from tournament.results import services as results_services
    from tournament.standings import read_model, stamps

    call_command("migrate", verbosity=0)
    division = bench.standings.build(players, rounds)
    tournament, last = division.tournament, rounds
    games = list(
        division.games.filter(round=last).exclude(player2=None).select_related("player1", "player2")
    )
    Game.objects.filter(pk__in=[g.pk for g in games]).update(score1=None, score2=None)
    stamps.touch([division.pk])  # an update() bypasses the signals that replace the stamp
    PlayerLink.objects.bulk_create(
        PlayerLink(player_id=pk, token_hash=f"bench-{pk}")
        for pk in division.players.values_list("pk", flat=True)
    )
    director = User.objects.create_user("director")
    tournament.directors.add(director)
    desk, viewer = Client(), Client()
    desk.force_login(director)
    api = f"/api/v1/t/{tournament.slug}/{division.name}/"
    save = f"/desk/{tournament.slug}/division/{division.pk}/round/{last}/enter"
    desk.get(f"/desk/{tournament.slug}/division/{division.pk}/round/{last}/")
    phone.warm_snapshot(division.pk)
    for feed in ("scoreboard", "display"):
        viewer.get(api + feed)

    parts = Parts()
    parts.wrap(results_services, "locked_round", "the round's lock")
    parts.wrap(phone, "warm_snapshot", "phone snapshot")
    parts.wrap(read_model, "division_standings", "standings")
    parts.wrap(read_model, "division_ratings", "ratings")
    parts.wrap(read_model, "division_read", "division read")
    post_worker_init(None)  # as a worker starts: the loaded objects frozen

    rng = random.Random(1)
    times: dict[str, list[float]] = {name: [] for name in PARTS}
    profiler = None
    if profile:
        import cProfile

        profiler = cProfile.Profile()
        run = parts.run

        def profiled(name: str, fn: Callable[[], Any]) -> Any:
            if name != profile:
                return run(name, fn)
            profiler.enable()
            try:
                return run(name, fn)
            finally:
                profiler.disable()

        parts.run = profiled  # type: ignore[method-assign]
    for game in games[:results]:
        line = f"{game.player1.number} {rng.randint(250, 550)} {game.player2.number} " + str(
            rng.randint(250, 550)
        )

        def enter(line: str = line) -> None:
            response = desk.post(save, {"line": line}, HTTP_ACCEPT="application/json")
            if response.status_code != 200 or not response.json().get("ok"):
                raise SystemExit(f"the save was refused: {response.content[:200]!r}")

        parts.times = {}
        parts.run("the desk's save", enter)
        for feed in ("scoreboard", "display"):
            parts.run(feed, lambda feed=feed: viewer.get(api + feed))
        for name in PARTS:
            times[name].append(parts.times.get(name, 0.0))
    if profiler is not None:
        import pstats

        order = os.environ.get("BENCH_SORT", "cumulative")  # or tottime
        lines = int(os.environ.get("PROFILE_LINES", "60"))
        pstats.Stats(profiler).sort_stats(order).print_stats(lines)
    return times


def report(players: int, rounds: int, results: int, times: dict[str, list[float]]) -> dict:
    print(
        f"{players} players, {rounds} rounds: one result in the last round, each part's CPU "
        f"(mean of results 2 to {results}, ms):"
    )
    means = {}
    for name in PARTS:
        values = times[name]
        rest = values[1:] or values
        means[name] = sum(rest) / len(rest) * 1000
        print(f"  {name:20s} {means[name]:8.1f}   (the first result: {values[0] * 1000:.1f})")
    means["one result in all"] = sum(means[n] for n in PARTS)
    read_parts = means["standings"] + means["ratings"] + means["division read"]
    means["all but standings"] = means["one result in all"] - read_parts
    for name in ("one result in all", "all but standings"):
        print(f"  {name:20s} {means[name]:8.1f}")
    return means


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=int, default=12)
    parser.add_argument("--sizes", default="500,2000")
    parser.add_argument("--rounds", type=int, default=31)
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)  # a size, in this process
    parser.add_argument("--profile", default="", help="a part's name: its profile, one size")
    args = parser.parse_args()
    if args.profile:
        args.one = args.one or int(args.sizes.split(",")[-1])
    if args.one:
        times = one_size(args.one, args.rounds, args.results, args.profile)
        means = report(args.one, args.rounds, args.results, times)
        print("MEANS " + json.dumps(means))
        return 0
    sizes = [int(s) for s in args.sizes.split(",")]
    found: dict[int, dict[str, float]] = {}
    for size in sizes:
        with open("/proc/loadavg") as f:
            load = " ".join(f.read().split()[:3])
        print(f"(load average before {size}: {load})", flush=True)
        out = subprocess.run(
            [sys.executable, __file__, "--one", str(size), "--rounds", str(args.rounds),
             "--results", str(args.results)],
            capture_output=True, text=True, check=True,
        ).stdout  # fmt: skip
        for line in out.splitlines():
            if line.startswith("MEANS "):
                found[size] = json.loads(line[6:])
            else:
                print(line, flush=True)
    if len(sizes) > 1:
        small, large = found[min(sizes)], found[max(sizes)]
        print(f"ratio {max(sizes)} / {min(sizes)} players:")
        for name in [*PARTS, "one result in all", "all but standings"]:
            ratio = large[name] / small[name] if small[name] else float("nan")
            print(f"  {name:20s} {ratio:6.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
