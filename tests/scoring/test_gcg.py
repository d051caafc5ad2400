"""Tests for scoring/gcg.py: reading every kind of GCG line, encodings, findings, writing back."""

from __future__ import annotations

import pytest

from scoring import canonical_gcg, parse
from scoring.gcg import (
    CHALLENGE,
    END_POINTS,
    EXCHANGE,
    PASS,
    PHONY,
    PLAY,
    RACK_PENALTY,
    TIME,
    Event,
    Pragma,
    Unread,
    decode,
    write,
)

HEADER = "#player1 a A\n#player2 b B\n"


def only_event(line: str) -> Event:
    """The one event of a record made of the header and ``line`` (on line 3)."""
    record = parse(HEADER + line + "\n")
    assert [f for f in record.findings if f.is_error] == []
    (event,) = record.events
    assert event.line == 3
    return event


def codes(record) -> list[tuple[int, str, str]]:
    return [(f.line, f.severity, f.code) for f in record.findings]


def summary(record) -> list[tuple]:
    return [(e.kind, e.nick, e.rack, e.score, e.total) for e in record.events]


# -- event lines ------------------------------------------------------------------------------


def test_a_play_line_gives_rack_position_word_score_and_total():
    event = only_event(">a: ?AACDER 8D CRAAlED +74 74")
    assert (event.nick, event.kind, event.rack) == ("a", PLAY, "?AACDER")
    assert (event.position, event.word, event.marks) == ("8D", "CRAAlED", "")
    assert (event.score, event.total, event.extra) == (74, 74, "")


def test_a_play_line_without_a_rack_is_read():
    event = only_event(">a: 8H ZA +22 22")
    assert (event.kind, event.rack, event.position, event.word) == (PLAY, "", "8H", "ZA")
    assert (event.score, event.total) == (22, 22)


def test_a_play_with_play_through_in_parentheses_is_read_without_a_rack():
    event = only_event(">a: 8D (RE)TAINS +8 8")
    assert (event.kind, event.position, event.word) == (PLAY, "8D", "(RE)TAINS")


def test_a_pass_is_read():
    event = only_event(">a: U - +0 380")
    assert (event.kind, event.rack, event.score, event.total) == (PASS, "U", 0, 380)


def test_an_exchange_of_named_tiles_is_read():
    event = only_event(">a: SEQSPO? -QO +0 268")
    assert (event.kind, event.rack, event.tiles, event.count) == (EXCHANGE, "SEQSPO?", "QO", None)
    assert (event.score, event.total) == (0, 268)


def test_an_exchange_of_a_number_of_tiles_is_read_as_a_count():
    event = only_event(">a: IIIU -4 +0 349")
    assert (event.kind, event.rack, event.tiles, event.count) == (EXCHANGE, "IIIU", "", 4)
    assert event.total == 349


def test_a_withdrawn_phony_is_read_with_its_negative_score():
    event = only_event(">a: DEIILTZ -- -24 55")
    assert (event.kind, event.rack, event.score, event.total) == (PHONY, "DEIILTZ", -24, 55)


def test_the_old_form_of_a_withdrawn_phony_with_plus_zero_is_read():
    event = only_event(">a: LWGRAKE -- +0 59")
    assert (event.kind, event.rack, event.score, event.total) == (PHONY, "LWGRAKE", 0, 59)


def test_a_challenge_bonus_with_an_empty_rack_field_is_a_challenge_not_end_points():
    event = only_event(">a:  (challenge) +5 534")
    assert (event.kind, event.rack, event.score, event.total) == (CHALLENGE, "", 5, 534)


def test_a_challenge_bonus_with_unknown_in_the_rack_field_keeps_it_as_written():
    event = only_event(">a: UNKNOWN (challenge) +5 477")
    assert (event.kind, event.rack, event.score, event.total) == (CHALLENGE, "UNKNOWN", 5, 477)


def test_end_points_with_an_empty_rack_field_are_read():
    event = only_event(">a:  (IQ) +22 491")
    assert (event.kind, event.rack, event.tiles) == (END_POINTS, "", "IQ")
    assert (event.score, event.total) == (22, 491)


def test_a_rack_penalty_is_read_with_both_racks():
    event = only_event(">a: FWLI (FWLI) -10 426")
    assert (event.kind, event.rack, event.tiles) == (RACK_PENALTY, "FWLI", "FWLI")
    assert (event.score, event.total) == (-10, 426)


