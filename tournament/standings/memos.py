"""Every per-process memo of the read model, declared here, and the one call that clears them.

A worker keeps in its own memory what it last read or computed, so that the next request does
not read it from the database or unpickle it from the shared cache again. Every memo is keyed
by the stamps its value was read under (`standings/stamps.py`), which every change replaces in
the same transaction: a value kept here is as exact as the shared cache's, and nothing stale
is ever served. Values are shared by every caller as they are: read-only.

The memos are declared below, each with what it keeps and the stamp it is kept under; no other
module of the app makes one (a test holds them to it). `clear_all()` forgets them all, as a
test does between two tests whose databases reuse primary keys.
"""

from __future__ import annotations

import contextlib
import contextvars
import threading
from collections.abc import Hashable, Iterator
from typing import TYPE_CHECKING, Any, Generic, TypeVar

if TYPE_CHECKING:  # the values' types: their modules read them from here
    from tournament.models import Division, Player
    from tournament.standings.rows import (
        DivisionRead,
        KeptTable,
        PlayerParts,
        RatedRows,
        RatingRow,
        RoundCount,
        RoundRead,
        Row,
    )

K = TypeVar("K")
V = TypeVar("V")


class Kept(Generic[K, V]):
    """A process's own memory of its last `size` values, the oldest forgotten first."""

    def __init__(self, name: str, size: int) -> None:
        self.name = name
        self.size = size
        self._values: dict[K, V] = {}
        self._lock = threading.Lock()
        _ALL.append(self)

    def __repr__(self) -> str:
        return f"Kept({self.name!r}, {self.size}): {len(self._values)} kept"

    def __len__(self) -> int:
        return len(self._values)

    def get(self, key: K) -> V | None:
        if _AFRESH.get():
            return None
        return self._values.get(key)

    def __contains__(self, key: object) -> bool:
        return key in self._values

    def put(self, key: K, value: V) -> None:
        if _AFRESH.get():
            return
        with self._lock:
            self._values.pop(key, None)
            while len(self._values) >= self.size:
                self._values.pop(next(iter(self._values)))
            self._values[key] = value

    def clear(self) -> None:
        with self._lock:
            self._values.clear()


_ALL: list[Kept[Any, Any]] = []

# While set (`afresh`), no memo gives or keeps anything, and `cache_once` neither reads nor
# writes the shared cache: every value is computed from the rows.
_AFRESH: contextvars.ContextVar[bool] = contextvars.ContextVar("afresh", default=False)


@contextlib.contextmanager
def afresh() -> Iterator[None]:
    """Within the block, this thread computes every standings, rating and page value from the
    database's rows, reading and keeping nothing of any memo or cache: what the consistency
    check (`event/checks.py`) compares the cached values with."""
    token = _AFRESH.set(True)
    try:
        yield
    finally:
        _AFRESH.reset(token)


def computing_afresh() -> bool:
    return _AFRESH.get()


def every() -> tuple[Kept[Any, Any], ...]:
    """Every memo declared."""
    return tuple(_ALL)


def clear_all() -> None:
    """Forget everything every memo keeps."""
    for kept in _ALL:
        kept.clear()


# -- the memos ---------------------------------------------------------------------------------
# Keys and values are typed here: what a memo keeps is what its module reads it as.

# The last standings and ratings asked for (`cache_once.get_or_compute(local=…)`), as this
# process last read them, by their cache key (`keys.of_division`, which holds the stamps): a big
# division's standings or ratings take longer to unpickle from the cache than a player's page
# takes to render.
STANDINGS: Kept[str, list[Row]] = Kept("standings", 16)
RATINGS: Kept[str, list[RatingRow]] = Kept("ratings", 8)

# Each standings table as this worker last made it (`KeptTable`: the players' records, as
# ranked, and the rows), by division, stamp and the table asked for (public view, after which
# round, capped, withdrawn players ranked): after a write of results, the records of the
# players it changed are counted again and the table ranked again, every other row kept.
STANDING_TABLES: Kept[tuple[int, str, str], KeptTable] = Kept("standing tables", 16)

