"""Text as a reader sees it: names in running text are isolated (U+2068 … U+2069,
`tournament.sentences.isolate`); a test that reads a sentence for its words takes the marks
off with `plain`, and the tests of isolation look for them."""

from __future__ import annotations

from typing import Any

MARKS = str.maketrans("", "", "\u2068\u2069")


def plain(value: Any) -> Any:
    """`value` (a string, or a list or dict of them, as a JSON answer holds) without the
    isolation marks."""
    if isinstance(value, str):
        return value.translate(MARKS)
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value
