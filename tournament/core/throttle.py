"""Guesses counted by the address they come from, in the shared cache (with REDIS_URL, shared
by every server): a lookup of something a visitor can only guess at (a certificate's code)
counts each miss, and past the limit the address is refused before anything is read.

The address is the client's behind the proxies (`config.auth.client_address`, as the login
throttle reads it). The window is fixed (a counter a window, expiring with it): a burst at a
window's edge may reach twice the limit, never more. The counters are read and charged with
the cache's own atomic `add` and `incr`, so that concurrent guesses never overspend together.
"""

from __future__ import annotations

import hashlib
import time

from django.core.cache import cache
from django.http import HttpRequest

from config.auth import client_address


def _key(what: str, request: HttpRequest, window: int) -> str:
    address = client_address(request) or "unknown"
    digest = hashlib.sha256(address.encode()).hexdigest()[:32]
    return f"throttle:{what}:{digest}:{int(time.time() // window)}"


def refused(what: str, request: HttpRequest, limit: int, window: int) -> bool:
    """Whether the address has already missed `limit` times in this window (one cache read)."""
    return int(cache.get(_key(what, request, window)) or 0) >= limit


def charge(key: str, amount: int, timeout: int) -> int:
    """Add `amount` to the cache's counter under `key` (made for `timeout` seconds if new),
    atomically (the cache's `add` and `incr`: Redis's INCRBY); the counter's new value."""
    cache.add(key, 0, timeout=timeout)
    try:
        return int(cache.incr(key, amount))
    except ValueError:  # the counter expired between add and incr
        cache.set(key, amount, timeout=timeout)
        return amount


def missed(what: str, request: HttpRequest, window: int) -> None:
    """Count one miss against the address."""
    charge(_key(what, request, window), 1, window + 1)
