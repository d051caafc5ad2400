"""python manage.py exporttou SLUG --output FILE [--date YYYY-MM-DD]: the rating body's file."""

import datetime
from pathlib import Path

from django.core.management.base import CommandError, CommandParser

from tournament.engine.text import plural
from tournament.event.services import has_games, unplayed_rounds
from tournament.interchange.tou import TouError
from tournament.management.base import SpreadCommand
from tournament.models import Player, Tournament
from tournament.players.services import latin_to_check
from tournament.reports.data import tou_text


class Command(SpreadCommand):
    help = "Write a tournament's results as a .tou file for the rating body."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("--output", required=True)
        parser.add_argument(
            "--date",
            type=datetime.date.fromisoformat,
            default=None,
            help="the event's date (default: the tournament's start date)",
        )

    def handle(self, *args, slug: str, output: str, date: datetime.date | None, **options) -> None:
        try:
            tournament = Tournament.objects.get(slug=slug)
        except Tournament.DoesNotExist:
            raise CommandError(f"no tournament {slug!r}") from None
        try:
            text = tou_text(tournament, date)
        except TouError as error:
            raise CommandError(str(error)) from error
        path = Path(output)
        try:
            path.write_bytes(text.encode("ascii"))
        except OSError as error:
            raise CommandError(f"cannot write {path}: {error.strerror}") from error
        divisions = tournament.divisions.count()
        players = Player.objects.filter(division__tournament=tournament).count()
        self.stdout.write(f"{path}: {plural(divisions, 'division')}, {plural(players, 'player')}")
        if not has_games(tournament):
            self.stderr.write("warning: no round is paired yet: the file holds the players only")
        for line in unplayed_rounds(tournament):
            self.stderr.write(f"warning: {line}: the file has no results for them")
        for division, count in latin_to_check(tournament).divisions:
            self.stderr.write(
                f"warning: division {division.name}: {plural(count, 'name')} in Latin letters "
                "only spelled automatically: check them on the desk's players page"
            )
