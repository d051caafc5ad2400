"""Replaying a game record under a ruleset: every move placed, every score and total checked.

``verify`` never raises on a bad record. It returns a ``Report``: each event's recorded and computed
score and running total, and a list of findings, each on the line where it happens.

The replay is made of parts: ``scoring.reader.read_game`` reads the record's lines in order and
hands each to a visitor, here ``Replay``, which keeps the turn order and composes
``placement.Placement`` (the board: where tiles land, the words they form),
``scores.Scorer`` and ``scores.ScoreSheet`` (what plays score, the running totals),
``racks.Racks`` (the tiles off the board) and ``endings.Endings`` (when and how the game ends).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from . import gcg
from .endings import Endings
from .findings import ERROR, Finding, Findings
from .lexicon import Lexicons
from .placement import Placement, Words, record_layout, splitter
from .racks import Racks
from .reader import read_game
from .report import OUT, PASSES, SCORELESS, PlayerResult, Report, Tracking, Turn
from .rules import Ruleset, load_rules
from .scores import Scorer, ScoreSheet, challenge_bonus
from .tiles import (
    TileSet,
    builtin_tileset,
    builtin_tilesets,
    detect_tileset,
    load_tileset,
)

__all__ = [
    "OUT",
    "PASSES",
    "SCORELESS",
    "PlayerResult",
    "Replay",
    "Report",
    "Turn",
    "canonical_gcg",
    "choose_rules",
    "choose_tiles",
    "verify",
]

_BRACKETED = re.compile(r"\[([^\[\]]+)\]")

# What is needed to take a play back when it is withdrawn or to attach a bonus to it: its player,
# its turn, the squares it covered, the tiles drawn after it, the scoreless turns and passes before
# it, and where its wrong-score finding stands (downgraded if the play is withdrawn). A plain
# tuple, as one is kept for every play. (A play is only ever made before the game ends, so taking
# it back never restores an ending.)
_Play = tuple[int, Turn, list[int], int, int, int, int | None]


class Replay:
    """The visitor ``read_game`` hands a record's lines to: turn order, and each kind of move
    carried out by the parts it is made of. ``result`` is the report."""

    def __init__(
        self,
        record: gcg.GameRecord,
        rules: Ruleset,
        tiles: TileSet,
        lexicons: Lexicons | None,
        found: Iterable[Finding] = (),
    ) -> None:
        self.record = record
        self.rules = rules
        self.tiles = tiles
        self.lexicons = lexicons if lexicons and len(lexicons) else None
        self.players = record.players
        self.n = len(self.players)
        self.findings = findings = Findings(record.findings)
        layout = record_layout(record, findings)
        findings.items.extend(found)
        split = splitter(record, tiles)
        self.placement = Placement(layout, tiles, split, findings)
        self.scorer = Scorer(layout, tiles, rules)
        self.sheet = ScoreSheet(self.n, findings)
        self.racks = Racks(tiles, rules, self.n, split, findings)
        self.tracking = Tracking(self.placement.board.width, tuple(self.racks.pool), split)
        self.pool = tuple(self.racks.pool.values())  # off the board before the event replayed
        self.conventions: dict[str, str] = {}
        self.endings = Endings(
            record, rules, tiles, self.racks, self.sheet, findings, self.conventions
        )
        self.to_move = 0
        self.last_play: _Play | None = None
        self.previous_kind: str | None = None

    # -- reading --------------------------------------------------------------------------------

    def handle_error(self, finding: Finding) -> None:
        self.findings.add(finding)

    def begin_game(self) -> None:
        n, rules = self.n, self.rules
        broken = any(
            f.code in ("duplicate_nick", "duplicate_player_number", "empty")
            for f in self.findings.items
        )
        if (n < rules.min_players or n < 1) and not broken:
            self.findings.error(
                0, "too_few_players", {"count": n, "rules": rules.name, "least": rules.min_players}
            )
        if n > rules.max_players:
            self.findings.error(
                0, "too_many_players", {"count": n, "rules": rules.name, "most": rules.max_players}
            )

    def end_event(self, ev: gcg.Event, number: int) -> None:
        turns = self.sheet.turns
        if turns and turns[-1].event is ev:
            turn = turns[-1]
            turn.number = number
            turn.tracking = self.tracking
            turn.pool = self.pool
        if self.racks.moved:  # tiles came onto the board or went back: the next turn's pool
            self.racks.moved = False
            self.pool = tuple(self.racks.pool.values())
        self.previous_kind = ev.kind

    def end_game(self) -> None:
        self.endings.finish(self.placement.blind is not None)

    def result(self) -> Report:
        sheet = self.sheet
        results = [
            PlayerResult(pl.nick, pl.name, sheet.recorded[i], sheet.computed[i])
            for i, pl in enumerate(self.players)
        ]
        return Report(
            results,
            sheet.turns,
            sorted(self.findings.items, key=lambda f: f.line),
            self.rules,
            self.tiles,
            self.placement.board,
            self.endings.ended,
            dict(self.conventions),
            sheet.canonical,
            {t: c for t, c in self.racks.pool.items() if c > 0},
        )

    def visit_last_rack(self, item: gcg.Pragma) -> None:
        """A ``#rack1``/``#rack2`` line: the rack must be drawable where the line stands."""
        number = int(item.keyword[4:])
        nick = next((pl.nick for pl in self.players if pl.number == number), None)
        if nick is None:
            self.findings.error(
                item.line,
                "unknown_player",
                {"case": "rack", "keyword": item.keyword, "number": number},
                recorded=item.keyword,
            )
            return
        event = gcg.Event(item.line, nick, gcg.PASS, rack=item.value)
        rack = self.racks.read(event, item.value)
        if rack is not None:
            self.racks.drawable(item.line, nick, rack, "rack")

    def visit_unread(self, item: gcg.Unread, p: int) -> None:
        """An unreadable move still took its player's turn; what it did is unknown."""
        if self.endings.ended:
            return
        self.to_move = (p + 1) % self.n
        last = gcg.number(item.text.split()[-1])
        if last is not None:  # its running total, to check the next lines
            self.sheet.carry(p, last)
        if self.placement.blind is None:
            self.placement.blind = item.line

    # -- moves ----------------------------------------------------------------------------------

    def take_turn(self, ev: gcg.Event, p: int) -> bool:
        """Turn order and game end for a move; False when the move cannot be applied."""
        if self.endings.ended:
            self.endings.after_end(ev, p)
            return False
        if p != self.to_move:
            expected = self.players[self.to_move].nick
            self.findings.error(
                ev.line,
                "out_of_turn",
                {"expected": expected, "nick": ev.nick},
                ev.nick,
                expected=expected,
                recorded=ev.nick,
            )
        self.to_move = (p + 1) % self.n
        return True

    def visit_play(self, ev: gcg.Event, p: int) -> None:
        applied = self.take_turn(ev, p)
        self.last_play = None
        if not applied:
            self.sheet.book(ev, p, None)
            return
        racks = self.racks
        blind = self.placement.blind is not None
        rack = racks.read(ev, ev.rack)
        if rack is not None and not blind:
            racks.drawable(ev.line, ev.nick, rack, "rack")
        placed = self.placement.place(ev) if not blind else None
        if placed is None:
            self._play_unplaced(ev, p)
            return
        new, laid, used, main, crosses, words, position, word = placed
        racks.use(ev, rack, used)
        score = self.scorer.score(new, laid, main, crosses)
        score_finding = None if score == ev.score else self._wrong_score(ev, score, position)
        marked = self._marked(ev, words) if self.lexicons else words
        drawn = racks.refill(ev, p, len(new))
        turn = self.sheet.book(ev, p, score, marked, position, word)
        turn.laid = new, laid
        self.sheet.canonical[ev.line] = (position, word)
        endings = self.endings
        self.last_play = (p, turn, new, drawn, endings.scoreless, endings.passes, score_finding)
        endings.played(p, score, racks.sizes[p] == 0 and racks.bag == 0)

    def _play_unplaced(self, ev: gcg.Event, p: int) -> None:
        """A play that could not be placed (or on a board no longer known): from here on only
        turn order and arithmetic are checked."""
        if self.placement.blind is None:
            self.placement.blind = ev.line
            self.findings.warn(ev.line, "board_unknown", player=ev.nick)
        turn = self.sheet.book(ev, p, None)
        endings = self.endings
        self.last_play = (p, turn, [], 0, endings.scoreless, endings.passes, None)
        endings.played_blind(ev.score)

    def _wrong_score(self, ev: gcg.Event, score: int, position: str) -> int:
        """Report the wrong score on the line: where its finding stands."""
        at = self.findings.mark()
        self.findings.error(
            ev.line,
            "wrong_score",
            {"word": ev.word, "position": position, "score": score, "recorded": ev.score},
            ev.nick,
            expected=score,
            recorded=ev.score,
        )
        return at

    def _marked(self, ev: gcg.Event, words: Words) -> Words:
        """The words formed with the word lists' marks; the first checked against the record's."""
        assert self.lexicons is not None  # only asked with word lists
        formed = [w for w, _ in words]
        marked = list(zip(formed, self.lexicons.marks(formed), strict=True))
        if ev.marks and marked:
            mark = marked[0][1]
            if mark != ev.marks:
                self.findings.warn(
                    ev.line,
                    "mark_differs",
                    {"word": ev.word, "marks": ev.marks, "mark": mark}
                    if mark
                    else {"case": "unmarked", "word": ev.word, "marks": ev.marks},
                    ev.nick,
                    expected=mark,
                    recorded=ev.marks,
                )
        return marked

    def visit_pass(self, ev: gcg.Event, p: int) -> None:
        applied = self.take_turn(ev, p)
        self.last_play = None
        if ev.score != 0:
            self.findings.error(
                ev.line, "wrong_score", {"case": "pass"}, ev.nick, expected=0, recorded=ev.score
            )
        self.racks.read_drawable(ev)
        self.sheet.book(ev, p, 0)
        if applied:
            self.endings.passed()

    def visit_exchange(self, ev: gcg.Event, p: int) -> None:
        applied = self.take_turn(ev, p)
        self.last_play = None
        rack = self.racks.read_drawable(ev)
        count = self._exchanged(ev, rack)
        rules = self.rules
        if not 1 <= count <= rules.rack_size:
            self.findings.error(
                ev.line,
                "malformed_exchange",
                {"size": rules.rack_size, "count": count},
                ev.nick,
                recorded=count,
            )
        bag = self.racks.bag
        if applied and bag < rules.exchange_min_bag:
            self.findings.error(
                ev.line,
                "exchange_bag_too_small",
                {"least": rules.exchange_min_bag, "left": bag},
                ev.nick,
                expected=rules.exchange_min_bag,
                recorded=bag,
            )
        if ev.score != 0:
            self.findings.error(
                ev.line, "wrong_score", {"case": "exchange"}, ev.nick, expected=0, recorded=ev.score
            )
        self.sheet.book(ev, p, 0)
        if applied:
            self.endings.exchanged()

    def _exchanged(self, ev: gcg.Event, rack: list[str] | None) -> int:
        """How many tiles an exchange puts back, checked against the rack."""
        if ev.count is None:
            tiles = self.racks.read(ev, ev.tiles, "exchange")
            if tiles is None:
                return 0
            self.racks.holds(ev, rack, tiles, "exchange")
            return len(tiles)
        count = ev.count
        if rack is not None and count > len(rack):
            self.findings.error(
                ev.line,
                "tiles_not_in_rack",
                {"case": "count", "count": count, "rack": ev.rack},
                ev.nick,
                expected=len(rack),
                recorded=count,
            )
        return count

    def visit_phony(self, ev: gcg.Event, p: int) -> None:
        """A play withdrawn after a challenge: its tiles come off and its score is taken back."""
        play = self.last_play if self.previous_kind == gcg.PLAY else None
        self.last_play = None
        if play is None:
            self.findings.error(ev.line, "phony_without_play", player=ev.nick)
            self.sheet.book(ev, p, None)
            return
        pp, turn, squares, drawn, scoreless_before, passes_before, score_finding = play
        self._check_withdrawal(ev, p, pp, turn)
        removed = self.placement.cells(squares)
        self.racks.give_back(self.placement.lift(squares))
        self.racks.unfill(pp, len(squares), drawn)
        if score_finding is not None:
            self.findings.downgrade(score_finding, "withdrawn")
        taken = self.sheet.withdraw(ev, pp, turn)
        self.sheet.turn(ev, p, taken).removed = removed
        self.endings.withdrawn(scoreless_before, passes_before)

    def _check_withdrawal(self, ev: gcg.Event, p: int, pp: int, turn: Turn) -> None:
        """The phony line must be the withdrawn play's player's, with the same rack."""
        if pp != p:
            player = self.players[pp].nick
            self.findings.error(
                ev.line,
                "phony_wrong_player",
                {"player": player},
                ev.nick,
                expected=player,
                recorded=ev.nick,
            )
        rack = turn.event.rack
        if ev.rack and rack and ev.rack.upper() != rack.upper():
            self.findings.error(
                ev.line,
                "phony_rack_mismatch",
                {"rack": ev.rack, "play_rack": rack},
                ev.nick,
                expected=rack,
                recorded=ev.rack,
            )

    def visit_challenge(self, ev: gcg.Event, p: int) -> None:
        """A bonus for a play that stood after a challenge."""
        play = self.last_play if self.previous_kind in (gcg.PLAY, gcg.CHALLENGE) else None
        if play is None:
            self.findings.error(ev.line, "challenge_without_play", player=ev.nick)
        elif play[0] != p:
            player = self.players[play[0]].nick
            self.findings.error(
                ev.line,
                "challenge_wrong_player",
                {"player": player},
                ev.nick,
                expected=player,
                recorded=ev.nick,
            )
        self.racks.read_drawable(ev)
        computed = challenge_bonus(ev, self.rules, self.findings, self.conventions)
        self.sheet.book(ev, p, computed)

    # -- the end of the game --------------------------------------------------------------------

    def visit_end_points(self, ev: gcg.Event, p: int) -> None:
        self.last_play = None
        self.endings.end_points(ev, p, self.placement.blind is not None)

    def visit_rack_penalty(self, ev: gcg.Event, p: int) -> None:
        self.last_play = None
        self.endings.rack_penalty(ev, p, self.placement.blind is not None)

    def visit_time(self, ev: gcg.Event, p: int) -> None:
        self.last_play = None
        self.endings.time(ev, p)


