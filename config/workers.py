"""The gunicorn worker `make serve` and `make hall` run (config/serve.py names it).

gunicorn's gthread worker takes every connection as it comes, into its own queue. With Django
rendering one request at a time a worker (config/wsgi.py), that gives each worker a queue of its
own: a request taken by a worker busy with a long render waits behind it while the other worker
may stand idle. Sync workers shared one queue, the kernel's, each taking a connection when free.
This worker takes new connections only while its render thread has nothing to do, so that they
wait in the kernel's queue for whichever worker is free first, as before; the connections it
has taken go on being read and answered by its threads, so slow clients still hold threads
only, never the render thread nor the queue (docs/DESIGN.md, "Slow clients", for what it
measured).
"""

from __future__ import annotations

from typing import Any

from gunicorn.workers.gthread import ThreadWorker


class OneQueueWorker(ThreadWorker):
    def _render_idle(self) -> bool:
        pending = getattr(self.wsgi, "pending", None)
        return pending is None or pending() == 0

    def set_accept_enabled(self, enabled: bool) -> None:
        # gthread's loop asks for accepting whenever it has room: granted while the render
        # thread is idle, asked again at its next turn otherwise.
        super().set_accept_enabled(enabled and self._render_idle())

    def accept(self, listener: Any) -> None:
        super().accept(listener)
        if not self._render_idle():
            super().set_accept_enabled(False)

    def finish_request(self, conn: Any, fs: Any) -> None:
        super().finish_request(conn, fs)
        wanted = self.nr_conns < self.worker_connections and self._render_idle()
        if wanted != self._accepting:
            super().set_accept_enabled(wanted)
