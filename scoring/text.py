"""Bytes to text, for every file the project reads: game records, tsh files, rosters, tile sets.

One decision, made the same way everywhere: a byte-order mark says the encoding (UTF-8, UTF-16 or
UTF-32, either byte order); UTF-16 without a mark is recognised by its NUL bytes (what Windows
tools write as "Unicode"); otherwise UTF-8 if the bytes are valid UTF-8, else Windows-1252, else
ISO-8859-1 (which reads any bytes). Never raises on any bytes.
"""

from __future__ import annotations

import codecs

__all__ = ["decode", "decode_with_encoding", "sniff"]

# Longest first: a UTF-32 LE mark begins with the UTF-16 LE one.
_BOMS: tuple[tuple[bytes, str], ...] = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
_SAMPLE = 4096  # bytes looked at to tell UTF-16 without a mark


def sniff(data: bytes) -> str | None:
    """The codec a byte-order mark or a UTF-16 NUL pattern calls for, or None.

    The codec names are Python's: ``utf-8-sig``, ``utf-16`` and ``utf-32`` read the mark (either
    byte order) and drop it, and write one back when text is encoded with them.
    """
    for bom, codec in _BOMS:
        if data.startswith(bom):
            return codec
    if data.find(b"\x00", 0, _SAMPLE) < 0:
        return None
    # Mostly-ASCII text in UTF-16 has a NUL in every other byte; a stray NUL in a text file or
    # a binary file does not show that pattern.
    sample = data[: _SAMPLE - _SAMPLE % 2]
    half = len(sample) // 2
    if half < 2:
        return None
    even = sample[0::2].count(0)
    odd = sample[1::2].count(0)
    if odd >= half * 0.6 and even <= half * 0.05:
        return "utf-16-le"
    if even >= half * 0.6 and odd <= half * 0.05:
        return "utf-16-be"
    return None


def decode_with_encoding(data: bytes) -> tuple[str, str]:
    """The text and the codec it was read with (encoding the text with it gives a like file)."""
    codec = sniff(data)
    if codec is not None:
        try:
            return data.decode(codec), codec
        except UnicodeDecodeError:
            if codec in ("utf-16", "utf-32", "utf-8-sig"):
                # A mark followed by broken text: keep what can be read.
                return data.decode(codec, "replace"), codec
            # A NUL pattern that was not UTF-16 after all: read it as a single-byte file.
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("cp1252"), "cp1252"
    except UnicodeDecodeError:  # five bytes cp1252 leaves undefined
        return data.decode("latin-1"), "latin-1"


def decode(data: bytes) -> str:
    """The text of a file's bytes, whatever its encoding (see the module docstring)."""
    return decode_with_encoding(data)[0]