def _record_letters(record: gcg.GameRecord) -> set[str]:
    text = "".join(
        [f"{ev.rack}{ev.word}{ev.tiles}" for ev in record.items if isinstance(ev, gcg.Event)]
    ).upper()
    letters = set(filter(str.isalpha, set(text)))
    if "[" in text:  # multi-character tiles in brackets, e.g. [CH]: a letter of their own
        letters.update(_BRACKETED.findall(text))
    for item in record.items:  # #tile [CH] [ch]: a set that has the tile
        if isinstance(item, gcg.Pragma) and item.keyword == "tile" and item.value.strip():
            letters.add(item.value.split()[0].strip("[]").upper())
    return letters


def choose_tiles(
    record: gcg.GameRecord, tiles: str | TileSet = "auto"
) -> tuple[TileSet, list[Finding]]:
    """The tile set to replay with, and a finding if the record names one that is not built in.

    ``tiles`` comes from the caller (a name, or a file path the director gave); a record's
    ``#tile-distribution`` may only name a built-in set and never makes the engine open a file.
    """
    if isinstance(tiles, TileSet):
        return tiles, []
    if tiles != "auto":
        return load_tileset(tiles), []
    declared = record.pragma_item("tile-distribution")
    if declared is not None:
        named = builtin_tileset(declared.value)
        if named is not None:
            return named, []
        finding = Finding(
            declared.line,
            ERROR,
            "unknown_tile_set",
            {"value": declared.value, "sets": list(builtin_tilesets())},
            recorded=declared.value,
        )
        return detect_tileset(_record_letters(record)), [finding]
    return detect_tileset(_record_letters(record)), []


