"""A best-of-5 final at the desk: set up from the standings, games entered, decided after 3–0
or 3–2, its public page and its report; and a bracket of four."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tournament.models import Change, Division, PlayoffGame, Tournament
from tournament.playoffs import services as playoffs
from tournament.reports import data, make
from tournament.standings import read_model
from tournament.standings.stamps import read as read_stamps


@pytest.fixture
def division(tournament: Tournament, director: User) -> Division:
    from tournament.results import services as results

    division = tournament.divisions.get()
    for line in ("1 400 2 350", "3 380 4 390", "5 300 6 200"):
        results.enter_line(division, 1, line, director)
    return division


def desk_url(division: Division) -> str:
    return f"/desk/spring-open/division/{division.pk}/playoff/"


def top_two(division: Division) -> list[str]:

    rows = read_model.division_standings(division, 1, public=False, stamps=read_stamps(division))
    return [r.player.name for r in rows[:2]]


def playoffs_seeded(division: Division) -> list[tuple[str, int]]:
    state = playoffs.state(division)
    assert state is not None
    return [(state.players[pk].name, n) for n, pk in enumerate(state.playoff.seeds, 1)]


def enter(
    desk: Client, division: Division, score1: int, score2: int, slot: int = 1, stage: int = 1
) -> str:
    response = desk.post(
        desk_url(division),
        {"action": "game", "stage": stage, "slot": slot, "score1": score1, "score2": score2},
        follow=True,
    )
    return response.content.decode()


def test_a_best_of_5_final_decided_after_3_0(
    desk: Client, client: Client, division: Division, director: User
) -> None:
    response = desk.post(
        desk_url(division), {"action": "setup", "seeds": 2, "length": 5, "after": 1}, follow=True
    )
    assert "The playoff is set up." in response.content.decode()
    one, two = top_two(division)
    state = playoffs.state(division)
    assert state is not None and state.is_final
    assert [state.players[pk].name for pk in state.playoff.seeds] == [one, two]
    page = enter(desk, division, 450, 400)
    assert f"Game 1: <bdi>{one}</bdi> 450, <bdi>{two}</bdi> 400." in page
    assert f"Game 2 (<bdi>{two}</bdi> goes first)" in page
    assert "Not public yet." in page
    # Like a round, the playoff is the desk's until published: its page, report and API.
    public_url = reverse("playoff", args=["spring-open", division.name])
    hidden = client.get(public_url).content.decode()
    assert "This division has no playoff." in hidden and "1–0" not in hidden
    standings_url = reverse("standings", args=["spring-open", division.name])
    assert public_url not in client.get(standings_url).content.decode()
    assert client.get(f"/api/v1/t/spring-open/{division.name}/playoff").status_code == 404
    with pytest.raises(data.ReportError):
        data.playoffs(division, public=True)
    page = desk.post(desk_url(division), {"action": "publish"}, follow=True).content.decode()
    assert "The playoff is public now." in page and "Not public yet." not in page
    again = desk.post(desk_url(division), {"action": "publish"})
    assert again.status_code == 409
    assert "1–0" in client.get(public_url).content.decode()  # cached under the stamp
    enter(desk, division, 390, 380)
    assert "2–0" in client.get(public_url).content.decode()  # the entry renewed the stamp
    page = enter(desk, division, 501, 322)
    assert f"Won by <bdi>{one}</bdi>." in page
    assert 'name="score1"' not in page  # decided: no more entry
    refused = desk.post(
        desk_url(division),
        {"action": "game", "stage": 1, "slot": 1, "score1": 400, "score2": 300},
    )
    assert refused.status_code == 409
    assert PlayoffGame.objects.count() == 3
    assert Change.objects.filter(action=Change.Action.PLAYOFF).count() == 5
    assert [r[0] for r in playoffs_seeded(division)] == [one, two]

    public = client.get(reverse("playoff", args=["spring-open", division.name])).content.decode()
    assert "3–0" in public and f"Won by <bdi>{one}</bdi>." in public
    standings = client.get(reverse("standings", args=["spring-open", division.name]))
    assert reverse("playoff", args=["spring-open", division.name]) in standings.content.decode()

    report = make(division, "playoffs", "xlsx", public=True)
    assert report.filename == "spring-open-a-playoffs.xlsx"
    built = data.playoffs(division)
    # The champion's name isolated in the sentence (FSI … PDI), as a Persian name must be.
    assert built.heading == f"Playoff, best of 5, seeded after round 1 · won by \u2068{one}\u2069"
    assert built.tables[0].title == "Final"
    assert built.tables[0].rows == [[1, 1, one, 2, two, "3–0", "450–400, 390–380, 501–322", one]]
    assert make(division, "playoffs", "pdf").content.startswith(b"%PDF")


def test_a_best_of_5_final_decided_after_3_2_and_a_game_taken_back(
    desk: Client, division: Division
) -> None:
    desk.post(desk_url(division), {"action": "setup", "seeds": 2, "length": 5, "after": 1})
    one, two = top_two(division)
    for s1, s2 in ((400, 450), (420, 380), (300, 410), (455, 454)):
        enter(desk, division, s1, s2)
    enter(desk, division, 399, 398)
    state = playoffs.state(division)
    assert state is not None and state.champion is not None
    assert (state.stages[0][0].series.result, state.champion.name) == ("3–2", one)
    # A wrong last entry is taken back, and the series is open again.
    desk.post(desk_url(division), {"action": "undo"})
    page = enter(desk, division, 300, 400)
    assert f"Won by <bdi>{two}</bdi>." in page
    state = playoffs.state(division)
    assert state is not None and state.stages[0][0].series.result == "2–3"


def test_a_playoff_needs_a_round_with_results(desk: Client, division: Division) -> None:
    refused = desk.post(
        desk_url(division), {"action": "setup", "seeds": 2, "length": 5, "after": 2}
    )
    assert refused.status_code == 409
    assert "rounds 1 to 1" in refused.content.decode()
    assert playoffs.state(division) is None


def test_a_bracket_of_four_and_bad_entries(desk: Client, division: Division) -> None:
    desk.post(desk_url(division), {"action": "setup", "seeds": 4, "length": 1, "after": 1})
    state = playoffs.state(division)
    assert state is not None and len(state.stages) == 1
    seeds = [state.players[pk].name for pk in state.playoff.seeds]
    page = desk.get(desk_url(division)).content.decode()
    assert "Semifinals" in page
    bad = desk.post(
        desk_url(division),
        {"action": "game", "stage": 1, "slot": 1, "score1": "４００", "score2": "300"},
    )
    assert bad.status_code == 409
    assert not PlayoffGame.objects.exists()
    enter(desk, division, 400, 300, slot=1)  # 1 beats 4
    page = enter(desk, division, 300, 400, slot=2)  # 3 beats 2
    assert "Final" in page
    page = enter(desk, division, 350, 360, stage=2)
    assert f"Won by <bdi>{seeds[2]}</bdi>." in page
    again = desk.post(desk_url(division), {"action": "setup", "seeds": 2, "length": 5, "after": 1})
    assert again.status_code == 409
    assert "Division <bdi>A</bdi> has a playoff already." in again.content.decode()
