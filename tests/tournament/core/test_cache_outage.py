"""The shared cache's outage (`tournament.cache_backend.TolerantCache` around a backend whose
every call fails as a refused Redis connection): every public page, the phone page and the API
answer as with a working cache, from the database and each process's memory; a player's report
is recorded in the database before any cache is touched; the rate limits hold; the outage is
logged once."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator

import pytest
from cache_support import FailingCache, tolerant
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from text_support import plain

from tournament.core import bounds, cache_backend
from tournament.models import Claim, Division, Game, Round, Scoresheet
from tournament.phone import services as phone
from tournament.results import services as results
from tournament.scoresheets import services as scoresheets
from tournament.standings import memos

LOCAL = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
FAILING = tolerant("cache_support.FailingCache", "redis://127.0.0.1:1/0")


def _forget() -> None:
    """Everything a process keeps besides the cache: each test starts cold."""
    memos.clear_all()


@pytest.fixture
def outage(settings) -> Iterator[None]:
    """The shared cache cannot be reached, from the start of the test."""
    cache_backend._STATES.clear()
    FailingCache.calls.clear()
    FailingCache.seen.clear()
    FailingCache.probe = None
    settings.CACHES = FAILING
    _forget()
    yield
    FailingCache.probe = None
    cache_backend._STATES.clear()


@pytest.fixture
def event(division: Division, director: User, record: Callable[..., str]) -> Division:
    """Round 1 published with two results and a scoresheet; players report from their links."""
    division.self_report = True
    division.save()
    Round.objects.create(division=division, number=1, published=True)
    results.enter_line(division, 1, "1 20 2 24", director)
    results.enter_line(division, 1, "3 400 4 350", director)
    game = division.games.get(round=1, table=1)
    scoresheets.attach_scoresheet(game, record(), director)
    return division


def _public_paths(division: Division) -> list[str]:
    sheet = Scoresheet.objects.get()
    t, d = "/t/spring-open", "/t/spring-open/A"
    api = "/api/v1/t/spring-open/A"
    return [
        "/",
        f"{t}/",
        f"{d}/",
        f"{d}/round/1/",
        *(f"{d}/player/{n}/" for n in range(1, 8)),
        f"{d}/crosstable/",
        f"{d}/ratings/",
        f"{d}/statistics/",
        f"{t}/scoresheet/{sheet.pk}/",
        f"{t}/scoresheet/{sheet.pk}/record.gcg",
        f"{t}/high-plays/",
        f"{t}/tourney.js",
        f"{d}/display/",
        f"{api}/round/1/pairings",
        f"{api}/standings",
        f"{api}/players",
        f"{api}/rounds",
        f"{api}/display",
    ]


def _pages(paths: list[str]) -> dict[str, tuple[int, bytes]]:
    client = Client()
    found = {}
    for path in paths:
        response = client.get(path)
        found[path] = (response.status_code, response.content)
    return found


def test_every_public_page_answers_the_same_without_the_cache(event: Division, settings) -> None:
    paths = _public_paths(event)
    settings.CACHES = LOCAL
    _forget()
    working = _pages(paths)
    cache_backend._STATES.clear()
    settings.CACHES = FAILING
    _forget()

    down = _pages(paths)
    again = _pages(paths)  # now from each process's own memory

    assert {p: s for p, (s, _) in working.items()} == dict.fromkeys(paths, 200)
    assert down == working
    assert again == working
    assert cache.down  # type: ignore[attr-defined]


def test_a_result_entered_during_the_outage_is_on_the_next_page(
    outage: None, event: Division, director: User
) -> None:
    before = Client().get("/t/spring-open/A/").content.decode()

    results.enter_line(event, 1, "5 330 6 390", director)
    after = Client().get("/t/spring-open/A/").content.decode()

    assert "+60" not in before and "+60" in after


def test_the_phone_page_and_a_report_work_and_the_report_is_in_the_database_first(
    outage: None, event: Division, director: User
) -> None:
    game = event.games.get(round=1, table=3)
    fay = phone.issue_link(event.players.get(number=5))
    gus = phone.issue_link(event.players.get(number=6))
    FailingCache.probe = lambda: Claim.objects.filter(game=game).count()

    page = Client().get(reverse("phone", args=[fay]))
    assert page.status_code == 200 and "North, Fay" in page.content.decode()
    FailingCache.seen.clear()
    reported = Client().post(
        reverse("phone-report", args=[fay]), {"my_score": "330", "opponent_score": "390"}
    )

    assert reported.status_code == 302
    assert Claim.objects.filter(game=game).count() == 1
    # The breaker held the cache off after the page's first failure, so the report touched
    # nothing of it; where it did, the claim was already in the database.
    assert all(seen == 1 for seen in FailingCache.seen)
    agreed = Client().post(
        reverse("phone-report", args=[gus]), {"my_score": "390", "opponent_score": "330"}
    )
    assert agreed.status_code == 302
    game.refresh_from_db()
    assert (game.score1, game.score2) == (330, 390)
    assert Client().get(reverse("phone", args=[gus])).status_code == 200


def test_a_report_touches_no_cache_before_it_is_recorded(
    outage: None, event: Division, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cache_backend, "RETRY", 0.0)  # every call goes to the failing server
    game = event.games.get(round=1, table=3)
    fay = phone.issue_link(event.players.get(number=5))
    FailingCache.probe = lambda: Claim.objects.filter(game=game).count()

    reported = Client().post(
        reverse("phone-report", args=[fay]), {"my_score": "330", "opponent_score": "390"}
    )
    assert reported.status_code == 302
    assert FailingCache.calls == []  # the report itself reads and writes no cache at all
    Client().get(reported["Location"])  # the page it sends the player back to does

    assert FailingCache.calls
    assert set(FailingCache.seen) == {1}  # every call after the claim was in the database


def test_the_write_limit_holds_without_the_cache(outage: None, event: Division) -> None:
    fay = phone.issue_link(event.players.get(number=5))
    url = reverse("phone-check-in", args=[fay])
    event.games.all().delete()  # before round 1 is paired, while check-in by phone is open
    event.check_in_open = True
    event.save()

    answers = [Client().post(url, follow=True) for _ in range(phone.REPORTS_PER_MINUTE + 1)]

    said = [str(m) for m in answers[-1].context["messages"]]
    assert all(a.status_code == 200 for a in answers)
    assert said == ["Too many reports from this link in a minute: wait a moment."]
    assert [plain(str(m)) for m in answers[0].context["messages"]] == ["North, Fay: checked in."]


def test_the_check_budget_holds_in_each_process_without_the_cache(
    outage: None, event: Division, record: Callable[..., str]
) -> None:
    game = event.games.get(round=1, table=1)
    ada = phone.issue_link(event.players.get(number=1))
    url = reverse("phone-sheet-check", args=[ada, game.pk])
    big = record() + "#note n\n" * 250 + ">Ada: - +0 0\n" * 730  # 1,003 units

    statuses = [Client().post(url, {"gcg": big}).status_code for _ in range(12)]

    assert bounds.check_cost(big) == 1003
    assert statuses == [200] * 11 + [429]


def test_the_outage_is_logged_once_and_its_end_once(
    outage: None, event: Division, caplog: pytest.LogCaptureFixture, monkeypatch, settings
) -> None:
    monkeypatch.setattr(cache_backend, "RETRY", 0.05)
    caplog.set_level(logging.WARNING, logger="tournament.cache")
    for _ in range(3):
        assert Client().get("/t/spring-open/A/").status_code == 200
        time.sleep(0.06)  # each request after the retry tries the server again
    assert [r.levelname for r in caplog.records] == ["ERROR"]
    assert (
        caplog.records[0]
        .getMessage()
        .startswith(
            "the cache at redis://127.0.0.1:1/0 cannot be reached (ConnectionError: Error 111"
        )
    )
    # The server answers again: the same backend, now around a working one.
    settings.CACHES = tolerant(
        "django.core.cache.backends.locmem.LocMemCache", "redis://127.0.0.1:1/0"
    )
    for _ in range(3):
        assert Client().get("/t/spring-open/A/").status_code == 200
    assert [r.levelname for r in caplog.records] == ["ERROR", "WARNING"]
    assert caplog.records[1].getMessage() == "the cache at redis://127.0.0.1:1/0 answers again"
    assert not cache.down  # type: ignore[attr-defined]


def test_a_failed_server_is_tried_again_only_after_the_retry(
    outage: None, event: Division, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cache_backend, "RETRY", 60.0)
    for _ in range(5):
        assert Client().get("/t/spring-open/A/").status_code == 200

    assert len(FailingCache.calls) == 1  # the first call failed; the rest went to the memory


def test_an_outage_never_turns_a_game_into_an_error(
    outage: None, event: Division, game_of: Callable[..., Game], desk: Client
) -> None:
    # The desk's own pages read the cache too (the standings at the desk).
    assert desk.get("/desk/spring-open/").status_code == 200
    assert desk.get(f"/desk/spring-open/division/{event.pk}/round/1/").status_code == 200


def test_settings_put_redis_behind_the_tolerant_backend_with_short_timeouts() -> None:
    from config.settings import caches_from_env

    found = caches_from_env({"REDIS_URL": "redis://cache.internal:6379/2"})["default"]

    assert found == {
        "BACKEND": "tournament.core.cache_backend.TolerantCache",
        "LOCATION": "redis://cache.internal:6379/2",
        "KEY_PREFIX": "spread",
        "OPTIONS": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 1.0},
        },
    }
