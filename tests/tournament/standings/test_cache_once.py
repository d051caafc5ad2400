"""Many viewers missing the same cached page at once: one computes it, the others wait for its
value, and the value is still exact (kept under its stamp, never stale)."""

from __future__ import annotations

import threading
import time
from dataclasses import fields

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from tournament.models import Division
from tournament.public import views as public
from tournament.results import services as results
from tournament.standings import cache_once, memos, read_model
from tournament.standings.cache_once import get_or_compute
from tournament.standings.rows import Row
from tournament.standings.stamps import read as read_stamps


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


def test_values_kept_in_the_process_are_not_read_from_the_shared_cache_again() -> None:
    kept: memos.Kept[str, int] = memos.Kept("test", 4)
    cache_once.set_many(kept, {"a": 1}, 60)
    cache.set("b", 2, 60)

    assert cache_once.get_many(kept, ["a", "b", "c"]) == {"a": 1, "b": 2}
    assert kept.get("b") == 2  # read from the shared cache once, kept from then on
    assert cache.get("a") == 1  # set in both

    cache.clear()  # what the process keeps is its own
    assert cache_once.get_many(kept, ["a", "b", "c"]) == {"a": 1, "b": 2}


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


@pytest.mark.django_db
def test_standings_and_ratings_kept_packed_are_the_same_rows_in_another_process(
    division: Division, director: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    results.enter_line(division, 1, "1 400 2 350", director)
    results.enter_line(division, 1, "3 380 4 390", director)
    computed = (
        read_model.division_standings(division, stamps=read_stamps(division)),
        read_model.division_ratings(division, stamps=read_stamps(division)),
    )

    memos.STANDINGS.clear()
    memos.RATINGS.clear()  # another worker: the shared cache holds them packed
    memos.DIVISION_READS.clear()
    memos.PLAYERS.clear()
    for name in ("_standings", "_ratings"):
        monkeypatch.setattr(read_model, name, lambda *a: pytest.fail("computed again"))
    kept = (
        read_model.division_standings(division, stamps=read_stamps(division)),
        read_model.division_ratings(division, stamps=read_stamps(division)),
    )

    assert kept == computed
    top = [(r.rank, r.player.name, r.wins, r.spread) for r in kept[0][:2]]
    assert top == [(1, "Quill, Ada", 1, 50), (2, "Moss, Eli", 1, 10)]
    assert kept[1][0].after_round == 1 and kept[1][0].after != kept[1][0].before


@pytest.mark.django_db
def test_rows_kept_by_their_fields_for_a_player_since_deleted_are_computed_again(
    division: Division, director: User
) -> None:
    rows = read_model.division_standings(division, stamps=read_stamps(division))
    key = read_model.standings_key(division, stamps=read_stamps(division))
    names = tuple(f.name for f in fields(Row))
    assert names == ("rank", "player", "wins", "losses", "spread", "games")
    gone = rows[-1].player.pk
    values = [(r.rank, r.player.pk, r.wins, r.losses, r.spread, r.games) for r in rows]
    values[-1] = (None, gone + 1000, 0, 0, 0, 0)
    cache.set(key, (names, values))
    memos.STANDINGS.clear()
    memos.RATINGS.clear()

    again = read_model.division_standings(division, stamps=read_stamps(division))

    assert [r.player.pk for r in again] == [r.player.pk for r in rows]


@pytest.mark.django_db
def test_rows_kept_in_an_earlier_shape_are_computed_again(
    division: Division, director: User
) -> None:
    rows = read_model.division_standings(division, stamps=read_stamps(division))
    key = read_model.standings_key(division, stamps=read_stamps(division))
    gone = rows[-1].player.pk
    packed = [(r.rank, r.player.pk, r.wins, r.losses, r.spread, r.games) for r in rows]
    packed[-1] = (None, gone + 1000, 0, 0, 0, 0)
    cache.set(key, packed)
    memos.STANDINGS.clear()
    memos.RATINGS.clear()

    again = read_model.division_standings(division, stamps=read_stamps(division))

    assert [r.player.pk for r in again] == [r.player.pk for r in rows]
