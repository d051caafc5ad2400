"""python manage.py ratinglist create|add|remove|rebuild|show|export: an association's own
rating list from the command line (`rating_lists/services.py`), as the desk's /desk/ratings/.

    ratinglist create SLUG NAME [--system nsa2008] [--private] [--director USERNAME]
                                [--start-from FILE [--start-format naspa|wespa]]
    ratinglist add SLUG EVENT [--position N]      (EVENT: a tournament's slug)
    ratinglist remove SLUG EVENT
    ratinglist rebuild SLUG
    ratinglist show SLUG
    ratinglist export SLUG --format naspa|wespa [--output FILE] [--public]
"""

from __future__ import annotations

import datetime
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import CommandError, CommandParser

from tournament.interchange import files, ratinglist
from tournament.management.base import SpreadCommand
from tournament.models import RatingList, Tournament
from tournament.rating_lists import services


class Command(SpreadCommand):
    help = "An association's own rating list: create, add/remove events, rebuild, show, export."

    def add_arguments(self, parser: CommandParser) -> None:
        sub = parser.add_subparsers(dest="action", required=True)
        create = sub.add_parser("create")
        create.add_argument("slug")
        create.add_argument("name")
        create.add_argument("--system", default="nsa2008")
        create.add_argument("--private", action="store_true")
        create.add_argument("--director", action="append", default=[])
        create.add_argument(
            "--start-from",
            help="a NASPA or WESPA rating-list file: each person in it starts at its rating",
        )
        create.add_argument(
            "--start-format",
            choices=services.FORMATS,
            help="the file's format (default: WESPA's when its first line is NICKstateNAME…)",
        )
        for name in ("add", "remove"):
            one = sub.add_parser(name)
            one.add_argument("slug")
            one.add_argument("event")
            if name == "add":
                one.add_argument("--position", type=int)
                one.add_argument(
                    "--date",
                    type=datetime.date.fromisoformat,
                    help="the date an event without one is given (YYYY-MM-DD)",
                )
        sub.add_parser("rebuild").add_argument("slug")
        sub.add_parser("show").add_argument("slug")
        export = sub.add_parser("export")
        export.add_argument("slug")
        export.add_argument("--format", required=True, choices=services.FORMATS)
        export.add_argument("--output")
        export.add_argument("--public", action="store_true", help="leave out hidden people")

    def handle(self, *args, action: str, **options) -> None:
        try:
            getattr(self, f"_{action}")(**options)
        except services.RatingListRefused as refused:
            raise CommandError(str(refused)) from refused

    def _list(self, slug: str) -> RatingList:
        found = RatingList.objects.filter(slug=slug).first()
        if found is None:
            raise CommandError(f"no rating list {slug!r}")
        return found

    def _event(self, slug: str) -> Tournament:
        found = Tournament.objects.filter(slug=slug).first()
        if found is None:
            raise CommandError(f"no tournament {slug!r}")
        return found

    def _create(
        self,
        slug: str,
        name: str,
        system: str,
        private: bool,
        director: list[str],
        start_from: str | None = None,
        start_format: str | None = None,
        **_,
    ) -> None:
        users = []
        for username in director:
            user = get_user_model().objects.filter(username=username).first()
            if user is None:
                raise CommandError(f"no user {username!r}")
            users.append(user)
        read = None
        if start_from is not None:
            try:
                data = files.read_file(start_from, cap=ratinglist.MAX_BYTES)
            except files.FileRefused as refused:
                raise CommandError(str(refused)) from refused
            read = ratinglist.read(data, start_format or services.guess_format(data))
        created = services.create_list(
            name,
            slug,
            system,
            public=not private,
            start_from=read,
            start_name=Path(start_from).name if start_from else "",
        )
        created.directors.add(*users)
        self.stdout.write(f"rating list {created.slug} created ({created.system})")
        if read is not None:
            report = services.start_report(read)
            self.stdout.write(
                f"{report.ratings} starting ratings from {created.start_from} ({read.format})"
            )
            for problem in report.problems:
                self.stdout.write(f"  not read: {problem}")
            if report.more_problems:
                self.stdout.write(f"  and {report.more_problems} more lines not read")

    def _add(
        self, slug: str, event: str, position: int | None, date: datetime.date | None, **_
    ) -> None:
        tournament = self._event(event)
        undated = tournament.start_date is None
        added = services.add_event(self._list(slug), tournament, position=position, on_date=date)
        if undated and date is not None:
            self.stdout.write(f"{event} had no date: it is dated {date.isoformat()}")
        self.stdout.write(f"{event} added (position {added.position}); rebuild to rate it")

    def _remove(self, slug: str, event: str, **_) -> None:
        services.remove_event(self._list(slug), self._event(event))
        self.stdout.write(f"{event} taken out; rebuild to rate without it")

    def _rebuild(self, slug: str, **_) -> None:
        report = services.rebuild(self._list(slug))
        for e in report.events:
            line = f"{e.date} {e.slug}: {e.rated} rated, {e.newcomers} new, {e.games} games"
            if e.started:
                line += f", {e.started} from the starting ratings"
            self.stdout.write(line)
            if e.skipped:
                self.stdout.write(f"  not rated (no person): {', '.join(e.skipped)}")
            if e.no_games:
                self.stdout.write(f"  no rated game: {', '.join(e.no_games)}")
            if e.unpublished:
                self.stdout.write(f"  {e.unpublished} unpublished round(s) rated")
        self.stdout.write(f"{report.people} people, {report.entries} entries")

    def _show(self, slug: str, **_) -> None:
        rating_list = self._list(slug)
        when = rating_list.rebuilt.isoformat(timespec="seconds") if rating_list.rebuilt else "never"
        self.stdout.write(f"{rating_list.name} ({rating_list.system}), rebuilt {when}")
        for e in services.ordered_events(rating_list):
            self.stdout.write(f"  event {e.tournament.start_date} {e.tournament.slug}")
        for row in services.current_ratings(rating_list):
            hidden = " (hidden)" if row.hidden else ""
            self.stdout.write(
                f"{row.rank:>4} {row.rating:>5} {row.games:>5}  {row.person.name}{hidden}"
                f"  [{row.last_event.slug}]"
            )

    def _export(self, slug: str, format: str, output: str | None, public: bool, **_) -> None:
        text = services.export_text(self._list(slug), format, public=public)
        if output is None:
            self.stdout.write(text, ending="")
            return
        Path(output).write_text(text, encoding="utf-8")
        self.stdout.write(f"written {output}")
