"""Names in any script stay whole in running text: every page holds a player's name, and any text
a user typed, in its own isolate (`<bdi>`), and a record or a spread left to right
(`<bdi dir="ltr">`); a sentence made as plain text (a message, the phone's report answers, a
change's reason) isolates them with Unicode's isolates (FSI … PDI), which a page writes as
`<bdi>`; spreadsheets and the files programs read get no marks at all.

The shared division (conftest) with players 1, 2 and 3 renamed in Persian, Hebrew and Korean.
"""

from __future__ import annotations

import io
import json

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import translation
from openpyxl import load_workbook

from tournament import reports
from tournament.core import audit, changes
from tournament.models import Change, Division, Player, Round
from tournament.phone import services as phone
from tournament.playoffs import services as playoffs
from tournament.results import services as results
from tournament.standings import read_model
from tournament.standings.stamps import read as read_stamps
from tournament.templatetags.spread_i18n import isolates_html

SARA, DAVID, MINJUN = "سارا احمدی", "דוד כהן", "김민준"
FSI, PDI, LRI = "\u2068", "\u2069", "\u2066"
MARKS = ("\u2066", "\u2067", "\u2068", "\u2069")
LTR = '<bdi dir="ltr" class="ltr">'


def _ltr(text: str) -> str:
    return f"{LTR}{text}</bdi>"


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    cache.clear()


@pytest.fixture
def scripts(division: Division, director: User) -> Division:
    """Players 1–3 in Persian, Hebrew and Korean; round 1: 1 beat 2 400–350, 3 and 4 tied."""
    for number, name in ((1, SARA), (2, DAVID), (3, MINJUN)):
        Player.objects.filter(division=division, number=number).update(name=name)
    results.enter_line(division, 1, "1 400 2 350", director)
    results.enter_line(division, 1, "3 380 4 380", director)
    return division


def _url(name: str, *args: object) -> str:
    return reverse(name, args=["spring-open", "A", *args])


def _get(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def _link(number: int, name: str, after: str = "") -> str:
    return f'<a href="{_url("player", number)}"><bdi>{name}</bdi>{after}</a>'


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "fa"])
def test_the_standings_isolate_each_name_and_keep_records_and_spreads_left_to_right(
    client: Client, scripts: Division, language: str
) -> None:
    client.cookies["django_language"] = language
    page = _get(client, _url("standings"))

    assert (
        f'<td class="num">1</td><td >{_link(1, SARA)}</td>'
        f'<td >{_ltr("1–0")}</td><td class="num">{_ltr("+50")}</td><td class="num">0</td>'
    ) in page
    assert (
        f'<td >{_link(3, MINJUN)}</td><td >{_ltr("0.5–0.5")}</td><td class="num">{_ltr("0")}</td>'
    ) in page
    assert (
        f'<td >{_link(2, DAVID)}</td><td >{_ltr("0–1")}</td><td class="num">{_ltr("-50")}</td>'
    ) in page
    # The page's title is plain text: the division's and tournament's names in Unicode's isolates.
    title = page.split("<title>")[1].split("</title>")[0]
    assert f"{FSI}A{PDI}" in title and f"{FSI}Spring Open{PDI}" in title


@pytest.mark.django_db
def test_the_player_page_isolates_the_name_and_keeps_the_record_with_its_spread_left_to_right(
    client: Client, scripts: Division
) -> None:
    page = _get(client, _url("player", 2))

    assert f"<title>{FSI}{DAVID}{PDI} · {FSI}Spring Open{PDI}</title>" in page
    assert f"<h3><bdi>{DAVID}</bdi></h3>" in page
    assert f"  · {_ltr('0–1 -50')}\n" in page
    # The games table: the opponent's name, and the record after the game with its spread.
    assert (
        f'<td class="num">1</td><td >{_link(1, SARA)}</td><td >second</td><td >350–400</td>'
        f"<td >loss</td><td >{_ltr('0–1 -50')}</td>"
    ) in page


