"""python manage.py importtou FILE --slug SLUG [--name NAME] [--printout FILE.txt]."""

from django.core.management.base import CommandError, CommandParser

from tournament.exchange import tsh_io
from tournament.exchange.tou import import_tou
from tournament.management.base import SpreadCommand
from tournament.people import services as people


class Command(SpreadCommand):
    help = "Import a .tou results file (WESPA's AUPAIR format), with WESPA's printed ratings."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path")
        parser.add_argument("--slug", required=True)
        parser.add_argument("--name", default=None)
        parser.add_argument(
            "--printout", default=None, help="WESPA's 'Results and ratings' printout (.txt)"
        )

    def handle(
        self, *args, path: str, slug: str, name: str | None, printout: str | None, **options
    ) -> None:
        try:
            imported = import_tou(path, slug=slug, name=name, printout=printout)
        except tsh_io.ImportError_ as error:
            raise CommandError(str(error)) from error
        for note in imported.notes:
            self.stdout.write(f"note: {note}")
        tournament = imported.tournament
        divisions = ", ".join(
            f"{d.name} ({d.players.count()} players)" for d in tournament.divisions.all()
        )
        self.stdout.write(f"Imported {tournament.name} as {tournament.slug}: {divisions}")
        for line in people.report_of(tournament).lines():
            self.stdout.write(line)
