"""Text as a reader sees it: names in running text are isolated (U+2068 … U+2069,
`tournament.core.sentences.isolate`, and in HTML `<bdi>` elements); a test that reads a sentence for
its words takes the marks and the isolating elements off with `plain`, and the tests of
isolation look for them."""

from __future__ import annotations

import re
from typing import Any

MARKS = str.maketrans("", "", "\u2066\u2067\u2068\u2069")
BDI = re.compile(r"<bdi(?: [^>]*)?>|</bdi>")


def plain(value: Any) -> Any:
    """`value` (a string, or a list or dict of them, as a JSON answer holds) without the
    isolation marks."""
    if isinstance(value, str):
        return BDI.sub("", value.translate(MARKS))
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value
