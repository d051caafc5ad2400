"""Players' ratings filled in from a rating list the director downloads from their association
(NASPA's or WESPA's, read by `interchange.ratinglist`), as tsh's USERATINGS does: the file is
read and matched by name, the desk shows what would change, who was not found and who matched
more than one entry, and nothing changes until the director confirms (`events.use_ratings`).
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from tournament.core import bounds, tsh_settings
from tournament.core.access import get_desk_division
from tournament.event import services as events
from tournament.interchange import ratinglist
from tournament.models import Game
from tournament.pairing import services as rounds

FORMAT_NAMES = {
    "naspa": gettext_lazy("NASPA ratings list"),
    "wespa": gettext_lazy("WESPA ratings list"),
}


class RatingListForm(forms.Form):
    format = forms.ChoiceField(
        label=gettext_lazy("Format"),
        choices=list(FORMAT_NAMES.items()),
        widget=forms.RadioSelect,
        initial="naspa",
    )
    file = forms.FileField(label=gettext_lazy("Rating list file"))

    def clean_file(self) -> bytes:
        upload = self.cleaned_data["file"]
        if upload.size > ratinglist.MAX_BYTES:
            raise forms.ValidationError(
                _("The file is %(size)s bytes; a rating list is read up to %(most)s bytes.")
                % {"size": upload.size, "most": ratinglist.MAX_BYTES}
            )
        return bytes(upload.read())


def _updates(values: list[str]) -> list[tuple[int, int, int]]:
    """The confirmed changes, as the preview's form carries them: "player:previewed:new"."""
    found = []
    for value in values[:5_000]:
        parts = value.split(":")
        numbers = [bounds.plain_number(p) for p in parts] if len(parts) == 3 else []
        if len(numbers) != 3 or any(n is None for n in numbers):
            continue
        pk, old, new = (int(n) for n in numbers if n is not None)
        found.append((pk, old, new))
    return found


@login_required
def rating_list(request: HttpRequest, slug: str, division_id: int) -> HttpResponse:
    division = get_desk_division(request, slug, division_id)
    started = Game.objects.filter(division=division).exists()
    status = 200
    preview = None
    asked = tsh_settings.rating_list_asked(division)
    form = RatingListForm(initial={"format": asked[1]} if asked and asked[1] else None)
    if request.method == "POST" and request.POST.get("action") == "confirm":
        source = str(FORMAT_NAMES.get(request.POST.get("format", ""), _("rating list")))
        try:
            changed = events.use_ratings(
                division, _updates(request.POST.getlist("set")), request.user, source
            )
        except rounds.PairingRefused as refused:
            messages.error(request, str(refused))
            return redirect("desk-rating-list", slug, division.pk)
        messages.success(
            request,
            ngettext(
                "%(count)d rating set from the %(list)s.",
                "%(count)d ratings set from the %(list)s.",
                changed,
            )
            % {"count": changed, "list": source},
        )
        return redirect("desk-players", slug, division.pk)
    if request.method == "POST":
        form = RatingListForm(request.POST, request.FILES)
        if form.is_valid():
            fmt = form.cleaned_data["format"]
            read = ratinglist.read(form.cleaned_data["file"], fmt)
            matches = events.rating_list_matches(division, read)
            by_outcome: dict[str, list[ratinglist.Match]] = {}
            for m in matches:
                by_outcome.setdefault(m.outcome, []).append(m)
            preview = {
                "format": fmt,
                "format_name": FORMAT_NAMES[fmt],
                "entries": len(read.entries),
                "problems": read.problems,
                "more_problems": read.more_problems,
                "update": by_outcome.get("update", []),
                "same": by_outcome.get("same", []),
                "unmatched": by_outcome.get("unmatched", []),
                "ambiguous": by_outcome.get("ambiguous", []),
            }
        else:
            status = 400
    context = {
        "tournament": division.tournament,
        "division": division,
        "form": form,
        "preview": preview,
        "started": started,
        "asked": asked,
    }
    return render(request, "tournament/exchange/rating_list.html", context, status=status)
