"""A person's page and the head-to-head page in Chromium, at 1280 and 390 px, with Persian and
Korean names, in English and in Persian (right to left): nothing wider than the screen but the
tables' own scrolling boxes, the chart drawn, the links there. Screenshots in /tmp."""

from __future__ import annotations

from pathlib import Path

import pytest

from tournament.exchange import tsh_io
from tournament.models import Player, Tournament

NAMES = ["رضا محمدی", "김민준", "Smith, John", "Doe, Jane"]


def _events(tmp_path: Path) -> tuple[int, int]:
    lines = {
        "one": [
            "رضا محمدی 1500 2 3; 400 377",
            "김민준 1450 1 4; 380 410",
            "Smith, John 1400 4 1; 350 402",
            "Doe, Jane 1300 3 2; 390 360",
        ],
        "two": [
            "Reza Mohammadi 1512 2 3; 455 390",
            "김민준 1460 1 4; 421 300",
            "Smith, John 1410 4 1; 333 420",
            "Doe, Jane 1310 3 2; 360 388",
        ],
        "three": [
            "رضا محمدی 1520 2 3; 502 368",
            "김민준 1470 1 4; 390 420",
            "Smith, John 1420 4 1; 410 380",
            "Doe, Jane 1320 3 2; 400 415",
        ],
    }
    for i, (slug, rows) in enumerate(lines.items()):
        path = tmp_path / slug / "A.t"
        path.parent.mkdir()
        path.write_text("\n".join(rows) + "\n", encoding="utf-8")
        tsh_io.import_tsh(path, slug=slug, name=f"جام {slug} 2026")
        Tournament.objects.filter(slug=slug).update(start_date=f"2026-0{i + 1}-01")
    reza = Player.objects.get(division__tournament__slug="one", number=1).person_id
    kim = Player.objects.get(division__tournament__slug="one", number=2).person_id
    return reza, kim


def _fits(page) -> bool:
    """Nothing sticks out of the page but a table in its own scrolling box."""
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("language", ["en", "fa"])
def test_a_person_and_a_head_to_head_in_chromium(live_url, page, tmp_path, width, language):
    reza, kim = _events(tmp_path)
    page.set_viewport_size({"width": width, "height": 900})
    page.context.add_cookies([{"name": "django_language", "value": language, "url": live_url}])
    page.goto(f"{live_url}/people/{reza}/")
    assert page.locator("h2").inner_text() == "رضا محمدی"
    assert page.locator("#events tbody tr").count() == 2  # "Reza Mohammadi" is another person
    assert page.locator(".rating-chart svg polyline").count() == 1
    box = page.locator(".rating-chart svg").bounding_box()
    assert box is not None and box["width"] <= width
    assert page.locator("#head-to-head tbody tr").count() == 2
    assert _fits(page)
    page.screenshot(path=f"/tmp/people-person-{language}-{width}.png", full_page=True)
    page.locator(f"#head-to-head a[href='/people/{reza}/vs/{kim}/']").click()
    page.wait_for_url(f"**/people/{reza}/vs/{kim}/")
    assert page.locator("#versus-games tbody tr").count() == 2
    assert _fits(page)
    page.screenshot(path=f"/tmp/people-versus-{language}-{width}.png", full_page=True)
    page.goto(f"{live_url}/people/?q=%EA%B9%80%EB%AF%BC%EC%A4%80")  # 김민준
    assert page.locator("#people tbody tr").count() == 1
    assert _fits(page)


@pytest.mark.parametrize("width", [1280, 390])
def test_a_director_confirms_merges_and_undoes_at_the_desk(live_url, page, tmp_path, width):
    from django.contrib.auth.models import User

    from tournament.models import Person

    reza, _ = _events(tmp_path)
    latin = Player.objects.get(division__tournament__slug="two", number=1).person_id
    from tournament.people.services import fold

    twin = Person.objects.create(name="김민준", key=fold("김민준"), club="Busan")
    extra = tmp_path / "four" / "A.t"
    extra.parent.mkdir()
    extra.write_text("김민준 1480 0; 50\n", encoding="utf-8")
    tsh_io.import_tsh(extra, slug="four", name="Four")
    User.objects.create_user("dora", password="dora-pass-2027", is_staff=True)
    page.set_viewport_size({"width": width, "height": 900})
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(f"{live_url}/accounts/login/")
    page.fill("input[name=username]", "dora")
    page.fill("input[name=password]", "dora-pass-2027")
    page.click("button[type=submit]")
    page.goto(f"{live_url}/desk/people/")
    assert page.locator("#unsure li").count() == 1
    assert _fits(page)
    page.screenshot(path=f"/tmp/people-desk-{width}.png", full_page=True)
    page.select_option("#unsure select", str(twin.pk))
    page.click("#unsure button[type=submit]")
    page.wait_for_load_state("networkidle")
    assert page.locator("#unsure li").count() == 0
    assert Player.objects.get(division__tournament__slug="four").person_id == twin.pk
    page.goto(f"{live_url}/desk/people/{reza}/")
    page.fill("#id_other", str(latin))
    page.click("form[action$='/merge/'] button[type=submit]")
    page.wait_for_load_state("networkidle")
    assert page.locator("#person-players li").count() == 3
    assert _fits(page)
    page.screenshot(path=f"/tmp/people-desk-person-{width}.png", full_page=True)
    page.goto(f"{live_url}/desk/people/")
    page.locator("#people-changes li").first.locator("button").click()
    page.wait_for_load_state("networkidle")
    assert Person.objects.filter(pk=latin).exists()
