"""python manage.py pair SLUG --division NAME --round R [--based-on S] [--system NAME]
[--repeats N] [--dry-run] [--json].

Pairs round R from the results of rounds 1..S (default R-1), as if nothing after round S had
been recorded. Without --dry-run the pairings are saved, unpublished, replacing any pairings
of round R that have no results yet.
"""

import json

from django.core.management.base import CommandError, CommandParser

from tournament.core import sentences
from tournament.engine.pairing.registry import automatic
from tournament.management.base import DivisionCommand
from tournament.pairing import services as pairing


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
        parser.add_argument("--dry-run", action="store_true")
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, slug: str, division: str, round_number: int, **options) -> None:
        div = self.division(slug, division)
        try:
            proposal = pairing.plan(
                div, round_number, options["based_on"], options["system"], options["repeats"]
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
