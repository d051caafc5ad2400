"""Forms of the director's desk."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.conf import settings
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring.tiles import builtin_tilesets
from tournament.core.choices import rating_system_choices, ruleset_choices
from tournament.core.forms import whole_numbers
from tournament.event.services import NewDivision
from tournament.exchange import tsh_io


class DatesInOrder(forms.Form):
    """A form with an event's `start_date` and `end_date`: the last day not before the first."""

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        start, end = data.get("start_date"), data.get("end_date")
        if start and end and end < start:
            raise forms.ValidationError(gettext("The last day comes before the first."))
        return data


class NewTournamentForm(DatesInOrder):
    """A new tournament: a name alone is enough; divisions and players can come later."""

    name = forms.CharField(label=_("Name"), max_length=200)
    start_date = forms.DateField(
        label=_("Start date"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    end_date = forms.DateField(
        label=_("End date"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    venue = forms.CharField(max_length=200, required=False, label=_("Place"))
    public = forms.BooleanField(
        label=_("Public"),
        required=False,
        initial=True,
        help_text=_("Its pages are listed and open to everyone."),
    )
    language = forms.ChoiceField(
        label=_("Default language"),
        required=False,
        choices=[("", _("the visitor's browser"))] + list(settings.LANGUAGES),
        help_text=_(
            "The language of the public pages and reports for visitors who have not chosen one."
        ),
    )


class EventDatesForm(DatesInOrder):
    """The event's first and last day (an imported event's come from its files)."""

    start_date = forms.DateField(
        label=_("Start date"), widget=forms.DateInput(attrs={"type": "date"})
    )
    end_date = forms.DateField(
        label=_("End date"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    """Several files in one field; their caps are the upload's (`exchange/tsh_upload.py`)."""

    widget = MultipleFileInput

    def clean(self, data: Any, initial: Any = None) -> list[Any]:
        files = [f for f in (data if isinstance(data, list | tuple) else [data]) if f]
        if not files:
            raise forms.ValidationError(gettext("Choose the event's files."), code="required")
        return files


class ImportTshForm(forms.Form):
    """A TSH event's files: its config.tsh and `.t` files, or a zip of them, or a lone `.t`."""

    tsh_files = MultipleFileField(
        label=_("TSH files"),
        widget=MultipleFileInput(attrs={"accept": ".tsh,.t,.zip"}),
        help_text=_("The config.tsh and its .t files (choose them all), or a zip of them."),
    )
    name = forms.CharField(
        label=_("Name"),
        max_length=200,
        required=False,
        help_text=_("Needed for a .t file sent alone; a config.tsh names its event (event_name)."),
    )


class TournamentLanguageForm(forms.Form):
    """A tournament's default language, set on its desk."""

    language = forms.ChoiceField(
        label=_("Default language"),
        required=False,
        choices=[("", _("the visitor's browser"))] + list(settings.LANGUAGES),
        help_text=_(
            "The language of the public pages and reports for visitors who have not chosen one."
        ),
    )


class NewDivisionForm(forms.Form):
    """One division of a new tournament; a row left without a name is no division."""

    name = forms.CharField(label=_("Name"), max_length=50, required=False)
    planned_rounds = forms.IntegerField(
        min_value=1, max_value=99, required=False, label=_("Rounds")
    )
    # The rulesets, each a sentence of what it does, all in view at once.
    ruleset = forms.ChoiceField(
        label=_("Ruleset"), choices=(), initial="naspa", widget=forms.RadioSelect
    )
    tile_set = forms.ChoiceField(label=_("Tile set"), choices=(), initial="english")
    spread_cap = forms.CharField(
        label=_("Spread cap"),
        required=False,
        help_text=_("e.g. “300”, or one a round; empty: none."),
        widget=forms.TextInput(attrs={"inputmode": "numeric"}),
    )
    bye_spread = forms.IntegerField(label=_("Bye spread"), min_value=0, max_value=1000, initial=50)
    rating_system = forms.ChoiceField(
        label=_("Rating system"), choices=(), initial="nsa2008", widget=forms.RadioSelect
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Declared above as ChoiceFields; `fields` holds them as plain Fields.
        cast(forms.ChoiceField, self.fields["ruleset"]).choices = ruleset_choices()
        cast(forms.ChoiceField, self.fields["tile_set"]).choices = [
            (n, n) for n in builtin_tilesets()
        ]
        cast(forms.ChoiceField, self.fields["rating_system"]).choices = rating_system_choices()

    def clean_name(self) -> str:
        name = " ".join(self.cleaned_data["name"].split())
        problem = tsh_io.check_division_name(name) if name else None
        if problem:
            raise forms.ValidationError(problem)
        return name

    def clean_spread_cap(self) -> list[int] | None:
        caps = whole_numbers(self.cleaned_data["spread_cap"], gettext("Spread cap"))
        if any(c < 1 for c in caps):
            raise forms.ValidationError(gettext("Spread cap: whole numbers above 0."))
        return caps or None

    def new_division(self) -> Any:
        """The division this form describes, to be made (`services.NewDivision`)."""
        # A field left empty (one a form may leave out) takes the division's default.
        return NewDivision(**{k: v for k, v in self.cleaned_data.items() if v not in (None, "")})


class BaseDivisionFormSet(forms.BaseFormSet):
    def clean(self) -> None:
        if any(self.errors):
            return
        names = [f.cleaned_data.get("name", "").lower() for f in self.forms]
        names = [n for n in names if n]
        if len(names) != len(set(names)):
            raise forms.ValidationError(gettext("Two divisions have the same name."))

    def divisions(self) -> list[Any]:
        return [f.new_division() for f in self.forms if f.cleaned_data.get("name")]


# A subclass of BaseDivisionFormSet (the stubs say only BaseFormSet).
NewDivisionFormSet = cast(
    type[BaseDivisionFormSet],
    forms.formset_factory(
        NewDivisionForm, formset=BaseDivisionFormSet, extra=2, max_num=20, absolute_max=20
    ),
)


class PersonForm(forms.Form):
    username = forms.CharField(label=_("Username"), max_length=150)
    role = forms.ChoiceField(
        label=_("Role"),
        choices=[("director", _("co-director")), ("scorekeeper", _("scorekeeper"))],
    )


class AddDivisionForm(NewDivisionForm):
    """A division added to a tournament at the desk: a name, and its rounds, rules, tiles and
    rating system to choose from (any left out: the defaults a new tournament's division has)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name, field in self.fields.items():
            field.required = name == "name"
