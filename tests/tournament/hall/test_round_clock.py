"""The round's clock (tournament/hall/clock.py): its services with a controlled time, the desk's
panel and buttons (directors only), `manage.py clock`, the API, and every change logged."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

from tournament.hall import clock
from tournament.models import Change, Division, RoundClock

T0 = datetime(2026, 12, 2, 10, 0, 0, tzinfo=UTC)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def test_start_counts_down_from_the_length_typed(division: Division, director: User) -> None:
    started = clock.start(division, 20, 3, director, now=T0)

    assert started == {
        "shown": True,
        "running": True,
        "ends_at": "2026-12-02T10:20:00+00:00",
        "remaining": 1200,
        "round": 3,
        "length": 1200,
        "now": "2026-12-02T10:00:00+00:00",
    }
    assert clock.state(division, at(61.5))["remaining"] == 1139  # 1138.5 left: 18:59 shown
    assert clock.state(division, at(1200))["running"] is False
    assert clock.state(division, at(1300))["remaining"] == 0


def test_start_without_a_length_takes_the_divisions_default(division: Division) -> None:
    division.clock_minutes = 30
    division.save()

    assert clock.start(division, now=T0)["remaining"] == 1800


def test_pause_and_resume_keep_the_exact_seconds_left(division: Division, director: User) -> None:
    clock.start(division, 25, 1, director, now=T0)

    paused = clock.pause(division, director, now=at(100.25))  # 1399.75 left: shown 1400
    assert (paused["running"], paused["ends_at"], paused["remaining"]) == (False, None, 1400)
    assert clock.state(division, at(500))["remaining"] == 1400  # a pause holds its seconds

    resumed = clock.resume(division, director, now=at(600))
    assert resumed["ends_at"] == "2026-12-02T10:33:20+00:00"  # 600 + 1400 s after 10:00
    assert clock.state(division, at(700))["remaining"] == 1300
    again = clock.pause(division, director, now=at(1000))
    assert again["remaining"] == 1000


def test_reset_goes_back_to_the_length_paused_and_stop_hides_it(division: Division) -> None:
    clock.start(division, 10, 2, now=T0)
    clock.pause(division, now=at(30))

    reset = clock.reset(division, now=at(40))
    assert (reset["running"], reset["remaining"], reset["length"]) == (False, 600, 600)
    stopped = clock.stop(division, now=at(50))
    assert stopped["shown"] is False and not RoundClock.objects.filter(division=division).exists()
    assert clock.state(division, at(60)) == {
        "shown": False,
        "running": False,
        "ends_at": None,
        "remaining": 0,
        "round": None,
        "length": 0,
        "now": "2026-12-02T10:01:00+00:00",
    }


@pytest.mark.parametrize(
    ("step", "message"),
    [
        (clock.pause, "The clock of this division is not started."),
        (clock.resume, "The clock of this division is not started."),
        (clock.reset, "The clock of this division is not started."),
        (clock.stop, "The clock of this division is not started."),
    ],
)
def test_a_clock_not_started_refuses(division: Division, step, message: str) -> None:
    with pytest.raises(clock.ClockRefused, match=message):
        step(division)
    assert not Change.objects.exists()


def test_pausing_a_paused_clock_and_resuming_a_running_one_are_refused(division: Division) -> None:
    clock.start(division, 5, now=T0)
    with pytest.raises(clock.ClockRefused, match="The clock is running already."):
        clock.resume(division, now=at(1))
    clock.pause(division, now=at(2))
    with pytest.raises(clock.ClockRefused, match="The clock is not running."):
        clock.pause(division, now=at(3))
    assert Change.objects.count() == 2  # the start and the pause, nothing for the refusals


@pytest.mark.parametrize("minutes", [0, 601, -5, True, "25"])
def test_a_length_out_of_range_is_refused(division: Division, minutes) -> None:
    with pytest.raises(clock.ClockRefused, match="A round's clock runs from 1 to 600 minutes"):
        clock.start(division, minutes, now=T0)
    assert not RoundClock.objects.exists()


def test_every_change_is_logged_with_before_and_after(division: Division, director: User) -> None:
    clock.start(division, 25, 4, director, now=T0)
    clock.pause(division, director, now=at(60))
    clock.stop(division, director, now=at(70))

    changes = list(Change.objects.order_by("pk"))
    assert [c.action for c in changes] == ["clock", "clock", "clock"]
    assert [c.after["did"] if c.after else None for c in changes] == ["start", "pause", "stop"]
    assert all(c.user == director for c in changes)
    assert changes[0].before == {"clock": None}
    started = {
        "round": 4,
        "length": 1500,
        "ends_at": "2026-12-02T10:25:00+00:00",
        "remaining": None,
    }
    assert changes[0].after == {"clock": started, "did": "start"}
    paused = {"round": 4, "length": 1500, "ends_at": None, "remaining": 1440}
    assert changes[1].before == {"clock": started} and changes[1].after["clock"] == paused
    assert changes[2].before == {"clock": paused} and changes[2].after == {
        "clock": None,
        "did": "stop",
    }


# -- the desk -----------------------------------------------------------------------------------


def _press(client: Client, division: Division, **data: str):
    url = reverse("desk-clock", args=[division.tournament.slug, division.pk])
    return client.post(url, {"round": "1", **data})


def test_the_director_starts_and_pauses_it_from_the_round_page(
    desk: Client, division: Division
) -> None:
    page = desk.get(reverse("desk-entry", args=["spring-open", division.pk, 1])).content.decode()
    assert "Round clock" in page and "Start (25 min unless typed)" in page

    response = _press(desk, division, action="start", minutes="20")
    assert response.status_code == 302
    assert response["Location"] == reverse("desk-entry", args=["spring-open", division.pk, 1])
    clock_row = RoundClock.objects.get(division=division)
    assert (clock_row.length, clock_row.round, clock_row.remaining) == (1200, 1, None)
    page = desk.get(response["Location"]).content.decode()
    assert "The clock is running." in page and 'value="pause"' in page

    _press(desk, division, action="pause")
    clock_row.refresh_from_db()
    assert clock_row.ends_at is None and 1195 <= clock_row.remaining <= 1200


def test_the_default_length_when_none_is_typed(desk: Client, division: Division) -> None:
    _press(desk, division, action="start", minutes="")
    assert RoundClock.objects.get(division=division).length == 1500


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"action": "start", "minutes": "twenty"}, "Type the clock&#x27;s length in whole minutes"),
        ({"action": "start", "minutes": "900"}, "A round&#x27;s clock runs from 1 to 600 minutes"),
        ({"action": "pause"}, "The clock of this division is not started."),
        ({"action": "explode"}, "The clock has no such button."),
    ],
)
def test_a_bad_press_says_why_and_changes_nothing(
    desk: Client, division: Division, data: dict, message: str
) -> None:
    response = _press(desk, division, **data)
    page = desk.get(response["Location"]).content.decode()
    assert message in page
    assert not RoundClock.objects.exists() and not Change.objects.exists()


def test_strangers_scorekeepers_and_visitors_cannot_touch_it(
    division: Division, stranger: User, client_for, director: User
) -> None:
    clock.start(division, 25, 1, director, now=T0)
    keeper = User.objects.create_user("keeper")
    division.tournament.scorekeepers.add(keeper)
    before = RoundClock.objects.values().get()

    assert _press(client_for(stranger), division, action="stop").status_code == 403
    assert _press(client_for(keeper), division, action="pause").status_code == 403
    anonymous = _press(Client(), division, action="reset")
    assert anonymous.status_code == 302 and "/login" in anonymous["Location"]
    assert (
        client_for(director)
        .get(reverse("desk-clock", args=["spring-open", division.pk]))
        .status_code
        == 405
    )
    assert RoundClock.objects.values().get() == before
    assert Change.objects.count() == 1
    # A scorekeeper enters results on the round's page but is shown no clock buttons.
    page = client_for(keeper).get(reverse("desk-entry", args=["spring-open", division.pk, 1]))
    assert page.status_code == 200 and "Round clock" not in page.content.decode()


# -- the command ----------------------------------------------------------------------------------


def test_the_command_starts_pauses_and_stops(division: Division) -> None:
    out = StringIO()
    call_command("clock", "spring-open", "--division", "a", "--start", "15", stdout=out)
    assert out.getvalue().startswith("running, 15:00 left, ends ")
    assert Change.objects.get().user is None

    out = StringIO()
    call_command("clock", "spring-open", "--division", "A", "--pause", stdout=out)
    assert out.getvalue().strip() in ("paused, 15:00 left", "paused, 14:59 left")
    call_command("clock", "spring-open", "--division", "A", "--reset", stdout=StringIO())
    out = StringIO()
    call_command("clock", "spring-open", "--division", "A", "--show", stdout=out)
    assert out.getvalue().strip() == "paused, 15:00 left"
    out = StringIO()
    call_command("clock", "spring-open", "--division", "A", "--stop", stdout=out)
    assert out.getvalue().strip() == "no clock"
    assert not RoundClock.objects.exists()


def test_the_command_with_no_length_takes_the_default(division: Division) -> None:
    call_command("clock", "spring-open", "--division", "A", "--start", "0", stdout=StringIO())
    assert RoundClock.objects.get().length == 1500


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nowhere", "--division", "A", "--stop"], "no division 'A' in tournament 'nowhere'"),
        (
            ["spring-open", "--division", "Z", "--stop"],
            "no division 'Z' in tournament 'spring-open'",
        ),
        (
            ["spring-open", "--division", "A", "--pause"],
            "The clock of this division is not started.",
        ),
        (["spring-open", "--division", "A", "--start", "700"], "runs from 1 to 600 minutes"),
    ],
)
def test_the_command_says_what_is_wrong(division: Division, args: list, message: str) -> None:
    with pytest.raises(CommandError, match=message):
        call_command("clock", *args, stdout=StringIO())


# -- the API -----------------------------------------------------------------------------------


def test_the_api_answers_the_clock_and_304_while_it_is_unchanged(division: Division) -> None:
    url = reverse("api-clock", args=["spring-open", "A"])
    none = Client().get(url)
    assert none.status_code == 200
    assert {k: none.json()[k] for k in ("running", "ends_at", "remaining", "shown")} == {
        "running": False,
        "ends_at": None,
        "remaining": 0,
        "shown": False,
    }
    etag = none["ETag"]
    assert Client().get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304

    clock.start(division, 25, 1)
    fresh = Client().get(url, HTTP_IF_NONE_MATCH=etag)
    assert fresh.status_code == 200 and fresh["ETag"] != etag
    data = fresh.json()
    ends = datetime.fromisoformat(data["ends_at"])
    now = datetime.fromisoformat(data["now"])
    assert data["running"] is True and data["length"] == 1500
    assert data["remaining"] == int((ends - now).total_seconds() + 0.999999)
    assert Client().get(url, HTTP_IF_NONE_MATCH=fresh["ETag"]).status_code == 304
    clock.pause(division)
    assert Client().get(url, HTTP_IF_NONE_MATCH=fresh["ETag"]).status_code == 200


def test_the_api_is_for_public_events_only(division: Division) -> None:
    clock.start(division, 25, 1)
    division.tournament.public = False
    division.tournament.save()
    assert Client().get(reverse("api-clock", args=["spring-open", "A"])).status_code == 404
    assert Client().get(reverse("api-clock", args=["spring-open", "Q"])).status_code == 404


def test_the_display_page_names_each_divisions_clock_feed(division: Division) -> None:
    page = Client().get("/t/spring-open/A/display/").content.decode()
    assert '<script id="display-clocks" type="application/json">' in page
    assert '["/api/v1/t/spring-open/A/clock"]' in page
    assert 'id="round-clock" hidden' in page and 'id="display-ticker" hidden' in page
