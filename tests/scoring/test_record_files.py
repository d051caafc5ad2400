"""A game record never makes the engine open a file: it may name built-in layouts and tile sets
only. A file comes from the command line (--tiles, --rules) or from the caller, explicitly."""

from __future__ import annotations

import builtins
import io
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from scoring import builtin_tilesets, canonical_gcg, verify
from scoring.__main__ import main

HOUSE_TILES = "# House set\n? 2 0\nA 9 1\nD 4 2\nI 9 1\nN 6 1\nV 2 4\nW 2 4\nY 2 4\nE 12 1\n"
FIVE_LAYOUT = "=...=\n.'.'.\n..-..\n.'.'.\n=...=\n"
GAME = "#player1 doug Doug\n#player2 emely Emely\n>doug: DINNVWY 8D WINDY +32 32\n"
HOSTILE = ["/dev/zero", "/etc", "/etc/passwd", "house.tiles", "five.layout", "ABSOLUTE"]


@pytest.fixture
def forbidden(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[[str], str]:
    """Every way of opening a file fails the test for the paths a record names."""
    (tmp_path / "house.tiles").write_text(HOUSE_TILES, encoding="utf-8")
    (tmp_path / "five.layout").write_text(FIVE_LAYOUT, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    absolute = str(tmp_path / "house.tiles")
    banned = {"/dev/zero", "/etc", "/etc/passwd", absolute}
    banned |= {str(tmp_path / "five.layout"), "house.tiles", "five.layout"}

    def check(path: object) -> None:
        if isinstance(path, int):
            return
        text = os.fsdecode(path) if isinstance(path, (str, bytes, os.PathLike)) else ""
        if text in banned or os.path.abspath(text) in banned:
            pytest.fail(f"the engine opened {text!r}, named by a record")

    def guard(real: Callable) -> Callable:
        def wrapper(path: object, *args: object, **kwargs: object) -> object:
            check(path)
            return real(path, *args, **kwargs)

        return wrapper

    for owner, name in ((builtins, "open"), (io, "open"), (os, "open")):
        monkeypatch.setattr(owner, name, guard(getattr(owner, name)))
    for name in ("open", "read_text", "read_bytes"):
        monkeypatch.setattr(Path, name, guard(getattr(Path, name)))

    def value(name: str) -> str:
        return absolute if name == "ABSOLUTE" else name

    return value


def _record(pragma: str, value: str) -> str:
    return f"#{pragma} {value}\n{GAME}"


def _message(pragma: str, value: str) -> str:
    if pragma == "board-layout":
        return (
            f"line 1: error: unknown_layout: #board-layout {value!r} is not a built-in board "
            f"layout (standard15); a record cannot name a file, so the standard board is used"
        )
    return (
        f"line 1: error: unknown_tile_set: #tile-distribution {value!r} is not a built-in tile "
        f"set ({', '.join(builtin_tilesets())}); a record cannot name a file, so the set is "
        f"told from the letters the record uses"
    )


@pytest.mark.parametrize("pragma", ["board-layout", "tile-distribution"])
@pytest.mark.parametrize("name", HOSTILE)
def test_verify_and_canonical_gcg_open_no_file_a_record_names(
    forbidden: Callable[[str], str], pragma: str, name: str
) -> None:
    value = forbidden(name)
    text = _record(pragma, value)
    report = verify(text)
    assert [f.text() for f in report.errors] == [_message(pragma, value)]
    # The rest of the record is checked with the standard board and English tiles.
    assert report.tiles.name == "english" and report.board.size == 15
    assert [(p.final, p.computed) for p in report.players] == [(32, 32), (0, 0)]
    assert report.board.render() == verify(GAME).board.render()
    assert canonical_gcg(text).splitlines()[1] == f"#{pragma} {value}"
    assert verify(text.encode()).findings == report.findings


@pytest.mark.parametrize("pragma", ["board-layout", "tile-distribution"])
@pytest.mark.parametrize("command", ["verify", "show", "format"])
def test_the_command_line_opens_no_file_a_record_names(
    forbidden: Callable[[str], str], tmp_path: Path, pragma: str, command: str
) -> None:
    for name in HOSTILE:
        value = forbidden(name)
        game = tmp_path / "game.gcg"
        game.write_text(_record(pragma, value), encoding="utf-8")
        out = io.StringIO()
        code = main([command, str(game)], out=out)
        if command == "verify":
            assert code == 1
            assert f"  {_message(pragma, value)}" in out.getvalue().splitlines()
        else:
            assert code == 0


def test_built_in_names_in_a_record_are_still_used() -> None:
    assert verify(_record("tile-distribution", "Spanish")).tiles.name == "spanish"
    assert verify(_record("tile-distribution", "english")).errors == []
    for name in ("CrosswordGame", "standard15", "STANDARD15"):
        assert verify(_record("board-layout", name)).errors == []


def test_a_file_the_caller_gives_is_read(tmp_path: Path) -> None:
    path = tmp_path / "house.tiles"
    path.write_text(HOUSE_TILES, encoding="utf-8")
    assert verify(GAME, tiles=str(path)).tiles.name == "house"
    out = io.StringIO()
    game = tmp_path / "game.gcg"
    game.write_text(GAME, encoding="utf-8")
    assert main(["verify", "--tiles", str(path), "--json", str(game)], out=out) == 0
    assert '"tiles": "house"' in out.getvalue()
