"""A real Redis, of the test's own on an ephemeral port, killed and started again under the app
(through config/settings.py's backend, `TolerantCache` around Django's RedisCache): the pages
answer while it is down, it comes back empty and the pages are cached in it again, and when it
comes back with what it held before the outage (its dump), no page from before is served."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from cache_support import tolerant
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from bench.redis_server import REDIS_SERVER, RedisServer
from tournament.core import cache_backend
from tournament.models import Claim, Division, Round
from tournament.phone import services as phones
from tournament.results import services as results
from tournament.standings import memos

pytestmark = pytest.mark.skipif(REDIS_SERVER is None, reason="redis-server is not installed")

PAGE = "/t/spring-open/A/"


def _forget() -> None:
    """What a process keeps besides the cache (a worker restarted, or another worker)."""
    memos.clear_all()


@pytest.fixture
def server(tmp_path: Path, settings, monkeypatch: pytest.MonkeyPatch) -> Iterator[RedisServer]:
    redis = RedisServer(tmp_path / "redis")
    redis.start()
    monkeypatch.setattr(cache_backend, "RETRY", 0.0)  # try the server again on every call
    cache_backend._STATES.clear()
    settings.CACHES = tolerant(
        "django.core.cache.backends.redis.RedisCache",
        redis.url,
        socket_connect_timeout=0.5,
        socket_timeout=1.0,
    )
    _forget()
    try:
        yield redis
    finally:
        redis.kill()
        cache_backend._STATES.clear()


@pytest.fixture
def event(division: Division) -> Division:
    division.self_report = True
    division.save()
    Round.objects.create(division=division, number=1, published=True)
    return division


def _page_keys(redis: RedisServer) -> set[bytes]:
    return set(redis.client().keys("spread-test:*page:*"))


def test_redis_killed_then_back_empty_then_back_stale(
    server: RedisServer, event: Division, director: User, game_of: Callable[..., object]
) -> None:
    from django.core.cache import cache

    results.enter_line(event, 1, "1 400 2 350", director)
    before = Client().get(PAGE)
    assert before.status_code == 200 and "+50" in before.content.decode()
    old_keys = _page_keys(server)
    assert old_keys  # the page is kept in Redis
    server.save()  # what Redis holds before the outage, to come back with
    kept = server.dump.read_bytes()

    server.kill()
    results.enter_line(event, 1, "3 300 4 390", director)  # a new stamp, in the database
    during = Client().get(PAGE)
    fay = phones.issue_link(event.players.get(number=5))
    phone = Client().get(reverse("phone", args=[fay]))
    reported = Client().post(
        reverse("phone-report", args=[fay]), {"my_score": "330", "opponent_score": "390"}
    )
    assert cache.down  # type: ignore[attr-defined]
    assert during.status_code == 200 and "+90" in during.content.decode()
    assert phone.status_code == 200
    assert reported.status_code == 302 and Claim.objects.filter(player__number=5).count() == 1

    server.start(empty=True)
    _forget()
    empty = Client().get(PAGE)
    assert not cache.down  # type: ignore[attr-defined]
    assert empty.status_code == 200 and "+90" in empty.content.decode()
    assert _page_keys(server)  # cached in Redis again

    server.kill()
    server.dump.write_bytes(kept)
    server.start()  # with its dump from before the outage: the page of then, under its key
    _forget()
    assert _page_keys(server) == old_keys
    stale = Client().get(PAGE)
    assert stale.status_code == 200
    assert "+90" in stale.content.decode()  # the result entered during the outage
    assert stale.content != before.content
