"""The player's own scoresheet on a 390-pixel phone: a brand-new sheet says nothing is verified
yet, and every line of the check (the move, the scores, the findings) wraps on the screen,
nothing clipped or scrolled out of view."""

from __future__ import annotations

import io
import os
from pathlib import Path

from django.conf import settings
from django.core.management import call_command

SHOTS = os.environ.get("SPREAD_SHOTS")

# Every cell of the check that is shown, with what would be cut off: a cell whose content is
# wider than its box, or a box past either edge of the screen.
CLIPPED = """() => [...document.querySelectorAll('#sheet-lines th, #sheet-lines td')]
    .filter(c => c.offsetParent !== null)
    .filter(c => {
        const box = c.getBoundingClientRect();
        return c.scrollWidth > c.clientWidth || box.left < 0 || box.right > window.innerWidth;
    })
    .map(c => c.innerText.trim().slice(0, 60))"""


def test_the_phone_check_table_keeps_every_line_readable_at_390_px(live_url: str, page) -> None:
    from tournament.models import Game
    from tournament.phone import services as phone

    call_command("loaddemo", stdout=io.StringIO())
    game = Game.objects.select_related("player1", "player2").get(
        division__tournament__slug="demo", division__name="A", round=2, player1__name="Cora Vale"
    )
    opponent = game.player2
    opponent.name = "سارا احمدی"
    opponent.save()
    token = phone.issue_link(game.player1)
    record = (Path(settings.BASE_DIR) / "fixtures" / "demo" / "a2-cora-ada.gcg").read_text()
    # A line no space breaks, for the engine to refuse: it must wrap as well.
    record += ">Cora: " + "QUIXOTRY" * 8 + "\n"

    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_url}/p/{token}/games/{game.pk}/sheet")
    summary = page.locator("#sheet-summary")
    page.wait_for_function(
        "() => document.getElementById('sheet-summary').textContent"
        " !== 'Type a move to see it checked.'"
    )
    empty = summary.inner_text()
    shown_when_empty = page.evaluate("document.getElementById('sheet-lines').offsetParent")
    page.fill("#id_gcg", record)
    page.wait_for_function("() => document.querySelectorAll('#sheet-lines tbody tr').length >= 30")
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / "phone-sheet-check-390.png"), full_page=True)

    assert empty == "No moves yet: nothing is verified."
    assert shown_when_empty is None  # no table before the first move
    assert page.evaluate(CLIPPED) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    wrapper = page.evaluate(
        "(() => { const s = document.querySelector('.checked .scroll-x');"
        " return [s.scrollWidth, s.clientWidth]; })()"
    )
    assert wrapper[0] <= wrapper[1]
    rows = page.locator("#sheet-lines tbody tr")
    assert "the running total should be 38 + 27 = 65, not 75" in rows.nth(3).inner_text()
    last = rows.last.inner_text()
    assert "QUIXOTRY" * 8 in last.replace("\n", "")
