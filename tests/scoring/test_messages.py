"""Findings as data: every code the engine can emit has its sentence, and the sentences made
from codes and parameters are the ones the engine wrote before findings carried parameters.

`data/corpus_messages.jsonl` is what the engine said about every record of the shared corpus
under four rulesets, recorded before the sentences were made from parameters: one JSON array a
line, [file, line, code, rulesets, message], a finding given under several rulesets once.
When a change to the engine changes what it finds in the corpus on purpose, write the file
again with ``.venv/bin/python tests/scoring/test_messages.py`` and read its diff.
"""

from __future__ import annotations

import ast
import json
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script: scoring_support
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # and the project

from scoring_support import CORPUS  # noqa: E402

import scoring  # noqa: E402
from scoring.lexicon import Lexicon, Lexicons  # noqa: E402
from scoring.messages import LEGACY, MESSAGES, legacy, render, template_key  # noqa: E402
from scoring.tiles import parse_tileset  # noqa: E402

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


def _round_trip(finding: scoring.Finding) -> str:
    """The finding's sentence made again from its code and parameters as stored (JSON)."""
    stored = json.loads(json.dumps(finding.as_dict()))
    return render(stored["code"], stored["params"])


# -- the corpus: the sentences are the ones written before --------------------------------------


@pytest.mark.skipif(not _corpus_files(), reason="the shared corpus is not next to the project")
def test_the_corpus_findings_read_as_they_did_before_they_carried_parameters() -> None:
    before = [json.loads(line) for line in GOLDEN.read_text(encoding="utf-8").splitlines()]
    now: list[list[object]] = []
    for path in _corpus_files():
        data = path.read_bytes()
        for rules in RULESETS:
            for f in scoring.verify(data, rules=rules).findings:
                assert json.loads(json.dumps(f.params)) == f.params, (path, f)  # plain JSON
                assert _round_trip(f) == f.message
        now.extend(_said(path))
    assert len(before) > 800  # the corpus is there and its faults are found
    assert now == before


# -- every sentence the engine can write --------------------------------------------------------

TWO = "#player1 a Ann\n#player2 b Bob\n"
AB = parse_tileset("A 7 1\nB 7 3\n", "ab")  # 14 tiles: two racks empty the bag
ABC = parse_tileset("A 7 1\nB 7 3\nC 7 2\n", "abc")
# Six scoreless turns end the game (NASPA): the rack penalties are still to come.
SIX = """\
#player1 ann Ann Able
#player2 bob Bob Baker
>ann: AEINRST 8D RETAINS +66 66
>bob: CDGLNOU - +0 0
>ann: EIIOUVW -IIUVW +0 66
>bob: CDGLNOU - +0 0
>ann: AEIOQRT - +0 66
>bob: CDGLNOU -CDG +0 0
>ann: AEIOQRT - +0 66
"""
OUT = TWO + ">a: AAAAAAA 8H AAAAAAA +64 64\n"  # a goes out at once; b holds BBBBBBB


def _words(*words: str) -> Lexicons:
    return Lexicons([Lexicon("test", "other", frozenset(words))])


