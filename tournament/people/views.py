"""People across events: the public pages and API (`read.py`), and the desk's links, merges,
splits, hiding, suggestions and undo (`services.py`). The desk lists a director the people and
changes of the events they direct (staff everyone); a desk change anyone else tries is a 403
and changes nothing."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from tournament.models import PeopleChange, Person, PersonSuggestion, Player
from tournament.people import forms, read, services

PER_PAGE = 50


# --- Public ---------------------------------------------------------------------------------


def people(request: HttpRequest) -> HttpResponse:
    form = forms.SearchForm(request.GET)
    query = form.cleaned_data["q"] if form.is_valid() else ""
    pages = Paginator(read.people_list(query), PER_PAGE)
    page = pages.get_page(request.GET.get("page"))
    found = list(page.object_list)
    counts = read.event_counts(found)
    rows = [(p, counts.get(p.pk, 0)) for p in found]
    ctx = {"form": form, "query": query, "page": page, "rows": rows}
    return render(request, "tournament/people/list.html", ctx)


def person(request: HttpRequest, pk: int) -> HttpResponse:
    who = read.public_person(pk)
    page = read.person_page(who)
    return render(request, "tournament/people/person.html", {"person": who, "page": page})


def versus(request: HttpRequest, pk: int, other: int) -> HttpResponse:
    who = read.public_person(pk)
    them = read.public_person(other)
    lines, total = read.versus(who, them)
    ctx = {"person": who, "other": them, "lines": lines, "total": total}
    return render(request, "tournament/people/versus.html", ctx)


def api_person(request: HttpRequest, pk: int) -> HttpResponse:
    who = read.public_person(pk)
    page = read.person_page(who)
    keys = ("slug", "division", "wins", "losses", "spread", "rank")
    data = {
        "id": who.pk,
        "name": who.name,
        "events": [{k: e[k] for k in keys} for e in page.events],
        "head_to_head": [o.as_api() for o in page.head_to_head],
    }
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False})
    response["Access-Control-Allow-Origin"] = "*"
    return response


# --- Desk -----------------------------------------------------------------------------------


@login_required
def desk_people(request: HttpRequest) -> HttpResponse:
    form = forms.SearchForm(request.GET)
    query = form.cleaned_data["q"] if form.is_valid() else ""
    people = services.visible_people(request.user)
    for word in services.fold(query).split()[:6]:
        people = people.filter(key__contains=word)
    page = Paginator(people.order_by("key", "pk"), PER_PAGE).get_page(request.GET.get("page"))
    unsure = [
        (p, [(c, _events_of(c)) for c in services.candidates(p)])
        for p in services.unsure_players(request.user)[:200]
    ]
    suggested = [(s, _events_of(s.person)) for s in services.suggestions(request.user)[:200]]
    ctx = {
        "form": form,
        "page": page,
        "unsure": unsure,
        "suggested": suggested,
        "changes": services.visible_changes(request.user)[:30],
    }
    return render(request, "tournament/people/desk_list.html", ctx)


def _events_of(person: Person) -> str:
    """A candidate's events, so that two people of one name are told apart at a glance."""
    names = list(
        person.players.order_by("-division__tournament__start_date")
        .values_list("division__tournament__name", flat=True)
        .distinct()[:4]
    )
    return ", ".join(names[:3]) + (", …" if len(names) > 3 else "")


@login_required
def desk_person(request: HttpRequest, pk: int) -> HttpResponse:
    who = get_object_or_404(Person, pk=pk)
    if not services.may_see(request.user, who):
        raise PermissionDenied(gettext("Only staff or a director of one of their events may."))
    players = list(
        who.players.select_related("division__tournament").order_by(
            "division__tournament__start_date", "pk"
        )
    )
    split = forms.SplitForm(choices=_choices(players))
    ctx = {"person": who, "players": players, "split": split, "merge": forms.MergeForm()}
    return render(request, "tournament/people/desk_person.html", ctx)


def _choices(players: list[Player]) -> list[tuple[int, str]]:
    return [(p.pk, f"{p.division.tournament.name} {p.division.name} #{p.number}") for p in players]


