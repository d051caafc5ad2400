"""gunicorn's settings that are code rather than flags (`config/serve.py` names this module).

The workers' garbage collector. A worker keeps a big division's players, games, standings and
ratings in memory between requests (`tournament/services.py`, `tournament/cache_once.py`), and
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


def post_worker_init(worker: Any) -> None:
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
