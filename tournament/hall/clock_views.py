"""The round's clock on the web: the desk's controls (POST only, the tournament's directors
only) and the public's read of it, `/api/v1/t/<slug>/<division>/clock`.

The API is not kept by the page cache: a clock change touches no stamp (`clock.py`), so the
answer is read fresh each time, one query after the public lookups, with an ETag made of
the clock's own row: an unchanged clock is a bare 304. The server's `now` comes with each
200, for the screens to correct their own clocks by.
"""

from __future__ import annotations

import hashlib

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseBase, HttpResponseNotModified
from django.shortcuts import redirect
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from tournament.core import bounds
from tournament.core.access import get_desk_division, get_public_division, get_public_tournament
from tournament.core.http import public_json
from tournament.hall import clock

DONE = {
    "start": lambda: gettext("The clock is running."),
    "pause": lambda: gettext("The clock is paused."),
    "resume": lambda: gettext("The clock is running again."),
    "reset": lambda: gettext("The clock is set back to its length, paused."),
    "stop": lambda: gettext("The clock is stopped and hidden."),
}


def _number(value: str | None) -> int | None:
    return None if not value else bounds.plain_number(value)


@login_required
@require_POST
def desk_clock(request: HttpRequest, slug: str, division_id: int) -> HttpResponse:
    """One of the clock's buttons: `action` start (with `minutes`, else the division's
    default, and the `round` the page is of), pause, resume, reset or stop."""
    division = get_desk_division(request, slug, division_id)  # directors only
    action = request.POST.get("action", "")
    round_number = _number(request.POST.get("round"))
    try:
        if action == "start":
            typed = request.POST.get("minutes", "").strip()
            minutes = _number(typed) if typed else None
            if typed and minutes is None:
                raise clock.ClockRefused(
                    gettext("Type the clock's length in whole minutes, such as 25.")
                )
            clock.start(division, minutes, round_number, request.user)
        elif action in clock.ACTIONS:
            clock.ACTIONS[action](division, request.user)
        else:
            raise clock.ClockRefused(gettext("The clock has no such button."))
    except clock.ClockRefused as refused:
        messages.error(request, str(refused))
    else:
        messages.success(request, DONE[action]())
    if round_number:
        return redirect("desk-entry", division.tournament.slug, division.pk, round_number)
    return redirect("desk-dashboard", division.tournament.slug)


@require_GET
def api_clock(request: HttpRequest, slug: str, division: str) -> HttpResponseBase:
    """`{"running", "ends_at", "remaining"}` and `shown`, `round`, `length`, the server's `now`."""
    div = get_public_division(get_public_tournament(request, slug), division)
    shown = clock.read(div)
    # The round it names only once published, but to a director (`clock.round_shown`): the
    # ETag is of what this reader is shown, so a round published is on the next poll.
    director = div.tournament.is_director(request.user)
    named = clock.round_shown(div, shown, director)
    version = f"{div.pk}:{clock.version_of(shown)}:{named}"
    digest = hashlib.sha256(version.encode()).hexdigest()
    etag = f'"{digest[:32]}"'
    wanted = request.headers.get("If-None-Match", "")
    if any(tag.strip().removeprefix("W/") == etag for tag in wanted.split(",")):
        response: HttpResponseBase = HttpResponseNotModified()
    else:
        response = public_json({**clock.state_of(shown), "round": named})
    response["ETag"] = etag
    patch_cache_control(response, no_cache=True)
    return response