def choose_rules(record: gcg.GameRecord, rules: str | Ruleset = "auto") -> Ruleset:
    if isinstance(rules, Ruleset):
        return rules
    if rules != "auto":
        return load_rules(rules)
    if len(record.players) > 2:
        home = load_rules("home")
        return Ruleset(
            **{**home.__dict__, "name": "auto (home)", "challenge": "any", "end_out": "transfer"}
        )
    return load_rules("auto")


def verify(
    source: str | bytes | gcg.GameRecord,
    rules: str | Ruleset = "auto",
    tiles: str | TileSet = "auto",
    lexicons: Lexicons | None = None,
    upto: int | None = None,
) -> Report:
    """Replay a record and check everything in it. ``upto`` stops after that many events."""
    record = source if isinstance(source, gcg.GameRecord) else gcg.parse(source)
    tileset, found = choose_tiles(record, tiles)
    replay = Replay(record, choose_rules(record, rules), tileset, lexicons, found)
    return read_game(record, replay, upto)


def canonical_gcg(source: str | bytes | gcg.GameRecord, **kwargs: Any) -> str:
    """The record as canonical GCG: play-through written as '.', positions in upper case."""
    record = source if isinstance(source, gcg.GameRecord) else gcg.parse(source)
    report = verify(record, **kwargs)
    return gcg.write(record, report.canonical)
