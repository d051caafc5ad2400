"""Rounds paired before messages were data: the data migration reads their English back to codes
and parameters, and the desk's pairing page shows the same sentences."""

from __future__ import annotations

import importlib
from pathlib import Path

from django.apps import apps
from django.test import Client
from django.urls import reverse
from text_support import plain

import tournament.migrations as migrations_package
from tournament.models import Division, Round
from tournament.pairing import services as pairing

OLD_NOTES = [
    "Moss, Eli (4th, 0-1 -50) has the bye: the lowest-placed player without a bye.",
    "Stone, Gus v Vale, Cora: king of the hill; places 3 and 4; both on 1 wins; "
    "Stone, Gus goes first: level on starts, the lower-placed player",
    "A note typed in by hand",
]
OLD_WARNINGS = [
    {
        "code": "repeat_limit",
        "message": "Crane, Ben and Quill, Ada have met 1 time(s); the division allows "
        "no rematches.",
        "players": [2, 1],
    },
    {"code": "odd", "message": "Something the engine no longer says.", "players": []},
]


def _migration():
    # Found by its name, whatever number the migration ends up with.
    folder = Path(migrations_package.__file__).parent
    (path,) = folder.glob("*_refresh.py")
    return importlib.import_module(f"tournament.migrations.{path.stem}")


def _old_round(division: Division) -> Round:
    return Round.objects.create(
        division=division, number=2, system="koth", notes=OLD_NOTES, warnings=OLD_WARNINGS
    )


def test_old_notes_and_warnings_become_codes_and_params(division: Division):
    state = _old_round(division)

    _migration().forwards(apps, None)
    state.refresh_from_db()

    assert [n["code"] for n in state.notes] == ["has_bye_none", "table", "legacy"]
    table = state.notes[1]["params"]
    assert (table["first"], table["second"]) == ("Stone, Gus", "Vale, Cora")
    assert [r["code"] for r in table["reasons"]] == [
        "by_koth",
        "places",
        "same_wins",
        "first_lower_placed",
    ]
    assert state.warnings == [
        {
            "code": "repeat_limit",
            "params": {"a": "Crane, Ben", "b": "Quill, Ada", "met": 1, "limit": 0},
            "players": [2, 1],
        },
        {
            "code": "legacy",
            "params": {"text": "Something the engine no longer says."},
            "players": [],
        },
    ]
    assert plain(pairing.note_lines(state)) == OLD_NOTES


def test_the_migration_runs_twice_and_back(division: Division):
    state = _old_round(division)
    migration = _migration()

    migration.forwards(apps, None)
    migration.forwards(apps, None)  # already data: left as it is
    state.refresh_from_db()
    assert plain(pairing.note_lines(state)) == OLD_NOTES

    migration.backwards(apps, None)
    state.refresh_from_db()
    assert state.notes == OLD_NOTES
    assert [w["message"] for w in state.warnings] == [w["message"] for w in OLD_WARNINGS]


def test_the_pairing_page_shows_migrated_notes_as_before(desk: Client, division: Division):
    _old_round(division)
    _migration().forwards(apps, None)

    page = desk.get(
        reverse("desk-round-pairings", args=[division.tournament.slug, division.pk, 2])
    ).content.decode()

    for note in OLD_NOTES:
        assert f"<li>{note}</li>" in plain(page)
