"""Team events: team standings from the players' records (the team round robin is a pairing
system: `pairing/teamrr.py`).

Team standings sum each team's players' wins, losses and spread; the order is the one chosen
in the settings: `"wins"` (wins, then spread) or `"spread"` (spread, then wins). Teams level
on both share a rank.

Plain data only: no Django, no database.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

PlayerId = Hashable
ORDERS = ("wins", "spread")


class TeamError(ValueError):
    """Teams that cannot be ranked or paired as asked; the message is for the director."""


@dataclass(frozen=True, slots=True)
class Record:
    player: PlayerId
    team: str
    wins: float
    losses: float
    spread: int


@dataclass(frozen=True, slots=True)
class TeamRow:
    rank: int
    team: str
    players: int
    wins: float
    losses: float
    spread: int


def team_standings(records: Sequence[Record], order: str = "wins") -> list[TeamRow]:
    """The teams' standings; a player without a team is left out."""
    if order not in ORDERS:
        raise TeamError(f"team standings order {order!r}: one of {', '.join(ORDERS)}")
    sums: dict[str, list[float]] = {}
    for r in records:
        if not r.team:
            continue
        s = sums.setdefault(r.team, [0, 0, 0, 0])
        s[0] += 1
        s[1] += r.wins
        s[2] += r.losses
        s[3] += r.spread

    def key(item: tuple[str, list[float]]) -> tuple[float, float, str]:
        team, (_n, wins, _losses, spread) = item
        first, second = (wins, spread) if order == "wins" else (spread, wins)
        return (-first, -second, team)

    rows: list[TeamRow] = []
    for team, (n, wins, losses, spread) in sorted(sums.items(), key=key):
        rank = len(rows) + 1
        if rows and (rows[-1].wins, rows[-1].spread) == (wins, spread):
            rank = rows[-1].rank
        rows.append(TeamRow(rank, team, int(n), wins, losses, int(spread)))
    return rows