@pytest.mark.django_db
def test_the_pairings_isolate_each_name_before_its_first(client: Client, scripts: Division) -> None:
    page = _get(client, _url("pairings", 1))

    # By table: "(first)" stays after the Persian name it belongs to.
    assert (
        f'<td class="num">1</td><td >{_link(1, SARA, " (first)")}</td>'
        f"<td >400–350</td><td >{_link(2, DAVID)}</td>"
    ) in page
    assert f'<td class="num">2</td><td >{_link(3, MINJUN)}</td>' in page
    # By name.
    assert (
        f'<td >{_link(2, DAVID)}</td><td class="num">1</td><td >{_link(1, SARA)}</td>'
        "<td >second</td><td >350–400</td>"
    ) in page


@pytest.mark.django_db
def test_the_crosstable_isolates_each_name_and_keeps_records_and_spreads_left_to_right(
    client: Client, scripts: Division
) -> None:
    page = _get(client, _url("crosstable"))

    assert (
        f'<td class="num">1</td><td class="num">1</td><td >{_link(1, SARA)}</td>'
        f'<td >{_ltr("1–0")}</td><td class="num">{_ltr("+50")}</td>'
        '<td class="cell">W #2<br><small>400–350</small></td>'
    ) in page
    assert (
        f'<td class="num">2</td><td >{_link(2, DAVID)}</td>'
        f'<td >{_ltr("0–1")}</td><td class="num">{_ltr("-50")}</td>'
    ) in page


@pytest.mark.django_db
def test_the_change_log_isolates_who_the_reason_and_the_names_of_before_and_after(
    desk: Client, scripts: Division, director: User
) -> None:
    reason = "טעות הקלדה"  # a reason typed in Hebrew: "a typing slip"
    results.enter_line(scripts, 1, "1 410 2 350", director, reason=reason)
    sara = scripts.players.get(number=1)
    audit.record(scripts, Change.Action.CHECK_IN, actor=sara, reason="")
    playoffs.set_up(scripts, 2, 1, 1, director)
    correction = Change.objects.get(action=Change.Action.CORRECT)

    page = _get(desk, "/desk/spring-open/changes/")

    assert f"<td><bdi>{SARA}</bdi></td>" in page  # a player's own change: who made it
    assert "<td><bdi>alice</bdi></td>" in page
    assert f"<td><bdi>{reason}</bdi></td>" in page
    # "Before" and "after" are changes.change_text's sentences, their isolates as <bdi>.
    before = isolates_html(changes.change_text(correction.before))
    after = isolates_html(changes.change_text(correction.after))
    assert SARA in before and "400" in before and "410" in after
    assert f"<td>{before}</td>\n        <td>{after}</td>" in page
    # A reason the desk wrote, with the seeds' names isolated in it.
    seeds = [
        r.player.name
        for r in read_model.division_standings(
            scripts, 1, public=False, stamps=read_stamps(scripts)
        )[:2]
    ]
    stored = Change.objects.get(action=Change.Action.PLAYOFF).reason
    assert stored == f"Playoff set up: best of 1, {FSI}{seeds[0]}{PDI}, {FSI}{seeds[1]}{PDI}"
    assert (
        f"<td><bdi>Playoff set up: best of 1, <bdi>{seeds[0]}</bdi>, "
        f"<bdi>{seeds[1]}</bdi></bdi></td>"
    ) in page


@pytest.fixture
def reporting(scripts: Division) -> Division:
    """Round 2 paired and published, players reporting from their links: 1 (Persian) v 2."""
    scripts.self_report = True
    scripts.save()
    players = {p.number: p for p in scripts.players.all()}
    scripts.games.create(round=2, table=1, player1=players[1], player2=players[2], first=1)
    Round.objects.create(division=scripts, number=2, published=True)
    return scripts


def _report(token: str, mine: str, theirs: str, language: str = "en") -> tuple[str, str]:
    """The message the phone's report answers with, and the page it is shown on."""
    client = Client()
    client.cookies["django_language"] = language
    response = client.post(
        reverse("phone-report", args=[token]),
        {"my_score": mine, "opponent_score": theirs},
        follow=True,
    )
    assert response.status_code == 200
    [message] = [str(m) for m in response.context["messages"]]
    return message, response.content.decode()


