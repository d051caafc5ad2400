"""Who can still catch whom: Gibsonization and the best possible finish.

Both follow tsh (`TSH::PairingCommand`, `shared/reference/tsh.md` §3.1, §4). With L rounds left,
one game can swing the spread between two players by up to twice the per-game allowance
(`gibson_spread`, tsh's default 500: 1,000 points a round, the NASPA figure). A player q can
catch p if q winning every remaining game by the allowance and p losing every one by it would
leave q level with or ahead of p in wins and losses, and, level on those, strictly closer than
the allowance in spread: a lead of exactly L x 1,000 points is safe (the NASPA Director Manual's
example: 9-2 +1500 against 8-3 +500 with one round left may be Gibsonized; +1499 may not).

The best possible finish of q counts the players who stay ahead of q even when q wins every
game by the allowance and they lose every game by it. It is an optimistic bound (tsh simulates
the other games adversarially): a player it counts out of the prizes can truly not reach them,
and nobody who can is ever counted out.
"""

from __future__ import annotations

from collections.abc import Sequence

from tournament.engine.pairing.history import Field
from tournament.engine.standings import PlayerId


def swing(field: Field) -> int:
    """The most spread one player can gain on another over the rounds left."""
    left = field.rounds_left or 0
    return sum(2 * field.rules.gibson_spread_for(k) for k in range(left))


def can_catch(
    field: Field, chaser: PlayerId, leader: PlayerId, allowance: int | None = None
) -> bool:
    """Whether `chaser` can still finish level with or ahead of `leader`."""
    left = field.rounds_left or 0
    allowance = swing(field) if allowance is None else allowance
    cw = field.wins(chaser) + left
    cl = field.row[chaser].losses
    lw = field.wins(leader)
    ll = field.row[leader].losses + left
    if cw != lw:
        return cw > lw
    if cl != ll:
        return cl < ll
    return field.spread(leader) - field.spread(chaser) < allowance


def gibsons(field: Field, pool: Sequence[PlayerId]) -> list[PlayerId]:
    """The players at the top of `pool` whose final place within the prizes is settled.

    The leader is a Gibson when nobody can catch them; then the second when nobody below can
    catch them (the leader being out of their reach already), and so on down the prize places.
    """
    rules = field.rules
    if not rules.gibson or rules.rounds_total is None or not field.rounds_left:
        return []
    allowance = swing(field)
    last_prize = field.last_prize_rank()
    found: list[PlayerId] = []
    for k, player in enumerate(pool):
        if k >= last_prize:
            break
        if any(can_catch(field, other, player, allowance) for other in pool[k + 1 :]):
            break
        found.append(player)
    return found


def best_finishes(field: Field, pool: Sequence[PlayerId]) -> dict[PlayerId, int]:
    """Each player's best possible rank among `pool` (standings order) at the end."""
    allowance = swing(field)
    best: dict[PlayerId, int] = {}
    # "Stays ahead of q" is monotone down the standings: whoever is ahead of a player who stays
    # ahead stays ahead too. So count from the top until the first player q could pass.
    for q in pool:
        ahead = 0
        for r in pool:
            if r == q or can_catch(field, q, r, allowance):
                break
            ahead += 1
        best[q] = ahead + 1
    return best
