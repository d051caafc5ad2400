"""Compute a cached value once when many ask for it at the same moment (the "dogpile").

A write renews a division's stamp, and every viewer's next request then misses the cache at
once: without a guard each worker thread would compute the same standings or render the same
page. Here the first to miss takes a short lock in the cache (shared by every worker with
REDIS_URL) and computes; the others wait for its value instead. The value is kept under the
same key as ever (its stamp in it), so what a waiter gets is exactly what it would have
computed: nothing stale is ever served. A waiter that sees no value within `WAIT` seconds (the
computer died, or is very slow) computes it itself.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TypeVar

from django.core.cache import cache

from tournament.standings import memos
from tournament.standings.memos import Kept

T = TypeVar("T")
V = TypeVar("V")

WAIT = 5.0  # seconds a waiter waits for another's value before computing it itself
POLL = 0.01  # seconds between looks
LOCK_TIMEOUT = 30  # a lock left by a worker that died lapses after this


def get_many(kept: Kept[str, V], keys: list[str]) -> dict[str, V]:
    """The values under `keys` that this process keeps in `kept`, else those the shared cache
    holds (kept in `kept` from then on); the keys found in neither are left out."""
    if memos.computing_afresh():
        return {}
    found = {k: v for k in keys if (v := kept.get(k)) is not None}
    missing = [k for k in keys if k not in found]
    if missing:
        read = cache.get_many(missing)
        for key, value in read.items():
            kept.put(key, value)
        found.update(read)
    return found


def set_many(kept: Kept[str, V], data: dict[str, V], timeout: int) -> None:
    """`data` kept in this process's `kept` and in the shared cache for `timeout` seconds."""
    if memos.computing_afresh():
        return
    for key, value in data.items():
        kept.put(key, value)
    cache.set_many(data, timeout)


def get_or_compute(
    key: str,
    compute: Callable[[], T | None],
    timeout: int,
    local: Kept[str, T] | None = None,
    pack: Callable[[T], Any] | None = None,
    unpack: Callable[[Any], T | None] | None = None,
) -> T | None:
    """The value cached under `key`, else `compute()`'s, stored for `timeout` seconds unless it
    is None (a value not to keep: the caller keeps what it needs from its own call).

    `local`: also kept in this process's memory, in that memo (`memos.STANDINGS`...), and shared
    by every caller as it is (the caller must not change it). With `local`, `pack` and `unpack`:
    kept in the shared cache as `pack(value)` (plain values, quick to pickle, where the value
    holds model instances), and made again with `unpack` in the processes that did not compute
    it; where `unpack` gives None (what it needs is gone), computed again. Within
    `memos.afresh()`, computed, and neither read nor kept."""
    if memos.computing_afresh():
        return compute()
    if local is None:
        return _get_or_compute(key, compute, timeout)
    value: T | None = local.get(key)
    if value is None:
        if pack is None or unpack is None:
            value = _get_or_compute(key, compute, timeout)
        else:
            made: list[T | None] = []

            def packed() -> Any:
                made.append(compute())
                return None if made[0] is None else pack(made[0])

            kept = _get_or_compute(key, packed, timeout)
            if made:
                value = made[0]
            elif kept is not None:
                value = unpack(kept)
                if value is None:
                    value = compute()
        if value is not None:
            local.put(key, value)
    return value


def _get_or_compute(key: str, compute: Callable[[], T | None], timeout: int) -> T | None:
    value: T | None = cache.get(key)
    if value is not None:
        return value
    lock = f"{key}:computing"
    deadline = time.monotonic() + WAIT
    while not cache.add(lock, 1, LOCK_TIMEOUT):
        time.sleep(POLL)
        value = cache.get(key)
        if value is not None:
            return value
        if time.monotonic() > deadline:
            return compute()
    try:
        value = cache.get(key)  # set by another between our first look and the lock
        if value is None:
            value = compute()
            if value is not None:
                cache.set(key, value, timeout)
        return value
    finally:
        cache.delete(lock)
