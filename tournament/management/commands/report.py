"""python manage.py report SLUG KIND --division NAME [--round N] --format pdf|xlsx --output FILE
[--paper a4|letter] [--base URL]."""

from pathlib import Path

from django.core.management.base import CommandError, CommandParser

from tournament import reports
from tournament.management.base import DivisionCommand


class Command(DivisionCommand):
    help = (
        "Write a division's pairings, standings, scorecards, crosstable, ratings, prizes "
        "or statistics."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        super().add_arguments(parser)
        parser.add_argument("kind", choices=reports.KINDS)
        parser.add_argument(
            "--round", type=int, default=None, help="the round (default: the latest)"
        )
        parser.add_argument("--format", choices=["pdf", "xlsx"], default="pdf")
        parser.add_argument("--paper", choices=["a4", "letter"], default="a4")
        parser.add_argument(
            "--lang",
            choices=reports.LANGUAGES,
            default=None,
            help="the report's language (default: the tournament's, else English)",
        )
        parser.add_argument("--output", required=True, help="the file to write")
        parser.add_argument(
            "--base",
            default="http://127.0.0.1:8000",
            help="the address players open (slips and scorecards print their links under it)",
        )

    def handle(self, *args, slug: str, kind: str, division: str, **options) -> None:
        div = self.division(slug, division)
        try:
            made = reports.make(
                div,
                kind,
                options["format"],
                options["round"],
                options["paper"],
                lang=options["lang"],
                base=options["base"],
            )
        except reports.ReportError as error:
            raise CommandError(str(error)) from error
        output = Path(options["output"])
        try:
            output.write_bytes(made.content)
        except OSError as error:
            raise CommandError(f"cannot write {output}: {error.strerror}") from error
        self.stdout.write(f"{output}: {kind} of division {div.name}, {len(made.content)} bytes")
