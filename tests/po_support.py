"""A small reader and writer of gettext .po files, enough for Spread's catalogs: the tests read
them (complete, placeholders kept, in step with the .mo) and `make messages`' helper fills them."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Entry:
    msgid: str
    msgid_plural: str | None = None
    msgctxt: str | None = None
    msgstr: list[str] = field(default_factory=list)  # one, or one a plural form
    comments: list[str] = field(default_factory=list)  # "#:", "#.", "#," lines as written
    obsolete: bool = False

    @property
    def flags(self) -> set[str]:
        found: set[str] = set()
        for line in self.comments:
            if line.startswith("#,"):
                found |= {f.strip() for f in line[2:].split(",")}
        return found

    @property
    def key(self) -> tuple[str | None, str]:
        return (self.msgctxt, self.msgid)


def _unquote(text: str) -> str:
    return ast.literal_eval(text) if text else ""


def parse(path: Path) -> list[Entry]:
    """The entries of a .po file, the header (msgid "") first."""
    entries: list[Entry] = []
    current: Entry | None = None
    field_name = ""
    comments: list[str] = []

    def finish() -> None:
        nonlocal current
        if current is not None:
            entries.append(current)
        current = None

    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line:
            finish()
            continue
        if line.startswith("#~"):
            continue  # obsolete entries are not read
        if line.startswith("#"):
            if current is not None and field_name:
                finish()
            comments.append(line)
            continue
        keyword, _, rest = line.partition(" ")
        if line.startswith('"'):
            value = _unquote(line)
            assert current is not None
            if field_name.startswith("msgstr"):
                current.msgstr[-1] += value
            else:
                setattr(current, field_name, (getattr(current, field_name) or "") + value)
            continue
        if current is None or (
            keyword in ("msgctxt", "msgid")
            and current.msgid is not None
            and field_name.startswith("msgstr")
        ):
            finish()
            current = Entry(msgid=None, comments=comments)  # type: ignore[arg-type]
            comments = []
        if keyword == "msgctxt":
            current.msgctxt, field_name = _unquote(rest), "msgctxt"
        elif keyword == "msgid":
            current.msgid, field_name = _unquote(rest), "msgid"
        elif keyword == "msgid_plural":
            current.msgid_plural, field_name = _unquote(rest), "msgid_plural"
        elif keyword.startswith("msgstr"):
            current.msgstr.append(_unquote(rest))
            field_name = keyword
    finish()
    return entries


def _quote(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    escaped = escaped.replace("\t", "\\t")
    return f'"{escaped}"'


def _field(name: str, text: str) -> list[str]:
    if "\n" in text[:-1]:
        parts = re.split(r"(?<=\n)", text)
        return [f'{name} ""'] + [_quote(p) for p in parts if p]
    return [f"{name} {_quote(text)}"]


def write(path: Path, entries: list[Entry]) -> None:
    lines: list[str] = []
    for entry in entries:
        lines += entry.comments
        if entry.msgctxt is not None:
            lines += _field("msgctxt", entry.msgctxt)
        lines += _field("msgid", entry.msgid)
        if entry.msgid_plural is not None:
            lines += _field("msgid_plural", entry.msgid_plural)
            for n, text in enumerate(entry.msgstr):
                lines += _field(f"msgstr[{n}]", text)
        else:
            lines += _field("msgstr", entry.msgstr[0] if entry.msgstr else "")
        lines.append("")
    path.write_text("\n".join(lines), encoding="utf-8")


PLACEHOLDER = re.compile(r"%(?:\([^)]+\))?[-+ #0]*\d*(?:\.\d+)?[sdirf%]")


def placeholders(text: str) -> list[str]:
    """The python-format placeholders of a message, sorted (order may change in a language)."""
    return sorted(p for p in PLACEHOLDER.findall(text) if p != "%%")
