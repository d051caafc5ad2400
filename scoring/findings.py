"""What a check found: line, player, short code, plain sentence, expected and recorded values."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

ERROR = "error"
WARNING = "warning"


@dataclass(frozen=True)
class Finding:
    line: int  # 1-based line of the record; 0 for the record as a whole
    severity: str  # ERROR or WARNING
    code: str
    message: str
    player: str | None = None
    expected: Any = None
    recorded: Any = None

    @property
    def is_error(self) -> bool:
        return self.severity == ERROR

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    def text(self) -> str:
        where = f"line {self.line}" if self.line else "record"
        who = f" [{self.player}]" if self.player else ""
        return f"{where}: {self.severity}: {self.code}{who}: {self.message}"
