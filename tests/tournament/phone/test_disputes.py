"""A player says a recorded result is wrong from their link (tournament/phone/disputes.py): the
game on the desk's "Still to settle" with their words, the desk's answer ("it stands", or a
correction) on both players' phones; one open dispute a game and player, bounded plain text,
the link's rate limit."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from tournament.core.sentences import FSI, PDI
from tournament.exchange import backup
from tournament.models import Change, Dispute, Division, Game, Round
from tournament.phone import disputes
from tournament.phone import services as phone
from tournament.results import services as results
from tournament.results import unresolved

WORDS = "I won 400–390: the slip had the scores the other way round."


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    cache.clear()


@pytest.fixture
def played(division: Division, director: User) -> Division:
    """Round 1 published, Ada 420 – Ben 380 recorded at the desk."""
    Round.objects.create(division=division, number=1, published=True)
    results.enter_line(division, 1, "1 420 2 380", director)
    return division


def _text(html: str) -> str:
    """A page's text: tags and isolation marks taken off, spaces run together."""
    text = re.sub(r"<[^>]+>", "", html).replace(FSI, "").replace(PDI, "")
    return re.sub(r"\s+", " ", text.replace("&#x27;", "'"))


def _page(token: str) -> str:
    return _text(Client().get(reverse("phone", args=[token])).content.decode())


def _send(token: str, game: Game | int, text: str, **data: str) -> tuple[int, str]:
    """The dispute form sent; its status (after the redirect) and text."""
    pk = game if isinstance(game, int) else game.pk
    response = Client().post(
        reverse("phone-dispute", args=[token]), {"game": str(pk), "text": text, **data}, follow=True
    )
    return response.status_code, _text(response.content.decode())


def _tokens(division: Division) -> tuple[str, str]:
    return (
        phone.issue_link(division.players.get(number=1)),
        phone.issue_link(division.players.get(number=2)),
    )


def test_a_dispute_reaches_the_desk_with_the_players_words(
    played: Division, desk: Client, game_of: Callable[..., Game]
) -> None:
    ada, ben = _tokens(played)
    assert "This result is wrong" in _page(ben)
    form = Client().get(reverse("phone-dispute", args=[ben]) + f"?game={game_of(1).pk}")
    assert form.status_code == 200 and form["Cache-Control"] == "no-store"
    assert f'<option value="{game_of(1).pk}" selected>' in form.content.decode()
    assert "Round 1, 1 Quill, Ada: 380–420" in _text(form.content.decode())

    status, page = _send(ben, game_of(1), WORDS)
    assert status == 200
    assert "Sent to the desk. Its answer will be on this page." in page
    assert f"You said this result is wrong: {WORDS} The desk will answer here." in page
    assert "This result is wrong" not in page  # one open dispute a game and player
    theirs = _page(ada)
    assert "Crane, Ben said this result is wrong. The desk will answer here." in theirs
    assert WORDS not in theirs  # the words are the player's and the desk's

    dispute = Dispute.objects.get()
    assert (dispute.player.number, dispute.text, dispute.answer) == (2, WORDS, "")
    change = Change.objects.get(action=Change.Action.DISPUTE)
    assert (change.player, change.user, change.game) == (dispute.player, None, game_of(1))

    sentence = (
        f"Round 1, table 1: 1 Quill, Ada v 2 Crane, Ben: Crane, Ben says the result is wrong: "
        f"{WORDS}"
    )
    dashboard = _text(desk.get(reverse("desk-dashboard", args=["spring-open"])).content.decode())
    assert f"{sentence} It stands or correct it" in dashboard
    entry = desk.get(reverse("desk-entry", args=["spring-open", played.pk, 1])).content.decode()
    assert f"{sentence} It stands or correct it" in _text(entry)
    [item] = [i for i in unresolved.for_division(played) if i.kind == unresolved.DISPUTE]
    assert item.dispute == dispute and item.round == 1
    # Each word of the player's in its own direction, as every name.
    assert f"says the result is wrong: {FSI}{WORDS}{PDI}" in item.sentence


