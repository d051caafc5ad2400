"""What every form of the desk shares: a form's errors in one line, a field of whole numbers."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext

from tournament.core import bounds


def form_error(form: forms.BaseForm) -> str:
    """A form's errors in one line, each after its field's name, for a message or a JSON reply."""
    return " ".join(
        f"{'' if name == '__all__' else name + ': '}{' '.join(str(e) for e in errors)}"
        for name, errors in form.errors.items()
    )


def whole_numbers(text: str, what: str) -> list[int]:
    """The whole numbers of a field (`what`), separated by commas or spaces."""
    numbers = [bounds.plain_number(w) for w in text.replace(",", " ").split()]
    if any(n is None for n in numbers):
        raise forms.ValidationError(
            gettext("%(what)s: whole numbers separated by commas or spaces.") % {"what": what}
        )
    return [n for n in numbers if n is not None]
