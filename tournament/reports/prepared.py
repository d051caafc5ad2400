"""The reports of a large division, built apart from the request that asks for one.

A report of 2,000 players takes seconds of a worker's one rendering thread (the prizes more
than a quarter of a minute: bench/RESULTS.md), and a request rendering past gunicorn's timeout
has its worker killed. So the desk's download of a division of `REPORTS_BUILT_APART_FROM`
players or more is built in a thread of its own and kept in the database (`PreparedReport`):
the request answers at once with a page saying the report is being prepared, which asks again
every two seconds; the first request to find it built gets a page that downloads it. The same
under `runserver` and gunicorn, in any worker or on any server sharing the database.

- **One build a report.** A report asked for (kind, format, round, paper, language, address:
  its `slot`) has one row; the request that creates it, or takes it over, starts its build, and
  every other one waits for it.
- **Exact.** The build reads the division's stamps (and, for the reports printing the players'
  links, its links' state) before the data, and keeps them with the file (`built_under`): a
  file is served only while they are the division's still, else built again. A report is
  never served from data older than the request's.
- **A worker restarted loses a build, not the report.** The process building renews the row's
  `beat` every `BEAT` seconds; a build whose beat is `STALE` seconds old is taken over by the
  next request, and built once more.
- **A report that cannot be made** keeps its sentence (no such round): the page says it.
  A build that failed otherwise says so and is tried again on the next request.
- **Its cost to the worker's pages.** A process builds one report at a time (others wait their
  turn, beating); the build shares the interpreter lock with the worker's pages, which it slows
  while it runs, rather than stopping them.
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, connections, transaction
from django.db.models import Count, Max
from django.utils import timezone

from tournament import reports
from tournament.models import Division, PlayerLink, PreparedReport
from tournament.reports.data import LINK_KINDS, ReportError, player_links
from tournament.standings import stamps as division_stamps

logger = logging.getLogger(__name__)

BEAT = 3.0  # seconds between a build's beats
STALE = 20.0  # a build not heard of for this long has lost its process: taken over
KEPT = timedelta(days=2)  # a file built this long ago is deleted
REFRESH = 2  # seconds between the waiting page's requests


@dataclass(frozen=True)
class Asked:
    """A report as the request asked for it."""

    kind: str
    fmt: str
    number: int | None
    paper: str
    public: bool
    lang: str  # the language it is written in (`reports.language_of`)
    base: str  # the site's address, for the reports printing the players' links

    def slot(self, division: Division) -> str:
        text = repr((division.pk, self.kind, self.fmt, self.number, self.paper, self.public))
        text += repr((self.lang, self.base if self.kind in LINK_KINDS else ""))
        return hashlib.sha256(text.encode("utf-8")).hexdigest()


def built_apart(division: Division) -> bool:
    """Whether the division's reports are built apart from the request (by its size)."""
    return division.players.count() >= settings.REPORTS_BUILT_APART_FROM


def under(division: Division, asked: Asked) -> str:
    """What the report would be built under now: the division's stamp, and for a report that
    prints the players' links, the state of their links (each issued or revoked changes it)."""
    stamp = division_stamps.read(division).stamp
    if asked.kind not in LINK_KINDS or not asked.base:
        return stamp
    links = PlayerLink.objects.filter(player__division=division).aggregate(
        count=Count("pk"), last=Max("pk"), revoked=Count("revoked")
    )
    return f"{stamp}:{links['count']}:{links['last']}:{links['revoked']}"


def prepare(division: Division, asked: Asked, again: bool = True) -> PreparedReport:
    """The report's row as it stands (its file not read): built under the division's stamps as
    they are now (ready, or failed), or being built; a build is started here if none is
    running. `again`: a build that failed on the server is tried again (else it is shown)."""
    slot = asked.slot(division)
    now = timezone.now()
    rows = PreparedReport.objects.defer("content")
    row = rows.filter(slot=slot).first()
    if row is None:
        owner = uuid.uuid4().hex
        try:
            with transaction.atomic():
                row = PreparedReport.objects.create(
                    division=division, slot=slot, owner=owner, beat=now
                )
        except IntegrityError:  # another request created it in between: its build runs
            return rows.get(slot=slot)
        _forget_old(now)
        _start(row, division, asked)
        return row
    if row.state == PreparedReport.BUILDING and now - row.beat < timedelta(seconds=STALE):
        return row  # being built
    finished = row.state == PreparedReport.READY or row.missing or not again
    if (
        row.state != PreparedReport.BUILDING
        and finished
        and row.built_under == under(division, asked)
    ):
        return row  # exact: built under the stamps the division has now
    # Its process is gone, the division changed since, or it failed: built again, by one request.
    owner = uuid.uuid4().hex
    taken = PreparedReport.objects.filter(
        pk=row.pk, state=row.state, owner=row.owner, beat=row.beat
    ).update(
        state=PreparedReport.BUILDING,
        owner=owner,
        beat=now,
        built_under="",
        content=None,
        message="",
        missing=False,
    )
    row.refresh_from_db()
    if taken:
        _start(row, division, asked)
    return row


