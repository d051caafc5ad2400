"""Template helpers for pages in every language.

`{{ value|ltr }}`: a number, score, record ("5–2"), spread ("+123"), rating or coordinate ("8H")
kept left to right inside right-to-left text: an isolated `<bdi dir="ltr">`, so that a Persian
sentence neither reorders its signs nor moves it. The one helper for that job.

`{{ name|bdi }}`: a player's name or any user text in running text, isolated in its own
direction (`<bdi>`), so that "Saved: 4 سارا احمدی 39 – 1 Quill" keeps its order in an English
sentence and a Latin name keeps its in a Persian one. Plain text (JSON, PDFs, `.t` comments)
uses `sentences.isolate`.
"""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import pgettext

register = template.Library()


@register.filter
def ltr(value: object) -> SafeString | str:
    """`value` isolated and left to right; an empty value (None, "") stays empty."""
    if value is None or value == "":
        return ""
    return format_html('<bdi dir="ltr" class="ltr">{}</bdi>', value)


@register.filter
def bdi(value: object) -> SafeString | str:
    """A name or user text isolated in its own direction; an empty value stays empty. Text
    that `sentences.isolate` wrapped for plain text loses those marks here."""
    if value is None or value == "":
        return ""
    return format_html("<bdi>{}</bdi>", str(value).strip("\u2068\u2069"))


SEVERITIES = {
    "error": lambda: pgettext("severity", "error"),
    "warning": lambda: pgettext("severity", "warning"),
    "info": lambda: pgettext("severity", "info"),
}


@register.filter
def severity(code: str) -> str:
    """A finding's severity (a code: error, warning, info) in the reader's language."""
    word = SEVERITIES.get(code)
    return word() if word else code