# What each write of results replaced (`stamps.kept_before`: the stamp before, the players
# whose games it changed), by division and the stamp it wrote: kept by the shared cache at the
# write's commit and never changed, read from it once by this process, not once a value.
CHANGES: Kept[tuple[int, str], tuple[str, list[int]]] = Kept("changes", 256)

# The last few divisions' players and results read (`DivisionRead`), by division,
# stamp, public view and byes rule: after a change, the standings, the ratings and the
# Gibsonized players each need them, and reading a big division's games is most of computing
# any of them.
DIVISION_READS: Kept[tuple[int, str, bool, str], DivisionRead] = Kept("division reads", 8)

# Each round's games as last read (round → (the round's own stamp, `RoundRead`)),
# by the division's frame stamp: under one frame stamp the rounds are the same ones (a game
# added, deleted or moved renews it), so a result read again is the one round whose stamp
# changed.
ROUND_READS: Kept[tuple[int, str, bool], dict[int, tuple[str, RoundRead]]] = Kept("round reads", 8)

# The players as last read (`list[Player]`), by the division's frame stamp (a player saved,
# added or deleted renews it; a result does not): a result entered reads no player again.
PLAYERS: Kept[tuple[int, str], list[Player]] = Kept("players", 8)

# Every player's ratings as last rated (`RatedRows`, with the rating engine's computation), by
# division, stamp and what they are rated by (public view, rating system, planned rounds, byes
# rule): after a write of results, the players it changed are rated again, the rest kept.
RATED_ROWS: Kept[tuple[int, str, str], RatedRows] = Kept("rated rows", 8)

# Each round's ratings (player → rating), by their memo key, which names everything they are
# computed from: after a result, the rounds before it are not read from the shared cache again.
RATED: Kept[str, dict[Hashable, int]] = Kept("ratings by round", 512)

# The published rounds as last counted (`list[RoundCount]`), by division, stamp and
# byes rule: the standings, pairings and ratings pages all show them.
ROUND_COUNTS: Kept[tuple[int, str, str], list[RoundCount]] = Kept("round counts", 16)

# Each round's crosstable cells (player → `<td>`), by division, frame stamp and the round's own
# stamp: a result re-writes one round's cells.
CROSSTABLE_CELLS: Kept[str, dict[int, str]] = Kept("crosstable cells", 256)

# Every player's parts of their page (`PlayerParts`, with the division read then),
# by division, stamp and language: after a result, the first player's page asked for works out
# everyone's at once, and each page is rendered again only if what it shows has changed.
PLAYER_PARTS: Kept[tuple[int, str, str], tuple[Division, dict[int, PlayerParts]]] = Kept(
    "player parts", 8
)

# The phones' snapshot of a division (plain values: each player's games, rank and record), by
# division and stamp: every personal link of the division reads it.
PHONE_SNAPSHOTS: Kept[str, dict[str, Any]] = Kept("phone snapshots", 8)

# The player cards' parts of each player (their last game with a result and their game of the
# latest round, as a card shows them) and the latest round, by division and stamp: after a
# write of results, those of the stamp before with the changed players' read again.
CARD_PARTS: Kept[tuple[int, str], tuple[dict[int, tuple[Any, Any]], int]] = Kept("card parts", 8)

# The player cards as the feed last built them (`hall/cards._Board`: each card's text either
# side of its rank, what the cards show, the latest round's tables), by division and stamp:
# after a write of results, those of the stamp before with the cards of the players whose
# games, record, rating or mark it changed made again; the ranks put in as the feed is written.
CARD_TEXTS: Kept[tuple[int, str], Any] = Kept("card texts", 8)

# The display feed's rows as last written (`public/api._Display`: the pairings by name, each
# player's standing row's text after its rank, the ratings they show), by division and stamp:
# after a write of results, those of the stamp before with the rows of the players whose games,
# record or rating it changed written again; the ranks put in as the feed is written.
DISPLAY_TEXTS: Kept[tuple[int, str], Any] = Kept("display texts", 8)
