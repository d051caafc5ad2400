"""The desk's pages of the hall's show: the division's photos (one player's, or a zip of them,
with what matched and what did not), and from a player's edit page their photo and cross-tables
id. Directors only (`get_desk_division`), and not while the tournament is locked."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from tournament.core.access import get_desk_division
from tournament.core.forms import form_error
from tournament.core.sentences import isolate
from tournament.hall import forms, photos
from tournament.hall.images import PhotoRefused
from tournament.models import Division, Player


def _too_large(most: int) -> str:
    return gettext("The file is over %(most)s MB.") % {"most": most // 2**20}


def _one_photo(request: HttpRequest, player: Player, upload: object) -> bool:
    """The upload saved as the player's photo, and a message saying so or why not."""
    data = forms.read_upload(upload, forms.MAX_PHOTO)
    if data is None:
        messages.error(request, _too_large(forms.MAX_PHOTO))
        return False
    try:
        photos.save_photo(player, data, request.user, source=getattr(upload, "name", ""))
    except PhotoRefused as refused:
        messages.error(request, photos.refusal_text(refused))
        return False
    messages.success(
        request,
        gettext("Photo of %(name)s saved.") % {"name": isolate(player.name)},
    )
    return True


def _zip(request: HttpRequest, division: Division, upload: object) -> photos.BatchResult | None:
    data = forms.read_upload(upload, forms.MAX_ZIP)
    if data is None:
        messages.error(request, _too_large(forms.MAX_ZIP))
        return None
    try:
        return photos.save_zip(division, data, request.user)
    except PhotoRefused as refused:
        messages.error(request, photos.refusal_text(refused))
        return None


def _photo_rows(division: Division) -> list[dict[str, object]]:
    stamps = photos.photo_stamps(division)
    return [
        {
            "player": p,
            "photo": photos.photo_url(division, p.number, stamps[p.pk]) if p.pk in stamps else None,
        }
        for p in division.players.order_by("number")
    ]


@login_required
def photos_page(request: HttpRequest, slug: str, division_id: int) -> HttpResponse:
    """The division's photos: every player's, one uploaded by number, or a zip of them."""
    division = get_desk_division(request, slug, division_id)
    one = forms.PlayerPhotoForm(prefix="one")
    batch = forms.ZipForm(prefix="zip")
    result = None
    status = 200
    if request.method == "POST" and request.POST.get("action") == "zip":
        batch = forms.ZipForm(request.POST, request.FILES, prefix="zip")
        if batch.is_valid():
            result = _zip(request, division, batch.cleaned_data["photos"])
        status = 200 if result is not None else 400
    elif request.method == "POST":
        one = forms.PlayerPhotoForm(request.POST, request.FILES, prefix="one")
        if not one.is_valid():
            messages.error(request, form_error(one))
            status = 400
        else:
            player = division.players.filter(number=one.cleaned_data["player"]).first()
            if player is None:
                messages.error(request, gettext("No player of that number in this division."))
                status = 400
            elif _one_photo(request, player, one.cleaned_data["photo"]):
                return redirect("desk-photos", slug, division.pk)
            else:
                status = 400
    ctx = {
        "tournament": division.tournament,
        "division": division,
        "one": one,
        "batch": batch,
        "result": result,
        "rows": _photo_rows(division),
    }
    return render(request, "tournament/hall/desk_photos.html", ctx, status=status)


@login_required
@require_POST
def player_photo(request: HttpRequest, slug: str, division_id: int, number: int) -> HttpResponse:
    """From the player's edit page: a new photo, or (`action=remove`) none."""
    division = get_desk_division(request, slug, division_id)
    player = get_object_or_404(division.players, number=number)
    if request.POST.get("action") == "remove":
        if photos.remove_photo(player, request.user):
            messages.success(
                request, gettext("Photo of %(name)s removed.") % {"name": isolate(player.name)}
            )
        return redirect("desk-edit-player", slug, division.pk, number)
    form = forms.PhotoForm(request.POST, request.FILES)
    if not form.is_valid():
        messages.error(request, form_error(form))
    else:
        _one_photo(request, player, form.cleaned_data["photo"])
    return redirect("desk-edit-player", slug, division.pk, number)


@login_required
@require_POST
def player_xtid(request: HttpRequest, slug: str, division_id: int, number: int) -> HttpResponse:
    """From the player's edit page: the cross-tables id (empty: none), at any time."""
    division = get_desk_division(request, slug, division_id)
    player = get_object_or_404(division.players, number=number)
    form = forms.XtidForm(request.POST)
    if not form.is_valid():
        messages.error(request, form_error(form))
    else:
        photos.set_xtid(player, form.cleaned_data["xtid"], request.user)
        messages.success(
            request,
            gettext("Cross-tables id of %(name)s saved.") % {"name": isolate(player.name)},
        )
    return redirect("desk-edit-player", slug, division.pk, number)
