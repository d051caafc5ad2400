"""Helpers shared by the engine's tests: the corpus beside the project, and findings by kind."""

from __future__ import annotations

from pathlib import Path

import pytest

from scoring.findings import Finding
from scoring.replay import Report

SHARED = Path(__file__).resolve().parents[2] / "shared"
CORPUS = SHARED / "corpus" / "gcg"


def corpus_game(name: str) -> bytes:
    """A game record of the shared corpus; the test is skipped where the corpus is absent."""
    path = CORPUS / name
    if not path.is_file():
        pytest.skip("the shared corpus is not next to the project")
    return path.read_bytes()


def errors(report: Report) -> list[Finding]:
    return [f for f in report.findings if f.severity == "error"]


def codes(report: Report) -> list[str]:
    return [f.code for f in errors(report)]


def the_error(report: Report, code: str) -> Finding:
    found = [f for f in errors(report) if f.code == code]
    assert len(found) == 1, [f.text() for f in report.findings]
    return found[0]


def totals(report: Report) -> dict[str, tuple[int, int]]:
    return {p.nick: (p.final, p.computed) for p in report.players}
