"""python manage.py loaddemo: the demo tournament `make run` serves, and a director to log in.

Two divisions, several rounds of results, the next round of A paired and that of B left for
the director to pair, a pairing schedule and prizes, and three scoresheets from `fixtures/demo/`
(one with a wrong addition, for the engine to find). Loading twice changes nothing.
"""

from __future__ import annotations

import datetime
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.management.base import BaseCommand
from django.db import transaction

from tournament import scoresheets
from tournament.models import Division, Game, Player, Tournament

SLUG = "demo"
DIRECTOR = "director"
PASSWORD = "spread-demo"
SCORESHEETS = Path(settings.BASE_DIR) / "fixtures" / "demo"

# Player name, rating.
DIVISION_A = [
    ("Ada Quill", 1850),
    ("Ben Crane", 1720),
    ("Cora Vale", 1640),
    ("Dev Patel", 1580),
    ("Eli Moss", 1490),
    ("Fay North", 1400),
]
DIVISION_B = [
    ("Gus Hale", 1550),
    ("Ivy Stone", 1500),
    ("Jon Reed", 1450),
    ("Kai Wren", 1300),
    ("Lea Frost", 1200),
]
# Round: [(first player's number, score, second player's number, score, scoresheet or "")];
# a second player of 0 is a bye; no scores is a pairing still to be played.
RESULTS_A = {
    1: [(1, 7, 2, 17, "a1-ada-ben.gcg"), (3, 412, 4, 389, ""), (5, 58, 6, 7, "a1-eli-fay.gcg")],
    2: [(1, 31, 3, 19, "a2-ada-cora.gcg"), (2, 398, 5, 421, ""), (4, 377, 6, 350, "")],
    3: [(1, 455, 4, 402, ""), (6, 390, 2, 366, ""), (3, 410, 5, 410, "")],
    4: [(1, None, 5, None, ""), (3, None, 6, None, ""), (2, None, 4, None, "")],
}
RESULTS_B = {
    1: [(1, 380, 2, 345, ""), (3, 402, 4, 399, ""), (5, 50, 0, None, "")],
    2: [(3, 410, 1, 367, ""), (2, 420, 5, 312, ""), (4, 50, 0, None, "")],
}

# Swiss for four rounds, then king of the hill; round 3 of division B is left for the director
# to pair at the desk.
SCHEDULE = [{"rounds": "1-4", "system": "swiss"}, {"rounds": "5-6", "system": "koth"}]
PRIZES = [
    {"kind": "rank", "place": 1, "value": "$300 and the trophy", "note": ""},
    {"kind": "rank", "place": 2, "value": "$150", "note": ""},
    {"kind": "rank", "place": 3, "value": "$75", "note": ""},
]


class Command(BaseCommand):
    help = "Load the demo tournament and its director (once)."

    def handle(self, *args, **options) -> None:
        director = self._director()
        if Tournament.objects.filter(slug=SLUG).exists():
            self.stdout.write("The demo tournament is already loaded.")
        else:
            self._load(director)
            self.stdout.write("Loaded the demo tournament.")
        self.stdout.write(
            f"Director login: {DIRECTOR} / {PASSWORD} at http://127.0.0.1:8000/accounts/login/"
        )

    def _director(self):
        user, created = get_user_model().objects.get_or_create(username=DIRECTOR)
        if created:
            user.set_password(PASSWORD)
            user.save()
            # The demo's director may also create tournaments of their own at the desk.
            user.user_permissions.add(
                Permission.objects.get(
                    content_type__app_label="tournament", codename="add_tournament"
                )
            )
        return user

    @transaction.atomic
    def _load(self, director) -> None:
        today = datetime.date.today()
        tournament = Tournament.objects.create(
            name="Spread Demo Open",
            slug=SLUG,
            start_date=today,
            end_date=today + datetime.timedelta(days=1),
            venue="Community Hall",
        )
        tournament.directors.add(director)
        for position, (name, people, rounds) in enumerate(
            [("A", DIVISION_A, RESULTS_A), ("B", DIVISION_B, RESULTS_B)]
        ):
            division = Division.objects.create(
                tournament=tournament,
                name=name,
                position=position,
                planned_rounds=6,
                max_repeats=1,
                pairing_schedule=SCHEDULE,
                prize_bands=[1, 2, 3],
                prizes=PRIZES,
                # Division A's players may report round 4 (three games waiting) from their links
                # (`manage.py playerlinks demo --division A`).
                self_report=name == "A",
            )
            players = {
                number: Player.objects.create(
                    division=division, number=number, name=player, rating=rating
                )
                for number, (player, rating) in enumerate(people, start=1)
            }
            for round_number, games in rounds.items():
                for table, (a, score_a, b, score_b, sheet) in enumerate(games, start=1):
                    game = Game.objects.create(
                        division=division,
                        round=round_number,
                        table=table,
                        player1=players[a],
                        player2=players[b] if b else None,
                        score1=score_a,
                        score2=score_b,
                        kind=Game.PLAYED if b else Game.BYE,
                        first=1 if b else 0,
                    )
                    if sheet:
                        data = (SCORESHEETS / sheet).read_bytes()
                        scoresheets.attach_scoresheet(game, data, director, file=sheet)
