"""python manage.py importroster SLUG --division NAME FILE (.xlsx or .csv)."""

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournament import services
from tournament.reports.roster import RosterError, import_roster_file


class Command(BaseCommand):
    help = "Add a division's players from a spreadsheet or CSV file with a header row."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("file")
        parser.add_argument("--division", required=True)

    def handle(self, *args, slug: str, file: str, division: str, **options) -> None:
        try:
            div = services.division_by_name(slug, division)
            players = import_roster_file(div, file)
        except LookupError as error:
            raise CommandError(str(error)) from error
        except RosterError as error:
            raise CommandError("nothing imported: " + "; ".join(error.problems)) from error
        except OSError as error:
            raise CommandError(f"cannot read {file}: {error.strerror}") from error
        self.stdout.write(f"{len(players)} player(s) added to division {div.name}")
