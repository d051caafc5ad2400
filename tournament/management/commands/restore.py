"""`manage.py restore FILE [--slug NEW] [--director USER]`: a backup brought back into this
database, as new rows in one transaction; a file that is damaged, of an unknown version or hostile
is refused in one line and changes nothing, and so is one that would leave the event with nobody
here to direct it (none of its directors has an account here and no --director is named)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import CommandError

from tournament.event import checks
from tournament.exchange import backup
from tournament.interchange.files import FileRefused, read_file
from tournament.management.base import SpreadCommand


class Command(SpreadCommand):
    help = (
        "Restore a tournament from a backup file, as new rows (--slug for another slug; "
        "--director for a user of this server who directs it too)."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("file")
        parser.add_argument("--slug")
        parser.add_argument(
            "--director", metavar="USERNAME", help="a user of this server who directs it too"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        director = None
        if options["director"] is not None:
            users = get_user_model()
            name = options["director"].strip()
            director = users.objects.filter(**{users.USERNAME_FIELD: name}).first()
            if director is None:
                raise CommandError(
                    f"No user {name!r} on this server: create it first (manage.py "
                    f"createdirector {name}), then restore again. Nothing was restored."
                )
        try:
            data = read_file(options["file"], cap=backup.MAX_FILE_BYTES)
            done = backup.restore(data, slug=options["slug"], director=director)
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
        # The consistency check runs after every restore: what it finds is said, not refused.
        found = checks.check_event(t)
        for finding in found:
            self.stdout.write(finding.line())
        self.stdout.write(
            f"{t.slug}: consistency check, {len(found)} finding(s)."
            if found
            else f"{t.slug}: consistency check, consistent."
        )
