"""The desk's forms of the hall's show: a player's photo, a zip of photos, a cross-tables id."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tournament.hall import images


class PhotoForm(forms.Form):
    photo = forms.FileField(
        label=_("Photo"),
        help_text=_("A JPEG, PNG, GIF or WebP file; it is cropped to a square and shrunk."),
    )


class PlayerPhotoForm(PhotoForm):
    player = forms.IntegerField(label=_("Player number"), min_value=1, max_value=100_000)
    field_order = ["player", "photo"]


class ZipForm(forms.Form):
    photos = forms.FileField(
        label=_("A zip of photos"),
        help_text=_(
            "Each file named by the player's number (12.jpg) or name (Smith John.jpg, "
            "smith_john.png): names are matched as the rating list matches them."
        ),
    )


class XtidForm(forms.Form):
    xtid = forms.IntegerField(
        label=_("Cross-tables id"),
        min_value=1,
        max_value=99_999_999,
        required=False,
        help_text=_("The player's number at cross-tables.com (the overlays find them by it)."),
    )


def read_upload(upload: object, most: int) -> bytes | None:
    """An uploaded file's bytes, or None if it is over `most` bytes (read no further)."""
    size = getattr(upload, "size", None)
    if size is not None and size > most:
        return None
    data = upload.read(most + 1)  # type: ignore[attr-defined]
    return None if len(data) > most else bytes(data)


MAX_PHOTO = images.MAX_UPLOAD_BYTES
MAX_ZIP = images.MAX_ZIP_BYTES
