"""Text isolated in its own direction as HTML, written by Python that writes HTML itself (the
public tables, cell by cell): the same markup as the templates' `ltr` and `bdi` filters
(`templatetags/spread_i18n.py`), as plain strings, without `format_html`'s cost."""

from __future__ import annotations

from html import escape

from django.utils.safestring import SafeString, mark_safe

from tournament.core.sentences import FSI, PDI, move_nick


def text_html(value: object) -> str:
    """`value` escaped for HTML, unless it is safe HTML already."""
    html = getattr(value, "__html__", None)
    return html() if html is not None else escape(str(value))


def ltr_html(value: object) -> str:
    """`value` (escaped) in a left-to-right isolate: the `ltr` filter's markup."""
    return f'<bdi dir="ltr" class="ltr">{text_html(value)}</bdi>'


def bdi_html(value: object) -> str:
    """`value` (escaped) isolated in its own direction: the `bdi` filter's markup. A name that
    `sentences.isolate` wrapped for plain text loses those marks here."""
    if isinstance(value, str) and value[:1] == FSI and value[-1:] == PDI:
        value = value[1:-1]
    return f"<bdi>{text_html(value)}</bdi>"


def ltr(value: object) -> SafeString | str:
    """`value` isolated and left to right, as safe HTML (the templates' `ltr` filter); an empty
    value (None, "") stays empty."""
    if value is None or value == "":
        return ""
    return mark_safe(ltr_html(value))  # noqa: S308 - escaped in ltr_html


def bdi(value: object) -> SafeString | str:
    """A name or user text isolated in its own direction, as safe HTML (the templates' `bdi`
    filter); an empty value stays empty. Text that `sentences.isolate` wrapped for plain text
    loses those marks here."""
    if value is None or value == "":
        return ""
    return mark_safe(bdi_html(value))  # noqa: S308 - escaped in bdi_html


def gcg_line_html(value: object) -> str:
    """A line of a GCG record (escaped), left to right on any page, the nickname of a move's line
    (`>nick: 8D DJINN +30 30`) isolated in its own direction: a Persian nickname followed by
    `: 8D` no longer carries the square to its other side."""
    line = str(value)
    move = move_nick(line)
    if move is not None:
        inner = f"&gt;<bdi>{escape(move[0])}</bdi>{escape(move[1])}"
    else:
        inner = escape(line)
    return f'<bdi dir="ltr" class="gcg-line">{inner}</bdi>'


def gcg_line(value: object) -> SafeString | str:
    """A GCG line as safe HTML (the templates' `gcg` filter): see `gcg_line_html`; an empty
    value stays empty."""
    if value is None or value == "":
        return ""
    return mark_safe(gcg_line_html(value))  # noqa: S308 - escaped in gcg_line_html
