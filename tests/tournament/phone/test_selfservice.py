"""Players' personal links and their own reports of results (tournament/phone/services.py)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from io import StringIO

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from tournament.models import Change, Claim, Division, Game, Round
from tournament.phone import services as phone
from tournament.results import claims as reports


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    cache.clear()


@pytest.fixture
def on(division: Division) -> Division:
    division.self_report = True
    division.save()
    return division


def _token(division: Division, number: int) -> str:
    return phone.issue_link(division.players.get(number=number))


def _report(token: str, mine: str, theirs: str) -> str:
    response = Client().post(
        reverse("phone-report", args=[token]),
        {"my_score": mine, "opponent_score": theirs},
        follow=True,
    )
    assert response.status_code == 200
    return "\n".join(str(m) for m in response.context["messages"])


def test_both_agree_records_the_result_with_the_player_as_actor(
    on: Division, game_of: Callable[..., Game]
) -> None:
    ada, ben = _token(on, 1), _token(on, 2)
    assert "Waiting for \u2068Crane, Ben\u2069 to report too." in _report(ada, "420", "380")
    assert game_of(1).score1 is None
    assert "the result is recorded" in _report(ben, "380", "420")
    game = game_of(1)
    assert (game.score1, game.score2, game.first) == (420, 380, 1)
    change = Change.objects.get(game=game)
    assert change.action == Change.Action.CREATE
    assert change.player is not None and change.player.number == 2 and change.user is None
    assert not Claim.objects.exists()


def test_the_pairings_first_player_stands_whoever_reports_last(
    on: Division, game_of: Callable[..., Game]
) -> None:
    gus, fay = _token(on, 6), _token(on, 5)  # Gus (player2) was to go first
    _report(fay, "300", "400")
    _report(gus, "400", "300")
    game = game_of(5)
    assert (game.score1, game.score2, game.first) == (300, 400, 2)


def test_disagreement_records_nothing_and_waits_in_the_desk_queue(
    on: Division, game_of: Callable[..., Game], desk: Client
) -> None:
    ada, ben = _token(on, 1), _token(on, 2)
    _report(ada, "420", "380")
    assert "\u2068Quill, Ada\u2069 reported 420–380: the desk will decide" in _report(
        ben, "390", "420"
    )
    assert game_of(1).score1 is None
    [(game, claims)] = reports.pending(on)
    assert [(c.player.number, c.my_score, c.opponent_score) for c in claims] == [
        (1, 420, 380),
        (2, 390, 420),
    ]
    url = reverse("desk-claims", args=["spring-open", on.pk])
    page = desk.get(url)
    # The scores are one left-to-right run (<bdi>) in every language.
    assert "Accept Crane, Ben: 390–420" in re.sub(r"<[^>]+>", "", page.content.decode())
    desk.post(url, {"claim": claims[1].pk})
    game = game_of(1)
    assert (game.score1, game.score2) == (420, 390)
    assert Change.objects.get(game=game).user is not None
    assert reports.pending(on) == []


def test_one_side_only_records_nothing_and_the_desk_may_type_the_result(
    on: Division, game_of: Callable[..., Game], desk: Client
) -> None:
    _report(_token(on, 3), "350", "360")
    assert game_of(3).score1 is None
    assert len(reports.pending(on)) == 1
    url = reverse("desk-claims", args=["spring-open", on.pk])
    desk.post(url, {"round": "1", "line": "4 360 3 351"})
    game = game_of(3)
    assert (game.score1, game.score2) == (351, 360)
    assert reports.pending(on) == []


def test_a_player_changes_their_report_until_it_is_recorded(
    on: Division, game_of: Callable[..., Game]
) -> None:
    ada, ben = _token(on, 1), _token(on, 2)
    _report(ada, "420", "380")
    _report(ada, "421", "380")
    assert Claim.objects.get().my_score == 421
    _report(ben, "380", "421")
    assert game_of(1).score1 == 421
    assert _report(ada, "500", "380") == (
        "Already recorded: \u2068Quill, Ada\u2069 421 – \u2068Crane, Ben\u2069 380. Your report was"
        " not applied: see the desk to correct it."
    )
    assert game_of(1).score1 == 421


def test_a_strangers_or_made_up_link_is_not_found(on: Division, game_of) -> None:
    assert Client().get(reverse("phone", args=["not-a-real-token"])).status_code == 404
    response = Client().post(
        reverse("phone-report", args=["guess"]), {"my_score": "1", "opponent_score": "2"}
    )
    assert response.status_code == 404
    # A player who is not in the game cannot report it.
    cora = on.players.get(number=3)
    with pytest.raises(phone.ReportRefused, match="Only the two players"):
        phone.report(cora, game_of(1), 400, 300)


def test_a_revoked_link_no_longer_works(on: Division, game_of) -> None:
    old = _token(on, 1)
    new = _token(on, 1)  # a new link revokes the old one
    assert Client().get(reverse("phone", args=[old])).status_code == 404
    assert Client().get(reverse("phone", args=[new])).status_code == 200
    phone.revoke_links(on.players.get(number=1))
    response = Client().post(
        reverse("phone-report", args=[new]), {"my_score": "400", "opponent_score": "300"}
    )
    assert response.status_code == 404
    assert not Claim.objects.exists()


def test_a_locked_round_is_refused(on: Division) -> None:
    Round.objects.create(division=on, number=1, published=True, locked=True)
    assert "Round 1 is locked" in _report(_token(on, 1), "400", "300")
    assert not Claim.objects.exists()


def test_an_unpublished_round_cannot_be_seen_nor_reported(on: Division, game_of) -> None:
    Round.objects.create(division=on, number=1, published=False)
    token = _token(on, 1)
    assert "You have no game to report" in _report(token, "400", "300")
    page = Client().get(reverse("phone", args=[token])).content.decode()
    assert "No pairings for you yet" in page
    with pytest.raises(phone.ReportRefused, match="not published"):
        phone.report(on.players.get(number=1), game_of(1), 400, 300)


def test_an_empty_form_is_refused(on: Division) -> None:
    token = _token(on, 1)
    assert "Type your score in digits" in _report(token, "", "")
    assert "Type your opponent's in digits" in _report(token, "400", " ")
    assert "Type your score in digits" in _report(token, "４００", "300")  # no fullwidth digits
    assert "1500 is not a possible score" in _report(token, "1500", "300")
    assert not Claim.objects.exists()


def test_self_reporting_off_is_refused(division: Division) -> None:
    assert "turned off" in _report(_token(division, 1), "400", "300")
    assert not Claim.objects.exists()


def test_reports_are_rate_limited_per_link(on: Division) -> None:
    token = _token(on, 1)
    for _ in range(phone.REPORTS_PER_MINUTE):
        assert "Too many" not in _report(token, "400", "300")
    assert "Too many reports" in _report(token, "401", "300")
    assert Claim.objects.get().my_score == 400
    assert "Too many" not in _report(_token(on, 2), "300", "400")  # another link is not limited


def test_the_phone_page_shows_table_opponent_first_and_check_in(on: Division) -> None:
    token = _token(on, 2)
    page = Client().get(reverse("phone", args=[token])).content.decode()
    assert "Table 1" in page and "1 <bdi>Quill, Ada</bdi>" in page
    assert "<bdi>Quill, Ada</bdi> goes first." in page
    assert "Check in" not in page
    assert page.count('name="my_score"') == 1
    on.check_in_open = True
    on.save()
    # Round 1 is paired: check-in by phone is over (tests/tournament/phone/test_checkin.py).
    assert "Check in" not in Client().get(reverse("phone", args=[token])).content.decode()
    response = Client().post(reverse("phone-check-in", args=[token]), follow=True)
    assert "Round 1 is paired: check-in is over. See the desk." in response.content.decode()
    assert not on.players.get(number=2).checked_in


def test_check_in_is_refused_while_closed(on: Division) -> None:
    token = _token(on, 2)
    response = Client().post(reverse("phone-check-in", args=[token]), follow=True)
    assert "Check-in is not open" in response.content.decode()
    assert not on.players.get(number=2).checked_in


def test_the_desk_reissues_and_revokes_a_link(on: Division, desk: Client, stranger) -> None:
    old = _token(on, 1)
    url = reverse("desk-player-link", args=["spring-open", on.pk, 1])
    response = desk.post(url, {"action": "reissue", "confirm": "1"}, follow=True)
    assert "<bdi>Quill, Ada</bdi>&#x27;s new link: " in (response.content.decode())
    assert phone.player_for(old) is None
    desk.post(url, {"action": "revoke", "confirm": "1"})
    assert not on.players.get(number=1).links.filter(revoked=None).exists()
    outsider = Client()
    outsider.force_login(stranger)
    assert outsider.post(url, {"action": "reissue", "confirm": "1"}).status_code == 403


def test_the_desk_turns_self_reporting_on(division: Division, desk: Client) -> None:
    desk.post(reverse("desk-claims", args=["spring-open", division.pk]), {"self_report": "on"})
    division.refresh_from_db()
    assert division.self_report


def test_playerlinks_lists_every_player_and_keeps_the_links(division: Division) -> None:
    out = StringIO()
    call_command("playerlinks", "spring-open", "--division", "a", "--json", stdout=out)
    rows = json.loads(out.getvalue())
    assert [(r["number"], r["name"]) for r in rows][:2] == [(1, "Quill, Ada"), (2, "Crane, Ben")]
    assert len(rows) == 7
    token = rows[0]["url"].rsplit("/p/", 1)[1].strip("/")
    assert phone.player_for(token).number == 1
    again = StringIO()
    call_command("playerlinks", "spring-open", "--division", "A", "--json", stdout=again)
    assert json.loads(again.getvalue()) == rows


def test_the_demo_leaves_division_a_a_round_for_the_players_to_report(db: None) -> None:
    call_command("loaddemo", stdout=StringIO())
    division = Division.objects.get(tournament__slug="demo", name="A")
    assert division.self_report
    waiting = [
        g
        for g in Game.objects.published().filter(division=division, score1=None)
        if g.player2 is not None
    ]
    assert len(waiting) >= 3
    assert all(phone.can_report(g, g.player1) for g in waiting)


def test_a_locked_tournament_takes_no_report(on: Division) -> None:
    on.tournament.locked = True
    on.tournament.save()
    assert "The tournament is locked" in _report(_token(on, 1), "400", "300")
    assert not Claim.objects.exists()
