"""No template runs inline script or style, so a strict Content-Security-Policy (no
'unsafe-inline') lets every page work: scripts and styles come from static/, and scripts read
their data from data-* attributes or json_script elements (type="application/json", not run)."""

from __future__ import annotations

import re
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.test import Client
from django.urls import reverse

from tournament.models import Division

TEMPLATES = Path(settings.BASE_DIR) / "templates"
_TAG = re.compile(r"<[a-zA-Z][^<>]*>")
_PROBLEMS = [
    (re.compile(r"<style\b", re.IGNORECASE), "a <style> element"),
    (re.compile(r"<[a-zA-Z][^<>]*(?<![\w-])style\s*=", re.IGNORECASE), "a style= attribute"),
    (re.compile(r"<[a-zA-Z][^<>]*(?<![\w-])on[a-z]+\s*=", re.IGNORECASE), "an on…= handler"),
]
_SCRIPT = re.compile(r"<script\b[^>]*>", re.IGNORECASE)


def inline_code(html: str) -> list[tuple[int, str]]:
    """(line, what) for everything a strict CSP would block in `html`."""
    found = []
    for pattern, what in _PROBLEMS:
        for match in pattern.finditer(html):
            found.append((html.count("\n", 0, match.start()) + 1, what))
    for match in _SCRIPT.finditer(html):
        tag = match.group(0)
        if "src=" not in tag and 'type="application/json"' not in tag:
            found.append((html.count("\n", 0, match.start()) + 1, "an inline <script>"))
    return sorted(found)


def test_the_scan_finds_each_kind_of_inline_code():
    html = (
        "<p>fine</p>\n<style>p{}</style>\n<div style='x'>\n<button onclick=\"go()\">\n"
        '<script>run()</script>\n<script src="/static/a.js" defer></script>\n'
        '<script id="d" type="application/json">{}</script>\n<p data-style="ok" data-onload="ok">'
    )
    assert inline_code(html) == [
        (2, "a <style> element"),
        (3, "a style= attribute"),
        (4, "an on…= handler"),
        (5, "an inline <script>"),
    ]


def test_no_template_has_inline_script_or_style():
    templates = sorted(TEMPLATES.rglob("*.html"))
    assert len(templates) > 20
    found = [
        f"{path.relative_to(TEMPLATES)}:{line}: {what}"
        for path in templates
        for line, what in inline_code(path.read_text(encoding="utf-8"))
    ]
    assert found == []


def test_the_scripts_and_styles_the_templates_load_exist():
    text = "\n".join(p.read_text(encoding="utf-8") for p in TEMPLATES.rglob("*.html"))
    loaded = set(re.findall(r"{% static '([^']+)' %}", text))
    assert {"spread.css", "desk.css", "desk-entry.js", "scoresheet-form.js"} <= loaded
    assert all(finders.find(name) for name in loaded)


def test_pages_as_served_have_no_inline_code(desk: Client, division: Division):
    slug = division.tournament.slug
    game = division.games.filter(round=1).exclude(player2=None).first()
    pages = [
        reverse("home"),
        f"/t/{slug}/{division.name}/",
        reverse("desk-entry", args=[slug, division.pk, 1]),
        reverse("desk-round-pairings", args=[slug, division.pk, 1]),
        reverse("desk-scoresheet-new", args=[slug, game.pk]),
    ]
    for url in pages:
        response = desk.get(url)
        assert response.status_code == 200, url
        html = response.content.decode()
        assert inline_code(html) == [], url
        assert "/static/spread.css" in html
    entry = desk.get(pages[2]).content.decode()
    assert '<script src="/static/desk-entry.js" defer></script>' in entry
    assert '<link rel="stylesheet" href="/static/desk.css">' in entry


def test_a_bare_page_has_the_head_and_no_navigation():
    from django.template.loader import render_to_string

    html = render_to_string("bare.html")
    assert '<link rel="stylesheet" href="/static/spread.css">' in html
    assert "<main>" in html
    assert "<header>" not in html and "Director login" not in html
