"""A bounded load test on loopback: `make serve` on PostgreSQL, N viewers over the public pages,
and two directors entering and correcting results once a second each.

    .venv/bin/python bench/load.py [--event mgi|synthetic] [--viewers 30] [--seconds 10]

The event is the real 60-player one of the shared corpus (`mgi`) or a 500-player, 31-round
synthetic one (`synthetic`, built by bench/standings.py); its last round's results are taken out
so that the directors have something to enter. The database is PostgreSQL's `spread_bench`
(dropped and made afresh; `--database-url` to change), the server `python -m config.serve`, as
`make serve` runs it, with `--workers` gunicorn workers (2) of `--threads` threads (32, each
connection's; Django renders one request at a time a worker, config/wsgi.py), and the
cache in Redis as the README's production environment has it (`--redis`, REDIS_URL or
redis://127.0.0.1:6379/0; `--local-cache` for each worker's own memory instead).

Every request asks for gzip, as every browser does (the public pages are kept and sent
compressed). The two directors save half a second apart, as two people at two desks would.

First, without writes, each page alone for `--seconds` (after every page of its kind has been
asked for once more than there are workers, to warm the caches), the login page too: req/s,
p50, p99 and the ratio to the login page's req/s. Then every public page at once while the
directors write: req/s, p50 and p99 per page. Last, errors (any answer but 200, or 302 after a
login, or a refused save) and lost or duplicated results, counted against the change log:
every save a director was told succeeded must be there once, and the final scores must be the
last ones saved. Targets: every ratio >= 0.5 without writes; p99 < 250 ms with
writes; 0 errors; 0 lost. Prints figures (as `make bench` expects); with `--check` the exit
status is 1 if a target is missed.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import random
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MGI = ROOT.parent / "shared" / "corpus" / "tsh" / "domino14_tsh-parser"
PASSWORD = "bench-" + secrets.token_hex(8)
PAGES = ("standings", "pairings", "player", "crosstable", "ratings", "scoresheet")

SETUP = r"""
import json, shutil, sys
from pathlib import Path
from django.contrib.auth.models import User
from tournament.exchange import tsh_io
from tournament.results import services as results
from tournament.scoresheets import services as scoresheets
from tournament.standings import stamps
from tournament.models import Game, Change

event, folder, password = sys.argv[-3:]
if event == "mgi":
    for name in ("config.tsh", "a.t"):
        shutil.copyfile(Path(MGI) / name, Path(folder) / name)
    shutil.copyfile(Path(MGI) / "a.t", Path(folder) / "b.t")  # config.tsh names a B it lacks
    tournament = tsh_io.import_tsh(Path(folder) / "config.tsh", slug="bench")
    division = tournament.divisions.get(name="A")
else:
    sys.path.insert(0, ROOT)
    from bench.standings import build
    division = build(500, 31)
    tournament = division.tournament
last = max(division.games.values_list("round", flat=True))
games = division.games.filter(round=last).exclude(player2=None).select_related("player1", "player2")
games = list(games)
Game.objects.filter(pk__in=[g.pk for g in games]).update(score1=None, score2=None)
stamps.touch([division.pk])  # an update() bypasses the signals that replace the stamp
directors = []
for name in ("d1", "d2"):
    user = User.objects.create_user(name, password=password)
    tournament.directors.add(user)
    directors.append(name)
sheet_game = division.games.filter(round=1).exclude(player2=None).first()
record = (
    f"#player1 A {sheet_game.player1.name}\n#player2 B {sheet_game.player2.name}\n"
    ">A: DJINNRS 8D DJINN +30 30\n>B: ABHITWY I7 WITHY +33 33\n"
    + ">A: AERSTUV - +0 30\n>B: ABEEOST - +0 33\n" * 3
    + ">A: (AERSTUV) -10 20\n>B: (ABEEOST) -9 24\n"
)
sheet = scoresheets.attach_scoresheet(sheet_game, record, User.objects.get(username="d1"))
if sheet.held:  # its totals differ from the game's result: published with its findings
    scoresheets.release_scoresheet(sheet, User.objects.get(username="d1"), "load test")
