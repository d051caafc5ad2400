"""The read model's per-process memos: all declared in one module (`standings/memos.py`), all
filled by the pages that read them, and all forgotten by one call."""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tournament.models import Division, Round
from tournament.phone import services as phone
from tournament.results import services as results
from tournament.standings import memos

APP = Path(__file__).resolve().parents[3] / "tournament"


def _declared() -> dict[str, memos.Kept]:
    return {name: v for name, v in vars(memos).items() if isinstance(v, memos.Kept)}


def test_no_module_of_the_app_makes_a_memo_of_its_own() -> None:
    makers = []
    for path in sorted(APP.rglob("*.py")):
        if path.name == "memos.py" or "migrations" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "Kept":
                makers.append(f"{path.relative_to(APP)}:{node.lineno}")
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Kept":
                makers.append(f"{path.relative_to(APP)}:{node.lineno}")
    assert makers == []


def test_every_memo_declared_is_registered() -> None:
    declared = _declared()
    assert set(declared) == {
        "STANDINGS",
        "RATINGS",
        "STANDING_TABLES",
        "CHANGES",
        "DIVISION_READS",
        "ROUND_READS",
        "PLAYERS",
        "RATED",
        "RATED_ROWS",
        "ROUND_COUNTS",
        "CROSSTABLE_CELLS",
        "PLAYER_PARTS",
        "PHONE_SNAPSHOTS",
        "CARD_PARTS",
        "CARD_TEXTS",
        "DISPLAY_TEXTS",
    }
    assert set(declared.values()) <= set(memos.every())


def test_the_pages_fill_every_memo_and_one_call_forgets_them_all(
    division: Division,
    director: User,
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    division.self_report = True
    division.save()
    Round.objects.create(division=division, number=1, published=True)
    results.enter_line(division, 1, "1 400 2 350", director)
    token = phone.issue_link(division.players.get(number=1))
    slug, name = division.tournament.slug, division.name
    visitor = Client()
    for page in (
        reverse("standings", args=[slug, name]),
        reverse("crosstable", args=[slug, name]),
        reverse("ratings", args=[slug, name]),
        reverse("player", args=[slug, name, 1]),
        reverse("phone", args=[token]),
        reverse("api-scoreboard", args=[slug, name]),
        reverse("api-display", args=[slug, name]),
    ):
        assert visitor.get(page).status_code == 200, page
    # A result entered after them: the standings made again from those of the stamp before.
    with django_capture_on_commit_callbacks(execute=True):
        results.enter_line(division, 1, "3 420 4 380", director)
    assert visitor.get(reverse("standings", args=[slug, name])).status_code == 200
    filled = {name: len(kept) for name, kept in _declared().items()}
    assert all(filled.values()), filled

    memos.clear_all()

    assert {name: len(kept) for name, kept in _declared().items()} == dict.fromkeys(filled, 0)
