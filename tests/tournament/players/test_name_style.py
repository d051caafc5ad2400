"""A division keeps one style of names, “Last, First” or “First Last”: from its players, or for
its first ones from most of the pasted list (or roster file); every name added is written in it,
and the players page says so."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tournament.event import services as event
from tournament.interchange import names
from tournament.models import Division
from tournament.players import roster
from tournament.players import services as players


@pytest.fixture
def club(director: User) -> Division:
    t = event.create_tournament(director, "Club Night", [event.NewDivision(name="A")])
    return t.divisions.get()


def _names(division: Division) -> list[str]:
    return list(division.players.values_list("name", flat=True))


def test_a_pasted_last_first_list_writes_the_whole_division_last_first(
    desk: Client, club: Division
) -> None:
    base = f"/desk/club-night/division/{club.pk}/players"
    page = desk.get(f"{base}/").content.decode()
    assert (
        "The first players added set the division&#x27;s style of names: if most are written "
        "“Last, First”, every name is written so (“Ada Quill” becomes “Quill, Ada”); else "
        "“First Last”."
    ) in page

    pasted = "Quill, Ada, 1850, Leeds\nCrane, Ben, 1720\nCora Vale\t1640\nCher, 1500\n"
    response = desk.post(f"{base}/paste", {"players": pasted}, follow=True)
    assert (
        "4 players added to division A. 1 name written “Last, First”, as the division writes "
        "names: Vale, Cora."
    ) in response.content.decode()
    assert _names(club) == ["Quill, Ada", "Crane, Ben", "Vale, Cora", "Cher"]

    # The late-entry form follows the division's style, and says so.
    page = desk.get(f"{base}/").content.decode()
    assert (
        "The division writes names “Last, First”: every name added is written so "
        "(“Ada Quill” becomes “Quill, Ada”)."
    ) in page
    late = desk.post(f"{base}/add", {"name": "Jan  van der Berg", "rating": "1400"}, follow=True)
    assert (
        "van der Berg, Jan added as player 5. “Jan van der Berg” is written “van der Berg, "
        "Jan”, as the division writes names."
    ) in late.content.decode()
    assert _names(club)[-1] == "van der Berg, Jan"


def test_a_division_written_first_last_rewrites_a_pasted_or_typed_last_first_name(
    desk: Client, club: Division, director: User
) -> None:
    roster.add_players(club, "Ada Quill, 1850\nBen Crane, 1720", director)
    rewritten: list[str] = []
    roster.add_players(club, "Vale, Cora, 1640\nMoss, Eli, 1600", director, rewritten)
    assert rewritten == ["Cora Vale", "Eli Moss"]
    late = desk.post(
        f"/desk/club-night/division/{club.pk}/players/add", {"name": "Young, Zed", "rating": "0"}
    )
    assert late.status_code == 302
    assert _names(club) == ["Ada Quill", "Ben Crane", "Cora Vale", "Eli Moss", "Zed Young"]


def test_a_roster_file_follows_the_division_style(club: Division, director: User) -> None:
    players.late_entry(club, players.NewPlayer("Ada Quill", 1850), director)
    data = b"last name,first name,rating\nCrane,Ben,1720\nVale,Cora,1640\n"
    players.import_roster(club, data, "roster.csv", director)
    assert _names(club) == ["Ada Quill", "Ben Crane", "Cora Vale"]


def test_a_name_already_there_in_the_other_style_is_the_same_player(
    club: Division, director: User
) -> None:
    roster.add_players(club, "Quill, Ada, 1850\nCrane, Ben, 1720", director)
    with pytest.raises(roster.PasteError) as error:
        roster.add_players(club, "Ada Quill, 1800", director)
    assert error.value.problems == ["player 1: Quill, Ada is already in division A."]


@pytest.mark.parametrize(
    "name, last_first, written",
    [
        ("Ada Quill", True, "Quill, Ada"),
        ("Quill, Ada", False, "Ada Quill"),
        ("Quill ,  Ada", True, "Quill, Ada"),
        ("Martin Luther King Jr.", True, "King Jr., Martin Luther"),
        ("Jan van der Berg", True, "van der Berg, Jan"),
        ("van der Berg, Jan", False, "Jan van der Berg"),
        ("ada quill", True, "quill, ada"),
        ("Cher", True, "Cher"),
        ("김 민수", True, "김, 민수"),  # the family name first: the comma after it
        ("김, 민수", False, "김 민수"),
        ("علی رضایی", True, "رضایی, علی"),
        ("Ada Quill", None, "Ada Quill"),
    ],
)
def test_a_name_in_either_style(name: str, last_first: bool | None, written: str) -> None:
    assert names.in_style(name, last_first) == written


def test_the_style_is_most_of_the_names() -> None:
    assert names.style_of([]) is None
    assert names.style_of(["Quill, Ada", "Crane, Ben", "Cora Vale"]) is True
    assert names.style_of(["Quill, Ada", "Cora Vale"]) is False
    assert names.style_of(["Quill, Ada", "Cher", "Madonna"]) is True
    assert names.style_of(["Cher"]) is None
