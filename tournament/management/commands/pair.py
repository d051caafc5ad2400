"""python manage.py pair SLUG --division NAME --round R [--based-on S] [--system NAME]
[--repeats N] [--cop FILE] [--dry-run] [--json].

Pairs round R from the results of rounds 1..S (default R-1), as if nothing after round S had
been recorded. Without --dry-run the pairings are saved, unpublished, replacing any pairings
of round R that have no results yet.

--cop FILE pairs by COP with the parameters of a JSON file, an object of Woogles' pair request
fields in snake case (`place_prizes`, `division_sims` …; see `engine/pairing/cop.py`), over the
division's COP settings.
"""

import json
from pathlib import Path
from typing import Any

from django.core.management.base import CommandError, CommandParser

from tournament.core import jsonin, sentences
from tournament.engine.pairing.cop import options_of
from tournament.engine.pairing.model import PairingError
from tournament.engine.pairing.registry import automatic
from tournament.management.base import DivisionCommand
from tournament.pairing import services as pairing

COP_FILE_BYTES = 1 << 20  # a file of COP's parameters is a few hundred bytes


class Command(DivisionCommand):
    help = "Pair a round of a division."

    def add_arguments(self, parser: CommandParser) -> None:
        super().add_arguments(parser)
        parser.add_argument("--round", type=int, required=True, dest="round_number")
        parser.add_argument("--based-on", type=int, default=None)
        parser.add_argument(
            "--system",
            choices=sorted(automatic()),
            default=None,
            help="default: the division's schedule for the round",
        )
        parser.add_argument("--repeats", type=int, default=None)
        parser.add_argument(
            "--cop", default=None, metavar="FILE", help="COP's parameters, a JSON object"
        )
        parser.add_argument("--dry-run", action="store_true")
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, slug: str, division: str, round_number: int, **options) -> None:
        div = self.division(slug, division)
        cop = _cop_options(options["cop"]) if options["cop"] else None
        system = options["system"]
        if cop is not None:
            if system not in (None, "cop"):
                raise CommandError(f"--cop gives COP's parameters; the system asked is {system}.")
            system = "cop"
        try:
            proposal = pairing.plan(
                div, round_number, options["based_on"], system, options["repeats"], cop
            )
            if not options["dry_run"]:
                pairing.save_plan(proposal, None)
        except pairing.PairingRefused as error:
            raise CommandError(str(error)) from error
        rows = proposal.rows()
        if options["json"]:
            self.stdout.write(json.dumps(rows, ensure_ascii=False, indent=2))
            return
        result = proposal.result
        self.stdout.write(
            f"Round {round_number} of division {div.name}, {result.system} "
            f"from round {result.based_on}:"
        )
        for row in rows:
            second = row["second"] if row["second"] is not None else "bye"
            table = "" if row["second"] is None else row["table"]
            self.stdout.write(f"{table:>4}  {row['first']:<30} v  {second}")
        for note in sentences.messages(n.as_dict() for n in result.notes):
            self.stdout.write(f"note: {note}")
        for warning in sentences.warnings(result.warnings):
            self.stdout.write(f"warning: {warning}")
        if options["dry_run"]:
            self.stdout.write("Dry run: nothing saved.")


def _cop_options(path: str) -> dict[str, Any]:
    """COP's parameters from a JSON file, or a CommandError saying what is wrong with it."""
    try:
        values = jsonin.read(Path(path).read_bytes(), COP_FILE_BYTES)
    except OSError as error:
        raise CommandError(f"Cannot read {path}: {error.strerror}.") from error
    except jsonin.Refused as error:
        raise CommandError(f"{path} cannot be read: {error}.") from error
    if not isinstance(values, dict):
        raise CommandError(f"{path} should hold a JSON object of COP's parameters.")
    try:
        return options_of(values)
    except PairingError as error:
        raise CommandError(str(error)) from error
