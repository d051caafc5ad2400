"""python manage.py importtsh PATH [--slug SLUG]: a tournament from config.tsh or a .t file."""

from django.core.management.base import CommandError, CommandParser

from tournament.core import tsh_settings
from tournament.exchange import tsh_io
from tournament.management.base import SpreadCommand
from tournament.people import services as people


class Command(SpreadCommand):
    help = "Import a TSH event: a config.tsh (all its divisions) or a single .t file."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path")
        parser.add_argument("--slug", default=None)
        parser.add_argument("--name", default=None)

    def handle(self, *args, path: str, slug: str | None, name: str | None, **options) -> None:
        try:
            tournament = tsh_io.import_tsh(path, slug=slug, name=name)
        except tsh_io.ImportError_ as error:
            raise CommandError(str(error)) from error
        divisions = ", ".join(
            f"{d.name} ({d.players.count()} players)" for d in tournament.divisions.all()
        )
        self.stdout.write(f"Imported {tournament.name} as {tournament.slug}: {divisions}")
        notes = {tsh_settings.ratings_note(d) for d in tournament.divisions.all()} - {None}
        for note in sorted(n for n in notes if n):
            self.stdout.write(note)
        for line in people.report_of(tournament).lines():
            self.stdout.write(line)
