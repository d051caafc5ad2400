"""Board entry on a 390-pixel phone (issue 26): a whole real game of the corpus entered by
tapping the board (the square, Across or Down, the word; Pass, Exchange, Challenged off, the
challenge bonus, the end), saved, and the saved record verifies with the recorded final scores;
in English under the North American rules and in Persian under the international ones. Nothing
on the page is wider than the phone, and no turn of the list is clipped.

Set SPREAD_SHOTS to a directory to keep screenshots at 390 and 1280 pixels."""

from __future__ import annotations

import os
import re
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

# Every turn of the list, and every square, that is cut off or past the screen's edges.
CLIPPED = """() => [...document.querySelectorAll(
        '#be-turns .be-turn, #be-turns .be-turn > span, #be-turns .finding, .be-board .sq')]
    .filter(el => el.offsetParent !== null)
    .filter(el => {
        const box = el.getBoundingClientRect();
        return el.scrollWidth > el.clientWidth + 1 || box.left < 0 || box.right > window.innerWidth;
    })
    .map(el => el.innerText.trim().slice(0, 60) || el.getAttribute('aria-label'))"""


def _square(page, name: str):
    return page.get_by_role("button", name=re.compile(rf"^{name}(,|$)"))


def _typed(word: str, board: scoring.Board, row: int, col: int, across: bool, letters: bool) -> str:
    """The word as a player writes it: each blank as ? and its letter (the Word box takes
    letters in either case, so that case marks no blank); with `letters`, the tiles already
    on the board as their letters, else as `.`."""
    out = []
    for k, ch in enumerate(word):
        r, c = (row, col + k) if across else (row + k, col)
        if ch == "." and letters:
            out.append(board.at(r, c) or ".")
        elif ch.islower():
            out.append("?" + ch)
        else:
            out.append(ch)
    return "".join(out)


def _enter(page, record: bytes, rules: str, words: dict[str, str], letters: bool) -> int:
    """Tap the record's every turn in; the number of turns the list shows at the end."""
    parsed = gcg.parse(record)
    report = scoring.verify(record, rules=rules)
    canonical = report.canonical
    shown = 0
    ended = False
    for k, ev in enumerate(parsed.events):
        before = scoring.verify(record, rules=rules, upto=k).board
        if ev.kind == gcg.PLAY:
            pos = scoring.parse_position(ev.position)
            assert pos is not None
            word = canonical[ev.line][1]
            _square(page, f"{pos.row + 1}{chr(65 + pos.col)}").click()
            # The page guesses the direction from the tiles around the square: set it as recorded.
            wanted = page.get_by_role("button", name=words["Across" if pos.across else "Down"])
            if wanted.get_attribute("aria-pressed") != "true":
                wanted.click()
            page.get_by_label(words["Word"], exact=True).fill(
                _typed(word, before, pos.row, pos.col, pos.across, letters)
            )
            page.wait_for_function(
                "() => /\\d/.test(document.getElementById('be-preview').textContent)"
            )
            page.get_by_role("button", name=words["Add"], exact=True).click()
            shown += 1
        elif ev.kind == gcg.PASS:
            page.get_by_role("button", name=words["Pass"], exact=True).click()
            shown += 1
        elif ev.kind == gcg.EXCHANGE:
            tiles = str(ev.count) if ev.count is not None else ev.tiles
            page.get_by_label(words["Tiles"], exact=True).fill(tiles)
            page.get_by_role("button", name=words["Exchange"], exact=True).click()
            shown += 1
        elif ev.kind == gcg.PHONY:
            page.get_by_role("button", name=words["Challenged off"], exact=True).click()
            shown += 1
        elif ev.kind == gcg.CHALLENGE:
            page.locator("details.be-extra summary").click()
            page.get_by_role("button", name=words["Challenge bonus"], exact=True).click()
            page.locator("details.be-extra summary").click()
            shown += 1
        elif ev.kind in (gcg.END_POINTS, gcg.RACK_PENALTY):
            if ended:
                continue  # one tap wrote every end line the rules call for
            page.get_by_role("button", name=words["End of game"], exact=True).click()
            ended = True
            shown += sum(1 for e in parsed.events if e.kind in (gcg.END_POINTS, gcg.RACK_PENALTY))
        else:
            raise AssertionError(f"a turn this test does not tap in: {ev.kind}")
        page.wait_for_function(
            f"() => document.querySelectorAll('#be-turns li').length === {shown}"
        )
        # Nothing waits to be added: the last answer was taken.
        assert page.get_by_label(words["Word"], exact=True).input_value() == ""
    return shown


