"""Reading apart from replaying: ``read_game`` hands a record's lines, in order, to any visitor;
the replay is one. And a replay's report holds no reference cycle, so it is freed when dropped."""

from __future__ import annotations

import gc
from collections import Counter

import pytest

import scoring
from scoring import gcg
from scoring.findings import Finding
from scoring.reader import read_game

GAME = b"""#player1 ann Ann
#player2 bob Bob
>ann: ABCDEFG 8H CAB +14 14
#note a note
>bob: HIJKLMN -HIJ +0 0
>ann: DEFGXYZ -- -14 0
>zed: ABC 8H CAB +14 14
>bob: KLMNOPQ (challenge) +5 5
>bob: what is this
#rack1 DEFGXYZ
"""


class Counting:
    """A visitor that counts the events by kind and places no tile."""

    def __init__(self) -> None:
        self.kinds: Counter[str] = Counter()
        self.numbers: list[int] = []
        self.errors: list[str] = []
        self.calls: list[str] = []

    def handle_error(self, finding: Finding) -> None:
        self.errors.append(finding.code)

    def begin_game(self) -> None:
        self.calls.append("begin")

    def visit_last_rack(self, item: gcg.Pragma) -> None:
        self.calls.append(f"rack {item.line}")

    def visit_unread(self, item: gcg.Unread, p: int) -> None:
        self.calls.append(f"unread {item.line} by {p}")

    def _visit(self, ev: gcg.Event, p: int) -> None:
        self.kinds[ev.kind] += 1

    visit_play = visit_pass = visit_exchange = visit_phony = visit_challenge = _visit
    visit_end_points = visit_rack_penalty = visit_time = _visit

    def end_event(self, ev: gcg.Event, number: int) -> None:
        self.numbers.append(number)

    def end_game(self) -> None:
        self.calls.append("end")

    def result(self) -> Counter[str]:
        return self.kinds


def test_a_visitor_is_handed_every_line_in_order_without_a_replay() -> None:
    visitor = Counting()

    kinds = read_game(gcg.parse(GAME), visitor)

    assert kinds == {"play": 1, "exchange": 1, "phony": 1, "challenge": 1}
    # The event of no named player counts as an event (number 4) but is not handed on.
    assert visitor.numbers == [1, 2, 3, 5]
    assert visitor.errors == ["unknown_player"]
    assert visitor.calls == ["begin", "unread 9 by 1", "rack 10", "end"]


def test_upto_stops_reading_and_the_game_is_not_ended() -> None:
    visitor = Counting()

    read_game(gcg.parse(GAME), visitor, upto=2)

    assert visitor.numbers == [1, 2]
    assert "end" not in visitor.calls


@pytest.mark.parametrize("upto", [None, 2])
def test_a_report_is_freed_when_it_is_dropped(upto: int | None) -> None:
    scoring.verify(GAME, upto=upto)  # caches filled before counting
    gc.collect()
    gc.disable()
    try:
        report = scoring.verify(GAME, upto=upto)
        assert report.turns[0].placed and report.turns[0].unseen
        del report
        assert gc.collect() == 0  # nothing left for the cycle collector: no cycle was made
    finally:
        gc.enable()
