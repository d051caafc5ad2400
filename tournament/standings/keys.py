"""Every shared-cache key of the read model, made in one place from the stamps it is kept under.

A value is kept under the stamps of the divisions it was read from (`standings/stamps.py`),
which every change replaces in its own transaction, and under what else it depends on: the
public's view or the desk's, a round cap, the page's language, a sort... A result entered
replaces the stamps, so every key of the division changes with it, and nothing kept under the
old keys is read again (they expire unread). Two divisions never share a key: the division's
primary key is in each.

- `of_division`: a value read from the whole division (its standings, ratings, certificates, a
  table of its standings), kept under its `stamp`, which every change replaces.
- `of_rounds`: a value that shows some rounds' games alone (a player's games table, whose
  scoresheets are in some rounds), kept under the division's `frame` stamp and those rounds'
  own stamps: a result in another round leaves it kept.
- `of_divisions`: a value read from several divisions (a public page of a tournament, a
  person's page), kept under each one's stamp; or under their frame stamps, with what it shows
  of the results (a player's page), or with the one round's own stamp whose games it shows.

Each is `kind:` and a digest of the rest; `kind` says what is kept (`standings`, `page`...).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence

from tournament.standings.stamps import DivisionStamps

# What a value may depend on besides the stamps: plain values, written with `repr`.
Dependency = str | int | float | bool | tuple["Dependency", ...] | None


def _key(kind: str, parts: tuple[object, ...], depends: dict[str, Dependency]) -> str:
    raw = repr((parts, sorted(depends.items())))
    return f"{kind}:" + hashlib.sha256(raw.encode()).hexdigest()


def of_division(kind: str, stamps: DivisionStamps, *, public: bool, **depends: Dependency) -> str:
    """The key of a value read from the whole division (`public`: from the games the public may
    see; else the desk's, every game), kept under the division's stamp."""
    return _key(kind, (stamps.pk, stamps.stamp, public), depends)


def of_rounds(
    kind: str,
    stamps: DivisionStamps,
    rounds: Iterable[int],
    *,
    public: bool,
    **depends: Dependency,
) -> str:
    """The key of a value that reads these rounds' games alone (and the division's players,
    rounds and settings: its frame stamp), kept under the frame stamp and the rounds' own."""
    numbers = tuple((n, stamps.round(n)) for n in sorted(set(rounds)))
    return _key(kind, (stamps.pk, stamps.frame, numbers, public), depends)


def of_divisions(
    kind: str,
    divisions: Sequence[DivisionStamps],
    *,
    frames: bool = False,
    one_round: tuple[DivisionStamps, int] | None = None,
    **depends: Dependency,
) -> str:
    """The key of a value read from several divisions (a tournament's public page, a person's
    page), under every division's stamp. With `frames`, a value that shows no results but
    those `depends` name (a player's page, by what it shows of them): under the divisions'
    frame stamps. With `one_round` (a division of them and a round number), a value that shows
    that round's games alone: under the frame stamps and the round's own."""
    if one_round is None and not frames:
        parts: tuple[object, ...] = tuple((d.pk, d.stamp) for d in divisions)
    else:
        parts = tuple((d.pk, d.frame) for d in divisions)
    if one_round is not None:
        division, number = one_round
        parts = (parts, (division.pk, number, division.round(number)))
    return _key(kind, parts, depends)
