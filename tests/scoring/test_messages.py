"""Findings as data: every code the engine can emit has its sentence, and the sentences made
from codes and parameters are the ones the engine wrote before findings carried parameters.

`data/corpus_messages.jsonl` is what the engine said about every record of the shared corpus
under four rulesets, recorded before the sentences were made from parameters: one JSON array a
line, [file, line, code, rulesets, message], a finding given under several rulesets once. When a change to the engine changes what it finds in
the corpus on purpose, write the file again with
``.venv/bin/python tests/scoring/test_messages.py`` and read its diff.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script: scoring_support
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # and the project

from scoring_support import CORPUS  # noqa: E402

import scoring  # noqa: E402

GOLDEN = Path(__file__).with_name("data") / "corpus_messages.jsonl"
RULESETS = ("auto", "naspa", "wespa", "home")


def _corpus_files() -> list[Path]:
    return sorted(CORPUS.rglob("*.gcg")) if CORPUS.is_dir() else []


def _said(path: Path) -> list[list[object]]:
    """What the engine finds in one record under each ruleset, as the golden file keeps it."""
    name = path.relative_to(CORPUS).as_posix()
    data = path.read_bytes()
    found: dict[tuple[int, str, str, int], list[str]] = {}
    for rules in RULESETS:
        seen: dict[tuple[int, str, str], int] = {}
        for f in scoring.verify(data, rules=rules).findings:
            key = (f.line, f.code, f.message)
            seen[key] = seen.get(key, 0) + 1  # the same finding twice is kept twice
            found.setdefault((*key, seen[key]), []).append(rules)
    return [[name, line, code, rules, message] for (line, code, message, _), rules in found.items()]


def _write_golden() -> None:
    rows = [row for path in _corpus_files() for row in _said(path)]
    GOLDEN.write_text(
        "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows), encoding="utf-8"
    )
    print(f"{GOLDEN}: {len(rows)} findings")


if __name__ == "__main__":
    _write_golden()
