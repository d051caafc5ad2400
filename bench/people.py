"""People across events: a person's page with 50 events, and the people list at 5,000 people.

    .venv/bin/python bench/people.py

Builds 50 synthetic events (100 players each, 7 rounds, every score random) whose 5,000
players are 5,000 people, one of them in all 50; then prints, for /people/<id>/ of that person,
the API and the people list (first page, a search, the last page), the queries and the time
of a cold request (empty cache) and of a warm one; and the time to link a new event of 100
players whose names are all known. Prints figures, asserts nothing. A throw-away SQLite file.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.standings import _db  # noqa: E402, F401  (sets up Django on a throw-away SQLite)

EVENTS, PLAYERS, ROUNDS, PEOPLE = 50, 100, 7, 5000


def build() -> int:
    """The events and people; the pk of the person in every event."""
    import datetime as dt

    from tournament.models import Division, Game, Person, Player, Tournament
    from tournament.people.services import fold

    rng = random.Random(7)
    people = Person.objects.bulk_create(
        Person(name=f"Player {n:04d}", key=fold(f"Player {n:04d}")) for n in range(PEOPLE)
    )
    order = people[1:]
    for e in range(EVENTS):
        t = Tournament.objects.create(
            name=f"Event {e}", slug=f"event-{e}", start_date=dt.date(2000 + e // 12, e % 12 + 1, 1)
        )
        d = Division.objects.create(tournament=t, name="A", planned_rounds=ROUNDS)
        field = [people[0], *order[e * (PLAYERS - 1) : (e + 1) * (PLAYERS - 1)]]
        while len(field) < PLAYERS:
            field.append(order[rng.randrange(len(order))])
        players = Player.objects.bulk_create(
            Player(
                division=d,
                number=n,
                name=p.name,
                rating=rng.randint(800, 2100),
                person=p,
                person_link="name",
            )
            for n, p in enumerate(field, start=1)
        )
        games = []
        for r in range(1, ROUNDS + 1):
            shuffled = players[:]
            rng.shuffle(shuffled)
            for k in range(0, PLAYERS - 1, 2):
                games.append(
                    Game(
                        division=d,
                        round=r,
                        table=k // 2 + 1,
                        player1=shuffled[k],
                        player2=shuffled[k + 1],
                        score1=rng.randint(250, 550),
                        score2=rng.randint(250, 550),
                    )
                )
        Game.objects.bulk_create(games, batch_size=2000)
    return people[0].pk


def timed(client, url: str, cold: bool | str) -> tuple[int, float]:
    from django.core.cache import cache
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from tournament.models import Person
    from tournament.standings import memos

    if cold == "page":
        # The person's page afresh, every event's standings and ratings still kept (as the
        # events' own pages keep them): the person's key changes with `updated`.
        Person.objects.update(updated=timezone.now())
    elif cold:
        cache.clear()
        memos.clear_all()
    with CaptureQueriesContext(connection) as queries:
        start = time.perf_counter()
        response = client.get(url)
        spent = time.perf_counter() - start
    assert response.status_code == 200, (url, response.status_code)  # noqa: S101
    return len(queries), spent * 1000


def report(client, label: str, url: str) -> None:
    cold = [timed(client, url, True) for _ in range(3)]
    fresh = [timed(client, url, "page") for _ in range(3)]
    warm = [timed(client, url, False) for _ in range(5)]
    print(
        f"  {label:<30} cold {cold[0][0]:3d} q {statistics.median(c[1] for c in cold):6.0f} ms"
        f" · events kept {fresh[-1][0]:3d} q {statistics.median(f[1] for f in fresh):5.0f} ms"
        f" · warm {warm[-1][0]:2d} q {statistics.median(w[1] for w in warm):5.0f} ms"
    )


def main() -> None:
    from django.core.management import call_command
    from django.test import Client

    call_command("migrate", verbosity=0)
    start = time.perf_counter()
    star = build()
    print(
        f"built {EVENTS} events x {PLAYERS} players, {PEOPLE} people in "
        f"{time.perf_counter() - start:.1f} s"
    )
    client = Client()
    report(client, f"/people/{star}/ (50 events)", f"/people/{star}/")
    report(client, f"/api/v1/people/{star}", f"/api/v1/people/{star}")
    report(client, "/people/ (page 1 of 5,000)", "/people/")
    report(client, "/people/?q=player 4321", "/people/?q=player+4321")
    report(client, "/people/?page=100 (the last)", "/people/?page=100")
    other = 2
    report(client, f"/people/{star}/vs/{other}/", f"/people/{star}/vs/{other}/")
    link_new_event()


def link_new_event() -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tournament.models import Division, Player, Tournament
    from tournament.people import services

    t = Tournament.objects.create(name="New", slug="new-event")
    d = Division.objects.create(tournament=t, name="A")
    Player.objects.bulk_create(
        Player(division=d, number=n, name=f"Player {n * 7:04d}") for n in range(1, PLAYERS + 1)
    )
    with CaptureQueriesContext(connection) as queries:
        start = time.perf_counter()
        done = services.link_tournament(t)
        spent = time.perf_counter() - start
    print(
        f"  link_tournament, {PLAYERS} known names   {len(queries)} queries "
        f"{spent * 1000:.0f} ms ({len(done.by_name)} by name)"
    )


if __name__ == "__main__":
    main()
