"""`manage.py simulate --events N --seed S`: messy whole events played through the services,
the consistency check after every step (`event/simulate.py`); each violation printed with its
seed, event and step, then "N events, M steps, K violations". Exit status 1 when there is any.

The events are written to the database it runs on: run it on a database of its own
(`DATABASE_URL=sqlite:///simulate.sqlite3`), as `make simulate` does.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandError

from tournament.event import simulate
from tournament.management.base import SpreadCommand


class Command(SpreadCommand):
    help = "Play seeded messy events through the services and check them after every step."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--events", type=int, default=5)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--players", type=int, nargs=2, default=(6, 14), metavar=("MIN", "MAX"))
        parser.add_argument("--rounds", type=int, nargs=2, default=(3, 6), metavar=("MIN", "MAX"))

    def handle(self, *args: Any, **options: Any) -> None:
        if options["events"] < 1:
            raise CommandError("--events: at least 1")
        outcome = simulate.simulate(
            options["events"],
            options["seed"],
            say=self.stdout.write,
            players=tuple(options["players"]),
            rounds_planned=tuple(options["rounds"]),
        )
        if outcome.violations:
            raise CommandError(outcome.summary(), returncode=1)
        self.stdout.write(outcome.summary())
