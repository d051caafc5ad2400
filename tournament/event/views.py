"""A tournament's life at the desk: a new tournament, its people (co-directors and
scorekeepers), its lock, its copy, divisions and language; the dashboard and the change log.
The work is done in `event/services.py`; these views read forms, call it and say what happened.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournament.core.access import get_desk_tournament
from tournament.core.choices import DEMO_SLUG
from tournament.core.forms import form_error
from tournament.event import checks
from tournament.event import services as event
from tournament.event.forms import (
    AddDivisionForm,
    EventDatesForm,
    ImportTshForm,
    NewDivisionFormSet,
    NewTournamentForm,
    PersonForm,
    TournamentLanguageForm,
)
from tournament.exchange import backup, snapshots, tsh_upload
from tournament.models import Scoresheet, Tournament
from tournament.players.services import latin_to_check
from tournament.results import unresolved
from tournament.results.views import change_rows


@login_required
def new_tournament(request: HttpRequest) -> HttpResponse:
    _may_create(request)
    form = NewTournamentForm(request.POST or None)
    divisions = NewDivisionFormSet(request.POST or None, prefix="div")
    status = 200
    if request.method == "POST":
        if form.is_valid() and divisions.is_valid():
            data = form.cleaned_data
            assert request.user.is_authenticated  # login_required
            tournament = event.create_tournament(
                request.user,
                data["name"],
                divisions.divisions(),
                start_date=data["start_date"],
                end_date=data["end_date"],
                venue=data["venue"],
                public=data["public"],
                language=data["language"] or "",
            )
            messages.success(
                request,
                gettext("%(name)s created: you are its director.") % {"name": tournament.name},
            )
            return redirect("desk-dashboard", tournament.slug)
        status = 400
    context = {"form": form, "divisions": divisions}
    return render(request, "tournament/event/new_tournament.html", context, status=status)


def _may_create(request: HttpRequest) -> None:
    if not event.may_create(request.user):
        raise PermissionDenied(
            gettext(
                "Creating tournaments needs the permission to create events. An "
                "administrator of this site gives it (in the admin, or with “manage.py "
                "createdirector %(username)s”)."
            )
            % {"username": request.user.get_username()}
        )


@login_required
def import_tsh(request: HttpRequest) -> HttpResponse:
    """A TSH event uploaded: its config.tsh and `.t` files, or a zip of them; the director who
    sends it directs it (`exchange/tsh_upload.py`)."""
    _may_create(request)
    form = ImportTshForm(request.POST or None, request.FILES or None)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            assert request.user.is_authenticated  # login_required
            try:
                tournament, notes = tsh_upload.import_upload(
                    form.cleaned_data["tsh_files"], request.user, form.cleaned_data["name"]
                )
            except tsh_upload.UploadRefused as refused:
                form.add_error(None, str(refused))
            else:
                messages.success(
                    request,
                    gettext("%(name)s imported: you are its director.") % {"name": tournament.name},
                )
                for note in notes:
                    messages.warning(request, note)
                if tournament.start_date is None:
                    messages.warning(request, gettext("The event has no date: give it one."))
                return redirect("desk-dashboard", tournament.slug)
    context = {"form": form}
    return render(request, "tournament/event/import_tsh.html", context, status=status)


def _people_page(request: HttpRequest, tournament, form: PersonForm | None = None, status=200):
    context = {
        "tournament": tournament,
        "directors": tournament.directors.order_by("username"),
        "scorekeepers": tournament.scorekeepers.order_by("username"),
        "form": form or PersonForm(),
    }
    return render(request, "tournament/event/people.html", context, status=status)


@login_required
def people(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_desk_tournament(request, slug)
    if request.method != "POST":
        return _people_page(request, tournament)
    form = PersonForm(request.POST)
    if not form.is_valid():
        return _people_page(request, tournament, form, status=400)
    try:
        user = event.add_person(
            tournament, form.cleaned_data["username"], form.cleaned_data["role"], request.user
        )
    except event.PeopleRefused as refused:
        messages.error(request, str(refused))
        return _people_page(request, tournament, form, status=400)
    role = event.ROLES[form.cleaned_data["role"]]
    messages.success(
        request,
        gettext("%(username)s is now a %(role)s of %(name)s.")
        % {"username": user.get_username(), "role": role, "name": tournament.name},
    )
    return redirect("desk-people", slug)


@login_required
@require_POST
def dates(request: HttpRequest, slug: str) -> HttpResponse:
    """The event's first and last day (directors only, as every settings change)."""
    tournament = get_desk_tournament(request, slug)
    form = EventDatesForm(request.POST)
    if not form.is_valid():
        messages.error(request, form_error(form))
    else:
        data = form.cleaned_data
        event.set_dates(tournament, data["start_date"], data["end_date"], request.user)
        messages.success(request, gettext("The event's dates are saved."))
    return redirect("desk-dashboard", slug)