# The templates the corpus does not reach, each with a record that makes the engine write it and
# the sentence as the engine wrote it before findings carried parameters.
SENTENCES: list[tuple[str, str, dict[str, Any], int, str]] = [
    (
        "unknown_layout",
        "#board-layout giant\n" + TWO + ">a: AB 8H AB +8 8\n",
        {},
        1,
        "#board-layout 'giant' is not a built-in board layout (standard15); a record cannot "
        "name a file, so the standard board is used",
    ),
    (
        "rack_not_drawable.left",
        SIX + ">ann: AEIOQRT (AEIOQRT) -16 50\n>bob: (ZZ) -20 -20\n",
        {},
        11,
        "the rack left needs 2 Z but only 1 Z can be unseen (the english set and the tiles on "
        "the board)",
    ),
    (
        "tiles_not_in_rack.count",
        TWO + ">a: ABC -5 +0 0\n",
        {},
        3,
        "the exchange of 5 tiles is more than the rack ABC holds",
    ),
    (
        "mark_differs",
        SIX.replace("RETAINS +66", "RETAINS$ +66"),
        {"lexicons": _words("XI")},
        3,
        "the record marks RETAINS '$'; the word lists give '*'",
    ),
    (
        "mark_differs.unmarked",
        SIX.replace("RETAINS +66", "RETAINS* +66"),
        {"lexicons": _words("RETAINS")},
        3,
        "the record marks RETAINS '*'; the word lists give 'no mark'",
    ),
    (
        "first_move_one_tile",
        TWO + ">a: ABCDEFG 8H A +0 0\n",
        {},
        3,
        "the first play must use at least two tiles",
    ),
    (
        "malformed_move",
        TWO + ">a: ABCDEFG 8H () +0 0\n",
        {},
        3,
        "the play has no tiles",
    ),
    (
        "playthrough_empty.parens",
        TWO + ">a: ABCDEFG 8H (A)B +8 8\n",
        {},
        3,
        "(A)B marks A at 8H as on the board, but it is empty",
    ),
    (
        "wrong_challenge_bonus.per_word",
        TWO + ">a: AB 8H AB +8 8\n>a: CDEFGHI (challenge) +7 15\n",
        {"rules": "wespa"},
        4,
        "a challenge bonus is 5 points a word challenged, not 7",
    ),
    (
        "end_rack_mismatch.rack_penalty",
        OUT + ">a: (BBBBBBB) +21 85\n>b: BBBBBBA (BBBBBBA) -19 -19\n",
        {"rules": "wespa", "tiles": AB},
        5,
        "the player was left with BBBBBBB, not BBBBBBA",
    ),
    (
        "unexpected_rack_penalty",
        OUT + ">a: (BBBBBBB) +42 106\n>a: (A) -1 105\n",
        {"rules": "naspa", "tiles": AB},
        5,
        "the player who went out has no rack to lose",
    ),
    (
        "unexpected_rack_penalty.double",
        OUT + ">a: (BBBBBBB) +42 106\n>b: (BBBBBBB) -21 -21\n",
        {"rules": "naspa", "tiles": AB},
        5,
        "with 2x rack for going out the opponent loses nothing",
    ),
    (
        "repeated_time_penalty",
        OUT + ">a: (BBBBBBB) +42 106\n>b: (time) -10 -10\n>b: (time) -10 -20\n",
        {"rules": "naspa", "tiles": AB},
        6,
        "a player has one time penalty, for all the time over",
    ),
    (
        "wrong_time_penalty",
        OUT + ">a: (BBBBBBB) +42 106\n>b: (time) -7 -7\n",
        {"rules": "naspa", "tiles": AB},
        5,
        "a time penalty is 10 points for each minute or part of a minute over: a negative "
        "multiple of 10, not -7",
    ),
    (
        "missing_end_points",
        "#player1 a Ann\n#player2 b Bob\n#player3 c Cy\n>a: AAAAAAA 8H AAAAAAA +64 64\n",
        {"tiles": ABC},
        4,
        "a went out, but b's rack penalty is not recorded",
    ),
    (
        "missing_end_points.scoreless",
        SIX,
        {},
        9,
        "the game ended after scoreless turns; ann's rack penalty is not recorded",
    ),
    (
        "malformed_line.no_score",
        TWO + ">a: AB 8H AB +8\n",
        {},
        3,
        "the line needs a score and a running total",
    ),
    (
        "too_few_players",
        "#player1 a Ann\n>a: AB 8H AB +8 8\n",
        {},
        0,
        "the record names 1 player(s); the auto rules need at least 2",
    ),
    (
        "not_connected",
        TWO + ">a: AB 8H AB +8 8\n>b: CD 1A CD +7 7\n",
        {},
        4,
        "CD at 1A does not touch any tile on the board",
    ),
    (
        "malformed_line.not_score",
        TWO + ">a: AB 8H AB 8x 8\n",
        {},
        3,
        "'8x' is not a score (write it as +N or -N)",
    ),
    (
        "malformed_line.too_long",
        TWO + ">a: AB 8H AB +123456789012 8\n",
        {},
        3,
        "'+123456789012' is not a number a game can have (12 digits)",
    ),
    (
        "malformed_line.not_total",
        TWO + ">a: AB 8H AB +8 x8\n",
        {},
        3,
        "'x8' is not a running total",
    ),
    (
        "malformed_line.score_digits",
        TWO + ">a: AB 8H AB +８ 8\n",
        {},
        3,
        "'+８' is not a number: a score is written with the digits 0 to 9 only",
    ),
    (
        "square_occupied",
        TWO + ">a: AB 8H AB +8 8\n>b: CD 8H CD +7 7\n",
        {},
        4,
        "CD at 8H puts C on 8H, which already holds A",
    ),
    (
        "malformed_line.rack_no_move",
        TWO + ">a: AB\n",
        {},
        3,
        "the line has a rack but no move",
    ),
    (
        "end_before_end",
        TWO + ">a: AB 8H AB +8 8\n>b: (CD) +10 10\n",
        {},
        4,
        "points for the opponent's rack, but the game has not ended",
    ),
    (
        "malformed_line.total_digits",
        TWO + ">a: AB 8H AB +8 ８\n",
        {},
        3,
        "'８' is not a number: a total is written with the digits 0 to 9 only",
    ),
    (
        "unexpected_end_points",
        SIX + ">bob: (AEIOQRT) +32 32\n",
        {},
        10,
        "nobody went out: each player loses their own rack instead",
    ),
    (
        "malformed_line",
        TWO + "hello\n",
        {},
        3,
        "the line is neither a #pragma nor a >move",
    ),
    (
        "malformed_line.no_nick",
        TWO + ">a AB 8H AB +8 8\n",
        {},
        3,
        "an event line must start >nick:",
    ),
    (
        "first_move_off_centre",
        TWO + ">a: AB 1A AB +8 8\n",
        {},
        3,
        "the first play must cover the centre square 8H",
    ),
    (
        "not_whole_word",
        TWO + ">a: ABC 8H ABC +10 10\n>b: DE 8K DE +3 3\n",
        {},
        4,
        "DE at 8K is not the whole word: the tiles next to it on the board belong to it",
    ),
    (
        "malformed_line.no_move",
        TWO + ">a:\n",
        {},
        3,
        "the line has no move",
    ),
    (
        "malformed_line.not_rack",
        TWO + ">a: (AB +8 8\n",
        {},
        3,
        "'(AB' is not a rack in parentheses",
    ),
    (
        "wrong_withdrawal",
        TWO + ">a: AB 8H AB +8 8\n>a: AB -- -5 3\n",
        {},
        4,
        "withdrawing the play takes off its 8 points, not 5",
    ),
    (
        "wrong_total.withdrawal",
        TWO + ">a: AB 8H AB +8 8\n>a: AB -- -8 1\n",
        {},
        4,
        "after the withdrawal the total goes back to 0, not 1",
    ),
    (
        "too_many_tiles",
        TWO + ">a: 8H ZZ +20 20\n",
        {},
        3,
        "the play puts more Z on the board than the english set has",
    ),
    (
        "repeated_end_points",
        OUT + ">a: (BBBBBBB) +42 106\n>a: (BBBBBBB) +42 148\n",
        {"rules": "naspa", "tiles": AB},
        5,
        "the rack points are given twice",
    ),
    (
        "end_points_wrong_player",
        OUT + ">b: (BBBBBBB) +42 42\n",
        {"rules": "naspa", "tiles": AB},
        4,
        "the rack points go to a, who went out",
    ),
    (
        "malformed_pragma.number",
        "#player7 a Ann\n#player2 b Bob\n",
        {},
        1,
        "player number 7 is not 1 to 4",
    ),
    (
        "repeated_pragma",
        TWO + "#rack1 AB\n#rack1 AB\n",
        {},
        4,
        "#rack1 is given twice",
    ),
    (
        "repeated_pragma.header",
        "#title x\n#title y\n" + TWO,
        {},
        2,
        "#title is given twice (first on line 1)",
    ),
    (
        "malformed_line.tiles_digits",
        TWO + ">a: ABC -２ +0 0\n",
        {},
        3,
        "'２' is not a number: a number of tiles is written with the digits 0 to 9 only",
    ),
    (
        "wrong_score.exchange",
        TWO + ">a: ABCDEFG -AB +3 3\n",
        {},
        3,
        "an exchange scores 0",
    ),
    (
        "malformed_pragma",
        "#player1\n" + TWO,
        {},
        1,
        "#player needs a nickname",
    ),
    (
        "unknown_tile_set",
        "#tile-distribution klingon\n" + TWO + ">a: AB 8H AB +8 8\n",
        {},
        1,
        "#tile-distribution 'klingon' is not a built-in tile set (catalan, dutch, english, "
        "english_super, finnish, french, german, indonesian, norwegian, polish, slovene, "
        "spanish, swedish); a record cannot name a file, so the set is told from the letters "
        "the record uses",
    ),
    (
        "malformed_line.after_total",
        TWO + ">a: ABC - +0 0 extra\n",
        {},
        3,
        "unexpected 'extra' after the running total",
    ),
    (
        "malformed_rack.exchange",
        TWO + ">a: ABCDEFG -A1 +0 0\n",
        {},
        3,
        "the exchange 'A1' holds '1', which is not a tile of the english set",
    ),
    (
        "malformed_exchange",
        TWO + ">a: ABCDEFG -9 +0 0\n",
        {},
        3,
        "an exchange is of 1 to 7 tiles, not 9",
    ),
    (
        "exchange_bag_too_small",
        OUT.replace(">a: AAAAAAA 8H AAAAAAA +64 64\n", ">a: AAAAAAA -A +0 0\n"),
        {"tiles": AB},
        3,
        "an exchange needs at least 7 tiles in the bag; 0 are left",
    ),
    (
        "wrong_challenge_bonus",
        TWO + ">a: AB 8H AB +8 8\n>a: CDEFGHI (challenge) -5 3\n",
        {"rules": "wespa"},
        4,
        "a challenge bonus is more than 0 points",
    ),
    (
        "wrong_score.pass",
        TWO + ">a: ABCDEFG - +3 3\n",
        {},
        3,
        "a pass scores 0",
    ),
    (
        "repeated_end_points.rack_penalty",
        SIX + ">ann: AEIOQRT (AEIOQRT) -16 50\n>ann: AEIOQRT (AEIOQRT) -16 34\n",
        {},
        11,
        "this player's rack is counted twice",
    ),
]