print("JSON" + json.dumps({
    "slug": tournament.slug, "division": division.name, "division_id": division.pk,
    "rounds": last, "players": division.players.count(), "scoresheet": sheet.pk,
    "games": [[g.pk, g.player1.number, g.player2.number] for g in games],
}))
"""

AUDIT = r"""
import json, sys
from tournament.models import Change, Game
ids = json.loads(sys.argv[-1])
rows = Change.objects.filter(game_id__in=ids, action__in=("create", "correct"))
counts = {}
for user, game in rows.values_list("user__username", "game_id"):
    counts[f"{user}:{game}"] = counts.get(f"{user}:{game}", 0) + 1
scores = {g.pk: [g.player1.number, g.score1, g.player2.number, g.score2]
          for g in Game.objects.filter(pk__in=ids).select_related("player1", "player2")}
print("JSON" + json.dumps({"changes": counts, "scores": scores}))
"""


def page_setup(slug: str, name: str, players: int) -> str:
    """A shell script (for `django_shell`) that makes a public division of `players` players with
    round 1 played and published, and prints its standings page's address."""
    return rf"""
import json
from tournament.models import Division, Game, Player, Round, Tournament
t = Tournament.objects.create(name={name!r}, slug={slug!r}, public=True)
d = Division.objects.create(tournament=t, name="A")
people = [Player.objects.create(division=d, number=i + 1, name=f"Player {{i + 1}}",
                                rating=1200 + 3 * i) for i in range({players})]
for i in range(0, {players}, 2):
    Game.objects.create(division=d, round=1, table=i // 2 + 1, player1=people[i],
                        player2=people[i + 1], score1=400 + i, score2=380, first=1)
Round.objects.create(division=d, number=1, published=True)
print("JSON" + json.dumps({{"page": "/t/{slug}/A/"}}))
"""


def server_env(database_url: str, workers: int, cache_prefix: str) -> dict[str, str]:
    """The environment of a production server on loopback: DEBUG off, a fresh secret key."""
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": database_url,
        "DEBUG": "False",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "HOST": "127.0.0.1",
        "WEB_CONCURRENCY": str(workers),
        "CACHE_KEY_PREFIX": cache_prefix,
    }


def server_args(parser: argparse.ArgumentParser) -> None:
    """The server's options both benches take: its threads and its cache."""
    parser.add_argument(
        "--threads", type=int, default=32, help="connection threads a worker (WEB_THREADS)"
    )
    parser.add_argument(
        "--redis",
        default=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"),
        help="the REDIS_URL of the shared cache (default: REDIS_URL, or the local Redis)",
    )
    parser.add_argument(
        "--local-cache", action="store_true", help="each worker's own cache instead of Redis"
    )


def apply_server_args(env: dict[str, str], args: argparse.Namespace) -> None:
    env["WEB_THREADS"] = str(args.threads)
    env.pop("REDIS_URL", None)
    if not args.local_cache:
        env["REDIS_URL"] = args.redis


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def django_shell(env: dict[str, str], code: str, *args: str) -> dict:
    """Run `code` in the project's Django shell; its `JSON…` line, read back."""
    prelude = f"ROOT = {str(ROOT)!r}; MGI = {str(MGI)!r}\n"
    done = subprocess.run(
        [sys.executable, "-c", _SHELL, prelude + code, *args],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    if done.returncode:
        raise SystemExit(f"setting up failed:\n{done.stderr}")
    line = next(x for x in done.stdout.splitlines() if x.startswith("JSON"))
    return json.loads(line[4:])


_SHELL = (
    "import sys, django; django.setup(); code = sys.argv[1]; sys.argv = sys.argv[1:]; exec(code)"
)


def fresh_database(url: str) -> None:
    import psycopg

    parts = urllib.parse.urlsplit(url)
    name = parts.path.lstrip("/")
    admin = urllib.parse.urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


@dataclass
class Tally:
    times: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, kind: str, seconds: float, ok: bool) -> None:
        with self.lock:
            self.times[kind].append(seconds)
            if not ok:
                self.errors[kind] += 1


# What every browser sends: the public pages are kept and sent gzip-compressed.
BROWSER = {"Accept-Encoding": "gzip, deflate, br"}


