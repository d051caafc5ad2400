"""The desk's forms for people: confirm a link, merge two people, split one."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _


class ConfirmForm(forms.Form):
    """The player is this person (an id), or a new person ("new")."""

    player = forms.IntegerField(min_value=1)
    person = forms.CharField(max_length=20)

    def clean_person(self) -> int | None:
        value = self.cleaned_data["person"].strip()
        if value == "new":
            return None
        if not value.isdigit():
            raise forms.ValidationError(_("Choose a person, or a new person."))
        return int(value)


class MergeForm(forms.Form):
    other = forms.IntegerField(label=_("Merge into this person the person numbered"), min_value=1)


class SplitForm(forms.Form):
    players = forms.TypedMultipleChoiceField(
        label=_("Players that are another person"), coerce=int, choices=()
    )

    def __init__(self, *args, choices: list[tuple[int, str]] = (), **kwargs) -> None:  # type: ignore[assignment]
        super().__init__(*args, **kwargs)
        self.fields["players"].choices = choices  # type: ignore[attr-defined]


class SearchForm(forms.Form):
    q = forms.CharField(label=_("Name"), max_length=100, required=False)
