"""python manage.py useratings SLUG --division NAME [--format naspa|wespa] FILE [--apply]:
tsh's USERATINGS. Players' ratings from an association's rating list, matched by name, before
round 1; without --apply it only says what would change. Without --format, the format of the
rating list the event's config.tsh names (`config rating_list`,
`tsh_settings.rating_list_asked`)."""

from pathlib import Path

from django.core.management.base import CommandError, CommandParser

from tournament.core import tsh_settings
from tournament.engine.text import plural
from tournament.interchange import files, ratinglist
from tournament.management.base import DivisionCommand
from tournament.pairing import services as pairing
from tournament.rating_lists import use

SOURCE = {"naspa": "NASPA ratings list", "wespa": "WESPA ratings list"}


class Command(DivisionCommand):
    help = "Set a division's ratings from a NASPA or WESPA rating list, by name (USERATINGS)."

    def add_arguments(self, parser: CommandParser) -> None:
        super().add_arguments(parser)
        parser.add_argument("file")
        parser.add_argument(
            "--format",
            choices=ratinglist.FORMATS,
            help="the list's format; by default the one config.tsh's rating_list names",
        )
        parser.add_argument("--apply", action="store_true", help="make the changes")

    def handle(self, *args, slug: str, division: str, file: str, **options) -> None:
        div = self.division(slug, division)
        try:
            data = files.read_file(Path(file), cap=ratinglist.MAX_BYTES)
        except files.FileRefused as refused:
            raise CommandError(str(refused)) from refused
        fmt = options["format"]
        if fmt is None:
            asked = tsh_settings.rating_list_asked(div)
            if asked is None or asked[1] is None:
                named = " names none"
                if asked:
                    named = f" names {asked[0]!r}, which Spread does not read"
                raise CommandError(f"--format naspa or wespa: the event's config.tsh{named}")
            fmt = asked[1]
            self.stdout.write(f"format {fmt}: config.tsh's rating_list is {asked[0]!r}")
        read = ratinglist.read(data, fmt)
        for problem in read.problems:
            self.stderr.write(f"{file}: {problem.text}")
        matches = use.rating_list_matches(div, read)
        for m in matches:
            if m.outcome == "update":
                self.stdout.write(f"{m.name}: {m.old} -> {m.new} (line {m.entries[0].line})")
            elif m.outcome == "unmatched":
                self.stdout.write(f"{m.name}: not found")
            elif m.outcome == "ambiguous":
                lines = ", ".join(str(e.line) for e in m.entries)
                self.stdout.write(f"{m.name}: more than one entry (lines {lines})")
        updates = [
            (int(str(m.player)), m.old, m.new or 0) for m in matches if m.outcome == "update"
        ]
        if not options["apply"]:
            self.stdout.write(f"{plural(len(updates), 'rating')} would change (--apply to set)")
            return
        try:
            changed = use.use_ratings(div, updates, None, SOURCE[fmt])
        except pairing.PairingRefused as refused:
            raise CommandError(str(refused)) from refused
        self.stdout.write(f"{plural(changed, 'rating')} set in division {div.name}")