def get(port: int, path: str, headers: dict[str, str] | None = None, timeout: float = 30) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", path, headers={**BROWSER, **(headers or {})})
        response = conn.getresponse()
        response.read()
        return response.status
    finally:
        conn.close()


def viewers(
    port: int, urls: dict[str, list[str]], kinds: list[str], n: int, seconds: float, tally: Tally
) -> None:
    """`n` viewers, each asking for a page of a kind drawn from `kinds` as soon as the last came."""
    stop = time.monotonic() + seconds

    def viewer(seed: int) -> None:
        rng = random.Random(seed)
        while time.monotonic() < stop:
            kind = rng.choice(kinds)
            start = time.perf_counter()
            try:
                ok = get(port, rng.choice(urls[kind])) == 200
            except OSError:
                ok = False
            tally.add(kind, time.perf_counter() - start, ok)

    threads = [threading.Thread(target=viewer, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def warm(port: int, paths: list[str], workers: int) -> None:
    """Ask for every page `workers + 1` times, so that each worker (which without Redis keeps
    its own cache) has most likely rendered it: the measurement is of the steady state. As
    many at a time as there are workers, so that no backlog is left for the measurement."""
    queue = [p for p in paths for _ in range(workers + 1)]
    random.Random(0).shuffle(queue)
    lock = threading.Lock()

    def viewer() -> None:
        while True:
            with lock:
                if not queue:
                    return
                path = queue.pop()
            with contextlib.suppress(OSError):
                get(port, path, timeout=300)

    threads = [threading.Thread(target=viewer) for _ in range(workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


class Director:
    """A director at the desk: logs in, then enters and corrects results once a second."""

    def __init__(self, port: int, name: str, info: dict, games: list[list[int]]) -> None:
        self.port, self.name, self.info, self.games = port, name, info, games
        self.cookies: dict[str, str] = {}
        self.saved: dict[int, list[int]] = {}  # game → [p, s, q, t] of the last save told ok
        self.acked: dict[int, int] = defaultdict(int)
        self.errors = 0
        self.times: list[float] = []

    def _request(self, method: str, path: str, body: dict | None = None) -> tuple[int, bytes]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        data = None
        if body is not None:
            data = urllib.parse.urlencode(body)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["X-CSRFToken"] = self.cookies.get("csrftoken", "")
            headers["Accept"] = "application/json"
        try:
            conn.request(method, path, body=data, headers=headers)
            response = conn.getresponse()
            content = response.read()
            for header, value in response.getheaders():
                if header.lower() == "set-cookie":
                    key, _, rest = value.partition("=")
                    self.cookies[key] = rest.split(";", 1)[0]
            return response.status, content
        finally:
            conn.close()

    def login(self) -> None:
        self._request("GET", "/accounts/login/")
        token = self.cookies["csrftoken"]
        status, _ = self._request(
            "POST",
            "/accounts/login/",
            {"username": self.name, "password": PASSWORD, "csrfmiddlewaretoken": token},
        )
        if status != 302 or "sessionid" not in self.cookies:
            raise SystemExit(f"{self.name} cannot log in (HTTP {status})")

    def enter(self, game: int, p: int, s: int, q: int, t: int) -> bool:
        """Enter (or correct) game `game` as P S Q T at the desk; whether the desk said saved."""
        path = (
            f"/desk/{self.info['slug']}/division/{self.info['division_id']}/"
            f"round/{self.info['rounds']}/enter"
        )
        body = {"line": f"{p} {s} {q} {t}"}
        if game in self.saved:
            body["reason"] = "load test correction"
        start = time.perf_counter()
        try:
            status, content = self._request("POST", path, body)
            ok = status == 200 and json.loads(content).get("ok") is True
        except (OSError, ValueError):
            ok = False
        self.times.append(time.perf_counter() - start)
        if ok:
            self.saved[game] = [p, s, q, t]
            self.acked[game] += 1
        else:
            self.errors += 1
        return ok

    def run(self, seconds: float, seed: int, offset: float = 0.0) -> None:
        """Enter a result once a second for `seconds`, the first after `offset` seconds."""
        rng = random.Random(seed)
        stop = time.monotonic() + seconds
        time.sleep(offset)
        turn = 0
        while time.monotonic() < stop:
            tick = time.monotonic()
            game, p, q = self.games[turn % len(self.games)]
            turn += 1
            self.enter(game, p, rng.randint(250, 550), q, rng.randint(250, 550))
            time.sleep(max(0.0, 1.0 - (time.monotonic() - tick)))


def server_cpu(pid: int) -> float:
    """Seconds of CPU the server (gunicorn's master and its workers) has used so far: on a
    machine shared with other work, the CPU a request costs is steadier than its wall time.
    PostgreSQL's and Redis's own CPU are not counted. 0.0 where /proc cannot tell."""
    ticks = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    total = 0.0
    pids = [pid]
    with contextlib.suppress(OSError):
        for task in Path(f"/proc/{pid}/task").iterdir():
            pids += [int(c) for c in (task / "children").read_text().split()]
    for p in pids:
        with contextlib.suppress(OSError, ValueError, IndexError):
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / ticks  # utime, stime
    return total


def cpu_line(seconds: float, requests: int) -> str:
    per = seconds / requests * 1000 if requests else float("nan")
    return f"  server CPU {seconds:.1f} s for {requests} requests: {per:.1f} ms a request"


def load_average() -> str:
    """The machine's load average: other work on it lowers every figure, the login page's too."""
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f}, {five:.2f}, {fifteen:.2f}"


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))] if ordered else float("nan")


