"""What an import may open (`tournament.interchange.files`): regular files only, each under a
size cap, and of the files a config.tsh names only those in its own folder or below it.
Devices, FIFOs, directories, links out of the folder and absolute paths are refused in one line
that names the config's line; nothing is imported."""

from __future__ import annotations

import io
import os
import time
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from tournament.interchange import files
from tournament.models import Tournament

A_T = "Alice 1800 2; 400\nBob 1700 1; 300\n"
ONLY_IN = "only a file in the config's folder or below it is read"


def _import(path: Path, command: str = "importtsh", *more: str) -> str:
    out = io.StringIO()
    call_command(command, str(path), *more, stdout=out)
    return out.getvalue()


def _refused(path: Path, command: str = "importtsh", *more: str) -> str:
    before = Tournament.objects.count()
    with pytest.raises(CommandError) as refused:
        _import(path, command, *more)
    assert Tournament.objects.count() == before  # nothing imported
    return str(refused.value)


def _config(folder: Path, line: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "config.tsh"
    path.write_text(f"config max_rounds = 1\n{line}\n")
    return path


@pytest.mark.django_db
def test_a_device_named_by_the_config_is_refused_at_once(tmp_path: Path) -> None:
    started = time.monotonic()

    said = _refused(_config(tmp_path, "division A /dev/zero"))

    assert said == f"config.tsh: line 2: division A /dev/zero: an absolute path; {ONLY_IN}"
    assert time.monotonic() - started < 5


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("named", "reason"),
    [
        ("/etc/passwd", f"an absolute path; {ONLY_IN}"),
        ("../../etc/hostname", f"outside the config's folder; {ONLY_IN}"),
        ("a/../../b.t", f"outside the config's folder; {ONLY_IN}"),
        ("~/a.t", f"an absolute path; {ONLY_IN}"),
    ],
)
def test_a_path_out_of_the_folder_is_refused_naming_the_line(
    tmp_path: Path, named: str, reason: str
) -> None:
    said = _refused(_config(tmp_path / "event", f"division A {named}"))

    assert said == f"config.tsh: line 2: division A {named}: {reason}"


@pytest.mark.django_db
def test_a_link_out_of_the_folder_is_refused_and_one_inside_is_read(tmp_path: Path) -> None:
    event = tmp_path / "event"
    event.mkdir()
    (tmp_path / "outside.t").write_text(A_T)
    (event / "out.t").symlink_to(tmp_path / "outside.t")
    (event / "data").mkdir()
    (event / "data" / "real.t").write_text(A_T)
    (event / "in.t").symlink_to(event / "data" / "real.t")

    said = _refused(_config(event, "division A out.t"))
    outside = os.path.realpath(tmp_path / "outside.t")
    assert said == (
        f"config.tsh: line 2: division A out.t: a link to {outside}, outside the config's "
        f"folder; {ONLY_IN}"
    )

    path = _config(event, "division A in.t\ndivision B data/real.t")
    assert "A (2 players), B (2 players)" in _import(path)


@pytest.mark.django_db
def test_a_fifo_or_a_directory_in_the_folder_is_refused_without_waiting(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "a.t")
    (tmp_path / "b.t").mkdir()
    started = time.monotonic()

    fifo = _refused(_config(tmp_path, "division A a.t"))
    folder = _refused(_config(tmp_path, "division B b.t"))

    assert fifo == "config.tsh: line 2: division A a.t: a FIFO (named pipe), not a regular file"
    assert folder == "config.tsh: line 2: division B b.t: a directory, not a regular file"
    assert time.monotonic() - started < 5


@pytest.mark.django_db
def test_a_file_over_the_cap_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(files, "MAX_FILE_BYTES", 1000)
    (tmp_path / "a.t").write_text(A_T * 60)  # 2,040 bytes

    beside = _refused(_config(tmp_path, "division A a.t"))
    given = _refused(tmp_path / "a.t")

    assert beside == (
        "config.tsh: line 2: division A a.t: 2,040 bytes, over the 1,000 a file may have"
    )
    assert given == "a.t: 2,040 bytes, over the 1,000 a file may have"


@pytest.mark.django_db
def test_the_file_given_to_each_import_command_must_be_a_regular_file(
    tmp_path: Path, division
) -> None:
    os.mkfifo(tmp_path / "pipe.t")
    started = time.monotonic()

    assert _refused(Path("/dev/zero")) == "zero: a device, not a regular file"
    assert _refused(tmp_path / "pipe.t") == "pipe.t: a FIFO (named pipe), not a regular file"
    with pytest.raises(CommandError, match=r"^zero: a device, not a regular file$"):
        call_command("importtou", "/dev/zero", "--slug", "w", stdout=io.StringIO())
    roster = ("spring-open", "--division", "A", "/dev/zero")
    with pytest.raises(CommandError, match=r"^zero: a device, not a regular file$"):
        call_command("importroster", *roster, stdout=io.StringIO())
    with pytest.raises(CommandError, match=r"^pipe\.t: a FIFO"):
        call_command("useratings", "spring-open", "--division", "A", str(tmp_path / "pipe.t"))
    assert time.monotonic() - started < 10


@pytest.mark.django_db
def test_the_printout_given_with_a_tou_file_must_be_a_regular_file(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.t")
    wespa = Path(__file__).resolve().parents[4] / "shared" / "corpus" / "wespa"
    tou = next(iter(sorted(wespa.glob("*.tou"))), None)
    if tou is None:
        pytest.skip("the shared WESPA corpus (../shared/corpus/wespa) is absent")
    (tmp_path / "event.tou").write_bytes(tou.read_bytes())
    with pytest.raises(CommandError, match=r"^pipe\.t: a FIFO \(named pipe\), not a regular"):
        call_command(
            "importtou", str(tmp_path / "event.tou"), "--slug", "w",
            "--printout", str(tmp_path / "pipe.t"), stdout=io.StringIO(),
        )  # fmt: skip
