"""Cache backends for the tests of a cache outage (`tournament.core.cache_backend.TolerantCache`
wraps them as it wraps Redis in production)."""

from __future__ import annotations

from typing import Any, ClassVar

import redis.exceptions
from django.core.cache.backends.base import BaseCache


class FailingCache(BaseCache):
    """A cache whose server cannot be reached: every call raises what redis-py raises for a
    refused connection. `calls` lists each call's name, and `seen` what `probe()` (if set)
    returned at each call: what the database held when the cache was touched."""

    calls: ClassVar[list[str]] = []
    seen: ClassVar[list[Any]] = []
    probe: ClassVar[Any] = None

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(params)

    def _fail(self, name: str) -> Any:
        FailingCache.calls.append(name)
        if FailingCache.probe is not None:
            FailingCache.seen.append(FailingCache.probe())
        raise redis.exceptions.ConnectionError(
            "Error 111 connecting to 127.0.0.1:1. Connection refused."
        )

    def add(self, key, value, timeout=None, version=None):
        return self._fail("add")

    def get(self, key, default=None, version=None):
        return self._fail("get")

    def set(self, key, value, timeout=None, version=None):
        return self._fail("set")

    def touch(self, key, timeout=None, version=None):
        return self._fail("touch")

    def delete(self, key, version=None):
        return self._fail("delete")

    def get_many(self, keys, version=None):
        return self._fail("get_many")

    def set_many(self, data, timeout=None, version=None):
        return self._fail("set_many")

    def delete_many(self, keys, version=None):
        return self._fail("delete_many")

    def has_key(self, key, version=None):
        return self._fail("has_key")

    def incr(self, key, delta=1, version=None):
        return self._fail("incr")

    def clear(self):
        return self._fail("clear")


def tolerant(backend: str, location: str, **options: Any) -> dict[str, Any]:
    """CACHES as config/settings.py writes them for Redis, around `backend` at `location`."""
    return {
        "default": {
            "BACKEND": "tournament.core.cache_backend.TolerantCache",
            "LOCATION": location,
            "KEY_PREFIX": "spread-test",
            "OPTIONS": {"BACKEND": backend, "OPTIONS": options},
        }
    }
