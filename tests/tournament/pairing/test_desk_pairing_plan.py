"""Pairing past the plan: once a division's planned rounds are paired, the desk offers no next
round by default, and pairing one more is asked first, on the page and by the server.

The desk's division (conftest): seven players, round 1 paired, three rounds planned.
"""

from __future__ import annotations

import html

import pytest
from django.test import Client
from django.urls import reverse

from tournament.models import Division
from tournament.results import services as results

ROUND_1 = ["1 400 2 350", "3 500 4 300", "6 450 5 350", "7 bye"]


def url(name: str, division: Division, *args) -> str:
    return reverse(name, args=[division.tournament.slug, division.pk, *args])


@pytest.fixture
def played(division: Division, director) -> Division:
    for line in ROUND_1:
        results.enter_line(division, 1, line, director)
    return division


@pytest.fixture
def one_planned(played: Division) -> Division:
    """Round 1, the only round planned, paired and played."""
    played.planned_rounds = 1
    played.save(update_fields=["planned_rounds"])
    return played


def page_text(response) -> str:
    return html.unescape(response.content.decode())


def test_the_pairing_page_offers_no_round_past_the_plan(desk: Client, one_planned) -> None:
    page = page_text(desk.get(url("desk-pairing", one_planned)))

    assert '<h3 id="plan-done">The 1 planned round is paired.</h3>' in page
    assert '<details id="past-plan">' in page  # closed until asked for
    assert "<summary>Pair round 2 past the plan…</summary>" in page
    assert "<h3>Pair round 2</h3>" not in page
    assert "The schedule pairs round 2" not in page
    assert (
        '<label><input type="checkbox" name="past_plan" id="id_past_plan"> '
        "Round 2 is past the 1 planned round. Pair it anyway?</label>"
    ) in page


def test_pairing_past_the_plan_without_the_answer_is_refused(desk: Client, one_planned) -> None:
    response = desk.post(url("desk-pair", one_planned), {"round": 2, "system": "koth"})

    assert response.status_code == 409
    messages = [str(m) for m in response.context["messages"]]
    assert messages == ["Round 2 is past the 1 planned round. Pair it anyway?"]
    assert '<details id="past-plan" open>' in response.content.decode()
    assert not one_planned.games.filter(round=2).exists()
    assert not one_planned.rounds.filter(number=2).exists()


def test_pairing_past_the_plan_with_the_answer_pairs_the_round(desk: Client, one_planned) -> None:
    response = desk.post(
        url("desk-pair", one_planned), {"round": 2, "system": "koth", "past_plan": "on"}
    )

    assert response.status_code == 302
    assert response.url == url("desk-round-pairings", one_planned, 2)
    assert one_planned.games.filter(round=2).count() == 4
    assert not one_planned.rounds.get(number=2).published


def test_the_question_counts_the_planned_rounds(desk: Client, played: Division) -> None:
    response = desk.post(url("desk-pair", played), {"round": 4, "system": "koth"})

    assert response.status_code == 409
    assert [str(m) for m in response.context["messages"]] == [
        "Round 4 is past the 3 planned rounds. Pair it anyway?"
    ]
    assert not played.games.filter(round=4).exists()


def test_a_round_within_the_plan_is_paired_without_a_question(
    desk: Client, played: Division
) -> None:
    page = page_text(desk.get(url("desk-pairing", played)))
    response = desk.post(url("desk-pair", played), {"round": 2, "system": "koth"})

    assert "<h3>Pair round 2</h3>" in page and 'id="past-plan' not in page
    assert response.status_code == 302
    assert played.games.filter(round=2).count() == 4


def test_a_division_without_a_plan_is_never_asked(desk: Client, played: Division) -> None:
    played.planned_rounds = None
    played.save(update_fields=["planned_rounds"])

    response = desk.post(url("desk-pair", played), {"round": 2, "system": "koth"})

    assert response.status_code == 302
    assert played.games.filter(round=2).count() == 4


def test_pairing_by_hand_past_the_plan_is_asked_too(desk: Client, one_planned) -> None:
    pairs = {"pairs": "1 3\n2 4\n5 7\n6 bye"}
    page = page_text(desk.get(url("desk-round-pairings", one_planned, 2)))

    refused = desk.post(url("desk-pair-manual", one_planned, 2), pairs, follow=True)
    saved_games = one_planned.games.filter(round=2).count()
    done = desk.post(url("desk-pair-manual", one_planned, 2), {**pairs, "past_plan": "on"})

    assert "Round 2 is past the 1 planned round. Pair it anyway?</label>" in page
    assert [str(m) for m in refused.context["messages"]] == [
        "Round 2 is past the 1 planned round. Pair it anyway?"
    ]
    assert saved_games == 0
    assert done.status_code == 302
    assert one_planned.games.filter(round=2).count() == 4


def test_a_round_past_the_plan_already_paired_is_paired_again_without_asking(
    desk: Client, one_planned
) -> None:
    desk.post(url("desk-pair", one_planned), {"round": 2, "system": "koth", "past_plan": "on"})

    again = desk.post(url("desk-pair", one_planned), {"round": 2, "system": "swiss"})

    assert again.status_code == 302
    assert one_planned.rounds.get(number=2).system == "swiss"


def test_the_dashboard_offers_no_round_past_the_plan(desk: Client, one_planned) -> None:
    page = page_text(desk.get(reverse("desk-dashboard", args=[one_planned.tournament.slug])))

    assert (
        "Next: Every round is played: check the scoresheets, lock the event, download the "
        ".tou file."
    ) in " ".join(page.replace("<strong>", "").replace("</strong>", "").split())
    assert "Pair round 2" not in page


def test_a_round_number_no_event_reaches_is_a_form_error(desk: Client, one_planned) -> None:
    response = desk.post(url("desk-pair", one_planned), {"round": "99999999999", "system": "koth"})
    manual = desk.post(
        url("desk-pair-manual", one_planned, 99999999999), {"pairs": "1 2"}, follow=True
    )

    assert response.status_code == 400
    assert [str(m) for m in response.context["messages"]] == [
        "round: Ensure this value is less than or equal to 10000."
    ]
    assert manual.status_code == 200
    assert not one_planned.games.filter(round__gt=1).exists()