def line(kind: str, times: list[float], seconds: float, errors: int, base: float | None) -> str:
    rate = len(times) / seconds
    ratio = f"{rate / base:6.2f}" if base else "      "
    return (
        f"  {kind:<11} {rate:8.1f} req/s  p50 {percentile(times, 0.5) * 1000:7.1f} ms  "
        f"p99 {percentile(times, 0.99) * 1000:7.1f} ms  {ratio}  errors {errors}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--event", choices=("mgi", "synthetic"), default="mgi")
    parser.add_argument("--viewers", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--check", action="store_true", help="exit 1 if a target is missed")
    server_args(parser)
    parser.add_argument("--database-url", default="postgres://postgres@127.0.0.1:5432/spread_bench")
    args = parser.parse_args()
    if args.event == "mgi" and not (MGI / "config.tsh").is_file():
        print(f"the real event is not at {MGI}: try --event synthetic")
        return 2

    fresh_database(args.database_url)
    port = free_port()
    env = server_env(args.database_url, args.workers, f"bench-{port}")
    env["PORT"] = str(port)
    apply_server_args(env, args)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True
    )
    with tempfile.TemporaryDirectory() as folder:
        info = django_shell(env, SETUP, args.event, folder, PASSWORD)
    server, stderr_lines = start_server(env, port)
    try:
        return measure(port, info, args, stderr_lines, server.pid)
    finally:
        stop_server(server)


