"""The prize table at the desk (set it, see who wins), the ceremony's slides, and a winner's
certificate by its code."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext

from tournament.core import throttle
from tournament.core.access import (
    get_desk_division,
)
from tournament.core.sentences import isolate
from tournament.reports import data, prizes
from tournament.reports.forms import PrizesForm, prize_text
from tournament.standings import prizes as prize_reads
from tournament.standings import stamps as division_stamps


@login_required
def desk_prizes(request: HttpRequest, slug: str, division_id: int) -> HttpResponse:
    """The division's prizes and rating classes, and who takes each prize as things stand."""
    division = get_desk_division(request, slug, division_id)
    status = 200
    if request.method == "POST":
        form = PrizesForm(request.POST)
        if form.is_valid():
            division.prizes = form.cleaned_data["prizes"]
            division.prizes_more_than_one = form.cleaned_data["more_than_one"]
            division.class_bands = form.cleaned_data["class_bands"]
            division.rating_classes = form.cleaned_data["rating_classes"] or 0
            division.team_order = form.cleaned_data["team_order"]
            with transaction.atomic():
                division.save(
                    update_fields=[
                        "prizes",
                        "prizes_more_than_one",
                        "class_bands",
                        "rating_classes",
                        "team_order",
                    ]
                )
            messages.success(
                request,
                gettext("Division %(name)s's prizes are saved.") % {"name": isolate(division.name)},
            )
            return redirect("desk-prizes", slug, division.pk)
        status = 400
    else:
        form = PrizesForm(
            initial={
                "prizes": prize_text(division.prizes or []),
                "more_than_one": division.prizes_more_than_one,
                "class_bands": "\n".join(f"{n} {r}" for n, r in division.class_bands or []),
                "rating_classes": division.rating_classes,
                "team_order": division.team_order,
            }
        )
    awarded = None
    if division.prizes:
        try:
            awarded = data.prizes(division)
        except data.ReportError:
            awarded = None  # no results yet: nothing is awarded
    context = {
        "tournament": division.tournament,
        "division": division,
        "form": form,
        "awarded": awarded.tables[0] if awarded else None,
    }
    return render(request, "tournament/reports/prizes.html", context, status=status)


@login_required
def desk_prize_slides(request: HttpRequest, slug: str, division_id: int) -> HttpResponse:
    """The prize ceremony: a full-screen page of one slide a prize, stepped with the arrow
    keys or a clicker (static/prize-slides.js); its PDF beside it."""
    division = get_desk_division(request, slug, division_id)
    found = []
    reason = ""
    if not division.prizes:
        reason = gettext("Division %(name)s has no prizes set.") % {"name": division.name}
    else:
        try:
            found = prizes.slides(division, stamps=division_stamps.read(division))
        except data.ReportError as error:
            reason = str(error)
    context = {
        "tournament": division.tournament,
        "division": division,
        "slides": found,
        "reason": reason,
    }
    return render(request, "tournament/reports/prize_slides.html", context, status=200)


# A visitor checks the code printed on a certificate, or scans its QR code: a few misses are
# typing errors; more from one address within the window are guesses, refused before any row is
# read (`core/throttle.py`).
CERTIFICATE_MISSES = 20
CERTIFICATE_WINDOW = 600  # seconds


def certificate(request: HttpRequest, code: str) -> HttpResponse:
    """The public page a certificate's code opens: the prize it confirms, from the published
    results as they stand; a code not made here, or whose prize has changed since, is a 404.

    The signature is checked first, against the prize line the code names (`prizes.signed`:
    one row read); the results only for a code made here, and then once under the division's
    stamp. A private event's certificates are confirmed to its directors only, as its pages
    are shown. An address past `CERTIFICATE_MISSES` misses in `CERTIFICATE_WINDOW` seconds
    is answered 429 before anything is read."""
    if throttle.refused("certificate", request, CERTIFICATE_MISSES, CERTIFICATE_WINDOW):
        return render(
            request,
            "tournament/reports/certificate.html",
            {
                "refused": gettext(
                    "Too many certificate codes that do not exist were asked from your "
                    "address: wait %(minutes)s minutes and try again."
                )
                % {"minutes": CERTIFICATE_WINDOW // 60}
            },
            status=429,
        )
    found = None
    made = prize_reads.signed(code)
    if made is not None:
        tournament = made.division.tournament
        if tournament.public or tournament.is_director(request.user):
            found = prize_reads.confirmed(made)
    if found is None:
        throttle.missed("certificate", request, CERTIFICATE_WINDOW)
        raise Http404(gettext("No certificate has the code %(code)s.") % {"code": code[:40]})
    return render(
        request,
        "tournament/reports/certificate.html",
        {"certificate": found, "tournament": found.division.tournament},
    )
