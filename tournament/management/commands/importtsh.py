"""python manage.py importtsh PATH [--slug SLUG] [--name NAME] [--director USERNAME]: a
tournament from config.tsh or a .t file; the user named directs it (and opens it at the desk)."""

from django.contrib.auth import get_user_model
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
        parser.add_argument(
            "--name", default=None, help="the event's name (a lone .t file needs one)"
        )
        parser.add_argument(
            "--director", default=None, help="the username of the user who directs the event"
        )

    def handle(
        self,
        *args,
        path: str,
        slug: str | None,
        name: str | None,
        director: str | None,
        **options,
    ) -> None:
        user = None
        if director is not None:
            user = get_user_model().objects.filter(username=director).first()
            if user is None:
                raise CommandError(f"no user {director!r}: create them first (createdirector)")
        notes: list[str] = []
        try:
            tournament = tsh_io.import_tsh(path, slug=slug, name=name, director=user, notes=notes)
        except tsh_io.ImportError_ as error:
            message = str(error)
            if path.endswith(".t") and message == tsh_io.no_name_refusal(path.rsplit("/", 1)[-1]):
                message = message.removesuffix(".") + ' with --name "NAME".'
            raise CommandError(message) from error
        divisions = ", ".join(
            f"{d.name} ({d.players.count()} players)" for d in tournament.divisions.all()
        )
        self.stdout.write(f"Imported {tournament.name} as {tournament.slug}: {divisions}")
        for note in notes:
            self.stdout.write(note)
        if user is not None:
            self.stdout.write(f"{user.get_username()} directs it: /desk/{tournament.slug}/")
        notes_of = {tsh_settings.ratings_note(d) for d in tournament.divisions.all()} - {None}
        for note in sorted(n for n in notes_of if n):
            self.stdout.write(note)
        for line in people.report_of(tournament).lines():
            self.stdout.write(line)