def test_it_stands_reaches_both_phones(
    played: Division, desk: Client, director: User, game_of: Callable[..., Game]
) -> None:
    ada, ben = _tokens(played)
    _send(ben, game_of(1), WORDS)
    dispute = Dispute.objects.get()
    url = reverse("desk-dispute-answer", args=["spring-open", played.pk, dispute.pk])
    response = desk.post(url, {"back": "entry"})
    assert response.status_code == 302
    assert response["Location"] == (
        reverse("desk-entry", args=["spring-open", played.pk, 1]) + "#unresolved"
    )
    dispute.refresh_from_db()
    assert (dispute.answer, dispute.answered_by) == ("stands", director)
    assert Change.objects.filter(action=Change.Action.DISPUTE, user=director).count() == 1

    assert f"You said this result is wrong: {WORDS} The desk answered: it stands." in _page(ben)
    assert "Crane, Ben said this result is wrong. The desk answered: it stands." in _page(ada)
    assert "This result is wrong" in _page(ben)  # a new dispute may be opened
    assert not [i for i in unresolved.for_division(played) if i.kind == unresolved.DISPUTE]
    dashboard = _text(desk.get(reverse("desk-dashboard", args=["spring-open"])).content.decode())
    assert "It stands or correct it" not in dashboard
    assert "The result stands (Crane, Ben said it was wrong)" in dashboard  # the change log

    again = _text(desk.post(url, follow=True).content.decode())
    assert "This dispute is already answered." in again
    log = _text(
        desk.get(reverse("desk-game", args=["spring-open", game_of(1).pk])).content.decode()
    )
    assert f"dispute game said to be wrong: {WORDS}" in log
    assert "dispute game said to be wrong: " + WORDS + " the result stands" in log


def test_an_earlier_games_dispute_stays_on_both_phones(
    played: Division, director: User, game_of: Callable[..., Game]
) -> None:
    ada, ben = _tokens(played)
    _send(ben, game_of(1), WORDS)
    one, two = played.players.get(number=1), played.players.get(number=2)
    Game.objects.create(division=played, round=2, table=1, player1=two, player2=one, first=1)
    Round.objects.create(division=played, number=2, published=True)

    page = _page(ben)
    assert "Round 2 Table 1" in page and "This result is wrong" not in page  # no result yet
    assert (
        f"Round 1, against Quill, Ada You said this result is wrong: {WORDS} "
        "The desk will answer here."
    ) in page
    assert "Another result is wrong? Tell the desk" not in page  # theirs is open
    theirs = _page(ada)
    assert "Round 1, against Crane, Ben Crane, Ben said this result is wrong." in theirs
    assert "Another result is wrong? Tell the desk" in theirs
    form = Client().get(reverse("phone-dispute", args=[ada])).content.decode()
    assert f'<option value="{game_of(1).pk}" selected>' in form  # the latest with a result


def test_a_correction_answers_it_and_both_phones_show_the_result(
    played: Division, desk: Client, director: User, game_of: Callable[..., Game]
) -> None:
    ada, ben = _tokens(played)
    _send(ben, game_of(1), WORDS)
    game = game_of(1)
    response = desk.post(
        reverse("desk-game", args=["spring-open", game.pk]),
        {"version": game.version, "score1": "390", "score2": "400", "first": "1",
         "reason": "slip read the wrong way"},
        follow=True,
    )  # fmt: skip
    said = _text(response.content.decode())
    assert "It answers the word of Crane, Ben that the result was wrong." in said
    dispute = Dispute.objects.get()
    assert (dispute.answer, dispute.answered_by) == ("corrected", director)
    assert "The desk corrected the result: 400–390." in _page(ben)
    assert "Crane, Ben said this result is wrong. The desk corrected the result: 390–400." in (
        _page(ada)
    )
    assert not [i for i in unresolved.for_division(played) if i.kind == unresolved.DISPUTE]


def test_one_open_dispute_a_game_and_player(played: Division, game_of: Callable[..., Game]) -> None:
    ada, ben = _tokens(played)
    _send(ben, game_of(1), WORDS)
    status, page = _send(ben, game_of(1), WORDS)  # the same words again: a retry
    assert status == 200 and "Sent to the desk." in page
    status, page = _send(ben, game_of(1), "Something else.")
    assert status == 400
    assert "You have already said this result is wrong: the desk will answer." in page
    _send(ada, game_of(1), "The scores are right but Ben went first.")
    assert sorted(Dispute.objects.values_list("player__number", flat=True)) == [1, 2]
    assert Change.objects.filter(action=Change.Action.DISPUTE).count() == 2


