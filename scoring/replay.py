"""Replaying a game record under a ruleset: every move placed, every score and total checked.

``verify`` never raises on a bad record. It returns a ``Report``: each event's recorded and computed
score and running total, and a list of findings, each on the line where it happens.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, cast

from . import gcg
from .board import (
    Board,
    Position,
    builtin_layout,
    builtin_layouts,
    padded_premiums,
    parse_position,
)
from .findings import ERROR, WARNING, Finding
from .lexicon import Lexicons
from .rules import Ruleset, load_rules
from .tiles import (
    BLANK,
    TileSet,
    builtin_tileset,
    builtin_tilesets,
    detect_tileset,
    load_tileset,
)

OUT = "out"  # a player went out
SCORELESS = "scoreless"  # consecutive scoreless turns
PASSES = "passes"  # every player passed the agreed number of times in a row


@dataclass(slots=True)
class Turn:
    """One event of the record as the engine saw it."""

    event: gcg.Event = field(repr=False)
    computed_score: int | None  # None where the engine could not compute it
    computed_total: int
    words: list[tuple[str, str]] = field(default_factory=list)  # (word formed, validity mark)
    position: str | None = None  # canonical position and word of a play
    word: str | None = None
    # For drawing the game turn by turn without replaying it: the events replayed up to and
    # including this one (``verify(upto=number)`` shows the board after it), the tiles it put
    # down as (row, column, tile), those a withdrawn phony took off as (row, column), and the
    # tiles its player could not see before moving (not on the board nor on their recorded rack).
    number: int = 0
    placed: list[tuple[int, int, str]] = field(default_factory=list)
    removed: list[tuple[int, int]] = field(default_factory=list)
    unseen: dict[str, int] = field(default_factory=dict)

    @property
    def line(self) -> int:
        return self.event.line

    @property
    def nick(self) -> str:
        return self.event.nick

    @property
    def kind(self) -> str:
        return self.event.kind

    @property
    def recorded_score(self) -> int:
        return self.event.score

    @property
    def recorded_total(self) -> int:
        return self.event.total

    @property
    def text(self) -> str:
        """The event as a canonical GCG line."""
        return gcg.event_text(self.event, self.word, self.position)


@dataclass
class PlayerResult:
    nick: str
    name: str
    final: int  # the last running total recorded
    computed: int  # the total the engine computed


@dataclass
class Report:
    players: list[PlayerResult]
    turns: list[Turn]
    findings: list[Finding]
    rules: Ruleset
    tiles: TileSet
    board: Board
    ended: str | None  # OUT, SCORELESS, PASSES or None
    conventions: dict[str, str] = field(default_factory=dict)
    canonical: dict[int, tuple[str, str]] = field(default_factory=dict)  # line -> (position, word)
    unseen: dict[str, int] = field(default_factory=dict)  # tiles not on the board at the end

    @property
    def verified(self) -> bool:
        return not any(f.severity == ERROR for f in self.findings)

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == ERROR]

    def as_dict(self, file: str | None = None) -> dict[str, Any]:
        data: dict[str, Any] = {}
        if file is not None:
            data["file"] = file
        data["verified"] = self.verified
        data["rules"] = self.rules.name
        data["tiles"] = self.tiles.name
        data["players"] = [
            {"nick": p.nick, "name": p.name, "final": p.final, "computed": p.computed}
            for p in self.players
        ]
        data["findings"] = [f.as_dict() for f in self.findings]
        return data


_END_KINDS = (gcg.END_POINTS, gcg.RACK_PENALTY, gcg.TIME)
_SAME_TWICE = re.compile(r"(?<![\w-])(-?\w+), not \1(?![\w-])")


def _contradicts_itself(message: str, expected: Any, recorded: Any) -> bool:
    """A finding whose expected value is the value recorded ("0, not 0") reports nothing wrong:
    the record agrees with the rules, so the engine never says otherwise."""
    if expected is not None and expected == recorded:
        return True
    return ", not " in message and _SAME_TWICE.search(message) is not None


_BRACKETED = re.compile(r"\[([^\[\]]+)\]")
_PARENS = re.compile(r"\(([^)]*)\)")
_NO_CELLS: frozenset[int] = frozenset()


# What is needed to take a play back when it is withdrawn or to attach a bonus to it: its player,
# its turn, the squares it covered, the tiles drawn after it, the scoreless turns and passes before
# it, and the index of its wrong-score finding (downgraded if the play is withdrawn). A plain
# tuple, as one is kept for every play. (A play is only ever made before the game ends, so taking
# it back never restores an ending.)
_Play = tuple[int, Turn, list[int], int, int, int, int | None]


class _Replay:
    def __init__(
        self, record: gcg.GameRecord, rules: Ruleset, tiles: TileSet, lexicons: Lexicons | None
    ) -> None:
        self.record = record
        self.rules = rules
        self.tiles = tiles
        self.lexicons = lexicons if lexicons and len(lexicons) else None
        self.findings: list[Finding] = list(record.findings)
        self.players = record.players
        self.n = len(self.players)
        self.index = {p.nick: i for i, p in enumerate(self.players)}
        layout = builtin_layout("standard15")
        declared = record.pragma_item("board-layout")
        if declared is not None:
            # A record names a built-in layout only: a path in it must never be opened.
            named = builtin_layout(declared.value)
            if named is None:
                self.error(
                    declared.line,
                    "unknown_layout",
                    {"value": declared.value, "layouts": sorted(builtin_layouts())},
                    recorded=declared.value,
                )
            else:
                layout = named
        assert layout is not None  # the standard layout ships with the engine
        self.board = Board(layout)
        self.lm, self.wm = padded_premiums(layout)
        self.size = layout.size
        self.geometries = _geometries(self.size)
        self.full, self.values, self.rack_form, self.known, self.multi, none = _tables(tiles)
        # A record that declares its multi-character tiles (#tile) writes them in brackets only:
        # there "LL" is two L's, and "[LL]" the Spanish tile.
        self.split = (
            functools.partial(tiles.split, bracketed_only=True)
            if record.pragma_item("tile") is not None
            else tiles.split
        )
        # Tiles not on the board (in the bag or on a rack), kept up to date as tiles come and go.
        self.pool: dict[str, int] = dict(self.full)
        self.used_up = set(none)  # tiles the pool has none of
        self.rack_sizes = [rules.rack_size] * self.n
        self.bag = tiles.size - rules.rack_size * self.n
        self.recorded = [0] * self.n
        self.computed = [0] * self.n
        self.to_move = 0
        self.scoreless = 0
        self.passes = 0
        self.ended: str | None = None
        self.out_player: int | None = None
        self.out_unseen: list[str] = []
        self.end_lines: dict[int, str] = {}  # player -> kind of end line seen
        self.penalty_tiles: Counter[str] = Counter()
        self.timed: set[int] = set()
        self.post_out_pass = False
        self.last_play: _Play | None = None
        self.previous_kind: str | None = None
        self.turns: list[Turn] = []
        self.canonical: dict[int, tuple[str, str]] = {}
        self.conventions: dict[str, str] = {}
        # The line of a play that could not be placed: from there on the board is unknown, so
        # later plays are checked for turn order and arithmetic only.
        self.blind: int | None = None
        # Under auto, end points of 1x the rack: right only if the opponent's line takes it off.
        self.tentative_end: tuple[gcg.Event, int] | None = None

    # -- findings -------------------------------------------------------------------------------

    def error(
        self,
        line: int,
        code: str,
        params: dict[str, Any] | None = None,
        player: str | None = None,
        expected: Any = None,
        recorded: Any = None,
    ) -> None:
        self.add(Finding(line, ERROR, code, params or {}, player, expected, recorded))

    def warn(
        self,
        line: int,
        code: str,
        params: dict[str, Any] | None = None,
        player: str | None = None,
        expected: Any = None,
        recorded: Any = None,
    ) -> None:
        self.add(Finding(line, WARNING, code, params or {}, player, expected, recorded))

    def add(self, finding: Finding) -> None:
        if not _contradicts_itself(finding.message, finding.expected, finding.recorded):
            self.findings.append(finding)

    # -- tiles ----------------------------------------------------------------------------------

    def unseen(self) -> Counter[str]:
        """Tiles not on the board: in the bag or on some rack."""
        return Counter({t: c for t, c in self.pool.items() if c > 0})

    def unseen_by(self, ev: gcg.Event) -> dict[str, int]:
        """The tiles the player of `ev` cannot see before moving (tile tracking): not on the
        board, nor on the rack the line records. Quiet: the move's handler reports the rack."""
        left = {t: c for t, c in self.pool.items() if c > 0}
        if ev.rack and ev.rack != "UNKNOWN":
            for t in self.split(ev.rack.upper()):
                t = BLANK if t == "." else t
                if left.get(t, 0) > 0:
                    left[t] -= 1
        return {t: c for t, c in left.items() if c}

    def read_rack(self, ev: gcg.Event, text: str, what: str = "") -> list[str] | None:
        """The tiles of a rack as written, or None when it is not recorded or cannot be read.

        ``what`` is the case of a ``malformed_rack`` finding: "" (a rack), ``exchange`` or
        ``shown`` (the rack in parentheses on an end line)."""
        if not text or text == "UNKNOWN":
            return None
        rack = self.split(text.upper())
        if self.known.issuperset(rack):
            return rack
        values = self.values
        for k, t in enumerate(rack):
            if t in values:
                continue
            if t == ".":
                rack[k] = BLANK
                continue
            if t != BLANK:
                self.error(
                    ev.line,
                    "malformed_rack",
                    {"case": what, "text": text, "tile": t, "tiles": self.tiles.name},
                    ev.nick,
                    recorded=text,
                )
                return None
        return rack

    def check_drawable(
        self, line: int, nick: str, tiles: list[str], what: str, extra: Counter[str] | None = None
    ) -> bool:
        if len(tiles) > self.rules.rack_size and what == "rack":
            self.error(
                line,
                "rack_too_big",
                {"count": len(tiles), "size": self.rules.rack_size},
                nick,
                expected=self.rules.rack_size,
                recorded=len(tiles),
            )
            return False
        if extra is None:
            distinct = set(tiles)
            # The common case, quickly: no tile used up, and enough left of any tile held twice.
            if self.used_up.isdisjoint(distinct):
                if len(distinct) == len(tiles):
                    return True
                pool = self.pool
                most = len(tiles) - len(distinct) + 1  # no tile is held more often than this
                for t in distinct:
                    if pool[t] < most and pool[t] < tiles.count(t):
                        break
                else:
                    return True
        pool = self.pool
        wanted_so_far: dict[str, int] = {}
        short = []
        for t in tiles:
            c = wanted_so_far[t] = wanted_so_far.get(t, 0) + 1
            if c > pool.get(t, 0) - (extra.get(t, 0) if extra else 0) and t not in short:
                short.append(t)
        if short:
            wanted = Counter(tiles)
            pool = self.unseen()
            if extra:
                pool.subtract(extra)
            # [tile, count] pairs, not an object: PostgreSQL's jsonb does not keep keys' order.
            needs = [[t, wanted[t]] for t in sorted(short)]
            unseen = [[t, pool.get(t, 0)] for t in sorted(short)]
            params: dict[str, Any] = {"needs": needs, "unseen": unseen, "tiles": self.tiles.name}
            if what == "rack left":
                params["case"] = "left"
            self.error(
                line,
                "rack_not_drawable",
                params,
                nick,
                expected=", ".join(f"{c} {t}" for t, c in unseen),
                recorded=", ".join(f"{c} {t}" for t, c in needs),
            )
            return False
        return True

    def rack_holds(self, ev: gcg.Event, rack: list[str] | None, used: list[str], what: str) -> None:
        if rack is None:
            return
        left = list(rack)
        lacking = []
        for t in used:
            try:
                left.remove(t)
            except ValueError:
                lacking.append(t)
        if lacking:
            lacking.sort()
            self.error(
                ev.line,
                "tiles_not_in_rack",
                {"case": what, "tiles": "".join(lacking), "rack": ev.rack},
                ev.nick,
                expected=ev.rack,
                recorded="".join(used),
            )

    # -- totals ---------------------------------------------------------------------------------

    def book(self, p: int, ev: gcg.Event, computed: int | None) -> None:
        """Check the running total on the line and move both totals on."""
        expected = self.recorded[p] + ev.score
        if ev.total != expected:
            self.error(
                ev.line,
                "wrong_total",
                {
                    "before": self.recorded[p],
                    "score": ev.score,
                    "expected": expected,
                    "total": ev.total,
                },
                ev.nick,
                expected=expected,
                recorded=ev.total,
            )
        self.recorded[p] = ev.total
        self.computed[p] += ev.score if computed is None else computed

    def turn(
        self,
        ev: gcg.Event,
        p: int,
        computed: int | None,
        words: list[tuple[str, str]] | None = None,
        position: str | None = None,
        word: str | None = None,
    ) -> None:
        self.turns.append(Turn(ev, computed, self.computed[p], words or [], position, word))

    # -- the replay -----------------------------------------------------------------------------

    def run(self, upto: int | None = None) -> None:
        n = self.n
        broken = any(
            f.code in ("duplicate_nick", "duplicate_player_number", "empty") for f in self.findings
        )
        if (n < self.rules.min_players or n < 1) and not broken:
            self.error(
                0,
                "too_few_players",
                {"count": n, "rules": self.rules.name, "least": self.rules.min_players},
            )
        if n > self.rules.max_players:
            self.error(
                0,
                "too_many_players",
                {"count": n, "rules": self.rules.name, "most": self.rules.max_players},
            )
        last_player_line = max((pl.line for pl in self.players), default=0)
        early_reported = False
        count = 0
        handlers = {
            gcg.PLAY: self._play,
            gcg.PASS: self._pass,
            gcg.EXCHANGE: self._exchange,
            gcg.PHONY: self._phony,
            gcg.CHALLENGE: self._challenge,
            gcg.END_POINTS: self._end_points,
            gcg.RACK_PENALTY: self._rack_penalty,
            gcg.TIME: self._time,
        }
        for ev in self.record.items:
            if not isinstance(ev, gcg.Event):
                if isinstance(ev, gcg.Pragma) and gcg._LAST_RACK.match(ev.keyword):
                    self.check_last_rack(ev)
                elif isinstance(ev, gcg.Unread) and ev.nick in self.index and not self.ended:
                    # An unreadable move still took its player's turn; what it did is unknown.
                    q = self.index[ev.nick]
                    self.to_move = self.next_player(q)
                    last = gcg.number(ev.text.split()[-1])
                    if last is not None:  # its running total, to check the next lines
                        self.computed[q] += last - self.recorded[q]
                        self.recorded[q] = last
                    if self.blind is None:
                        self.blind = ev.line
                continue
            if upto is not None and count >= upto:
                break
            count += 1
            if ev.line < last_player_line and not early_reported:
                early_reported = True
                self.error(
                    ev.line,
                    "event_before_players",
                    player=ev.nick,
                )
            p = self.index.get(ev.nick)
            if p is None:
                self.error(
                    ev.line,
                    "unknown_player",
                    {"nick": ev.nick, "players": [pl.nick for pl in self.players]},
                    ev.nick,
                    recorded=ev.nick,
                )
                continue
            made = len(self.turns)
            unseen = self.unseen_by(ev)
            handlers[ev.kind](ev, p)
            if len(self.turns) > made:
                self.turns[-1].number = count
                self.turns[-1].unseen = unseen
            self.previous_kind = ev.kind
        if upto is None:
            self.finish()

    def next_player(self, p: int) -> int:
        return (p + 1) % self.n

    def take_turn(self, ev: gcg.Event, p: int) -> bool:
        """Turn order and game end for a move; False when the move cannot be applied."""
        if self.ended:
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
                return False
            self.error(ev.line, "event_after_end", player=ev.nick)
            return False
        if p != self.to_move:
            expected = self.players[self.to_move].nick
            self.error(
                ev.line,
                "out_of_turn",
                {"expected": expected, "nick": ev.nick},
                ev.nick,
                expected=expected,
                recorded=ev.nick,
            )
        self.to_move = self.next_player(p)
        return True

    def _play(self, ev: gcg.Event, p: int) -> None:
        applied = self.take_turn(ev, p)
        self.last_play = None
        if not applied:
            self.book(p, ev, None)
            self.turn(ev, p, None)
            return
        rack = self.read_rack(ev, ev.rack)
        if rack is not None and self.blind is None:
            self.check_drawable(ev.line, ev.nick, rack, "rack")
        placed = self.place(ev) if self.blind is None else None
        if placed is None:
            if self.blind is None:
                self.blind = ev.line
                self.warn(
                    ev.line,
                    "board_unknown",
                    player=ev.nick,
                )
            self.book(p, ev, None)
            self.turn(ev, p, None)
            self.last_play = (p, self.turns[-1], [], 0, self.scoreless, self.passes, None)
            self.scoreless = 0 if ev.score else self.scoreless + 1
            return
        squares, used, score, words, position, word = placed
        self.rack_holds(ev, rack, used, "")
        if rack is None:
            # Without a rack, at least the tiles just placed must exist in the set.
            over = sorted(t for t in set(used) if self.pool.get(t, 0) < 0)
            if over:
                self.error(
                    ev.line,
                    "too_many_tiles",
                    {"over": over, "tiles": self.tiles.name},
                    ev.nick,
                    recorded=ev.word,
                )
        score_finding = None
        if score != ev.score:
            score_finding = len(self.findings)
            self.error(
                ev.line,
                "wrong_score",
                {"word": ev.word, "position": position, "score": score, "recorded": ev.score},
                ev.nick,
                expected=score,
                recorded=ev.score,
            )
        if ev.marks and self.lexicons and words:
            mark = words[0][1]
            if mark != ev.marks:
                self.warn(
                    ev.line,
                    "mark_differs",
                    {"word": ev.word, "marks": ev.marks, "mark": mark}
                    if mark
                    else {"case": "unmarked", "word": ev.word, "marks": ev.marks},
                    ev.nick,
                    expected=mark,
                    recorded=ev.marks,
                )
        drawn = min(len(squares), self.bag)
        if len(squares) > self.rack_sizes[p]:
            self.error(
                ev.line,
                "too_many_tiles",
                {"case": "held", "count": len(squares), "held": self.rack_sizes[p]},
                ev.nick,
                expected=self.rack_sizes[p],
                recorded=len(squares),
            )
        self.book(p, ev, score)
        self.canonical[ev.line] = (position, word)
        turn = Turn(ev, score, self.computed[p], words, position, word)
        width = self.board.width
        board = self.board.squares
        turn.placed = [(sq // width - 1, sq % width - 1, board[sq] or "") for sq in squares]
        self.turns.append(turn)
        self.last_play = (p, turn, squares, drawn, self.scoreless, self.passes, score_finding)
        self.bag -= drawn
        left = self.rack_sizes[p] - len(squares)
        self.rack_sizes[p] = (left if left > 0 else 0) + drawn
        self.scoreless = 0 if score else self.scoreless + 1
        self.passes = 0
        if self.rack_sizes[p] == 0 and self.bag == 0:
            self.ended = OUT
            self.out_player = p
            self.out_unseen = sorted(self.unseen().elements())
        if self.ended is None and not score:
            self.check_scoreless_end(ev)

    def place(
        self, ev: gcg.Event
    ) -> tuple[list[int], list[str], int, list[tuple[str, str]], str, str] | None:
        """Put a play on the board: (new squares, tiles from the rack, score, words and their
        marks, position, canonical word).

        None when it cannot be placed; the finding says why.
        """
        geometry = self.geometries.get(ev.position)
        if geometry is None:
            geometry = _geometry(ev.position, self.size)
            if geometry is None:
                self.error(
                    ev.line,
                    "bad_position",
                    {"position": ev.position},
                    ev.nick,
                    recorded=ev.position,
                )
                return None
            self.geometries[ev.position] = geometry
        pos, label, start, step, cross, along = geometry
        word = ev.word
        through: frozenset[int] | set[int] = _NO_CELLS  # cells written in parentheses
        if "(" in word:
            through = set()
            tiles: list[str] = []
            for k, piece in enumerate(_PARENS.split(word)):
                for t in self.split(piece):
                    if k % 2:
                        through.add(len(tiles))
                    tiles.append(t)
        else:
            tiles = self.split(word)
        size = self.size
        n = len(tiles)
        if n == 0 or along + n > size:
            self.placement_error(ev, pos, tiles, through)
            return None
        squares = self.board.squares
        if through and any(squares[start + k * step] is None for k in through):
            self.placement_error(ev, pos, tiles, through)
            return None
        values = self.values
        lm, wm = self.lm, self.wm
        form = self.rack_form
        new: list[int] = []
        used: list[str] = []  # the tiles taken from the rack, "?" for a blank
        rewritten: list[int] = []  # squares played through, written as their tile, not '.'
        main = 0
        mult = 1
        sq = start
        # Tiles go down as they are read; a bad play is taken back before it is reported.
        try:
            for t in tiles:
                here = squares[sq]
                if here is None:
                    main += values[t] * lm[sq]  # KeyError: not a tile of the set
                    mult *= wm[sq]
                    squares[sq] = t
                    new.append(sq)
                    used.append(form[t])
                else:
                    if t != ".":
                        if t != here and t.upper() != here.upper():
                            self.take_back(new, ev, pos, tiles, through)
                            return None
                        rewritten.append(sq)
                    main += values[here]
                sq += step
        except KeyError:
            self.take_back(new, ev, pos, tiles, through)
            return None
        if not new:
            self.placement_error(ev, pos, tiles, through)
            return None
        first_move = self.board.count == 0
        ends_touch = squares[start - step] is not None or squares[sq] is not None
        if ends_touch:
            self.error(
                ev.line,
                "not_whole_word",
                {"word": ev.word, "position": label},
                ev.nick,
                recorded=ev.word,
            )
        pool = self.pool
        for t in used:
            pool[t] -= 1
            if pool[t] <= 0:
                self.used_up.add(t)
        self.board.count += len(new)
        # One tile written on its own forms no word that way: only its cross-word counts.
        total = main * mult if n > 1 else 0
        # Every square from the start of a word to its end holds a tile (the walks stop at
        # the first empty square), so the slices below are of tiles only.
        words = ["".join(cast("list[str]", squares[start:sq:step]))] if n > 1 else []
        crossed = False
        for q in new:
            if squares[q - cross] is None and squares[q + cross] is None:
                continue
            # The border of empty squares stops both walks.
            lo = q - cross
            hi = q + cross
            while squares[lo] is not None:
                lo -= cross
            while squares[hi] is not None:
                hi += cross
            lo += cross
            crossed = True
            cross_word = cast("list[str]", squares[lo:hi:cross])
            s = values[cast(str, squares[q])] * (lm[q] - 1)
            for t in cross_word:
                s += values[t]
            total += s * wm[q]
            words.append("".join(cross_word))
        if len(new) == self.rules.rack_size:
            total += self.rules.bingo_bonus
        if first_move:
            layout = self.board.layout
            row, col = divmod(layout.centre, size)
            if self.board.index(row, col) not in new:
                self.error(
                    ev.line,
                    "first_move_off_centre",
                    {"square": layout.square_name(layout.centre)},
                    ev.nick,
                    recorded=f"{ev.position} {ev.word}",
                )
            if len(new) < 2:
                self.error(
                    ev.line,
                    "first_move_one_tile",
                    player=ev.nick,
                )
        elif len(new) == n and not crossed and not ends_touch:
            self.error(
                ev.line,
                "not_connected",
                {"word": ev.word, "position": label},
                ev.nick,
                recorded=f"{ev.position} {ev.word}",
            )
        if self.lexicons:
            marked = list(zip(words, self.lexicons.marks(words), strict=True))
        else:
            marked = [(w, "") for w in words]
        canon = tiles
        if rewritten:
            canon = list(tiles)
            for q in rewritten:
                canon[(q - start) // step] = "."
        if self.multi:
            canon = [t if len(t) == 1 else f"[{t}]" for t in canon]
        return new, used, total, marked, label, "".join(canon)

    def take_back(
        self,
        new: list[int],
        ev: gcg.Event,
        pos: Position,
        tiles: list[str],
        through: frozenset[int] | set[int],
    ) -> None:
        for q in new:
            self.board.squares[q] = None
        self.placement_error(ev, pos, tiles, through)
        return None

    def placement_error(
        self, ev: gcg.Event, pos: Position, tiles: list[str], through: frozenset[int] | set[int]
    ) -> None:
        """Say why a play cannot be placed (the slow path, taken only for a bad play)."""
        label = pos.text()
        size = self.size
        step, along = (1, pos.col) if pos.across else (size + 2, pos.row)
        if not tiles:
            self.error(ev.line, "malformed_move", player=ev.nick)
            return None
        if along + len(tiles) > size:
            self.error(
                ev.line,
                "off_board",
                {"word": ev.word, "position": label},
                ev.nick,
                recorded=f"{ev.position} {ev.word}",
            )
            return None
        squares = self.board.squares
        where = self.board.square_name
        sq = self.board.index(pos.row, pos.col)
        for k, t in enumerate(tiles):
            here = squares[sq]
            if t == "." and here is None:
                self.error(
                    ev.line,
                    "playthrough_empty",
                    {"word": ev.word, "position": label, "square": where(sq)},
                    ev.nick,
                    recorded=ev.word,
                )
                return None
            if t != "." and t not in self.values:
                self.error(
                    ev.line,
                    "unknown_tile",
                    {"tile": t, "word": ev.word, "tiles": self.tiles.name},
                    ev.nick,
                    recorded=ev.word,
                )
                return None
            if here is not None and t != "." and here.upper() != t.upper():
                self.error(
                    ev.line,
                    "square_occupied",
                    {
                        "word": ev.word,
                        "position": label,
                        "tile": t,
                        "square": where(sq),
                        "here": here,
                    },
                    ev.nick,
                    expected=here,
                    recorded=t,
                )
                return None
            if here is None and k in through:
                self.error(
                    ev.line,
                    "playthrough_empty",
                    {"case": "parens", "word": ev.word, "tile": t, "square": where(sq)},
                    ev.nick,
                    recorded=ev.word,
                )
                return None
            sq += step
        self.error(
            ev.line,
            "no_new_tiles",
            {"word": ev.word, "position": label},
            ev.nick,
            recorded=ev.word,
        )
        return None

    def check_scoreless_end(self, ev: gcg.Event) -> None:
        limit = self.rules.scoreless_turns
        if limit and self.scoreless >= limit:
            self.ended = SCORELESS
            return
        rounds = self.rules.pass_rounds
        if rounds and self.passes >= rounds * self.n:
            self.ended = PASSES

    def _pass(self, ev: gcg.Event, p: int) -> None:
        applied = self.take_turn(ev, p)
        self.last_play = None
        if ev.score != 0:
            self.error(
                ev.line, "wrong_score", {"case": "pass"}, ev.nick, expected=0, recorded=ev.score
            )
        if ev.rack:
            rack = self.read_rack(ev, ev.rack)
            if rack is not None:
                self.check_drawable(ev.line, ev.nick, rack, "rack")
        self.book(p, ev, 0)
        self.turn(ev, p, 0)
        if applied:
            self.scoreless += 1
            self.passes += 1
            self.check_scoreless_end(ev)

    def _exchange(self, ev: gcg.Event, p: int) -> None:
        applied = self.take_turn(ev, p)
        self.last_play = None
        rack = self.read_rack(ev, ev.rack)
        if rack is not None:
            self.check_drawable(ev.line, ev.nick, rack, "rack")
        if ev.count is not None:
            count = ev.count
            if rack is not None and count > len(rack):
                self.error(
                    ev.line,
                    "tiles_not_in_rack",
                    {"case": "count", "count": count, "rack": ev.rack},
                    ev.nick,
                    expected=len(rack),
                    recorded=count,
                )
        else:
            tiles = self.read_rack(ev, ev.tiles, "exchange")
            count = len(tiles) if tiles is not None else 0
            if tiles is not None:
                self.rack_holds(ev, rack, tiles, "exchange")
        if not 1 <= count <= self.rules.rack_size:
            self.error(
                ev.line,
                "malformed_exchange",
                {"size": self.rules.rack_size, "count": count},
                ev.nick,
                recorded=count,
            )
        if applied and self.bag < self.rules.exchange_min_bag:
            self.error(
                ev.line,
                "exchange_bag_too_small",
                {"least": self.rules.exchange_min_bag, "left": self.bag},
                ev.nick,
                expected=self.rules.exchange_min_bag,
                recorded=self.bag,
            )
        if ev.score != 0:
            self.error(
                ev.line,
                "wrong_score",
                {"case": "exchange"},
                ev.nick,
                expected=0,
                recorded=ev.score,
            )
        self.book(p, ev, 0)
        self.turn(ev, p, 0)
        if applied:
            self.scoreless += 1
            self.passes = 0
            self.check_scoreless_end(ev)

    def _phony(self, ev: gcg.Event, p: int) -> None:
        play = self.last_play if self.previous_kind == gcg.PLAY else None
        self.last_play = None
        if play is None:
            self.error(
                ev.line,
                "phony_without_play",
                player=ev.nick,
            )
            self.book(p, ev, None)
            self.turn(ev, p, None)
            return
        pp, turn, squares, drawn, scoreless_before, passes_before, score_finding = play
        if pp != p:
            self.error(
                ev.line,
                "phony_wrong_player",
                {"player": self.players[pp].nick},
                ev.nick,
                expected=self.players[pp].nick,
                recorded=ev.nick,
            )
        rack = turn.event.rack
        if ev.rack and rack and ev.rack.upper() != rack.upper():
            self.error(
                ev.line,
                "phony_rack_mismatch",
                {"rack": ev.rack, "play_rack": rack},
                ev.nick,
                expected=rack,
                recorded=ev.rack,
            )
        # Take the play back.
        width = self.board.width
        removed = [(sq // width - 1, sq % width - 1) for sq in squares]
        for sq in squares:
            t = self.board.squares[sq]
            assert t is not None  # the withdrawn play's own tiles are on the board
            key = BLANK if t.islower() else t
            self.pool[key] += 1
            if self.pool[key] > 0:
                self.used_up.discard(key)
            self.board.squares[sq] = None
        self.board.count -= len(squares)
        self.bag += drawn
        self.rack_sizes[pp] = self.rack_sizes[pp] - drawn + len(squares)
        self.ended = None
        self.out_player = None
        self.scoreless = scoreless_before + 1
        self.passes = passes_before
        if score_finding is not None:
            f = self.findings[score_finding]
            self.findings[score_finding] = Finding(
                f.line,
                WARNING,
                f.code,
                {**f.params, "case": "withdrawn"},
                f.player,
                f.expected,
                f.recorded,
            )
        recorded = turn.recorded_score
        if ev.score == 0:
            # Old records write the withdrawal as "-- +0" with the total from before the play.
            pass
        elif ev.score != -recorded:
            self.error(
                ev.line,
                "wrong_withdrawal",
                {"points": recorded, "taken": -ev.score},
                ev.nick,
                expected=-recorded,
                recorded=ev.score,
            )
        expected_total = self.recorded[pp] - recorded
        if ev.total != expected_total:
            self.error(
                ev.line,
                "wrong_total",
                {"case": "withdrawal", "expected": expected_total, "total": ev.total},
                ev.nick,
                expected=expected_total,
                recorded=ev.total,
            )
        self.recorded[pp] = ev.total
        computed = turn.computed_score
        computed = -(computed if computed is not None else recorded)
        self.computed[pp] += computed
        self.turn(ev, p, computed)
        self.turns[-1].removed = removed
        self.check_scoreless_end(ev)

    def _challenge(self, ev: gcg.Event, p: int) -> None:
        play = self.last_play if self.previous_kind in (gcg.PLAY, gcg.CHALLENGE) else None
        if play is None:
            self.error(
                ev.line,
                "challenge_without_play",
                player=ev.nick,
            )
        elif play[0] != p:
            player = self.players[play[0]].nick
            self.error(
                ev.line,
                "challenge_wrong_player",
                {"player": player},
                ev.nick,
                expected=player,
                recorded=ev.nick,
            )
        rack = self.read_rack(ev, ev.rack)
        if rack is not None:
            self.check_drawable(ev.line, ev.nick, rack, "rack")
        rule = self.rules.challenge
        computed = ev.score
        if rule == "double" and ev.score:
            computed = 0  # the engine's total is the total under the rules
            self.error(
                ev.line,
                "challenge_bonus_not_in_rules",
                {"rules": self.rules.name},
                ev.nick,
                expected=0,
                recorded=ev.score,
            )
        elif rule != "double" and ev.score <= 0:
            self.error(
                ev.line,
                "wrong_challenge_bonus",
                player=ev.nick,
                recorded=ev.score,
            )
        elif rule == "penalty" and ev.score % self.rules.challenge_points:
            self.error(
                ev.line,
                "wrong_challenge_bonus",
                {"case": "per_word", "points": self.rules.challenge_points, "score": ev.score},
                ev.nick,
                expected=self.rules.challenge_points,
                recorded=ev.score,
            )
        elif rule == "any":
            self.conventions.setdefault("challenge", f"{ev.score}-point bonus")
        self.book(p, ev, computed)
        self.turn(ev, p, computed)

    # -- the end of the game --------------------------------------------------------------------

    def end_convention(self) -> str:
        if self.rules.end_out != "any":
            return self.rules.end_out
        return self.conventions.get("end", "any")

    def _end_points(self, ev: gcg.Event, p: int) -> None:
        self.last_play = None
        shown = self.read_rack(ev, ev.tiles, "shown")
        if ev.tiles == "":
            shown = []
        if self.blind is not None:
            self.accept_blind_end(ev, p)
            return
        if not self.ended:
            self.error(
                ev.line,
                "end_before_end",
                player=ev.nick,
            )
            self.book(p, ev, None)
            self.turn(ev, p, None)
            return
        if self.ended != OUT:
            self.error(
                ev.line,
                "unexpected_end_points",
                player=ev.nick,
            )
            self.book(p, ev, None)
            self.turn(ev, p, None)
            return
        if p != self.out_player:
            assert self.out_player is not None  # the game ended with a player going out
            out = self.players[self.out_player].nick
            self.error(
                ev.line,
                "end_points_wrong_player",
                {"player": out},
                ev.nick,
                expected=out,
                recorded=ev.nick,
            )
        if p in self.end_lines:
            self.error(ev.line, "repeated_end_points", player=ev.nick)
        self.end_lines[p] = gcg.END_POINTS
        truth = self.out_unseen
        if shown is not None and self.n == 2 and sorted(shown) != truth:
            self.error(
                ev.line,
                "end_rack_mismatch",
                {"left": "".join(truth), "tiles": ev.tiles},
                ev.nick,
                expected="".join(truth),
                recorded=ev.tiles,
            )
        value = self.tiles.rack_value(truth)
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
        self.book(p, ev, expected)
        self.turn(ev, p, expected)

    def wrong_end_points(self, ev: gcg.Event, convention: str, value: int, expected: int) -> None:
        params: dict[str, Any] = {
            "rack": "".join(self.out_unseen),
            "value": value,
            "expected": expected,
            "score": ev.score,
        }
        if convention != "double":
            params["case"] = "transfer"
        self.error(
            ev.line,
            "wrong_end_points",
            params,
            ev.nick,
            expected=expected,
            recorded=ev.score,
        )

    def _rack_penalty(self, ev: gcg.Event, p: int) -> None:
        self.last_play = None
        shown = self.read_rack(ev, ev.tiles, "shown")
        rack = self.read_rack(ev, ev.rack)
        if shown is not None and rack is not None and sorted(shown) != sorted(rack):
            self.error(
                ev.line,
                "penalty_rack_mismatch",
                {"rack": ev.rack, "tiles": ev.tiles},
                ev.nick,
                expected=ev.rack,
                recorded=ev.tiles,
            )
        tiles = shown if shown is not None else rack
        if self.blind is not None:
            self.accept_blind_end(ev, p)
            return
        if not self.ended:
            self.error(ev.line, "end_before_end", {"case": "rack_penalty"}, ev.nick)
            self.book(p, ev, None)
            self.turn(ev, p, None)
            return
        if p in self.end_lines:
            self.error(ev.line, "repeated_end_points", {"case": "rack_penalty"}, ev.nick)
        self.end_lines[p] = gcg.RACK_PENALTY
        allowed = True
        if self.ended == OUT:
            if p == self.out_player:
                allowed = False
                self.error(
                    ev.line,
                    "unexpected_rack_penalty",
                    player=ev.nick,
                )
            convention = self.end_convention()
            if convention == "double":
                allowed = False
                self.error(
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
                self.error(
                    ev.line,
                    "end_rack_mismatch",
                    {"case": "rack_penalty", "left": "".join(self.out_unseen), "tiles": ev.tiles},
                    ev.nick,
                    expected="".join(self.out_unseen),
                    recorded=ev.tiles,
                )
        elif tiles is not None and self.check_drawable(
            ev.line, ev.nick, tiles, "rack left", self.penalty_tiles
        ):
            self.penalty_tiles.update(tiles)
        value = self.tiles.rack_value(tiles) if tiles is not None else -ev.score
        if ev.score != -value:
            self.error(
                ev.line,
                "wrong_end_penalty",
                {"tiles": ev.tiles, "value": value, "score": ev.score},
                ev.nick,
                expected=-value,
                recorded=ev.score,
            )
        computed = -value if allowed else 0  # the engine's total is the total under the rules
        self.book(p, ev, computed)
        self.turn(ev, p, computed)

    def accept_blind_end(self, ev: gcg.Event, p: int) -> None:
        """With the board unknown, an end line is taken as recorded; only its total is checked."""
        self.ended = self.ended or (OUT if ev.kind == gcg.END_POINTS else SCORELESS)
        if ev.kind == gcg.END_POINTS:
            self.out_player = p
        self.end_lines[p] = ev.kind
        self.book(p, ev, None)
        self.turn(ev, p, None)

    def _time(self, ev: gcg.Event, p: int) -> None:
        self.last_play = None
        per_minute = self.rules.time_penalty_per_minute
        if not self.ended:
            self.error(
                ev.line,
                "end_before_end",
                {"case": "time"},
                ev.nick,
            )
        elif self.pending_end_lines():
            self.warn(
                ev.line,
                "time_before_end_points",
                player=ev.nick,
            )
        if p in self.timed:
            self.error(
                ev.line,
                "repeated_time_penalty",
                player=ev.nick,
            )
        if self.ended:  # one misplaced in mid-game does not stand for the real one
            self.timed.add(p)
        computed = ev.score
        if per_minute == 0:
            computed = 0
            self.error(
                ev.line,
                "time_penalty_not_in_rules",
                {"rules": self.rules.name},
                ev.nick,
                expected=0,
                recorded=ev.score,
            )
        elif ev.score >= 0 or ev.score % per_minute:
            self.error(
                ev.line,
                "wrong_time_penalty",
                {"per_minute": per_minute, "score": ev.score},
                ev.nick,
                recorded=ev.score,
            )
        self.book(p, ev, computed)
        self.turn(ev, p, computed)

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

    def check_last_rack(self, item: gcg.Pragma) -> None:
        """A ``#rack1``/``#rack2`` line: the rack must be drawable where the line stands."""
        number = int(item.keyword[4:])
        nick = next((pl.nick for pl in self.players if pl.number == number), None)
        if nick is None:
            self.error(
                item.line,
                "unknown_player",
                {"case": "rack", "keyword": item.keyword, "number": number},
                recorded=item.keyword,
            )
            return
        rack = self.read_rack(gcg.Event(item.line, nick, gcg.PASS, rack=item.value), item.value)
        if rack is not None:
            self.check_drawable(item.line, nick, rack, "rack")

    def finish(self) -> None:
        last = next((i for i in reversed(self.record.items) if isinstance(i, gcg.Event)), None)
        last_line = last.line if last else 0
        if last is None:
            if not self.findings:
                self.warn(0, "no_moves")
            return
        if not self.ended:
            if self.record.incomplete:
                self.warn(
                    last_line,
                    "not_finished",
                    {"case": "incomplete"},
                )
            elif any(isinstance(i, gcg.Event) and i.kind in _END_KINDS for i in self.record.items):
                # The recorder ended the game where the rules say it goes on.
                self.error(last_line, "not_finished", {"case": "ended"})
            else:
                # Online services write a resigned or timed-out game this way: every move up to
                # here was checked, and the totals on the last lines are the result.
                self.warn(last_line, "not_finished")
            return
        if self.tentative_end and self.conventions.get("end") != "transfer":
            ev, value = self.tentative_end
            self.conventions["end"] = "double"
            self.wrong_end_points(ev, "double", value, 2 * value)
            p = self.index[ev.nick]
            self.computed[p] += value  # the engine's total counts the rack twice
            for turn in self.turns:
                if turn.event is ev:
                    turn.computed_score = 2 * value
                    turn.computed_total += value
        pending = self.pending_end_lines() if self.blind is None else []
        if self.ended == OUT and self.tiles.rack_value(self.out_unseen) == 0:
            pending = []  # racks of blanks only: a missing "+0" or "-0" line changes no total
        unseen = "".join(self.out_unseen)
        for i in pending:
            nick = self.players[i].nick
            if self.ended != OUT:
                self.error(
                    last_line,
                    "missing_end_points",
                    {"case": "scoreless", "player": nick},
                    nick,
                )
            elif i == self.out_player:
                value = self.tiles.rack_value(self.out_unseen)
                expected = value if self.end_convention() == "transfer" else 2 * value
                self.error(
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
                self.error(
                    last_line, "missing_end_points", params, nick, expected=params.get("penalty")
                )

    def report(self) -> Report:
        results = [
            PlayerResult(pl.nick, pl.name, self.recorded[i], self.computed[i])
            for i, pl in enumerate(self.players)
        ]
        conventions = dict(self.conventions)
        return Report(
            results,
            self.turns,
            sorted(self.findings, key=lambda f: f.line),
            self.rules,
            self.tiles,
            self.board,
            self.ended,
            conventions,
            self.canonical,
            {t: c for t, c in self.pool.items() if c > 0},
        )


@functools.cache
def _tables(
    tiles: TileSet,
) -> tuple[dict[str, int], dict[str, int], dict[str, str], frozenset[str], bool, frozenset[str]]:
    """How many of each tile; the value of each way to write one on the board (lower case: a
    blank, 0) and the tile it takes from the rack; every tile a rack may hold; whether any tile
    is written with more than one letter; the tiles the set has none of."""
    full = {t: tiles.count(t) for t in tiles.counts}
    values: dict[str, int] = {}
    form: dict[str, str] = {}
    for t in tiles.counts:
        if t != BLANK:
            values[t], form[t] = tiles.value(t), t
            values[t.lower()], form[t.lower()] = 0, BLANK
    known = frozenset(values) | {BLANK}
    none = frozenset(t for t, c in full.items() if c <= 0)
    return full, values, form, known, any(len(t) > 1 for t in tiles.counts), none


@functools.cache
def _geometries(size: int) -> dict[str, tuple[Position, str, int, int, int, int] | None]:
    """Play geometries by position as written, for one size of board: filled as positions are
    met, and kept for every record."""
    return {}


def _geometry(token: str, size: int) -> tuple[Position, str, int, int, int, int] | None:
    """A play's position on the bordered board: (position, label, first square, step along the
    word, step along its cross-words, squares before it in its line)."""
    pos = parse_position(token, size)
    if pos is None:
        return None
    width = size + 2
    start = (pos.row + 1) * width + pos.col + 1
    if pos.across:
        return pos, pos.text(), start, 1, width, pos.col
    return pos, pos.text(), start, width, 1, pos.row


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
    replay = _Replay(record, choose_rules(record, rules), tileset, lexicons)
    replay.findings.extend(found)
    replay.run(upto)
    return replay.report()


def canonical_gcg(source: str | bytes | gcg.GameRecord, **kwargs: Any) -> str:
    """The record as canonical GCG: play-through written as '.', positions in upper case."""
    record = source if isinstance(source, gcg.GameRecord) else gcg.parse(source)
    report = verify(record, **kwargs)
    return gcg.write(record, report.canonical)