@login_required
@require_POST
def remove_person(request: HttpRequest, slug: str, user_id: int) -> HttpResponse:
    tournament = get_desk_tournament(request, slug)
    try:
        name = event.remove_person(tournament, user_id, request.user)
    except event.PeopleRefused as refused:
        messages.error(request, str(refused))
    else:
        messages.success(
            request,
            gettext("%(name)s no longer has a role in %(name2)s.")
            % {"name": name, "name2": tournament.name},
        )
    return redirect("desk-people", slug)


@login_required
@require_POST
def lock(request: HttpRequest, slug: str) -> HttpResponse:
    unlocking = request.POST.get("locked") != "1"
    tournament = get_desk_tournament(request, slug, unlocking=unlocking)
    reason = request.POST.get("reason", "").strip()[:500]
    event.set_lock(tournament, not unlocking, request.user, reason)
    messages.success(
        request,
        gettext("%(name)s is unlocked: changes are possible again.") % {"name": tournament.name}
        if unlocking
        else gettext("%(name)s is locked: no change until a director unlocks it.")
        % {"name": tournament.name},
    )
    return redirect("desk-dashboard", slug)


@login_required
@require_POST
def copy_tournament(request: HttpRequest, slug: str) -> HttpResponse:
    """The start of next year's event: settings and roster, no results."""
    tournament = get_desk_tournament(request, slug, unlocking=True)  # a locked event is copied
    if not event.may_create(request.user):
        raise PermissionDenied(
            gettext(
                "Copying a tournament creates one: an administrator of this site gives "
                "the permission to create events."
            )
        )
    assert request.user.is_authenticated  # login_required
    try:
        copy = event.copy_tournament(tournament, request.user, request.POST.get("name", ""))
    except event.PeopleRefused as refused:
        messages.error(request, str(refused))
        return redirect("desk-dashboard", slug)
    messages.success(
        request,
        gettext("%(name)s created from %(name2)s: settings and roster.")
        % {"name": copy.name, "name2": tournament.name},
    )
    return redirect("desk-dashboard", copy.slug)


@login_required
@require_POST
def delete_demo(request: HttpRequest, slug: str) -> HttpResponse:
    """The demo tournament deleted by one of its directors; no other tournament is deleted
    from the desk."""
    tournament = get_desk_tournament(request, slug, unlocking=True)
    if tournament.slug != DEMO_SLUG:
        raise PermissionDenied(gettext("Only the demo tournament can be deleted from the desk."))
    name = tournament.name
    tournament.delete()
    messages.success(
        request, gettext("The demo tournament, %(name)s, is deleted.") % {"name": name}
    )
    return redirect("desk")


@login_required
def divisions(request: HttpRequest, slug: str) -> HttpResponse:
    """The tournament's divisions: add one, rename one, remove an empty one."""
    tournament = get_desk_tournament(request, slug)
    status = 200
    if request.method == "POST":
        action = request.POST.get("action", "")
        try:
            if action == "add":
                form = AddDivisionForm(request.POST)
                if not form.is_valid():
                    raise event.PeopleRefused(form_error(form))
                added = event.add_division(tournament, form.new_division(), request.user)
                messages.success(request, _("Division %(name)s added.") % {"name": added.name})
            else:
                division = get_object_or_404(tournament.divisions, pk=request.POST.get("division"))
                if action == "rename":
                    old = division.name
                    renamed = event.rename_division(
                        division, request.POST.get("name", ""), request.user
                    )
                    messages.success(
                        request,
                        _("Division %(old)s is now %(name)s.") % {"old": old, "name": renamed.name},
                    )
                elif action == "remove":
                    name = event.remove_division(division, request.user)
                    messages.success(request, _("Division %(name)s removed.") % {"name": name})
            return redirect("desk-divisions", slug)
        except event.PeopleRefused as refused:
            messages.error(request, str(refused))
            status = 409
    rows = [
        (d, d.players.count(), d.games.exists()) for d in tournament.divisions.order_by("position")
    ]
    context = {"tournament": tournament, "rows": rows, "form": AddDivisionForm()}
    return render(request, "tournament/event/divisions.html", context, status=status)


