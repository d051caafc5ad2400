"""A line of a GCG record reads left to right on every page, whatever the script of its
player's nickname: `>سارا: 8D DJINN +30 30` keeps its order, where a left-to-right paragraph
would carry the square to the nickname's other side (">8 :ساراD DJINN"). The nickname is
isolated in its own direction inside the line's left-to-right isolate: in the game viewer's
moves and caption, the desk's line-by-line table (here) and the phone sheet's checked lines
(static/scoresheet-form.js: test_browser_board_thumb.py)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.template import Context, Template
from django.test import Client
from django.urls import reverse

from tournament.core import html, language
from tournament.models import Division, Game, Player, Tournament
from tournament.scoresheets import services as scoresheets

SARA = "سارا"
LINE = f">{SARA}: 8D DJINN +30 30"
SHOWN = f'<bdi dir="ltr" class="gcg-line">&gt;<bdi>{SARA}</bdi>: 8D DJINN +30 30</bdi>'
RECORD = (
    f"#character-encoding UTF-8\n#player1 {SARA} سارا احمدی\n#player2 Ben Ben Crane\n"
    f"{LINE}\n>Ben: I7 W.THY +33 33\n"
)


def test_a_move_s_line_isolates_its_nickname_inside_a_left_to_right_line() -> None:
    assert html.gcg_line_html(LINE) == SHOWN
    rendered = Template("{% load spread_i18n %}{{ line|gcg }}").render(Context({"line": LINE}))
    assert rendered == SHOWN
    # A pragma's line, or a line a nickname does not start, is only kept left to right.
    assert html.gcg_line_html("#player1 a<b") == (
        '<bdi dir="ltr" class="gcg-line">#player1 a&lt;b</bdi>'
    )
    # A nickname holding markup is escaped with the rest.
    assert html.gcg_line_html(">a<b>: 8D DJINN +30 30") == (
        '<bdi dir="ltr" class="gcg-line">&gt;<bdi>a&lt;b&gt;</bdi>: 8D DJINN +30 30</bdi>'
    )
    # As plain text (a caption a script writes): Unicode's isolates, in the same order.
    assert language.gcg_text(LINE) == f"\u2066>\u2068{SARA}\u2069: 8D DJINN +30 30\u2069"


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["en", "fa"])
def test_the_desk_sheet_and_the_viewer_show_a_persian_nickname_s_lines_in_order(
    lang: str,
) -> None:
    director = User.objects.create_user("dora")
    tournament = Tournament.objects.create(
        name="Bidi Open", slug="bidi", public=True, language=lang
    )
    tournament.directors.add(director)
    division = Division.objects.create(tournament=tournament, name="A", ruleset="naspa")
    one = Player.objects.create(division=division, number=1, name="سارا احمدی")
    two = Player.objects.create(division=division, number=2, name="Ben Crane")
    game = Game.objects.create(division=division, round=1, table=1, player1=one, player2=two)
    sheet = scoresheets.attach_scoresheet(game, RECORD.encode(), director, "game.gcg")
    client = Client()
    client.force_login(director)
    client.cookies["django_language"] = lang
    page = client.get(
        reverse("desk-scoresheet", args=[tournament.slug, sheet.pk]), {"turn": 1}
    ).content.decode()
    # The line-by-line table and the viewer's moves: the same markup, once each.
    assert page.count(SHOWN) == 2
    assert f"&gt;<bdi>{SARA}</bdi>: 8D DJINN +30 30</bdi></a>" in page  # the viewer's move
    # The viewer's caption after the first move.
    assert f'<bdi dir="ltr" class="ltr">&gt;<bdi>{SARA}</bdi>: 8D DJINN +30 30</bdi></p>' in page
