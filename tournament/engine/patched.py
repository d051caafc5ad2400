"""A mapping with a few entries changed, sharing the mapping it changes.

A value kept whole under each version of an event (every player's rating, say), a write
changing a few entries of it: `patched` makes the next version without copying the entries
it keeps, so that a write costs what it changes, not the size of the value. The entries
changed are folded into a plain dict again once they are more than an eighth of it, so a read
looks in at most two dicts and the copies, spread over the writes, stay in proportion to them.

Read-only: a version is never changed after it is made (versions share their parts).
Plain data only: no Django.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")

# Folded into a plain dict once the entries changed are more than this share of it.
_FOLD = 8


class _Gone:
    """An entry taken out."""

    __slots__ = ()


GONE = _Gone()


class Patched(Mapping[K, V]):
    """`base` with the entries of `changes` put in (or taken out: `GONE`)."""

    __slots__ = ("_base", "_changes", "_size")

    def __init__(self, base: dict[K, V], changes: dict[K, V | _Gone]) -> None:
        self._base = base
        self._changes = changes
        self._size: int | None = None  # counted when first asked

    def __getitem__(self, key: K) -> V:
        changes = self._changes
        if key in changes:
            value = changes[key]
            if isinstance(value, _Gone):
                raise KeyError(key)
            return value
        return self._base[key]

    def get(self, key: K, default: V | None = None) -> V | None:  # type: ignore[override]
        changes = self._changes
        if key in changes:
            value = changes[key]
            return default if isinstance(value, _Gone) else value
        return self._base.get(key, default)

    def __contains__(self, key: object) -> bool:
        changes = self._changes
        if key in changes:
            return not isinstance(changes[key], _Gone)
        return key in self._base

    def __iter__(self) -> Iterator[K]:
        changes = self._changes
        for key in self._base:
            if key not in changes or not isinstance(changes[key], _Gone):
                yield key
        for key, value in changes.items():
            if key not in self._base and not isinstance(value, _Gone):
                yield key

    def __len__(self) -> int:
        if self._size is None:
            base = self._base
            self._size = len(base) + sum(
                (not isinstance(v, _Gone)) - (k in base) for k, v in self._changes.items()
            )
        return self._size

    def __repr__(self) -> str:
        return f"Patched({dict(self)!r})"


def patched(mapping: Mapping[K, V], changes: Mapping[K, V | _Gone]) -> Mapping[K, V]:
    """`mapping` with `changes` put in (an entry `GONE`: taken out), sharing what it keeps of
    `mapping` (a dict or a `Patched`), which is left as it is."""
    if isinstance(mapping, Patched):
        base, merged = mapping._base, {**mapping._changes, **changes}
    elif isinstance(mapping, dict):
        base, merged = mapping, dict(changes)
    else:
        base, merged = dict(mapping), dict(changes)
    if len(merged) * _FOLD <= len(base):
        return Patched(base, merged)
    folded = dict(base)
    for key, value in merged.items():
        if isinstance(value, _Gone):
            folded.pop(key, None)
        else:
            folded[key] = value
    return folded
