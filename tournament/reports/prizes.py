"""The prize ceremony's slides of a division, from who takes each prize (`standings/prizes.py`
reads them)."""

from __future__ import annotations

from dataclasses import dataclass

from tournament.models import Division
from tournament.standings.prizes import LAYOUT, awards, prize_name
from tournament.standings.stamps import DivisionStamps


@dataclass(frozen=True)
class Slide:
    """One slide of the prize ceremony: a prize and who takes it, or a title line."""

    title: str  # the prize's name, or a title line's text
    value: str = ""
    winners: tuple[str, ...] = ()  # names (a team's name for totalteam)
    initials: tuple[str, ...] = ()  # until the players have photos
    figure: str = ""

    @property
    def people(self) -> list[tuple[str, str]]:
        return list(zip(self.winners, self.initials, strict=True))


def initials(name: str) -> str:
    """`Smylie, Jackson` → `JS`; `Jackson Smylie` → `JS`: the first letters of the given name
    and the family name, given name first."""
    mark = "," if "," in name else "،" if "،" in name else ""  # the Arabic comma too
    if mark:
        last, _, given = name.partition(mark)
        parts = [given.strip(), last.strip()]
    else:
        parts = name.split()
        parts = [parts[0], parts[-1]] if len(parts) > 1 else parts
    return "".join(p[:1].upper() for p in parts if p)


def slides(
    division: Division, after: int | None = None, public: bool = False, *, stamps: DivisionStamps
) -> list[Slide]:
    """The ceremony's slides, one a prize awarded: in the listing's order when a prize line
    sets `order=` (title and note lines kept as slides of their own), else the lowest prize
    first (the order of award backwards, the champion last)."""
    found, rows = awards(division, after, public, stamps=stamps)
    bands = sorted(division.prize_bands or [])
    ordered = any(a.prize.order is not None for a in found)
    if not ordered:
        found = [a for a in reversed(found) if a.prize.kind not in LAYOUT]
    shown: list[Slide] = []
    seen: set[int] = set()
    for a in found:
        if a.prize.kind in LAYOUT:
            if a.prize.kind in ("title", "note") and a.prize.value:
                shown.append(Slide(a.prize.value))
            continue
        if not a.winners or id(a) in seen:
            continue
        seen.add(id(a))
        names = [rows[pk].name for pk in a.winners]
        if a.team:
            names = [a.team]
        figure = a.detail
        if a.prize.kind == "rank" and len(a.winners) == 1:
            row = rows[a.winners[0]]
            figure = f"{row.record} {row.spread:+d}"
        shown.append(
            Slide(
                prize_name(a.prize, bands),
                a.prize.value,
                tuple(names),
                tuple(initials(n) for n in names),
                figure,
            )
        )
    return shown
