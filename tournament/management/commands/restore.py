"""`manage.py restore FILE [--slug NEW]`: a backup brought back into this database, as new rows
in one transaction; a file that is damaged, of an unknown version or hostile is refused in one
line and changes nothing."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from tournament.exchange import backup
from tournament.interchange.files import FileRefused, read_file


class Command(BaseCommand):
    help = "Restore a tournament from a backup file, as new rows (--slug for another slug)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("file")
        parser.add_argument("--slug")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            data = read_file(options["file"], cap=backup.MAX_FILE_BYTES)
            done = backup.restore(data, slug=options["slug"])
        except (FileRefused, backup.BackupRefused) as e:
            raise CommandError(str(e)) from None
        t = done.tournament
        self.stdout.write(f"{t.slug}: restored ({t.name}).")
        if done.missing_users:
            self.stdout.write(
                "Users not here (an admin may add them, then make them directors or "
                "scorekeepers at the desk): " + ", ".join(done.missing_users)
            )
        if done.links_to_issue:
            self.stdout.write(
                f"{done.links_to_issue} players' links were made under another SECRET_KEY (or "
                f"are taken here): issue them again with `manage.py playerlinks {t.slug} "
                "--division NAME`."
            )
