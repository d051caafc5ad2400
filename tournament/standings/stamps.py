"""A division's stamp: a new random value in the same transaction as every change to it.

The public pages are cached under their divisions' stamps (`tournament/standings/pages.py`), read in
one small query; a committed change is therefore on the next request to any worker or server.
Model saves and deletes replace the stamp through the signals below. A write that bypasses them
(`QuerySet.update`, `bulk_create` into an existing division, raw SQL) must call `touch` itself.

A change to one round's games or scoresheets (a result entered or corrected, a sheet uploaded)
also replaces that round's own stamp (`Division.round_stamps`) and leaves the division's
`frame_stamp` alone; every other change (a player, a round's publication, a game created,
deleted or moved to another round, a write that bypasses the signals) replaces the frame stamp
too. The pages that show one round's games alone (its pairings, a scoresheet) are kept under the
frame stamp and that round's stamp; every other page under `stamp`, which every change replaces.

The stamp is replaced inside the writing transaction, not after it: a page can then never be
cached under a new stamp with data from before the change, and a crash between commit and
stamp cannot leave a stale page. Replacing it locks the division's row until commit, as most
writes at the desk already do (`pairing.services.locked_division`).

A request reads them once (`read`, or the page cache's `of_public_tournament`) and passes the
`DivisionStamps` down to every part of the read model it asks: what is read after the stamps is
at least as new as they are, so a value kept under them is never stale.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from django.core.cache import cache
from django.db import DEFAULT_DB_ALIAS, transaction
from django.db.models.signals import post_delete, post_save, pre_save

from tournament.models import Division, Game, Player, Round, Scoresheet, Tournament, new_stamp
from tournament.standings.memos import CHANGES, Kept, computing_afresh

K = TypeVar("K")
V = TypeVar("V")


@dataclass(frozen=True)
class DivisionStamps:
    """A division's stamps as one request read them, with what the pages are kept by besides."""

    pk: int
    name: str
    stamp: str  # replaced by every change to the division
    frame: str  # replaced by every change but one round's results and scoresheets
    rounds: dict[str, str]  # each round's own stamp ({"7": stamp})
    byes_count: str  # the division's rule for byes: when they count (a setting: `stamp` too)
    language: str  # the tournament's default language ("" for none)

    def round(self, number: int) -> str:
        return self.rounds.get(str(number), "")


_FIELDS = (
    "pk",
    "name",
    "stamp",
    "frame_stamp",
    "round_stamps",
    "byes_count",
    "tournament__language",
)


def _made(values: tuple[Any, ...]) -> DivisionStamps:
    pk, name, stamp, frame, rounds, byes_count, language = values
    return DivisionStamps(pk, name, stamp, frame, rounds or {}, byes_count, language)


def read(division: Division | int) -> DivisionStamps:
    """The division's stamps, read afresh (one query by primary key): an instance read before
    a change still holds the old ones."""
    pk = division if isinstance(division, int) else division.pk
    return _made(Division.objects.filter(pk=pk).values_list(*_FIELDS).get())


def read_many(division_ids: Iterable[int]) -> dict[int, DivisionStamps]:
    """The stamps of these divisions, read afresh in one query, by primary key."""
    rows = Division.objects.filter(pk__in=set(division_ids)).values_list(*_FIELDS)
    return {values[0]: _made(values) for values in rows}


def of_public_tournament(slug: str) -> list[DivisionStamps]:
    """The stamps of a public tournament's divisions (one query); none if it is not public or
    has none."""
    rows = Division.objects.filter(tournament__slug=slug, tournament__public=True).order_by("pk")
    return [_made(values) for values in rows.values_list(*_FIELDS)]


@dataclass
class Replaced:
    """What one transaction changed of a division, as its stamps saw it: the stamp it found
    (`before`, read with the division's row locked) and the last it wrote (`after`), and the
    games whose results, scoresheets or disputes it changed with their players, before and
    after (`games`, `players`). `whole`: it changed something else too (a player, a round, a
    game made, deleted or moved, the division or its tournament, a write that named no game),
    or its first change did not read the stamp it replaced: no part of a value kept under
    `before` is known to hold under `after`.

    Kept at commit for the values kept a part a player at a time (`kept_before`): a value
    under `before`, its parts for these games' players made again, is the value under `after`."""

    before: str = ""
    after: str = ""
    games: set[int] = field(default_factory=set)
    players: set[int] = field(default_factory=set)
    whole: bool = False


