"""What a check found: line, player, stable code and its parameters, expected and recorded values.

The sentence is made from the code and parameters (``scoring.messages``), never stored.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from .i18n import translator
from .messages import render

ERROR = "error"
WARNING = "warning"


@dataclass(frozen=True)
class Finding:
    line: int  # 1-based line of the record; 0 for the record as a whole
    severity: str  # ERROR or WARNING
    code: str
    params: dict[str, Any] = field(default_factory=dict, hash=False)  # plain JSON values
    player: str | None = None
    expected: Any = None
    recorded: Any = None

    @property
    def is_error(self) -> bool:
        return self.severity == ERROR

    @property
    def message(self) -> str:
        """The finding in English, made from its code and parameters."""
        return render(self.code, self.params)

    def message_in(self, lang: str | None) -> str:
        """The finding in `lang` (``scoring.i18n``), made from its code and parameters."""
        return render(self.code, self.params, lang=lang)

    def as_dict(self) -> dict[str, Any]:
        """As JSON: the sentence as well as the code and parameters it is made from."""
        return {
            "line": self.line,
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
            "params": self.params,
            "player": self.player,
            "expected": self.expected,
            "recorded": self.recorded,
        }

    def text(self, lang: str | None = "en") -> str:
        """One line: where, severity, code, player and the sentence, in English or `lang`."""
        tr = translator(lang)
        where = tr.cli("line {line}").format(line=self.line) if self.line else tr.cli("record")
        who = f" [{self.player}]" if self.player else ""
        return f"{where}: {tr.cli(self.severity)}: {self.code}{who}: {self.message_in(lang)}"


_SAME_TWICE = re.compile(r"(?<![\w-])(-?\w+), not \1(?![\w-])")


def contradicts_itself(finding: Finding) -> bool:
    """A finding whose expected value is the value recorded ("0, not 0") reports nothing wrong:
    the record agrees with the rules, so the engine never says otherwise."""
    if finding.expected is not None and finding.expected == finding.recorded:
        return True
    message = finding.message
    return ", not " in message and _SAME_TWICE.search(message) is not None


class Findings:
    """The findings of one replay, in the order they are made; every part of the replay adds
    to the same one."""

    __slots__ = ("items",)

    def __init__(self, items: Iterable[Finding] = ()) -> None:
        self.items: list[Finding] = list(items)

    def error(
        self,
        line: int,
        code: str,
        params: dict[str, Any] | None = None,
        player: str | None = None,
        expected: Any = None,
        recorded: Any = None,
    ) -> None:
        self.add(Finding(line, ERROR, code, params or {}, player, expected, recorded))

    def warn(
        self,
        line: int,
        code: str,
        params: dict[str, Any] | None = None,
        player: str | None = None,
        expected: Any = None,
        recorded: Any = None,
    ) -> None:
        self.add(Finding(line, WARNING, code, params or {}, player, expected, recorded))

    def add(self, finding: Finding) -> None:
        if not contradicts_itself(finding):
            self.items.append(finding)

    def mark(self) -> int:
        """Where the next finding will stand, to find it again with ``downgrade``."""
        return len(self.items)

    def downgrade(self, at: int, case: str) -> None:
        """Make the error at ``at`` a warning of the given case (a play withdrawn after it)."""
        f = self.items[at]
        self.items[at] = Finding(
            f.line, WARNING, f.code, {**f.params, "case": case}, f.player, f.expected, f.recorded
        )