def test_the_words_are_bounded_plain_text(
    played: Division, desk: Client, game_of: Callable[..., Game]
) -> None:
    _, ben = _tokens(played)
    status, page = _send(ben, game_of(1), "x" * 501)
    assert status == 400 and "Say it in 500 characters or fewer: yours has 501." in page
    status, page = _send(ben, game_of(1), " \n\t ")
    assert status == 400 and "Say what is wrong with the result." in page
    assert not Dispute.objects.exists()

    hostile = "<script>alert(1)</script>\x00\u202e=cmd\r\n\r\n\r\n\r\nسلام\u200cها"
    status, _page_text = _send(ben, game_of(1), hostile)
    assert status == 200
    assert Dispute.objects.get().text == "<script>alert(1)</script>=cmd\n\nسلام\u200cها"
    html = Client().get(reverse("phone", args=[ben])).content.decode()
    assert "<script>alert" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    dashboard = desk.get(reverse("desk-dashboard", args=["spring-open"])).content.decode()
    assert "<script>alert" not in dashboard and "&lt;script&gt;alert(1)" in dashboard


def test_disputes_are_rate_limited_per_link(played: Division, game_of: Callable[..., Game]) -> None:
    _, ben = _tokens(played)
    for _ in range(phone.REPORTS_PER_MINUTE):
        assert _send(ben, game_of(1), WORDS)[0] == 200
    status, page = _send(ben, game_of(1), WORDS)
    assert status == 400
    assert "Too many reports from this link in a minute: wait a moment." in page
    assert Dispute.objects.count() == 1


def test_what_cannot_be_disputed(played: Division, game_of: Callable[..., Game]) -> None:
    ada, ben = _tokens(played)
    cora = phone.issue_link(played.players.get(number=3))
    assert "This result is wrong" not in _page(cora)  # no result yet
    status, page = _send(cora, game_of(3), WORDS)
    assert status == 400 and "This game has no result yet." in page
    status, page = _send(cora, game_of(1), WORDS)
    assert status == 400 and "This is not one of your games." in page
    assert "None of your games has a result yet." in _text(
        Client().get(reverse("phone-dispute", args=[cora])).content.decode()
    )
    round_1 = Round.objects.get(division=played, number=1)
    round_1.locked = True
    round_1.save()
    status, page = _send(ben, game_of(1), WORDS)
    assert status == 400 and "Round 1 is locked: see the desk." in page
    assert "This result is wrong" not in _page(ben)
    round_1.locked = False
    round_1.save()
    played.tournament.locked = True
    played.tournament.save()
    status, page = _send(ben, game_of(1), WORDS)
    assert status == 400 and "The tournament is locked: see the desk." in page
    assert Client().post(reverse("phone-dispute", args=["made-up"]), {}).status_code == 404
    assert not Dispute.objects.exists()


def test_only_the_tournaments_desk_answers(
    played: Division,
    client_for: Callable[[User], Client],
    stranger: User,
    other_director: User,
    game_of: Callable[..., Game],
) -> None:
    _, ben = _tokens(played)
    _send(ben, game_of(1), WORDS)
    dispute = Dispute.objects.get()
    url = reverse("desk-dispute-answer", args=["spring-open", played.pk, dispute.pk])
    assert client_for(other_director).post(url).status_code == 403
    assert client_for(stranger).post(url).status_code == 403
    assert Client().post(url).status_code == 302  # to the login page
    dispute.refresh_from_db()
    assert dispute.answer == ""
    played.tournament.scorekeepers.add(stranger)  # a scorekeeper may answer
    response = client_for(stranger).post(url)
    assert response["Location"].endswith(
        reverse("desk-dashboard", args=["spring-open"]) + "#unresolved"
    )
    dispute.refresh_from_db()
    assert dispute.answer == "stands"


def test_the_idempotency_key_is_passed_to_the_service(
    played: Division, game_of: Callable[..., Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, ben = _tokens(played)
    keys: list[str | None] = []
    real = disputes.open_dispute

    def spy(player, game, text, key=None):  # noqa: ANN001, ANN202
        keys.append(key)
        return real(player, game, text, key=key)

    monkeypatch.setattr(disputes, "open_dispute", spy)
    _send(ben, game_of(1), WORDS, idempotency_key="offline-7")
    assert keys == ["offline-7"]
    assert Dispute.objects.count() == 1


def test_a_backup_keeps_the_disputes_and_their_answers(
    played: Division, director: User, game_of: Callable[..., Game]
) -> None:
    ada, ben = _tokens(played)
    _send(ben, game_of(1), WORDS)
    _send(ada, game_of(1), "Ben went first, not me.")
    disputes.answer_stands(Dispute.objects.get(player__number=2), director)
    data = backup.write(played.tournament)
    restored = backup.restore(data, slug="spring-copy").tournament
    assert sorted(
        Dispute.objects.filter(game__division__tournament=restored).values_list(
            "player__name", "text", "answer", "answered_by__username"
        )
    ) == [
        ("Crane, Ben", WORDS, "stands", "alice"),
        ("Quill, Ada", "Ben went first, not me.", "", None),
    ]