def _words(language: str) -> dict[str, str]:
    names = [
        "Across",
        "Down",
        "Add",
        "Pass",
        "Exchange",
        "Challenged off",
        "Undo",
        "Save",
        "Word",
        "Tiles",
        "Challenge bonus",
        "End of game",
    ]
    with translation.override(language):
        return {name: gettext(name) for name in names}


def _finals(record: bytes, rules: str) -> list[int]:
    return [p.final for p in scoring.verify(record, rules=rules).players]


@pytest.mark.parametrize(
    ("language", "corpus", "rules", "names", "letters"),
    [
        ("en", VS_JOSH, "naspa", ("Cesar Lopez", "Josh Sokol"), True),
        ("fa", FIVEPOINT, "wespa", ("گانش آسیرواتام", "پل کلیری"), False),
    ],
)
def test_a_whole_real_game_is_entered_by_tapping_and_saved_verified(
    live_url: str, page, language: str, corpus: str, rules: str, names, letters: bool
) -> None:
    from tournament.models import Scoresheet

    record = corpus_game(corpus)
    game, token = board_game("Board Open", language, rules, names)
    words = _words(language)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_url}/p/{token}/games/{game.pk}/sheet")
    if language != "en":
        assert words["Across"] != "Across"
        assert page.locator("html").get_attribute("dir") == "rtl"
    for name in ("Across", "Down", "Add", "Pass", "Exchange", "Challenged off", "Undo", "Save"):
        assert page.get_by_role("button", name=words[name], exact=True).count() == 1, name
    assert page.get_by_role("button", name=re.compile(r"^8H, ")).count() == 1
    assert _square(page, "1A").get_attribute("aria-label").startswith("1A, ")

    shown = _enter(page, record, rules, words, letters)

    turns = page.locator("#be-turns li")
    assert turns.count() == shown
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.evaluate(CLIPPED) == []
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / f"board-{language}-390.png"), full_page=True)
        page.set_viewport_size({"width": 1280, "height": 900})
        page.screenshot(path=str(Path(SHOTS) / f"board-{language}-1280.png"), full_page=True)
        page.set_viewport_size({"width": 390, "height": 844})
    with translation.override(language):
        verified = gettext("Verified: the engine finds nothing wrong.")
    assert page.locator("#be-summary").inner_text() == verified

    page.get_by_role("button", name=words["Save"], exact=True).click()
    page.wait_for_url(f"{live_url}/p/{token}/")
    sheet = Scoresheet.objects.get(game=game)
    saved = scoring.verify(sheet.gcg, rules=rules)
    assert saved.verified, [f.text() for f in saved.findings]
    assert [p.final for p in saved.players] == _finals(record, rules)
    assert [p.computed for p in saved.players] == _finals(record, rules)
    assert sheet.verified and sheet.sent_by == game.player1
    # Kept on the phone no longer: the sheet page starts from the saved sheet.
    assert (
        page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('spread-board:'))") == []
    )

    # Saving the same sheet again changes nothing.
    changes = game.division.tournament.changes.count()
    page.goto(f"{live_url}/p/{token}/games/{game.pk}/sheet")
    assert page.locator("#be-turns li").count() == shown
    page.get_by_role("button", name=words["Save"], exact=True).click()
    page.wait_for_url(f"{live_url}/p/{token}/")
    assert Scoresheet.objects.get(game=game).gcg == sheet.gcg
    assert game.division.tournament.changes.count() == changes


