"""Every public page in the five languages: the right `lang` and `dir`, the language chosen as the
precedence says (the switcher's cookie, the tournament's default, Accept-Language, English), and
no English word of the interface left on a page in another language.

The pages are the demo tournament's (`manage.py loaddemo`): two divisions, published rounds,
scoresheets, a player's phone page and the hall display.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import translation
from po_support import parse

from tournament.models import Division, Player, Scoresheet, Tournament
from tournament.phone import services as phones

LOCALE = Path(settings.BASE_DIR) / "locale"
LANGUAGES = [code for code, _name in settings.LANGUAGES]
OTHERS = [code for code in LANGUAGES if code != "en"]
COOKIE = settings.LANGUAGE_COOKIE_NAME


@pytest.fixture
def demo(db: None) -> Tournament:
    call_command("loaddemo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    return Tournament.objects.get(slug="demo")


def public_pages(tournament: Tournament) -> dict[str, str]:
    """Every public HTML page, by URL name (the public, phone and API addresses that
    tournament/urls.py composes, and the login page): the pages a visitor, a player or the
    hall sees."""
    slug = tournament.slug
    division = Division.objects.get(tournament=tournament, name="A")
    player = Player.objects.get(division=division, number=1)
    sheet = Scoresheet.objects.filter(game__division=division, game__player1=player).first()
    assert sheet is not None
    token = phones.issue_link(player)
    return {
        "home": reverse("home"),
        "tournament": reverse("tournament", args=[slug]),
        "high-plays": reverse("high-plays", args=[slug]),
        "scoresheet": reverse("scoresheet", args=[slug, sheet.pk]),
        "standings": reverse("standings", args=[slug, division.name]),
        "pairings": reverse("pairings", args=[slug, division.name, 1]),
        "player": reverse("player", args=[slug, division.name, 1]),
        "crosstable": reverse("crosstable", args=[slug, division.name]),
        "ratings": reverse("ratings", args=[slug, division.name]),
        "statistics": reverse("statistics", args=[slug, division.name]),
        "playoff": reverse("playoff", args=[slug, division.name]),
        "display": reverse("display", args=[slug, division.name]),
        "phone": reverse("phone", args=[token]),
        "phone-sheet": reverse("phone-sheet", args=[token, sheet.game_id]),
        "login": reverse("login"),
    }


def html_tag(page: str) -> str:
    found = re.search(r"<html[^>]*>", page)
    assert found, "no <html> element"
    return found.group(0)


# -- every page in every language -------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_public_page_answers_in_the_language_chosen_with_its_lang_and_direction(
    demo: Tournament, language: str
) -> None:
    client = Client()
    client.cookies[COOKIE] = language
    direction = "rtl" if language == "fa" else "ltr"
    for name, url in public_pages(demo).items():
        response = client.get(url)
        assert response.status_code == 200, (name, language)
        assert html_tag(response.content.decode()) == (
            f'<html lang="{language}" dir="{direction}">'
        ), name
        assert response["Content-Language"] == language, name


def test_accept_language_chooses_when_the_visitor_did_not(demo: Tournament) -> None:
    for language in LANGUAGES:
        page = Client(HTTP_ACCEPT_LANGUAGE=f"{language},en;q=0.5").get(reverse("home"))
        assert f'<html lang="{language}"' in page.content.decode()
    assert '<html lang="en" dir="ltr">' in Client().get(reverse("home")).content.decode()


def test_a_tournament_s_default_language_comes_between_the_visitor_s_choice_and_the_browser(
    demo: Tournament,
) -> None:
    demo.language = "fi"
    demo.save(update_fields=["language"])
    standings = public_pages(demo)["standings"]

    def lang_of(client: Client) -> str:
        return html_tag(client.get(standings).content.decode())

    # The browser asks for Korean, the tournament speaks Finnish: Finnish.
    assert lang_of(Client(HTTP_ACCEPT_LANGUAGE="ko")) == '<html lang="fi" dir="ltr">'
    # The visitor chose Persian with the switcher: Persian, over both.
    chose = Client(HTTP_ACCEPT_LANGUAGE="ko")
    chose.cookies[COOKIE] = "fa"
    assert lang_of(chose) == '<html lang="fa" dir="rtl">'
    # The cached page is kept once per language: the Finnish one is still Finnish.
    assert lang_of(Client()) == '<html lang="fi" dir="ltr">'
    # Pages that belong to no tournament follow the browser.
    home = Client(HTTP_ACCEPT_LANGUAGE="ko").get(reverse("home")).content.decode()
    assert '<html lang="ko" dir="ltr">' in home
    # Without a default, the browser's language again.
    demo.language = ""
    demo.save(update_fields=["language"])
    assert lang_of(Client(HTTP_ACCEPT_LANGUAGE="ko")) == '<html lang="ko" dir="ltr">'


def test_the_director_sets_the_default_language_on_the_desk(demo: Tournament) -> None:
    desk = Client()
    desk.force_login(demo.directors.get())
    dashboard = reverse("desk-dashboard", args=[demo.slug])
    assert 'id="language-form"' in desk.get(dashboard).content.decode()
    pages = public_pages(demo)
    # Pages already kept in English (the phone's snapshot, the page cache) do not outlive it.
    for name in ("phone", "tournament"):
        assert '<html lang="en"' in Client().get(pages[name]).content.decode()
    response = desk.post(reverse("desk-language", args=[demo.slug]), {"language": "fa"})
    assert response.status_code == 302
    demo.refresh_from_db()
    assert demo.language == "fa"
    for name in ("phone", "tournament"):
        assert '<html lang="fa" dir="rtl">' in Client().get(pages[name]).content.decode()
    # Not a language of Spread's: refused, nothing changed.
    desk.post(reverse("desk-language", args=[demo.slug]), {"language": "xx"})
    demo.refresh_from_db()
    assert demo.language == "fa"
    # A stranger cannot.
    stranger = Client()
    stranger.force_login(User.objects.create_user("mallory"))
    assert (
        stranger.post(reverse("desk-language", args=[demo.slug]), {"language": ""}).status_code
        == 403
    )


def test_the_phone_page_speaks_the_tournament_s_language(demo: Tournament) -> None:
    demo.language = "id"
    demo.save(update_fields=["language"])
    phone = public_pages(demo)["phone"]
    page = Client(HTTP_ACCEPT_LANGUAGE="en").get(phone).content.decode()
    assert '<html lang="id" dir="ltr">' in page
    assert "Permainan" in page  # "Games", the heading of the player's games


def test_the_switcher_remembers_the_choice_in_the_language_cookie(demo: Tournament) -> None:
    client = Client()
    standings = public_pages(demo)["standings"]
    response = client.post(reverse("set_language"), {"language": "ko", "next": standings})
    assert response.status_code == 302 and response["Location"] == standings
    assert client.cookies[COOKIE].value == "ko"
    page = client.get(standings).content.decode()
    assert '<html lang="ko" dir="ltr">' in page
    assert re.search(r"<h3 id=\"standings-heading\">\d+라운드 후 순위", page)
    # The switcher is on the page, with Korean selected and every language on offer.
    assert '<option value="ko" lang="ko" selected>한국어</option>' in page
    for code in LANGUAGES:
        assert f'<option value="{code}" lang="{code}"' in page


# -- no English left ------------------------------------------------------------------------------

# Text that is the same in every language: names of things, formats, the board's conventions.
UNIVERSAL = {"Spread", "PDF", "A4", "xlsx", "GCG", "record.gcg", "PDF (A4)", "English"}


@dataclass
class Visible:
    """The text a reader sees on a page: text nodes and the attributes a browser shows or speaks,
    outside scripts, styles, the board (SVG and text) and code samples."""

    segments: list[str] = field(default_factory=list)


class _Reader(HTMLParser):
    SKIP = {"script", "style", "svg", "pre", "code", "title"}
    SHOWN = ("title", "aria-label", "placeholder", "alt", "data-confirm")

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.skipping: list[str] = []
        self.joined = self.after_text = False
        self.found = Visible()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        # An isolate (<bdi>) is inline: text running into it, through it and out of it is one
        # string on the page.
        self.joined = tag == "bdi" and self.after_text
        self.after_text = False
        classes = (dict(attrs).get("class") or "").split()
        skipped = tag in self.SKIP or {"gcg", "gcg-line", "mono", "board-text"} & set(classes)
        # Inside a skipped element every element is counted, so that a nested one of the same
        # tag (a nickname's <bdi> in a line's) does not end the skipping.
        if (skipped or self.skipping) and tag not in ("br", "img", "input", "meta", "link"):
            self.skipping.append(tag)
        for name, value in attrs:
            if value and (name in self.SHOWN or name.startswith("data-t-")):
                self.found.segments.append(value)

    def handle_endtag(self, tag: str) -> None:
        self.joined = self.after_text = tag == "bdi"
        if self.skipping and self.skipping[-1] == tag:
            self.skipping.pop()

    def handle_data(self, data: str) -> None:
        if self.skipping:
            return
        if self.joined and self.found.segments:
            self.found.segments[-1] += data
        elif data.strip():
            self.found.segments.append(data)
        else:
            return
        self.joined = self.after_text = True


def visible(page: str) -> list[str]:
    reader = _Reader()
    reader.feed(page)
    return [" ".join(s.split()) for s in reader.found.segments if s.strip()]


def data_strings(tournament: Tournament) -> list[str]:
    """What a page shows that is data, not interface: names, places, systems, the nicks and
    moves of the records; longest first, so that a name is taken out before its parts."""
    found = {tournament.name, tournament.venue, tournament.slug, "director"}
    for division in tournament.divisions.all():
        found |= {division.name, division.ruleset, division.tile_set, division.rating_system}
        for player in division.players.all():
            found.add(player.name)
            found |= set(player.name.replace(",", " ").split())
            found |= {player.club, player.team}
        for sheet in Scoresheet.objects.filter(game__division=division):
            for p in sheet.engine_report.players:
                found |= {p.nick, p.name}
    for code, name in settings.LANGUAGES:
        found |= {name, translation.get_language_info(code)["name_local"]}  # the switcher
    found |= UNIVERSAL
    return sorted((s for s in found if s), key=len, reverse=True)


def without_data(segment: str, data: list[str]) -> str:
    # A play as GCG writes it (coordinate and word: "8D GARDEN", "F11 .OX") is data.
    segment = re.sub(r"\b(?:\d{1,2}[A-Za-z]|[A-Za-z]\d{1,2}) [A-Za-z.]+", " ", segment)
    for text in data:
        segment = re.sub(rf"(?<!\w){re.escape(text)}(?!\w)", " ", segment)
    # Numbers, signs, records, the crosstable's W/L/T marks and #numbers are data too.
    segment = re.sub(r"\b[WLT]\b|#\d+|[\d\W_]+", " ", segment)
    return " ".join(segment.split())


def catalog(language: str) -> dict[str, str]:
    """msgid → msgstr (the singular) of the language's catalog."""
    entries = parse(LOCALE / language / "LC_MESSAGES" / "django.po")[1:]
    return {e.msgid: e.msgstr[0] for e in entries}


