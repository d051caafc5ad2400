"""gunicorn's settings that are code rather than flags (`config/serve.py` names this module):
the workers' garbage collector, and their heartbeat while a request renders.

The workers' garbage collector. A worker keeps a big division's players, games, standings and
ratings in memory between requests (`tournament/standings/`: the read model and its cache), and
rendering a 500-player page allocates a hundred thousand objects. With Python's default
thresholds a worker then stopped for a full collection of its whole heap (about 120 ms, measured
on the 500-player, 31-round event) every second or two under a hall's load: every request
waiting behind it waited that long. Once the application is loaded, its own objects (Django,
the modules) are frozen out of every collection, and a collection starts after 50,000
allocations, not 700: the rare full pass looks at what requests left, not at the whole heap.
Reference counting still frees all but cyclic garbage at once; cycles wait a little longer.
"""

from __future__ import annotations

import gc
from typing import Any

GC_THRESHOLDS = (50_000, 20, 10)


# A worker's heartbeat (what gunicorn's master checks against --timeout) waits while a request has
# been rendering this long: one that renders past the timeout has its worker killed and restarted,
# as a sync worker's is; the connection threads would go on beating for it (config/wsgi.py).
HOLD_HEARTBEAT_AFTER = 1.0


def post_worker_init(worker: Any) -> None:
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    busy_for = getattr(getattr(worker, "wsgi", None), "busy_for", None)
    if worker is not None and busy_for is not None:
        beat = worker.notify

        def notify() -> None:
            if busy_for() < HOLD_HEARTBEAT_AFTER:
                beat()

        worker.notify = notify
