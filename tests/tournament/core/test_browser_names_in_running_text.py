"""Names in any script stay whole in running text, as Chromium lays them out: a Persian and a
Hebrew player's result on an English phone page reads in the order it was written, each name
between the words before and after it, and a Latin name on a Persian page keeps its "(first)"
after it, at a desk's width and a phone's. The same text written without the isolates (as the
pages wrote it before) comes out reordered: the checks can fail.

Set SPREAD_SCREENSHOTS to a directory to keep the screenshots (they go to pytest's tmp_path
otherwise)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
pytestmark = [
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed"),
]

SARA, DAVID, MINJUN, ADA = "سارا احمدی", "דוד כהן", "김민준", "Ada Quill"

# Each piece of an element's text, in the order written, with where Chromium drew it: the
# pieces are found in the element's text as read (its text nodes in order), each measured with
# a Range over its own characters (the first box of a piece broken over two lines).
PLACES = """([element, pieces]) => {
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    const nodes = [];
    let text = "";
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        nodes.push([node, text.length]);
        text += node.data;
    }
    function at(offset) {
        let found = nodes[0];
        for (const entry of nodes) { if (entry[1] <= offset) found = entry; }
        return [found[0], offset - found[1]];
    }
    let from = 0;
    return pieces.map(piece => {
        const start = text.indexOf(piece, from);
        if (start < 0) return null;
        from = start + piece.length;
        const range = document.createRange();
        const [startNode, startOffset] = at(start);
        const [endNode, endOffset] = at(from - 1);
        range.setStart(startNode, startOffset);
        range.setEnd(endNode, endOffset + 1);
        const box = range.getClientRects()[0];
        return {piece, x: box.x, right: box.right, top: box.top, bottom: box.bottom};
    });
}"""


def _shots(tmp_path: Path) -> Path:
    where = Path(os.environ.get("SPREAD_SCREENSHOTS") or tmp_path)
    where.mkdir(parents=True, exist_ok=True)
    return where


def _in_reading_order(places: list[dict], rtl: bool = False) -> bool:
    """Each piece after the one before it: further on in the line's direction (right on a
    left-to-right page, left on a right-to-left one), or on a line below."""
    for before, after in zip(places, places[1:], strict=False):
        same_line = abs(after["top"] - before["top"]) < 2
        further = (
            after["right"] <= before["x"] + 0.5 if rtl else after["x"] >= before["right"] - 0.5
        )
        if same_line and not further:
            return False
        if not same_line and after["top"] < before["bottom"] - 2:
            return False
    return True


def _bare(page, element, text: str, pieces: list[str]) -> list[dict]:
    """Where `pieces` are drawn in a copy of `element` holding `text` as plain text, the copy
    put after it (and removed)."""
    page.evaluate(
        """([element, text]) => {
            const bare = element.cloneNode(false);
            bare.id = "bare"; bare.textContent = text;
            element.after(bare);
        }""",
        [element, text],
    )
    places = page.evaluate(PLACES, [page.locator("#bare").element_handle(), pieces])
    page.evaluate("document.getElementById('bare').remove()")
    return places


def _a_result_between_a_persian_and_a_hebrew_player() -> tuple[str, str]:
    """A tournament of players in four scripts, round 1 published: Sara's result against David
    recorded, Ada to go first against Korean Min-jun. Returns David's and Min-jun's links."""
    from tournament.models import Division, Game, Player, Round, Tournament
    from tournament.phone import services as phone

    tournament = Tournament.objects.create(name="Spring Open", slug="spring-open")
    division = Division.objects.create(tournament=tournament, name="A", self_report=True)
    sara, david, minjun, ada = (
        Player.objects.create(division=division, number=n, name=name)
        for n, name in enumerate((SARA, DAVID, MINJUN, ADA), start=1)
    )
    Game.objects.create(
        division=division, round=1, table=1, player1=sara, player2=david, first=1,
        score1=300, score2=500,
    )  # fmt: skip
    Game.objects.create(division=division, round=1, table=2, player1=ada, player2=minjun, first=1)
    Round.objects.create(division=division, number=1, published=True)
    return phone.issue_link(david), phone.issue_link(minjun)


def test_a_result_line_keeps_each_name_between_its_neighbours_at_both_widths(
    live_url: str, page, tmp_path
) -> None:
    token, _ = _a_result_between_a_persian_and_a_hebrew_player()
    shots = _shots(tmp_path)
    pieces = ["Recorded:", SARA, "300", "–", DAVID, "500"]
    for width, height in ((1280, 900), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"{live_url}/p/{token}/")
        assert page.evaluate("document.documentElement.lang") == "en"
        line = page.locator("p.result")
        assert line.inner_text() == f"Recorded: {SARA} 300 – {DAVID} 500"
        places = page.evaluate(PLACES, [line.element_handle(), pieces])
        assert [p["piece"] for p in places] == pieces
        assert _in_reading_order(places), places
        # The names' own boxes lie between the words written before and after them.
        boxes = [line.locator("bdi").nth(i).bounding_box() for i in range(4)]
        sara, first_score, david, second_score = boxes
        assert sara is not None and first_score is not None
        assert david is not None and second_score is not None
        if abs(sara["y"] - second_score["y"]) < 2:  # one line
            assert places[0]["right"] <= sara["x"] < first_score["x"]
            assert first_score["x"] < david["x"] < second_score["x"]
        # The same sentence as plain text, as the page wrote it before: Chromium reorders it.
        bare = _bare(page, line.element_handle(), line.inner_text(), pieces)
        assert not _in_reading_order(bare), bare
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.screenshot(path=str(shots / f"phone-names-en-{width}.png"), full_page=True)


def test_a_latin_name_on_a_persian_page_keeps_its_first_after_it_at_both_widths(
    live_url: str, page, tmp_path
) -> None:
    tokens = _a_result_between_a_persian_and_a_hebrew_player()
    shots = _shots(tmp_path)
    page.context.add_cookies([{"name": "django_language", "value": "fa", "url": live_url}])
    first = "(نفر اول)"
    for width, height in ((1280, 900), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"{live_url}/t/spring-open/A/round/1/")
        assert page.evaluate("getComputedStyle(document.documentElement).direction") == "rtl"
        # Round 1 by table, table 2: Ada, to go first, against Min-jun.
        row = page.locator("table.data").first.locator("tbody tr").nth(1)
        cell = row.locator("td").nth(1)
        assert cell.inner_text() == f"{ADA} {first}"
        places = page.evaluate(PLACES, [cell.element_handle(), [ADA, first]])
        assert _in_reading_order(places, rtl=True), places
        # Without the isolate the cell reads from its first letter, Latin: "(first)" comes
        # first for a reader from the right.
        bare = _bare(page, cell.element_handle(), cell.inner_text(), [ADA, first])
        assert not _in_reading_order(bare, rtl=True), bare
        # Sara's Persian name keeps its "(first)" after it too.
        sara = row.locator("xpath=preceding-sibling::tr[1]").locator("td").nth(1)
        assert sara.inner_text() == f"{SARA} {first}"
        assert _in_reading_order(
            page.evaluate(PLACES, [sara.element_handle(), [SARA, first]]), rtl=True
        )
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.screenshot(path=str(shots / f"pairings-names-fa-{width}.png"), full_page=True)
        # A cell of a number and a name reads from the right whatever the name's script: the
        # opponent's number, then their name (David's phone: 1 Sara; Min-jun's: 4 Ada).
        for token, number, name in ((tokens[0], "1", SARA), (tokens[1], "4", ADA)):
            page.goto(f"{live_url}/p/{token}/")
            cell = page.locator("table.phone-games tbody tr").first.locator("td").nth(1)
            assert cell.inner_text() == f"{number} {name}"
            places = page.evaluate(PLACES, [cell.element_handle(), [number, name]])
            assert _in_reading_order(places, rtl=True), places
            page.screenshot(path=str(shots / f"phone-fa-{number}-{width}.png"), full_page=True)
