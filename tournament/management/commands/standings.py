"""python manage.py standings SLUG --division NAME [--after-round N] [--capped] [--json]."""

import json

from django.core.management.base import CommandParser

from tournament.management.base import DivisionCommand
from tournament.standings import read_model
from tournament.standings import stamps as division_stamps


class Command(DivisionCommand):
    help = "Print a division's standings."
    after_round = True

    def add_arguments(self, parser: CommandParser) -> None:
        super().add_arguments(parser)
        parser.add_argument("--capped", action="store_true")
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, slug: str, division: str, **options) -> None:
        after_round = self.checked_after_round(options)
        div = self.division(slug, division)
        after_round = self.played_round(div, after_round)
        rows = read_model.division_standings(
            div,
            after_round,
            options["capped"],
            public=False,
            stamps=division_stamps.read(div),
        )
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
