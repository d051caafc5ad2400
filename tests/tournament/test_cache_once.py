"""Many viewers missing the same cached page at once: one computes it, the others wait for its
value, and the value is still exact (kept under its stamp, never stale)."""

from __future__ import annotations

import threading
import time

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from tournament import cache_once, results
from tournament.cache_once import get_or_compute
from tournament.models import Division
from tournament.views import public


@pytest.fixture(autouse=True)
def _clear_cache():
    cache.clear()
    yield
    cache.clear()


def test_concurrent_misses_compute_once_and_all_get_the_value() -> None:
    started = threading.Event()
    release = threading.Event()
    calls: list[int] = []

    def compute() -> str:
        calls.append(1)
        started.set()
        release.wait(5)
        return "the standings"

    got: list[str | None] = []
    first = threading.Thread(target=lambda: got.append(get_or_compute("k", compute, 60)))
    first.start()
    assert started.wait(5)
    others = [
        threading.Thread(target=lambda: got.append(get_or_compute("k", compute, 60)))
        for _ in range(5)
    ]
    for t in others:
        t.start()
    release.set()
    for t in [first, *others]:
        t.join(10)

    assert calls == [1]
    assert got == ["the standings"] * 6
    assert cache.get("k") == "the standings"
    assert cache.get("k:computing") is None  # the lock is let go


def test_a_value_not_to_keep_is_not_stored_and_the_next_asker_computes() -> None:
    assert get_or_compute("k", lambda: None, 60) is None
    assert get_or_compute("k", lambda: "second", 60) == "second"


def test_a_waiter_whose_computer_never_finishes_computes_it_itself(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(cache_once, "WAIT", 0.05)
    cache.add("k:computing", 1, 60)  # a worker that died holding the lock

    assert get_or_compute("k", lambda: "mine", 60) == "mine"


def test_a_failed_computation_lets_go_of_the_lock() -> None:
    def broken() -> str:
        raise RuntimeError("database gone")

    with pytest.raises(RuntimeError):
        get_or_compute("k", broken, 60)
    assert get_or_compute("k", lambda: "after", 60) == "after"


@pytest.mark.django_db(transaction=True)
def test_viewers_missing_a_renewed_page_together_render_it_once_and_see_the_new_result(
    division: Division, director: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = reverse("standings", args=["spring-open", "A"])
    assert "+50" not in Client().get(url).text
    results.enter_line(division, 1, "1 400 2 350", director)  # renews the stamp

    renders: list[int] = []
    real = public.render

    def slow_render(*args, **kwargs):
        renders.append(1)
        time.sleep(0.3)  # long enough for every viewer to miss while it renders
        return real(*args, **kwargs)

    monkeypatch.setattr(public, "render", slow_render)
    pages: list[str] = []

    def view() -> None:
        pages.append(Client().get(url).text)

    threads = [threading.Thread(target=view) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(20)

    assert len(pages) == 6
    assert all("+50" in page for page in pages)
    assert renders == [1]
