"""Two attacks on a live server on loopback, each a function that prints its figures beside the
quiet ones (to be registered with the other named attacks):

- `attack_check_flood`: one personal link sends a 240 KB record of 30,000 `#note` lines to its
  scoresheet's live check from 6 connections at once: the public standings' latency during the
  flood beside the quiet one, the attack's answer (status, bytes) and the check's own time, and
  a real game's check (the corpus's records) for comparison.
- `attack_redis_outage`: the shared Redis (a server of the bench's own, on an ephemeral port:
  the machine's Redis is never touched) is killed for 8 s under viewers and players reporting
  their games, started again empty, then killed and started again with what it held before the
  outage (its dump): 5xx answers (beside the quiet phase's), reports lost, and stale pages
  served (a page that, after the reports were recorded, does not show them).

    .venv/bin/python bench/attacks_live.py [check_flood|redis_outage ...]

The server is `python -m config.serve` (as `make serve`, 2 workers) on PostgreSQL: the database
of ATTACKS_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/spread_attacks), dropped and
made afresh. Each attack runs under a minute and stops its server (and Redis) itself.
"""

from __future__ import annotations

import http.client
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import load  # noqa: E402 - the same server, database and shell helpers
from bench.redis_server import RedisServer  # noqa: E402

DATABASE_URL = os.environ.get(
    "ATTACKS_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/spread_attacks"
)
CORPUS = ROOT.parent / "shared" / "corpus" / "gcg"
PLAYERS = 24  # 12 games in round 1
REPORTED = 6  # games both players report during the outage (12 reports)
ATTACK = "#player1 P1 Player 1\n#player2 P2 Player 2\n" + "#note x\n" * 30000

SETUP = r"""
import json
from tournament.phone import services as phones
from tournament.models import Division, Game, Player, Round, Tournament
t = Tournament.objects.create(name="Attacks", slug="attacks", public=True)
d = Division.objects.create(tournament=t, name="A", self_report=True)
people = [Player.objects.create(division=d, number=i + 1, name=f"Player {i + 1}",
                                rating=1500 + 7 * i) for i in range(%(players)d)]
games = [Game.objects.create(division=d, round=1, table=i // 2 + 1, player1=people[i],
                             player2=people[i + 1], first=1) for i in range(0, len(people), 2)]
Round.objects.create(division=d, number=1, published=True)
print("JSON" + json.dumps({
    "tokens": [phones.issue_link(p) for p in people],
    "games": [g.pk for g in games],
}))
"""

COUNT = r"""
import json
from tournament.models import Claim, Game
print("JSON" + json.dumps({
    "recorded": Game.objects.exclude(score1=None).count(),
    "claims": Claim.objects.count(),
}))
"""


def _request(
    port: int, method: str, path: str, body: str = "", headers: dict[str, str] | None = None
) -> tuple[int, bytes, str]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        response = conn.getresponse()
        return response.status, response.read(), response.getheader("Set-Cookie") or ""
    finally:
        conn.close()


class Phone:
    """A player's phone: its CSRF cookie and field, taken from a page of its link."""

    def __init__(self, port: int, token: str, page: str) -> None:
        self.port, self.token = port, token
        status, body, cookie = _request(port, "GET", page)
        csrf = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', body)
        jar = re.search(r"csrftoken=([^;]+)", cookie)
        if status != 200 or csrf is None or jar is None:
            raise RuntimeError(f"{page} answered {status} without a CSRF token")
        self.csrf, self.cookie = csrf.group(1).decode(), jar.group(1)

    def post(self, path: str, fields: dict[str, str]) -> tuple[int, bytes]:
        """A form posted as the link's pages post a small one (urlencoded)."""
        body = urllib.parse.urlencode({"csrfmiddlewaretoken": self.csrf, **fields})
        return self.send(path, body.encode(), "application/x-www-form-urlencoded")

    def multipart(self, fields: dict[str, str]) -> bytes:
        """`fields` (and the CSRF field) as the phone's script sends its FormData."""
        parts = [
            f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'
            for name, value in {"csrfmiddlewaretoken": self.csrf, **fields}.items()
        ]
        return ("".join(parts) + f"--{BOUNDARY}--\r\n").encode()

    def send(self, path: str, body: bytes, content_type: str) -> tuple[int, bytes]:
        headers = {"Content-Type": content_type, "Cookie": f"csrftoken={self.cookie}"}
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            conn.request("POST", path, body=body, headers=headers)
            response = conn.getresponse()
            return response.status, response.read()
        finally:
            conn.close()


