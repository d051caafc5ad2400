"""Snapshots: a backup of the tournament (`exchange/backup.py`) written to a folder after a
round's results are complete and when the tournament is locked, the last SNAPSHOT_KEEP kept.

The folder is the setting SNAPSHOT_DIR; without it, a folder `snapshots` beside the SQLite
database (none for an in-memory database, nor for PostgreSQL without the setting). A snapshot
is written after the save's transaction commits (`transaction.on_commit`), by a thread of its
own (SNAPSHOT_BACKGROUND, on by default), so it never holds the desk's save nor its answer; one
at a time a process. A failure to write is kept (in the cache) and shown on the dashboard, never
raised.

Each tournament has a folder of its own inside it, `<id>-<token>`, the token derived with the
site's secret from the tournament's id and the moment it was created: a snapshot is found by
the tournament, never by its slug, so that an event made later under a deleted event's slug
(or a restored copy) neither lists nor downloads the deleted one's files. Deleting a tournament
removes its folder once the deletion commits (`connect`, `forget`). Files are named
`<slug>-<UTC time>-<what>.zip` within it; a file is served only if it is listed there.
"""

from __future__ import annotations

import contextlib
import logging
import re
import shutil
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from django.conf import settings
from django.core.cache import cache
from django.db import connection, transaction
from django.db.models.signals import post_delete
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext

from tournament.exchange import backup
from tournament.models import Game, Tournament

log = logging.getLogger(__name__)
NAME = re.compile(r"^(?P<slug>[-\w]+)-(?P<at>\d{8}T\d{6}\d*Z)-(?P<what>[-\w]+)\.zip$")


def folder() -> Path | None:
    configured = getattr(settings, "SNAPSHOT_DIR", "")
    if configured:
        return Path(configured)
    if connection.vendor != "sqlite":
        return None
    name = str(connection.settings_dict.get("NAME") or "")
    if not name or name.startswith("file:") or ":memory:" in name:
        return None
    return Path(name).resolve().parent / "snapshots"


def own_folder(tournament: Tournament) -> Path | None:
    """The tournament's own folder of snapshots: `<id>-<token>`, the token signed with the
    site's secret over its id and its creation time (unguessable, and never another's)."""
    where = folder()
    if where is None or tournament.pk is None:
        return None
    made = tournament.created.isoformat() if tournament.created else ""
    token = salted_hmac("spread.snapshots", f"{tournament.pk}:{made}", algorithm="sha256")
    return where / f"{tournament.pk}-{token.hexdigest()[:24]}"


def keep() -> int:
    return max(1, int(getattr(settings, "SNAPSHOT_KEEP", 10)))


def _failure_key(tournament_id: int) -> str:
    return f"snapshot-failure:{tournament_id}"


@dataclass
class Snapshot:
    name: str
    at: datetime
    what: str  # "d<division id>-r<round>" or "locked"
    size: int


def listed(tournament: Tournament) -> list[Snapshot]:
    """The tournament's snapshots, newest first: the files of its own folder."""
    where = own_folder(tournament)
    if where is None or not where.is_dir():
        return []
    found = []
    for path in where.glob("*.zip"):
        m = NAME.match(path.name)
        if not m or not path.is_file() or path.is_symlink():
            continue
        at = datetime.strptime(m["at"][:15], "%Y%m%dT%H%M%S").replace(tzinfo=UTC)
        found.append(Snapshot(path.name, at, m["what"], path.stat().st_size))
    return sorted(found, key=lambda s: s.name, reverse=True)


def path_of(tournament: Tournament, name: str) -> Path | None:
    """The snapshot file called `name`, if it is one of the tournament's (no other path)."""
    where = own_folder(tournament)
    if where is None or name not in {s.name for s in listed(tournament)}:
        return None
    return where / name


def failure(tournament: Tournament) -> str | None:
    try:
        return cache.get(_failure_key(tournament.pk))
    except Exception:  # the cache is down: the dashboard still opens
        return None


def take(tournament_id: int, what: str) -> Path | None:
    """Write a snapshot now; a failure is kept for the dashboard and logged, not raised."""
    if folder() is None:
        return None
    try:
        tournament = Tournament.objects.get(pk=tournament_id)
        where = own_folder(tournament)
        if where is None:
            return None
        where.mkdir(parents=True, exist_ok=True)
        at = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
        path = where / f"{tournament.slug}-{at}-{what}.zip"
        partial = path.with_suffix(".part")
        partial.write_bytes(backup.write(tournament))
        partial.replace(path)
        for old in listed(tournament)[keep() :]:
            (where / old.name).unlink(missing_ok=True)
        cache.delete(_failure_key(tournament_id))
        return path
    except Exception as error:
        log.exception("snapshot of tournament %s not written", tournament_id)
        with contextlib.suppress(Exception):  # the cache is down too: the log has it
            cache.set(
                _failure_key(tournament_id),
                gettext("The last snapshot (%(what)s) could not be written: %(why)s")
                % {"what": what, "why": str(error)[:200]},
                None,
            )
        return None


_WRITING = threading.Lock()  # one snapshot at a time a process
_threads: list[threading.Thread] = []


def _in_background(work: Callable[[], object]) -> None:
    """Run `work` (after the commit) in a thread of its own unless SNAPSHOT_BACKGROUND is off;
    the thread closes its own database connection."""

    def run() -> None:
        try:
            with _WRITING:
                work()
        finally:
            connection.close()

    if not getattr(settings, "SNAPSHOT_BACKGROUND", True):
        work()
        return
    thread = threading.Thread(target=run, name="spread-snapshot", daemon=True)
    _threads[:] = [t for t in _threads if t.is_alive()] + [thread]
    thread.start()


def wait(timeout: float = 30.0) -> None:
    """Wait for the snapshots being written in the background (a test, or a worker stopping)."""
    for thread in list(_threads):
        thread.join(timeout)


def _round_done(division_id: int, round_number: int) -> bool:
    games = Game.objects.filter(division_id=division_id, round=round_number).exclude(kind=Game.VOID)
    return games.exists() and all(g.has_result for g in games.only("score1", "score2", "player2"))


def after_result(tournament_id: int, division_id: int, round_number: int) -> None:
    """Once the save commits: a snapshot if the round's results are now complete and none was
    taken of it complete yet."""

    if folder() is None:
        return  # no snapshots here: no thread, no query, on every save

    def later() -> None:
        what = f"d{division_id}-r{round_number}"
        if not _round_done(division_id, round_number):
            return
        tournament = Tournament.objects.filter(pk=tournament_id).first()
        if tournament is None or any(s.what == what for s in listed(tournament)):
            return
        take(tournament_id, what)

    transaction.on_commit(lambda: _in_background(later))


def after_lock(tournament_id: int) -> None:
    if folder() is None:
        return
    transaction.on_commit(lambda: _in_background(lambda: take(tournament_id, "locked")))


def forget(sender: type, instance: Tournament, **kwargs: object) -> None:
    """A tournament deleted: its folder of snapshots removed once the deletion commits (kept if
    it rolls back)."""
    where = own_folder(instance)
    if where is None:
        return
    transaction.on_commit(lambda: shutil.rmtree(where, ignore_errors=True))


def connect() -> None:
    post_delete.connect(forget, sender=Tournament, dispatch_uid="snapshots-forget")
