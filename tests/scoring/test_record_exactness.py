"""Records the engine used to misjudge: an unfinished game, a blank left on the last rack, declared
multi-letter tiles; and the guarantee that no finding ever says "X, not X"."""

from __future__ import annotations

import re

import pytest
from scoring_support import CORPUS, SIX_SCORELESS

from scoring import Finding, TileSet, canonical_gcg, load_tileset, verify

# -- a record that stops while tiles remain ---------------------------------------------------

# WINDY at 8D: W 4x2 + I + N + D 2 + Y 4 = 16, doubled on the centre = 32.
# GALE at 7C: 5, and the cross-words AW 5, LN 2, ED 3 = 16 (see test_cli.py).
STOPPED = """#player1 doug Doug
#player2 emely Emely
>doug: DINNVWY 8D WINDY +32 32
>emely: ADEEGIL 7C GALE +16 16
>doug: ANNV - +0 32
"""
STOPS = "the record stops before the game ended; the last totals recorded stand"


def test_a_record_that_stops_without_an_end_line_is_verified_with_a_warning() -> None:
    report = verify(STOPPED, rules="naspa")
    assert report.verified
    assert [f.text() for f in report.findings] == [f"line 5: warning: not_finished: {STOPS}"]
    assert [(p.nick, p.final, p.computed) for p in report.players] == [
        ("doug", 32, 32),
        ("emely", 16, 16),
    ]


def test_every_line_of_a_stopped_record_is_still_checked() -> None:
    report = verify(STOPPED.replace("+16 16", "+18 18").replace("+0 32", "+0 30"))
    assert [f.text() for f in report.findings] == [
        "line 4: error: wrong_score [emely]: GALE at 7C scores 16, not 18",
        "line 5: error: wrong_total [doug]: the running total should be 32 + 0 = 32, not 30",
        f"line 5: warning: not_finished: {STOPS}",
    ]
    assert not report.verified


@pytest.mark.parametrize("marker", ["#incomplete\n", "#rack1 AENN\n"])
def test_a_record_that_says_it_is_incomplete_keeps_its_own_warning(marker: str) -> None:
    report = verify(STOPPED + marker, rules="naspa")
    assert [f.text() for f in report.findings] == [
        "line 5: warning: not_finished: the record stops before the end of the game "
        "(it says it is incomplete)"
    ]


def test_an_end_line_before_the_game_ended_keeps_not_finished_an_error() -> None:
    report = verify(STOPPED + ">emely: ADEEGIL (time) -10 6\n", rules="naspa")
    assert [(f.line, f.severity, f.code) for f in report.findings] == [
        (6, "error", "end_before_end"),
        (6, "error", "not_finished"),
    ]


# -- a blank left on the last rack ------------------------------------------------------------

# Fourteen tiles: both racks are drawn and the bag is empty from the start.
TINY = TileSet("tiny", {"A": 7, "E": 6, "?": 1}, {"A": 1, "E": 1, "?": 0})
# AAAA at 8E: 4 x 1, doubled on the centre = 8. AAA.EEE at E5 down through the A on 8E: 7 x 1,
# on the double words E5 and E11 = 28, no cross-words. .EEE at 11E: 4 (E11 already covered).
# ann is out; bob is left with the blank alone, worth 0.
BLANK_LEFT = """#player1 ann Ann
#player2 bob Bob
>ann: AAAAEEE 8E AAAA +8 8
>bob: AAAEEE? E5 AAA.EEE +28 28
>ann: EEE 11E .EEE +4 12
>ann: (?) +0 12
"""


@pytest.mark.parametrize("rules", ["auto", "naspa", "wespa"])
def test_a_blank_left_on_the_last_rack_is_worth_0_under_every_ruleset(rules: str) -> None:
    report = verify(BLANK_LEFT, rules=rules, tiles=TINY)
    assert [f.text() for f in report.findings] == []
    assert [(p.final, p.computed) for p in report.players] == [(12, 12), (28, 28)]
    assert report.turns[-1].computed_score == 0


@pytest.mark.parametrize("rules", ["auto", "wespa"])
def test_a_minus_0_penalty_for_a_blank_is_the_opponents_rack_penalty(rules: str) -> None:
    report = verify(BLANK_LEFT + ">bob: ? (?) -0 28\n", rules=rules, tiles=TINY)
    assert [f.text() for f in report.findings] == []
    assert report.turns[-1].kind == "rack_penalty"
    assert [(p.final, p.computed) for p in report.players] == [(12, 12), (28, 28)]


def test_a_real_rack_left_beside_the_blank_still_counts() -> None:
    # bob keeps E and the blank: AAA.EE at E5 covers the double word E5 only, 6 x 2 = 12.
    # .EEE at 10E through bob's E: E 1 + E 1x3 (triple letter F10) + E + E = 6.
    # ann goes out and is owed twice ?E: 2 x 1 = 2, and 1 is recorded.
    text = """#player1 ann Ann
#player2 bob Bob
>ann: AAAAEEE 8E AAAA +8 8
>bob: AAAEEE? E5 AAA.EE +12 12
>ann: EEE 10E .EEE +6 14
>ann: (?E) +1 15
"""
    report = verify(text, rules="naspa", tiles=TINY)
    assert [f.text() for f in report.findings] == [
        "line 6: error: wrong_end_points [ann]: going out earns twice the opponents' rack "
        "?E (1) = 2, not 1"
    ]


# -- no finding may say the record is wrong where it agrees with the rules -------------------

