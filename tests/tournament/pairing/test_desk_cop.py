"""COP at the desk: the `pair` command's --cop file, the division's COP settings, the
simulation's table on the round's page, and COP's refusals as sentences.

The desk's division (conftest): seven players, three rounds planned, round 1 paired 1 v 2,
3 v 4, 5 v 6 and 7 a bye; its results below rank them Cora, Gus, Ada, Hal, Ben, Fay, Eli.
"""

from __future__ import annotations

import json
import re
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse
from text_support import plain

from tournament.models import Division, Round
from tournament.pairing import services as pairing
from tournament.results import services as results

ROUND_1 = ["1 400 2 350", "3 500 4 300", "6 450 5 350", "7 bye"]
SMALL = {"division_sims": 2000, "control_loss_sims": 1000, "seed": 7, "place_prizes": 2}


@pytest.fixture
def played(division: Division, director) -> Division:
    for line in ROUND_1:
        results.enter_line(division, 1, line, director)
    return division


def url(name: str, division: Division, *args) -> str:
    return reverse(name, args=[division.tournament.slug, division.pk, *args])


def pairs_of(division: Division, round_number: int) -> set[frozenset[int | None]]:
    return {
        frozenset((g.player1.number, g.player2.number if g.player2 else None))
        for g in division.games.filter(round=round_number).select_related("player1", "player2")
    }


def pair_command(*args: str) -> str:
    out = StringIO()
    call_command("pair", "spring-open", "--division", "A", *args, stdout=out)
    return out.getvalue()


def cop_file(tmp_path: Path, values: object) -> str:
    path = tmp_path / "cop.json"
    path.write_text(json.dumps(values), encoding="utf-8")
    return str(path)


def test_pair_command_with_a_cop_file(played: Division, tmp_path: Path):
    out = pair_command("--round", "2", "--cop", cop_file(tmp_path, SMALL))
    assert "Round 2 of division A, cop from round 1:" in out
    # 2,000 runs could not tell some chances from the threshold (10%): 2,000 more ran.
    assert "note: COP: 4000 simulations of the 2 round(s) left (seed 7); Vale, Cora wins 25.2%" in (
        out
    )
    # Seven players: 1st v 2nd, 3rd v 4th (both can still hope for first), the bye to Eli, the
    # lowest-placed player without one.
    assert pairs_of(played, 2) == {
        frozenset({3, 6}),
        frozenset({1, 7}),
        frozenset({2, 5}),
        frozenset({4, None}),
    }
    state = Round.objects.get(division=played, number=2)
    assert state.system == "cop" and "cop_summary" in {n["code"] for n in state.notes}
    table = state.simulation
    assert (table["sims"], table["places"], table["seed"]) == (4000, 2, 7)
    cora = played.players.get(number=3)
    assert table["rows"][0] == {
        "player": cora.pk,
        "chances": [0.2525, 0.40275],
        "hopeful": 1,
        "lowest": 7,
        "gibsonized": False,
    }
    assert len(table["rows"]) == 7


@pytest.mark.parametrize(
    ("values", "refusal"),
    [
        ({"division_sims": 10}, "COP: 10 division sims are too few; at least 1000"),
        ({"place_prizes": 9}, "COP: 9 place prizes in a division of 7 players"),
        ({"simulations": 10}, "COP takes no option 'simulations'"),
        ([1, 2], "should hold a JSON object of COP's parameters"),
    ],
)
def test_pair_command_refuses_bad_cop_files(
    played: Division, tmp_path: Path, values: object, refusal: str
):
    with pytest.raises(CommandError) as refused:
        pair_command("--round", "2", "--cop", cop_file(tmp_path, values))
    assert refusal in str(refused.value)
    assert not played.games.filter(round=2).exists()


def test_pair_command_cop_file_is_for_cop(played: Division, tmp_path: Path):
    with pytest.raises(
        CommandError, match="--cop gives COP's parameters; the system asked is koth"
    ):
        pair_command("--round", "2", "--system", "koth", "--cop", cop_file(tmp_path, SMALL))
    path = tmp_path / "broken.json"
    path.write_text("{place_prizes: 2", encoding="utf-8")
    with pytest.raises(CommandError, match="broken.json cannot be read: it is not JSON"):
        pair_command("--round", "2", "--cop", str(path))


SETTINGS = {
    "planned_rounds": 3,
    "max_repeats": 0,
    "gibson": "on",
    "avoid_same": "",
    "bye_spread": 50,
    "forfeit_spread": 50,
    "rating_system": "nsa2008",
    "entry_mode": "scores",
    "absent_result": "forfeit",
    "byes_count": "complete",
    "first_table": 1,
    "schedule": "1 swiss\n2- cop",
}


