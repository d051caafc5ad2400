"""The engine never raises: Unicode digits, numbers too long for int(), NUL bytes and mangled
records become findings on their line. Each case here crashed the engine once."""

from __future__ import annotations

import random

import pytest
from scoring_support import CORPUS

from scoring import canonical_gcg, parse, verify
from scoring.board import parse_position
from scoring.text import decode
from scoring.tiles import TileSetError, parse_tileset

HEAD = "#player1 ann Ann\n#player2 bob Bob\n"
# RETAINS at 8D: R 1x2 (double letter) + E T A I N S 6 = 8, doubled on the centre = 16, + 50.
PLAY = ">ann: AEINRST 8D RETAINS "


def _findings(text: str) -> list[str]:
    report = verify(text)
    # The same record as bytes, and written back, gives the same and raises nothing either.
    assert verify(text.encode()).findings == report.findings
    canonical_gcg(text)
    return [f.text() for f in report.findings]


@pytest.mark.parametrize(
    ("tail", "message"),
    [
        ("+66 +1²", "'+1²' is not a number: a total is written with the digits 0 to 9 only"),
        ("+6² 66", "'+6²' is not a number: a score is written with the digits 0 to 9 only"),
        ("+66 ①", "'①' is not a number: a total is written with the digits 0 to 9 only"),
        ("+66 -³", "'-³' is not a number: a total is written with the digits 0 to 9 only"),
        # Arabic-Indic digits: int() would read them, but a record is written in 0-9.
        ("+٦٦ 66", "'+٦٦' is not a number: a score is written with the digits 0 to 9 only"),
        ("+66 ٦٦", "'٦٦' is not a number: a total is written with the digits 0 to 9 only"),
        ("+999999999999 66", "'+999999999999' is not a number a game can have (12 digits)"),
        ("+66 " + "9" * 4400, "'999999999999…' is not a number a game can have (4400 digits)"),
        ("+" + "9" * 5000 + " 66", "'+99999999999…' is not a number a game can have (5000 digits)"),
    ],
)
def test_a_score_or_total_that_is_not_plain_digits_is_not_a_number(tail: str, message: str) -> None:
    assert _findings(HEAD + PLAY + tail + "\n") == [
        f"line 3: error: malformed_line [ann]: {message}"
    ]


def test_eleven_digits_are_still_a_number_and_checked() -> None:
    assert _findings(HEAD + PLAY + "+99999999999 99999999999\n") == [
        "line 3: error: wrong_score [ann]: RETAINS at 8D scores 66, not 99999999999",
        "line 3: warning: not_finished: "
        "the record stops before the game ended; the last totals recorded stand",
    ]


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ("-³", "'³' is not a number: a number of tiles is written with the digits 0 to 9 only"),
        ("-①", "'①' is not a number: a number of tiles is written with the digits 0 to 9 only"),
        ("-" + "7" * 5000, "'777777777777…' is not a number a game can have (5000 digits)"),
    ],
)
def test_an_exchange_count_that_is_not_plain_digits_is_not_a_number(
    action: str, message: str
) -> None:
    assert _findings(HEAD + f">ann: AEINRST {action} +0 0\n") == [
        f"line 3: error: malformed_line [ann]: {message}"
    ]


def test_an_unreadable_line_whose_last_token_is_a_unicode_or_huge_number_is_skipped() -> None:
    # The running total at the end of an unreadable move is taken when it is a number; these are
    # not, so bob's total stays unknown (0) and the next lines are still read.
    for last in ("①", "٣", "9" * 5000):
        text = HEAD + PLAY + f"+66 66\n>bob: AB GUM {last}\n>ann: ABC - +0 66\n"
        assert _findings(text) == [
            "line 4: error: malformed_line [bob]: "
            "the line is not a move: expected RACK POSITION WORD +SCORE TOTAL",
            "line 5: warning: not_finished: "
            "the record stops before the game ended; the last totals recorded stand",
        ]


