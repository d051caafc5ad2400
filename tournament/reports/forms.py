"""The prize table's form at the desk: TSH's prize lines and rating-class bands, read and
checked line by line."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext, gettext_lazy

from tournament.core import bounds
from tournament.engine.prizes import KINDS, LAYOUT
from tournament.interchange import tsh

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
