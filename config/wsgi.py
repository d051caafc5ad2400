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
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

_CHUNK = 64 * 1024


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
        # Its one thread starts with the first request, in the worker: never in a parent
        # process that forks the workers.
        self.renderer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="render")
        self._since: float | None = None  # when the request rendering now began

    def busy_for(self) -> float:
        """Seconds the request rendering now has taken so far; 0.0 when none is."""
        since = self._since
        return 0.0 if since is None else time.monotonic() - since

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
        return self.renderer.submit(self._timed, environ, start_response).result()

    def _timed(
        self, environ: dict[str, Any], start_response: Callable[..., Any]
    ) -> Iterable[bytes]:
        self._since = time.monotonic()
        try:
            return self.app(environ, start_response)
        finally:
            self._since = None


def _application() -> OneRenderAtATime:
    django_app = get_wsgi_application()
    from django.conf import settings

    return OneRenderAtATime(django_app, settings.FILE_UPLOAD_MAX_MEMORY_SIZE)


application = _application()
