"""What the commands about one division share: its arguments and how it is found."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournament.core import access
from tournament.models import Division
from tournament.standings import read_model


class DivisionCommand(BaseCommand):
    """`SLUG --division NAME [--after-round N]`: a command about one division."""

    after_round = False  # whether the command takes --after-round

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("--division", required=True)
        if self.after_round:
            parser.add_argument("--after-round", type=int, default=None)

    def division(self, slug: str, name: str) -> Division:
        try:
            return access.division_by_name(slug, name)
        except LookupError as error:
            raise CommandError(str(error)) from error

    def checked_after_round(self, options: dict) -> int | None:
        after_round = options["after_round"]
        if after_round is not None and after_round < 0:
            raise CommandError(f"--after-round {after_round}: rounds count from 0 (before round 1)")
        return after_round

    def played_round(self, division: Division, after_round: int | None) -> int | None:
        """`after_round` if some game of it has a result: a table after a round nobody has
        played would show everyone at 0-0 as if that were the standing."""
        if after_round is None or after_round == 0:
            return after_round
        last = read_model.rounds_played(division)
        if after_round > last:
            played = f"up to round {last}" if last else "for no round yet"
            raise CommandError(
                f"--after-round {after_round}: division {division.name} has results {played}"
            )
        return after_round