def _run(request: HttpRequest, do: Callable[[], PeopleChange], done: str) -> None:
    """Do the change; a refusal is the page's error message, a forbidden one a 403."""
    try:
        change = do()
    except PermissionError as denied:
        raise PermissionDenied(str(denied)) from denied
    except services.PeopleRefused as refused:
        messages.error(request, str(refused))
        return
    messages.success(request, f"{done} (#{change.pk})")


@login_required
@require_POST
def desk_merge(request: HttpRequest, pk: int) -> HttpResponse:
    keep = get_object_or_404(Person, pk=pk)
    form = forms.MergeForm(request.POST)
    if not form.is_valid():
        messages.error(request, gettext("Give the number of the person to merge."))
        return redirect("desk-person", pk=pk)
    other = Person.objects.filter(pk=form.cleaned_data["other"]).first()
    if other is None:
        messages.error(request, gettext("There is no person with that number."))
        return redirect("desk-person", pk=pk)
    _run(request, lambda: services.merge(keep, other, request.user), gettext("Merged"))
    return redirect("desk-person", pk=pk)


@login_required
@require_POST
def desk_split(request: HttpRequest, pk: int) -> HttpResponse:
    who = get_object_or_404(Person, pk=pk)
    players = list(who.players.select_related("division__tournament"))
    form = forms.SplitForm(request.POST, choices=_choices(players))
    if not form.is_valid():
        if not services.may_change(request.user, [who]):
            raise PermissionDenied(gettext("Only staff or a director of all their events may."))
        messages.error(request, gettext("Choose the players that are another person."))
        return redirect("desk-person", pk=pk)
    chosen = [p for p in players if p.pk in set(form.cleaned_data["players"])]
    _run(request, lambda: services.split(who, chosen, request.user), gettext("Split"))
    return redirect("desk-person", pk=pk)


@login_required
@require_POST
def desk_hide(request: HttpRequest, pk: int) -> HttpResponse:
    who = get_object_or_404(Person, pk=pk)
    hidden = request.POST.get("hidden") == "1"
    done = gettext("Hidden") if hidden else gettext("Shown again")
    _run(request, lambda: services.set_hidden(who, hidden, request.user), done)
    return redirect("desk-person", pk=pk)


@login_required
@require_POST
def desk_confirm(request: HttpRequest) -> HttpResponse:
    form = forms.ConfirmForm(request.POST)
    if not form.is_valid():
        messages.error(request, gettext("Choose a person, or a new person."))
        return redirect("desk-people-index")
    player = get_object_or_404(Player, pk=form.cleaned_data["player"])
    chosen = form.cleaned_data["person"]
    target = None
    if chosen is not None:
        target = Person.objects.filter(pk=chosen).first()
        if target is None:
            messages.error(request, gettext("There is no person with that number."))
            return redirect("desk-people-index")
    _run(request, lambda: services.confirm(player, target, request.user), gettext("Linked"))
    return redirect("desk-people-index")


@login_required
@require_POST
def desk_suggestion(request: HttpRequest, pk: int) -> HttpResponse:
    """A suggestion confirmed ("accept") or dismissed (anything else)."""
    suggestion = get_object_or_404(PersonSuggestion, pk=pk)
    if request.POST.get("do") == "accept":
        _run(request, lambda: services.accept(suggestion, request.user), gettext("Linked"))
        return redirect("desk-people-index")
    try:
        services.dismiss(suggestion, request.user)
    except PermissionError as denied:
        raise PermissionDenied(str(denied)) from denied
    except services.PeopleRefused as refused:
        messages.error(request, str(refused))
    else:
        messages.success(request, gettext("Dismissed"))
    return redirect("desk-people-index")


@login_required
@require_POST
def desk_undo(request: HttpRequest, pk: int) -> HttpResponse:
    change = get_object_or_404(PeopleChange, pk=pk)
    _run(request, lambda: services.undo(change, request.user), gettext("Undone"))
    return redirect("desk-people-index")
