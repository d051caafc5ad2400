"""A short seeded fuzzing pass over every reader: no input raises, hangs or reads a file."""

from __future__ import annotations

import random

import pytest

from fuzz.harness import Target, fuzz, minimise, mutate, outcome
from fuzz.targets import targets

# About five seconds a target on this machine; the same inputs every run.
INPUTS = {"engine": 150, "tsh": 3000, "entry-line": 3000, "roster": 1500, "rating-list": 3000}


@pytest.mark.parametrize("target", targets(), ids=lambda t: t.name)
def test_no_input_breaks_the_reader(target: Target) -> None:
    result = fuzz(target, seed=20261201, inputs=INPUTS[target.name])
    assert result.inputs == INPUTS[target.name]
    assert not result.crashes, "\n".join(c.report() for c in result.crashes)


def test_the_same_seed_gives_the_same_mutations() -> None:
    seed = b"1 400 2 350\n#player1 ann Ann\n"
    first = [mutate(seed, random.Random(7)) for _ in range(1)]
    again = [mutate(seed, random.Random(7)) for _ in range(1)]
    assert first == again


def test_a_crash_a_hang_and_a_file_read_are_each_caught() -> None:
    def run(data: bytes) -> None:
        if b"boom" in data:
            raise KeyError("boom")
        if b"loop" in data:
            while True:
                pass
        if b"open" in data:
            open("/etc/hostname").close()

    target = Target("toy", lambda: [b""], run, (ValueError,))
    assert outcome(target, b"a quiet line", 1) is None
    kind, detail, _ = outcome(target, b"x\nboom\ny", 1)
    assert (kind, detail) == ("raised", "KeyError: 'boom'")
    assert outcome(target, b"loop", 0.2)[:2] == ("hung", "over 0.2 s")
    assert outcome(target, b"open", 1)[:2] == ("read a file", "/etc/hostname")


def test_a_crash_is_shrunk_to_the_lines_and_bytes_that_cause_it() -> None:
    def run(data: bytes) -> None:
        if b"boom" in data:
            raise KeyError("boom")

    target = Target("toy", lambda: [b""], run)
    assert minimise(target, b"first line\nsay boom now\nlast line", "raised", "KeyError", 1) == (
        b"boom"
    )
