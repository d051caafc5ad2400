"""An association's rating list in Chromium, in Persian and in Korean, at 1280 and 390 pixels:
the ranked list and a person's history fit a phone without sideways scrolling, names in either
script read whole, a hidden person's row says so."""

from __future__ import annotations

import datetime
import shutil
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
pytestmark = [
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed"),
]
SHOTS = Path("/tmp")

NAMES = ["رضا محمدی", "محمدرضا حسین‌زاده", "김민준", "박서연", "Ada Quill", "هادی"]
ROUNDS = [
    [
        ("رضا محمدی", "김민준", 420, 380),
        ("محمدرضا حسین‌زاده", "박서연", 350, 410),
        ("Ada Quill", "هادی", 400, 399),
    ],
    [
        ("رضا محمدی", "박서연", 399, 401),
        ("김민준", "Ada Quill", 455, 300),
        ("محمدرضا حسین‌زاده", "هادی", 380, 370),
    ],
    [
        ("رضا محمدی", "Ada Quill", 500, 350),
        ("김민준", "هادی", 380, 380),
        ("박서연", "محمدرضا حسین‌زاده", 301, 420),
    ],
]


def _build() -> int:
    from tests.tournament.rating_lists.rating_list_support import link_people, small_event
    from tournament.models import Person
    from tournament.rating_lists import services

    one = small_event("jam-e-tehran", datetime.date(2026, 4, 4), NAMES, ROUNDS)
    two = small_event("seoul-cup", datetime.date(2026, 5, 9), NAMES, ROUNDS[:2])
    for t in (one, two):
        link_people(t)
    rating_list = services.create_list("ریتینگ انجمن · 협회 레이팅", "asia")
    services.add_event(rating_list, one)
    services.add_event(rating_list, two)
    services.rebuild(rating_list)
    Person.objects.filter(name="هادی").update(hidden=True)
    return Person.objects.get(name="محمدرضا حسین‌زاده").pk


@pytest.mark.parametrize("language", ["fa", "ko"])
def test_the_list_on_a_phone_and_a_desk(live_url: str, page, language: str) -> None:
    person = _build()
    page.context.add_cookies([{"name": "django_language", "value": language, "url": live_url}])
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(f"{live_url}/ratings/asia/")
        assert page.evaluate("document.documentElement.lang") == language
        assert page.evaluate("document.documentElement.dir") == (
            "rtl" if language == "fa" else "ltr"
        )
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        names = page.locator("#current-ratings td.name").all_inner_texts()
        assert len(names) == 6
        assert sorted(n for n in names if n in NAMES) == sorted(n for n in NAMES if n != "هادی")
        assert "هادی" not in page.inner_text("body")
        assert page.locator("#current-ratings tr.hidden-person").count() == 1
        # A name in its own script is one unit inside its cell: the link holds it whole.
        link = page.locator("#current-ratings a", has_text="محمدرضا حسین‌زاده")
        assert link.inner_text() == "محمدرضا حسین‌زاده"
        page.screenshot(path=str(SHOTS / f"lists-ratings-{language}-{width}.png"), full_page=True)
        page.goto(f"{live_url}/ratings/asia/{person}/")
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        assert page.locator("#person-history tbody tr").count() == 2
        page.screenshot(path=str(SHOTS / f"lists-person-{language}-{width}.png"), full_page=True)