_SAME = re.compile(r"(?<![\w-])(-?\w+), not \1(?![\w-])")


def _contradictions(findings: list[Finding]) -> list[str]:
    return [
        f.text()
        for f in findings
        if (f.expected is not None and f.expected == f.recorded) or _SAME.search(f.message)
    ]


CRAFTED = [
    (STOPPED, {}),
    (SIX_SCORELESS, {"rules": "naspa"}),
    (BLANK_LEFT, {"tiles": TINY}),
    (BLANK_LEFT, {"tiles": TINY, "rules": "naspa"}),
    (BLANK_LEFT + ">bob: ? (?) -0 28\n", {"tiles": TINY}),
    (BLANK_LEFT + ">bob: ? (?) -0 28\n", {"tiles": TINY, "rules": "naspa"}),
    (BLANK_LEFT + ">bob: ? (?) -0 28\n", {"tiles": TINY, "rules": "wespa"}),
]


@pytest.mark.parametrize(("text", "settings"), CRAFTED)
def test_no_crafted_record_gets_a_finding_that_agrees_with_the_record(
    text: str, settings: dict
) -> None:
    assert _contradictions(verify(text, **settings).findings) == []


def test_no_corpus_record_gets_a_finding_that_agrees_with_the_record() -> None:
    paths = sorted(CORPUS.rglob("*.gcg"))
    if not paths:
        pytest.skip("the shared corpus is not next to the project")
    found = []
    for path in paths:
        for rules in ("auto", "naspa", "wespa"):
            found += [
                f"{path.name} {rules}: {t}"
                for t in _contradictions(verify(path.read_bytes(), rules=rules).findings)
            ]
    assert found == []


# -- declared multi-letter tiles --------------------------------------------------------------

# A Spanish record that declares its digraphs: CALLO is C A L L O (two plain L's), 8D to 8H:
# C 3 x2 (double letter) + A + L + L + O = 10, doubled on the centre = 20.
# GR.S at H6 down through the O: G 2 + R + O + S = 5, no premium, no cross-words.
# ben's two plain L's are drawable: the set has 4 L and 1 LL, and the LL tile is still unseen.
DECLARED = """#tile [CH] [ch]
#tile [LL] [ll]
#tile [RR] [rr]
#player1 ana Ana
#player2 ben Ben
>ana: ACDLLOR 8D CALLO +20 20
>ben: EGLLRSU H6 GR.S +5 5
>ana: ADEINR[LL] -[LL] +0 20
"""


def test_a_record_that_declares_its_tiles_writes_digraphs_only_in_brackets() -> None:
    report = verify(DECLARED, rules="naspa")
    assert report.tiles.name == "spanish"
    assert [f.text() for f in report.findings] == [f"line 8: warning: not_finished: {STOPS}"]
    assert [(p.final, p.computed) for p in report.players] == [(20, 20), (5, 5)]
    assert "CALLO" in report.board.render().replace(" ", "")
    assert canonical_gcg(DECLARED, rules="naspa").splitlines()[6:] == [
        ">ana: ACDLLOR 8D CALLO +20 20",
        ">ben: EGLLRSU H6 GR.S +5 5",
        ">ana: ADEINR[LL] -[LL] +0 20",
    ]


def test_an_undeclared_record_keeps_reading_plain_ll_as_the_digraph() -> None:
    undeclared = "".join(line for line in DECLARED.splitlines(True) if not line.startswith("#t"))
    report = verify(undeclared, rules="naspa", tiles="spanish")
    # C A LL O covers 8D to 8G: off the centre, and C 6 + A 1 + LL 8 + O 1 = 16, not doubled.
    assert [(f.line, f.code) for f in report.findings][:3] == [
        (3, "first_move_off_centre"),
        (3, "wrong_score"),
        (4, "rack_not_drawable"),
    ]
    assert report.findings[1].message == "CALLO at 8D scores 16, not 20"


def test_a_bracketed_digraph_tells_the_tile_set_without_a_declaration() -> None:
    # No Ñ and no #tile-distribution: the [CH] alone says Spanish.
    text = "#player1 ana Ana\n#player2 ben Ben\n>ana: [CH]AEORS 8G [CH]E +10 10\n"
    report = verify(text, rules="naspa")
    assert report.tiles.name == "spanish"
    # CH 5 + E 1 = 6 on 8G-8H: the centre doubles it, 12.
    assert [f.text() for f in report.findings][0] == (
        "line 3: error: wrong_score [ana]: [CH]E at 8G scores 12, not 10"
    )


@pytest.mark.parametrize(
    ("text", "declared", "undeclared"),
    [
        ("QUNY[QU]", ["Q", "U", "N", "Y", "QU"], ["QU", "NY", "QU"]),
        ("L·L[L·L][l·l]", ["L", "·", "L", "L·L", "l·l"], ["L·L", "L·L", "l·l"]),
    ],
)
def test_catalan_digraphs_are_read_in_brackets_only_when_declared(
    text: str, declared: list[str], undeclared: list[str]
) -> None:
    catalan = load_tileset("catalan")
    assert catalan.split(text, bracketed_only=True) == declared
    assert catalan.split(text) == undeclared


def test_a_tile_declaration_alone_tells_the_catalan_set() -> None:
    text = "#tile [L·L] [l·l]\n#player1 ana Ana\n#player2 ben Ben\n>ana: AEILNSU 8G NU +4 4\n"
    assert verify(text).tiles.name == "catalan"
