"""Command line: ``python -m scoring verify|show|format``."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn, TextIO

from . import gcg
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


def _print_report(path: str, report: Report, out: TextIO) -> None:
    scores = ", ".join(f"{p.nick} {p.final}" for p in report.players)
    if report.verified:
        print(f"{path}: VERIFIED ({scores})", file=out)
    else:
        print(f"{path}: {len(report.errors)} error(s) ({scores})", file=out)
    for finding in report.findings:
        print(f"  {finding.text()}", file=out)


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
            results.append(report.as_dict(path))
        else:
            _print_report(path, report, out)
    if args.json:
        json.dump(results, out, ensure_ascii=False, indent=2)
        out.write("\n")
    else:
        total = len(args.files)
        print(f"{total - failed} of {total} record(s) verified, {failed} with errors", file=out)
    return 1 if failed else 0


def _show(args: argparse.Namespace, out: TextIO) -> int:
    rules, tiles, lexicons = _settings(args)
    record = gcg.parse(_read(args.file))
    report = verify(record, rules=rules, tiles=tiles, lexicons=lexicons, upto=args.turn)
    print(report.board.render(), file=out)
    shown = report.turns[-1] if report.turns else None
    if shown:
        print(f"after line {shown.line}: {shown.text}", file=out)
    for p in report.players:
        last = next((t.computed_total for t in reversed(report.turns) if t.nick == p.nick), 0)
        print(f"{p.nick} ({p.name}): {p.final} recorded, {last} computed", file=out)
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
