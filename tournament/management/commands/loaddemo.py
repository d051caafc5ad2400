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
from django.db import transaction

from tournament.core.choices import DEMO_SLUG
from tournament.management.base import SpreadCommand
from tournament.models import Division, Game, Player, Tournament
from tournament.people import services as linking
from tournament.scoresheets import services as scoresheets

SLUG = DEMO_SLUG
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
# Round: [(a player's number, score, the other's number, score, scoresheet or "")]; a second
# player of 0 is a bye; no scores is a pairing still to be played. Who went first is worked
# out as a pairing would (`_first`): firsts alternate; a scoresheet's first player is theirs.
# The scoresheets are whole games (greedy self-play, checked by the rules engine).
Results = dict[int, list[tuple[int, int | None, int, int | None, str]]]
RESULTS_A: Results = {
    1: [
        (1, 305, 2, 340, "a1-ada-ben.gcg"),
        (3, 412, 4, 389, ""),
        (5, 348, 6, 422, "a1-eli-fay.gcg"),
    ],
    # Cora's scoresheet against Ada has Ada's total wrong from line 7 on, 10 too many: the
    # result entered is the sheet's, 415 to 342, and the engine finds 332.
    2: [(3, 415, 1, 342, "a2-cora-ada.gcg"), (2, 398, 5, 421, ""), (4, 377, 6, 350, "")],
    3: [(1, 455, 4, 402, ""), (6, 390, 2, 366, ""), (3, 410, 5, 410, "")],
    4: [(1, None, 5, None, ""), (3, None, 6, None, ""), (2, None, 4, None, "")],
}
RESULTS_B: Results = {
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


class Command(SpreadCommand):
    help = "Load the demo tournament and its director (once)."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--port", type=int, default=8000, help="the port the login address names (8000)"
        )

    def handle(self, *args, **options) -> None:
        director = self._director()
        if Tournament.objects.filter(slug=SLUG).exists():
            self.stdout.write("The demo tournament is already loaded.")
        else:
            self._load(director)
            self.stdout.write("Loaded the demo tournament.")
        self.stdout.write(
            f"Director login: {DIRECTOR} / {PASSWORD} at "
            f"http://127.0.0.1:{options['port']}/accounts/login/"
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
            firsts: dict[int, int] = {}  # how often each player has gone first
            went_second: set[int] = set()  # who went second in the round before
            for round_number, games in rounds.items():
                seconds: set[int] = set()
                for table, (a, score_a, b, score_b, sheet) in enumerate(games, start=1):
                    first = 0
                    if b:
                        first = _first(a, b, firsts, went_second)
                        goes, waits = (a, b) if first == 1 else (b, a)
                        firsts[goes] = firsts.get(goes, 0) + 1
                        seconds.add(waits)
                    game = Game.objects.create(
                        division=division,
                        round=round_number,
                        table=table,
                        player1=players[a],
                        player2=players[b] if b else None,
                        score1=score_a,
                        score2=score_b,
                        kind=Game.PLAYED if b else Game.BYE,
                        first=first,
                    )
                    if sheet:
                        data = (SCORESHEETS / sheet).read_bytes()
                        scoresheets.attach_scoresheet(game, data, director, file=sheet)
                went_second = seconds
        linking.link_tournament(tournament)


def _first(a: int, b: int, firsts: dict[int, int], went_second: set[int]) -> int:
    """Who goes first, much as the pairing engine (`engine/pairing/firsts.py`) has it: the
    player who has gone first less often; on a tie, the one who went second in the round
    before; else the one listed first. 1 for `a`, 2 for `b`."""
    key_a = (firsts.get(a, 0), a not in went_second)
    key_b = (firsts.get(b, 0), b not in went_second)
    return 2 if key_b < key_a else 1