def test_a_half_entered_sheet_survives_a_reload_and_undo_takes_a_turn_back(
    live_url: str, page
) -> None:
    game, token = board_game("Board Open", "en", "naspa", ("Ada Quill", "Ben Crane"))
    words = _words("en")
    page.set_viewport_size({"width": 390, "height": 844})
    url = f"{live_url}/p/{token}/games/{game.pk}/sheet"
    page.goto(url)
    _square(page, "8D").click()
    page.get_by_label("Word", exact=True).fill("DJINN")
    page.wait_for_function("() => document.getElementById('be-preview').textContent.includes('30')")
    assert "Bingo" not in page.locator("#be-preview").inner_text()
    page.get_by_role("button", name="Add", exact=True).click()
    page.wait_for_function("() => document.querySelectorAll('#be-turns li').length === 1")
    _square(page, "1A").click()
    page.get_by_label("Word", exact=True).fill("QI")
    page.get_by_role("button", name="Add", exact=True).click()
    page.wait_for_function(
        "() => document.getElementById('be-preview').getAttribute('role') === 'alert'"
    )
    assert page.locator("#be-preview").inner_text() == (
        "Not added: QI at 1A does not touch any tile on the board."
    )
    assert page.locator("#be-turns li").count() == 1

    # Ben went first after all: the players change places, and the turn is his.
    page.get_by_label("First to play").select_option("Ben")
    page.wait_for_function(
        "() => document.getElementById('be-status').textContent"
        " === 'Turn 2: \u2068Ada\u2069 to play.'"
    )
    assert "Ben" in page.locator("#be-turns li").first.inner_text()

    page.reload()  # a dropped connection, a closed tab: the turn is still there
    page.wait_for_function("() => document.querySelectorAll('#be-turns li').length === 1")
    assert "8D DJINN" in page.locator("#be-turns li").first.inner_text()
    assert page.get_by_label("First to play").input_value() == "Ben"
    assert _square(page, "8D").get_attribute("aria-label") == "8D, D"
    page.get_by_role("button", name=words["Undo"], exact=True).click()
    page.wait_for_function("() => document.querySelectorAll('#be-turns li').length === 0")
    assert _square(page, "8D").get_attribute("aria-label") == "8D, double letter"


def test_the_desk_enters_a_sheet_on_its_typing_page_and_saves_it(live_url: str, page) -> None:
    from django.contrib.auth.models import User

    from tournament.models import Scoresheet

    game, _token = board_game("Board Open", "en", "naspa", ("Ada Quill", "Ben Crane"))
    director = User.objects.create_user("director", password="board-entry")
    game.division.tournament.directors.add(director)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{live_url}/accounts/login/")
    page.fill("input[name=username]", "director")
    page.fill("input[name=password]", "board-entry")
    page.click("button[type=submit], input[type=submit]")
    page.wait_for_url(f"{live_url}/desk/")
    page.goto(f"{live_url}/desk/board-open/games/{game.pk}/scoresheet/")
    _square(page, "8D").click()
    page.get_by_label("Word", exact=True).fill("DJINN")
    page.get_by_role("button", name="Add", exact=True).click()
    page.wait_for_function("() => document.querySelectorAll('#be-turns li').length === 1")
    assert page.locator("#be-preview").inner_text() == "Added: 8D DJINN +30."
    _square(page, "7I").click()
    page.get_by_role("button", name="Down", exact=True).click()
    page.get_by_label("Word", exact=True).fill("WITHY")
    page.get_by_label("Your score, if not the engine's").fill("35")
    page.get_by_role("button", name="Add", exact=True).click()
    page.wait_for_function("() => document.querySelectorAll('#be-turns li').length === 2")
    second = page.locator("#be-turns li").nth(1).inner_text()
    assert "I7 WITHY" in second and "+35 (engine 33)" in second
    assert "WITHY at I7 scores 33, not 35" in second
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / "board-desk-1280.png"), full_page=True)
        page.set_viewport_size({"width": 390, "height": 844})
        page.screenshot(path=str(Path(SHOTS) / "board-desk-390.png"), full_page=True)
    # The first turn changed: the second is placed and scored again after it.
    page.locator("#be-turns .be-turn").first.click()
    page.get_by_label("Word", exact=True).fill("DJINNI")
    page.get_by_role("button", name="Add", exact=True).click()
    page.wait_for_function(
        "() => document.querySelector('#be-turns li:nth-child(2)').innerText.includes('W.THY')"
    )
    assert "8D DJINNI +32 32 – 0" in " ".join(
        page.locator("#be-turns li").first.inner_text().split()
    )
    page.get_by_role("button", name="Save", exact=True).click()
    page.wait_for_url(re.compile(r".*/desk/board-open/scoresheets/\d+/$"))
    sheet = Scoresheet.objects.get(game=game)
    assert sheet.gcg.splitlines()[2:] == [">Ada: 8D DJINNI +32 32", ">Ben: I7 W.THY +35 35"]
    assert sheet.uploaded_by == director
