"""The engine against the real game records in ../shared/corpus/gcg (skipped where it is absent)."""

from __future__ import annotations

import csv

import pytest
from scoring_support import CORPUS

from scoring import canonical_gcg, verify

pytestmark = pytest.mark.skipif(
    not (CORPUS / "INDEX.tsv").exists(), reason="the shared corpus is not next to the project"
)


def _index() -> list[dict[str, str]]:
    if not (CORPUS / "INDEX.tsv").exists():
        return []
    with open(CORPUS / "INDEX.tsv", encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f, delimiter="\t"))


INDEX = _index()
COMPLETE = [r for r in INDEX if r["category"] == "complete" and r["distinct"] == "yes"]
FIXTURES = [r for r in INDEX if r["category"] == "error-fixture"]
EVERY_FILE = [r["file"] for r in INDEX]

# The line and code each deliberately malformed MAGPIE record must be reported with. The line is
# where the record was changed from the game it was made from.
EXPECTED = {
    "challenge_bonus_rack_malformed": (24, "malformed_rack"),
    "challenge_bonus_without_play": (24, "challenge_without_play"),
    "description_after_events": (31, "pragma_after_events"),
    "duplicate_names": (3, "duplicate_name"),
    "duplicate_nicknames": (3, "duplicate_nick"),
    "empty": (0, "empty"),
    "encoding_wrong_place": (20, "misplaced_encoding"),
    "end_game_event_before_game_end": (18, "end_before_end"),
    "end_penalty_rack_malformed": (15, "malformed_rack"),
    "end_points_rack_malformed": (45, "malformed_rack"),
    "end_rack_points_incorrect": (36, "wrong_end_points"),
    "event_after_last_rack": (37, "event_after_last_rack"),
    "exchange_malformed": (6, "tiles_not_in_rack"),
    "exchange_not_in_rack": (6, "tiles_not_in_rack"),
    "first_rack_not_in_bag": (13, "rack_not_drawable"),
    "game_event_off_turn": (15, "out_of_turn"),
    "game_events_overflow": (19, "no_new_tiles"),
    "invalid_challenge_bonus_player_index": (24, "challenge_wrong_player"),
    "invalid_phony_tiles_player_index": (22, "phony_wrong_player"),
    "invalid_tile_placement": (27, "bad_position"),
    "last_rack1_not_in_bag": (14, "rack_not_drawable"),
    "last_rack2_not_in_bag": (13, "rack_not_drawable"),
    "last_rack_penalty_incorrect": (17, "wrong_end_penalty"),
    "malformed_play": (11, "unknown_tile"),
    "malformed_rack": (30, "malformed_rack"),
    "midgame_rack_not_in_bag": (35, "rack_not_drawable"),
    "move_before_player": (3, "event_before_players"),
    "move_event_after_game_end": (45, "event_after_end"),
    "no_matching_token": (10, "malformed_line"),
    "note_before_events": (4, "note_before_events"),
    "pass_rack_malformed": (28, "malformed_rack"),
    "phony_tiles_returned_mismatch": (22, "phony_rack_mismatch"),
    "phony_tiles_returned_with_no_play": (35, "phony_without_play"),
    "play_out_of_bounds": (18, "off_board"),
    "played_tile_not_in_rack": (9, "tiles_not_in_rack"),
    "player_does_not_exist": (30, "unknown_player"),
    "player_number_redundant": (3, "duplicate_player_number"),
    "redundant_pragma": (5, "repeated_pragma"),
    "six_pass_cumulative_scoring_error": (17, "wrong_total"),
    "six_pass_last_rack_malformed": (16, "penalty_rack_mismatch"),
    "standard_cumulative_scoring_error": (15, "wrong_total"),
    "unrecognized_game_variant": (2, "unknown_game_type"),
    "unsupported_character_encoding": (1, "unsupported_encoding"),
}
# Fixtures that are not wrong for a scorekeeper: MAGPIE insists on #lexicon, and its old line-length
# limit is shorter than notes in real games (a complete real game has a 1,472-character note).
NOT_WRONG = {"lexicon_missing", "line_overflow"}