@pytest.mark.django_db
def test_the_phones_report_answers_isolate_the_opponents_name_and_keep_the_scores_together(
    reporting: Division,
) -> None:
    sara = phone.issue_link(reporting.players.get(number=1))
    david = phone.issue_link(reporting.players.get(number=2))

    message, page = _report(sara, "420", "380")

    assert message == f"Reported. Waiting for {FSI}{DAVID}{PDI} to report too."
    assert f'role="status">Reported. Waiting for <bdi>{DAVID}</bdi> to report too.</li>' in page
    # Written into the message cookie as JSON, the isolates travel as they are.
    assert (
        json.dumps(message, ensure_ascii=False)
        == f'"Reported. Waiting for {FSI}{DAVID}{PDI} to report too."'
    )
    assert f"Your report: {_ltr('420–380')}. You may change it until it is recorded." in page

    message, page = _report(david, "390", "420")
    assert message == (
        f"{FSI}{SARA}{PDI} reported 420–380: the desk will decide. "
        "You may change your report until then."
    )
    assert f"<bdi>{SARA}</bdi> reported 420–380: the desk will decide." in page

    # On a right-to-left page the two scores are one left-to-right unit too.
    message, page = _report(david, "391", "420", language="fa")
    assert f"{FSI}{SARA}{PDI}" in message and f"{LRI}420–380{PDI}" in message
    assert f"<bdi>{SARA}</bdi>" in page and _ltr("420–380") in page


@pytest.mark.django_db
def test_the_phone_page_isolates_the_players_and_the_opponents_names(reporting: Division) -> None:
    token = phone.issue_link(reporting.players.get(number=2))
    page = Client().get(reverse("phone", args=[token])).content.decode()

    assert f"<title>{FSI}{DAVID}{PDI} · {FSI}Spring Open{PDI}</title>" in page
    assert f"<h1><bdi>{DAVID}</bdi></h1>" in page
    assert f"against <strong>1 <bdi>{SARA}</bdi></strong>" in page
    assert f"<bdi>{SARA}</bdi> goes first." in page
    assert f"<label><bdi>{SARA}</bdi>'s score <input" in page


@pytest.mark.django_db
def test_no_spreadsheet_cell_nor_file_a_program_reads_gets_an_isolate(
    client: Client, scripts: Division, director: User
) -> None:
    playoffs.set_up(scripts, 2, 1, 1, director)
    playoffs.publish(scripts, director)
    written = set()
    for kind in reports.XLSX_KINDS:
        book = load_workbook(io.BytesIO(reports.make(scripts, kind, "xlsx").content))
        for sheet in book.worksheets:
            for row in sheet.iter_rows():
                for cell in row:
                    if isinstance(cell.value, str):
                        assert not any(m in cell.value for m in MARKS), (kind, cell.value)
                        written.add(cell.value)
    assert {SARA, DAVID, MINJUN} <= written

    files = [
        client.get(reverse("api-standings", args=["spring-open", "A"])).content.decode(),
        client.get(reverse("tourney-js", args=["spring-open"])).content.decode(),
        client.get(reverse("api-display", args=["spring-open", "A"])).content.decode(),
    ]
    desk = Client()
    desk.force_login(director)
    files.append(desk.get(reverse("desk-tsh", args=["spring-open"])).content.decode())
    for text in files:
        assert SARA in text and not any(m in text for m in MARKS)
    assert json.loads(files[0])[0]["name"] == SARA


@pytest.mark.django_db
def test_a_games_name_isolates_its_players_for_titles_and_links(scripts: Division) -> None:
    game = scripts.games.get(round=1, table=1)

    assert str(game) == f"R1: {FSI}{SARA}{PDI} v {FSI}{DAVID}{PDI}"
    assert isolates_html(str(game)) == f"R1: <bdi>{SARA}</bdi> v <bdi>{DAVID}</bdi>"


