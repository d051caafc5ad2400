"""What a director reads: `createdirector`'s sentences (the username as typed: a terminal shows
isolation marks as stray characters), the page header, and no `.tou` warning for an event with
nothing played."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from django.contrib.auth.models import Permission, User
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client

from tournament.event import services as event
from tournament.models import Game
from tournament.players import roster


def _createdirector(*args: str, **options: str) -> str:
    out = StringIO()
    call_command("createdirector", *args, stdout=out, **options)
    return out.getvalue()


def test_createdirector_says_what_it_did_in_sentences(db: None) -> None:
    assert _createdirector("dora", password="pw-dora-1234") == (
        "Account dora created: it may now create tournaments at /desk/.\n"
    )
    User.objects.create_user("ed")
    assert _createdirector("ed") == "ed may now create tournaments at /desk/.\n"
    assert _createdirector("ed") == (
        "ed could already create tournaments at /desk/: nothing changed.\n"
    )
    assert User.objects.get(username="ed").has_perm("tournament.add_tournament")


@pytest.mark.parametrize(
    "args, options, message",
    [
        (
            ["nopass"],
            {},
            "There is no account nopass yet: give --password to create it.",
        ),
        (
            ["blank"],
            {"password": ""},
            "The password is empty: the account blank is not created.",
        ),
        (["  "], {}, "A username is needed: createdirector USERNAME."),
    ],
)
def test_createdirector_refuses_in_one_sentence(
    db: None, args: list[str], options: dict[str, str], message: str
) -> None:
    with pytest.raises(CommandError) as error:
        call_command("createdirector", *args, stdout=StringIO(), **options)
    assert str(error.value) == message
    assert not User.objects.exclude(username="").exists()


def test_the_header_names_who_is_signed_in_without_an_empty_separator(
    db: None, client: Client
) -> None:
    user = User.objects.create_user("td")
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    client.force_login(user)
    html = client.get("/desk/").content.decode()
    nav = html[html.index("<nav>") : html.index("</nav>")]
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", nav)).strip()
    assert text == "Tournaments · Desk · Signed in as td · Log out"
    assert '<span id="signed-in">Signed in as <bdi>td</bdi></span>' in nav


def test_an_empty_event_does_not_warn_that_the_tou_file_is_incomplete(
    desk: Client, director: User
) -> None:
    event.create_tournament(
        director, "Empty Open", [event.NewDivision(name="A", planned_rounds=3)]
    )
    dashboard = desk.get("/desk/empty-open/").content.decode()
    assert 'id="tou-warning"' not in dashboard
    assert "The .tou file is not complete" not in dashboard
    summary = desk.get("/desk/empty-open/summary/").content.decode()
    assert "Not every round is played" not in summary
    assert (
        '<p class="muted" id="summary-no-games">No round is paired yet: the files hold the '
        "players only.</p>"
    ) in summary
    err = StringIO()
    call_command("exporttou", "empty-open", output="/dev/null", stdout=StringIO(), stderr=err)
    assert err.getvalue() == "warning: no round is paired yet: the file holds the players only\n"


def test_an_event_under_way_still_warns_of_its_unplayed_rounds(
    desk: Client, director: User
) -> None:
    t = event.create_tournament(
        director, "Busy Open", [event.NewDivision(name="A", planned_rounds=2)]
    )
    (ada,) = roster.add_players(t.divisions.get(), "Ada Quill, 1500", director)
    Game.objects.create(division=ada.division, round=1, player1=ada, score1=50, kind=Game.BYE)
    dashboard = desk.get("/desk/busy-open/").content.decode()
    assert "Division A: round 2 not played (of 2)" in dashboard