def english_left(english: str, translated: str, language: str, data: list[str]) -> list[str]:
    """The interface's English on a page in `language`: (1) a visible string that is a msgid of
    the catalog whose translation differs from it; (2) a string the English page shows too,
    identical, whose words (data taken out) are not words of the language's own catalog — a
    string never marked for translation, which no catalog knows."""
    messages = catalog(language)
    vocabulary = {w.lower() for text in messages.values() for w in re.findall(r"\w+", text)}
    untranslated = {
        msgid
        for msgid, text in messages.items()
        if text != msgid and re.search(r"[A-Za-z]{2}", msgid) and "%(" not in msgid
    } - UNIVERSAL
    found = []
    shown = visible(translated)
    for segment in shown:
        if segment in untranslated and segment not in found:
            found.append(segment)
    same = set(shown) & set(visible(english))
    for segment in sorted(same - set(found)):
        rest = without_data(segment, data)
        words = [w for w in re.findall(r"[^\W\d_]+", rest) if len(w) > 1]
        if any(w.lower() not in vocabulary for w in words):
            found.append(segment)
    return found


@pytest.mark.parametrize("language", OTHERS)
def test_no_english_word_of_the_interface_is_left_on_a_page_in_another_language(
    demo: Tournament, language: str
) -> None:
    data = data_strings(demo)
    english, translated = Client(), Client()
    english.cookies[COOKIE] = "en"
    translated.cookies[COOKIE] = language
    for name, url in public_pages(demo).items():
        left = english_left(
            english.get(url).content.decode(), translated.get(url).content.decode(), language, data
        )
        assert left == [], (name, language, left)


