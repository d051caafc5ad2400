"""The demo tournament `make run` loads."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command

from tournament.models import Division, Scoresheet, Tournament
from tournament.standings import read_model
from tournament.standings.stamps import read as read_stamps


@pytest.mark.django_db
def test_the_demo_loads_once_with_two_divisions_results_and_scoresheets(capsys) -> None:
    call_command("loaddemo")
    call_command("loaddemo")
    out = capsys.readouterr().out
    assert "Director login: director / spread-demo" in out
    assert "already loaded" in out

    demo = Tournament.objects.get(slug="demo")
    assert [d.name for d in demo.divisions.all()] == ["A", "B"]
    assert demo.is_director(authenticate(username="director", password="spread-demo"))

    a = Division.objects.get(tournament=demo, name="A")
    rows = read_model.division_standings(a, stamps=read_stamps(a))
    assert [(r.rank, r.name, r.wins, r.losses, r.spread) for r in rows] == [
        (1, "Cora Vale", 2.5, 0.5, 96),
        (2, "Fay North", 2, 1, 71),
        (3, "Eli Moss", 1.5, 1.5, -51),
        (4, "Ben Crane", 1, 2, -12),
        (5, "Dev Patel", 1, 2, -49),
        (6, "Ada Quill", 1, 2, -55),
    ]
    b = Division.objects.get(tournament=demo, name="B")
    assert [
        (r.rank, r.name, r.spread) for r in read_model.division_standings(b, stamps=read_stamps(b))
    ] == [
        (1, "Jon Reed", 46),
        (2, "Ivy Stone", 73),
        (3, "Kai Wren", 47),
        (4, "Gus Hale", -8),
        (5, "Lea Frost", -58),
    ]


@pytest.mark.django_db
def test_the_demo_scoresheets_are_verified_and_the_wrong_addition_is_found() -> None:
    call_command("loaddemo")
    sheets = {s.report["file"]: s for s in Scoresheet.objects.all()}
    assert sorted(sheets) == ["a1-ada-ben.gcg", "a1-eli-fay.gcg", "a2-cora-ada.gcg"]
    assert sheets["a1-ada-ben.gcg"].verified
    assert sheets["a1-eli-fay.gcg"].verified
    wrong = sheets["a2-cora-ada.gcg"]
    assert not wrong.verified and wrong.held  # off the public pages until the director acts
    # Whole games, scored as real games are.
    finals = {f: [p.final for p in s.engine_report.players] for f, s in sheets.items()}
    assert finals == {
        "a1-ada-ben.gcg": [305, 340],
        "a1-eli-fay.gcg": [348, 422],
        "a2-cora-ada.gcg": [415, 342],
    }
    findings = [
        (f["line"], f["code"], f["expected"], f["recorded"]) for f in wrong.report["findings"]
    ]
    assert findings == [(7, "wrong_total", 65, 75)]


@pytest.mark.django_db
def test_the_demo_leaves_round_3_of_division_b_for_the_director_to_pair(capsys) -> None:
    call_command("loaddemo")
    capsys.readouterr()
    call_command("pair", "demo", "--division", "B", "--round", "3", "--dry-run", "--json")
    pairs = json.loads(capsys.readouterr().out)
    # The bye goes to the lowest-ranked of those without one: Lea and Kai have had theirs.
    assert [p["first"] for p in pairs if p["second"] is None] == ["Gus Hale"]
    seated = sorted(p["first"] for p in pairs) + sorted(p["second"] for p in pairs if p["second"])
    assert sorted(seated) == ["Gus Hale", "Ivy Stone", "Jon Reed", "Kai Wren", "Lea Frost"]
    met = {frozenset({"Jon Reed", "Kai Wren"}), frozenset({"Ivy Stone", "Lea Frost"})}
    assert not any(frozenset((p["first"], p["second"])) in met for p in pairs)


@pytest.mark.django_db
def test_the_demo_s_firsts_alternate_as_a_pairing_would_give_them() -> None:
    call_command("loaddemo")
    a = Division.objects.get(tournament__slug="demo", name="A")
    starts = {}
    for g in a.games.filter(kind="played").select_related("player1", "player2"):
        first, second = (g.player1, g.player2) if g.first == 1 else (g.player2, g.player1)
        starts[g.round, first.name] = "first"
        starts[g.round, second.name] = "second"
    runs = {
        name: "".join("F" if starts[r, name] == "first" else "s" for r in range(1, 5))
        for name in sorted({n for _, n in starts})
    }
    assert runs == {
        "Ada Quill": "FsFF",
        "Ben Crane": "sFsF",
        "Cora Vale": "FFss",
        "Dev Patel": "sFss",
        "Eli Moss": "FsFs",
        "Fay North": "ssFF",
    }
    # Every scoresheet names the player who went first as its first player.
    for sheet in Scoresheet.objects.select_related("game__player1", "game__player2"):
        g = sheet.game
        first = g.player1 if g.first == 1 else g.player2
        assert sheet.engine_report.players[0].name == first.name
