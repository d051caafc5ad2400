"""`manage.py backup SLUG --output FILE`: the tournament in one file (`exchange/backup.py`,
docs/formats.md): everything of it, the people by username, nothing of another event."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import CommandError

from tournament.exchange import backup
from tournament.management.base import SpreadCommand
from tournament.models import Tournament


class Command(SpreadCommand):
    help = "Write one tournament, whole, to a backup file (a zip of JSON)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("slug")
        parser.add_argument("--output", required=True)

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = Tournament.objects.filter(slug=options["slug"]).first()
        if tournament is None:
            raise CommandError(f"No tournament {options['slug']}.")
        data = backup.write(tournament)
        Path(options["output"]).write_bytes(data)
        self.stdout.write(f"{tournament.slug}: {len(data)} bytes written to {options['output']}.")