def test_a_negative_running_total_is_read():
    event = only_event(">a: EIOQRRT (EIOQRRT) -16 -16")
    assert (event.kind, event.score, event.total) == (RACK_PENALTY, -16, -16)


def test_a_time_penalty_is_read_with_or_without_a_rack():
    with_rack = only_event(">a: ISBALI (time) -10 409")
    without = only_event(">a:  (time) -20 358")
    assert (with_rack.kind, with_rack.rack, with_rack.score, with_rack.total) == (
        TIME,
        "ISBALI",
        -10,
        409,
    )
    assert (without.kind, without.rack, without.score, without.total) == (TIME, "", -20, 358)


@pytest.mark.parametrize(("written", "marks"), [("QUIXOTE*", "*"), ("QUIXOTE#!", "#!")])
def test_validity_marks_after_a_word_are_kept_apart_from_the_word(written, marks):
    event = only_event(f">a: AEIOQTU 8H {written} +152 152")
    assert (event.word, event.marks) == ("QUIXOTE", marks)


def test_tokens_after_the_running_total_are_kept_as_extra():
    event = only_event(">a: ABE 8H AB +8 8 BE, ET, DO")
    assert (event.score, event.total, event.extra) == (8, 8, "BE, ET, DO")


def test_padded_columns_and_lower_case_positions_are_read():
    event = only_event(">a: DEMJNOT  8d   JETON           +40   40")
    assert (event.rack, event.position, event.word, event.score, event.total) == (
        "DEMJNOT",
        "8d",
        "JETON",
        40,
        40,
    )


# -- notes and line ends ----------------------------------------------------------------------


def test_a_note_attaches_to_the_event_before_it_with_its_continuation_lines():
    record = parse(
        HEADER + ">a: 8H AB +8 8\n#note a fine play\nit opens the board\n\n"
        "#note a second note\n>b: - +0 0\n"
    )
    assert codes(record) == []
    first, second = record.events
    assert first.notes == ["a fine play\nit opens the board", "a second note"]
    assert second.notes == []
    assert [i for i in record.items if isinstance(i, Pragma) and i.keyword == "note"] == []


@pytest.mark.parametrize("newline", ["\r\n", "\r", "\n"])
def test_crlf_cr_and_lf_line_ends_give_the_same_events_on_the_same_lines(newline):
    text = newline.join(["#player1 a A", "#player2 b B", ">a: 8H AB +8 8", ">b: - +0 0", ""])
    record = parse(text)
    assert codes(record) == []
    assert [(e.line, e.kind) for e in record.events] == [(3, PLAY), (4, PASS)]
    assert [p.nick for p in record.players] == ["a", "b"]


# -- encodings --------------------------------------------------------------------------------


def test_legacy_bytes_without_a_header_decode_as_windows_1252():
    record = parse(b"#player1 a Andr\xe9\n#player2 b B\n")
    assert record.encoding == "cp1252"
    assert record.players[0].name == "Andr\u00e9"
    assert codes(record) == []


def test_utf_8_bytes_without_a_header_decode_as_utf_8():
    record = parse("#player1 a Andr\u00e9\n#player2 \u00farsula B\n".encode())
    assert record.encoding == "utf-8"
    assert record.players[0].name == "Andr\u00e9"
    assert record.players[1].nick == "\u00farsula"
    assert codes(record) == []


def test_a_declared_iso_8859_1_encoding_is_used():
    # b"\xc3\xa9" is "é" in UTF-8, but the header says ISO-8859-1: two characters.
    record = parse(b"#character-encoding ISO-8859-1\n#player1 a Andr\xc3\xa9\n#player2 b B\n")
    assert record.encoding == "latin-1"
    assert record.players[0].name == "Andr\u00c3\u00a9"
    assert codes(record) == []


def test_a_declared_utf_8_encoding_is_used():
    text, encoding, findings = decode(b"#character-encoding UTF-8\n#player1 a Andr\xc3\xa9\n")
    assert (encoding, findings) == ("utf-8", [])
    assert text.splitlines()[1] == "#player1 a Andr\u00e9"


def test_an_unsupported_encoding_is_an_error_on_line_1():
    record = parse(b"#character-encoding iso8859-6\n#player1 a A\n#player2 b B\n")
    assert codes(record) == [(1, "error", "unsupported_encoding")]
    assert record.findings[0].recorded.lower() == "iso8859-6"


