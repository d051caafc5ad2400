"""The end of a game: when it ends (a player goes out, scoreless turns, passes), the end lines
that settle the racks left (end points, rack penalties), time penalties, and what is still owed
when the record stops."""

from __future__ import annotations

from collections import Counter
from typing import Any

from . import gcg
from .findings import Findings
from .racks import Racks
from .report import OUT, PASSES, SCORELESS
from .rules import Ruleset
from .scores import ScoreSheet
from .tiles import TileSet

_END_KINDS = (gcg.END_POINTS, gcg.RACK_PENALTY, gcg.TIME)


class Endings:
    """Whether and how the game of one replay has ended, and its end lines, checked."""

    def __init__(
        self,
        record: gcg.GameRecord,
        rules: Ruleset,
        tiles: TileSet,
        racks: Racks,
        sheet: ScoreSheet,
        findings: Findings,
        conventions: dict[str, str],
    ) -> None:
        self.record = record
        self.players = record.players
        self.n = len(self.players)
        self.index = {pl.nick: i for i, pl in enumerate(self.players)}
        self.rules = rules
        self.tiles = tiles
        self.racks = racks
        self.sheet = sheet
        self.findings = findings
        self.conventions = conventions
        self.scoreless = 0  # consecutive scoreless turns
        self.passes = 0  # consecutive passes
        self.ended: str | None = None  # OUT, SCORELESS, PASSES
        self.out_player: int | None = None
        self.out_unseen: list[str] = []  # the tiles left on the other racks when one went out
        self.end_lines: dict[int, str] = {}  # player -> kind of end line seen
        self.penalty_tiles: Counter[str] | None = None  # racks left, taken off at the end
        self.timed: set[int] = set()
        self.post_out_pass = False
        # Under auto, end points of 1x the rack: right only if the opponent's line takes it off.
        self.tentative_end: tuple[gcg.Event, int] | None = None

    # -- during the game ------------------------------------------------------------------------

    def after_end(self, ev: gcg.Event, p: int) -> None:
        """A move once the game has ended: it cannot be applied."""
        if (
            self.rules.challenge != "penalty"
            and ev.kind == gcg.PASS
            and self.ended == OUT
            and p != self.out_player
            and not self.post_out_pass
            and not self.end_lines
        ):
            # Under double challenge the opponent may challenge the last play and lose the turn.
            self.post_out_pass = True
            return
        self.findings.error(ev.line, "event_after_end", player=ev.nick)

    def played(self, p: int, score: int, out: bool) -> None:
        """A play was placed, scoring or not; ``out``: its player has gone out."""
        self.scoreless = 0 if score else self.scoreless + 1
        self.passes = 0
        if out:
            self.ended = OUT
            self.out_player = p
            self.out_unseen = sorted(self.racks.unseen().elements())
        if self.ended is None and not score:
            self.check_scoreless_end()

    def played_blind(self, score: int) -> None:
        """A play on a board that is not known: only whether it scored."""
        self.scoreless = 0 if score else self.scoreless + 1

    def passed(self) -> None:
        self.scoreless += 1
        self.passes += 1
        self.check_scoreless_end()

    def exchanged(self) -> None:
        self.scoreless += 1
        self.passes = 0
        self.check_scoreless_end()

    def withdrawn(self, scoreless_before: int, passes_before: int) -> None:
        """A play was withdrawn: the game goes on as before it, one scoreless turn more."""
        self.ended = None
        self.out_player = None
        self.scoreless = scoreless_before + 1
        self.passes = passes_before
        self.check_scoreless_end()

    def check_scoreless_end(self) -> None:
        limit = self.rules.scoreless_turns
        if limit and self.scoreless >= limit:
            self.ended = SCORELESS
            return
        rounds = self.rules.pass_rounds
        if rounds and self.passes >= rounds * self.n:
            self.ended = PASSES

    def end_convention(self) -> str:
        if self.rules.end_out != "any":
            return self.rules.end_out
        return self.conventions.get("end", "any")

    # -- the end lines --------------------------------------------------------------------------

    def end_points(self, ev: gcg.Event, p: int, blind: bool) -> None:
        """The line giving the player who went out the racks left."""
        shown = self.racks.read(ev, ev.tiles, "shown")
        if ev.tiles == "":
            shown = []
        if blind:
            self.accept_blind_end(ev, p)
            return
        if self.ended != OUT:
            if not self.ended:
                self.findings.error(ev.line, "end_before_end", player=ev.nick)
            else:
                self.findings.error(ev.line, "unexpected_end_points", player=ev.nick)
            self.sheet.book(ev, p, None)
            return
        if p != self.out_player:
            assert self.out_player is not None  # the game ended with a player going out
            out = self.players[self.out_player].nick
            self.findings.error(
                ev.line,
                "end_points_wrong_player",
                {"player": out},
                ev.nick,
                expected=out,
                recorded=ev.nick,
            )
        if p in self.end_lines:
            self.findings.error(ev.line, "repeated_end_points", player=ev.nick)
        self.end_lines[p] = gcg.END_POINTS
        truth = self.out_unseen
        if shown is not None and self.n == 2 and sorted(shown) != truth:
            self.findings.error(
                ev.line,
                "end_rack_mismatch",
                {"left": "".join(truth), "tiles": ev.tiles},
                ev.nick,
                expected="".join(truth),
                recorded=ev.tiles,
            )
        expected = self._end_points_due(ev, self.tiles.rack_value(truth))
        self.sheet.book(ev, p, expected)

    def _end_points_due(self, ev: gcg.Event, value: int) -> int:
        """What going out earns under the rules (or the convention the record shows), checked
        against the line."""
        convention = self.end_convention()
        if convention == "any" and value == 0:
            # A rack worth nothing (a blank) earns 0 either way: it decides no convention.
            convention = "double"
        elif convention == "any" and ev.score == value:
            # Rack added and subtracted, if the opponent's line takes it off; decided at the end.
            self.tentative_end = (ev, value)
            convention = "transfer"
        elif convention == "any":
            convention = "double"
            self.conventions["end"] = convention
        expected = 2 * value if convention == "double" else value
        if ev.score != expected:
            self.wrong_end_points(ev, convention, value, expected)
        return expected

    def wrong_end_points(self, ev: gcg.Event, convention: str, value: int, expected: int) -> None:
        params: dict[str, Any] = {
            "rack": "".join(self.out_unseen),
            "value": value,
            "expected": expected,
            "score": ev.score,
        }
        if convention != "double":
            params["case"] = "transfer"
        self.findings.error(
            ev.line,
            "wrong_end_points",
            params,
            ev.nick,
            expected=expected,
            recorded=ev.score,
        )

    def rack_penalty(self, ev: gcg.Event, p: int, blind: bool) -> None:
        """The line taking a player's own rack off at the end."""
        shown = self.racks.read(ev, ev.tiles, "shown")
        rack = self.racks.read(ev, ev.rack)
        if shown is not None and rack is not None and sorted(shown) != sorted(rack):
            self.findings.error(
                ev.line,
                "penalty_rack_mismatch",
                {"rack": ev.rack, "tiles": ev.tiles},
                ev.nick,
                expected=ev.rack,
                recorded=ev.tiles,
            )
        tiles = shown if shown is not None else rack
        if blind:
            self.accept_blind_end(ev, p)
            return
        if not self.ended:
            self.findings.error(ev.line, "end_before_end", {"case": "rack_penalty"}, ev.nick)
            self.sheet.book(ev, p, None)
            return
        if p in self.end_lines:
            self.findings.error(ev.line, "repeated_end_points", {"case": "rack_penalty"}, ev.nick)
        self.end_lines[p] = gcg.RACK_PENALTY
        allowed = True
        if self.ended == OUT:
            allowed = self._penalty_after_out(ev, p, tiles)
        elif tiles is not None:
            taken = self.penalty_tiles if self.penalty_tiles is not None else Counter()
            if self.racks.drawable(ev.line, ev.nick, tiles, "rack left", taken):
                taken.update(tiles)
                self.penalty_tiles = taken
        value = self.tiles.rack_value(tiles) if tiles is not None else -ev.score
        if ev.score != -value:
            self.findings.error(
                ev.line,
                "wrong_end_penalty",
                {"tiles": ev.tiles, "value": value, "score": ev.score},
                ev.nick,
                expected=-value,
                recorded=ev.score,
            )
        computed = -value if allowed else 0  # the engine's total is the total under the rules
        self.sheet.book(ev, p, computed)

    def _penalty_after_out(self, ev: gcg.Event, p: int, tiles: list[str] | None) -> bool:
        """Check a rack penalty after a player went out: whether the rules take it off."""
        allowed = True
        if p == self.out_player:
            allowed = False
            self.findings.error(ev.line, "unexpected_rack_penalty", player=ev.nick)
        convention = self.end_convention()
        if convention == "double":
            allowed = False
            self.findings.error(
                ev.line,
                "unexpected_rack_penalty",
                {"case": "double"},
                ev.nick,
                expected=0,
                recorded=ev.score,
            )
        elif convention == "any":
            self.conventions["end"] = "transfer"
        if self.n == 2 and tiles is not None and sorted(tiles) != self.out_unseen:
            left = "".join(self.out_unseen)
            self.findings.error(
                ev.line,
                "end_rack_mismatch",
                {"case": "rack_penalty", "left": left, "tiles": ev.tiles},
                ev.nick,
                expected=left,
                recorded=ev.tiles,
            )
        return allowed

    def accept_blind_end(self, ev: gcg.Event, p: int) -> None:
        """With the board unknown, an end line is taken as recorded; only its total is checked."""
        self.ended = self.ended or (OUT if ev.kind == gcg.END_POINTS else SCORELESS)
        if ev.kind == gcg.END_POINTS:
            self.out_player = p
        self.end_lines[p] = ev.kind
        self.sheet.book(ev, p, None)

    def time(self, ev: gcg.Event, p: int) -> None:
        """A time penalty."""
        per_minute = self.rules.time_penalty_per_minute
        if not self.ended:
            self.findings.error(ev.line, "end_before_end", {"case": "time"}, ev.nick)
        elif self.pending_end_lines():
            self.findings.warn(ev.line, "time_before_end_points", player=ev.nick)
        if p in self.timed:
            self.findings.error(ev.line, "repeated_time_penalty", player=ev.nick)
        if self.ended:  # one misplaced in mid-game does not stand for the real one
            self.timed.add(p)
        computed = ev.score
        if per_minute == 0:
            computed = 0
            self.findings.error(
                ev.line,
                "time_penalty_not_in_rules",
                {"rules": self.rules.name},
                ev.nick,
                expected=0,
                recorded=ev.score,
            )
        elif ev.score >= 0 or ev.score % per_minute:
            self.findings.error(
                ev.line,
                "wrong_time_penalty",
                {"per_minute": per_minute, "score": ev.score},
                ev.nick,
                recorded=ev.score,
            )
        self.sheet.book(ev, p, computed)

    # -- when the record stops ------------------------------------------------------------------

    def pending_end_lines(self) -> list[int]:
        """Players who still owe an end-of-game line."""
        if self.ended == OUT:
            convention = self.end_convention()
            need = [self.out_player] if self.out_player is not None else []
            if convention == "transfer":
                need += [i for i in range(self.n) if i != self.out_player]
            return [i for i in need if i not in self.end_lines]
        if self.ended in (SCORELESS, PASSES):
            return [i for i in range(self.n) if i not in self.end_lines]
        return []

    def finish(self, blind: bool) -> None:
        """The record has been read: is the game over, and is every end line there?"""
        last = next((i for i in reversed(self.record.items) if isinstance(i, gcg.Event)), None)
        if last is None:
            if not self.findings.items:
                self.findings.warn(0, "no_moves")
            return
        if not self.ended:
            self._not_finished(last.line)
            return
        if self.tentative_end and self.conventions.get("end") != "transfer":
            self._settle_double(*self.tentative_end)
        pending = self.pending_end_lines() if not blind else []
        if self.ended == OUT and self.tiles.rack_value(self.out_unseen) == 0:
            pending = []  # racks of blanks only: a missing "+0" or "-0" line changes no total
        for i in pending:
            self._missing_end_line(last.line, i)

    def _not_finished(self, last_line: int) -> None:
        if self.record.incomplete:
            self.findings.warn(last_line, "not_finished", {"case": "incomplete"})
        elif any(isinstance(i, gcg.Event) and i.kind in _END_KINDS for i in self.record.items):
            # The recorder ended the game where the rules say it goes on.
            self.findings.error(last_line, "not_finished", {"case": "ended"})
        else:
            # Online services write a resigned or timed-out game this way: every move up to
            # here was checked, and the totals on the last lines are the result.
            self.findings.warn(last_line, "not_finished")

    def _settle_double(self, ev: gcg.Event, value: int) -> None:
        """End points of 1x the rack that no rack penalty took off: the rack counts twice."""
        self.conventions["end"] = "double"
        self.wrong_end_points(ev, "double", value, 2 * value)
        p = self.index[ev.nick]
        self.sheet.computed[p] += value  # the engine's total counts the rack twice
        for turn in self.sheet.turns:
            if turn.event is ev:
                turn.computed_score = 2 * value
                turn.computed_total += value

    def _missing_end_line(self, last_line: int, i: int) -> None:
        nick = self.players[i].nick
        unseen = "".join(self.out_unseen)
        if self.ended != OUT:
            self.findings.error(
                last_line, "missing_end_points", {"case": "scoreless", "player": nick}, nick
            )
        elif i == self.out_player:
            value = self.tiles.rack_value(self.out_unseen)
            expected = value if self.end_convention() == "transfer" else 2 * value
            self.findings.error(
                last_line,
                "missing_end_points",
                {"case": "out", "player": nick, "rack": unseen, "points": expected},
                nick,
                expected=expected,
            )
        else:
            assert self.out_player is not None  # the game ended OUT: someone went out
            out = self.players[self.out_player].nick
            params: dict[str, Any] = {"out": out, "player": nick}
            if self.n == 2:
                penalty = -self.tiles.rack_value(self.out_unseen)
                params.update(case="penalty", penalty=penalty, rack=unseen)
            self.findings.error(
                last_line, "missing_end_points", params, nick, expected=params.get("penalty")
            )
