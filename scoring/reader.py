"""Reading a game record in order, event by event, and handing each line to a visitor.

In the shape of python-chess's ``pgn.read_game(handle, Visitor=...)``: ``read_game`` knows the
order of the record's lines, who its players are and where to stop (``upto``); what a line means
for the game (the board, the scores, the end) is the visitor's. The replay (``scoring.replay``)
is one visitor; another could count moves or collect racks without placing a tile.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, TypeVar

from . import gcg
from .findings import ERROR, Finding

T_co = TypeVar("T_co", covariant=True)


class GameVisitor(Protocol[T_co]):
    """What ``read_game`` calls, in this order: ``begin_game``; for each line in turn
    ``visit_last_rack`` (a ``#rack1`` line), ``visit_unread`` (an event line of a known player
    that could not be read) or, for an event, the ``visit_<kind>`` of its kind and ``end_event``
    with the event's number; ``end_game`` once the whole record is read (not when stopped at
    ``upto``); then ``result``. ``handle_error`` takes what the reading itself finds wrong."""

    def handle_error(self, finding: Finding) -> None: ...
    def begin_game(self) -> None: ...
    def visit_last_rack(self, item: gcg.Pragma) -> None: ...
    def visit_unread(self, item: gcg.Unread, p: int) -> None: ...
    def visit_play(self, ev: gcg.Event, p: int) -> None: ...
    def visit_pass(self, ev: gcg.Event, p: int) -> None: ...
    def visit_exchange(self, ev: gcg.Event, p: int) -> None: ...
    def visit_phony(self, ev: gcg.Event, p: int) -> None: ...
    def visit_challenge(self, ev: gcg.Event, p: int) -> None: ...
    def visit_end_points(self, ev: gcg.Event, p: int) -> None: ...
    def visit_rack_penalty(self, ev: gcg.Event, p: int) -> None: ...
    def visit_time(self, ev: gcg.Event, p: int) -> None: ...
    def end_event(self, ev: gcg.Event, number: int) -> None: ...
    def end_game(self) -> None: ...
    def result(self) -> T_co: ...


Visit = Callable[[gcg.Event, int], None]


def _visits(visitor: GameVisitor[object]) -> dict[str, Visit]:
    """The visitor's method for each kind of event, looked up once per record."""
    return {
        gcg.PLAY: visitor.visit_play,
        gcg.PASS: visitor.visit_pass,
        gcg.EXCHANGE: visitor.visit_exchange,
        gcg.PHONY: visitor.visit_phony,
        gcg.CHALLENGE: visitor.visit_challenge,
        gcg.END_POINTS: visitor.visit_end_points,
        gcg.RACK_PENALTY: visitor.visit_rack_penalty,
        gcg.TIME: visitor.visit_time,
    }


def read_game(record: gcg.GameRecord, visitor: GameVisitor[T_co], upto: int | None = None) -> T_co:
    """Hand the record's lines to ``visitor`` in order and return its result. ``upto`` stops
    after that many events; an event of no named player is reported and skipped."""
    players = record.players
    index = {p.nick: i for i, p in enumerate(players)}
    visits = _visits(visitor)
    last_player_line = max((pl.line for pl in players), default=0)
    early_reported = False
    count = 0
    visitor.begin_game()
    for ev in record.items:
        if not isinstance(ev, gcg.Event):
            if isinstance(ev, gcg.Pragma):
                if gcg._LAST_RACK.match(ev.keyword):
                    visitor.visit_last_rack(ev)
            elif isinstance(ev, gcg.Unread) and ev.nick in index:
                visitor.visit_unread(ev, index[ev.nick])
            continue
        if upto is not None and count >= upto:
            break
        count += 1
        if ev.line < last_player_line and not early_reported:
            early_reported = True
            visitor.handle_error(Finding(ev.line, ERROR, "event_before_players", player=ev.nick))
        p = index.get(ev.nick)
        if p is None:
            names = [pl.nick for pl in players]
            params = {"nick": ev.nick, "players": names}
            visitor.handle_error(
                Finding(ev.line, ERROR, "unknown_player", params, ev.nick, recorded=ev.nick)
            )
            continue
        visits[ev.kind](ev, p)
        visitor.end_event(ev, count)
    if upto is None:
        visitor.end_game()
    return visitor.result()
