"""The demo tournament `make run` loads."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command

from tournament import services
from tournament.models import Division, Scoresheet, Tournament


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
    rows = services.division_standings(a)
    assert [(r.rank, r.name, r.wins, r.losses, r.spread) for r in rows] == [
        (1, "Eli Moss", 2.5, 0.5, 74),
        (2, "Ada Quill", 2, 1, 55),
        (3, "Cora Vale", 1.5, 1.5, 11),
        (4, "Ben Crane", 1, 2, -37),
        (5, "Dev Patel", 1, 2, -49),
        (6, "Fay North", 1, 2, -54),
    ]
    b = Division.objects.get(tournament=demo, name="B")
    assert [(r.rank, r.name, r.spread) for r in services.division_standings(b)] == [
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
    assert sorted(sheets) == ["a1-ada-ben.gcg", "a1-eli-fay.gcg", "a2-ada-cora.gcg"]
    assert sheets["a1-ada-ben.gcg"].verified
    assert sheets["a1-eli-fay.gcg"].verified
    wrong = sheets["a2-ada-cora.gcg"]
    assert not wrong.verified
    findings = [
        (f["line"], f["code"], f["expected"], f["recorded"]) for f in wrong.report["findings"]
    ]
    assert findings == [(6, "wrong_total", 28, 38)]


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
