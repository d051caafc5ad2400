"""The phone page's live feed, /p/<token>/live (phone/views.live): a bare 304 while nothing the
page shows has changed, the page's body as soon as a round is published, a result recorded or
the round's clock changed; the public's view only (an unpublished round stays hidden)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from tournament.hall import clock
from tournament.models import Division, Game, Round
from tournament.phone import services as phone
from tournament.results import services as results


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    cache.clear()


@pytest.fixture
def on(division: Division) -> Division:
    division.self_report = True
    division.save()
    Round.objects.create(division=division, number=1, published=True)
    return division


def _live(token: str, etag: str = ""):
    headers = {"HTTP_IF_NONE_MATCH": etag} if etag else {}
    return Client().get(reverse("phone-live", args=[token]), **headers)


def _page_etag(token: str) -> str:
    page = Client().get(reverse("phone", args=[token])).content.decode()
    found = re.search(r'<script id="phone-live" type="application/json">(.*?)</script>', page)
    assert found is not None
    return json.loads(found.group(1))["etag"]


def test_an_unchanged_page_is_a_304_for_one_query(
    on: Division, django_assert_num_queries: Callable
) -> None:
    token = phone.issue_link(on.players.get(number=2))
    first = _live(token)
    assert first.status_code == 200 and first["Cache-Control"] == "no-cache, private"
    data = first.json()
    assert "Table 1" in data["body"] and "Quill, Ada" in data["body"]
    assert data["clock"]["shown"] is False
    assert _page_etag(token) == first["ETag"]  # the page starts from the feed's own tag

    with django_assert_num_queries(1):  # the link with its division and clock, and the claims
        again = _live(token, first["ETag"])
    assert again.status_code == 304 and again["ETag"] == first["ETag"]


def test_a_result_recorded_elsewhere_or_for_the_player_comes_in_the_feed(
    on: Division, director: User
) -> None:
    token = phone.issue_link(on.players.get(number=6))  # Gus, against Fay
    etag = _live(token)["ETag"]

    results.enter_line(on, 1, "3 400 4 300", director)  # not Gus's game: his rank moves
    moved = _live(token, etag)
    assert moved.status_code == 200 and "rank 2" in moved.json()["body"]
    results.enter_line(on, 1, "6 500 5 300", director)
    won = _live(token, moved["ETag"])
    # The scores stay left to right in any language (`|ltr`).
    body = re.sub(r'<bdi dir="ltr" class="ltr">([^<]*)</bdi>', r"\1", won.json()["body"])
    assert "Recorded: <bdi>North, Fay</bdi> 300 – <bdi>Stone, Gus</bdi> 500" in body
    assert 'name="my_score"' not in body
    assert _live(token, won["ETag"]).status_code == 304


def _plain(html: str) -> str:
    """The text without its left-to-right isolation (`|ltr`)."""
    return re.sub(r'<bdi dir="ltr" class="ltr">([^<]*)</bdi>', r"\1", html)


def _parts(token: str, etag: str):
    """A poll as static/phone.js sends it: it takes a record and rank without the body."""
    return Client().get(
        reverse("phone-live", args=[token]), HTTP_IF_NONE_MATCH=etag, HTTP_X_SPREAD_PARTS="1"
    )


def test_a_rank_moved_by_another_game_comes_alone_to_a_page_that_keeps_its_body(
    on: Division, director: User
) -> None:
    token = phone.issue_link(on.players.get(number=6))  # Gus, against Fay
    first = _live(token)
    etag = first["ETag"]
    assert '<div id="phone-standing"><p class="record">Record 0–0 · rank 1</p></div>' in _plain(
        first.json()["body"]
    )

    results.enter_line(on, 1, "3 400 4 300", director)  # not Gus's game: his rank moves
    moved = _parts(token, etag)
    assert moved.status_code == 200
    data = moved.json()
    assert set(data) == {"standing", "clock"}  # no body, no title: the page keeps its own
    assert _plain(data["standing"]) == '<p class="record">Record 0–0 · rank 2</p>'
    assert moved["ETag"] != etag and moved["ETag"].split("-")[0] == etag.split("-")[0]
    assert _parts(token, moved["ETag"]).status_code == 304

    # The same change to a page that does not take parts, or holds another body: the body.
    whole = _live(token, etag).json()
    assert '<div id="phone-standing"><p class="record">Record 0–0 · rank 2</p></div>' in (
        _plain(whole["body"])
    )
    assert whole["standing"] == data["standing"] and whole["title"]
    assert "body" in _parts(token, '"0123456789abcdef-0123456789abcdef"').json()
    assert "body" in _parts(token, "").json()

    results.enter_line(on, 1, "6 500 5 300", director)  # Gus's own game: his body changes
    won = _parts(token, moved["ETag"]).json()
    assert "Recorded:" in won["body"] and "Record 1–0 · rank 1" in _plain(won["body"])


def test_the_next_round_appears_once_published_and_not_before(
    on: Division, director: User, game_of: Callable[..., Game]
) -> None:
    ada, ben = (on.players.get(number=n) for n in (1, 2))
    token = phone.issue_link(ada)
    results.enter_line(on, 1, "1 400 2 300", director)
    etag = _live(token)["ETag"]
    Game.objects.create(division=on, round=2, table=4, player1=ada, player2=ben, first=2)
    hidden = Round.objects.create(division=on, number=2, published=False)

    assert _live(token, etag).status_code == 304  # the division changed, not the public's view
    hidden.published = True
    hidden.save()
    shown = _live(token, etag)
    assert shown.status_code == 200
    body = shown.json()["body"]
    assert "Round 2" in body and "Table 4" in body and "Crane, Ben" in body


def test_a_clock_change_comes_in_the_feed_with_the_servers_time(on: Division) -> None:
    token = phone.issue_link(on.players.get(number=3))
    etag = _live(token)["ETag"]
    clock.start(on, 25, 1)
    started = _live(token, etag)
    assert started.status_code == 200
    data = started.json()["clock"]
    assert (data["shown"], data["running"], data["length"]) == (True, True, 1500)
    assert data["now"] and data["ends_at"]
    assert _live(token, started["ETag"]).status_code == 304
    clock.pause(on)
    paused = _live(token, started["ETag"])
    assert paused.status_code == 200 and paused.json()["clock"]["ends_at"] is None


def test_a_revoked_link_has_no_feed(on: Division) -> None:
    player = on.players.get(number=1)
    token = phone.issue_link(player)
    assert _live(token).status_code == 200
    phone.revoke_links(player)
    assert _live(token).status_code == 404
    assert _live("not-a-token").status_code == 404


@pytest.mark.django_db(transaction=True)
def test_a_result_both_phones_agree_on_leaves_the_divisions_snapshot_made_for_the_polls(
    on: Division,
) -> None:
    from tournament.standings import memos

    ada, ben = on.players.get(number=1), on.players.get(number=2)
    phone.issue_link(ada)
    game = Game.objects.get(division=on, round=1, player1=ada, player2=ben)
    phone.report(ada, game, 400, 350)
    memos.clear_all()
    cache.clear()

    phone.report(ben, game, 350, 400)  # agreed: recorded, and after the commit ...

    on.refresh_from_db()
    kept = phone.kept_snapshot(on.pk, on.stamp)  # ... made under the new stamp
    assert kept is not None
    assert kept["standing"][ada.pk] == {"record": "1–0", "rank": 1}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("linked", [True, False], ids=["a phone linked", "no phone"])
def test_a_result_typed_at_the_desk_makes_the_snapshot_only_where_a_phone_polls(
    on: Division, django_user_model: type[User], linked: bool
) -> None:
    from tournament.standings import memos

    director = django_user_model.objects.create(username="td")
    on.tournament.directors.add(director)
    if linked:
        phone.issue_link(on.players.get(number=3))
    memos.clear_all()
    cache.clear()
    desk = Client()
    desk.force_login(director)

    saved = desk.post(
        reverse("desk-enter", args=[on.tournament.slug, on.pk, 1]),
        {"line": "1 400 2 350", "version": "", "reason": ""},
    )

    assert saved.status_code == 302
    on.refresh_from_db()
    assert Game.objects.get(division=on, round=1, player1__number=1).score1 == 400
    kept = phone.kept_snapshot(on.pk, on.stamp)
    assert (kept is not None) is linked


class _Broken:
    """A cursor on a connection the database has closed (a restart, a dropped socket)."""

    def __enter__(self) -> _Broken:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def execute(self, *args: object) -> None:
        from django.db import OperationalError

        raise OperationalError("server closed the connection unexpectedly")


@pytest.mark.django_db(transaction=True)
def test_a_poll_finds_a_broken_connection_itself_and_asks_again_on_a_new_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """No health check (`SELECT 1`) before a poll's one query: the query finds the broken
    connection, which is closed, and the query is sent once more. Only then: a query that fails
    after the request's check, or inside a transaction, fails as any query does."""
    from django.db import OperationalError, connection, transaction

    opened: list[str] = []
    real = connection.cursor

    def cursor():
        opened.append("broken" if not opened else "new")
        return _Broken() if opened[-1] == "broken" else real()

    monkeypatch.setattr(connection, "cursor", cursor)
    connection.health_check_done = False  # as at the start of a request
    assert phone._fresh_rows("SELECT 7", []) == [(7,)]
    assert opened == ["broken", "new"]

    opened.clear()
    connection.health_check_done = True  # checked already in this request: no second try
    with pytest.raises(OperationalError):
        phone._fresh_rows("SELECT 7", [])
    with transaction.atomic():
        opened.clear()
        connection.health_check_done = False
        with pytest.raises(OperationalError):
            phone._fresh_rows("SELECT 7", [])
        assert opened == ["broken"]
