"""A small, seeded mutation fuzzer for Spread's readers.

Each target takes bytes and must either succeed or raise one of its expected errors (the ones that
carry a message for the user). Anything else counts against it:

- *raised*: any other exception;
- *hung*: one input took longer than the time limit;
- *read a file*: the input made the code open a file outside Python's own library and the
  project's built-in data (an audit hook refuses the open before anything is read).

The same seed gives the same inputs, so a pass in the test suite is repeatable; a crash is shrunk to
a minimal input that still fails the same way.
"""

from __future__ import annotations

import os
import random
import re
import signal
import sys
import sysconfig
import time
import traceback
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent

# Pieces that broke readers before, or that are classic trouble: digits Python's int() accepts but
# no score is written with, huge numbers, NUL, byte-order marks, direction overrides, file pragmas.
NASTY: tuple[bytes, ...] = tuple(
    s.encode("utf-8")
    for s in (
        "²",
        "①",
        "-³",
        "١٢٣",
        "\x00",
        "9" * 5000,
        "-" + "9" * 40,
        "\ufeff",
        "\u202e",
        "\r",
        "\n",
        "\t",
        "#",
        ">",
        ":",
        ";",
        "-",
        "--",
        "(",
        ")",
        "[",
        "]",
        "?",
        "=",
        "+",
        "@",
        "{",
        "}",
        "'",
        '"',
        "\\",
        "00",
        "0",
        "𝟗",
        "x" * 1000,
        "#tile-distribution /dev/zero",
        "#board-layout /etc",
        "#tile-distribution ../../etc/passwd",
        "#rack1 ???????",
        "#incomplete",
        "#tile [LL] [ll]",
        "config x{'A'}{'B'} =",
    )
)


class ExpectedError(Exception):
    """Never raised: the default for a target whose every exception is a crash."""


@dataclass(frozen=True)
class Target:
    name: str
    seeds: Callable[[], list[bytes]]
    run: Callable[[bytes], object]
    expected: tuple[type[BaseException], ...] = (ExpectedError,)


@dataclass
class Crash:
    target: str
    kind: str  # "raised", "hung" or "read a file"
    detail: str  # the exception's type and message, or the file
    data: bytes  # the smallest input found that fails the same way
    trace: str = ""

    def report(self) -> str:
        lines = [
            f"{self.target}: {self.kind}: {self.detail}",
            f"  reproducer ({len(self.data)} bytes): {_shown(self.data)}",
        ]
        if self.trace:
            lines.append("  " + self.trace.rstrip().replace("\n", "\n  "))
        return "\n".join(lines)


def _shown(data: bytes, limit: int = 600) -> str:
    text = repr(data)
    return text if len(text) <= limit else f"{text[: limit // 2]} … {text[-limit // 2 :]}"


@dataclass
class Result:
    target: str
    inputs: int = 0
    seconds: float = 0.0
    crashes: list[Crash] = field(default_factory=list)


# ----------------------------------------------------------------------------- mutation


def _numbers(data: bytes) -> list[re.Match[bytes]]:
    return list(re.finditer(rb"\d+", data))


def mutate(data: bytes, rng: random.Random, others: Sequence[bytes] = ()) -> bytes:
    """One to four random edits: some byte-level, some aware of lines and numbers."""
    for _ in range(rng.randint(1, 4)):
        data = _edit(data, rng, others)
    return data


def _edit(data: bytes, rng: random.Random, others: Sequence[bytes]) -> bytes:
    choice = rng.randrange(10)
    n = len(data)
    if choice == 0 and n:  # change one byte
        i = rng.randrange(n)
        return data[:i] + bytes([rng.randrange(256)]) + data[i + 1 :]
    if choice in (1, 2):  # insert a nasty piece
        i = rng.randrange(n + 1)
        return data[:i] + rng.choice(NASTY) + data[i:]
    if choice == 3 and n:  # delete a range
        i = rng.randrange(n)
        return data[:i] + data[i + rng.randint(1, 64) :]
    lines = data.split(b"\n")
    if choice == 4 and lines:  # duplicate a line
        i = rng.randrange(len(lines))
        lines.insert(i, lines[i])
        return b"\n".join(lines)
    if choice == 5 and len(lines) > 1:  # swap two lines
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
        return b"\n".join(lines)
    if choice == 6 and n:  # truncate
        return data[: rng.randrange(n)]
    if choice == 7 and others:  # splice another seed's tail
        other = rng.choice(others)
        return data[: rng.randrange(n + 1)] + other[rng.randrange(len(other) + 1) :]
    if choice == 8:  # replace a number with a strange one
        numbers = _numbers(data)
        if numbers:
            m = rng.choice(numbers)
            new = rng.choice(
                [b"0", b"-1", b"99999999999999", b"9" * 5000, "²".encode(), "１２".encode(), b"-0"]
            )
            return data[: m.start()] + new + data[m.end() :]
    if choice == 9:  # re-encode the whole input
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            return data
        return rng.choice([text.encode("utf-16"), text.lower().encode(), text.upper().encode()])
    return data + rng.choice(NASTY)


