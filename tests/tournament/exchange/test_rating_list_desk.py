"""The desk fills in ratings from a NASPA or WESPA ratings list, by name, before round 1:
a preview first, then one logged change."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from tournament.core import tsh_settings
from tournament.event import services as event
from tournament.models import Change, Division, Player, Tournament

WESPA = b"""NICKstateNAME vic24.tou 20240612
AQUI UK Ada Quill 412 2105 20240601
BCRA NZ Ben Crane 38 1720 20231105
BCRB NZ Ben Crane 3 1100 20231105
JOSE ESP Jos\xc3\xa9 N\xc3\xba\xc3\xb1ez 100 1900 20240401
"""


@pytest.fixture
def division(director: User) -> Division:
    t = event.create_tournament(director, "Club Night", [event.NewDivision(name="A")])
    d = t.divisions.get()
    # Written as typed, in both styles (a paste would write them in one): the list's names
    # are matched in any order.
    for number, (name, rating) in enumerate(
        [("Quill, Ada", 1800), ("Ben Crane", 1700), ("Jose Nunez", 0), ("Dev Patel", 1580)], 1
    ):
        Player.objects.create(
            division=d, number=number, name=name, rating=rating, rating_text=str(rating)
        )
    return d


def url(division: Division) -> str:
    return f"/desk/club-night/division/{division.pk}/players/ratings/"


def upload(desk: Client, division: Division, data: bytes, fmt: str = "wespa") -> str:
    file = SimpleUploadedFile("rating.dat", data, content_type="text/plain")
    response = desk.post(url(division), {"action": "preview", "format": fmt, "file": file})
    assert response.status_code == 200
    return response.content.decode()


def ratings(division: Division) -> list[tuple[str, int]]:
    return list(division.players.order_by("number").values_list("name", "rating"))


def test_the_page_names_the_formats(desk: Client, division: Division) -> None:
    page = desk.get(url(division)).content.decode()
    assert "NASPA ratings list" in page and "WESPA ratings list" in page
    assert "NICKstateNAME" in page and "current.txt" in page
    players = desk.get(f"/desk/club-night/division/{division.pk}/players/").content.decode()
    assert url(division) in players


def test_a_preview_changes_nothing_and_lists_who_was_not_matched(
    desk: Client, division: Division
) -> None:
    page = upload(desk, division, WESPA)
    assert "2 ratings to change" in page
    assert f'value="{division.players.get(number=1).pk}:1800:2105"' in page
    assert f'value="{division.players.get(number=3).pk}:0:1900"' in page
    assert "1 player matched more than one entry (not changed)" in page
    assert "1 player not found (not changed)" in page and "<bdi>Dev Patel</bdi> (1580)" in page
    assert ratings(division) == [
        ("Quill, Ada", 1800),
        ("Ben Crane", 1700),
        ("Jose Nunez", 0),
        ("Dev Patel", 1580),
    ]
    assert not Change.objects.filter(action=Change.Action.EDIT_PLAYER).exists()


def test_confirming_sets_the_ratings_in_one_logged_change(
    director: User, desk: Client, division: Division
) -> None:
    quill, nunez = division.players.get(number=1), division.players.get(number=3)
    sets = [f"{quill.pk}:1800:2105", f"{nunez.pk}:0:1900"]
    response = desk.post(
        url(division), {"action": "confirm", "format": "wespa", "set": sets}, follow=True
    )
    assert "2 ratings set from the WESPA ratings list." in response.content.decode()
    assert ratings(division) == [
        ("Quill, Ada", 2105),
        ("Ben Crane", 1700),
        ("Jose Nunez", 1900),
        ("Dev Patel", 1580),
    ]
    change = Change.objects.get(action=Change.Action.EDIT_PLAYER)
    assert change.user == director
    assert change.before == {"ratings": {"1": 1800, "3": 0}}
    assert change.after == {"ratings": {"1": 2105, "3": 1900}}
    assert change.reason == "Ratings of 2 players from the WESPA ratings list"
    assert division.players.get(number=1).rating_text == "2105"


def test_a_stale_preview_or_a_paired_round_1_changes_nothing(
    desk: Client, division: Division, tournament: Tournament
) -> None:
    quill = division.players.get(number=1)
    stale = desk.post(
        url(division),
        {"action": "confirm", "format": "naspa", "set": [f"{quill.pk}:1700:2105"]},
        follow=True,
    )
    assert "The roster changed since the preview" in stale.content.decode()
    assert division.players.get(number=1).rating == 1800
    # The conftest's tournament has round 1 paired and played.
    paired = tournament.divisions.get()
    player = paired.players.get(number=1)
    page = desk.post(
        f"/desk/spring-open/division/{paired.pk}/players/ratings/",
        {"action": "confirm", "format": "naspa", "set": [f"{player.pk}:{player.rating}:2000"]},
        follow=True,
    ).content.decode()
    assert "ratings are set from a rating list only before it" in page
    assert paired.players.get(number=1).rating == player.rating
    assert not Change.objects.filter(action=Change.Action.EDIT_PLAYER).exists()


def test_a_naspa_list_with_bad_lines_still_previews_the_good_ones(
    desk: Client, division: Division
) -> None:
    # tsh's columns: name, rating, rank, expiry, games, separated by tabs.
    data = b"QUILL, ADA\t1850\t120\t2026-12-31\t412\nPATEL, DEV\tnone\nCRANE BEN 1700\n"
    page = upload(desk, division, data, "naspa")
    assert "1 rating to change" in page
    assert "line 2: the rating &#x27;none&#x27; is not a whole number from 0 to 9999" in page
    assert "line 3: no tab on this line: NASPA&#x27;s list has its columns separated" in page


def test_a_player_of_another_division_cannot_be_set(
    desk: Client, division: Division, tournament: Tournament
) -> None:
    other = tournament.divisions.get().players.get(number=1)
    page = desk.post(
        url(division),
        {"action": "confirm", "format": "naspa", "set": [f"{other.pk}:{other.rating}:2000"]},
        follow=True,
    ).content.decode()
    assert "The roster changed since the preview" in page
    other.refresh_from_db()
    assert other.rating != 2000


def test_the_useratings_command_reports_then_applies(tmp_path, division: Division) -> None:
    from io import StringIO

    from django.core.management import call_command

    path = tmp_path / "rating.dat"
    path.write_bytes(WESPA)
    out = StringIO()
    call_command(
        "useratings", "club-night", "--division", "A", "--format", "wespa", str(path), stdout=out
    )
    assert out.getvalue().splitlines() == [
        "Quill, Ada: 1800 -> 2105 (line 2)",
        "Ben Crane: more than one entry (lines 3, 4)",
        "Jose Nunez: 0 -> 1900 (line 5)",
        "Dev Patel: not found",
        "2 ratings would change (--apply to set)",
    ]
    assert division.players.get(number=1).rating == 1800
    out = StringIO()
    call_command(
        "useratings",
        "club-night",
        "--division",
        "A",
        "--format",
        "wespa",
        str(path),
        "--apply",
        stdout=out,
    )
    assert out.getvalue().splitlines()[-1] == "2 ratings set in division A"
    assert ratings(division)[0] == ("Quill, Ada", 2105)
    change = Change.objects.get(action=Change.Action.EDIT_PLAYER)
    assert change.user is None and change.after == {"ratings": {"1": 2105, "3": 1900}}


def test_config_tsh_rating_list_chooses_the_format_at_the_desk_and_for_useratings(
    tmp_path, desk: Client, division: Division
) -> None:
    from io import StringIO

    from django.core.management import call_command
    from django.core.management.base import CommandError

    tournament = division.tournament
    page = desk.get(url(division)).content.decode()
    assert 'value="naspa" id="id_format_0" required checked' in page  # the form's default
    assert "rating-list-asked" not in page

    tournament.tsh_config = "division A a.t\nconfig rating_list = 'wespa'\n"
    tournament.save()
    assert tsh_settings.rating_list_asked(division) == ("wespa", "wespa")
    page = desk.get(url(division)).content.decode()
    assert 'value="wespa" id="id_format_1" required checked' in page
    assert "names the rating list “<bdi>wespa</bdi>”: its format is chosen below" in page
    path = tmp_path / "rating.dat"
    path.write_bytes(WESPA)
    out = StringIO()
    call_command("useratings", "club-night", "--division", "A", str(path), stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[0] == "format wespa: config.tsh's rating_list is 'wespa'"
    assert lines[-1] == "2 ratings would change (--apply to set)"

    tournament.tsh_config = "division A a.t\nconfig rating_list{'A'} = 'nsa'\n"
    tournament.save()
    assert tsh_settings.rating_list_asked(division) == ("nsa", "naspa")
    tournament.tsh_config = "division A a.t\nconfig rating_list = 'naspa-csw'\n"
    tournament.save()
    assert tsh_settings.rating_list_asked(division) == ("naspa-csw", "naspa")
    tournament.tsh_config = "division A a.t\nconfig rating_list = 'absp'\n"
    tournament.save()
    assert tsh_settings.rating_list_asked(division) == ("absp", None)
    assert (
        "“<bdi>absp</bdi>”, which Spread does not read" in desk.get(url(division)).content.decode()
    )
    with pytest.raises(CommandError, match="config.tsh names 'absp', which Spread does not read"):
        call_command("useratings", "club-night", "--division", "A", str(path), stdout=StringIO())
