"""Board entry by thumb (issue 39): a whole real game of the corpus entered on a 390 x 844
phone by touch (`has_touch`, `.tap()`), in English and in Persian. Every square tapped to be
chosen is at least 44 x 44 CSS pixels at that moment (a tap on the whole board first brings
its part closer); with the viewport at 390 x 500 once the square is chosen (an on-screen
keyboard's share taken), the square and the Word box are both inside it; the letters are
typed (in capitals in English, in small letters in Persian: either case is the same tile), a
blank after a tap on Blank, and Enter adds each turn. The saved record verifies with the
recorded final scores. The taps are counted and printed, with the seconds a play takes
(`-s` shows them): the figure to compare with the 3.5 taps a play of the page before.

The Persian game's first player has a Persian nickname: the phone sheet's checked lines show
its moves left to right, the nickname isolated, in that order on the screen.
Set SPREAD_SHOTS to a directory to keep screenshots at 390 and 1280 pixels."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pytest
from browser_support import board_game
from django.utils import translation
from django.utils.translation import gettext
from scoring_support import corpus_game

import scoring
from scoring import gcg

SHOTS = os.environ.get("SPREAD_SHOTS")
VS_JOSH = "liwords/pkg__omgwords__testdata__vs_josh.gcg"  # NASPA: phony, exchanges, a pass
FIVEPOINT = "quackle/test__positions__fivepoint.gcg"  # WESPA: a challenge bonus, 1x rack ends
TARGET = 44
PHONE = {"width": 390, "height": 844}
KEYBOARD_UP = {"width": 390, "height": 500}

# The chosen square and the Word box, each wholly inside what the screen shows.
IN_VIEW = """([name]) => {
    const vv = window.visualViewport, top = vv.offsetTop, bottom = vv.offsetTop + vv.height;
    const inside = el => {
        const b = el.getBoundingClientRect();
        return b.top >= top && b.bottom <= bottom;
    };
    const sq = [...document.querySelectorAll('.be-board .sq')]
        .find(s => s.dataset.label.split(',')[0] === name);
    return inside(sq) && inside(document.getElementById('be-word'));
}"""


# The preview answered for this word (and, given, this direction).
PREVIEWED = """([word, across]) => {
    const shown = document.getElementById('be-preview').dataset;
    return shown.word === word && (across === null || shown.across === across);
}"""


def _words(language: str) -> dict[str, str]:
    names = ["Across", "Down", "Blank", "Pass", "Exchange", "Challenged off", "Save", "Tiles"]
    names += ["Challenge bonus", "End of game", "Verified: the engine finds nothing wrong."]
    with translation.override(language):
        return {name: gettext(name) for name in names}


def _square(page, name: str):
    return page.get_by_role("button", name=re.compile(rf"^{name}(,|$)"))


def _in_view(page, locator) -> bool:
    """Wholly inside the screen: tapped where it is, no scrolling first."""
    box = locator.bounding_box()
    size = page.viewport_size
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= size["height"]


def _tiles(word: str, board: scoring.Board, row: int, col: int, across: bool):
    """The record's word as a player types it: each tile already on the board as its letter,
    each blank (lower case in the record) as (True, letter)."""
    for k, ch in enumerate(word):
        r, c = (row, col + k) if across else (row + k, col)
        if ch == ".":
            yield False, (board.at(r, c) or ".").upper()
        else:
            yield ch.islower(), ch.upper()


class Count:
    """The taps a play took: to bring the board closer, to choose the square, to turn the
    direction the page took, to mark a blank; the keys (letters and Enter), the seconds."""

    def __init__(self) -> None:
        self.plays = self.keys = self.other_taps = 0
        self.taps = {"closer": 0, "choose": 0, "turn": 0, "blank": 0}
        self.seconds = 0.0

    def line(self) -> str:
        plays = self.plays
        taps = sum(self.taps.values())
        each = ", ".join(f"{k} {v / plays:.2f}" for k, v in self.taps.items())
        return (
            f"{plays} plays: {taps / plays:.2f} taps a play ({each}), "
            f"{self.keys / plays:.1f} keys a play (letters and Enter), "
            f"{self.seconds / plays:.2f} s a play; {self.other_taps} taps for the other turns"
        )


def _play(page, words, count: Count, name: str, wanted: str, tiles, small: bool) -> None:
    started = time.perf_counter()
    square = _square(page, name)
    taps = count.taps
    box = square.bounding_box()
    if box["width"] < TARGET:
        assert _in_view(page, square), name
        square.tap()  # the whole board: its part around the square comes closer
        taps["closer"] += 1
        page.wait_for_selector(".be-board.zoomed")
        box = square.bounding_box()
    assert box["width"] >= TARGET and box["height"] >= TARGET, (name, box)
    assert _in_view(page, square), name
    square.tap()
    taps["choose"] += 1
    page.set_viewport_size(KEYBOARD_UP)
    page.wait_for_function(IN_VIEW, arg=[name])
    keys = 0
    for blank, letter in tiles:
        if blank:
            page.get_by_role("button", name=words["Blank"], exact=True).tap()
            taps["blank"] += 1
        page.keyboard.type(letter.lower() if small else letter)
        keys += len(letter)
    # The preview of the whole word, in the direction the page takes (the one that stands,
    # or the one the tiles around the square suggest): tapped only where it is not the record's.
    typed = "".join(("?" if blank else "") + letter for blank, letter in tiles)
    page.wait_for_function(PREVIEWED, arg=[typed, None])
    button = page.get_by_role("button", name=words[wanted], exact=True)
    if button.get_attribute("aria-pressed") != "true":
        square.tap()  # the chosen square again: the other direction
        taps["turn"] += 1
        page.wait_for_function(PREVIEWED, arg=[typed, str(wanted == "Across").lower()])
        assert button.get_attribute("aria-pressed") == "true"
    if SHOTS and count.plays == 6:  # the zoomed board, the word typed, the keyboard's share taken
        language = page.locator("html").get_attribute("lang")
        page.screenshot(path=str(Path(SHOTS) / f"thumb-{language}-390x500-typing.png"))
    shown = page.locator("#be-turns li").count()
    page.keyboard.press("Enter")
    keys += 1
    page.wait_for_function(f"() => document.querySelectorAll('#be-turns li').length > {shown}")
    assert page.locator("#be-word").input_value() == ""
    page.set_viewport_size(PHONE)
    count.plays += 1
    count.keys += keys
    count.seconds += time.perf_counter() - started


def _tap(page, words, count: Count, name: str) -> None:
    page.get_by_role("button", name=words[name], exact=True).tap()
    count.other_taps += 1


def _enter(page, record: bytes, rules: str, words, small: bool) -> Count:
    parsed = gcg.parse(record)
    canonical = scoring.verify(record, rules=rules).canonical
    count = Count()
    ended = False
    for k, ev in enumerate(parsed.events):
        shown = page.locator("#be-turns li").count()
        if ev.kind == gcg.PLAY:
            pos = scoring.parse_position(ev.position)
            assert pos is not None
            before = scoring.verify(record, rules=rules, upto=k).board
            tiles = list(_tiles(canonical[ev.line][1], before, pos.row, pos.col, pos.across))
            name = f"{pos.row + 1}{chr(65 + pos.col)}"
            _play(page, words, count, name, "Across" if pos.across else "Down", tiles, small)
            continue
        if ev.kind == gcg.PASS:
            _tap(page, words, count, "Pass")
        elif ev.kind == gcg.EXCHANGE:
            page.get_by_label(words["Tiles"], exact=True).tap()
            page.keyboard.type(str(ev.count) if ev.count is not None else ev.tiles)
            count.other_taps += 1
            _tap(page, words, count, "Exchange")
        elif ev.kind == gcg.PHONY:
            _tap(page, words, count, "Challenged off")
        elif ev.kind == gcg.CHALLENGE:
            page.locator("details.be-extra summary").tap()  # left open: the board comes back
            _tap(page, words, count, "Challenge bonus")
            count.other_taps += 1
        elif ev.kind in (gcg.END_POINTS, gcg.RACK_PENALTY):
            if ended:
                continue  # one tap wrote every end line the rules call for
            _tap(page, words, count, "End of game")
            ended = True
        else:
            raise AssertionError(f"a turn this test does not tap in: {ev.kind}")
        page.wait_for_function(f"() => document.querySelectorAll('#be-turns li').length > {shown}")
    return count


@pytest.mark.parametrize(
    ("language", "corpus", "rules", "names", "small"),
    [
        ("en", VS_JOSH, "naspa", ("김민준", "Josh Sokol"), False),
        ("fa", FIVEPOINT, "wespa", ("سارا احمدی", "پل کلیری"), True),
    ],
)
def test_a_whole_real_game_is_entered_by_thumb_in_two_taps_a_play(
    live_url: str, touch_page, language: str, corpus: str, rules: str, names, small: bool
) -> None:
    from tournament.models import Scoresheet

    page = touch_page
    record = corpus_game(corpus)
    game, token = board_game("Thumb Open", language, rules, names)
    words = _words(language)
    page.goto(f"{live_url}/p/{token}/games/{game.pk}/sheet")
    started = time.perf_counter()
    count = _enter(page, record, rules, words, small)
    whole = time.perf_counter() - started
    assert (
        page.locator("#be-summary").inner_text()
        == words["Verified: the engine finds nothing wrong."]
    )
    print(f"\n{language} {corpus.split('/')[-1]}: {count.line()}; the whole game {whole:.0f} s")
    # Two taps a play (the board closer, the square), and a few more where the page's direction
    # was not the record's or a blank was marked: never more than 2.25 a play on these games.
    assert count.taps["choose"] == count.plays
    assert sum(count.taps.values()) <= 2.25 * count.plays
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / f"thumb-{language}-390.png"), full_page=True)
        page.set_viewport_size({"width": 1280, "height": 900})
        page.screenshot(path=str(Path(SHOTS) / f"thumb-{language}-1280.png"), full_page=True)
        page.set_viewport_size(PHONE)

    page.get_by_role("button", name=words["Save"], exact=True).tap()
    page.wait_for_url(f"{live_url}/p/{token}/")
    sheet = Scoresheet.objects.get(game=game)
    saved = scoring.verify(sheet.gcg, rules=rules)
    recorded = [p.final for p in scoring.verify(record, rules=rules).players]
    assert saved.verified, [f.text() for f in saved.findings]
    assert [p.final for p in saved.players] == recorded
    assert [p.computed for p in saved.players] == recorded

    # The phone sheet's checked lines: a move's line left to right, its nickname isolated, and
    # on the screen in that order: ">", the nickname, then the square.
    nick = re.search(r"^#player1 (\S+)", sheet.gcg, re.M).group(1)
    first = next(line for line in sheet.gcg.splitlines() if line.startswith(f">{nick}:"))
    page.goto(f"{live_url}/p/{token}/games/{game.pk}/sheet")
    # A turn of the saved sheet changed on the board: its blank after ?, whatever the case.
    k, blank = next(
        (k, t) for k, t in enumerate(saved.turns) if t.word and t.word.upper() != t.word
    )
    page.locator("#be-turns .be-turn").nth(k).tap()
    assert page.locator("#be-word").input_value() == "".join(
        f"?{ch.upper()}" if ch.islower() else ch for ch in blank.word
    )
    line = page.locator("#sheet-lines bdi.gcg-line").filter(has_text=first[len(nick) + 3 :]).first
    line.wait_for()
    assert line.evaluate("el => el.outerHTML") == (
        f'<bdi dir="ltr" class="gcg-line">&gt;<bdi>{nick}</bdi>{first[len(nick) + 1 :]}</bdi>'
    )
    left = line.evaluate(
        """el => {
            const range = document.createRange(), at = (node, k) => {
                range.setStart(node, k); range.setEnd(node, k + 1);
                return range.getBoundingClientRect().left; };
            const nick = el.querySelector('bdi').getBoundingClientRect();
            return [at(el.firstChild, 0), nick.left, nick.right, at(el.lastChild, 2)];
        }"""
    )
    assert left[0] < left[1] < left[2] <= left[3], left


def test_a_landscape_phone_chooses_at_once_and_a_spanish_digraph_is_typed_as_its_tile_set(
    live_url: str, touch_page
) -> None:
    """On a landscape phone the squares are a thumb's already: a tap chooses. The Spanish CH
    is typed as the tile set writes it, in either case, one tile; Blank, or a tap on a letter
    of the word under the box, makes it a blank (and a tap again a tile)."""
    page = touch_page
    game, token = board_game("Thumb Open", "en", "wespa", ("Ana Ruiz", "Bea Sol"))
    game.division.tile_set = "spanish"
    game.division.save()
    page.set_viewport_size({"width": 844, "height": 390})
    page.goto(f"{live_url}/p/{token}/games/{game.pk}/sheet")
    square = _square(page, "8H")
    box = square.bounding_box()
    assert box["width"] >= TARGET and box["height"] >= TARGET, box
    square.tap()
    assert page.locator(".be-board.zoomed").count() == 0
    assert page.locator("#be-square").inner_text() == "8H"
    page.keyboard.type("chico")
    assert page.locator("#be-word").input_value() == "CHICO"
    page.wait_for_function(PREVIEWED, arg=["CHICO", "true"])
    assert page.locator("#be-preview").inner_text().startswith("[CH]ICO at 8H scores 20.")
    assert page.locator("#be-letters button").all_inner_texts() == ["CH", "I", "C", "O"]

    page.locator("#be-letters button").first.tap()  # CH: a blank
    assert page.locator("#be-word").input_value() == "?[CH]ICO"
    page.wait_for_function(PREVIEWED, arg=["?[CH]ICO", "true"])
    assert page.locator("#be-preview").inner_text().startswith("[ch]ICO at 8H scores 10.")
    page.locator("#be-letters button").first.tap()  # a tile again
    assert page.locator("#be-word").input_value() == "CHICO"

    page.locator("#be-word").fill("")
    page.get_by_role("button", name="Blank", exact=True).tap()
    assert page.get_by_role("button", name="Blank", exact=True).get_attribute("aria-pressed") == (
        "true"
    )
    page.keyboard.type("ChIco")
    assert page.locator("#be-word").input_value() == "?CHICO"
    page.wait_for_function(PREVIEWED, arg=["?[CH]ICO", "true"])
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.querySelectorAll('#be-turns li').length === 1")
    assert "8H [ch]ICO +10" in " ".join(page.locator("#be-turns li").inner_text().split())

    # Upright, the squares are small: a tap brings the part closer, Whole board takes it back.
    page.set_viewport_size(PHONE)
    square = _square(page, "9I")
    assert square.bounding_box()["width"] < TARGET
    square.tap()
    page.wait_for_selector(".be-board.zoomed")
    assert page.locator("#be-square").inner_text() == "–"  # nothing chosen
    assert page.locator(".be-board .sq:visible").count() == 49
    assert square.bounding_box()["width"] >= TARGET
    page.get_by_role("button", name="Whole board", exact=True).tap()
    assert page.locator(".be-board.zoomed").count() == 0
    assert page.locator(".be-board .sq:visible").count() == 225

    # Two fingers pinching the closer part in take it back too.
    square.tap()
    page.wait_for_selector(".be-board.zoomed")
    box = page.locator("#be-board").bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    cdp = page.context.new_cdp_session(page)
    for kind, apart in (("touchStart", 120), ("touchMove", 90), ("touchMove", 40)):
        points = [{"x": x - apart / 2, "y": y}, {"x": x + apart / 2, "y": y}]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    page.wait_for_function("() => !document.querySelector('.be-board.zoomed')")
    assert page.locator("#be-square").inner_text() == "–"
