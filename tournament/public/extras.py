"""Pages beyond the standings: a division's statistics; and what the standings page adds, the
rating classes' standings and the Gibsonized players."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext, gettext_lazy

from tournament.core import bounds
from tournament.core.access import (
    after_round_asked,
    get_desk_division,
    get_public_division,
    get_public_tournament,
)
from tournament.core.sentences import isolate
from tournament.engine.prizes import KINDS, LAYOUT
from tournament.engine.teams import Record, team_standings
from tournament.interchange import tsh
from tournament.models import Division
from tournament.reports import data, prizes
from tournament.standings import queries, read_model


def standings_extras(division: Division, after: int | None, key: str) -> dict[str, Any]:
    """The public standings page's class standings (grouped by class, in the standings' order)
    and Gibsonized players with the rule that made them so; the standings are read from the
    cache under the page's own `key`."""
    rows = read_model.division_standings(division, after, key=key, public=True)
    groups: dict[str, list[prizes.ClassRow]] = {}
    if prizes.has_classes(division, [r.player for r in rows]):
        for row in prizes.class_standings(division, after, public=True, rows=rows):
            groups.setdefault(row.player_class, []).append(row)
    records = [Record(r.player.pk, r.player.team, r.wins, r.losses, r.spread) for r in rows]
    return {
        "classes": sorted(groups.items()),
        "gibsons": prizes.gibsonized(division, after, public=True),
        "teams": team_standings(records, division.team_order or "wins"),
    }


def statistics(request: HttpRequest, slug: str, division: str) -> HttpResponse:
    """The statistics of the published rounds, drawn from the same tables as the `stats`
    report, so that the page and the download never disagree."""

    tournament = get_public_tournament(request, slug)
    div = get_public_division(tournament, division)
    played = [r.number for r in queries.division_rounds(div) if r.has_results]
    after = after_round_asked(request, read_model.last_result_round(div, public=True))
    tables = []
    report = None
    if read_model.last_result_round(div, public=True):
        report = data.stats(div, after, public=True)
        for table in report.tables:
            rows = [
                [
                    (data.display(cell, column.style), column.numeric)
                    for cell, column in zip(row, table.columns, strict=True)
                ]
                for row in table.rows
            ]
            tables.append({"table": table, "rows": rows})
    ctx = {
        "tournament": tournament,
        "division": div,
        "played": played,
        "after": report.round if report else None,
        "tables": tables,
    }
    return render(request, "tournament/statistics.html", ctx)


# -- the desk: prizes and rating classes ---------------------------------------------------------

PRIZE_KINDS = (*KINDS, *LAYOUT)


