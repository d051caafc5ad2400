"""Helpers shared by the tests: the corpus beside the project, findings by kind, and the
hand-made games more than one test file plays (each worked out by hand beside it)."""

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


# A hand-made NASPA game that ends early after six scoreless turns.
# Line 3: RETAINS at 8D covers D8..J8. D8 is a double letter, H8 (centre) a double word:
#   R 1x2 = 2, E T A I N S = 6, 2 + 6 = 8, x2 = 16, + 50 for all seven tiles = 66.
# ann draws EIIOUVW, exchanges IIUVW, keeps EO and draws AIQRT.
# bob passes twice, exchanges CDG from CDGLNOU, keeps LNOU and draws GPY.
# Scoreless turns: lines 4 to 9 (pass, exchange, pass, pass, exchange, pass) = 6.
#   ann: AEIOQRT = 1+1+1+1+10+1+1 = 16, 66 - 16 = 50
#   bob: GLNOPUY = 2+1+1+1+3+1+4 = 13,  0 - 13 = -13
SIX_SCORELESS = """\
#player1 ann Ann Able
#player2 bob Bob Baker
>ann: AEINRST 8D RETAINS +66 66
>bob: CDGLNOU - +0 0
>ann: EIIOUVW -IIUVW +0 66
>bob: CDGLNOU - +0 0
>ann: AEIOQRT - +0 66
>bob: CDGLNOU -CDG +0 0
>ann: AEIOQRT - +0 66
>ann: AEIOQRT (AEIOQRT) -16 50
>bob: GLNOPUY (GLNOPUY) -13 -13
"""

# SIX_SCORELESS's RETAINS (66), after which both players pass twice: 4 passes.
#   ann: AEIOQRT = 16, 66 - 16 = 50; bob: CDGLNOU = 3+2+2+1+1+1+1 = 11, 0 - 11 = -11
TWO_PLAYER_PASSES = """\
#player1 ann Ann Able
#player2 bob Bob Baker
>ann: AEINRST 8D RETAINS +66 66
>bob: CDGLNOU - +0 0
>ann: AEIOQRT - +0 66
>bob: CDGLNOU - +0 0
>ann: AEIOQRT - +0 66
>ann: AEIOQRT (AEIOQRT) -16 50
>bob: CDGLNOU (CDGLNOU) -11 -11
"""


def game_record(
    nick1: str = "Ada", name1: str = "Ada Quill", nick2: str = "Ben", name2: str = "Ben Crane"
) -> str:
    """A complete game the engine verifies: it ends after six scoreless turns, 20 to 24.

    DJINN at 8D scores 30, WITHY at I7 33; then each player passes three times (six scoreless
    turns) and loses their rack: Ada AERSTUV 10, 30 - 10 = 20; Ben ABEEOST 9, 33 - 9 = 24.
    """
    return (
        f"#player1 {nick1} {name1}\n"
        f"#player2 {nick2} {name2}\n"
        f">{nick1}: DJINNRS 8D DJINN +30 30\n"
        f">{nick2}: ABHITWY I7 WITHY +33 33\n"
        + f">{nick1}: AERSTUV - +0 30\n>{nick2}: ABEEOST - +0 33\n"
        * 3
        + f">{nick1}: (AERSTUV) -10 20\n"
        f">{nick2}: (ABEEOST) -9 24\n"
    )