# ----------------------------------------------------------------------------- guards


class Hang(BaseException):
    """Raised by the timer inside a target that ran too long (BaseException: no `except
    Exception` in a target swallows it)."""


class FileRead(BaseException):
    """Raised by the audit hook before a target opens a file it has no business reading."""


def _allowed_roots() -> tuple[str, ...]:
    roots = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix}
    roots.update(p for p in sysconfig.get_paths().values() if p)
    roots.add(str(PROJECT / "scoring" / "data"))
    return tuple(sorted(os.path.realpath(r) for r in roots))


_ALLOWED = _allowed_roots()
_watching = False
_hook_installed = False


def _audit(event: str, args: tuple) -> None:
    if not _watching or event != "open":
        return
    path = args[0]
    if isinstance(path, int):
        return  # an already open descriptor
    if isinstance(path, bytes):
        path = os.fsdecode(path)
    real = os.path.realpath(str(path))
    if real.startswith(str(PROJECT) + os.sep) and real.endswith((".py", ".pyc")):
        return  # a module of the project imported late
    if not any(real == root or real.startswith(root + os.sep) for root in _ALLOWED):
        raise FileRead(real)


@contextmanager
def guarded(seconds: float) -> Iterator[None]:
    """Run the block with the file watch on and a timer that raises `Hang` after `seconds`."""
    global _watching, _hook_installed
    if not _hook_installed:
        sys.addaudithook(_audit)
        _hook_installed = True

    def on_alarm(signum: int, frame: object) -> None:
        raise Hang()

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    _watching = True
    try:
        yield
    finally:
        _watching = False
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def outcome(target: Target, data: bytes, seconds: float) -> tuple[str, str, str] | None:
    """None when the target behaved; else (kind, detail, traceback)."""
    try:
        with guarded(seconds):
            target.run(data)
    except Hang:
        return "hung", f"over {seconds:g} s", ""
    except FileRead as error:
        return "read a file", str(error), ""
    except target.expected:
        return None
    except RecursionError as error:
        return "raised", f"RecursionError: {error}", traceback.format_exc(limit=-6)
    except Exception as error:
        return "raised", f"{type(error).__name__}: {error}"[:300], traceback.format_exc(limit=-6)
    return None


# ----------------------------------------------------------------------------- shrinking


def minimise(target: Target, data: bytes, kind: str, detail: str, seconds: float) -> bytes:
    """The smallest input found by deleting lines, then chunks of bytes, that fails the same way."""

    def same(candidate: bytes) -> bool:
        found = outcome(target, candidate, seconds)
        if found is None or found[0] != kind:
            return False
        return kind != "raised" or found[1].split(":")[0] == detail.split(":")[0]

    budget = time.monotonic() + 20
    lines = data.split(b"\n")
    i = 0
    while i < len(lines) and len(lines) > 1 and time.monotonic() < budget:
        candidate = lines[:i] + lines[i + 1 :]
        if same(b"\n".join(candidate)):
            lines = candidate
        else:
            i += 1
    data = b"\n".join(lines)
    chunk = max(1, len(data) // 2)
    while chunk >= 1 and time.monotonic() < budget:
        i = 0
        while i < len(data) and time.monotonic() < budget:
            candidate = data[:i] + data[i + chunk :]
            if candidate and same(candidate):
                data = candidate
            else:
                i += chunk
        chunk //= 2
    return data


# ----------------------------------------------------------------------------- the loop


def fuzz(
    target: Target,
    *,
    seed: int = 0,
    inputs: int | None = None,
    seconds: float | None = None,
    per_input: float = 5.0,
) -> Result:
    """Run `inputs` mutated inputs (or for `seconds`), stopping at neither when both are None."""
    if inputs is None and seconds is None:
        raise ValueError("give inputs, seconds or both")
    rng = random.Random(seed)
    seeds = [s for s in target.seeds() if s] or [b""]
    result = Result(target.name)
    seen: set[tuple[str, ...]] = set()
    start = time.monotonic()
    while True:
        if inputs is not None and result.inputs >= inputs:
            break
        if seconds is not None and time.monotonic() - start >= seconds:
            break
        base = seeds[rng.randrange(len(seeds))]
        data = base if result.inputs < len(seeds) else mutate(base, rng, seeds)
        result.inputs += 1
        found = outcome(target, data, per_input)
        if found is None:
            continue
        kind, detail, trace = found
        # One report per kind of failure and place it happened, not one per input.
        last_frame = [line for line in trace.splitlines() if line.strip().startswith("File ")][-1:]
        signature = (kind, detail.split(":")[0], *last_frame)
        if signature in seen:
            continue
        seen.add(signature)
        small = minimise(target, data, kind, detail, per_input)
        result.crashes.append(Crash(target.name, kind, detail, small, trace))
    result.seconds = time.monotonic() - start
    return result