def test_a_plain_sentences_isolates_become_elements_escaped_and_balanced() -> None:
    assert isolates_html(f"Saved: 4 {FSI}{SARA}{PDI} 39 – 1 {FSI}<b>Quill</b>{PDI}") == (
        f"Saved: 4 <bdi>{SARA}</bdi> 39 – 1 <bdi>&lt;b&gt;Quill&lt;/b&gt;</bdi>"
    )
    assert isolates_html(f"{LRI}2–1 -13{PDI}") == _ltr("2–1 -13")
    assert isolates_html("\u2067x\u2069") == '<bdi dir="rtl">x</bdi>'
    assert isolates_html(f"a{PDI}b {FSI}c {FSI}d{PDI}") == "ab <bdi>c <bdi>d</bdi></bdi>"
    assert isolates_html("no marks & more") == "no marks &amp; more"
    assert isolates_html(None) == ""


def test_the_bdi_filter_takes_a_name_isolated_for_plain_text_without_its_marks() -> None:
    from django.template import Context, Template

    template = Template(
        "{% load spread_i18n %}{{ a|bdi }}|{{ b|bdi }}|{{ empty|bdi }}|"
        '<form data-confirm="{{ a|isolate }}?">|{% filter ltr %}{{ one }}–{{ two }}{% endfilter %}'
    )
    with translation.override("en"):
        text = template.render(
            Context({"a": '"Zed" & Co', "b": f"{FSI}{SARA}{PDI}", "empty": "", "one": 3, "two": 4})
        )
    assert text == (
        f"<bdi>&quot;Zed&quot; &amp; Co</bdi>|<bdi>{SARA}</bdi>||"
        f'<form data-confirm="{FSI}&quot;Zed&quot; &amp; Co{PDI}?">|{_ltr("3–4")}'
    )


@pytest.mark.django_db
def test_the_hall_display_isolates_the_tournament_and_division_names(
    client: Client, scripts: Division
) -> None:
    page = _get(client, reverse("display", args=["spring-open", "A"]))

    assert '<h1 id="display-title"><bdi>Spring Open</bdi> · division <bdi>A</bdi></h1>' in page
    assert f"<title>{FSI}Spring Open{PDI} · {FSI}A{PDI} · display</title>" in page


@pytest.mark.django_db
def test_the_viewer_isolates_a_records_names_on_the_page_and_for_its_script(
    desk: Client, scripts: Division, director: User, record
) -> None:
    from tournament.scoresheets import services as scoresheets

    game = scripts.games.get(round=1, table=1)
    sheet = scoresheets.attach_scoresheet(game, record("SARA", SARA, "DAVID", DAVID), director)

    page = _get(desk, reverse("desk-scoresheet", args=["spring-open", sheet.pk]) + "?turn=0")

    assert f'<td><bdi>SARA</bdi> <span class="muted"><bdi>{SARA}</bdi></span></td>' in page
    assert f'<dd id="viewer-to-move"><bdi>{SARA}</bdi>, rack' in page
    assert f'<span class="total"><bdi>{SARA}</bdi> {_ltr("0")}</span>' in page
    # The steps viewer.js writes as text carry the names in Unicode's isolates.
    data = json.loads(page.split('id="viewer-data" type="application/json">')[1].split("<")[0])
    assert data["steps"][0]["to_move"] == f"{FSI}{SARA}{PDI}"
    assert [t["nick"] for t in data["steps"][1]["totals"]] == [
        f"{FSI}{SARA}{PDI}",
        f"{FSI}{DAVID}{PDI}",
    ]


def test_safe_html_and_messages_pass_through_the_isolates_filter_as_they_are() -> None:
    from django.contrib.messages.storage.base import Message
    from django.utils.safestring import mark_safe

    assert isolates_html(mark_safe("<b>kept</b>")) == "<b>kept</b>"
    assert isolates_html(Message(25, f"Saved: {FSI}<{SARA}>{PDI}")) == (
        f"Saved: <bdi>&lt;{SARA}&gt;</bdi>"
    )
