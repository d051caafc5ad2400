"""Backup and restore of the 500-player, 31-round synthetic event (`bench/standings.py`'s
`build`): the time to write the file, its size, the time to read and restore it as a second
event beside the first. Prints figures, asserts nothing. Uses a throw-away SQLite file.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.standings import build  # noqa: E402  (sets up Django on a throw-away SQLite)
from tournament.exchange import backup  # noqa: E402
from tournament.models import Game  # noqa: E402


def main() -> None:
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    division = build(500, 31)
    tournament = division.tournament
    games = Game.objects.filter(division=division).count()
    start = time.perf_counter()
    data = backup.write(tournament)
    wrote = time.perf_counter() - start
    start = time.perf_counter()
    backup.read(data)
    read = time.perf_counter() - start
    from django.contrib.auth.models import User

    director = User.objects.create_user("bench-director")  # the event has none of its own
    start = time.perf_counter()
    backup.restore(data, slug="restored", director=director)
    restored = time.perf_counter() - start
    print(f"500 x 31 ({games} games), {os.environ.get('DATABASE_URL', '')[:9]}:")
    print(f"  backup   {wrote * 1000:7.0f} ms, {len(data) / 1024:.0f} KiB")
    print(f"  read     {read * 1000:7.0f} ms (limits checked, JSON parsed)")
    print(f"  restore  {restored * 1000:7.0f} ms (read included, one transaction)")


if __name__ == "__main__":
    main()
