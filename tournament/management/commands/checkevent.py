"""`manage.py checkevent SLUG`: the event's consistency check (`event/checks.py`), read-only:
every break of the event's invariants, one line each with the division, the round and the
players; exit status 1 when there is any, 0 when there is none."""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandError

from tournament.event import checks
from tournament.management.base import SpreadCommand
from tournament.models import Tournament


class Command(SpreadCommand):
    help = "Check a tournament's consistency; exit 1 if anything is wrong."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("slug")

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = Tournament.objects.filter(slug=options["slug"]).first()
        if tournament is None:
            raise CommandError(f"No tournament {options['slug']!r}.")
        found = checks.check_event(tournament)
        for finding in found:
            self.stdout.write(finding.line())
        divisions = tournament.divisions.count()
        if found:
            raise CommandError(
                f"{tournament.slug}: {len(found)} finding(s) in {divisions} division(s).",
                returncode=1,
            )
        self.stdout.write(f"{tournament.slug}: consistent ({divisions} division(s) checked).")
