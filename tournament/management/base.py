"""What Spread's commands share: their output without isolation marks (`SpreadCommand`, the
base of every command), and for the commands about one division, its arguments and how it is
found (`DivisionCommand`)."""

from __future__ import annotations

import sys
from typing import Any, TextIO

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournament.core import access
from tournament.core.sentences import unmarked
from tournament.models import Division
from tournament.standings import read_model


class _Unmarked:
    """A stream that writes what it is given without the isolation marks (U+2066..U+2069),
    which a page and a PDF need around names and a terminal shows as stray characters."""

    def __init__(self, out: TextIO) -> None:
        self._out = out

    def write(self, text: str) -> int:
        return self._out.write(unmarked(text))

    def __getattr__(self, name: str) -> Any:  # flush, isatty, getvalue …
        return getattr(self._out, name)


class SpreadCommand(BaseCommand):
    """A command whose output, and the message of its refusal (`CommandError`), carry no
    isolation marks: the sentences it prints are the app's own, made for pages
    (`sentences.isolate` around each name), and the marks are taken off here, once for all."""

    def execute(self, *args: Any, **options: Any) -> Any:
        for name, default in (("stdout", sys.stdout), ("stderr", sys.stderr)):
            given: Any = options.get(name) or getattr(getattr(self, name, None), "_out", None)
            out = given or default
            if not isinstance(out, _Unmarked):
                options[name] = _Unmarked(out)
        try:
            return super().execute(*args, **options)
        except CommandError as error:
            raise CommandError(unmarked(str(error)), returncode=error.returncode) from None


class DivisionCommand(SpreadCommand):
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
