"""python manage.py ratings SLUG --division NAME [--after-round N] [--json]."""

import json

from django.core.management.base import CommandError, CommandParser

from tournament.core import tsh_settings
from tournament.engine.ratings import RatingInputError, UnknownRatingSystem
from tournament.management.base import DivisionCommand
from tournament.standings import read_model
from tournament.standings import stamps as division_stamps


class Command(DivisionCommand):
    help = "Print a division's ratings: before the event and after a round (default: the last)."
    after_round = True

    def add_arguments(self, parser: CommandParser) -> None:
        super().add_arguments(parser)
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, slug: str, division: str, **options) -> None:
        after_round = self.checked_after_round(options)
        div = self.division(slug, division)
        after_round = self.played_round(div, after_round)
        try:
            rows = read_model.division_ratings(
                div, after_round, public=False, stamps=division_stamps.read(div)
            )
        except (RatingInputError, UnknownRatingSystem) as error:
            raise CommandError(str(error).strip('"')) from error
        # Whose figures these are, when the event asks for a system Spread does not use (on
        # stderr with --json, so that the JSON stays a list of players).
        if note := tsh_settings.ratings_note(div):
            (self.stderr if options["json"] else self.stdout).write(note)
        if options["json"]:
            data = [
                {"name": r.name, "rating_before": r.before, "rating_after": r.after} for r in rows
            ]
            self.stdout.write(json.dumps(data, ensure_ascii=False, indent=2))
            return
        for r in rows:
            self.stdout.write(f"{r.name:<30} {r.before:>5} {r.after:>5} {r.change:>+5}")
