"""The round's clock: one a division (`RoundClock`), started, paused, resumed, reset and
stopped by its directors, at the desk (`clock_views.py`) or from the command line
(`manage.py clock`), and shown as a countdown on the hall's display and every player's phone.

A running clock keeps the moment it ends (`ends_at`), a paused one the whole seconds left
(`remaining`, rounded up: what the screens showed when it was paused); `length` is the
seconds it was started with, and reset sets it back to that, paused. Every change is one
transaction with the clock's row locked and one `Change` (`Change.Action.CLOCK`).

The screens work out the countdown from `state`, which carries the server's time: each
client corrects its own clock by the difference, so every screen shows the same second. The
public's screens (the API, the hall's display, the phones) read `public_state`: the round the
clock names only once it is published, as every public page shows rounds.
A clock change touches no stamp: no cached page shows the clock, and a pause must not make
every page of the division be rendered again (the feeds that show it read it fresh).
"""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext

from tournament.core import audit
from tournament.core.actor import Actor, RequestUser
from tournament.core.errors import EntryError
from tournament.models import Change, Division, Round, RoundClock

MAX_MINUTES = 600  # ten hours: a typing slip beyond that is refused


class ClockRefused(EntryError):
    """The clock cannot do what was asked (not running, no clock, a bad length)."""


def _now(now: datetime | None) -> datetime:
    return now if now is not None else timezone.now()


def _left(clock: RoundClock, now: datetime) -> int:
    """Whole seconds left, rounded up (a clock at 0.2 s shows 00:01), never below 0."""
    if clock.ends_at is not None:
        return max(0, math.ceil((clock.ends_at - now).total_seconds()))
    return clock.remaining or 0


def _row(clock: RoundClock | None) -> dict[str, Any] | None:
    if clock is None:
        return None
    return {
        "round": clock.round,
        "length": clock.length,
        "ends_at": clock.ends_at.isoformat() if clock.ends_at else None,
        "remaining": clock.remaining,
    }


def state_of(clock: RoundClock | None, now: datetime | None = None) -> dict[str, Any]:
    """What the screens show: `running` (counting down, not yet at 0), `ends_at` (ISO, while
    started and not paused), `remaining` (whole seconds left), and besides `shown` (whether
    there is a clock at all), `round`, `length` and the server's `now` (ISO)."""
    at = _now(now)
    if clock is None:
        return {
            "shown": False,
            "running": False,
            "ends_at": None,
            "remaining": 0,
            "round": None,
            "length": 0,
            "now": at.isoformat(),
        }
    left = _left(clock, at)
    return {
        "shown": True,
        "running": clock.ends_at is not None and left > 0,
        "ends_at": clock.ends_at.isoformat() if clock.ends_at else None,
        "remaining": left,
        "round": clock.round,
        "length": clock.length,
        "now": at.isoformat(),
    }


def read(division: Division | int) -> RoundClock | None:
    """The division's clock, if any (one query by the division's key)."""
    pk = division if isinstance(division, int) else division.pk
    return RoundClock.objects.filter(division_id=pk).first()


def state(division: Division | int, now: datetime | None = None) -> dict[str, Any]:
    """The division's clock as the screens show it (one query)."""
    return state_of(read(division), now)


def round_shown(
    division: Division | int, clock: RoundClock | None, director: bool = False
) -> int | None:
    """The round the clock names, as the public may see it: None while that round is paired
    and not yet published (as every public page hides it: `GameQuerySet.published`); a
    director signed in sees it. One query when the clock names a round, none otherwise."""
    if clock is None or clock.round is None or director:
        return None if clock is None else clock.round
    pk = division if isinstance(division, int) else division.pk
    hidden = Round.objects.filter(division_id=pk, number=clock.round, published=False)
    return None if hidden.exists() else clock.round


def public_state(
    division: Division | int, director: bool = False, now: datetime | None = None
) -> dict[str, Any]:
    """The division's clock as the public's screens show it (`state`, its round as
    `round_shown` says)."""
    shown = read(division)
    return {**state_of(shown, now), "round": round_shown(division, shown, director)}


def public_state_read(
    row: tuple[int | None, int, Any, int | None, bool] | None, now: datetime | None = None
) -> dict[str, Any]:
    """`public_state` from the clock's row as a query read it beside others (a phone's poll:
    `phone.poll_state`): its round, length, end (a datetime, naive or as text from SQLite),
    remaining, and whether its round is one the public may not see yet."""
    if row is None:
        return public_state_of(None, False, now)
    number, length, ends_at, remaining, hidden = row
    if isinstance(ends_at, str):
        ends_at = parse_datetime(ends_at)
    if ends_at is not None and timezone.is_naive(ends_at):  # SQLite's, in UTC
        ends_at = timezone.make_aware(ends_at, UTC)
    read = RoundClock(round=number, length=length, ends_at=ends_at, remaining=remaining)
    return public_state_of(read, hidden, now)