def test_the_check_finds_a_string_left_unmarked() -> None:
    """The check above fails when a template's string is not marked: the same sentence on the
    English page and the Finnish one, which no catalog knows."""
    english = "<html><body><h3>Standings</h3><p>Spread as played, by table</p></body></html>"
    finnish = "<html><body><h3>Tilanne</h3><p>Spread as played, by table</p></body></html>"
    assert english_left(english, finnish, "fi", ["Spread"]) == ["Spread as played, by table"]
    # And a marked string whose translation is missing from the page: the msgid itself.
    untranslated = "<html><body><h3>Standings</h3></body></html>"
    assert english_left(english, untranslated, "fi", []) == ["Standings"]


def test_numbers_stay_left_to_right_in_right_to_left_text() -> None:
    from tournament.core.html import ltr
    from tournament.core.language import ltr_text
    from tournament.templatetags.spread_i18n import severity

    assert ltr("+123") == '<bdi dir="ltr" class="ltr">+123</bdi>'
    assert ltr("<b>") == '<bdi dir="ltr" class="ltr">&lt;b&gt;</bdi>'  # escaped, as any value
    assert ltr(None) == "" and ltr("") == ""
    with translation.override("fa"):
        assert ltr_text(">Ada: 8H WORD +30 30") == "\u2066>Ada: 8H WORD +30 30\u2069"
        assert severity("error") == "خطا"
    with translation.override("fi"):
        assert ltr_text("8H") == "8H"  # a left-to-right page needs no isolate
        assert severity("warning") == "varoitus"
        assert severity("unknown") == "unknown"
