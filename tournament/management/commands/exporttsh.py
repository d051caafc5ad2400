"""python manage.py exporttsh SLUG --output DIR: config.tsh and a .t file per division."""

from django.core.management.base import CommandError, CommandParser

from tournament.exchange import tsh_io
from tournament.management.base import SpreadCommand
from tournament.models import Tournament


class Command(SpreadCommand):
    help = "Export a tournament as TSH files."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("--output", required=True)

    def handle(self, *args, slug: str, output: str, **options) -> None:
        try:
            tournament = Tournament.objects.get(slug=slug)
        except Tournament.DoesNotExist as error:
            raise CommandError(f"no tournament {slug!r}") from error
        try:
            renamed: list[str] = []
            written = tsh_io.export_tsh(tournament, output, renamed)
        except OSError as error:
            raise CommandError(f"cannot write {error.filename}: {error.strerror}") from error
        except ValueError as error:  # a line tsh would not read back (a field, not a name)
            raise CommandError(f"nothing usable written: {error}") from error
        for path in written:
            self.stdout.write(str(path))
        for line in renamed:
            self.stdout.write(f"{line} (tsh could not read the name back as it is)")
