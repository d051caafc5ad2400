"""A write from a player's phone taken once, whatever how often it is sent.

The phone keeps what a player sends while the venue's network is down, and sends it again until
it hears an answer (`static/phone-offline.js`); an answer lost on the way back means the same
write arrives twice. Each carries an idempotency key, made by the phone (`crypto.randomUUID`):
the first write with a key is done and its answer stored with the key (`SentOnce`), in the same
transaction; a repeat is answered with the stored answer and writes nothing. Kept in the
database, not the cache, so that a cache outage never records a report twice.

A service takes `key: str | None` (None: no key, the write done as ever) and wraps its write in
`once`; the view reads the key with `key_of`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from django.db import IntegrityError, transaction

from tournament.models import Player, SentOnce

FIELD = "idempotency_key"  # the form field the phone sends the key in
KEY = re.compile(r"[A-Za-z0-9_-]{8,64}")
KEPT = 200  # a player's latest keys kept; older ones are dropped as new ones come

Answer = dict[str, Any]  # plain JSON values


def key_of(data: Mapping[str, Any]) -> str | None:
    """The request's idempotency key, or None when there is none or it is not one (8 to 64
    letters, digits, - and _): a malformed key is no key, the write taken as any other."""
    raw = data.get(FIELD)
    if isinstance(raw, str) and KEY.fullmatch(raw):
        return raw
    return None


def answered(player: Player | int, key: str | None) -> Answer | None:
    """What the write with this key was answered, if the player sent it already."""
    if key is None:
        return None
    player_id = player if isinstance(player, int) else player.pk
    found = SentOnce.objects.filter(player_id=player_id, key=key).values_list("answer").first()
    return None if found is None else found[0]


def once(player: Player | int, key: str | None, write: Callable[[], Answer]) -> Answer:
    """`write()`'s answer, done and stored under `key` in one transaction; or, when the player
    sent this key already, the first answer, and nothing done. No key: `write()` as it is.

    Two copies racing (two tries of one send, or two tabs): the second waits on the first's
    row (PostgreSQL) or write lock (SQLite) and is refused by the unique key, its own write
    taken back with it; it is answered with the first's answer. A write that raises stores
    nothing: a service that wants a refusal answered the same way returns it as an answer.
    """
    if key is None:
        return write()
    player_id = player if isinstance(player, int) else player.pk
    try:
        with transaction.atomic():
            found = answered(player_id, key)
            if found is not None:
                return found
            answer = write()
            SentOnce.objects.create(player_id=player_id, key=key, answer=answer)
            _prune(player_id)
            return answer
    except IntegrityError:
        found = answered(player_id, key)
        if found is None:
            raise
        return found


def _prune(player_id: int) -> None:
    """Keep the player's latest `KEPT` keys: a phone sends again within minutes, never a
    hundred writes later."""
    rows = SentOnce.objects.filter(player_id=player_id).order_by("-pk")
    oldest_kept = rows.values_list("pk", flat=True)[KEPT - 1 : KEPT].first()
    if oldest_kept is not None:
        SentOnce.objects.filter(player_id=player_id, pk__lt=oldest_kept).delete()


def refusals_kept(
    player: Player | int,
    key: str | None,
    write: Callable[[], Answer],
    refusal: type[Exception],
    caught: tuple[type[Exception], ...] = (),
) -> Answer:
    """`once`, with a `refusal` the write raises (or one of `caught`) kept as its answer
    (`{"refused": why}`) and raised again as a `refusal`, in the same words, for the first send
    and every repeat of its key, whatever has changed since."""

    def answer() -> Answer:
        try:
            return write()
        except (refusal, *caught) as refused:
            return {"refused": str(refused)}

    found = once(player, key, answer)
    if "refused" in found:
        raise refusal(found["refused"])
    return found
