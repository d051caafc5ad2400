"""The engine's catalog: every sentence the engines write, as gettext message ids.

`entries()` is made from the tables themselves (`scoring.messages.MESSAGES`, the pairing
engine's `TEMPLATES`, the counted nouns their templates and specs name, the specs' words, the
separators, the ordinal and the command line's lines), so the catalog cannot miss a message.
``python -m tournament.engine.catalog`` writes the template ``scoring/locale/spread-engine.pot``;
``make engine-messages`` merges it into each language's ``.po`` (msgmerge) and compiles the
``.mo`` (msgfmt). `read_po` reads a ``.po`` file back, for the tests that hold the catalogs
complete and the ``.mo`` files in step.
"""

from __future__ import annotations

import ast
import re
import string
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from scoring import messages as findings
from scoring.i18n import DOMAIN, LANGUAGES, LOCALE_DIR
from tournament.engine.pairing import messages as pairing

POT = LOCALE_DIR / f"{DOMAIN}.pot"

# Nouns the specs count without naming them in a template (`limit`, `byes`), and the command
# line's own.
SPEC_NOUNS = ("repeat", "bye", "error")
SEPARATORS = (", ", "; ", " or ")
CLI = (
    "line {line}",
    "record",
    "error",
    "warning",
    "{path}: VERIFIED ({scores})",
    "{verified} of {total} record(s) verified, {failed} with errors",
    "after line {line}: {text}",
    "{nick} ({name}): {final} recorded, {computed} computed",
)


@dataclass(frozen=True)
class Entry:
    context: str
    msgid: str
    plural: str | None = None
    comment: str = ""
    # A .po file's translation: one form, or the plural forms in order.
    msgstr: tuple[str, ...] = field(default=(), compare=False)
    fuzzy: bool = field(default=False, compare=False)

    @property
    def key(self) -> tuple[str, str]:
        return (self.context, self.msgid)


def fields(template: str) -> list[tuple[str, str, str]]:
    """A template's fields as (name, conversion, spec), in order."""
    return [
        (name, conversion or "", spec or "")
        for _, name, spec, conversion in string.Formatter().parse(template)
        if name is not None
    ]


def _nouns(templates: Iterable[str]) -> set[str]:
    return {spec[1:] for t in templates for _, _, spec in fields(t) if spec.startswith("#")}


def entries() -> list[Entry]:
    """Every message id of the engine's catalog, in a stable order."""
    out = [
        Entry(f"finding:{key}", text, comment=f"finding {key}")
        for key, text in findings.MESSAGES.items()
    ]
    out += [
        Entry(f"pairing:{code}", text, comment=f"pairing {code}")
        for code, text in pairing.TEMPLATES.items()
        if code != "legacy"
    ]
    nouns = _nouns([*findings.MESSAGES.values(), *pairing.TEMPLATES.values()]) | set(SPEC_NOUNS)
    for noun in sorted(nouns):
        english = f"{{n}} {noun}(s)"
        out.append(Entry("counted", english, english, comment=f"{{n}} and the noun {noun!r}"))
    out += [Entry("word", w) for w in (*findings.WORDS, *pairing.WORDS)]
    out += [Entry("list separator", s, comment=f"{s!r} between items") for s in SEPARATORS]
    out.append(Entry("ordinal", "{n}th", comment="a place: 1st, 2nd, 3rd, 4th"))
    out += [Entry("cli", c, comment="python -m scoring") for c in CLI]
    return out


# --------------------------------------------------------------------------- .po text


def _quote(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


def _entry_text(e: Entry, forms: int) -> str:
    lines = [f"#. {e.comment}"] if e.comment else []
    if "{" in e.msgid:
        lines.append("#, python-brace-format")
    lines += [f"msgctxt {_quote(e.context)}", f"msgid {_quote(e.msgid)}"]
    if e.plural is not None:
        lines.append(f"msgid_plural {_quote(e.plural)}")
        lines += [f'msgstr[{i}] ""' for i in range(forms)]
    else:
        lines.append('msgstr ""')
    return "\n".join(lines) + "\n"


def pot() -> str:
    header = (
        "# The engine's catalog template, written by python -m tournament.engine.catalog.\n"
        'msgid ""\n'
        'msgstr ""\n'
        '"Project-Id-Version: spread-engine\\n"\n'
        '"MIME-Version: 1.0\\n"\n'
        '"Content-Type: text/plain; charset=UTF-8\\n"\n'
        '"Content-Transfer-Encoding: 8bit\\n"\n'
        '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n'
    )
    return "\n".join([header, *(_entry_text(e, 2) for e in entries())])


_LINE = re.compile(r'^(msgctxt|msgid|msgid_plural|msgstr(?:\[(\d+)\])?)\s+(".*")\s*$')


def _unquote(text: str) -> str:
    value = ast.literal_eval(text)
    assert isinstance(value, str)
    return value


def _blocks(text: str) -> Iterator[list[str]]:
    block: list[str] = []
    for line in text.splitlines():
        if line.strip():
            block.append(line)
        elif block:
            yield block
            block = []
    if block:
        yield block


def read_po(text: str) -> tuple[dict[str, str], list[Entry]]:
    """A ``.po`` file's header (as a dict) and its entries with their translations."""
    header: dict[str, str] = {}
    found: list[Entry] = []
    for block in _blocks(text):
        flags = " ".join(line[2:] for line in block if line.startswith("#,"))
        comment = " ".join(line[3:] for line in block if line.startswith("#."))
        parts: dict[str, str] = {}
        forms: dict[int, str] = {}
        last: tuple[str, int | None] | None = None
        for line in block:
            if line.startswith("#"):
                continue
            if line.startswith('"') and last is not None:  # a continued string
                name, index = last
                if index is None:
                    parts[name] += _unquote(line)
                else:
                    forms[index] += _unquote(line)
                continue
            match = _LINE.match(line)
            if match is None:
                raise ValueError(f"not a .po line: {line!r}")
            keyword, index_text, quoted = match.groups()
            if index_text is not None:
                forms[int(index_text)] = _unquote(quoted)
                last = ("msgstr", int(index_text))
            else:
                parts[keyword] = _unquote(quoted)
                last = (keyword, None)
        if parts.get("msgid") == "" and "msgctxt" not in parts:
            for row in parts.get("msgstr", "").splitlines():
                name, _, value = row.partition(":")
                header[name.strip()] = value.strip()
            continue
        msgstr = tuple(forms[i] for i in sorted(forms)) if forms else (parts.get("msgstr", ""),)
        found.append(
            Entry(
                parts.get("msgctxt", ""),
                parts["msgid"],
                parts.get("msgid_plural"),
                comment,
                msgstr,
                "fuzzy" in flags,
            )
        )
    return header, found


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def translated_languages() -> tuple[str, ...]:
    return tuple(lang for lang in LANGUAGES if lang != "en")


def main() -> int:
    POT.parent.mkdir(parents=True, exist_ok=True)
    POT.write_text(pot(), encoding="utf-8")
    print(f"{POT}: {len(entries())} messages")
    return 0


if __name__ == "__main__":
    sys.exit(main())
