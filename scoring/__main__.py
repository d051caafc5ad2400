"""Command line: ``python -m scoring verify|show|format``."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn, TextIO

from . import gcg
from .i18n import LANGUAGES, translator
from .lexicon import LexiconError, Lexicons, load_lexicon
from .replay import Report, canonical_gcg, verify
from .rules import RulesError, Ruleset, load_rules
from .tiles import TileSet, TileSetError, load_tileset

USAGE_ERROR = 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # argparse exits with 2 as well; say it plainly
        self.print_usage(sys.stderr)
        print(f"{self.prog}: {message}", file=sys.stderr)
        raise SystemExit(USAGE_ERROR)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m scoring", description="Replay and verify GCG game records.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--lang",
            default="en",
            choices=LANGUAGES,
            help="the language of the findings and the summary (default en)",
        )
        p.add_argument("--rules", default="auto", help="auto, naspa, wespa, home or a TOML file")
        p.add_argument("--tiles", default="auto", help="auto, a tile set name or a file")
        p.add_argument(
            "--lexicon",
            action="append",
            default=[],
            metavar="FILE",
            help="a word list (KIND:FILE with KIND collins, na, offensive, other)",
        )

    v = sub.add_parser("verify", help="check every move, score and total of each record")
    common(v)
    v.add_argument("--json", action="store_true", help="one JSON array, an object per file")
    v.add_argument("files", nargs="+", metavar="FILE")
    s = sub.add_parser("show", help="the board after a turn, with the scores")
    common(s)
    s.add_argument("--turn", type=int, default=None, help="number of events to replay")
    s.add_argument("file", metavar="FILE")
    f = sub.add_parser("format", help="the record as canonical GCG")
    common(f)
    f.add_argument("file", metavar="FILE")
    return parser


def _settings(args: argparse.Namespace) -> tuple[str | Ruleset, str | TileSet, Lexicons]:
    rules: str | Ruleset = args.rules if args.rules == "auto" else load_rules(args.rules)
    tiles: str | TileSet = args.tiles if args.tiles == "auto" else load_tileset(args.tiles)
    return rules, tiles, Lexicons(load_lexicon(spec) for spec in args.lexicon)


def _read(path: str) -> bytes:
    return Path(path).read_bytes()


def _print_report(path: str, report: Report, out: TextIO, lang: str) -> None:
    tr = translator(lang)
    scores = tr.join(f"{p.nick} {p.final}" for p in report.players)
    if report.verified:
        print(tr.cli("{path}: VERIFIED ({scores})").format(path=path, scores=scores), file=out)
    else:
        errors = tr.counted(len(report.errors), "error")
        print(f"{path}: {errors} ({scores})", file=out)
    for finding in report.findings:
        print(f"  {finding.text(lang)}", file=out)


def _verify(args: argparse.Namespace, out: TextIO) -> int:
    rules, tiles, lexicons = _settings(args)
    results = []
    failed = 0
    for path in args.files:
        try:
            data = _read(path)
        except OSError as exc:
            print(f"python -m scoring: cannot read {path}: {exc.strerror}", file=sys.stderr)
            return USAGE_ERROR
        report = verify(data, rules=rules, tiles=tiles, lexicons=lexicons)
        failed += not report.verified
        if args.json:
            found = report.as_dict(path)
            for shown, finding in zip(found["findings"], report.findings, strict=True):
                shown["message"] = finding.message_in(args.lang)
            results.append(found)
        else:
            _print_report(path, report, out, args.lang)
    if args.json:
        json.dump(results, out, ensure_ascii=False, indent=2)
        out.write("\n")
    else:
        total = len(args.files)
        summary = translator(args.lang).cli(
            "{verified} of {total} record(s) verified, {failed} with errors"
        )
        print(summary.format(verified=total - failed, total=total, failed=failed), file=out)
    return 1 if failed else 0


def _show(args: argparse.Namespace, out: TextIO) -> int:
    rules, tiles, lexicons = _settings(args)
    record = gcg.parse(_read(args.file))
    report = verify(record, rules=rules, tiles=tiles, lexicons=lexicons, upto=args.turn)
    print(report.board.render(), file=out)
    tr = translator(args.lang)
    shown = report.turns[-1] if report.turns else None
    if shown:
        after = tr.cli("after line {line}: {text}")
        print(after.format(line=shown.line, text=shown.text), file=out)
    for p in report.players:
        last = next((t.computed_total for t in reversed(report.turns) if t.nick == p.nick), 0)
        line = tr.cli("{nick} ({name}): {final} recorded, {computed} computed")
        print(line.format(nick=p.nick, name=p.name, final=p.final, computed=last), file=out)
    return 0


def _format(args: argparse.Namespace, out: TextIO) -> int:
    rules, tiles, lexicons = _settings(args)
    out.write(canonical_gcg(_read(args.file), rules=rules, tiles=tiles, lexicons=lexicons))
    return 0


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    args = _parser().parse_args(argv)
    try:
        if args.command == "verify":
            return _verify(args, out)
        if args.command == "show":
            return _show(args, out)
        return _format(args, out)
    except (RulesError, TileSetError, LexiconError, OSError) as exc:
        print(f"python -m scoring: {exc}", file=sys.stderr)
        return USAGE_ERROR


if __name__ == "__main__":
    sys.exit(main())
