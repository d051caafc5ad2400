"""`manage.py playerlinks SLUG --division A [--json] [--base URL] [--new]`: each player's
personal link, issued where the player has none yet (or none this server's secret key opens);
with `--new`, a new link for every player (the old ones stop working)."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import CommandError
from django.urls import reverse

from tournament.core import access
from tournament.management.base import SpreadCommand
from tournament.models import Tournament
from tournament.phone import services as phone


class Command(SpreadCommand):
    help = "List the players' personal links (issuing any missing): [{number, name, url}]."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("slug")
        parser.add_argument("--division", required=True)
        parser.add_argument("--json", action="store_true")
        parser.add_argument(
            "--base", default="http://127.0.0.1:8000", help="The address players open."
        )
        parser.add_argument(
            "--new",
            action="store_true",
            help="Issue every player a new link: after a restore on a server with another "
            "secret key, or when links have been seen by others.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = Tournament.objects.filter(slug=options["slug"]).first()
        if tournament is None:
            raise CommandError(f"No tournament {options['slug']!r}.")
        division = access.find_division(tournament.divisions.all(), options["division"])
        if division is None:
            raise CommandError(f"No division {options['division']!r} in {tournament.name}.")
        base = options["base"].rstrip("/")
        link = phone.issue_link if options["new"] else phone.live_token
        rows = [
            {
                "number": p.number,
                "name": p.name,
                "url": base + reverse("phone", args=[link(p)]),
            }
            for p in division.players.order_by("number")
        ]
        if options["json"]:
            self.stdout.write(json.dumps(rows, ensure_ascii=False, indent=1))
        else:
            for row in rows:
                self.stdout.write(f"{row['number']:>4}  {row['name']:<30} {row['url']}")
