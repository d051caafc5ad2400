"""Who goes first.

tsh (`config assign_firsts`, `track_firsts`) balances starts: the player who has gone first fewer
times starts. Ties are broken here as follows, each step only when the ones before are level:

1. fewer firsts goes first;
2. more seconds goes first (players level on firsts may differ in seconds through byes, absences
   or games whose first player is unknown, none of which counts either way, as tsh's
   `bye_firsts = 'ignore'`);
3. looking back from the latest round, at the first round in which one of the two went second
   and the other did not: the one who went second then goes first now (a run of seconds is
   broken first);
4. the lower-placed player goes first (a deterministic stand-in for tsh's coin toss: starting is
   worth a little, and it goes to the player further down).
"""

from __future__ import annotations

from tournament.engine.pairing.history import Field
from tournament.engine.pairing.messages import Message
from tournament.engine.standings import PlayerId


def order_pair(fld: Field, a: PlayerId, b: PlayerId) -> tuple[PlayerId, PlayerId, Message]:
    """(first, second, why)."""
    fa, fb = fld.firsts(a), fld.firsts(b)
    if fa != fb:
        first, second = (a, b) if fa < fb else (b, a)
        why = Message(
            "first_fewer_starts", player=fld.name(first), fewer=min(fa, fb), more=max(fa, fb)
        )
        return first, second, why
    sa, sb = fld.seconds(a), fld.seconds(b)
    if sa != sb:
        first, second = (a, b) if sa > sb else (b, a)
        why = Message(
            "first_more_replies", player=fld.name(first), more=max(sa, sb), fewer=min(sa, sb)
        )
        return first, second, why
    seats_a, seats_b = fld.seats[a], fld.seats[b]
    for back in range(1, min(len(seats_a), len(seats_b)) + 1):
        second_a = seats_a[-back].first is False
        second_b = seats_b[-back].first is False
        if second_a != second_b:
            first, second = (a, b) if second_a else (b, a)
            return first, second, Message("first_went_second", player=fld.name(first))
    first, second = (a, b) if fld.position[a] > fld.position[b] else (b, a)
    return first, second, Message("first_lower_placed", player=fld.name(first))
