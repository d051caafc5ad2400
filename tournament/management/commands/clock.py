"""python manage.py clock SLUG --division NAME (--start MINUTES [--round N] | --pause | --resume
| --reset | --stop | --show): the division's round clock (`tournament/hall/clock.py`)."""

from django.core.management.base import CommandError, CommandParser

from tournament.hall import clock
from tournament.management.base import DivisionCommand


class Command(DivisionCommand):
    help = "Start, pause, resume, reset, stop or show a division's round clock."

    def add_arguments(self, parser: CommandParser) -> None:
        super().add_arguments(parser)
        what = parser.add_mutually_exclusive_group(required=True)
        what.add_argument("--start", type=int, metavar="MINUTES", help="0 for the default")
        for name in ("pause", "resume", "reset", "stop", "show"):
            what.add_argument(f"--{name}", action="store_true")
        parser.add_argument("--round", type=int, default=None)

    def handle(self, *args, slug: str, division: str, **options) -> None:
        div = self.division(slug, division)
        try:
            if options["start"] is not None:
                minutes = options["start"] or None  # 0: the division's clock_minutes
                state = clock.start(div, minutes, options["round"])
            elif options["show"]:
                state = clock.state(div)
            else:
                name = next(n for n in clock.ACTIONS if options[n])
                state = clock.ACTIONS[name](div)
        except clock.ClockRefused as refused:
            raise CommandError(str(refused)) from refused
        self.stdout.write(describe(state))


def describe(state: dict) -> str:
    """The clock in a line: "running, 25:00 left, ends 2026-12-02T10:25:00+00:00"."""
    if not state["shown"]:
        return "no clock"
    left = state["remaining"]
    mmss = f"{left // 60:02d}:{left % 60:02d}"
    if state["ends_at"]:
        return f"running, {mmss} left, ends {state['ends_at']}"
    return f"paused, {mmss} left"