def test_an_encoding_pragma_after_the_first_line_is_a_warning():
    record = parse("#player1 a A\n#character-encoding UTF-8\n#player2 b B\n")
    assert codes(record) == [(2, "warning", "misplaced_encoding")]


def test_a_declared_encoding_is_used_when_lines_end_in_cr_only():
    record = parse(b"#character-encoding ISO-8859-1\r#player1 a Andr\xc3\xa9\r#player2 b B\r")
    assert record.encoding == "latin-1"
    assert record.players[0].name == "Andr\u00c3\u00a9"


# -- pragmata ---------------------------------------------------------------------------------


def test_players_are_read_with_nick_and_full_name():
    record = parse("#player1 jvc Josh Van Castle\n#player2 b B\n")
    assert [(p.number, p.nick, p.name) for p in record.players] == [
        (1, "jvc", "Josh Van Castle"),
        (2, "b", "B"),
    ]


def test_two_players_with_the_same_nick_is_an_error():
    record = parse("#player1 a Ann\n#player2 a Andy\n")
    assert codes(record) == [(2, "error", "duplicate_nick")]
    assert [p.nick for p in record.players] == ["a"]


def test_the_same_player_number_twice_is_an_error():
    record = parse("#player1 a Ann\n#player1 b Bob\n")
    assert codes(record) == [(2, "error", "duplicate_player_number")]


def test_a_repeated_title_is_a_warning_naming_the_first_line():
    record = parse(HEADER + "#title One\n#title Two\n")
    assert codes(record) == [(4, "warning", "repeated_pragma")]
    assert "first on line 3" in record.findings[0].message
    assert record.pragma("title") == "One"


def test_a_note_before_the_first_event_is_a_warning():
    record = parse("#note before anything\n" + HEADER + ">a: 8H AB +8 8\n")
    assert codes(record) == [(1, "warning", "note_before_events")]


def test_a_header_pragma_after_the_events_is_a_warning():
    record = parse(HEADER + ">a: 8H AB +8 8\n#lexicon CSW21\n")
    assert codes(record) == [(4, "warning", "pragma_after_events")]


def test_an_unknown_game_type_is_a_warning():
    record = parse(HEADER + "#game-type lonify\n")
    assert codes(record) == [(3, "warning", "unknown_game_type")]
    assert record.findings[0].recorded == "lonify"


def test_a_known_game_type_and_unknown_pragmata_give_no_finding():
    record = parse(HEADER + "#game-type classic\n#style wsc2001\n")
    assert codes(record) == []
    assert record.pragma("style") == "wsc2001"


def test_a_player_line_separated_by_tabs_is_read():
    record = parse("#player1\tjvc\tJosh Van Castle\n#player2 b B\n")
    assert [(p.number, p.nick, p.name) for p in record.players] == [
        (1, "jvc", "Josh Van Castle"),
        (2, "b", "B"),
    ]


# -- lines that cannot be read ----------------------------------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        "this is not gcg",
        ">a: 8H AB",  # no score and total
        ">a 8H AB +8 8",  # no colon after the nick
        ">a: AB 8H AB 8 8",  # a score without its sign
        ">a: - +0 0 extra",  # tokens after the total of a pass
        ">a:",
        ">a: 8H AB +8 1O",  # a letter O in the total
    ],
)
def test_an_unreadable_line_is_a_malformed_line_error_and_is_kept(line):
    record = parse(HEADER + line + "\n>b: - +0 0\n")
    assert codes(record) == [(3, "error", "malformed_line")]
    assert [(i.line, i.text) for i in record.items if isinstance(i, Unread)] == [(3, line)]
    assert [(e.line, e.kind) for e in record.events] == [(4, PASS)]


def test_a_total_with_a_letter_in_it_is_a_malformed_line_also_after_a_rack():
    line = ">a: AB 8H AB +8 1O"
    record = parse(HEADER + line + "\n")
    assert codes(record) == [(3, "error", "malformed_line")]
    assert [(i.line, i.text) for i in record.items if isinstance(i, Unread)] == [(3, line)]


@pytest.mark.parametrize("text", ["", "   \n\n", b"", b"\r\n"])
def test_an_empty_record_gives_one_empty_error(text):
    record = parse(text)
    assert codes(record) == [(0, "error", "empty")]
    assert record.items == []


@pytest.mark.parametrize(
    "data",
    [b"\xff\xfe\x00>", b">>>>:::", b"#", b">:", b"#player1", b"#player9 x", b"\x00\x01\x02"],
)
def test_reading_never_raises(data):
    record = parse(data)
    assert isinstance(record.findings, list)


