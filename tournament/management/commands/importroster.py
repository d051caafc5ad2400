"""python manage.py importroster SLUG --division NAME FILE (.xlsx or .csv)."""

from pathlib import Path

from django.core.management.base import CommandError, CommandParser

from tournament.engine.text import counted
from tournament.interchange import files
from tournament.interchange.roster import MAX_BYTES, RosterError
from tournament.management.base import DivisionCommand
from tournament.players import services as player_changes


class Command(DivisionCommand):
    help = "Add a division's players from a spreadsheet or CSV file with a header row."

    def add_arguments(self, parser: CommandParser) -> None:
        super().add_arguments(parser)
        parser.add_argument("file")

    def handle(self, *args, slug: str, file: str, division: str, **options) -> None:
        div = self.division(slug, division)
        path = Path(file)
        try:
            # A regular file only; one over the roster's own cap is refused by it, in its words.
            data = files.read_file(path, cap=max(MAX_BYTES + 1, files.MAX_FILE_BYTES))
            players = player_changes.import_roster(div, data, path.name, None)
        except RosterError as error:
            raise CommandError("nothing imported: " + "; ".join(error.problems)) from error
        except files.FileRefused as refused:
            raise CommandError(str(refused)) from refused
        self.stdout.write(f"{counted(len(players), 'player')} added to division {div.name}")
