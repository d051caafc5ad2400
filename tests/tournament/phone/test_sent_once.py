"""A write from a player's phone taken once, however often it is sent (tournament/phone/offline.py):
a report, a check-in or a scoresheet sent again with its idempotency key is answered as the first
time and writes nothing; the key is kept in the database with the write, so a cache outage does
not record twice; a report kept offline for a game recorded since is answered with the result."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.core.cache import cache
from django.test import Client, override_settings
from django.urls import reverse

from tournament.models import Change, Claim, Division, Game, Player, Scoresheet, SentOnce
from tournament.phone import checkin, offline
from tournament.phone import services as phone

KEY = "0b6f1c2e-4a5d-4c3b-9e8f-7a6b5c4d3e2f"
WAITING = "Reported. Waiting for \u2068Crane, Ben\u2069 to report too."
AGREED = "Both reports agree: the result is recorded."


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    cache.clear()


@pytest.fixture
def on(division: Division) -> Division:
    division.self_report = True
    division.check_in_open = True
    division.save()
    return division


def _player(division: Division, number: int) -> Player:
    return division.players.get(number=number)


def _post(token: str, name: str, data: dict, queue: bool = False) -> tuple[int, str, list[str]]:
    """Post from the player's page (as its queue does with `queue`): the status, where it sends
    the phone, and the messages the page then shows."""
    client = Client()
    headers = {"X-Spread-Queue": "send"} if queue else {}
    response = client.post(reverse(name, args=[token]), data, headers=headers)
    where = response.json()["go"] if queue else response["Location"]
    shown = client.get(where)
    return response.status_code, where, [str(m) for m in shown.context["messages"]]


def test_the_key_is_8_to_64_letters_digits_dashes_or_underscores() -> None:
    assert offline.key_of({"idempotency_key": KEY}) == KEY
    assert offline.key_of({"idempotency_key": "a" * 8}) == "a" * 8
    assert offline.key_of({"idempotency_key": "a" * 64}) == "a" * 64
    assert offline.key_of({"idempotency_key": "a" * 7}) is None
    assert offline.key_of({"idempotency_key": "a" * 65}) is None
    assert offline.key_of({"idempotency_key": "abcdefgh; DROP"}) is None
    assert offline.key_of({"idempotency_key": "ａｂｃｄｅｆｇｈ"}) is None  # fullwidth letters
    assert offline.key_of({}) is None


def test_a_report_sent_again_with_its_key_is_answered_as_the_first_and_records_once(
    on: Division, game_of: Callable[..., Game]
) -> None:
    ada, ben = _player(on, 1), _player(on, 2)
    assert phone.report(ada, game_of(1), 420, 380, key="ada-first-try").message == WAITING
    assert phone.report(ben, game_of(1), 380, 420, key="ben-first-try").message == AGREED
    changes = Change.objects.count()
    # Both phones heard nothing and send again: the first answers, nothing written.
    again = phone.report(ben, game_of(1), 380, 420, key="ben-first-try")
    assert (again.recorded, again.message) == (True, AGREED)
    assert phone.report(ada, game_of(1), 420, 380, key="ada-first-try").message == WAITING
    game = game_of(1)
    assert (game.score1, game.score2) == (420, 380)
    assert Change.objects.count() == changes
    assert Change.objects.filter(game=game).count() == 1
    assert not Claim.objects.exists()
    assert sorted(SentOnce.objects.values_list("player__number", "key")) == [
        (1, "ada-first-try"),
        (2, "ben-first-try"),
    ]


def test_a_stale_offline_report_of_a_recorded_game_is_answered_with_the_result(
    on: Division, game_of: Callable[..., Game]
) -> None:
    ada, ben = _player(on, 1), _player(on, 2)
    phone.report(ada, game_of(1), 420, 380)
    phone.report(ben, game_of(1), 380, 420)
    # Ada's phone kept another report while offline, sent once the network is back.
    token = phone.issue_link(ada)
    data = {"game": game_of(1).pk, "my_score": "500", "opponent_score": "300"}
    status, _, shown = _post(token, "phone-report", {**data, "idempotency_key": KEY}, queue=True)
    assert status == 200
    assert shown == [
        "Already recorded: \u2068Quill, Ada\u2069 420 – \u2068Crane, Ben\u2069 380. Your report "
        "was not applied: see the desk to correct it."
    ]
    game = game_of(1)
    assert (game.score1, game.score2) == (420, 380)
    assert Change.objects.filter(game=game).count() == 1
    assert not Claim.objects.exists()


def test_a_report_goes_to_the_game_its_form_was_made_for(
    on: Division, game_of: Callable[..., Game]
) -> None:
    ada, ben = _player(on, 1), _player(on, 2)
    token = phone.issue_link(ada)
    first = game_of(1)
    # Round 2 is paired while Ada's report of round 1 waits on her phone.
    Game.objects.create(division=on, round=2, table=1, player1=ada, player2=ben, first=1)
    data = {"game": first.pk, "my_score": "410", "opponent_score": "390", "idempotency_key": KEY}
    status, where, shown = _post(token, "phone-report", data, queue=True)
    assert (status, where, shown) == (200, f"/p/{token}/", [WAITING])
    assert list(Claim.objects.values_list("game__round", "my_score", "opponent_score")) == [
        (1, 410, 390)
    ]
    # A game that is not the player's is no game to report.
    other = game_of(3)
    data = {"game": other.pk, "my_score": "410", "opponent_score": "390"}
    assert _post(token, "phone-report", data)[2] == ["You have no game to report."]


def test_a_repeat_survives_a_cache_outage(on: Division, game_of: Callable[..., Game]) -> None:
    ada, ben = _player(on, 1), _player(on, 2)
    phone.report(ada, game_of(1), 420, 380)
    token = phone.issue_link(ben)
    data = {"game": game_of(1).pk, "my_score": "380", "opponent_score": "420"}
    data["idempotency_key"] = KEY
    assert _post(token, "phone-report", data, queue=True)[2] == [AGREED]
    dummy = {"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}
    with override_settings(CACHES=dummy):  # the cache is gone: nothing kept, nothing found
        assert _post(token, "phone-report", data, queue=True)[2] == [AGREED]
        assert _post(token, "phone-report", data)[2] == [AGREED]
    assert Change.objects.filter(game=game_of(1)).count() == 1
    assert SentOnce.objects.count() == 1


def test_a_refusal_is_answered_again_in_the_same_words(on: Division) -> None:
    on.games.all().delete()  # check-in by phone is open until round 1 is paired
    on.check_in_open = False
    on.save()
    ada = _player(on, 1)
    with pytest.raises(checkin.CheckInRefused, match="Check-in is not open"):
        checkin.check_in(ada, key=KEY)
    on.check_in_open = True
    on.save()
    ada.refresh_from_db()
    # The same send again: refused as it was, nothing done; a new tap checks in.
    with pytest.raises(checkin.CheckInRefused, match="Check-in is not open"):
        checkin.check_in(ada, key=KEY)
    ada.refresh_from_db()
    assert not ada.checked_in
    checkin.check_in(ada, key="a-new-tap-of-the-button")
    ada.refresh_from_db()
    assert ada.checked_in


def test_a_check_in_sent_by_the_queue_is_answered_where_to_go(on: Division) -> None:
    on.games.all().delete()  # check-in by phone is open until round 1 is paired
    token = phone.issue_link(_player(on, 1))
    data = {"idempotency_key": KEY}
    assert _post(token, "phone-check-in", data, queue=True) == (
        200,
        f"/p/{token}/",
        ["\u2068Quill, Ada\u2069: checked in."],
    )
    assert _post(token, "phone-check-in", data, queue=True)[2] == [
        "\u2068Quill, Ada\u2069: checked in."
    ]
    assert SentOnce.objects.get().answer == {"new": True}
    assert Change.objects.filter(action=Change.Action.CHECK_IN).count() == 1


def test_a_scoresheet_sent_again_with_its_key_saves_one_sheet(
    on: Division, game_of: Callable[..., Game], record: Callable[..., str]
) -> None:
    ada = _player(on, 1)
    game = game_of(1)
    text = record()
    first = phone.send_sheet(ada, game, text, key=KEY)
    again = phone.send_sheet(ada, game, text + "#note sent again\n", key=KEY)
    assert again.pk == first.pk
    assert Scoresheet.objects.get().gcg == first.gcg
    assert SentOnce.objects.get().answer == {"sheet": first.pk}


def test_the_queue_is_told_to_wait_when_the_link_is_over_its_limit(on: Division) -> None:
    token = phone.issue_link(_player(on, 1))
    for _ in range(phone.REPORTS_PER_MINUTE):
        phone.allow(token)
    response = Client().post(
        reverse("phone-check-in", args=[token]),
        {"idempotency_key": KEY},
        headers={"X-Spread-Queue": "send"},
    )
    assert response.status_code == 429
    assert response.json() == {
        "error": "Too many reports from this link in a minute: wait a moment.",
        "again": True,
    }
    assert not SentOnce.objects.exists()


def test_two_copies_racing_answer_the_first_and_take_the_second_back(
    on: Division, game_of: Callable[..., Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    ada = _player(on, 1)
    # The twin's answer is committed after this copy looked for it, before it stored its own.
    SentOnce.objects.create(player=ada, key=KEY, answer={"message": "the first"})
    looked = []
    real = offline.answered

    def late(player: Player | int, key: str | None) -> offline.Answer | None:
        looked.append(key)
        return None if len(looked) == 1 else real(player, key)

    monkeypatch.setattr(offline, "answered", late)

    def write() -> offline.Answer:
        Claim.objects.create(game=game_of(1), player=ada, my_score=1, opponent_score=2)
        return {"message": "the second"}

    assert offline.once(ada, KEY, write) == {"message": "the first"}
    assert not Claim.objects.exists()
    assert looked == [KEY, KEY]


def test_a_players_oldest_keys_are_dropped(on: Division, monkeypatch) -> None:
    monkeypatch.setattr(offline, "KEPT", 3)
    ada, ben = _player(on, 1), _player(on, 2)
    offline.once(ben, "ben-only-key", dict)
    for n in range(5):
        offline.once(ada, f"key-number-{n}", dict)
    assert sorted(SentOnce.objects.values_list("key", flat=True)) == [
        "ben-only-key",
        "key-number-2",
        "key-number-3",
        "key-number-4",
    ]


def test_a_dispute_sent_again_with_its_key_after_its_answer_opens_no_other(
    on: Division, director, game_of: Callable[..., Game]
) -> None:
    from tournament.models import Dispute
    from tournament.phone import disputes
    from tournament.results import services as results

    results.enter_line(on, 1, "1 400 2 350", director)
    game = game_of(1)
    ben = _player(on, 2)
    first = disputes.open_dispute(ben, game, "I scored 360, not 350", key=KEY)
    disputes.answer_stands(first, director)
    # The phone never heard the answer and sends the same dispute again: the first answer.
    again = disputes.open_dispute(ben, game, "I scored 360, not 350", key=KEY)
    assert again.pk == first.pk
    assert Dispute.objects.count() == 1
    assert Change.objects.filter(action=Change.Action.DISPUTE, player=ben).count() == 1
