"""The shared WESPA events, for the tests of `.tou` import."""

from __future__ import annotations

from pathlib import Path

import pytest

WESPA = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "wespa"


def events() -> list[str]:
    """The stems of the shared events (empty where the corpus is absent)."""
    return sorted(p.stem for p in WESPA.glob("*.tou")) if WESPA.is_dir() else []


def event_file(stem: str, suffix: str = ".tou") -> Path:
    path = WESPA / f"{stem}{suffix}"
    if not path.is_file():
        pytest.skip("the shared WESPA corpus is not next to the project")
    return path


def player_lines(text: str) -> list[tuple[str, list[str]]]:
    """Each player line of a .tou file: the name, and its games as (code, opponent) words."""
    from tournament.interchange import tou

    out = []
    for section in tou.read(text).sections:
        for row in section.rows:
            out.append(
                (row.name, [f"{e.code} {'+' if e.first else ''}{e.opponent}" for e in row.entries])
            )
    return out