class _Touched:
    """Marks the divisions already stamped in the current transaction (a no-op at commit), and
    what it replaced of each (`Replaced`).

    Kept in the connection's on-commit list, so a rolled-back savepoint forgets it together
    with the stamp it rolled back: pairing a round of 250 games stamps the division once.
    """

    def __init__(self, key: str) -> None:
        self.key = key
        self.divisions: set[int] = set()  # every stamp replaced
        self.rounds: set[tuple[int, int]] = set()  # (division, round): the round's stamp
        self.replaced: dict[int, Replaced] = {}

    def __call__(self) -> None:
        """At commit: each division's games' players this transaction changed, kept under the
        stamp it wrote with the stamp it replaced (`kept_before`), where it changed no more
        than that. The write has landed; a failure of the cache loses nothing but the record
        (the values kept a part at a time are then built afresh)."""
        for pk, replaced in self.replaced.items():
            if replaced.whole or not replaced.before or not replaced.after:
                continue
            record = (replaced.before, sorted(replaced.players))
            with contextlib.suppress(Exception):
                cache.set(changes_key(pk, replaced.after), record, CHANGES_TIMEOUT)

    def whole(self, ids: Iterable[int]) -> None:
        for pk in ids:
            self.replaced.setdefault(pk, Replaced()).whole = True


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


def _held(using: str) -> tuple[Any, _Touched | None] | None:
    """The current transaction's key and its marker (None: not marked yet); None outside a
    transaction."""
    connection = transaction.get_connection(using)
    key = _transaction_key(connection) if connection.in_atomic_block else None
    if key is None:
        return None
    for _savepoints, func, _robust in connection.run_on_commit:
        if isinstance(func, _Touched) and func.key == key:
            return key, func
    return key, None


def _touched(using: str) -> _Touched | None:
    held = _held(using)
    if held is None:
        return None
    key, found = held
    if found is not None:
        return found
    marker = _Touched(key)
    transaction.on_commit(marker, using=using)
    return marker


def touch(
    division_ids: Iterable[int],
    using: str = DEFAULT_DB_ALIAS,
    rounds: Iterable[int] | None = None,
    games: Iterable[tuple[int, Iterable[int | None]]] | None = None,
) -> None:
    """Give these divisions a new stamp, once per transaction: every stamp (the default), or,
    for a change to the games or scoresheets of `rounds` alone, those rounds' stamps. `games`:
    for a round's change, the games it changed, each with its players (before and after), as
    the transaction's `Replaced` keeps them; a round's change without them is `whole`."""
    ids = set(division_ids)
    marker = _touched(using)
    if marker is not None:
        ids -= marker.divisions
    if rounds is not None:
        _touch_rounds(ids, set(rounds), using, marker, games)
        return
    if not ids:
        return
    stamp = new_stamp()
    Division.objects.using(using).filter(pk__in=ids).update(stamp=stamp, frame_stamp=new_stamp())
    if marker is not None:
        marker.divisions |= ids
        marker.whole(ids)


def _touch_rounds(
    ids: set[int],
    rounds: set[int],
    using: str,
    marker: _Touched | None,
    games: Iterable[tuple[int, Iterable[int | None]]] | None,
) -> None:
    wanted = {(d, r) for d in ids for r in rounds}
    if marker is not None:
        _note_games(ids, marker, games)
        wanted -= marker.rounds
    if not wanted:
        return
    divisions = Division.objects.using(using).filter(pk__in={d for d, _ in wanted})
    with transaction.atomic(using=using, savepoint=False):
        if marker is not None:
            _note_before({d for d, _ in wanted}, using, marker)
        # The update locks the divisions' rows until commit, so the round stamps read next
        # are the last committed and no other writer's round is lost in between.
        written = new_stamp()
        divisions.update(stamp=written)
        for pk, kept in divisions.values_list("pk", "round_stamps"):
            stamp = new_stamp()
            kept = dict(kept or {})
            kept.update({str(r): stamp for d, r in wanted if d == pk})
            Division.objects.using(using).filter(pk=pk).update(round_stamps=kept)
    if marker is not None:
        marker.rounds |= wanted
        for pk in {d for d, _ in wanted}:
            marker.replaced[pk].after = written


def _note_games(
    ids: set[int], marker: _Touched, games: Iterable[tuple[int, Iterable[int | None]]] | None
) -> None:
    """The games a round's change names, kept in the transaction's `Replaced` of each division
    (`whole` where it names none)."""
    if games is None:
        marker.whole(ids)
        return
    named = [(pk, {p for p in players if p is not None}) for pk, players in games]
    for division in ids:
        replaced = marker.replaced.setdefault(division, Replaced())
        for pk, players in named:
            replaced.games.add(pk)
            replaced.players |= players


def _note_before(ids: set[int], using: str, marker: _Touched) -> None:
    """The stamps the transaction's first change of these divisions replaces, read with their
    rows locked until commit (no other writer's change can come in between)."""
    new = [pk for pk in ids if _unread(marker.replaced.get(pk))]
    if not new:
        return
    rows = Division.objects.using(using).select_for_update().filter(pk__in=new)
    for pk, stamp in rows.values_list("pk", "stamp"):
        replaced = marker.replaced.setdefault(pk, Replaced())
        if not replaced.whole and not replaced.after:
            replaced.before = stamp


CHANGES_TIMEOUT = 6 * 3600
# How many writes' records a caller follows back before it builds its value afresh.
CHANGES_CHAIN = 30


def changes_key(division_id: int, stamp: str) -> str:
    return f"stamp-changes:{division_id}:{stamp}"