def _forget_old(now: datetime) -> None:
    """The files built more than `KEPT` ago: their stamps have long changed, or nobody wants
    them; built again if asked for."""
    PreparedReport.objects.filter(beat__lt=now - KEPT).exclude(
        state=PreparedReport.BUILDING
    ).delete()


# -- the builds ------------------------------------------------------------------------------

_ONE_AT_A_TIME = threading.Lock()  # a process builds one report at a time
_LOCK = threading.Lock()
_BUILDING: dict[int, str] = {}  # row → its owner token, for the builds of this process
_beater: threading.Thread | None = None
_threads: list[threading.Thread] = []


def _start(row: PreparedReport, division: Division, asked: Asked) -> None:
    """Build the row's report in a thread of its own, once the row is committed."""
    thread = threading.Thread(
        target=_build,
        args=(row.pk, row.owner, division.pk, asked),
        name=f"report-{row.pk}",
        daemon=True,
    )

    def launch() -> None:
        global _beater
        with _LOCK:
            _BUILDING[row.pk] = row.owner
            if _beater is None:
                _beater = threading.Thread(target=_beat, name="report-beat", daemon=True)
                _beater.start()
            _threads[:] = [t for t in _threads if t.is_alive()] + [thread]
        thread.start()

    transaction.on_commit(launch)


def wait(timeout: float = 60.0) -> None:
    """Wait for the reports this process is building (a test)."""
    for thread in list(_threads):
        thread.join(timeout)


def _build(pk: int, owner: str, division_id: int, asked: Asked) -> None:
    built_under = ""
    try:
        with _ONE_AT_A_TIME:
            division = Division.objects.select_related("tournament").get(pk=division_id)
            if asked.kind in LINK_KINDS and asked.base:
                player_links(division, asked.base)  # issued before their state is read
            # Read before the data: what the report is made of is at least as new.
            built_under = under(division, asked)
            try:
                made = reports.make(
                    division,
                    asked.kind,
                    asked.fmt,
                    asked.number,
                    asked.paper,
                    asked.public,
                    asked.lang,
                    asked.base,
                )
            except ReportError as error:
                _finish(pk, owner, built_under, message=str(error), missing=True)
            else:
                _finish(
                    pk,
                    owner,
                    built_under,
                    content=made.content,
                    filename=made.filename,
                    content_type=made.content_type,
                )
    except Exception:
        logger.exception("the %s report of division %s could not be built", asked.kind, division_id)
        try:
            _finish(pk, owner, built_under)
        except Exception:
            logger.exception("and its failure could not be kept")  # its beat stops: taken over
    finally:
        with _LOCK:
            _BUILDING.pop(pk, None)
        connections.close_all()  # this thread's own


def _finish(pk: int, owner: str, built_under: str, content: bytes | None = None, **fields) -> None:
    """Keep what the build made (nothing: it failed), unless another build took it over."""
    state = PreparedReport.READY if content is not None else PreparedReport.FAILED
    PreparedReport.objects.filter(pk=pk, owner=owner, state=PreparedReport.BUILDING).update(
        state=state, built_under=built_under, content=content, beat=timezone.now(), **fields
    )


def _beat() -> None:
    """Renew the beat of this process's builds every `BEAT` seconds while it has any."""
    global _beater
    try:
        while True:
            time.sleep(BEAT)
            with _LOCK:
                building = dict(_BUILDING)
                if not building:
                    _beater = None
                    return
            try:
                for pk, owner in building.items():
                    PreparedReport.objects.filter(pk=pk, owner=owner).update(beat=timezone.now())
            except Exception:
                logger.exception("the reports' beat could not be written")
    finally:
        connections.close_all()
