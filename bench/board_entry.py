"""Board entry, turn by turn: real games of the shared corpus entered through a player's phone
endpoint (`/p/<token>/games/<game>/sheet/turn`), each turn sent as the board sends it (the
record so far and the turn: square, direction, word; pass, exchange, phony, bonus, end), through
Django's test client. Prints each game's turns and the per-turn p50, p99 and slowest request,
and what changing a game's first turn costs (every later turn placed again).
Goal: a turn under 100 ms. Uses a throw-away SQLite file.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
_db = Path(tempfile.mkdtemp()) / "bench.sqlite3"
os.environ["DATABASE_URL"] = f"sqlite:///{_db}"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.core.cache import cache  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402
from django.urls import reverse  # noqa: E402

import scoring  # noqa: E402
from tournament.models import Division, Game, Player, Round, Tournament  # noqa: E402
from tournament.phone import services as phones  # noqa: E402
from tournament.scoresheets import entry  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpus" / "gcg"
GAMES = [  # (file, ruleset): every kind of turn the board enters
    ("liwords/pkg__omgwords__testdata__vs_josh.gcg", "naspa"),
    ("liwords/pkg__stats__testdata__josh_nationals_round_18.gcg", "naspa"),
    ("macondo/gcgio__testdata__noah_vs_peter.gcg", "naspa"),
    ("magpie/test__testdata__success_standard.gcg", "naspa"),
    ("quackle/test__positions__fivepoint.gcg", "wespa"),
]
ROUNDS = 5  # each game entered this many times


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def main() -> int:
    if not CORPUS.is_dir():
        print(f"skipped: {CORPUS} is not there (the shared corpus)")
        return 0
    call_command("migrate", verbosity=0)
    tournament = Tournament.objects.create(name="Bench", slug="bench", public=True)
    client = Client(HTTP_HOST="localhost")
    timings: list[float] = []
    replace: list[float] = []
    pages: list[float] = []
    for n, (name, rules) in enumerate(GAMES):
        division = Division.objects.create(
            tournament=tournament, name=f"D{n}", ruleset=rules, self_report=True
        )
        one = Player.objects.create(division=division, number=1, name="One")
        two = Player.objects.create(division=division, number=2, name="Two")
        Round.objects.create(division=division, number=1, published=True)
        game = Game.objects.create(division=division, round=1, player1=one, player2=two)
        token = phones.issue_link(one)
        url = reverse("phone-sheet-turn", args=[token, game.pk])
        record = (CORPUS / name).read_bytes().decode()
        ruleset = scoring.load_rules(rules)
        read = entry.specs_of(record, rules=ruleset, tiles="english")
        assert read is not None, name
        header, specs = read
        own = []
        for _ in range(ROUNDS):
            text = header
            cache.clear()  # the link's budget: the bench is one phone, many times over
            for spec in specs:
                sent = {"gcg": text, "turns": json.dumps([spec.as_dict()])}
                start = time.perf_counter()
                response = client.post(url, sent)
                own.append(time.perf_counter() - start)
                answer = response.json()
                if response.status_code != 200 or "lines" not in answer:
                    print(f"{name}: {answer}")
                    return 1
                text += "".join(line + "\n" for line in answer["lines"][0])
            # The first turn changed (the same turn sent again): every turn after it placed again.
            sent = {"gcg": header, "turns": json.dumps([s.as_dict() for s in specs])}
            start = time.perf_counter()
            client.post(url, sent)
            replace.append(time.perf_counter() - start)
        # The sheet saved, and its page opened again: the board read back turn by turn.
        page = reverse("phone-sheet", args=[token, game.pk])
        client.post(page, {"gcg": text}, HTTP_X_SPREAD_BOARD="save")
        client.get(page)
        start = time.perf_counter()
        client.get(page)
        pages.append(time.perf_counter() - start)
        report = scoring.verify(text, rules=ruleset)
        original = scoring.verify(record, rules=ruleset)
        same = [p.final for p in report.players] == [p.final for p in original.players]
        finals = "as recorded" if same else "DIFFER"
        print(
            f"{Path(name).name}: {len(specs)} turns, verified {report.verified}, final scores "
            f"{finals}; per turn p50 {statistics.median(own) * 1000:.1f} ms, "
            f"max {max(own) * 1000:.1f} ms"
        )
        timings += own
    ms = [t * 1000 for t in timings]
    print(
        f"every turn of {len(GAMES)} games x {ROUNDS}: {len(ms)} requests, p50 "
        f"{statistics.median(ms):.1f} ms, p99 {percentile(ms, 99):.1f} ms, max {max(ms):.1f} ms"
    )
    whole = [t * 1000 for t in replace]
    print(
        f"a game's first turn changed (all its turns placed again): p50 "
        f"{statistics.median(whole):.1f} ms, max {max(whole):.1f} ms"
    )
    print(
        f"the sheet's page with the saved game on its board: p50 "
        f"{statistics.median(pages) * 1000:.1f} ms, max {max(pages) * 1000:.1f} ms"
    )
    print("goal: a turn under 100 ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
