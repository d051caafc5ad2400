"""A bloated backup is refused by the sizes its zip declares and by what its tables would take
to read, before they are parsed: `manage.py restore` in a process of its own, its peak memory
(ru_maxrss) measured. Before these bounds a 250 MB players.json took 1.2 GB and an 81 MB one of
small rows 5 GB before they were refused."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tournament.exchange import backup
from tournament.models import Tournament

ROOT = Path(__file__).resolve().parents[3]
RESTORE = """
import resource, sys, django
django.setup()
from django.core.management import call_command
from django.core.management.base import CommandError
try:
    call_command("restore", sys.argv[1])
    print("restored")
except CommandError as refused:
    print(refused)
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)
"""
BASELINE = """
import resource, sys, django
django.setup()
from tournament.exchange import backup
data = open(sys.argv[1], "rb").read()
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)
"""


def _run(script: str, path: Path, tmp_path: Path) -> list[str]:
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'restore.sqlite3'}",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "SNAPSHOT_DIR": "",
    }
    done = subprocess.run(
        [sys.executable, "-c", script, str(path)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip().splitlines()


def _bloated(tournament: Tournament, path: Path, rows: int, row: str, per_chunk: int) -> int:
    """The tournament's backup with its players.json replaced by `rows` rows like `row`
    (`{n}` its number), written a chunk at a time: its size unpacked."""
    with zipfile.ZipFile(io.BytesIO(backup.write(tournament))) as zf:
        members = {n: zf.read(n) for n in zf.namelist()}
    size = 0
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as out:
        for name, data in members.items():
            if name != "players.json":
                out.writestr(name, data)
        with out.open("players.json", "w", force_zip64=True) as member:
            member.write(b"[")
            size += 1
            for start in range(0, rows, per_chunk):
                chunk = "".join(row.format(n=n) for n in range(start, start + per_chunk))
                data = chunk.encode()
                member.write(data)
                size += len(data)
            member.write(b"{}]")
            size += 3
    return size


@pytest.mark.django_db
def test_a_250_mb_players_json_is_refused_by_its_declared_size(
    tournament: Tournament, tmp_path: Path
) -> None:
    path = tmp_path / "bloated.zip"
    row = '{{"id": {n}, "name": "Player, Bloated", "rating": 1500, "division_id": 1}},'
    size = _bloated(tournament, path, 3_700_000, row, 100_000)
    assert size > 250 * 2**20
    refused, peak = _run(RESTORE, path, tmp_path)
    assert refused == "This backup is refused: players.json is over 64 MB."
    (baseline,) = _run(BASELINE, path, tmp_path)
    # The file itself (a few MB packed) and Django: nothing of the 250 MB is read.
    assert int(peak) - int(baseline) < 64, (peak, baseline)
    assert int(peak) < 600


@pytest.mark.django_db
def test_small_rows_that_would_take_gigabytes_are_refused_before_they_are_parsed(
    tournament: Tournament, tmp_path: Path
) -> None:
    path = tmp_path / "rows.zip"
    # 61 MB of one-key rows, under the member's 64 MB: json.loads would make 4.3 million
    # dicts of 192 bytes and more (over 800 MB).
    size = _bloated(tournament, path, 4_300_000, '{{"id":{n}}},', 500_000)
    assert 60 * 2**20 < size <= backup.MAX_MEMBER_BYTES
    refused, peak = _run(RESTORE, path, tmp_path)
    assert refused == (
        "This backup is refused: reading players.json would take over 384 MB of memory."
    )
    (baseline,) = _run(BASELINE, path, tmp_path)
    # What is held: the file, and players.json's 61 MB as read, never parsed.
    assert int(peak) - int(baseline) < 100, (peak, baseline)
    assert int(peak) < 600


@pytest.mark.django_db
def test_a_backup_that_fits_is_read_as_before(tournament: Tournament) -> None:
    data = backup.write(tournament)
    manifest, tables = backup.read(data)
    assert manifest["slug"] == tournament.slug
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        assert tables["players"] == json.loads(zf.read("players.json"))
