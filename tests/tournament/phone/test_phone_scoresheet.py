"""A player's scoresheet from their personal link: typed and checked by the engine as it is
typed (the desk's own check), saved through the desk's scoresheet service with the player as
the actor, flagged as the desk's sheets are; only the game's two players may send it."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from tournament.core import bounds
from tournament.models import Change, Division, Game, Round, Scoresheet
from tournament.phone import services as phone
from tournament.results import services as results
from tournament.scoresheets import services as scoresheets


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    cache.clear()


@pytest.fixture
def on(division: Division) -> Division:
    division.self_report = True
    division.save()
    Round.objects.create(division=division, number=1, published=True)
    return division


def _token(division: Division, number: int) -> str:
    return phone.issue_link(division.players.get(number=number))


def _url(token: str, game: Game, check: bool = False) -> str:
    return reverse("phone-sheet-check" if check else "phone-sheet", args=[token, game.pk])


def _messages(response) -> str:
    return "\n".join(str(m) for m in response.context["messages"])


def test_the_phone_checks_each_line_as_the_desk_does(
    on: Division, game_of: Callable[..., Game], desk: Client
) -> None:
    game = game_of(1)
    text = "#player1 Ada Ada Quill\n#player2 Ben Ben Crane\n>Ada: DJINNRS 8D DJINN +32 32\n"

    mine = Client().post(_url(_token(on, 1), game, check=True), {"gcg": text}).json()
    theirs = desk.post(f"/desk/spring-open/games/{game.pk}/scoresheet/check", {"gcg": text}).json()

    assert mine == theirs
    assert [(f["code"], f["expected"], f["recorded"]) for f in mine["findings"]] == [
        ("wrong_score", 30, 32),
        ("not_finished", None, None),
    ]


def test_the_form_starts_with_the_players_first_player_first(
    on: Division, game_of: Callable[..., Game]
) -> None:
    response = Client().get(_url(_token(on, 6), game_of(5)))

    assert response.status_code == 200
    assert response.context["text"] == "#player1 Gus Stone, Gus\n#player2 Fay North, Fay\n"
    assert response["Cache-Control"] == "no-store"


def test_a_typed_sheet_is_saved_with_the_player_as_actor_and_the_desk_sees_whose(
    on: Division, game_of: Callable[..., Game], desk: Client, record: Callable[..., str]
) -> None:
    game = game_of(1)
    response = Client().post(_url(_token(on, 2), game), {"gcg": record()}, follow=True)

    assert "Scoresheet saved: the engine found nothing wrong." in _messages(response)
    sheet = Scoresheet.objects.get()
    assert (sheet.game, sheet.uploaded_by, sheet.sent_by.number, sheet.verified) == (
        game,
        None,
        2,
        True,
    )
    change = Change.objects.get(action="upload")
    assert (change.scoresheet, change.user, change.player.number) == (sheet, None, 2)
    page = desk.get(f"/desk/spring-open/games/{game.pk}/").content.decode()
    assert "from <bdi>Crane, Ben</bdi>'s phone" in page


def test_a_sheet_that_disagrees_with_the_recorded_result_is_flagged(
    on: Division, game_of: Callable[..., Game], director: User, record: Callable[..., str]
) -> None:
    game = game_of(1)
    results.enter_line(on, 1, "1 200 2 240", director)

    response = Client().post(_url(_token(on, 1), game), {"gcg": record()}, follow=True)

    assert "Its final scores differ from the recorded result: it is flagged." in _messages(response)
    assert Scoresheet.objects.get().flagged is True


def test_a_sheet_sent_before_the_result_is_flagged_when_the_result_disagrees(
    on: Division, game_of: Callable[..., Game], director: User, record: Callable[..., str]
) -> None:
    game = game_of(1)
    Client().post(_url(_token(on, 1), game), {"gcg": record()})
    assert Scoresheet.objects.get().flagged is False

    results.enter_line(on, 1, "1 21 2 24", director)

    assert Scoresheet.objects.get().flagged is True


def test_sending_again_replaces_the_players_own_sheet_only(
    on: Division, game_of: Callable[..., Game], record: Callable[..., str]
) -> None:
    game = game_of(1)
    ada, ben = _token(on, 1), _token(on, 2)
    Client().post(_url(ada, game), {"gcg": record()})
    Client().post(_url(ben, game), {"gcg": record("A", "Ada Quill", "B", "Ben Crane")})
    first = Scoresheet.objects.get(sent_by__number=1)

    fixed = record().replace("WITHY +33 33", "WITHY +34 34")
    Client().post(_url(ada, game), {"gcg": fixed})

    assert Scoresheet.objects.count() == 2
    first.refresh_from_db()
    assert first.gcg == fixed and first.verified is False
    assert Scoresheet.objects.get(sent_by__number=2).gcg == record(
        "A", "Ada Quill", "B", "Ben Crane"
    )
    change = Change.objects.get(action="correct")
    assert (change.scoresheet, change.player.number, change.reason) == (
        first,
        1,
        "sent again from the player's link",
    )


def test_a_sheet_the_desk_resolved_is_not_replaced_from_the_phone(
    on: Division, game_of: Callable[..., Game], director: User, record: Callable[..., str]
) -> None:
    game = game_of(1)
    results.enter_line(on, 1, "1 200 2 240", director)
    ada = _token(on, 1)
    Client().post(_url(ada, game), {"gcg": record()})
    scoresheets.resolve_scoresheet(Scoresheet.objects.get(), director, "checked the paper")

    response = Client().post(_url(ada, game), {"gcg": record().replace("+33 33", "+34 34")})

    assert response.status_code == 400
    assert response.context["error"] == (
        "The desk has already dealt with your scoresheet: see the desk to change it."
    )
    assert Scoresheet.objects.get().gcg == record()


def test_a_desk_sheet_is_never_touched_from_the_phone(
    on: Division, game_of: Callable[..., Game], director: User, record: Callable[..., str]
) -> None:
    game = game_of(1)
    desk_sheet = scoresheets.attach_scoresheet(game, record(), director)

    Client().post(_url(_token(on, 1), game), {"gcg": record("A", "Ada Quill", "B", "Ben Crane")})

    desk_sheet.refresh_from_db()
    assert desk_sheet.gcg == record() and desk_sheet.uploaded_by == director
    assert Scoresheet.objects.count() == 2


def test_an_uploaded_gcg_file_is_saved_with_its_name(
    on: Division, game_of: Callable[..., Game], record: Callable[..., str]
) -> None:
    game = game_of(1)
    upload = SimpleUploadedFile("ada-ben.gcg", record().encode("utf-16"))

    Client().post(_url(_token(on, 1), game), {"gcg": "", "file": upload})

    sheet = Scoresheet.objects.get()
    assert sheet.gcg == record() and sheet.engine_report.file == "ada-ben.gcg"


def test_an_empty_sheet_is_refused(on: Division, game_of: Callable[..., Game]) -> None:
    response = Client().post(_url(_token(on, 1), game_of(1)), {"gcg": "  \n\n "})

    assert response.status_code == 400
    assert response.context["error"] == "The scoresheet is empty: type your moves or choose a file."
    assert not Scoresheet.objects.exists()


def test_an_oversized_sheet_is_refused_typed_or_uploaded(
    on: Division, game_of: Callable[..., Game]
) -> None:
    game, token = game_of(1), _token(on, 1)
    big = "#note " + "x" * scoresheets.MAX_SCORESHEET_BYTES

    typed = Client().post(_url(token, game), {"gcg": big})
    uploaded = Client().post(
        _url(token, game), {"gcg": "", "file": SimpleUploadedFile("big.gcg", big.encode())}
    )

    assert typed.context["error"] == (
        "The scoresheet is 262,150 bytes, over the 256 KiB a game record can take: not saved."
    )
    assert uploaded.context["error"] == (
        "\u2068big.gcg\u2069 is too large to be a scoresheet: not saved."
    )
    assert not Scoresheet.objects.exists()


def test_only_the_two_players_of_the_game_may_send_or_check_it(
    on: Division, game_of: Callable[..., Game], record: Callable[..., str]
) -> None:
    game, cora = game_of(1), _token(on, 3)

    assert Client().get(_url(cora, game)).status_code == 404
    assert Client().post(_url(cora, game), {"gcg": record()}).status_code == 404
    assert Client().post(_url(cora, game, check=True), {"gcg": record()}).status_code == 404
    assert Client().post(_url("not-a-token", game), {"gcg": record()}).status_code == 404
    assert not Scoresheet.objects.exists()


def test_a_revoked_link_sends_nothing(
    on: Division, game_of: Callable[..., Game], record: Callable[..., str]
) -> None:
    game, token = game_of(1), _token(on, 1)
    phone.revoke_links(on.players.get(number=1))

    assert Client().post(_url(token, game), {"gcg": record()}).status_code == 404
    assert not Scoresheet.objects.exists()


def test_an_unpublished_round_has_no_sheet_page(
    division: Division, game_of: Callable[..., Game]
) -> None:
    division.self_report = True
    division.save()
    Round.objects.create(division=division, number=1, published=False)

    assert Client().get(_url(_token(division, 1), game_of(1))).status_code == 404


@pytest.mark.parametrize(
    ("switch", "message"),
    [
        ("locked_round", "Round 1 is locked: bring your scoresheet to the desk."),
        ("off", "Sending scoresheets from this page is turned off: bring yours to the desk."),
        ("locked_tournament", "The tournament is locked: bring your scoresheet to the desk."),
    ],
)
def test_a_locked_round_or_tournament_or_self_report_off_refuses(
    on: Division,
    game_of: Callable[..., Game],
    record: Callable[..., str],
    switch: str,
    message: str,
) -> None:
    if switch == "locked_round":
        Round.objects.filter(division=on, number=1).update(locked=True)
    elif switch == "off":
        on.self_report = False
        on.save()
    else:
        on.tournament.locked = True
        on.tournament.save()
    game, token = game_of(1), _token(on, 1)

    saved = Client().post(_url(token, game), {"gcg": record()})
    checked = Client().post(_url(token, game, check=True), {"gcg": record()})

    assert saved.status_code == 400 and saved.context["error"] == message
    assert checked.status_code == 403 and checked.json() == {"error": message}
    assert not Scoresheet.objects.exists()


def test_saving_is_rate_limited_with_reports_and_checking_apart(
    on: Division, game_of: Callable[..., Game], record: Callable[..., str]
) -> None:
    game, token = game_of(1), _token(on, 1)
    for _ in range(phone.REPORTS_PER_MINUTE):
        assert phone.allow(token)

    response = Client().post(_url(token, game), {"gcg": record()})

    assert response.status_code == 400
    assert (
        response.context["error"] == "Too many reports from this link in a minute: wait a moment."
    )
    assert not Scoresheet.objects.exists()
    assert Client().post(_url(token, game, check=True), {"gcg": record()}).status_code == 200
    # The checks have a budget of their own, charged by what is checked.
    spent = bounds.check_cost(record())
    assert phone.spend(token, bounds.CHECK_BUDGET - spent)
    checked = Client().post(_url(token, game, check=True), {"gcg": record()})
    assert checked.status_code == 429
    assert checked.json() == {"error": "Too many checks in a minute: wait a moment."}


def test_the_players_page_links_to_their_scoresheet(
    on: Division, game_of: Callable[..., Game], record: Callable[..., str]
) -> None:
    token, game = _token(on, 1), game_of(1)
    link = f'href="{_url(token, game)}"'

    before = Client().get(reverse("phone", args=[token])).content.decode()
    Client().post(_url(token, game), {"gcg": record()})
    after = Client().get(reverse("phone", args=[token])).content.decode()

    assert link in before and "Type or upload your scoresheet" in before
    assert link in after and "Your scoresheet: look or change it" in after


def test_the_desk_queue_lists_the_sheets_sent_from_phones(
    on: Division, game_of: Callable[..., Game], desk: Client, record: Callable[..., str]
) -> None:
    game = game_of(1)
    Client().post(_url(_token(on, 2), game), {"gcg": record()})
    sheet = Scoresheet.objects.get()

    response = desk.get(reverse("desk-claims", args=["spring-open", on.pk]))

    assert [(s.pk, s.sent_by.name) for s in response.context["sent"]] == [(sheet.pk, "Crane, Ben")]
    page = response.content.decode()
    assert reverse("desk-scoresheet", args=["spring-open", sheet.pk]) in page
    assert reverse("desk-report", args=["spring-open", on.pk, "slips", "pdf"]) in page
