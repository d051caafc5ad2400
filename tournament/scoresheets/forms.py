"""Forms of the director's desk."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournament.scoresheets import services as scoresheets


class ScoresheetTextForm(forms.Form):
    gcg = forms.CharField(
        label=_("Scoresheet"),
        max_length=scoresheets.MAX_SCORESHEET_BYTES,
        strip=False,
        widget=forms.Textarea(
            attrs={"rows": 24, "spellcheck": "false", "autocomplete": "off", "dir": "ltr"}
        ),
    )
    reason = forms.CharField(label=_("Reason"), max_length=500, required=False)


class AssignForm(forms.Form):
    """How many records the upload page sends back with the game chosen for each."""

    MAX_FILES = 200
    count = forms.IntegerField(
        min_value=0,
        max_value=MAX_FILES,
        error_messages={
            "max_value": _("At most %(limit_value)s scoresheets can be assigned at once.")
        },
    )


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    widget = MultipleFileInput

    def __init__(self, **kwargs: Any) -> None:
        # An empty file is a malformed scoresheet: saved with the engine's finding, not refused.
        super().__init__(allow_empty_file=True, **kwargs)

    def clean(self, data: Any, initial: Any = None) -> list[Any]:
        files = [f for f in (data if isinstance(data, list | tuple) else [data]) if f]
        if not files and self.required:
            raise forms.ValidationError(self.error_messages["required"], code="required")
        return [super(MultipleFileField, self).clean(f, initial) for f in files]


class UploadForm(forms.Form):
    # The form's metaclass moves a declared field to `base_fields`: `self.files` stays the
    # uploaded files, as mypy cannot tell.
    files = MultipleFileField(label=_("GCG files"))  # type: ignore[assignment]
    round = forms.IntegerField(
        label=_("Round"),
        required=False,
        min_value=1,
        help_text=_("Only look for games of this round."),
    )


class SingleUploadForm(forms.Form):
    file = forms.FileField(label=_("GCG file"), allow_empty_file=True)


class ResolveForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), max_length=500, required=False)