# -- writing ----------------------------------------------------------------------------------

MESSY = (
    "#player1   a Ann A\n"
    "#player2 b B\n"
    "#title   Final\n"
    ">a:   AB   8h   AB  +8   8  BE, ET\n"
    "#note nice\n"
    "second line of the note\n"
    "\n"
    ">b: ABCDEFG  h7  A.E   +3  3\n"
    ">a: ?XYZ  -XYZ  +0  8\n"
    ">b: ... what?\n"
    ">b:  (challenge) +5 8\n"
)


def test_write_normalises_spacing_and_upper_cases_positions():
    lines = write(parse(MESSY)).splitlines()
    assert lines == [
        "#character-encoding UTF-8",
        "#player1 a Ann A",
        "#player2 b B",
        "#title Final",
        ">a: AB 8H AB +8 8 BE, ET",
        "#note nice",
        "second line of the note",
        ">b: ABCDEFG H7 A.E +3 3",
        ">a: ?XYZ -XYZ +0 8",
        ">b: ... what?",
        ">b: (challenge) +5 8",
    ]


def test_write_starts_with_a_utf_8_header_whatever_the_record_declared():
    latin = parse(b"#character-encoding ISO-8859-1\n#player1 a Andr\xe9\n#player2 b B\n")
    written = write(latin)
    assert written.splitlines()[:2] == ["#character-encoding UTF-8", "#player1 a Andr\u00e9"]
    assert written.count("#character-encoding") == 1
    again = parse(written.encode("utf-8"))
    assert again.players[0].name == "Andr\u00e9"


def test_canonical_gcg_writes_play_through_letters_and_parentheses_as_dots():
    record = HEADER + ">a: 8f TAIN +8 8\n>b: 8d DETAINS +10 10\n>a: h7 A(I)E +3 11\n"
    assert canonical_gcg(record).splitlines() == [
        "#character-encoding UTF-8",
        "#player1 a A",
        "#player2 b B",
        ">a: 8F TAIN +8 8",
        ">b: 8D DE....S +10 10",
        ">a: H7 A.E +3 11",
    ]


def test_canonical_gcg_keeps_unreadable_lines_notes_marks_and_extra_tokens():
    record = (
        HEADER + ">a: 8H ZA* +22 22 AZ\n#note risky\nvery\nthis is junk?\n>b: I7 BAN +9 9\n"
        "nonsense here\n"
    )
    lines = canonical_gcg(record).splitlines()
    assert lines == [
        "#character-encoding UTF-8",
        "#player1 a A",
        "#player2 b B",
        ">a: 8H ZA* +22 22 AZ",
        "#note risky",
        "very",
        "this is junk?",
        ">b: I7 B.N +9 9",
        "nonsense here",
    ]


ROUND_TRIP = (
    "#player1 a A\n#player2 b B\n"
    ">a: ?AB 8h aB +6 6\n"
    ">b: XYZ -XY +0 0\n"
    ">a: CD I7 C.D +12 18\n"
    ">a: CD -- -12 6\n"
    ">b: IIIU -4 +0 0\n"
    ">a: FOO 7I FOO +9 15\n"
    ">a:  (challenge) +5 20\n"
    ">b: EE (EE) -2 -2\n"
    ">a:  (QI) +22 42\n"
    ">b: (time) -10 -12\n"
)


def test_parsing_what_was_written_gives_the_same_events():
    first = parse(ROUND_TRIP)
    second = parse(write(first))
    assert summary(second) == summary(first)
    assert [(e.kind, e.tiles, e.count, e.word) for e in second.events] == [
        (e.kind, e.tiles, e.count, e.word) for e in first.events
    ]
    assert [e.kind for e in first.events] == [
        PLAY,
        EXCHANGE,
        PLAY,
        PHONY,
        EXCHANGE,
        PLAY,
        CHALLENGE,
        RACK_PENALTY,
        END_POINTS,
        TIME,
    ]


def test_canonical_gcg_reads_back_to_the_same_events():
    first = parse(ROUND_TRIP)
    second = parse(canonical_gcg(ROUND_TRIP))
    assert summary(second) == summary(first)


def test_writing_keeps_the_continuation_lines_of_a_note_before_the_first_event():
    record = parse("#note about this game\nit was the final\n" + HEADER)
    assert "it was the final" in write(record)
