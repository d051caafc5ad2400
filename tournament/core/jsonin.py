"""The one reader of JSON that comes from outside: request bodies and fields, uploaded files,
a backup's tables. Every JSON text this app reads from a visitor or a file goes through `read`.

`json.loads` parses as deep as the text nests, and a text of 100,000 brackets ends in a
RecursionError (a 500) in the parser or in the first code that walks what it made. Here the
nesting is bounded (`MAX_DEPTH`) and a refusal is a `Refused` with its reason as a sentence's
end, which the caller puts in its own sentence ("Not added: the turns sent could not be read:
…"), never a traceback.

`cost` bounds the memory `json.loads` takes for a text before it is parsed, from counts made at
C speed (its brackets and commas): a reader of large files (a backup) refuses by it first.
"""

from __future__ import annotations

import json
import re
from typing import Any

from django.utils.translation import gettext

MAX_DEPTH = 64  # lists and objects within each other; Spread's own deepest is under 10

# Measured (CPython 3.11, tracemalloc): an object as json.loads makes it takes at most ~200
# bytes with its first member (`{"a":1}`: 192), a further member or list item at most ~72
# (a short string of its own: 63; `{}` in a list: 72); strings' characters at most 2 bytes each
# as parsed, and the text itself, decoded, 1, 2 or 4 bytes a character by its widest.
_OPEN_COST = 200
_ITEM_COST = 72
_WIDE = re.compile(rb"[\xf0-\xf4]")
_NARROW = re.compile(rb"[\xc2-\xef]")


class Refused(ValueError):
    """Why a JSON text was not read: the end of a sentence (no capital, no full stop)."""


def cost(raw: bytes | bytearray) -> int:
    """An upper bound, in bytes, on the memory reading `raw` takes: the text decoded and what
    `json.loads` makes of it."""
    width = 4 if _WIDE.search(raw) else 2 if _NARROW.search(raw) else 1
    opens = raw.count(b"{") + raw.count(b"[")
    return len(raw) * (width + 2) + _OPEN_COST * opens + _ITEM_COST * raw.count(b",")


def _too_deep(value: Any, most: int) -> bool:
    """Whether `value` nests lists and objects more than `most` deep (no recursion)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item
        for child in children:
            if isinstance(child, (list, dict)):
                if depth + 1 > most:
                    return True
                stack.append((child, depth + 1))
    return False


def read(text: str | bytes | bytearray, most_bytes: int | None = None) -> Any:
    """The value of a JSON text, at most `most_bytes` long and `MAX_DEPTH` deep; `Refused`
    says why not."""
    if most_bytes is not None and len(text) > most_bytes:
        raise Refused(gettext("it is longer than %(n)s bytes") % {"n": most_bytes})
    deep = gettext("it nests more than %(n)s lists or objects within each other") % {"n": MAX_DEPTH}
    try:
        value = json.loads(text)
    except RecursionError:
        raise Refused(deep) from None
    except (ValueError, TypeError):
        raise Refused(gettext("it is not JSON")) from None
    if isinstance(value, (list, dict)):
        opens = (
            text.count("[") + text.count("{")
            if isinstance(text, str)
            else text.count(b"[") + text.count(b"{")
        )
        if opens > MAX_DEPTH and _too_deep(value, MAX_DEPTH):
            raise Refused(deep)
    return value