def test_desk_cop_settings_schedule_and_table(desk: Client, played: Division):
    form = {
        **SETTINGS,
        "cop_place_prizes": 2,
        "cop_division_sims": 2000,
        "cop_control_loss_sims": 1000,
        "cop_seed": 7,
        "cop_hopefulness_threshold": "0.1, 0.05",
        "cop_gibson_spread": "250, 200",
        "cop_class_prizes": "1",
        "cop_player_classes": "5 1\n2 1",
    }
    response = desk.post(url("desk-division-settings", played), form)
    assert response.status_code == 302, plain(response.content.decode())
    played.refresh_from_db()
    assert played.cop_settings == {
        "place_prizes": 2,
        "division_sims": 2000,
        "control_loss_sims": 1000,
        "seed": 7,
        "hopefulness_threshold": [0.1, 0.05],
        "gibson_spread": [250, 200],
        "class_prizes": [1],
        "player_classes": {"5": 1, "2": 1},
    }
    page = plain(desk.get(url("desk-division-settings", played)).content.decode())
    assert "COP: place prizes" in page and "How many places win a prize. Empty: 4." in page

    response = desk.post(url("desk-pair", played), {"round": 2})
    assert response.status_code == 302
    state = Round.objects.get(division=played, number=2)
    assert state.system == "cop" and state.simulation["sims"] == 4000
    page = plain(desk.get(url("desk-round-pairings", played, 2)).content.decode())
    assert "COP's simulation: each player's chance of each prize place (4000 runs)" in page
    section = page[page.index('id="simulation"') : page.index('id="pairings"')]
    text = " ".join(re.sub(r"<[^>]+>", " ", section).split())
    assert "Player 1st 2nd Hopeful of Lowest Gibsonized" in text
    assert "Vale, Cora 25.2 40.3 1st 7th Stone, Gus 26.1 22.2 1st 7th" in text
    assert "Moss, Eli 0.0 0.9 3rd 7th" in text


def test_desk_cop_refusal_is_a_sentence(desk: Client, played: Division):
    played.cop_settings = {"division_sims": 500}
    played.save()
    response = desk.post(url("desk-pair", played), {"round": 2, "system": "cop"})
    assert response.status_code == 409
    assert "COP: 500 division sims are too few; at least 1000" in plain(response.content.decode())
    assert not played.games.filter(round=2).exists()


def test_desk_settings_refuse_bad_cop_values(desk: Client, played: Division):
    form = {**SETTINGS, "cop_division_sims": 10, "cop_hopefulness_threshold": "2"}
    response = desk.post(url("desk-division-settings", played), form)
    assert response.status_code == 400
    page = plain(response.content.decode())
    assert "Hopefulness threshold: each above 0 and at most 1." in page
    played.refresh_from_db()
    assert played.cop_settings == {}


def test_plan_reads_players_by_number(played: Division):
    options = {**SMALL, "prepaired": [[4, 1]], "place_prizes": 2}
    result = pairing.plan(played, 2, system="cop", options=options).result
    ada, eli = played.players.get(number=1), played.players.get(number=4)
    assert {frozenset((p.first, p.second)) for p in result.pairings} >= {
        frozenset((ada.pk, eli.pk))
    }


def test_cop_in_the_schedule_with_its_options(desk: Client, played: Division):
    schedule = "1 swiss\n2- cop hopefulness_threshold=0.1,0.05 division_sims=2000 seed=7"
    response = desk.post(url("desk-division-settings", played), {**SETTINGS, "schedule": schedule})
    assert response.status_code == 302
    played.refresh_from_db()
    assert played.pairing_schedule[1] == {
        "rounds": "2-",
        "system": "cop",
        "options": {"hopefulness_threshold": [0.1, 0.05], "division_sims": 2000, "seed": 7},
    }
    page = plain(desk.get(url("desk-division-settings", played)).content.decode())
    assert "2- cop hopefulness_threshold=0.1,0.05 division_sims=2000 seed=7" in page
    state = pairing.pair(played, 2, None)
    # The schedule's 2,000 runs, and 2,000 more: some chances were too close to 5% to tell.
    assert state.system == "cop" and state.simulation["sims"] == 4000

    bad = {**SETTINGS, "schedule": "1 swiss\n2- cop sims=10"}
    response = desk.post(url("desk-division-settings", played), bad)
    assert response.status_code == 400
    assert "cop takes no option &#x27;sims&#x27;" in plain(response.content.decode())


def test_a_division_pairing_itself_leaves_its_cop_round_to_the_director(
    division: Division, director
):
    """COP's simulations take seconds: the last result of a round never runs them inside its
    write. The desk is told the next round waits for Pair; Pair then pairs it by COP."""
    division.auto_pair = True
    division.pairing_schedule = [
        {"rounds": "1", "system": "swiss"},
        {"rounds": "2-", "system": "cop", "options": {"division_sims": 2000, "seed": 7}},
    ]
    division.save()
    said = []
    for line in ROUND_1:
        said = results.enter_line(division, 1, line, director).said
    assert not division.games.filter(round=2).exists()
    assert said[-1] == (
        "Round 1's results are complete: round 2 is paired by cop, which runs its simulations "
        "when you press Pair on its pairing page."
    )
    state = pairing.pair(division, 2, director, auto=True)
    assert state.system == "cop" and len(pairs_of(division, 2)) == 4
    # A corrected round-1 result marks the COP round stale rather than running it again.
    results.enter_line(division, 1, "1 410 2 350", director, reason="410 for 400")
    state.refresh_from_db()
    assert state.stale and division.games.filter(round=2).count() == 4
