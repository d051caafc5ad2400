"""A scoresheet's findings on a phone (issue 13): on the public page and at the desk, every
finding is on the screen of a 390-pixel phone, not in a column scrolled off to the right."""

from __future__ import annotations

import io
import os
from pathlib import Path

from django.core.management import call_command

SHOTS = os.environ.get("SPREAD_SHOTS")


def _offscreen(page, selector: str) -> list[str]:
    """The texts of the elements matching `selector` that end right of the screen."""
    return page.evaluate(
        """sel => [...document.querySelectorAll(sel)]
            .filter(el => el.innerText.trim() && el.getBoundingClientRect().right > 390)
            .map(el => el.innerText.trim())""",
        selector,
    )


def test_the_findings_of_a_scoresheet_are_on_a_phone_screen(live_url: str, page) -> None:
    from tournament.models import Scoresheet
    from tournament.scoresheets import services as scoresheets

    call_command("loaddemo", stdout=io.StringIO())
    sheet = Scoresheet.objects.get(report__file="a2-cora-ada.gcg")
    scoresheets.release_scoresheet(sheet, None, "shown with its finding")

    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_url}/accounts/login/")
    page.fill("input[name=username]", "director")
    page.fill("input[name=password]", "spread-demo")
    page.click("button[type=submit], input[type=submit]")
    page.wait_for_url(f"{live_url}/desk/")
    for url in (f"/t/demo/scoresheet/{sheet.pk}/", f"/desk/demo/scoresheets/{sheet.pk}/"):
        page.goto(live_url + url)
        if SHOTS:
            name = url.strip("/").replace("/", "_")
            page.screenshot(path=str(Path(SHOTS) / f"{name}-390.png"), full_page=True)
        assert "wrong_total" in page.inner_text("body")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, url
        assert _offscreen(page, ".finding, .error, .warning, td.findings, li.error") == [], url
