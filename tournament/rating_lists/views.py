"""An association's rating lists: the public pages (the lists, a list's current ratings, a
person's history, the lists as rating-list files) and the desk's (a new list, its events, its
directors, the rebuild and its report, the files with every person).

The public sees public lists only; a hidden person (`Person.hidden`) keeps their row in the
ranking, written "hidden", with no name and no page, and is left out of the public files. The
desk's pages are for a list's directors; staff may create lists."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from tournament.core.sentences import isolate
from tournament.interchange import ratinglist
from tournament.models import Person, RatingList, Tournament
from tournament.rating_lists import forms, services

# -- the public's ------------------------------------------------------------------------------


def _public_list(slug: str) -> RatingList:
    return get_object_or_404(RatingList, slug=slug, public=True)


def lists(request: HttpRequest) -> HttpResponse:
    found = RatingList.objects.filter(public=True).order_by("name", "pk")
    return render(request, "tournament/rating_lists/lists.html", {"lists": found})


def ratings(request: HttpRequest, slug: str) -> HttpResponse:
    rating_list = _public_list(slug)
    context = {
        "rating_list": rating_list,
        "rows": services.current_ratings(rating_list),
        "events": services.ordered_events(rating_list),
        "formats": services.FORMATS,
    }
    return render(request, "tournament/rating_lists/ratings.html", context)


def person(request: HttpRequest, slug: str, person_id: int) -> HttpResponse:
    rating_list = _public_list(slug)
    who = get_object_or_404(Person, pk=person_id, hidden=False)
    entries = services.history(rating_list, who)
    if not entries:
        raise Http404(_("This person has no rating in this list."))
    # The change signed (+12, -8, 0); none for the person's first rating.
    rows = [(e, f"{e.after - e.before:+d}" if e.before else None) for e in entries]
    context = {"rating_list": rating_list, "person": who, "entries": entries, "rows": rows}
    return render(request, "tournament/rating_lists/person.html", context)


def _file(rating_list: RatingList, fmt: str, public: bool) -> HttpResponse:
    if fmt not in services.FORMATS:
        raise Http404(_("No such file."))
    text = services.export_text(rating_list, fmt, public=public)
    response = HttpResponse(text.encode("utf-8"), content_type="text/plain; charset=utf-8")
    name = "current.txt" if fmt == "naspa" else "rating.dat"
    response["Content-Disposition"] = f'attachment; filename="{rating_list.slug}-{name}"'
    return response


def public_file(request: HttpRequest, slug: str, fmt: str) -> HttpResponse:
    return _file(_public_list(slug), fmt, public=True)


# -- the desk's --------------------------------------------------------------------------------


def _desk_list(request: HttpRequest, slug: str) -> RatingList:
    rating_list = get_object_or_404(RatingList, slug=slug)
    if not services.is_director(rating_list, request.user):
        raise PermissionDenied(
            _("Only the directors of the rating list %(list)s may use its desk.")
            % {"list": isolate(rating_list.name)}
        )
    return rating_list


@login_required
def desk_lists(request: HttpRequest) -> HttpResponse:
    user = request.user
    context = {
        "lists": RatingList.objects.filter(directors=user.pk).order_by("name", "pk"),
        "may_create": user.is_staff,
    }
    return render(request, "tournament/rating_lists/desk_lists.html", context)


@login_required
def desk_new(request: HttpRequest) -> HttpResponse:
    if not request.user.is_staff:
        raise PermissionDenied(_("Only the staff of this site may create rating lists."))
    form = forms.NewListForm(request.POST or None, request.FILES or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            try:
                read, name = _start_file(data["start_from"], data["start_format"])
                created = services.create_list(
                    data["name"],
                    data["slug"],
                    data["system"],
                    public=data["public"],
                    creator=request.user,
                    start_from=read,
                    start_name=name,
                )
            except services.RatingListRefused as refused:
                form.add_error(None, str(refused))
            else:
                if read is not None:
                    _say_start(request, services.start_report(read), name)
                return redirect("ratings-desk-list", created.slug)
        status = 400
    return render(request, "tournament/rating_lists/desk_new.html", {"form": form}, status=status)


def _start_file(upload, fmt: str) -> tuple[ratinglist.RatingList | None, str]:
    """The starting ratings' file as read, and its name; refused with a sentence when over
    the rating lists' cap."""
    if upload is None:
        return None, ""
    if upload.size > ratinglist.MAX_BYTES:
        raise services.RatingListRefused(
            _("%(file)s is over %(most)s MiB, the most a rating list may have.")
            % {"file": isolate(upload.name), "most": ratinglist.MAX_BYTES // 2**20}
        )
    data = upload.read(ratinglist.MAX_BYTES + 1)
    return ratinglist.read(data, fmt or services.guess_format(data)), upload.name


def _say_start(request: HttpRequest, report: services.StartReport, name: str) -> None:
    messages.success(
        request,
        ngettext(
            "%(count)s starting rating from %(file)s.",
            "%(count)s starting ratings from %(file)s.",
            report.ratings,
        )
        % {"count": report.ratings, "file": isolate(name)},
    )
    unread = len(report.problems) + report.more_problems
    if unread:
        messages.warning(
            request,
            ngettext(
                "%(count)s line was not read: %(first)s",
                "%(count)s lines were not read; the first: %(first)s",
                unread,
            )
            % {"count": unread, "first": report.problems[0]},
        )


@login_required
def desk_list(request: HttpRequest, slug: str) -> HttpResponse:
    rating_list = _desk_list(request, slug)
    assert request.user.is_authenticated  # login_required
    context = {
        "rating_list": rating_list,
        "events": services.ordered_events(rating_list),
        "add_form": forms.AddEventForm(rating_list=rating_list, user=request.user),
        "director_form": forms.DirectorForm(),
        "directors": rating_list.directors.order_by("username"),
        "people": len(services.current_ratings(rating_list)),
        "formats": services.FORMATS,
    }
    return render(request, "tournament/rating_lists/desk_list.html", context)


@login_required
@require_POST
def desk_add_event(request: HttpRequest, slug: str) -> HttpResponse:
    rating_list = _desk_list(request, slug)
    assert request.user.is_authenticated  # login_required
    form = forms.AddEventForm(request.POST, rating_list=rating_list, user=request.user)
    if not form.is_valid():
        # Not an event the user may add (not theirs, no date, already in), or none chosen.
        messages.error(request, _("Choose one of your events with a date, not in the list yet."))
        return redirect("ratings-desk-list", slug)
    tournament = form.cleaned_data["tournament"]
    try:
        services.add_event(rating_list, tournament, request.user)
    except services.RatingListRefused as refused:
        messages.error(request, str(refused))
    else:
        messages.success(
            request,
            _("%(event)s added: rebuild the list to rate it.")
            % {"event": isolate(tournament.name)},
        )
    return redirect("ratings-desk-list", slug)


@login_required
@require_POST
def desk_remove_event(request: HttpRequest, slug: str, tournament_id: int) -> HttpResponse:
    rating_list = _desk_list(request, slug)
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    try:
        services.remove_event(rating_list, tournament, request.user)
    except services.RatingListRefused as refused:
        messages.error(request, str(refused))
    else:
        messages.success(
            request,
            _("%(event)s taken out: rebuild the list to rate without it.")
            % {"event": isolate(tournament.name)},
        )
    return redirect("ratings-desk-list", slug)


@login_required
@require_POST
def desk_add_director(request: HttpRequest, slug: str) -> HttpResponse:
    rating_list = _desk_list(request, slug)
    form = forms.DirectorForm(request.POST)
    if form.is_valid():
        try:
            services.add_director(rating_list, form.cleaned_data["username"], request.user)
        except services.RatingListRefused as refused:
            messages.error(request, str(refused))
        else:
            messages.success(
                request,
                _("%(name)s now directs the list.")
                % {"name": isolate(form.cleaned_data["username"].strip())},
            )
    else:
        messages.error(request, _("Give a username."))
    return redirect("ratings-desk-list", slug)


@login_required
@require_POST
def desk_rebuild(request: HttpRequest, slug: str) -> HttpResponse:
    rating_list = _desk_list(request, slug)
    try:
        report = services.rebuild(rating_list, request.user)
    except services.RatingListRefused as refused:
        messages.error(request, str(refused))
        return redirect("ratings-desk-list", slug)
    context = {"rating_list": rating_list, "report": report}
    return render(request, "tournament/rating_lists/desk_report.html", context)


@login_required
def desk_file(request: HttpRequest, slug: str, fmt: str) -> HttpResponse:
    return _file(_desk_list(request, slug), fmt, public=False)