BOUNDARY = "spread-attack-boundary"
MULTIPART = f"multipart/form-data; boundary={BOUNDARY}"


def _ms(values: list[float], p: float) -> str:
    return f"{load.percentile(values, p) * 1000:.0f}"


def _setup(env: dict[str, str]) -> dict:
    load.fresh_database(DATABASE_URL)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True
    )
    return load.django_shell(env, SETUP % {"players": PLAYERS})


def _timed_gets(port: int, path: str, seconds: float, stop: threading.Event | None = None):
    """GET `path` one after another for `seconds` (or until `stop`): each answer's time."""
    times: list[float] = []
    statuses: Counter[int] = Counter()
    end = time.monotonic() + seconds
    while time.monotonic() < end and not (stop and stop.is_set()):
        start = time.perf_counter()
        try:
            status = load.get(port, path)
        except OSError:
            status = 0
        times.append(time.perf_counter() - start)
        statuses[status] += 1
    return times, statuses


def attack_check_flood() -> None:
    """One link floods its live check with the 240 KB record from 6 connections at once."""
    port = load.free_port()
    env = load.server_env(DATABASE_URL, 2, f"attacks-{port}")
    env.pop("REDIS_URL", None)  # each worker's own cache: the flood alone is measured
    info = _setup(env)
    server, stderr_lines = load.start_server(env, port)
    standings = "/t/attacks/A/"
    try:
        token, game = info["tokens"][0], info["games"][0]
        sheet = f"/p/{token}/games/{game}/sheet"
        check = sheet + "/check"
        _timed_gets(port, standings, 1.0)  # warm
        quiet, _ = _timed_gets(port, standings, 4.0)

        # The floor: 6 connections asking for the link's own page (kept, about a millisecond
        # of a worker) as fast as it comes: what any flood of requests costs the standings.
        halt = threading.Event()
        floor_threads = [
            threading.Thread(
                target=_timed_gets, args=(port, f"/p/{token}/", 60.0, halt), daemon=True
            )
            for _ in range(6)
        ]
        for t in floor_threads:
            t.start()
        time.sleep(0.5)
        floor, _ = _timed_gets(port, standings, 4.0)
        halt.set()
        for t in floor_threads:
            t.join(timeout=60)

        stop = threading.Event()
        checks: list[tuple[int, int, float]] = []
        lock = threading.Lock()

        def attacker(n: int) -> None:
            phone = Phone(port, token, sheet)
            # As the page's script sends it (multipart), encoded once; one connection in three
            # sends it urlencoded instead, which Django would take 55 ms to parse.
            multipart = phone.multipart({"gcg": ATTACK})
            urlencoded = urllib.parse.urlencode(
                {"csrfmiddlewaretoken": phone.csrf, "gcg": ATTACK}
            ).encode()
            while not stop.is_set():
                start = time.perf_counter()
                if n % 3 == 2:
                    status, answer = phone.send(
                        check, urlencoded, "application/x-www-form-urlencoded"
                    )
                else:
                    status, answer = phone.send(check, multipart, MULTIPART)
                with lock:
                    checks.append((status, len(answer), time.perf_counter() - start))

        threads = [threading.Thread(target=attacker, args=(n,), daemon=True) for n in range(6)]
        for t in threads:
            t.start()
        time.sleep(0.5)
        during, statuses = _timed_gets(port, standings, 6.0)
        stop.set()
        for t in threads:
            t.join(timeout=60)

        real: list[float] = []
        sizes: list[tuple[int, int]] = []
        files = sorted(CORPUS.rglob("*.gcg")) if CORPUS.is_dir() else []
        # A real game's check: the corpus's records one by one, 50 from each of three links (the
        # first players of games 2 to 4), so that no record waits for a link's budget.
        for n, path in enumerate(files[:150]):
            if n % 50 == 0:
                one, its = info["tokens"][2 + 2 * (n // 50)], info["games"][1 + n // 50]
                phone = Phone(port, one, f"/p/{one}/games/{its}/sheet")
            data = path.read_bytes().decode("utf-8", "replace")
            start = time.perf_counter()
            body = phone.multipart({"gcg": data})
            status, answer = phone.send(f"/p/{one}/games/{its}/sheet/check", body, MULTIPART)
            real.append(time.perf_counter() - start)
            sizes.append((status, len(answer)))
    finally:
        load.stop_server(server)
    answered = Counter(s for s, _, _ in checks)
    own = [t for _, _, t in checks]
    print(
        "live-check flood (6 connections, one link, 240 KB of 30,000 #note lines);",
        load.load_average(),
    )
    print(
        f"  public standings: p50 {_ms(quiet, 0.5)} ms, p99 {_ms(quiet, 0.99)} ms quiet;"
        f" p50 {_ms(during, 0.5)} ms, p99 {_ms(during, 0.99)} ms during the flood"
        f" (was 7.3 s); {sum(v for k, v in statuses.items() if k != 200)} not 200"
    )
    print(
        f"  the floor, 6 connections polling the link's own page instead: standings p50"
        f" {_ms(floor, 0.5)} ms, p99 {_ms(floor, 0.99)} ms"
    )
    print(
        f"  the attack's checks: {len(checks)} sent, answered {dict(sorted(answered.items()))};"
        f" answer {max((b for _, b, _ in checks), default=0)} bytes (was 11 MB);"
        f" its own time p50 {_ms(own, 0.5)} ms, p99 {_ms(own, 0.99)} ms (was 1.4-2.3 s)"
    )
    if real:
        print(
            f"  a real game's check ({len(real)} corpus records): p50 {_ms(real, 0.5)} ms,"
            f" p99 {_ms(real, 0.99)} ms, largest answer {max(b for _, b in sizes)} bytes,"
            f" statuses {dict(Counter(s for s, _ in sizes))}"
        )
    errors = [line for line in stderr_lines if "Traceback" in line or " ERROR " in line]
    print(f"  server errors logged: {len(errors)}")


def attack_redis_outage() -> None:
    """Redis killed for 8 s under load, started again empty, then again with its old contents."""
    folder = Path(tempfile.mkdtemp(prefix="attacks-redis-"))
    redis = RedisServer(folder)
    redis.start()
    port = load.free_port()
    env = load.server_env(DATABASE_URL, 2, f"attacks-{port}")
    env["REDIS_URL"] = redis.url
    info = _setup(env)
    server, stderr_lines = load.start_server(env, port)
    tokens: list[str] = info["tokens"]
    pages = [
        "/t/attacks/A/",
        "/t/attacks/A/crosstable/",
        "/t/attacks/A/round/1/",
        *(f"/t/attacks/A/player/{n}/" for n in range(1, PLAYERS + 1)),
        *(f"/p/{t}/" for t in tokens),
    ]
    phase = ["quiet"]
    answers: Counter[tuple[str, int]] = Counter()
    times: dict[str, list[float]] = {}
    lock = threading.Lock()
    stop = threading.Event()

    def viewer(seed: int) -> None:
        n = seed
        while not stop.is_set():
            path = pages[n % len(pages)]
            n += 7
            start = time.perf_counter()
            try:
                status = load.get(port, path)
            except OSError:
                status = 0
            with lock:
                answers[(phase[0], status)] += 1
                times.setdefault(phase[0], []).append(time.perf_counter() - start)

    reports: list[int] = []

    def reported(i: int) -> None:
        # Game i: player 2i+1 wins 400-300; both players report it.
        for token, mine, theirs in ((tokens[2 * i], 400, 300), (tokens[2 * i + 1], 300, 400)):
            try:
                status, _ = Phone(port, token, f"/p/{token}/").post(
                    f"/p/{token}/report", {"my_score": str(mine), "opponent_score": str(theirs)}
                )
            except (OSError, RuntimeError):
                status = 0
            with lock:
                reports.append(status)

    def stale_pages() -> int:
        """Pages that do not show the recorded results: each reporter's public and phone page,
        and the standings (every winner's +100)."""
        stale = 0
        for i in range(REPORTED):
            for number, record in ((2 * i + 1, "1–0"), (2 * i + 2, "0–1")):
                for path in (f"/t/attacks/A/player/{number}/", f"/p/{tokens[number - 1]}/"):
                    status, body, _ = _request(port, "GET", path)
                    stale += status != 200 or record not in body.decode()
        status, body, _ = _request(port, "GET", "/t/attacks/A/")
        stale += status != 200 or body.decode().count("+100") != REPORTED
        return stale

    try:
        for path in pages:  # warm: every page kept in Redis
            load.get(port, path)
        viewers = [threading.Thread(target=viewer, args=(i,), daemon=True) for i in range(8)]
        for t in viewers:
            t.start()
        time.sleep(4.0)
        redis.save()
        kept = redis.dump.read_bytes()  # what Redis held before the outage

        phase[0] = "outage"
        redis.kill()
        reporters = []
        for i in range(REPORTED):
            time.sleep(1.0)
            thread = threading.Thread(target=reported, args=(i,), daemon=True)
            thread.start()
            reporters.append(thread)
        time.sleep(2.0)
        for thread in reporters:
            thread.join(timeout=60)

        phase[0] = "back empty"
        redis.start(empty=True)
        time.sleep(6.0)  # the workers try it again within 5 s
        stale_empty = stale_pages()

        phase[0] = "back stale"
        redis.kill()
        redis.dump.write_bytes(kept)
        redis.start()
        time.sleep(6.0)
        stale_old = stale_pages()
        stop.set()
        for t in viewers:
            t.join(timeout=60)
    finally:
        load.stop_server(server)
        redis.kill()
    counted = load.django_shell(env, COUNT)
    lost = 2 * REPORTED - 2 * counted["recorded"] - counted["claims"]

    def errors(name: str) -> str:
        total = sum(v for (p, _), v in answers.items() if p == name)
        bad = sum(v for (p, s), v in answers.items() if p == name and (s >= 500 or s == 0))
        found = times.get(name, [])
        return f"{bad} 5xx of {total} (p99 {_ms(found, 0.99)} ms)"

    print(f"Redis killed for 8 s under 8 viewers and {2 * REPORTED} reports; {load.load_average()}")
    print(
        f"  5xx: quiet {errors('quiet')}; Redis down {errors('outage')};"
        f" back empty {errors('back empty')}; back stale {errors('back stale')}"
    )
    print(
        f"  reports: {len(reports)} sent during the outage, answered {dict(Counter(reports))};"
        f" {counted['recorded']} games recorded, {counted['claims']} claims waiting,"
        f" {lost} lost (was 2 of 12)"
    )
    print(
        f"  stale pages served: {stale_empty} after Redis came back empty,"
        f" {stale_old} after it came back with its contents from before"
        f" (of {4 * REPORTED + 1} looked at each time)"
    )
    logged = [line.strip() for line in stderr_lines if "tournament.cache" in line]
    print(f"  the outage in the server's log: {len(logged)} lines")
    for line in logged[:6]:
        print(f"    {line[:160]}")
    tracebacks = sum("Traceback" in line for line in stderr_lines)
    print(f"  tracebacks logged: {tracebacks}")


ATTACKS = {"check_flood": attack_check_flood, "redis_outage": attack_redis_outage}


if __name__ == "__main__":
    for name in sys.argv[1:] or list(ATTACKS):
        ATTACKS[name]()
