"""Template helpers for pages in every language.

`{{ value|ltr }}`: a number, score, record ("5–2"), spread ("+123"), rating or coordinate ("8H")
kept left to right inside right-to-left text: an isolated `<bdi dir="ltr">`, so that a Persian
sentence neither reorders its signs nor moves it. The one helper for that job.

`{{ name|bdi }}`: a player's name or any user text in running text, isolated in its own
direction (`<bdi>`), so that "Saved: 4 سارا احمدی 39 – 1 Quill" keeps its order in an English
sentence and a Latin name keeps its in a Persian one. Plain text (JSON, PDFs, `.t` comments)
uses `sentences.isolate`.

`{{ sentence|isolates }}`: a sentence made as plain text in Python (a message, a change log's
"before" and "after"), whose names `sentences.isolate` wrapped, as HTML: each isolate becomes
the element the two filters above write. `{{ name|isolate }}`: a name where no element can go
(an attribute such as a confirmation's question, an `<option>`, the page's title).

`{{ line|gcg }}`: a line of a GCG record, left to right in every language, its move's nickname
isolated (`>سارا: 8D DJINN +30 30` keeps its order).

Python that writes HTML itself (the public tables, cell by cell) calls `core.html`'s `bdi_html`
and `ltr_html`: the same markup as the filters, as plain strings, without `format_html`'s cost.
"""

from __future__ import annotations

from html import escape

from django import template
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import pgettext

from tournament.core import html, sentences

register = template.Library()

LRI, RLI, FSI, PDI = sentences.LRI, sentences.RLI, sentences.FSI, sentences.PDI
_MARKS = sentences.MARKS
_OPENING = {LRI: '<bdi dir="ltr" class="ltr">', RLI: '<bdi dir="rtl">', FSI: "<bdi>"}


register.filter("ltr", html.ltr)
register.filter("bdi", html.bdi)
register.filter("gcg", html.gcg_line)


@register.filter
def isolate(value: object) -> str:
    """A name or user text isolated as plain text (`sentences.isolate`), for the places HTML
    holds only text: an attribute, an `<option>`, the `<title>`. Escaped as any value."""
    return sentences.isolate(value)


def isolates_html(text: object) -> str:
    """A plain-text sentence as HTML: escaped, each Unicode isolate (`sentences.isolate`'s
    first-strong isolate, a left-to-right or right-to-left one) an element, `<bdi>` or
    `<bdi dir="ltr">`, closed by its pop; a pop with nothing open is dropped, and whatever is
    still open at the end is closed. Safe HTML is returned as it is."""
    if text is None:
        return ""
    if not hasattr(text, "__html__"):
        text = str(text)  # a message or lazy text: its own text, which may be safe HTML
    html = getattr(text, "__html__", None)
    if html is not None:
        return html()
    plain = str(text)
    if not any(mark in plain for mark in _MARKS):
        return escape(plain)
    out: list[str] = []
    depth = 0
    start = 0
    for i, char in enumerate(plain):
        if char not in _MARKS:
            continue
        out.append(escape(plain[start:i]))
        start = i + 1
        if char == PDI:
            if depth:
                out.append("</bdi>")
                depth -= 1
        else:
            out.append(_OPENING[char])
            depth += 1
    out.append(escape(plain[start:]))
    out.append("</bdi>" * depth)
    return "".join(out)


@register.filter
def isolates(value: object) -> SafeString:
    """A sentence written as plain text (names isolated by `sentences.isolate`) as HTML, each
    isolate a `<bdi>`: see `isolates_html`."""
    return mark_safe(isolates_html(value))  # noqa: S308 - escaped in isolates_html


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
