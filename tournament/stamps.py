"""A division's stamp: a new random value in the same transaction as every change to it.

The public pages are cached under their divisions' stamps (`tournament/views/cache.py`), read in
one small query; a committed change is therefore on the next request to any worker or server.
Model saves and deletes replace the stamp through the signals below. A write that bypasses them
(`QuerySet.update`, `bulk_create` into an existing division, raw SQL) must call `touch` itself.

The stamp is replaced inside the writing transaction, not after it: a page can then never be
cached under a new stamp with data from before the change, and a crash between commit and
stamp cannot leave a stale page. Replacing it locks the division's row until commit, as most
writes at the desk already do (`rounds._locked_division`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import DEFAULT_DB_ALIAS, transaction
from django.db.models.signals import post_delete, post_save, pre_save

from tournament.models import Division, Game, Player, Round, Scoresheet, Tournament, new_stamp


class _Touched:
    """Marks the divisions already stamped in the current transaction (a no-op at commit).

    Kept in the connection's on-commit list, so a rolled-back savepoint forgets it together
    with the stamp it rolled back: pairing a round of 250 games stamps the division once.
    """

    def __init__(self, key: str) -> None:
        self.key = key
        self.divisions: set[int] = set()

    def __call__(self) -> None:
        pass


def _transaction_key(connection: Any) -> str | None:
    """What identifies the transaction a write belongs to; None if it is a write of its own.

    A test runs inside atomic blocks of its own (`_from_testcase`): there, the outermost block
    the code opened stands for the transaction, as production commits it.
    """
    blocks = connection.atomic_blocks
    depth = next((i for i, b in enumerate(blocks) if not b._from_testcase), None)
    if depth is None:
        return None
    if depth == 0:
        return "outermost"
    return connection.savepoint_ids[depth - 1]  # None for a block without a savepoint


def _touched(using: str) -> _Touched | None:
    connection = transaction.get_connection(using)
    key = _transaction_key(connection) if connection.in_atomic_block else None
    if key is None:
        return None
    for _savepoints, func, _robust in connection.run_on_commit:
        if isinstance(func, _Touched) and func.key == key:
            return func
    marker = _Touched(key)
    transaction.on_commit(marker, using=using)
    return marker


def touch(division_ids: Iterable[int], using: str = DEFAULT_DB_ALIAS) -> None:
    """Give these divisions a new stamp, once per transaction."""
    ids = set(division_ids)
    marker = _touched(using)
    if marker is not None:
        ids -= marker.divisions
    if not ids:
        return
    Division.objects.using(using).filter(pk__in=ids).update(stamp=new_stamp())
    if marker is not None:
        marker.divisions |= ids


def _division_changed(sender: type, instance: Division, **kwargs: Any) -> None:
    # A division saved from an instance read earlier would write back its old stamp.
    instance.stamp = new_stamp()


def _part_changed(sender: type, instance: Player | Round | Game, **kwargs: Any) -> None:
    touch([instance.division_id], kwargs.get("using") or DEFAULT_DB_ALIAS)


def _scoresheet_changed(sender: type, instance: Scoresheet, **kwargs: Any) -> None:
    using = kwargs.get("using") or DEFAULT_DB_ALIAS
    games = Game.objects.using(using).filter(pk=instance.game_id)
    touch(list(games.values_list("division_id", flat=True)), using)


def _tournament_changed(sender: type, instance: Tournament, **kwargs: Any) -> None:
    # Its name or whether it is public shows on every page of its divisions.
    using = kwargs.get("using") or DEFAULT_DB_ALIAS
    divisions = Division.objects.using(using).filter(tournament=instance)
    touch(divisions.values_list("pk", flat=True), using)


def connect() -> None:
    pre_save.connect(_division_changed, sender=Division, dispatch_uid="stamp-division")
    for model in (Player, Round, Game):
        for signal in (post_save, post_delete):
            signal.connect(_part_changed, sender=model, dispatch_uid=f"stamp-{model.__name__}")
    for signal in (post_save, post_delete):
        signal.connect(_scoresheet_changed, sender=Scoresheet, dispatch_uid="stamp-scoresheet")
    post_save.connect(_tournament_changed, sender=Tournament, dispatch_uid="stamp-tournament")
