"""The desk's forms of a rating list: a new list, an event added, a director added."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.models import User
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from tournament.core.choices import rating_system_choices
from tournament.models import RatingList, Tournament


class NewListForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=200)
    slug = forms.SlugField(
        label=_("Address"),
        max_length=100,
        help_text=_("The list's page is /ratings/ followed by this, e.g. kor-ratings."),
    )
    system = forms.ChoiceField(label=_("Rating system"), choices=rating_system_choices)
    public = forms.BooleanField(
        label=_("Public"),
        required=False,
        initial=True,
        help_text=_("Its ratings are listed and open to everyone."),
    )
    start_from = forms.FileField(
        label=_("Starting ratings"),
        required=False,
        help_text=_(
            "A NASPA or WESPA rating-list file: each person in it starts the list at its "
            "rating, as an established player. Without one, everyone starts new to the list."
        ),
    )
    start_format = forms.ChoiceField(
        label=_("Its format"),
        required=False,
        choices=[("", _("found from the file")), ("naspa", "NASPA"), ("wespa", "WESPA")],
    )


def events_to_add(rating_list: RatingList, user: User) -> QuerySet[Tournament]:
    """The events a user may add to a list: those they direct, with a date, not in it yet."""
    return (
        Tournament.objects.filter(directors=user, start_date__isnull=False)
        .exclude(rating_lists__rating_list=rating_list)
        .order_by("start_date", "name")
    )


class EventChoice(forms.ModelChoiceField):
    def label_from_instance(self, obj: Any) -> str:
        return f"{obj.name} · {obj.start_date:%Y-%m-%d}"


class AddEventForm(forms.Form):
    tournament = EventChoice(label=_("Event"), queryset=Tournament.objects.none())

    def __init__(self, *args: Any, rating_list: RatingList, user: User, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["tournament"]
        assert isinstance(field, forms.ModelChoiceField)  # noqa: S101 - declared above
        field.queryset = events_to_add(rating_list, user)


class DirectorForm(forms.Form):
    username = forms.CharField(label=_("Username"), max_length=150)