def kept_before(
    division_id: int, stamp: str, memo: Kept[K, V], key_of: Callable[[str], K]
) -> tuple[V, set[int]] | None:
    """For a value kept a part a player at a time in `memo` (under `key_of(stamp)`): the value
    this worker keeps under the latest stamp before `stamp`, and the players whose games'
    results, scoresheets or disputes every write since changed (each write's record, kept at
    its commit under the stamp it wrote with the stamp it replaced, read with the division's row
    locked: `Replaced`). That value, those players' parts read again now, is the value under
    `stamp`. None where the value is to be computed afresh, a write between changed more (it
    keeps no record), a record is gone, or the chain is longer than `CHANGES_CHAIN`."""
    if computing_afresh():
        return None
    players: set[int] = set()
    for _ in range(CHANGES_CHAIN):
        found = CHANGES.get((division_id, stamp))
        if found is None:
            found = cache.get(changes_key(division_id, stamp))
            if found is None:
                return None
            CHANGES.put((division_id, stamp), found)
        stamp, changed = found
        players.update(changed)
        if key_of(stamp) in memo:
            value = memo.get(key_of(stamp))
            return None if value is None else (value, players)
    return None


def _unread(replaced: Replaced | None) -> bool:
    return replaced is None or not (replaced.before or replaced.after or replaced.whole)


def replaced(division_id: int, using: str = DEFAULT_DB_ALIAS) -> Replaced | None:
    """What the current transaction has replaced of the division so far (`Replaced`, kept up
    to date until commit), or None outside a transaction or before its first change."""
    held = _held(using)
    if held is None or held[1] is None:
        return None
    return held[1].replaced.get(division_id)


def _division_changed(sender: type, instance: Division, **kwargs: Any) -> None:
    # A division saved from an instance read earlier would write back its old stamps; the
    # round stamps it writes back may be old too, but under a new frame stamp no page is kept.
    instance.stamp = new_stamp()
    instance.frame_stamp = new_stamp()
    marker = _touched(kwargs.get("using") or DEFAULT_DB_ALIAS)
    if marker is not None and instance.pk is not None:
        marker.whole([instance.pk])


def _division_saved(sender: type, instance: Division, **kwargs: Any) -> None:
    # A save of some fields only writes the stamps if it names them: replace them here.
    fields = kwargs.get("update_fields")
    if fields is not None and not {"stamp", "frame_stamp"} <= set(fields):
        touch([instance.pk], kwargs.get("using") or DEFAULT_DB_ALIAS)


def _part_changed(sender: type, instance: Player | Round, **kwargs: Any) -> None:
    touch([instance.division_id], kwargs.get("using") or DEFAULT_DB_ALIAS)


def _game_saved(sender: type, instance: Game, created: bool = False, **kwargs: Any) -> None:
    using = kwargs.get("using") or DEFAULT_DB_ALIAS
    if created or getattr(instance, "loaded_round", None) != instance.round:
        touch([instance.division_id], using)  # the list of rounds, or two rounds, changed
    else:
        loaded = getattr(instance, "loaded_players", None)  # None: not read with the game
        games = None
        if loaded is not None:
            games = [(instance.pk, (*loaded, instance.player1_id, instance.player2_id))]
        touch([instance.division_id], using, rounds=[instance.round], games=games)


def _game_deleted(sender: type, instance: Game, **kwargs: Any) -> None:
    touch([instance.division_id], kwargs.get("using") or DEFAULT_DB_ALIAS)


def _scoresheet_changed(sender: type, instance: Scoresheet, **kwargs: Any) -> None:
    using = kwargs.get("using") or DEFAULT_DB_ALIAS
    games = Game.objects.using(using).filter(pk=instance.game_id)
    for division, number, one, two in games.values_list(
        "division_id", "round", "player1_id", "player2_id"
    ):
        touch([division], using, rounds=[number], games=[(instance.game_id, (one, two))])


def _tournament_changed(sender: type, instance: Tournament, **kwargs: Any) -> None:
    # Its name or whether it is public shows on every page of its divisions.
    using = kwargs.get("using") or DEFAULT_DB_ALIAS
    divisions = Division.objects.using(using).filter(tournament=instance)
    touch(divisions.values_list("pk", flat=True), using)


def connect() -> None:
    pre_save.connect(_division_changed, sender=Division, dispatch_uid="stamp-division")
    post_save.connect(_division_saved, sender=Division, dispatch_uid="stamp-division-fields")
    for model in (Player, Round):
        for signal in (post_save, post_delete):
            signal.connect(_part_changed, sender=model, dispatch_uid=f"stamp-{model.__name__}")
    post_save.connect(_game_saved, sender=Game, dispatch_uid="stamp-Game")
    post_delete.connect(_game_deleted, sender=Game, dispatch_uid="stamp-Game-deleted")
    for signal in (post_save, post_delete):
        signal.connect(_scoresheet_changed, sender=Scoresheet, dispatch_uid="stamp-scoresheet")
    post_save.connect(_tournament_changed, sender=Tournament, dispatch_uid="stamp-tournament")
