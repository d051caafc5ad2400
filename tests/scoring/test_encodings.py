"""scoring/text.py: one rule turns a file's bytes into text, for records, the CLI and the app."""

from __future__ import annotations

import codecs
import io
from pathlib import Path

import pytest
from scoring_support import corpus_game

from scoring import canonical_gcg, verify
from scoring.__main__ import main
from scoring.gcg import parse
from scoring.text import decode, decode_with_encoding, sniff

TEXT = "#player1 zoë Zoë Łukasiewicz\n#player2 bob Bob\n"


@pytest.mark.parametrize(
    ("data", "codec"),
    [
        (TEXT.encode("utf-8"), "utf-8"),
        (codecs.BOM_UTF8 + TEXT.encode("utf-8"), "utf-8-sig"),
        (codecs.BOM_UTF16_LE + TEXT.encode("utf-16-le"), "utf-16"),
        (codecs.BOM_UTF16_BE + TEXT.encode("utf-16-be"), "utf-16"),
        (codecs.BOM_UTF32_LE + TEXT.encode("utf-32-le"), "utf-32"),
        (codecs.BOM_UTF32_BE + TEXT.encode("utf-32-be"), "utf-32"),
        (TEXT.encode("utf-16-le"), "utf-16-le"),
        (TEXT.encode("utf-16-be"), "utf-16-be"),
    ],
)
def test_every_unicode_form_reads_as_the_same_text(data: bytes, codec: str) -> None:
    assert decode_with_encoding(data) == (TEXT, codec)
    assert decode(data) == TEXT


def test_legacy_bytes_read_as_windows_1252_and_undefined_bytes_as_latin_1() -> None:
    assert decode_with_encoding(b"Ren\xe9e \x93quoted\x94") == ("Renée “quoted”", "cp1252")
    # 0x81 is undefined in Windows-1252: ISO-8859-1 reads any byte.
    assert decode_with_encoding(b"a\x81b\xe9") == ("a\x81bé", "latin-1")


def test_a_stray_nul_is_not_taken_for_utf_16() -> None:
    data = b"#player1 a A\n#player2 b\x00 B\n>a: AB 8H AB +8 8\n"
    assert sniff(data) is None
    assert decode(data) == data.decode("ascii")


def test_broken_text_after_a_mark_never_raises() -> None:
    assert decode(codecs.BOM_UTF16_LE + b"a\x00b") == "a\ufffd"  # an odd byte left over
    assert decode(codecs.BOM_UTF8 + b"\xff") == "\ufffd"


def test_encoding_the_text_with_the_named_codec_gives_the_file_back() -> None:
    for data in (
        codecs.BOM_UTF8 + TEXT.encode(),
        codecs.BOM_UTF16_LE + TEXT.encode("utf-16-le"),
        TEXT.encode("utf-16-le"),
        b"Ren\xe9e\n",
        b"a\x81b\n",
    ):
        text, codec = decode_with_encoding(data)
        assert text.encode(codec) == data


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-8-sig"])
def test_a_real_record_in_utf_16_or_32_verifies_as_cleanly_as_in_utf_8(codec: str) -> None:
    data = corpus_game("macondo/gcgio__testdata__polish_endgame.gcg")
    plain = verify(data)
    assert plain.verified and plain.findings == []
    other = data.decode("utf-8").encode(codec)
    report = verify(other)
    assert [f.text() for f in report.findings] == []
    assert [(p.nick, p.final, p.computed) for p in report.players] == [
        (p.nick, p.final, p.computed) for p in plain.players
    ]
    assert canonical_gcg(other) == canonical_gcg(data)


def test_a_utf_16_record_names_its_players_right() -> None:
    record = parse(codecs.BOM_UTF16_LE + TEXT.encode("utf-16-le"))
    assert record.encoding == "utf-16"
    assert [(p.nick, p.name) for p in record.players] == [
        ("zoë", "Zoë Łukasiewicz"),
        ("bob", "Bob"),
    ]
    assert record.findings == []


def test_the_command_line_reads_a_utf_16_record(tmp_path: Path) -> None:
    path = tmp_path / "game.gcg"
    path.write_bytes(
        "#player1 zoë Zoë\n#player2 bob Bob\n>zoë: DINNVWY 8D WINDY +32 32\n".encode("utf-16")
    )
    out = io.StringIO()
    assert main(["verify", str(path)], out=out) == 0
    assert out.getvalue().splitlines() == [
        f"{path}: VERIFIED (zoë 32, bob 0)",
        "  line 3: warning: not_finished: "
        "the record stops before the game ended; the last totals recorded stand",
        "1 of 1 record(s) verified, 0 with errors",
    ]
