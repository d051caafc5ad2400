"""What each turn of a report carries for drawing the game without replaying it: the tiles it
put down and took back rebuild, turn by turn, the board `verify(upto=N)` gives; and the tiles
its player could not see."""

from __future__ import annotations

import pytest
from scoring_support import corpus_game

import scoring

GAMES = [
    "macondo/gcgio__testdata__doug_v_emely.gcg",  # blanks, a phony taken back (line 9)
    "macondo/gcgio__testdata__polish_endgame.gcg",  # Polish, blanks, a phony taken back
    "liwords/pkg__stats__testdata__josh_nationals_round_18.gcg",
]


@pytest.mark.parametrize("name", GAMES)
def test_the_tiles_each_turn_placed_and_removed_rebuild_the_engine_s_board(name: str) -> None:
    data = corpus_game(name)
    report = scoring.verify(data)
    board: dict[tuple[int, int], str] = {}
    for turn in report.turns:
        for row, col, tile in turn.placed:
            board[(row, col)] = tile
        for row, col in turn.removed:
            del board[(row, col)]
        engine = scoring.verify(data, upto=turn.number).board
        size = engine.size
        expected = {
            (r, c): engine.at(r, c)
            for r in range(size)
            for c in range(size)
            if engine.at(r, c) is not None
        }
        assert board == expected, f"after event {turn.number} (line {turn.line})"
    assert [t.number for t in report.turns] == list(range(1, len(report.turns) + 1))


def test_a_phony_s_tiles_come_off_and_unseen_tiles_leave_out_the_player_s_rack() -> None:
    report = scoring.verify(corpus_game(GAMES[0]))
    # Line 8: emely's TIL.. at 4B puts T, I, L down; line 9 takes them back.
    til, withdrawn = report.turns[5], report.turns[6]
    assert til.placed == [(3, 1, "T"), (3, 2, "I"), (3, 3, "L")]
    assert withdrawn.removed == [(3, 1), (3, 2), (3, 3)]
    # Before the first move doug cannot see the set but his rack DINNVWY: 93 tiles.
    first = report.turns[0].unseen
    assert sum(first.values()) == 93
    assert (first["D"], first["N"], first["W"], first["?"]) == (3, 4, 1, 2)
    # At the end only doug's EGOP is off the board, and emely went out.
    assert report.unseen == {"E": 1, "G": 1, "O": 1, "P": 1}
