"""python manage.py standings SLUG --division NAME [--after-round N] [--capped] [--json]."""

import json

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournament import services


class Command(BaseCommand):
    help = "Print a division's standings."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("--division", required=True)
        parser.add_argument("--after-round", type=int, default=None)
        parser.add_argument("--capped", action="store_true")
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, slug: str, division: str, **options) -> None:
        after_round = options["after_round"]
        if after_round is not None and after_round < 0:
            raise CommandError(f"--after-round {after_round}: rounds count from 0 (before round 1)")
        try:
            div = services.division_by_name(slug, division)
        except LookupError as error:
            raise CommandError(str(error)) from error
        rows = services.division_standings(div, after_round, options["capped"])
        if options["json"]:
            data = [
                {
                    "rank": r.rank,
                    "name": r.name,
                    "wins": r.wins,
                    "losses": r.losses,
                    "spread": r.spread,
                    "rating": r.rating,
                }
                for r in rows
            ]
            self.stdout.write(json.dumps(data, ensure_ascii=False, indent=2))
            return
        for r in rows:
            rank = "" if r.rank is None else r.rank
            self.stdout.write(f"{rank:>4} {r.name:<30} {r.record:>9} {r.spread:>+6} {r.rating:>5}")