def _name(row: dict[str, str]) -> str:
    return row["file"].split("test__testdata__")[-1].removesuffix(".gcg")


def _finals(row: dict[str, str]) -> list[int]:
    return [int(x) for x in row["final_scores"].split()]


def test_the_index_lists_109_distinct_complete_games_and_45_fixtures() -> None:
    assert len(COMPLETE) == 109
    assert len(FIXTURES) == 45
    assert {_name(r) for r in FIXTURES} == set(EXPECTED) | NOT_WRONG


@pytest.mark.parametrize("row", COMPLETE, ids=lambda r: r["file"])
def test_every_distinct_complete_game_verifies_with_its_recorded_scores(
    row: dict[str, str],
) -> None:
    report = verify((CORPUS / row["file"]).read_bytes())
    finals = _finals(row)
    assert [p.final for p in report.players] == finals
    assert [p.computed for p in report.players] == finals
    assert report.verified
    if row["file"].endswith("r20_peter.gcg"):
        return  # its one finding is checked below
    assert report.findings == []


def test_the_withdrawn_phony_in_r20_peter_is_the_one_wrong_score_reported() -> None:
    report = verify((CORPUS / "liwords/pkg__puzzles__testdata__r20_peter.gcg").read_bytes())
    assert len(report.findings) == 1
    finding = report.findings[0]
    assert (finding.line, finding.code, finding.player) == (19, "wrong_score", "Peter")
    assert (finding.expected, finding.recorded) == (113, 115)
    # Withdrawn at once, so it changes no total: a warning, and the game is verified.
    assert finding.severity == "warning"
    assert report.verified


@pytest.mark.parametrize(
    "row", [r for r in FIXTURES if _name(r) in EXPECTED], ids=lambda r: _name(r)
)
def test_each_malformed_record_is_reported_on_the_line_where_it_is_wrong(
    row: dict[str, str],
) -> None:
    report = verify((CORPUS / row["file"]).read_bytes())
    line, code = EXPECTED[_name(row)]
    found = [f for f in report.findings if (f.line, f.code) == (line, code)]
    assert found, [f.text() for f in report.findings]
    if "expected error" in row["remark"]:
        assert found[0].severity == "error"
        assert not report.verified
    # Nothing as grave is reported before the line where the record goes wrong.
    assert min(f.line for f in report.findings if f.severity == found[0].severity) == line


@pytest.mark.parametrize("name", sorted(NOT_WRONG))
def test_a_missing_lexicon_and_a_long_note_are_not_wrong(name: str) -> None:
    report = verify((CORPUS / f"magpie/test__testdata__{name}.gcg").read_bytes())
    assert report.findings == []


@pytest.mark.parametrize("file", EVERY_FILE)
def test_no_record_in_the_corpus_makes_the_engine_raise(file: str) -> None:
    data = (CORPUS / file).read_bytes()
    report = verify(data, rules="naspa")
    report.board.render()
    for turn in report.turns:
        assert turn.text.startswith(">")
    verify(data, rules="wespa")
    verify(data, rules="home")


@pytest.mark.parametrize("file", EVERY_FILE)
def test_format_then_verify_gives_the_same_scores_and_findings(file: str) -> None:
    data = (CORPUS / file).read_bytes()
    before = verify(data)
    text = canonical_gcg(data)
    after = verify(text)

    def key(report):
        players = [(p.nick, p.final, p.computed) for p in report.players]
        findings = sorted(
            (f.severity, f.code, f.player or "", str(f.expected), str(f.recorded))
            for f in report.findings
        )
        return players, findings

    assert key(after) == key(before)
    # Canonical GCG is a fixed point.
    assert canonical_gcg(text) == text