@pytest.mark.parametrize(
    "pragma", ["#player" + "1" * 5000 + " x X", "#rack" + "1" * 5000 + " AB", "#player1² x X"]
)
def test_a_pragma_with_a_huge_or_unicode_number_is_not_a_player_or_a_rack(pragma: str) -> None:
    record = parse(HEAD + pragma + "\n" + PLAY + "+66 66\n")
    assert [p.nick for p in record.players] == ["ann", "bob"]
    assert _findings(HEAD + pragma + "\n" + PLAY + "+66 66\n") == [
        "line 4: warning: not_finished: "
        "the record stops before the game ended; the last totals recorded stand"
    ]


def test_a_position_in_other_digits_is_not_a_square() -> None:
    assert parse_position("٨D") is None
    assert parse_position("D٨") is None
    assert _findings(HEAD + ">ann: AEINRST ٨D RETAINS +66 66\n") == [
        "line 3: error: malformed_line [ann]: "
        "the line is not a move: expected RACK POSITION WORD +SCORE TOTAL"
    ]


def test_nul_bytes_are_findings_not_failures() -> None:
    text = HEAD + ">ann: AEI\x00NRST 8D RETAINS +66 66\n\x00\n"
    assert _findings(text) == [
        "line 3: error: malformed_rack [ann]: "
        "the rack 'AEI\\x00NRST' holds '\\x00', which is not a tile of the english set",
        "line 3: warning: not_finished: "
        "the record stops before the game ended; the last totals recorded stand",
        "line 4: error: malformed_line: the line is neither a #pragma nor a >move",
    ]


@pytest.mark.parametrize("value", ["standa" + "A" * 400, "x\x00y", "../../etc/passwd"])
def test_a_layout_name_too_long_for_a_file_or_with_a_nul_is_a_finding(value: str) -> None:
    found = _findings(f"#board-layout {value}\n" + HEAD + PLAY + "+66 66\n")
    assert found[0].startswith(f"line 1: error: unknown_layout: #board-layout {value!r} is not")


def test_a_tile_file_count_of_thousands_of_digits_is_a_tile_set_error() -> None:
    with pytest.raises(TileSetError, match="line 2: bad count"):
        parse_tileset("? 2 0\nA " + "9" * 5000 + " 1\n")


# -- a seeded mutation loop over the real records ---------------------------------------------

JUNK = ["²", "①", "\x00", "-³", "٣", "9" * 5000, "9" * 12, "(", "[CH]", "?", ".", "--", "(?)"]
PRAGMAS = ["#board-layout /etc", "#tile-distribution /dev/zero", "#tile [LL] [ll]", "#rack1 AB"]


def _mutate(rng: random.Random, text: str) -> str:
    lines = text.split("\n")
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(lines))
        op = rng.randrange(5)
        if op == 0:
            toks = lines[i].split(" ")
            toks.insert(rng.randrange(len(toks) + 1), rng.choice(JUNK))
            lines[i] = " ".join(toks)
        elif op == 1:
            lines.insert(i, lines[i])
        elif op == 2:
            lines = "\n".join(lines)[: rng.randrange(len(text) + 1)].split("\n")
        elif op == 3:
            lines.insert(i, rng.choice(PRAGMAS))
        else:
            j = rng.randrange(len(lines))
            a, b = lines[i].split(" "), lines[j].split(" ")
            x, y = rng.randrange(len(a)), rng.randrange(len(b))
            a[x], b[y] = b[y], a[x]
            lines[i] = " ".join(a)
            if i != j:
                lines[j] = " ".join(b)
    return "\n".join(lines)


def test_mangled_real_records_never_make_the_engine_raise() -> None:
    records = [decode(p.read_bytes()) for p in sorted(CORPUS.rglob("*.gcg"))]
    if not records:
        pytest.skip("the shared corpus is not next to the project")
    rng = random.Random(20261201)
    for _ in range(600):
        text = _mutate(rng, rng.choice(records))
        report = verify(text)
        assert all(f.line >= 0 and f.message for f in report.findings)
        canonical_gcg(text.encode("utf-16") if rng.random() < 0.1 else text)