@pytest.mark.parametrize(("key", "text", "settings", "line", "sentence"), SENTENCES)
def test_a_finding_is_written_from_its_code_and_parameters(
    key: str, text: str, settings: dict[str, Any], line: int, sentence: str
) -> None:
    report = scoring.verify(text, **settings)

    found = [f for f in report.findings if template_key(f.code, f.params) == key]

    assert [(f.line, f.message) for f in found][:1] == [(line, sentence)]
    assert _round_trip(found[0]) == sentence


def _emitted_codes() -> set[str]:
    """The code of every finding the engine's source makes: ``Finding(line, severity, CODE, …)``
    and ``self.error(line, CODE, …)`` / ``self.warn(line, CODE, …)``."""
    codes: set[str] = set()
    for path in Path(scoring.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            if isinstance(func, ast.Name) and func.id == "Finding":
                at = 2
            elif isinstance(func, ast.Attribute) and func.attr in ("error", "warn"):
                at = 1
            else:
                continue
            code = node.args[at] if len(node.args) > at else None
            if (
                isinstance(code, ast.Name)
                and code.id == "code"
                or (isinstance(code, ast.Attribute) and code.attr == "code")
            ):
                continue  # a finding passed on (error, warn, a withdrawn play's score)
            where = f"{path.name}:{node.lineno}"
            assert isinstance(code, ast.Constant), f"{where}: a code not written out"
            codes.add(code.value)
    return codes


def test_every_code_the_engine_emits_has_a_template_and_every_template_is_used() -> None:
    codes = _emitted_codes()
    written = {key.split(".")[0] for key in MESSAGES}

    assert len(codes) > 60
    assert codes - written == set()
    assert written - codes == set()  # no template for a code nothing makes


@pytest.mark.skipif(not _corpus_files(), reason="the shared corpus is not next to the project")
def test_every_template_is_written_by_a_real_finding() -> None:
    keys = {key for key, *_ in SENTENCES}
    for path in _corpus_files():
        for rules in RULESETS:
            keys.update(
                template_key(f.code, f.params)
                for f in scoring.verify(path.read_bytes(), rules=rules).findings
            )
    assert sorted(set(MESSAGES) - keys) == []


def test_a_withdrawn_plays_wrong_score_keeps_its_parameters() -> None:
    # AB at 8H scores (1 + 3) x 2 = 8; recorded 9, then withdrawn: a warning, not an error.
    report = scoring.verify(TWO + ">a: AB 8H AB +9 9\n>a: AB -- -9 0\n")

    (wrong,) = [f for f in report.findings if f.code == "wrong_score"]

    assert (wrong.severity, wrong.params) == (
        "warning",
        {"word": "AB", "position": "8H", "score": 8, "recorded": 9, "case": "withdrawn"},
    )
    assert wrong.message == "AB at 8H scores 8, not 9 (the play was withdrawn)"


def test_stored_findings_this_version_cannot_write_are_shown_as_they_are() -> None:
    assert render("wrong_score", legacy("an old sentence")) == "an old sentence"
    assert legacy("x") == {"case": LEGACY, "text": "x"}
    assert render("no_such_code", {"n": 1}) == 'no_such_code: {"n": 1}'
    assert render("wrong_score", {"word": "AB"}) == 'wrong_score: {"word": "AB"}'
    assert render("no_moves", {}) == "the record has no moves"
    assert render("no_such_code", {}) == "no_such_code"


if __name__ == "__main__":
    _write_golden()


def test_tile_counts_are_pairs_so_a_database_cannot_reorder_them() -> None:
    # PostgreSQL's jsonb sorts an object's keys (shorter first): [CH] would move after Z.
    (text, settings) = next((t, s) for k, t, s, *_ in SENTENCES if k == "rack_not_drawable.left")
    report = scoring.verify(text.replace("(ZZ)", "(ZZQQ)"), **settings)

    (short,) = [f for f in report.findings if f.code == "rack_not_drawable"]

    assert short.params["needs"] == [["Q", 2], ["Z", 2]]
    assert short.params["unseen"] == [["Q", 0], ["Z", 1]]
    assert short.message == (
        "the rack left needs 2 Q, 2 Z but only 0 Q, 1 Z can be unseen "
        "(the english set and the tiles on the board)"
    )