def start_server(env: dict[str, str], port: int) -> tuple[subprocess.Popen, list[str]]:
    """`python -m config.serve` (as `make serve`) on `port`, once /healthz answers 200; and the
    lines of its stderr as they come. RuntimeError if it has not started within a minute."""
    server = subprocess.Popen(
        [sys.executable, "-m", "config.serve"],
        cwd=ROOT, env={**env, "PORT": str(port)}, start_new_session=True,
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    stderr_lines: list[str] = []
    threading.Thread(target=lambda: stderr_lines.extend(server.stderr), daemon=True).start()
    deadline = time.monotonic() + 60
    while True:
        try:
            if get(port, "/healthz") == 200:
                return server, stderr_lines
        except OSError:
            pass
        if time.monotonic() > deadline or server.poll() is not None:
            stop_server(server)
            raise RuntimeError("the server did not start:\n" + "".join(stderr_lines[-20:]))
        time.sleep(0.3)


def stop_server(server: subprocess.Popen) -> None:
    """Stop the server and its workers (its own process group)."""
    if server.poll() is None:
        os.killpg(server.pid, signal.SIGTERM)
    try:
        server.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait(timeout=10)


def measure(
    port: int, info: dict, args: argparse.Namespace, stderr_lines: list[str], pid: int
) -> int:
    base = f"/t/{info['slug']}/{urllib.parse.quote(info['division'])}/"
    urls = {
        "login": ["/accounts/login/"],
        "standings": [base],
        "pairings": [f"{base}round/{r}/" for r in range(1, info["rounds"] + 1)],
        "player": [f"{base}player/{n}/" for n in range(1, info["players"] + 1)],
        "crosstable": [f"{base}crosstable/"],
        "ratings": [f"{base}ratings/"],
        "scoresheet": [f"/t/{info['slug']}/scoresheet/{info['scoresheet']}/"],
    }
    print(
        f"{args.event}: {info['players']} players, {info['rounds']} rounds; "
        f"{args.viewers} viewers, {args.workers} workers of {args.threads} threads, "
        f"cache {'per worker' if args.local_cache else 'Redis'}, {os.cpu_count()} cores"
    )
    missed = False
    print(f"\nEach page alone, no writes ({args.seconds:g} s each; ratio to the login page):")
    print(f"  {load_average()}")
    rates: dict[str, float] = {}
    errors = 0
    for kind in ("login", *PAGES):
        warm(port, urls[kind], args.workers)
        tally = Tally()
        cpu = server_cpu(pid)
        viewers(port, urls, [kind], args.viewers, args.seconds, tally)
        cpu = server_cpu(pid) - cpu
        rates[kind] = len(tally.times[kind]) / args.seconds
        errors += tally.errors[kind]
        print(
            line(kind, tally.times[kind], args.seconds, tally.errors[kind], rates["login"])
            + f"  CPU {cpu / max(1, len(tally.times[kind])) * 1000:.1f} ms"
        )
        if kind != "login" and rates[kind] < 0.5 * rates["login"]:
            missed = True

    duration = max(args.seconds * 2, 10.0)
    print(f"  {load_average()}")
    print(f"\nEvery public page at once, 2 directors writing once a second ({duration:g} s):")
    games = info["games"]
    directors = [
        Director(port, "d1", info, games[0::2]),
        Director(port, "d2", info, games[1::2]),
    ]
    for d in directors:
        d.login()
    tally = Tally()
    # Two directors at two desks, each saving once a second: not on the same millisecond
    # every second, but half a second apart.
    writers = [
        threading.Thread(target=d.run, args=(duration, i, i / len(directors)))
        for i, d in enumerate(directors)
    ]
    cpu = server_cpu(pid)
    for w in writers:
        w.start()
    viewers(port, urls, list(PAGES), args.viewers, duration, tally)
    for w in writers:
        w.join()
    cpu = server_cpu(pid) - cpu
    for kind in PAGES:
        times = tally.times[kind]
        print(line(kind, times, duration, tally.errors[kind], None))
        errors += tally.errors[kind]
        if percentile(times, 0.99) >= 0.25:
            missed = True
    print(f"  {load_average()}")
    saves = [t for d in directors for t in d.times]
    print(line("saves", saves, duration, sum(d.errors for d in directors), None))
    print(cpu_line(cpu, len(saves) + sum(len(t) for t in tally.times.values())))
    errors += sum(d.errors for d in directors)

    ids = [g[0] for g in games]
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": args.database_url,
        "DEBUG": "True",
    }
    audit = django_shell(env, AUDIT, json.dumps(ids))
    lost = duplicated = wrong = 0
    for d in directors:
        for game, times in d.acked.items():
            found = audit["changes"].get(f"{d.name}:{game}", 0)
            lost += max(0, times - found)
            duplicated += max(0, found - times)
    for game, score in {g: s for d in directors for g, s in d.saved.items()}.items():
        wrong += audit["scores"][str(game)] != score
    acked = sum(sum(d.acked.values()) for d in directors)
    tracebacks = sum("Traceback" in x for x in stderr_lines)
    print(
        f"\nerrors {errors}; results saved {acked}, lost {lost}, duplicated {duplicated}, "
        f"final scores not the last saved {wrong}; tracebacks in the server's log {tracebacks}"
    )
    if errors or lost or duplicated or wrong or tracebacks:
        missed = True
    print("targets: ratio >= 0.5 without writes, p99 < 250 ms with writes, 0 errors, 0 lost:")
    print("  missed" if missed else "  met")
    return 1 if missed and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
