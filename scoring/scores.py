"""What plays score and what the score sheet adds up: word scores from the premium squares, the
bingo and challenge bonuses, and each player's running total, recorded and computed."""

from __future__ import annotations

import functools
from typing import Any

from . import gcg
from .board import Layout, padded_premiums
from .findings import Findings
from .placement import Crosses
from .report import Turn
from .rules import Ruleset
from .tiles import TileSet, tables


class Scorer:
    """Word scores: tile values, letter and word premiums on the squares just covered, and the
    bonus for using every tile of the rack."""

    def __init__(self, layout: Layout, tiles: TileSet, rules: Ruleset) -> None:
        self.premium, self.extra, self.wm = _premiums(layout)
        self.values = tables(tiles).values
        self.value = self.values.__getitem__
        self.rack_size = rules.rack_size
        self.bingo_bonus = rules.bingo_bonus

    def score(self, new: list[int], laid: list[str], main: list[str], crosses: Crosses) -> int:
        """What a play scores (``new``, ``laid``, ``main`` and ``crosses`` as ``Placed`` has
        them): each word the sum of its tiles plus, for a new tile on a premium square, its
        letter premium less one times its value, all times the word premiums; and the bingo."""
        values, value, extra, wm = self.values, self.value, self.extra, self.wm
        hits = self.premium.intersection(new)  # most squares have no premium
        total = 0
        if main:
            points = sum(map(value, main))
            mult = 1
            for q in hits:
                points += values[laid[new.index(q)]] * extra[q]
                mult *= wm[q]
            total = points * mult
        for q, t, tiles in crosses:
            if q in hits:
                total += (sum(map(value, tiles)) + values[t] * extra[q]) * wm[q]
            else:
                total += sum(map(value, tiles))
        if len(new) == self.rack_size:
            total += self.bingo_bonus
        return total


@functools.cache
def _premiums(layout: Layout) -> tuple[frozenset[int], tuple[int, ...], tuple[int, ...]]:
    """The squares of ``Board.squares`` with a premium, and per square the letter premium less
    one (what a new tile there adds to its word beyond its own value, in multiples of it) and
    the word premium."""
    letter, word = padded_premiums(layout)
    squares = enumerate(zip(letter, word, strict=True))
    premium = frozenset(q for q, (lm, wm) in squares if lm != 1 or wm != 1)
    return premium, tuple(lm - 1 for lm in letter), word


class ScoreSheet:
    """The players' running totals as recorded and as the engine computes them, and the turns
    as the engine saw them."""

    def __init__(self, players: int, findings: Findings) -> None:
        self.findings = findings
        self.recorded = [0] * players
        self.computed = [0] * players
        self.turns: list[Turn] = []
        self.canonical: dict[int, tuple[str, str]] = {}  # line -> (position, word) of a play

    def book(
        self,
        ev: gcg.Event,
        p: int,
        computed: int | None,
        words: list[tuple[str, str]] | None = None,
        position: str | None = None,
        word: str | None = None,
    ) -> Turn:
        """Check the running total on the line, move both totals on and add the turn."""
        recorded = self.recorded
        expected = recorded[p] + ev.score
        if ev.total != expected:
            params = {"before": recorded[p], "score": ev.score, "expected": expected}
            params["total"] = ev.total
            self.findings.error(
                ev.line, "wrong_total", params, ev.nick, expected=expected, recorded=ev.total
            )
        recorded[p] = ev.total
        self.computed[p] += ev.score if computed is None else computed
        turn = Turn(ev, computed, self.computed[p], words or [], position, word)
        self.turns.append(turn)
        return turn

    def turn(self, ev: gcg.Event, p: int, computed: int) -> Turn:
        """Add the turn of an event whose totals have moved on."""
        turn = Turn(ev, computed, self.computed[p])
        self.turns.append(turn)
        return turn

    def carry(self, p: int, total: int) -> None:
        """A line that could not be read ends with this total: the next lines go on from it."""
        self.computed[p] += total - self.recorded[p]
        self.recorded[p] = total

    def withdraw(self, ev: gcg.Event, p: int, withdrawn: Turn) -> int:
        """Take a withdrawn play's score off its player (``ev`` is the phony line): what the
        engine takes off."""
        recorded = withdrawn.recorded_score
        if ev.score == 0:
            # Old records write the withdrawal as "-- +0" with the total from before the play.
            pass
        elif ev.score != -recorded:
            self.findings.error(
                ev.line,
                "wrong_withdrawal",
                {"points": recorded, "taken": -ev.score},
                ev.nick,
                expected=-recorded,
                recorded=ev.score,
            )
        expected_total = self.recorded[p] - recorded
        if ev.total != expected_total:
            self.findings.error(
                ev.line,
                "wrong_total",
                {"case": "withdrawal", "expected": expected_total, "total": ev.total},
                ev.nick,
                expected=expected_total,
                recorded=ev.total,
            )
        self.recorded[p] = ev.total
        computed = withdrawn.computed_score
        taken = -(computed if computed is not None else recorded)
        self.computed[p] += taken
        return taken


def challenge_bonus(
    ev: gcg.Event, rules: Ruleset, findings: Findings, conventions: dict[str, str]
) -> int:
    """The points the rules give for a play that stood after a challenge (``ev`` is the bonus
    line), checked against the line."""
    rule = rules.challenge
    if rule == "double" and ev.score:
        findings.error(
            ev.line,
            "challenge_bonus_not_in_rules",
            {"rules": rules.name},
            ev.nick,
            expected=0,
            recorded=ev.score,
        )
        return 0  # the engine's total is the total under the rules
    if rule != "double" and ev.score <= 0:
        findings.error(ev.line, "wrong_challenge_bonus", player=ev.nick, recorded=ev.score)
    elif rule == "penalty" and ev.score % rules.challenge_points:
        params: dict[str, Any] = {
            "case": "per_word",
            "points": rules.challenge_points,
            "score": ev.score,
        }
        findings.error(
            ev.line,
            "wrong_challenge_bonus",
            params,
            ev.nick,
            expected=rules.challenge_points,
            recorded=ev.score,
        )
    elif rule == "any":
        conventions.setdefault("challenge", f"{ev.score}-point bonus")
    return ev.score
