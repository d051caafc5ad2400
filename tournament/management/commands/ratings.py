"""python manage.py ratings SLUG --division NAME [--after-round N] [--json]."""

import json

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournament import services
from tournament.engine.ratings import RatingInputError, UnknownRatingSystem


class Command(BaseCommand):
    help = "Print a division's ratings: before the event and after a round (default: the last)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("--division", required=True)
        parser.add_argument("--after-round", type=int, default=None)
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, slug: str, division: str, **options) -> None:
        after_round = options["after_round"]
        if after_round is not None and after_round < 0:
            raise CommandError(f"--after-round {after_round}: rounds count from 0 (before round 1)")
        try:
            div = services.division_by_name(slug, division)
            rows = services.division_ratings(div, after_round)
        except (LookupError, RatingInputError, UnknownRatingSystem) as error:
            raise CommandError(str(error).strip('"')) from error
        if options["json"]:
            data = [
                {"name": r.name, "rating_before": r.before, "rating_after": r.after} for r in rows
            ]
            self.stdout.write(json.dumps(data, ensure_ascii=False, indent=2))
            return
        for r in rows:
            self.stdout.write(f"{r.name:<30} {r.before:>5} {r.after:>5} {r.change:>+5}")
