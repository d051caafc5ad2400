"""`make run`: the development server on PORT (8000 by default), with the demo unless DEMO=no."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


def _dry_run(*args: str) -> list[str]:
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    done = subprocess.run(
        ["make", "--no-print-directory", "-n", "run", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        # The defaults are the Makefile's own, whatever the shell running the tests has set.
        env={k: v for k, v in os.environ.items() if k not in ("PORT", "DEMO", "MAKEFLAGS")},
    )
    return [line for line in done.stdout.splitlines() if "manage.py" in line]


def test_make_run_serves_the_demo_on_port_8000_by_default() -> None:
    lines = [line.split("manage.py ", 1)[1] for line in _dry_run()]
    assert lines == ["migrate --noinput", "loaddemo --port 8000", "runserver 127.0.0.1:8000"]


def test_make_run_takes_port_and_starts_without_the_demo() -> None:
    lines = [line.split("manage.py ", 1)[1] for line in _dry_run("PORT=8123", "DEMO=no")]
    assert lines == ["migrate --noinput", "runserver 127.0.0.1:8123"]
