"""A time penalty on a scorecard: the score printed as it counts with the points taken off
after it, `360 (−20)`, and the card's note saying what that is; a card without one has no note."""

from __future__ import annotations

from tests.tournament.reports.report_support import pdf_text
from tournament import reports
from tournament.models import Division, Game, Player, Tournament


def _division(small: Tournament) -> Division:
    division = Division.objects.create(tournament=small, name="A", planned_rounds=1)
    ada = Player.objects.create(division=division, number=1, name="Quill, Ada", rating=1500)
    ben = Player.objects.create(division=division, number=2, name="Crane, Ben", rating=1400)
    cy = Player.objects.create(division=division, number=3, name="Vale, Cora", rating=1300)
    dee = Player.objects.create(division=division, number=4, name="Moss, Dee", rating=1200)
    # Ada's 380 on the sheet, two minutes over: 360 as it counts.
    Game.objects.create(
        division=division, round=1, table=1, player1=ada, player2=ben, score1=360, score2=350,
        first=1, penalty1=20,
    )  # fmt: skip
    Game.objects.create(
        division=division, round=1, table=2, player1=cy, player2=dee, score1=400, score2=390,
        first=1,
    )  # fmt: skip
    return division


def _card(text: str, heading: str) -> list[str]:
    lines = [" ".join(line.split()) for line in text.splitlines()]
    start = lines.index(heading)
    return [line for line in lines[start : start + 12] if line]


def test_a_scorecard_prints_the_time_penalty_after_the_score(small: Tournament) -> None:
    text = pdf_text(reports.make(_division(small), "scorecards", "pdf").content)

    ada, ben = _card(text, "1. Quill, Ada"), _card(text, "2. Crane, Ben")
    cora = _card(text, "3. Vale, Cora")

    assert "1 1 1st 2 Crane, Ben 1400 W 360 (−20) 350 +10 1-0 +10" in ada
    assert "1 1 2nd 1 Quill, Ada 1500 L 350 360 (−20) -10 0-1 -10" in ben
    note = "(−20): a time penalty, already taken off the score."
    assert note in ada and note in ben
    assert "1 2 1st 4 Moss, Dee 1200 W 400 390 +10 1-0 +10" in cora
    assert note not in cora
