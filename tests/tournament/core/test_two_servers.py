"""Two app servers sharing PostgreSQL and Redis, as `make serve` starts them: a result entered
through one is on the other's next public page.

Runs only where DATABASE_URL is PostgreSQL (the suite's second pass in .ci/run) and Redis answers
at 127.0.0.1:6379; it makes a database and a cache prefix of its own and removes both.
"""

from __future__ import annotations

import os
import secrets
import urllib.parse
from collections.abc import Iterator

import pytest

from bench import load

REDIS_URL = "redis://127.0.0.1:6379/0"

SETUP = r"""
import json, sys
from django.contrib.auth.models import User
from tournament.models import Division, Game, Player, Tournament

password = sys.argv[-1]
tournament = Tournament.objects.create(name="Two Servers Open", slug="two")
division = Division.objects.create(tournament=tournament, name="A")
ada = Player.objects.create(division=division, number=1, name="Quill, Ada")
ben = Player.objects.create(division=division, number=2, name="Crane, Ben")
game = Game.objects.create(division=division, round=1, table=1, player1=ada, player2=ben)
director = User.objects.create_user("d1", password=password)
tournament.directors.add(director)
print("JSON" + json.dumps({
    "slug": "two", "division": "A", "division_id": division.pk, "rounds": 1, "game": game.pk,
}))
"""


def _redis():
    import redis

    client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2, socket_timeout=5)
    try:
        client.ping()
    except redis.RedisError as error:
        pytest.skip(f"Redis does not answer at {REDIS_URL}: {error}")
    return client


@pytest.fixture
def shared_database() -> Iterator[str]:
    """A PostgreSQL database of the test's own, on the server DATABASE_URL names."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        pytest.skip("two servers share PostgreSQL: set DATABASE_URL to a PostgreSQL database")
    import psycopg

    parts = urllib.parse.urlsplit(url)
    name = f"spread_two_servers_{os.getpid()}"
    admin = urllib.parse.urlunsplit(parts._replace(path="/postgres"))
    try:
        with psycopg.connect(admin, autocommit=True, connect_timeout=5) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{name}"')
    except psycopg.Error as error:
        pytest.skip(f"PostgreSQL does not answer at {parts.hostname}: {error}")
    yield urllib.parse.urlunsplit(parts._replace(path=f"/{name}"))
    with psycopg.connect(admin, autocommit=True, connect_timeout=5) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_a_result_entered_through_one_server_is_on_the_others_next_page(
    shared_database: str,
) -> None:
    redis = _redis()
    prefix = f"test-two-servers-{secrets.token_hex(4)}"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": shared_database,
        "REDIS_URL": REDIS_URL,
        "CACHE_KEY_PREFIX": prefix,
        "DEBUG": "False",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1",
        "HOST": "127.0.0.1",
        "WEB_CONCURRENCY": "1",
    }
    servers = []
    try:
        one_port, other_port = load.free_port(), load.free_port()
        servers.append(load.start_server(env, one_port)[0])  # it applies the migrations
        info = load.django_shell(env, SETUP, load.PASSWORD)
        servers.append(load.start_server(env, other_port)[0])
        page = "/t/two/A/"
        director = load.Director(one_port, "d1", info, [])

        status, before = _page(other_port, page)
        assert status == 200
        assert _page(other_port, page)[1] == before  # now from the shared cache
        assert redis.keys(f"{prefix}:*page:*")  # the cache is Redis's, not the worker's
        director.login()
        saved = director.enter(info["game"], 1, 400, 2, 350)
        status, after = _page(other_port, page)

        assert saved
        assert "+50" not in before
        assert status == 200
        assert "+50" in after and "Quill, Ada" in after
    finally:
        for server in servers:
            load.stop_server(server)
        keys = redis.keys(f"{prefix}:*")
        if keys:
            redis.delete(*keys)


def _page(port: int, path: str) -> tuple[int, str]:
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        return response.status, response.read().decode()
    finally:
        conn.close()
