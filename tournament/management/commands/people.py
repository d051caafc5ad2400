"""python manage.py people [--json] | --link SLUG | --merge A B | --split ID --players P1,P2 |
--undo CHANGE: the people across events, and the desk's changes to them from the command line
(logged as the desk's are, with no user)."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import CommandError, CommandParser

from tournament.management.base import SpreadCommand
from tournament.models import PeopleChange, Person, Player, Tournament
from tournament.people import services


class Command(SpreadCommand):
    help = "List people across events, link an event's players, merge, split or undo."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--json", action="store_true", help="the list as JSON")
        parser.add_argument("--link", metavar="SLUG", help="link every player of an event")
        parser.add_argument("--merge", nargs=2, type=int, metavar=("A", "B"), help="B into A")
        parser.add_argument("--split", type=int, metavar="ID", help="split a person")
        parser.add_argument("--players", default="", help="P1,P2: pks or SLUG:DIV:NUMBER")
        parser.add_argument("--undo", type=int, metavar="CHANGE", help="undo a change")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            if options["link"]:
                self._link(options["link"])
            elif options["merge"]:
                a, b = (self._person(pk) for pk in options["merge"])
                self._done(services.merge(a, b, None))
            elif options["split"] is not None:
                texts = [t for t in options["players"].split(",") if t.strip()]
                players = services.players_named(texts)
                self._done(services.split(self._person(options["split"]), players, None))
            elif options["undo"] is not None:
                change = PeopleChange.objects.filter(pk=options["undo"]).first()
                if change is None:
                    raise CommandError(f"No change #{options['undo']}.")
                self._done(services.undo(change, None))
            else:
                self._list(options["json"])
        except services.PeopleRefused as refused:
            raise CommandError(str(refused)) from refused

    def _person(self, pk: int) -> Person:
        person = Person.objects.filter(pk=pk).first()
        if person is None:
            raise CommandError(f"No person #{pk}.")
        return person

    def _done(self, change: PeopleChange) -> None:
        self.stdout.write(f"Change #{change.pk}: {change.action}: {change.reason}")

    def _link(self, slug: str) -> None:
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None:
            raise CommandError(f"No tournament {slug!r}.")
        for line in services.link_tournament(tournament).lines():
            self.stdout.write(line)

    def _list(self, as_json: bool) -> None:
        events: dict[int, list[str]] = {}
        rows = (
            Player.objects.filter(person__isnull=False)
            .order_by("division__tournament__start_date", "division__tournament__slug")
            .values_list("person_id", "division__tournament__slug")
        )
        for person, slug in rows:
            seen = events.setdefault(person, [])
            if slug not in seen:
                seen.append(slug)
        people: list[dict[str, Any]] = [
            {"id": pk, "name": name, "events": events.get(pk, [])}
            for pk, name in Person.objects.order_by("key", "pk").values_list("pk", "name")
        ]
        if as_json:
            self.stdout.write(json.dumps(people, ensure_ascii=False, indent=1))
            return
        for p in people:
            self.stdout.write(f"#{p['id']} {p['name']}: {', '.join(p['events'])}")
