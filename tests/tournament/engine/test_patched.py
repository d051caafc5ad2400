"""A mapping with a few entries changed (`patched`): through many random versions, each equal
to a dict changed the same way, every earlier version left as it was."""

from __future__ import annotations

import random

from tournament.engine.patched import GONE, Patched, patched


def test_every_version_equals_a_dict_changed_the_same_way_and_the_earlier_ones_stay() -> None:
    rng = random.Random(7)
    plain = {n: n * 10 for n in range(200)}
    version: object = dict(plain)
    versions = [(version, dict(plain))]
    layered = folded = 0
    for _ in range(600):
        changes: dict = {}
        for _ in range(rng.randint(0, 12)):
            key = rng.randrange(260)  # some new keys
            changes[key] = GONE if rng.random() < 0.2 else rng.randrange(1000)
        version = patched(version, changes)  # type: ignore[arg-type]
        for key, value in changes.items():
            if value is GONE:
                plain.pop(key, None)
            else:
                plain[key] = value
        layered += isinstance(version, Patched)
        folded += isinstance(version, dict)
        versions.append((version, dict(plain)))
        assert version == plain and dict(version) == plain  # type: ignore[call-overload]
        assert len(version) == len(plain)  # type: ignore[arg-type]
        for key in rng.sample(range(260), 20):
            assert (key in version) == (key in plain)  # type: ignore[operator]
            assert version.get(key) == plain.get(key)  # type: ignore[attr-defined]
    for kept, seen in versions:
        assert kept == seen
    assert layered > 300 and folded > 20