def public_state_of(clock: RoundClock | None, hidden: bool, now: datetime | None) -> dict[str, Any]:
    """The clock as the public sees it, its round left out while that round is hidden."""
    shown = None if clock is None or hidden else clock.round
    return {**state_of(clock, now), "round": shown}


def version_of(clock: RoundClock | None) -> str:
    """What the clock's screens are kept by: changes with every start, pause, resume, reset
    and stop; "" when there is no clock."""
    if clock is None:
        return ""
    ends = clock.ends_at.isoformat() if clock.ends_at else ""
    return f"{clock.round}:{clock.length}:{ends}:{clock.remaining}"


def _locked(division: Division) -> RoundClock | None:
    return RoundClock.objects.select_for_update().filter(division=division).first()


def _log(division: Division, what: str, actor: Actor, before: Any, after: Any) -> None:
    audit.record(
        division,
        Change.Action.CLOCK,
        actor=actor,
        before={"clock": before},
        after={"clock": after, "did": what},
    )


def _seconds(minutes: Any) -> int:
    if isinstance(minutes, bool) or not isinstance(minutes, int) or not 1 <= minutes <= MAX_MINUTES:
        raise ClockRefused(
            gettext("A round's clock runs from 1 to %(max)s minutes, not %(value)s.")
            % {"max": MAX_MINUTES, "value": minutes}
        )
    return minutes * 60


def start(
    division: Division,
    minutes: int | None = None,
    round: int | None = None,
    actor: Actor = None,
    now: datetime | None = None,
) -> dict[str, Any]:
    """Start the clock afresh for `minutes` (the division's `clock_minutes` if None), for
    `round` (None: no round named), whatever it was doing."""
    length = _seconds(division.clock_minutes if minutes is None else minutes)
    at = _now(now)
    with transaction.atomic():
        clock = _locked(division)
        before = _row(clock)
        if clock is None:
            clock = RoundClock(division=division, length=length)
        clock.round, clock.length = round, length
        clock.ends_at, clock.remaining = at + timedelta(seconds=length), None
        clock.save()
        _log(division, "start", actor, before, _row(clock))
    return state_of(clock, at)


def _change(division: Division, what: str, actor: Actor, now: datetime | None) -> dict[str, Any]:
    at = _now(now)
    with transaction.atomic():
        clock = _locked(division)
        if clock is None:
            raise ClockRefused(gettext("The clock of this division is not started."))
        before = _row(clock)
        if what == "pause":
            if clock.ends_at is None:
                raise ClockRefused(gettext("The clock is not running."))
            clock.ends_at, clock.remaining = None, _left(clock, at)
        elif what == "resume":
            if clock.ends_at is not None:
                raise ClockRefused(gettext("The clock is running already."))
            clock.ends_at, clock.remaining = at + timedelta(seconds=clock.remaining or 0), None
        else:  # reset: back to its length, paused
            clock.ends_at, clock.remaining = None, clock.length
        clock.save()
        _log(division, what, actor, before, _row(clock))
    return state_of(clock, at)


def pause(division: Division, actor: Actor = None, now: datetime | None = None) -> dict[str, Any]:
    """Stop the countdown where it is, keeping the seconds left."""
    return _change(division, "pause", actor, now)


def resume(division: Division, actor: Actor = None, now: datetime | None = None) -> dict[str, Any]:
    """Count down again from the seconds kept at the pause."""
    return _change(division, "resume", actor, now)


def reset(division: Division, actor: Actor = None, now: datetime | None = None) -> dict[str, Any]:
    """Back to the length it was started with, paused (resume starts it)."""
    return _change(division, "reset", actor, now)


def stop(division: Division, actor: Actor = None, now: datetime | None = None) -> dict[str, Any]:
    """Take the clock away: the screens show none."""
    with transaction.atomic():
        clock = _locked(division)
        if clock is None:
            raise ClockRefused(gettext("The clock of this division is not started."))
        before = _row(clock)
        clock.delete()
        _log(division, "stop", actor, before, None)
    return state_of(None, now)


def desk_panel(division: Division, user: RequestUser) -> dict[str, Any] | None:
    """What the desk's clock panel shows, for the division's directors; None for others."""
    if not division.tournament.is_director(user):
        return None
    return {"state": state(division), "minutes": division.clock_minutes}


ACTIONS = {"pause": pause, "resume": resume, "reset": reset, "stop": stop}
