"""What a check found: line, player, stable code and its parameters, expected and recorded values.

The sentence is made from the code and parameters (``scoring.messages``), never stored.
"""

from __future__ import annotations

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
