"""The tiles off the board: the pool (in the bag or on a rack), how many each rack holds and how
many are left in the bag; a recorded rack read and checked against them."""

from __future__ import annotations

from collections import Counter
from typing import Any

from . import gcg
from .findings import Findings
from .placement import Split
from .rules import Ruleset
from .tiles import BLANK, TileSet, tables


class Racks:
    """The pool, the racks' sizes and the bag of one replay; a rack as recorded, checked."""

    def __init__(
        self, tiles: TileSet, rules: Ruleset, players: int, split: Split, findings: Findings
    ) -> None:
        self.tiles = tiles
        self.rack_size = rules.rack_size
        self.split = split
        self.findings = findings
        table = tables(tiles)
        self.values, self.known = table.values, table.known
        # Tiles not on the board, kept up to date as tiles come and go.
        self.pool: dict[str, int] = dict(table.full)
        self.used_up = set(table.none)  # tiles the pool has none of
        self.sizes = [rules.rack_size] * players
        self.bag = tiles.size - rules.rack_size * players
        self.moved = False  # whether tiles came onto the board or went back since last asked

    def unseen(self) -> Counter[str]:
        """Tiles not on the board: in the bag or on some rack."""
        return Counter({t: c for t, c in self.pool.items() if c > 0})

    def read(self, ev: gcg.Event, text: str, what: str = "") -> list[str] | None:
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
                self.findings.error(
                    ev.line,
                    "malformed_rack",
                    {"case": what, "text": text, "tile": t, "tiles": self.tiles.name},
                    ev.nick,
                    recorded=text,
                )
                return None
        return rack

    def read_drawable(self, ev: gcg.Event) -> list[str] | None:
        """The rack the line records, checked to be drawable."""
        rack = self.read(ev, ev.rack)
        if rack is not None:
            self.drawable(ev.line, ev.nick, rack, "rack")
        return rack

    def drawable(
        self, line: int, nick: str, tiles: list[str], what: str, extra: Counter[str] | None = None
    ) -> bool:
        """Whether these tiles can all be off the board (with ``extra`` off the pool too)."""
        if len(tiles) > self.rack_size and what == "rack":
            self.findings.error(
                line,
                "rack_too_big",
                {"count": len(tiles), "size": self.rack_size},
                nick,
                expected=self.rack_size,
                recorded=len(tiles),
            )
            return False
        pool = self.pool
        if extra is None:
            distinct = set(tiles)
            # The common case, quickly: no tile used up, and enough left of any tile held twice.
            if self.used_up.isdisjoint(distinct):
                if len(distinct) == len(tiles):
                    return True
                most = len(tiles) - len(distinct) + 1  # no tile is held more often than this
                for t in distinct:
                    if pool[t] < most and pool[t] < tiles.count(t):
                        break
                else:
                    return True
        wanted_so_far: dict[str, int] = {}
        short = []
        for t in tiles:
            c = wanted_so_far[t] = wanted_so_far.get(t, 0) + 1
            if c > pool.get(t, 0) - (extra.get(t, 0) if extra else 0) and t not in short:
                short.append(t)
        if short:
            self._not_drawable(line, nick, tiles, short, what, extra)
            return False
        return True

    def _not_drawable(
        self,
        line: int,
        nick: str,
        tiles: list[str],
        short: list[str],
        what: str,
        extra: Counter[str] | None,
    ) -> None:
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
        self.findings.error(
            line,
            "rack_not_drawable",
            params,
            nick,
            expected=", ".join(f"{c} {t}" for t, c in unseen),
            recorded=", ".join(f"{c} {t}" for t, c in needs),
        )

    def holds(self, ev: gcg.Event, rack: list[str] | None, used: list[str], what: str) -> None:
        """Check that the rack holds the tiles a move uses."""
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
            self.findings.error(
                ev.line,
                "tiles_not_in_rack",
                {"case": what, "tiles": "".join(lacking), "rack": ev.rack},
                ev.nick,
                expected=ev.rack,
                recorded="".join(used),
            )

    def use(self, ev: gcg.Event, rack: list[str] | None, used: list[str]) -> None:
        """A play put these tiles on the board: they leave the pool, and the rack (if recorded)
        must hold them, or else the set."""
        self.moved = True
        pool = self.pool
        for t in used:
            pool[t] -= 1
            if pool[t] <= 0:
                self.used_up.add(t)
        if rack is not None:
            self.holds(ev, rack, used, "")
            return
        # Without a rack, at least the tiles just placed must exist in the set.
        over = sorted(t for t in set(used) if pool.get(t, 0) < 0)
        if over:
            self.findings.error(
                ev.line,
                "too_many_tiles",
                {"over": over, "tiles": self.tiles.name},
                ev.nick,
                recorded=ev.word,
            )

    def give_back(self, tiles: list[str]) -> None:
        """Tiles taken off the board (a withdrawn play) are back in the pool."""
        self.moved = True
        pool = self.pool
        for t in tiles:
            pool[t] += 1
            if pool[t] > 0:
                self.used_up.discard(t)

    def refill(self, ev: gcg.Event, p: int, played: int) -> int:
        """Player ``p`` played that many tiles (no more than the rack held) and draws what the
        bag still has: how many."""
        held = self.sizes[p]
        if played > held:
            self.findings.error(
                ev.line,
                "too_many_tiles",
                {"case": "held", "count": played, "held": held},
                ev.nick,
                expected=held,
                recorded=played,
            )
        drawn = min(played, self.bag)
        self.bag -= drawn
        left = held - played
        self.sizes[p] = (left if left > 0 else 0) + drawn
        return drawn

    def unfill(self, p: int, played: int, drawn: int) -> None:
        """Take a refill back: the play is withdrawn."""
        self.bag += drawn
        self.sizes[p] = self.sizes[p] - drawn + played
