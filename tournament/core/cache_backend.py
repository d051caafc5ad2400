"""The shared cache, made so that its server's outage is never an error (`TolerantCache`).

With REDIS_URL every worker shares one Redis (config/settings.py). Django's own RedisCache raises
when Redis cannot be reached, and every page, the phones' rate limiter and the dogpile guard
(`cache_once`) read the cache: an outage was a wave of 500s. This backend wraps the real one
(Django's RedisCache in production, a backend that always fails in the tests) and, when a call
fails with a connection error, answers from the process's own memory instead (a `LocMemCache`
per process: what each worker has without REDIS_URL), and keeps answering from it for `RETRY`
seconds before it tries the server again: a dead server costs one failed call a worker every few
seconds, not one every request. The outage is logged once when it starts and once when it ends.

Why nothing is stale afterwards: every value kept in either cache sits under a key holding the
stamps read from the database for that request (`standings/stamps.py`), or what it was made of.
A page kept in Redis before the outage, under the stamp of then, is never asked for again once a
write during the outage has put a new stamp in the database; a server that comes back empty
misses and renders afresh; one that comes back with its old contents (a restart from its dump, a
replica promoted) holds only keys of old stamps. The process's own memory is cleared when the
server answers again. No value is ever read without its key's stamps being read first, so there
is no invalidation to lose while the server is away.

Why not django-redis's IGNORE_EXCEPTIONS: it turns every failure into a miss (each page is then
rendered on every request, from the database, for as long as the outage lasts), logs every
failure (thousands of lines a minute), still tries the server on every call (each one waiting
for its timeout when the server hangs rather than refuses), and answers None to `incr`, which
the rate limiter cannot count with; and it would replace the backend the project uses and
measured. Here the fallback keeps pages cached per worker, counts, and logs twice.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from typing import Any

from django.core.cache.backends.base import DEFAULT_TIMEOUT, BaseCache
from django.core.cache.backends.locmem import LocMemCache
from django.utils.module_loading import import_string

logger = logging.getLogger("tournament.cache")

RETRY = 5.0  # seconds between tries of a server that failed
FALLBACK_ENTRIES = 5000  # a page per player of a big event, as without REDIS_URL


def _errors(names: list[str] | None) -> tuple[type[BaseException], ...]:
    """The exceptions that mean the server cannot be reached (not a programming error)."""
    if names is not None:
        return tuple(import_string(n) for n in names)
    import redis.exceptions

    # ConnectionError and TimeoutError (and BusyLoadingError: a server loading its dump), a
    # replica that refuses writes, an out-of-memory refusal: all RedisError; OSError for a
    # socket error that redis-py lets through.
    return (redis.exceptions.RedisError, OSError)


class _State:
    """Whether one server is down, shared by every thread of the process (Django makes a
    backend instance per thread)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.down = False
        self.retry_at = 0.0

    def skip(self) -> bool:
        """True while the server is down and not yet due for another try; when it is due, this
        caller tries it, and the others keep to the fallback until RETRY later."""
        if not self.down:
            return False
        with self.lock:
            now = time.monotonic()
            if now < self.retry_at:
                return True
            self.retry_at = now + RETRY
            return False

    def failed(self, location: str, error: BaseException) -> None:
        with self.lock:
            self.retry_at = time.monotonic() + RETRY
            if self.down:
                return
            self.down = True
        logger.error(
            "the cache at %s cannot be reached (%s: %s): pages are served from the database and "
            "each worker's own memory until it answers again",
            location,
            type(error).__name__,
            error,
        )

    def answered(self, location: str, fallback: BaseCache) -> None:
        if not self.down:
            return
        with self.lock:
            # Another thread may have cleared it since the check above (mypy assumes not).
            if not self.down:
                return  # type: ignore[unreachable]
            self.down = False
        fallback.clear()
        logger.warning("the cache at %s answers again", location)


_STATES: dict[str, _State] = {}
_STATES_LOCK = threading.Lock()


def _state(location: str) -> _State:
    with _STATES_LOCK:
        return _STATES.setdefault(location, _State())


class TolerantCache(BaseCache):
    """A cache backend around another (`OPTIONS["BACKEND"]`, with `OPTIONS["OPTIONS"]` its own
    options): every call goes to it while it answers, and to this process's memory while it
    cannot be reached. `OPTIONS["ERRORS"]`: the dotted names of the exceptions that mean it
    cannot be reached (default: redis-py's errors and OSError)."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        options = dict(params.get("OPTIONS") or {})
        inner_params = {k: v for k, v in params.items() if k not in ("BACKEND", "OPTIONS")}
        super().__init__(inner_params)
        backend = import_string(options.pop("BACKEND"))
        self.location = server
        self.inner: BaseCache = backend(
            server, {**inner_params, "OPTIONS": options.pop("OPTIONS", {})}
        )
        self.errors = _errors(options.pop("ERRORS", None))
        self.fallback = LocMemCache(
            f"tolerant:{server}",
            {**inner_params, "OPTIONS": {"MAX_ENTRIES": FALLBACK_ENTRIES}},
        )
        self.state = _state(server)

    @property
    def down(self) -> bool:
        """Whether this process is answering from its own memory."""
        return self.state.down

    def _call(self, name: str, *args: Any, **kwargs: Any) -> Any:
        if not self.state.skip():
            try:
                result = getattr(self.inner, name)(*args, **kwargs)
            except self.errors as error:
                self.state.failed(self.location, error)
            else:
                self.state.answered(self.location, self.fallback)
                return result
        return getattr(self.fallback, name)(*args, **kwargs)

    def add(
        self, key: str, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None
    ) -> bool:
        return self._call("add", key, value, timeout, version)

    def get(self, key: str, default: Any = None, version: int | None = None) -> Any:
        return self._call("get", key, default, version)

    def set(
        self, key: str, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None
    ) -> None:
        self._call("set", key, value, timeout, version)

    def touch(self, key: str, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> bool:
        return self._call("touch", key, timeout, version)

    def delete(self, key: str, version: int | None = None) -> bool:
        return self._call("delete", key, version)

    def get_many(self, keys: Any, version: int | None = None) -> dict[str, Any]:
        return self._call("get_many", keys, version)

    def has_key(self, key: str, version: int | None = None) -> bool:
        return self._call("has_key", key, version)

    def incr(self, key: str, delta: int = 1, version: int | None = None) -> int:
        return self._call("incr", key, delta, version)

    def decr(self, key: str, delta: int = 1, version: int | None = None) -> int:
        return self._call("decr", key, delta, version)

    def set_many(
        self, data: dict[str, Any], timeout: Any = DEFAULT_TIMEOUT, version: int | None = None
    ) -> list[str]:
        return self._call("set_many", data, timeout, version)

    def delete_many(self, keys: Any, version: int | None = None) -> None:
        self._call("delete_many", keys, version)

    def clear(self) -> None:
        self.fallback.clear()
        self._call("clear")

    def close(self, **kwargs: Any) -> None:
        with contextlib.suppress(*self.errors):
            self.inner.close(**kwargs)
