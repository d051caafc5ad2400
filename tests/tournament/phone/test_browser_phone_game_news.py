"""Both players' phones at 390 pixels, in English and in Persian (right to left, a Persian and a
Korean name), each page open and never reloaded: two reports that disagree are on both phones,
each with the other's claim, and the desk's result then on both with who entered it; and a
sheet entered on the board is the player's report, recorded as the result with the opponent's
agreeing report, which the opponent's phone hears from its live feed.

Set SPREAD_SHOTS to a directory to keep screenshots of both phones."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from django.utils import translation
from django.utils.translation import gettext

SHOTS = os.environ.get("SPREAD_SHOTS")
NAMES = {"en": ("Ada Quill", "Ben Crane"), "fa": ("سارا احمدی", "김민준")}
DIRECTOR = {"en": ("Alice", "Marsh"), "fa": ("مریم", "کریمی")}
ISOLATES = re.compile("[\u2066-\u2069]")


def _said(language: str, text: str, **params: object) -> str:
    """A sentence as the reader sees it in `language` (the isolates are the page's bdi)."""
    with translation.override(language):
        return ISOLATES.sub("", gettext(text) % params if params else gettext(text))


def _setup(language: str):
    from tournament.models import Division, Game, Player, Round, Tournament
    from tournament.phone import services as phone

    tournament = Tournament.objects.create(name="Hall Open", slug="hall-open", language=language)
    division = Division.objects.create(tournament=tournament, name="A", self_report=True)
    one, two = (
        Player.objects.create(division=division, number=n, name=NAMES[language][n - 1])
        for n in (1, 2)
    )
    Round.objects.create(division=division, number=1, published=True)
    game = Game.objects.create(
        division=division, round=1, table=3, player1=one, player2=two, first=1
    )
    return division, game, phone.issue_link(one), phone.issue_link(two)


def _phone(page, url: str):
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(url)
    return page


def _report(page, mine: str, theirs: str) -> None:
    page.fill('input[name="my_score"]', mine)
    page.fill('input[name="opponent_score"]', theirs)
    page.locator("form.report button").click()
    page.wait_for_selector(".messages li")


def _text(page, selector: str) -> list[str]:
    return [" ".join(t.split()) for t in page.locator(selector).all_inner_texts()]


def _heard(page, selector: str, text: str) -> None:
    """Wait for the live feed (a poll every 3 s) to put `text` in the page, no reload."""
    page.wait_for_function(
        "([s, t]) => [...document.querySelectorAll(s)]"
        ".some(e => e.innerText.replace(/\\s+/g, ' ').trim() === t)",
        arg=[selector, text],
    )


def _fits(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    if page.locator("html").get_attribute("lang") == "fa":
        assert page.locator("html").get_attribute("dir") == "rtl"


def _shot(page, name: str) -> None:
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)


@pytest.mark.parametrize("language", ["en", "fa"])
def test_a_disagreement_is_on_both_phones_and_the_desks_result_then(
    live_url: str, page, language: str
) -> None:
    from django.contrib.auth.models import User

    from tournament.results import services as results

    division, game, one, two = _setup(language)
    first, second = NAMES[language]
    ada = _phone(page, f"{live_url}/p/{one}/")
    ben = _phone(page.context.browser.new_page(), f"{live_url}/p/{two}/")

    _report(ada, "420", "380")
    _report(ben, "390", "420")

    assert _text(ben, ".messages li") == [
        _said(
            language,
            "%(name)s reported %(scores)s: the desk will decide. You may change your report "
            "until then.",
            name=first,
            scores="420–380",
        )
    ]
    disagree = _said(
        language,
        "%(name)s reported %(scores)s: the desk will decide.",
        name=first,
        scores="420–380",
    )
    assert _text(ben, "p.claim") == [
        disagree,
        _said(
            language,
            "Your report: %(scores)s. You may change it until it is recorded.",
            scores="390–420",
        ),
    ]
    # Ada's page, open since her report, hears Ben's from its live feed.
    _heard(
        ada,
        "p.claim.disagree",
        _said(
            language,
            "%(name)s reported %(scores)s: the desk will decide.",
            name=second,
            scores="390–420",
        ),
    )
    for tab, name in ((ada, "ada"), (ben, "ben")):
        _fits(tab)
        _shot(tab, f"phone-disagree-{name}-{language}-390")

    director = User.objects.create_user(
        "marsh", first_name=DIRECTOR[language][0], last_name=DIRECTOR[language][1]
    )
    results.enter_line(division, 1, "1 420 2 390", director)

    recorded = _said(
        language,
        "Recorded: %(one)s %(score1)s – %(two)s %(score2)s",
        one=first,
        score1=420,
        two=second,
        score2=390,
    )
    by = _said(language, "Entered at the desk by %(name)s.", name=" ".join(DIRECTOR[language]))
    for tab, name in ((ada, "ada"), (ben, "ben")):
        _heard(tab, "p.result", recorded)
        _heard(tab, "p.recorded-by", by)
        assert tab.locator("form.report").count() == 0
        assert tab.locator(".messages").count() == 0  # what the report said holds no longer
        _fits(tab)
        _shot(tab, f"phone-settled-{name}-{language}-390")


def _square(page, name: str):
    return page.get_by_role("button", name=re.compile(rf"^{name}(,|$)"))


def _turns(page, count: int) -> None:
    page.wait_for_function(f"() => document.querySelectorAll('#be-turns li').length === {count}")


def _board_game(page, language: str) -> None:
    """`game_record`'s game tapped in: DJINN and WITHY, six passes, both racks left (20 to 24)."""

    def word(text: str) -> str:
        with translation.override(language):
            return gettext(text)

    _square(page, "8D").click()
    page.get_by_label(word("Word"), exact=True).fill("DJINN")
    page.wait_for_function("() => document.getElementById('be-preview').textContent.includes('30')")
    page.get_by_role("button", name=word("Add"), exact=True).click()
    _turns(page, 1)
    _square(page, "7I").click()
    page.get_by_role("button", name=word("Down"), exact=True).click()
    page.get_by_label(word("Word"), exact=True).fill("WITHY")
    page.wait_for_function("() => document.getElementById('be-preview').textContent.includes('33')")
    page.get_by_role("button", name=word("Add"), exact=True).click()
    _turns(page, 2)
    for n in range(3, 9):
        page.get_by_role("button", name=word("Pass"), exact=True).click()
        _turns(page, n)
    # The board asks for each rack left in turn, naming its player: Ada's AERSTUV, Ben's ABEEOST.
    second = _nicks(page)[1]
    for n in (9, 10):
        status = page.locator("#be-status").inner_text()
        left = "ABEEOST" if second in status else "AERSTUV"
        page.get_by_label(word("Tiles"), exact=True).fill(left)
        page.get_by_role("button", name=word("End of game"), exact=True).click()
        _turns(page, n)


def _nicks(page) -> list[str]:
    """The two players' nicks, as the record's header on the page has them."""
    header = page.locator("#id_gcg").input_value()
    return re.findall(r"^#player\d (\S+)", header, re.M)


@pytest.mark.parametrize("language", ["en", "fa"])
def test_a_board_entered_sheet_is_recorded_as_the_result_with_one_agreeing_report(
    live_url: str, page, language: str
) -> None:
    from tournament.models import Change, Claim, Game, Scoresheet

    division, game, one, two = _setup(language)
    first, second = NAMES[language]
    ben = _phone(page.context.browser.new_page(), f"{live_url}/p/{two}/")
    _report(ben, "24", "20")  # Ben reports first, typed
    ada = _phone(page, f"{live_url}/p/{one}/games/{game.pk}/sheet")

    _board_game(ada, language)
    _fits(ada)
    _shot(ada, f"phone-board-sheet-{language}-390")
    ada.get_by_role("button", name=_said(language, "Save"), exact=True).click()
    ada.wait_for_url(f"{live_url}/p/{one}/")

    assert _text(ada, ".messages li") == [
        " ".join(
            [
                _said(language, "Scoresheet saved: the engine found nothing wrong."),
                _said(language, "It is your report of the result: %(scores)s.", scores="20–24"),
                _said(language, "Both reports agree: the result is recorded."),
            ]
        )
    ]
    saved = Game.objects.get(pk=game.pk)
    assert (saved.score1, saved.score2) == (20, 24)
    assert list(
        Change.objects.filter(game=game, action="create").values_list("player__name", flat=True)
    ) == [first]
    assert not Claim.objects.exists() and Scoresheet.objects.get().flagged is False

    recorded = _said(
        language,
        "Recorded: %(one)s %(score1)s – %(two)s %(score2)s",
        one=first,
        score1=20,
        two=second,
        score2=24,
    )
    agreed = _said(language, "Both players' reports agreed.")
    _heard(ben, "p.result", recorded)  # Ben's page, open since his report
    _heard(ben, "p.recorded-by", agreed)
    assert _text(ada, "p.recorded-by") == [agreed]
    for tab, name in ((ada, "ada"), (ben, "ben")):
        _fits(tab)
        _shot(tab, f"phone-board-recorded-{name}-{language}-390")
