"""Forms of the director's desk."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


class WithdrawForm(forms.Form):
    player = forms.IntegerField(label=_("Player"), min_value=1)
    from_round = forms.IntegerField(min_value=1, label=_("from round"))


class RosterForm(forms.Form):
    file = forms.FileField(
        label=_("Roster"),
        help_text=_(
            "An .xlsx or .csv file with a header row: name (or last name and first name), and "
            "any of number, rating, club, team, id; or a TSH .t file (its players only, not its "
            "results)."
        ),
    )


def name_style_help(last_first: bool | None) -> str:
    """What happens to a name added to a division, by the division's style of names."""
    if last_first:
        return gettext(
            "The division writes names “Last, First”: every name added is written so "
            "(“Ada Quill” becomes “Quill, Ada”)."
        )
    if last_first is False:
        return gettext(
            "The division writes names “First Last”: every name added is written so "
            "(“Quill, Ada” becomes “Ada Quill”)."
        )
    return gettext(
        "The first players added set the division's style of names: if most are written "
        "“Last, First”, every name is written so (“Ada Quill” becomes “Quill, Ada”); else "
        "“First Last”."
    )


class LateEntryForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=200)
    rating = forms.IntegerField(label=_("Rating"), min_value=0, max_value=3000, initial=0)
    club = forms.CharField(label=_("Club"), max_length=100, required=False)
    team = forms.CharField(label=_("Team"), max_length=100, required=False)
    membership_id = forms.CharField(label=_("Membership id"), max_length=40, required=False)
    missed = forms.ChoiceField(
        label=_("For the rounds already under way"),
        choices=[
            ("forfeits", _("forfeit losses")),
            ("byes", _("byes")),
            ("nothing", _("nothing")),
        ],
        initial="forfeits",
        required=False,
        widget=forms.RadioSelect,
    )

    def __init__(
        self,
        *args: Any,
        last_first: bool | None = None,
        absent_result: str = "forfeit",
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        # The division's own rule for a missed round is the choice offered first.
        self.fields["missed"].initial = "forfeits" if absent_result == "forfeit" else "nothing"
        # The name is saved as the division writes its names (`players.late_entry`).
        self.fields["name"].help_text = name_style_help(last_first)

    def clean_name(self) -> str:
        return " ".join(self.cleaned_data["name"].split())

    def clean_missed(self) -> str | None:
        # Nothing chosen: what the division gives a player who misses a round.
        return self.cleaned_data.get("missed") or None


class PasteForm(forms.Form):
    players = forms.CharField(
        label=_("Players"),
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false"}),
        max_length=200_000,
        help_text=_(
            "One player a line: name, rating, optional club — e.g. “Quill, Ada, 1650, "
            "Leeds” or, copied from a spreadsheet, columns separated by tabs."
        ),
    )

    def __init__(self, *args: Any, last_first: bool | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["players"]
        field.help_text = f"{field.help_text} {name_style_help(last_first)}"


class PlayerForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=200)
    rating = forms.IntegerField(label=_("Rating"), min_value=0, max_value=3000)
    club = forms.CharField(label=_("Club"), max_length=100, required=False)


class AbsentForm(forms.Form):
    """A player absent for a round (or present again): the round's pairing leaves them out."""

    player = forms.IntegerField(min_value=1, label=_("Player"))
    round = forms.IntegerField(min_value=1, max_value=10_000, label=_("round"))


class FixedTableForm(forms.Form):
    player = forms.IntegerField(min_value=1, label=_("Player"))
    table = forms.IntegerField(
        min_value=1, max_value=100_000, required=False, label=_("always at table")
    )


class MoveForm(forms.Form):
    player = forms.IntegerField(min_value=1, label=_("Player"))
    division = forms.IntegerField(label=_("to division"))
