"""Numbers that are not: superscripts, circled digits, thousands of digits and NUL bytes typed
where the desk or a page's address wants a number give a message, never a server error.

The desk's division of the conftest: seven players, round 1 paired.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tournament.core import bounds
from tournament.models import Division, Game
from tournament.results import services as results

HUGE = "9" * 5000  # int() refuses a number of more than 4,300 digits
NOT_NUMBERS = ["²", "①", "٣", HUGE, "1\x00", "\x00"]


def desk_url(name: str, division: Division, *args) -> str:
    return reverse(name, args=[division.tournament.slug, division.pk, *args])


@pytest.mark.parametrize(
    "line, message",
    [
        ("² 400 1 300", "'²' is not a player number."),
        ("① 400 2 300", "'①' is not a player number."),
        ("1 ² 2 300", "'²' is not a score, bye or forfeit."),
        ("1 400 ² 300", "'²' is not a player number."),
        ("1 400 2 ³⁰⁰", "'³⁰⁰' is not a score."),
        ("1 400 2 ٣٠٠", "'٣٠٠' is not a score."),
        (f"{HUGE} 400 2 300", f"'{'9' * 20}…' is not a player number."),
        (f"1 {HUGE} 2 300", f"'{'9' * 20}…' is not a score, bye or forfeit."),
        ("1\x00 400 2 300", "'1?' is not a player number."),
    ],
)
def test_a_token_that_is_not_plain_ascii_digits_is_not_a_number(line: str, message: str) -> None:
    with pytest.raises(results.EntryError) as refused:
        results.parse_line(line)
    assert str(refused.value) == message


def test_plain_number() -> None:
    assert bounds.plain_number("0042") == 42
    assert bounds.plain_number("-7", signed=True) == -7
    assert bounds.plain_number("-7") is None
    assert [bounds.plain_number(t) for t in NOT_NUMBERS + ["", " 1", "1 ", "+1"]] == [None] * 10


@pytest.mark.django_db
@pytest.mark.parametrize("line", ["①", "² 400 1 300", f"1 400 2 {HUGE}", "1 400\x00 2 300"])
def test_the_check_of_the_entry_line_answers_with_a_message(
    desk: Client, division: Division, line: str
) -> None:
    response = desk.get(desk_url("desk-entry-check", division, 1), {"line": line})

    assert response.status_code == 200
    check = response.json()
    assert check["ok"] is False
    assert check["errors"][0].endswith(
        ("is not a player number.", "is not a score.", "is not a score, bye or forfeit.")
    )


@pytest.mark.django_db
@pytest.mark.parametrize("line", ["² 400 1 300", "1 400 2 ³⁰⁰", f"1 400 2 {HUGE[:90]}"])
def test_entering_a_line_with_a_number_that_is_not_answers_400_with_the_reason(
    desk: Client, division: Division, line: str
) -> None:
    response = desk.post(desk_url("desk-enter", division, 1), {"line": line})

    assert response.status_code == 400
    assert "is not a" in response.content.decode()
    assert not division.games.exclude(score1=None).exists()


@pytest.mark.django_db
def test_a_nul_byte_in_the_entry_line_is_a_form_error(desk: Client, division: Division) -> None:
    response = desk.post(desk_url("desk-enter", division, 1), {"line": "1 400 2 300\x00"})

    assert response.status_code == 400
    assert "Null characters are not allowed." in response.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("player", ["²", "①", HUGE, "\x00", "1 400 2"])
def test_a_forfeit_for_a_player_that_is_not_a_number_is_refused(
    desk: Client, division: Division, player: str
) -> None:
    response = desk.post(desk_url("desk-forfeit", division, 1), {"player": player}, follow=True)

    assert response.status_code == 200
    assert "Choose the player who forfeits by their number." in response.content.decode()
    assert not division.games.filter(kind=Game.FORFEIT).exists()


@pytest.mark.django_db
@pytest.mark.parametrize("round_text", ["²", HUGE, "\x00"])
def test_undo_with_a_round_that_is_not_a_number(
    desk: Client, division: Division, director, round_text: str
) -> None:
    results.enter_line(division, 1, "1 400 2 300", director)

    response = desk.post(
        desk_url("desk-undo", division),
        {"round": round_text},
        HTTP_ACCEPT="application/json",
    )

    assert response.status_code == 200
    assert response.json()["ok"] is True
    assert not division.games.exclude(score1=None).exists()


@pytest.mark.django_db
@pytest.mark.parametrize("value", ["²", "①", HUGE, "\x00"])
def test_a_page_or_download_asked_for_a_round_that_is_not_a_number_is_a_404(
    client: Client, desk: Client, division: Division, director, value: str
) -> None:
    results.enter_line(division, 1, "1 400 2 300", director)
    slug, name = division.tournament.slug, division.name
    public = [
        reverse("standings", args=[slug, name]),
        reverse("ratings", args=[slug, name]),
        reverse("public-report", args=[slug, name, "standings", "pdf"]),
    ]
    for url in public:
        assert client.get(url, {"round": value}).status_code == 404, url
    report = desk_url("desk-report", division, "standings", "xlsx")
    assert desk.get(report, {"round": value}).status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize("pairs", ["² 3", "1 ①", f"{HUGE} 2", "² bye"])
def test_manual_pairings_that_are_not_numbers_are_a_form_error(
    desk: Client, division: Division, pairs: str
) -> None:
    response = desk.post(desk_url("desk-pair-manual", division, 2), {"pairs": pairs}, follow=True)

    assert response.status_code == 200
    assert "is not two player numbers or “N bye”." in response.content.decode()
    assert not division.games.filter(round=2).exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "field, value, message",
    [
        ("gibson_spread_text", "²", "Gibson spread: whole numbers"),
        ("prize_bands_text", f"1, {HUGE}", "Prize bands: whole numbers"),
    ],
)
def test_division_settings_that_are_not_numbers_are_a_form_error(
    desk: Client, division: Division, field: str, value: str, message: str
) -> None:
    form = {
        "planned_rounds": 5,
        "max_repeats": 1,
        "bye_spread": 50,
        "forfeit_spread": 50,
        "rating_system": "nsa2008",
        "avoid_same": "",
        "schedule": "",
        "gibson_spread_text": "",
        "prize_bands_text": "",
        "forbidden": "",
    }
    form[field] = value

    response = desk.post(desk_url("desk-division-settings", division), form)

    assert response.status_code == 400
    assert message in response.content.decode()


@pytest.mark.django_db
def test_a_roster_with_numbers_that_are_not_names_the_rows(
    desk: Client, division: Division
) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    data = f"Name,Rating,Number\nZed Able,²,8\nYan Bold,1400,①\nXi Cole,{HUGE},9\n".encode()
    roster = SimpleUploadedFile("roster.csv", data)

    response = desk.post(desk_url("desk-roster", division), {"file": roster}, follow=True)

    assert response.status_code == 200
    page = response.content.decode()
    assert "row 2: the rating &#x27;²&#x27; is not a whole number" in page
    assert "row 3: the number &#x27;①&#x27; is not a whole number" in page
    assert f"row 4: the rating &#x27;{'9' * 20}&#x27; is not a whole number" in page
    assert division.players.count() == 7
