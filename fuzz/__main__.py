"""`python -m fuzz [--seconds N] [--seed S] [TARGET …]`: a long fuzzing run that prints each crash
with a minimal reproducer; exit status 1 when anything crashed, hung or read a file."""

from __future__ import annotations

import argparse
import os
import sys

import django


def main(argv: list[str] | None = None) -> int:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    from .harness import fuzz
    from .targets import targets

    known = {t.name: t for t in targets()}
    parser = argparse.ArgumentParser(prog="python -m fuzz", description=__doc__)
    parser.add_argument("names", nargs="*", metavar="TARGET", help=", ".join(known))
    parser.add_argument("--seconds", type=float, default=60.0, help="per target (default 60)")
    parser.add_argument("--seed", type=int, default=None, help="default: a new one each run")
    args = parser.parse_args(argv)
    unknown = [n for n in args.names if n not in known]
    if unknown:
        parser.error(f"unknown target {', '.join(unknown)}; choose from {', '.join(known)}")
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "big")
    crashed = 0
    for name in args.names or list(known):
        result = fuzz(known[name], seed=seed, seconds=args.seconds)
        print(
            f"{name}: {result.inputs} inputs in {result.seconds:.0f} s (seed {seed}), "
            f"{len(result.crashes)} crash(es)",
            flush=True,
        )
        for crash in result.crashes:
            print(crash.report(), flush=True)
        crashed += len(result.crashes)
    return 1 if crashed else 0


if __name__ == "__main__":
    sys.exit(main())
