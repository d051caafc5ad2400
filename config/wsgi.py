"""WSGI entry point for Spread: Django, one request at a time in a thread of its own.

`make serve` and `make hall` run it in gunicorn's gthread workers (config/serve.py): each
connection gets one of the worker's `WEB_THREADS` threads while it sends its request and reads
its answer, so a slow client (a phone on the hall's failing Wi-Fi, or someone trickling a
header every second) holds a thread of its own, never the worker. Django itself renders in one
thread a worker, handed each request once it has fully arrived:

- measured, several threads rendering at once made every page's tail longer (they share one
  interpreter lock: bench/RESULTS.md, "One thread a worker");
- Django's database connections are per thread: a worker keeps one, as before;
- a request's body is read whole first (in memory, in a temporary file past
  FILE_UPLOAD_MAX_MEMORY_SIZE), as Django's ASGI handler does, so that a client sending it
  slowly holds its own thread only;
- a request that renders past gunicorn's timeout still has its worker killed and restarted, as
  a sync worker's would (`busy_for`, which config/gunicorn_conf.py makes hold the heartbeat).

The polls of the hall (a phone's live feed, the round's clock: `POLLS`) render in a second
thread of their own, so that they never wait behind a save or a page being rendered: a poll
costs a couple of milliseconds, a save at a big division hundreds, and the hall's thousand
phones poll every three seconds (bench/hall.py, bench/RESULTS.md "The hall at 1,000 phones").
"""

from __future__ import annotations

import os
import re
import tempfile
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

_CHUNK = 64 * 1024
# The hall's polls: a phone's live feed (`/p/<token>/live`) and a division's round clock
# (`/api/v1/t/<slug>/<division>/clock`), each a GET answered from one query and the caches.
POLLS = re.compile(r"/p/[^/]+/live|/api/v1/t/[^/]+/[^/]+/clock")


def _has_body(environ: dict[str, Any]) -> bool:
    return environ.get("CONTENT_LENGTH", "") not in ("", "0") or (
        "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
    )


class OneRenderAtATime:
    """A WSGI application run in a single thread of its own, whatever thread the server calls it
    from; the body of each request is read by the calling thread before it is handed over."""

    def __init__(self, app: Callable[..., Iterable[bytes]], spool_bytes: int) -> None:
        self.app = app
        self.spool_bytes = spool_bytes
        # Each thread starts with the first request it renders, in the worker: never in a
        # parent process that forks the workers.
        self.renderer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="render")
        self.poller = ThreadPoolExecutor(max_workers=1, thread_name_prefix="poll")
        # When the request rendering now in each began, by its executor.
        self._since: dict[ThreadPoolExecutor, float | None] = dict.fromkeys(
            (self.renderer, self.poller)
        )

    def busy_for(self) -> float:
        """Seconds the longest request rendering now has taken so far; 0.0 when none is."""
        began = [since for since in self._since.values() if since is not None]
        return time.monotonic() - min(began) if began else 0.0

    def __call__(
        self, environ: dict[str, Any], start_response: Callable[..., Any]
    ) -> Iterable[bytes]:
        if not _has_body(environ):
            return self._render(environ, start_response)
        # Django has read what it wanted of the body once it has answered: the file goes then.
        with tempfile.SpooledTemporaryFile(max_size=self.spool_bytes) as body:
            source = environ["wsgi.input"]
            while chunk := source.read(_CHUNK):
                body.write(chunk)
            body.seek(0)
            environ["wsgi.input"] = body
            return self._render(environ, start_response)

    def _render(
        self, environ: dict[str, Any], start_response: Callable[..., Any]
    ) -> Iterable[bytes]:
        # start_response only records the status and headers: the calling thread writes them
        # with the answer, after Django has returned it.
        poll = environ.get("REQUEST_METHOD") in ("GET", "HEAD") and POLLS.fullmatch(
            environ.get("PATH_INFO", "")
        )
        lane = self.poller if poll else self.renderer
        return lane.submit(self._timed, lane, environ, start_response).result()

    def _timed(
        self,
        lane: ThreadPoolExecutor,
        environ: dict[str, Any],
        start_response: Callable[..., Any],
    ) -> Iterable[bytes]:
        self._since[lane] = time.monotonic()
        try:
            return self.app(environ, start_response)
        finally:
            self._since[lane] = None


def _application() -> OneRenderAtATime:
    django_app = get_wsgi_application()
    from django.conf import settings

    return OneRenderAtATime(django_app, settings.FILE_UPLOAD_MAX_MEMORY_SIZE)


application = _application()
