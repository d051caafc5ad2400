"""Players' ratings filled in from a rating list the director downloads from their association
(NASPA's or WESPA's, read by `interchange.ratinglist`), as tsh's USERATINGS does: the file is
read and matched by name, the desk shows what would change, who was not found and who matched
more than one entry, and nothing changes until the director confirms (`use_ratings`).
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext, gettext_lazy, ngettext
from django.utils.translation import gettext as _

from tournament.core import audit, bounds, tsh_settings
from tournament.core.access import get_desk_division
from tournament.core.actor import Actor
from tournament.interchange import ratinglist
from tournament.models import Change, Division, Game, Player
from tournament.pairing import services as pairing


def rating_list_matches(division: Division, rating_list: ratinglist.RatingList) -> list:
    """Each player of the division (withdrawn ones too) matched by name to a rating list's
    entries (`interchange.ratinglist.match`): what the desk previews before anything changes."""
    players = [
        (p.pk, p.name, p.rating, p.membership_id) for p in division.players.order_by("number")
    ]
    return ratinglist.match(players, rating_list)


def use_ratings(
    division: Division, updates: list[tuple[int, int, int]], user: Actor, source: str
) -> int:
    """tsh's USERATINGS: players' ratings set from a rating list before round 1 is paired, as
    previewed: `updates` are (player id, rating previewed, new rating). One transaction and one
    logged change; refused (nothing changed) once round 1 is paired, or if a player's rating
    changed since the preview. Returns the number of players changed."""
    with transaction.atomic():
        division = pairing.locked_division(division)
        if Game.objects.filter(division=division).exists():
            raise pairing.PairingRefused(
                gettext(
                    "Round 1 of division %(name)s is paired: ratings are set from a rating "
                    "list only before it (unpair round 1 first)."
                )
                % {"name": division.name}
            )
        players = {
            p.pk: p
            for p in Player.objects.select_for_update().filter(
                division=division, pk__in=[pk for pk, _, _ in updates]
            )
        }
        before: dict[str, int] = {}
        after: dict[str, int] = {}
        for pk, previewed, new in updates:
            player = players.get(pk)
            if player is None or player.rating != previewed:
                raise pairing.PairingRefused(
                    gettext("The roster changed since the preview: upload the rating list again.")
                )
            if player.rating == new:
                continue
            before[str(player.number)] = player.rating
            after[str(player.number)] = new
            player.rating, player.rating_text = new, str(new)
            player.save(update_fields=["rating", "rating_text", "updated"])
        if after:
            audit.record(
                division,
                Change.Action.EDIT_PLAYER,
                actor=user,
                before={"ratings": before},
                after={"ratings": after},
                reason=f"Ratings of {len(after)} player{'s' if len(after) != 1 else ''} "
                f"from the {source}",
            )
    return len(after)


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
            changed = use_ratings(
                division, _updates(request.POST.getlist("set")), request.user, source
            )
        except pairing.PairingRefused as refused:
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
            matches = rating_list_matches(division, read)
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