@login_required
@require_POST
def language(request: HttpRequest, slug: str) -> HttpResponse:
    """The tournament's default language: its public pages and reports speak it to visitors who
    chose none with the switcher (tournament/core/language.py)."""
    tournament = get_desk_tournament(request, slug)
    form = TournamentLanguageForm(request.POST)
    if not form.is_valid():
        messages.error(request, form_error(form))
    else:
        event.set_language(tournament, form.cleaned_data["language"], request.user)
        messages.success(request, gettext("The tournament's default language is saved."))
    return redirect("desk-dashboard", slug)


RECENT_CHANGES = 15


def _changes(tournament: Tournament) -> Any:
    return tournament.changes.select_related("user", "player", "game", "scoresheet")


@login_required
def index(request: HttpRequest) -> HttpResponse:
    user = request.user
    assert user.is_authenticated  # login_required
    context = {
        "tournaments": user.directed.all(),
        "scorekeeping": user.scorekeeping.all(),
        "may_create": event.may_create(user),
    }
    return render(request, "tournament/event/index.html", context)


@login_required
def dashboard(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_desk_tournament(request, slug, scorekeeper=True)
    divisions = []
    for d in tournament.divisions.all():
        states = event.round_states(d)
        # For the page: what to do next here (an attribute of this instance only).
        d.next_step = event.next_step(d, states)  # type: ignore[attr-defined]
        divisions.append((d, states))
    sheets = list(
        Scoresheet.objects.filter(game__division__tournament=tournament)
        .select_related("game__division", "game__player1", "game__player2")
        .defer("gcg")
    )
    context = {
        "tournament": tournament,
        "is_director": tournament.is_director(request.user),
        "unplayed": event.unplayed_rounds(tournament),
        "latin_to_check": latin_to_check(tournament),
        "may_create": event.may_create(request.user),
        "divisions": divisions,
        "flagged": [s for s in sheets if s.flagged and not s.resolved],
        "with_findings": [s for s in sheets if s.engine_report.findings],
        "changes": change_rows(_changes(tournament)[:RECENT_CHANGES]),
        "unresolved": unresolved.for_tournament(tournament),
        "show_division": len(divisions) > 1,
        "snapshots": snapshots.listed(tournament) if tournament.is_director(request.user) else [],
        "snapshot_failure": snapshots.failure(tournament),
    }
    return render(request, "tournament/event/dashboard.html", context)


@login_required
def download_backup(request: HttpRequest, slug: str) -> HttpResponse:
    """The tournament in one file (`exchange/backup.py`): for its directors only."""
    tournament = get_desk_tournament(request, slug)
    response = HttpResponse(backup.write(tournament), content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="{tournament.slug}-backup.zip"'
    return response


@login_required
def download_snapshot(request: HttpRequest, slug: str, name: str) -> FileResponse:
    """One of the tournament's snapshots, by its name in the list: for its directors only."""
    tournament = get_desk_tournament(request, slug)
    path = snapshots.path_of(tournament, name)
    if path is None:
        raise Http404(gettext("No such snapshot."))
    return FileResponse(path.open("rb"), as_attachment=True, filename=name)


@login_required
def check(request: HttpRequest, slug: str) -> HttpResponse:
    """The event's consistency check (`checks.check_event`), read-only, for its directors and
    scorekeepers: every finding, one line each."""
    tournament = get_desk_tournament(request, slug, scorekeeper=True)
    context = {"tournament": tournament, "findings": checks.check_event(tournament)}
    return render(request, "tournament/event/check.html", context)


@login_required
def changes(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_desk_tournament(request, slug, scorekeeper=True)
    context = {"tournament": tournament, "changes": change_rows(_changes(tournament))}
    return render(request, "tournament/event/changes.html", context)
