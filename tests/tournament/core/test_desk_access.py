"""Only a tournament's own directors may use its desk: a stranger, a player and the director of
another tournament are refused every page and every change, and are shown no edit control."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from tournament.core.forms import form_error
from tournament.models import Change, Division, Game, Player, Scoresheet, Tournament
from tournament.results import services as results
from tournament.results.forms import EntryForm
from tournament.scoresheets import services as scoresheets

OUTSIDERS = ["stranger", "player_user", "other_director"]


@pytest.fixture
def sheet(
    division: Division,
    director: User,
    game_of: Callable[[int], Game],
    record: Callable[..., str],
) -> Scoresheet:
    results.enter_line(division, 1, "1 20 2 25", director)
    return scoresheets.attach_scoresheet(game_of(1), record(), director)  # flagged: it says 20-24


def pages(division: Division, sheet: Scoresheet) -> list[str]:
    d, g, s = division.pk, sheet.game_id, sheet.pk
    return [
        "/desk/spring-open/",
        "/desk/spring-open/changes/",
        f"/desk/spring-open/division/{d}/round/1/",
        f"/desk/spring-open/division/{d}/round/1/check?line=1+455+2+389",
        f"/desk/spring-open/division/{d}/upload/",
        f"/desk/spring-open/games/{g}/",
        f"/desk/spring-open/games/{g}/scoresheet/",
        f"/desk/spring-open/scoresheets/{s}/",
        f"/desk/spring-open/scoresheets/{s}/edit/",
    ]


def posts(division: Division, sheet: Scoresheet) -> list[tuple[str, dict]]:
    d, g, s = division.pk, sheet.game_id, sheet.pk
    game_record = sheet.gcg

    def upload() -> SimpleUploadedFile:
        return SimpleUploadedFile("r1.gcg", game_record.encode())

    return [
        (f"/desk/spring-open/division/{d}/round/1/enter", {"line": "3 402 4 398"}),
        (f"/desk/spring-open/division/{d}/undo", {"round": "1"}),
        (f"/desk/spring-open/division/{d}/upload/", {"action": "upload", "files": [upload()]}),
        (
            f"/desk/spring-open/division/{d}/upload/",
            {"action": "assign", "count": "1", "name_0": "x", "text_0": "x", "game_0": str(g)},
        ),
        (
            f"/desk/spring-open/games/{g}/",
            {"score1": "1", "score2": "2", "first": "1", "version": "1", "reason": "x"},
        ),
        (f"/desk/spring-open/games/{g}/scoresheet/", {"gcg": game_record}),
        (f"/desk/spring-open/games/{g}/scoresheet/check", {"gcg": game_record}),
        (f"/desk/spring-open/games/{g}/upload", {"file": upload()}),
        (f"/desk/spring-open/scoresheets/{s}/edit/", {"gcg": "x", "reason": "x"}),
        (f"/desk/spring-open/scoresheets/{s}/resolve", {"reason": "x"}),
    ]


def state() -> tuple:
    return (
        list(Game.objects.values_list("pk", "score1", "score2", "kind", "version")),
        Change.objects.count(),
        list(Scoresheet.objects.values_list("pk", "gcg", "flagged", "resolved")),
    )


def assert_no_edit_control(page: str) -> None:
    for control in [
        'action="/desk',
        'name="line"',
        'name="score1"',
        'name="gcg"',
        "Undo",
        "Resolve",
    ]:
        assert control not in page


@pytest.mark.parametrize("who", OUTSIDERS)
def test_an_outsider_is_refused_every_desk_page_and_shown_no_edit_control(
    request: pytest.FixtureRequest,
    client_for: Callable[[User], Client],
    division: Division,
    sheet: Scoresheet,
    who: str,
) -> None:
    client = client_for(request.getfixturevalue(who))

    for url in pages(division, sheet):
        response = client.get(url)
        assert response.status_code == 403, url
        assert_no_edit_control(response.content.decode())


@pytest.mark.parametrize("who", OUTSIDERS)
def test_an_outsider_can_change_nothing(
    request: pytest.FixtureRequest,
    client_for: Callable[[User], Client],
    division: Division,
    sheet: Scoresheet,
    who: str,
) -> None:
    client = client_for(request.getfixturevalue(who))
    before = state()

    for url, data in posts(division, sheet):
        response = client.post(url, data)
        assert response.status_code == 403, url
        assert_no_edit_control(response.content.decode())

    assert state() == before


def test_someone_not_logged_in_is_sent_to_log_in_and_changes_nothing(
    client: Client, division: Division, sheet: Scoresheet
) -> None:
    before = state()

    for url in pages(division, sheet):
        response = client.get(url)
        assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    for url, data in posts(division, sheet):
        response = client.post(url, data)
        assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")

    assert state() == before


def test_the_director_of_another_tournament_cannot_reach_this_one_through_their_own(
    client_for: Callable[[User], Client],
    other_director: User,
    division: Division,
    sheet: Scoresheet,
) -> None:
    client = client_for(other_director)
    before = state()
    d, g, s = division.pk, sheet.game_id, sheet.pk

    for url in [
        f"/desk/autumn-open/division/{d}/round/1/",
        f"/desk/autumn-open/games/{g}/",
        f"/desk/autumn-open/scoresheets/{s}/",
    ]:
        assert client.get(url).status_code == 404
    assert (
        client.post(
            f"/desk/autumn-open/division/{d}/round/1/enter", {"line": "3 402 4 398"}
        ).status_code
        == 404
    )
    assert client.post(f"/desk/autumn-open/scoresheets/{s}/resolve").status_code == 404
    assert state() == before


def test_the_desk_lists_only_the_tournaments_one_directs(
    client_for: Callable[[User], Client],
    desk: Client,
    tournament: Tournament,
    other_director: User,
    stranger: User,
) -> None:
    assert "Spring Open" in desk.get("/desk/").content.decode()
    other = client_for(other_director).get("/desk/").content.decode()
    assert "Autumn Open" in other and "Spring Open" not in other
    mine = client_for(stranger).get("/desk/").content.decode()
    assert "You direct no tournament" in mine and "Spring Open" not in mine


def test_both_directors_of_the_tournament_may_use_its_desk(
    desk: Client, second_desk: Client, division: Division, sheet: Scoresheet
) -> None:
    for client in (desk, second_desk):
        for url in pages(division, sheet):
            assert client.get(url).status_code == 200, url


def test_a_player_account_is_not_a_director_even_when_named_like_a_player(
    client_for: Callable[[User], Client], player_user: User, division: Division
) -> None:
    assert Player.objects.filter(name="Quill, Ada").exists()

    response = client_for(player_user).get(f"/desk/spring-open/division/{division.pk}/round/1/")

    assert response.status_code == 403


def test_a_forms_errors_read_as_one_line_each_after_its_field() -> None:
    form = EntryForm({"line": "", "version": "-1"})

    assert not form.is_valid()
    assert form_error(form) == (
        "line: This field is required. version: Ensure this value is greater than or equal to 0."
    )
