"""The command line: python -m scoring verify|show|format."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from scoring.__main__ import main

# A short game, scored by hand. WINDY at 8D covers 8D (double letter) to 8H (the centre, double
# word): W 4x2 + I 1 + N 1 + D 2 + Y 4 = 16, doubled = 32. GALE at 7C: G 2 + A 1 + L 1 + E 1 = 5,
# plus the cross-words AW (1+4), LN (1+1) and ED (1+2) = 11: 16.
GOOD = """#player1 doug Doug Example
#player2 emely Emely Example
>doug: DINNVWY 8D WINDY +32 32
>emely: ADEEGIL 7C GALE +16 16
"""
BAD = GOOD.replace("+16 16", "+18 18")


def _run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out=out)
    return code, out.getvalue()


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    good = tmp_path / "good.gcg"
    good.write_text(GOOD + ">doug: ANNV - +0 32\n", encoding="utf-8")
    bad = tmp_path / "bad.gcg"
    bad.write_text(BAD, encoding="utf-8")
    return {"good": good, "bad": bad}


def test_verify_prints_the_findings_with_their_lines_and_exits_1(files) -> None:
    code, out = _run("verify", str(files["bad"]))
    assert code == 1
    assert "line 4: error: wrong_score [emely]: GALE at 7C scores 16, not 18" in out
    assert "0 of 1 record(s) verified, 1 with errors" in out


def test_verify_exits_0_when_every_file_is_verified(tmp_path: Path) -> None:
    whole = tmp_path / "whole.gcg"
    # Six scoreless turns after the opening end the game; each player loses their own rack.
    whole.write_text(
        GOOD
        + "".join(
            f">{who}: {rack} - +0 {total}\n"
            for who, rack, total in [
                ("doug", "ANNV", 32),
                ("emely", "DEI", 16),
                ("doug", "ANNV", 32),
                ("emely", "DEI", 16),
                ("doug", "ANNV", 32),
            ]
        )
        + ">emely: DEI - +0 16\n"
        # Each loses the rack shown: ANNV = 1+1+1+4 = 7, DEI = 2+1+1 = 4.
        + ">doug: ANNV (ANNV) -7 25\n"
        + ">emely: DEI (DEI) -4 12\n",
        encoding="utf-8",
    )
    code, out = _run("verify", str(whole))
    assert code == 0, out
    assert "VERIFIED (doug 25, emely 12)" in out


def test_verify_json_has_one_object_per_file(files) -> None:
    code, out = _run("verify", "--json", str(files["bad"]), str(files["good"]))
    assert code == 1
    data = json.loads(out)
    assert [d["file"] for d in data] == [str(files["bad"]), str(files["good"])]
    bad = data[0]
    assert bad["verified"] is False
    assert bad["players"] == [
        {"nick": "doug", "name": "Doug Example", "final": 32, "computed": 32},
        {"nick": "emely", "name": "Emely Example", "final": 18, "computed": 16},
    ]
    assert bad["findings"][0] == {
        "line": 4,
        "severity": "error",
        "code": "wrong_score",
        "message": "GALE at 7C scores 16, not 18",
        "params": {"word": "GALE", "position": "7C", "score": 16, "recorded": 18},
        "player": "emely",
        "expected": 16,
        "recorded": 18,
    }


def test_an_unfinished_game_is_verified_with_a_warning_that_its_totals_stand(files) -> None:
    code, out = _run("verify", "--json", str(files["good"]))
    data = json.loads(out)
    assert code == 0
    assert data[0]["verified"] is True
    assert [(f["line"], f["severity"], f["code"], f["message"]) for f in data[0]["findings"]] == [
        (
            5,
            "warning",
            "not_finished",
            "the record stops before the game ended; the last totals recorded stand",
        )
    ]


def test_usage_errors_exit_2(files, tmp_path: Path, capsys) -> None:
    assert _run("verify", "--rules", "nonsense", str(files["good"]))[0] == 2
    assert _run("verify", "--tiles", "klingon", str(files["good"]))[0] == 2
    assert _run("verify", "--lexicon", str(tmp_path / "missing.txt"), str(files["good"]))[0] == 2
    assert _run("verify", str(tmp_path / "missing.gcg"))[0] == 2
    with pytest.raises(SystemExit) as exc:
        _run("verify")
    assert exc.value.code == 2
    with pytest.raises(SystemExit) as exc:
        _run("frobnicate")
    assert exc.value.code == 2


def test_show_prints_the_board_after_a_turn(files) -> None:
    code, out = _run("show", "--turn", "1", str(files["bad"]))
    assert code == 0
    rows = out.splitlines()
    assert rows[0].split() == list("ABCDEFGHIJKLMNO")
    assert rows[8].split()[0] == "8"
    assert "W I N D Y" in rows[8]
    assert "G A L E" not in out
    assert "doug (Doug Example): 32 recorded, 32 computed" in out


def test_show_at_the_end_shows_every_tile_and_both_totals(files) -> None:
    code, out = _run("show", str(files["bad"]))
    assert code == 0
    assert "G A L E" in out
    assert "emely (Emely Example): 18 recorded, 16 computed" in out


def test_format_prints_canonical_gcg(tmp_path: Path) -> None:
    messy = tmp_path / "messy.gcg"
    messy.write_bytes(
        b"#player1   doug Doug\r\n#player2 emely Emely\r\n"
        b">doug:   DINNVWY   8d   WINDY   +32   32\r\n"
        b">emely: ADEEGIL c7 GAlE +15 15\r\n"
    )
    code, out = _run("format", str(messy))
    assert code == 0
    assert out == (
        "#character-encoding UTF-8\n"
        "#player1 doug Doug\n"
        "#player2 emely Emely\n"
        ">doug: DINNVWY 8D WINDY +32 32\n"
        ">emely: ADEEGIL C7 GAlE +15 15\n"
    )


def test_the_module_runs_as_a_program(files) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "scoring", "verify", str(files["bad"])],
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
        check=False,
    )
    assert result.returncode == 1
    assert "wrong_score" in result.stdout