def parse_prizes(text: str) -> list[dict[str, Any]]:
    """The prizes typed at the desk, one a line as config.tsh has them without `prize` and the
    division: `rank 1 $500`, `rank 1 $100 class=B`, `tuffluck 1 $50 rounds=5 exclusive=luck`,
    `note 1 Prizes of the day`; read as the import reads a config's lines (`tsh.prize_fields`)."""
    found: list[dict[str, Any]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        parts = line.split(None, 2)
        if len(parts) == 2 and parts[0].lower() in LAYOUT:
            parts.append("")
        if len(parts) < 3:
            raise ValueError(
                gettext("line %(number)s: a prize is KIND PLACE VALUE, e.g. rank 1 $500")
                % {"number": number}
            )
        kind, place_text, value = parts[0].lower(), parts[1], parts[2]
        place = bounds.plain_number(place_text)
        if kind not in PRIZE_KINDS:
            raise ValueError(
                gettext("line %(number)s: %(kind)r is not a prize: %(join)s")
                % {"number": number, "kind": kind, "join": ", ".join(PRIZE_KINDS)}
            )
        if place is None or place < 1:
            raise ValueError(
                gettext("line %(number)s: the place %(place_text)r is not a number from 1")
                % {"number": number, "place_text": place_text}
            )
        try:
            prize = tsh.prize_fields(kind, str(place), value)
        except ValueError:
            raise ValueError(
                gettext(
                    "line %(number)s: first=, last=, rounds= and order= take a whole number from 1"
                )
                % {"number": number}
            ) from None
        found.append(prize)
    return found


def prize_text(prizes_list: list[dict[str, Any]]) -> str:
    return "\n".join(tsh.prize_text(p) for p in prizes_list)


def parse_bands(text: str) -> list[list[Any]]:
    """Rating classes, one a line: the class and its lowest rating (`A 1800`)."""
    found: list[list[Any]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        parts = raw.split()
        if not parts:
            continue
        lowest = bounds.plain_number(parts[1]) if len(parts) == 2 else None
        if lowest is None:
            raise ValueError(
                gettext("line %(number)s: a class is NAME LOWEST-RATING, e.g. A 1800")
                % {"number": number}
            )
        if any(name == parts[0] for name, _ in found):
            raise ValueError(
                gettext("line %(number)s: class %(parts)s is given twice")
                % {"number": number, "parts": parts[0]}
            )
        found.append([parts[0], lowest])
    return found


class PrizesForm(forms.Form):
    prizes = forms.CharField(
        label=gettext_lazy("Prizes"),
        widget=forms.Textarea(attrs={"rows": 10, "cols": 50, "dir": "ltr"}),
        required=False,
        max_length=20_000,
        help_text=gettext_lazy(
            "One a line, as config.tsh has them: rank 1 $500 · rank 1 $100 class=B · "
            "highgame 1 $20 · tuffluck 1 $50 rounds=6 · roundrecord 1 $20 first=1 last=7 "
            "exclusive=day1 · note 1 Day one. Every TSH prize type and option (class=, first=, "
            "last=, rounds=, members=, exclusive=, order=)."
        ),
    )
    more_than_one = forms.BooleanField(
        required=False, label=gettext_lazy("A player may take more than one prize")
    )
    class_bands = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 4, "cols": 30, "dir": "ltr"}),
        required=False,
        max_length=2_000,
        label=gettext_lazy("Rating classes"),
        help_text=gettext_lazy(
            "One a line, the class and its lowest rating: A 1800. Leave empty to use each "
            "player's own class (the .t file's class field)."
        ),
    )
    rating_classes = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=26,
        label=gettext_lazy("Classes by rating order"),
        help_text=gettext_lazy(
            "tsh's classes line: this many classes A, B, … by rating, about as many players in "
            "each, players level on rating in the same class. Used when there are no rating "
            "classes above; 0 or empty: none."
        ),
    )

    team_order = forms.ChoiceField(
        choices=[("wins", gettext_lazy("wins first")), ("spread", gettext_lazy("spread first"))],
        label=gettext_lazy("Team standings"),
        help_text=gettext_lazy(
            "How teams are ordered: by their players' wins, or by their spread."
        ),
    )

    def clean_prizes(self) -> list[dict[str, Any]]:
        try:
            return parse_prizes(self.cleaned_data["prizes"])
        except ValueError as error:
            raise forms.ValidationError(str(error)) from None

    def clean_class_bands(self) -> list[list[Any]]:
        try:
            return parse_bands(self.cleaned_data["class_bands"])
        except ValueError as error:
            raise forms.ValidationError(str(error)) from None


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
    return render(request, "tournament/desk/prizes.html", context, status=status)


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
            found = prizes.slides(division)
        except data.ReportError as error:
            reason = str(error)
    context = {
        "tournament": division.tournament,
        "division": division,
        "slides": found,
        "reason": reason,
    }
    return render(request, "tournament/desk/prize_slides.html", context, status=200)


def certificate(request: HttpRequest, code: str) -> HttpResponse:
    """The public page a certificate's code opens: the prize it confirms, from the published
    results as they stand; a code not made here, or whose prize has changed since, is a 404."""
    found = prizes.confirm(code)
    if found is None:
        raise Http404(gettext("No certificate has the code %(code)s.") % {"code": code[:40]})
    return render(
        request,
        "tournament/certificate.html",
        {"certificate": found, "tournament": found.division.tournament},
    )
