"""Attacks on the real server on loopback, each figure printed beside the same one quiet.

    .venv/bin/python bench/attacks.py [--only NAME] [--workers 2] [--check]

`ATTACKS` is a registry of named attacks, run in turn (or only the one `--only` names). Each
starts `python -m config.serve` (as `make serve` and `make hall` run it) on a free port of
loopback, on a SQLite file in a temporary folder of its own (`serving`), measures the quiet
figure, then the same under attack, prints both and whether the target held, and stops the
server and removes the folder. Every attack is bounded in requests and in time and stops by
itself; nothing leaves loopback.

- `login-throttle`: a stranger behind the proxy guesses a director's password from 40 addresses
  (8 guesses each, every other one with a spoofed first X-Forwarded-For entry naming the
  director's own address) while the director signs in 20 times from theirs. Target: every
  guess is answered with the form again (200) or refused (429), at most 4 from each address
  and, once the account's overall limit (30 failures from any addresses) is met, none: fewer
  than 4 an address in all; and the director, who signed in from their address before, signs
  in every time (302), as quiet.
- `check-flood` and `redis-outage` (`attacks_live.py`, on PostgreSQL with a Redis server of the
  bench's own): one link's live-check flood beside the quiet standings, and Redis killed and
  started again empty and stale under viewers and players' reports.
- `certificate-guess`: a stranger behind the proxy guesses certificate codes with a good
  printed prefix (`division-player-line-`) from 20 addresses, 30 guesses each, beside a visitor
  who confirms a real code and reads the standings (a 120-player division, 10 rounds, 6
  prizes; one worker, whose cache holds the counters as Redis does for several). Target: a
  guess, quiet, costs no more than the home page (median within 2x), each address gets 20
  answers (404) then 429, and the visitor's code confirms (200) every time.
- `slow-clients`: 12 connections that each send a header line every second or two and never
  finish their request, while 4 clients ask for /healthz and a standings page in turn for 10 s.
  Target: every request answered 200 within 2 s, as quiet.

`--check` exits 1 if a target is missed.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from load import (  # the same server and shell helpers as bench/load.py
    ROOT,
    django_shell,
    free_port,
    load_average,
    page_setup,
    percentile,
    server_env,
    start_server,
    stop_server,
)


@dataclass(frozen=True)
class Attack:
    name: str
    summary: str
    run: Callable[[argparse.Namespace], bool]  # True when the target held


ATTACKS: dict[str, Attack] = {}


def attack(name: str, summary: str) -> Callable[[Callable[[argparse.Namespace], bool]], Attack]:
    """Register an attack under `name` (what `--only` takes), in the order they are defined."""

    def register(run: Callable[[argparse.Namespace], bool]) -> Attack:
        ATTACKS[name] = Attack(name, summary, run)
        return ATTACKS[name]

    return register


@dataclass(frozen=True)
class Served:
    port: int
    pid: int
    info: dict
    log: list[str]  # the server's stderr, line by line as it comes


@contextlib.contextmanager
def serving(
    args: argparse.Namespace, setup: str, *setup_args: str, env: dict[str, str] | None = None
) -> Iterator[Served]:
    """A production server (DEBUG off) on a free port of loopback, on a fresh SQLite file with
    `setup` run in the project's shell first (its JSON line is `info`); stopped, and its folder
    removed, however the attack ends."""
    with tempfile.TemporaryDirectory(prefix="spread-attack-") as folder:
        port = free_port()
        environment = server_env(f"sqlite:///{folder}/db.sqlite3", args.workers, f"attack-{port}")
        environment.pop("REDIS_URL", None)  # each worker's own cache: nothing shared to set up
        environment |= {"PORT": str(port), "STATIC_ROOT": f"{folder}/static", **(env or {})}
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
            cwd=ROOT, env=environment, check=True, timeout=600,
        )  # fmt: skip
        info = django_shell(environment, setup, *setup_args)
        server, log = start_server(environment, port)
        try:
            yield Served(port, server.pid, info, log)
        finally:
            stop_server(server)
            troubles = [x for x in log if any(w in x for w in ("Traceback", "ERROR", "CRITICAL"))]
            print(f"  the server's log: {len(troubles)} errors or tracebacks")
            for line in troubles[:5]:
                print("    " + line.rstrip())


def request(
    port: int,
    method: str,
    path: str,
    body: str = "",
    headers: dict[str, str] | None = None,
    timeout: float = 30,
) -> tuple[int, str, list[tuple[str, str]], float]:
    """One request on a connection of its own: status, text, headers and the seconds it took."""
    start = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        response = conn.getresponse()
        text = response.read().decode(errors="replace")
        return response.status, text, response.getheaders(), time.perf_counter() - start
    finally:
        conn.close()


def ms(seconds: float) -> str:
    return f"{seconds * 1000:7.1f} ms"


# -- the login throttle behind a proxy ---------------------------------------------------------

DIRECTOR_SETUP = r"""
import json, sys
from django.contrib.auth.models import User
User.objects.create_user("director", password=sys.argv[-1])
print("JSON" + json.dumps({"username": "director"}))
"""
PASSWORD = "the-directors-own-" + str(int(time.time()))
DIRECTOR = "203.0.113.5"  # the director's own address, as the proxy names it
ADDRESSES = [f"198.51.100.{n}" for n in range(1, 41)]  # the stranger's
GUESSES = 8  # from each address
LOGIN_TIMEOUT = 120.0


class Browser:
    """A login form's visitor: the CSRF cookie and field from the page, then the post, every
    request forwarded by the proxy from `address` (X-Forwarded-For, the proxy's last entry)."""

    def __init__(self, port: int, address: str) -> None:
        self.port, self.address = port, address
        status, page, headers, _ = request(port, "GET", "/accounts/login/", headers=self._via())
        field = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        cookie = next(
            (v.split(";", 1)[0] for k, v in headers if k.lower() == "set-cookie" and "csrf" in v),
            "",
        )
        if status != 200 or not field or not cookie:
            raise SystemExit(f"the login page did not answer with its form (HTTP {status})")
        self.token, self.cookie = field.group(1), cookie

    def _via(self, spoofed: str = "") -> dict[str, str]:
        forwarded = f"{spoofed}, {self.address}" if spoofed else self.address
        return {"X-Forwarded-For": forwarded}

    def log_in(self, username: str, password: str, spoofed: str = "") -> tuple[int, float]:
        body = urllib.parse.urlencode(
            {"username": username, "password": password, "csrfmiddlewaretoken": self.token}
        )
        headers = {
            "Content-Type": "application/x-www-form-urlencoded",
            "Cookie": self.cookie,
            **self._via(spoofed),
        }
        # Every guess that is checked costs the server a password hash (a few hundred ms of
        # CPU): under a flood a login waits its turn behind them, so the wait allowed is long.
        status, _, _, seconds = request(
            self.port, "POST", "/accounts/login/", body, headers, timeout=LOGIN_TIMEOUT
        )
        return status, seconds


def _director_logins(port: int, times: int, gap: float) -> tuple[Counter[int], list[float]]:
    statuses: Counter[int] = Counter()
    took: list[float] = []
    for _ in range(times):
        try:
            status, seconds = Browser(port, DIRECTOR).log_in("director", PASSWORD)
        except OSError:
            status, seconds = 0, LOGIN_TIMEOUT
        statuses[status] += 1
        took.append(seconds)
        time.sleep(gap)
    return statuses, took


@attack("login-throttle", "a stranger's guesses from 50 addresses behind the proxy")
def login_throttle(args: argparse.Namespace) -> bool:
    print(
        f"== login-throttle: {len(ADDRESSES)} addresses x {GUESSES} guesses at the director's "
        "password behind one proxy (PROXY_COUNT=1), every other one spoofing the director's "
        "address first; the director signs in 20 times meanwhile"
    )
    with serving(args, DIRECTOR_SETUP, PASSWORD, env={"PROXY_COUNT": "1"}) as served:
        quiet, quiet_took = _director_logins(served.port, 20, 0.0)
        guesses: Counter[int] = Counter()
        lock = threading.Lock()

        def stranger(address: str) -> None:
            browser = Browser(served.port, address)
            for n in range(GUESSES):
                spoof = DIRECTOR if n % 2 else ""
                try:
                    status, _ = browser.log_in("director", f"guess {address} {n}", spoof)
                except OSError:
                    status = 0
                with lock:
                    guesses[status] += 1

        pool = [threading.Thread(target=stranger, args=(a,), daemon=True) for a in ADDRESSES]
        began = time.perf_counter()
        for thread in pool:
            thread.start()
        attacked, attacked_took = _director_logins(served.port, 20, 0.1)
        for thread in pool:
            thread.join(timeout=300)
        elapsed = time.perf_counter() - began
    # Without the overall limit: 4 answered an address, the rest refused. With it, the guesses
    # stop being answered once the account's failures from all addresses reach 30 (a few more
    # may be in flight at that moment).
    expected = Counter({200: 4 * len(ADDRESSES), 429: (GUESSES - 4) * len(ADDRESSES)})
    print(
        f"  quiet           director {dict(quiet)}  login p50 {ms(percentile(quiet_took, 0.5))}"
        f"  p99 {ms(percentile(quiet_took, 0.99))}"
    )
    print(
        f"  under attack    director {dict(attacked)}  login p50 "
        f"{ms(percentile(attacked_took, 0.5))}  p99 {ms(percentile(attacked_took, 0.99))}"
    )
    print(
        f"  the stranger    {sum(guesses.values())} guesses in {elapsed:.1f} s: "
        f"{guesses[200]} answered with the form again (200), {guesses[429]} refused (429), "
        f"{sum(v for k, v in guesses.items() if k not in (200, 429))} other"
        f"  (without the overall limit {expected[200]} and {expected[429]})"
    )
    print(f"  {load_average()}")
    answered = guesses[200] + guesses[429] == sum(expected.values())
    return quiet == attacked == Counter({302: 20}) and answered and guesses[200] < expected[200]


# -- slow clients ------------------------------------------------------------------------------

PAGE_SETUP = page_setup("attack-bench", "Attack bench", 40)
SLOW = 12
PROBE_SECONDS = 10.0
PROBE_TIMEOUT = 5.0


def _probe(port: int, paths: list[str], seconds: float) -> dict[str, tuple[list[float], int]]:
    """4 clients asking for `paths` in turn for `seconds`: each path's answer times (200 only)
    and how many requests got no 200 within PROBE_TIMEOUT."""
    found: dict[str, tuple[list[float], list[int]]] = {p: ([], [0]) for p in paths}
    lock = threading.Lock()
    stop = time.monotonic() + seconds

    def client(n: int) -> None:
        turn = n
        while time.monotonic() < stop:
            path = paths[turn % len(paths)]
            turn += 1
            try:
                status, _, _, took = request(port, "GET", path, timeout=PROBE_TIMEOUT)
            except OSError:
                status, took = 0, PROBE_TIMEOUT
            with lock:
                if status == 200:
                    found[path][0].append(took)
                else:
                    found[path][1][0] += 1

    clients = [threading.Thread(target=client, args=(n,), daemon=True) for n in range(4)]
    for thread in clients:
        thread.start()
    for thread in clients:
        thread.join(timeout=seconds + PROBE_TIMEOUT + 5)
    return {p: (times, failed[0]) for p, (times, failed) in found.items()}


def _slow_sockets(port: int, count: int, stop: threading.Event) -> list[threading.Thread]:
    def client(n: int) -> None:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 5) as s:
            s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            line = 0
            while not stop.wait(1.0 + n % 2):
                s.sendall(b"X-Slow-%d: %d\r\n" % (n, line))
                line += 1

    threads = [threading.Thread(target=client, args=(n,), daemon=True) for n in range(count)]
    for thread in threads:
        thread.start()
    return threads


@attack("slow-clients", "12 connections trickling their request's head, never finishing it")
def slow_clients(args: argparse.Namespace) -> bool:
    print(
        f"== slow-clients: {SLOW} connections each sending a header line every 1-2 s, never "
        f"finishing; 4 clients ask for /healthz and a standings page in turn ({PROBE_SECONDS:g} s)"
    )
    held = True
    with serving(args, PAGE_SETUP) as served:
        paths = ["/healthz", served.info["page"]]
        quiet = _probe(served.port, paths, PROBE_SECONDS)
        stop = threading.Event()
        sockets = _slow_sockets(served.port, SLOW, stop)
        try:
            time.sleep(2.5)  # each has sent a line more: it holds its connection
            attacked = _probe(served.port, paths, PROBE_SECONDS)
        finally:
            stop.set()
            for thread in sockets:
                thread.join(timeout=5)
    for label, figures in (("quiet", quiet), (f"{SLOW} slow", attacked)):
        for path, (times, failed) in figures.items():
            worst = max(times, default=float("nan"))
            print(
                f"  {label:<10} {path:<20} {len(times):5d} answers  p50 "
                f"{ms(percentile(times, 0.5))}  p99 {ms(percentile(times, 0.99))}  "
                f"max {ms(worst)}  no answer within {PROBE_TIMEOUT:g} s: {failed}"
            )
            held &= failed == 0 and bool(times) and worst < 2.0
    print(f"  {load_average()}")
    return held


# -- certificate codes guessed ----------------------------------------------------------------

CERTIFICATE_SETUP = r"""
import json
from tournament.models import Division, Game, Player, Round, Tournament
from tournament.standings import prizes
from tournament.standings.stamps import read as read_stamps
t = Tournament.objects.create(name="Certificate bench", slug="certificate-bench", public=True)
kinds = [("rank", 1), ("rank", 2), ("rank", 3), ("highgame", 1), ("tuffluck", 1),
         ("highloss", 1)]
d = Division.objects.create(tournament=t, name="A", prizes=[
    {"kind": k, "place": p, "value": f"${20 * (6 - i)}"} for i, (k, p) in enumerate(kinds)])
n = 120
people = [Player.objects.create(division=d, number=i + 1, name=f"Player {i + 1}",
                                rating=1000 + 7 * i) for i in range(n)]
games = []
for r in range(1, 11):
    order = sorted(range(n), key=lambda i: (i * (r * 37 + 11)) % n)
    for k in range(0, n, 2):
        a, b = order[k], order[k + 1]
        games.append(Game(division=d, round=r, table=k // 2 + 1, player1=people[a],
                          player2=people[b], score1=300 + (a * 13 + r * 7) % 200,
                          score2=300 + (b * 17 + r * 5) % 200, first=1))
Game.objects.bulk_create(games)
for r in range(1, 11):
    Round.objects.create(division=d, number=r, published=True)
good = prizes.certificates(d, public=True, stamps=read_stamps(d))[0].code
print("JSON" + json.dumps({"code": good, "page": "/t/certificate-bench/A/"}))
"""
CERT_ADDRESSES = [f"198.51.100.{n}" for n in range(101, 121)]
CERT_GUESSES = 30  # from each address
CERT_MISSES = 20  # prize_views.CERTIFICATE_MISSES


def _timed(port: int, path: str, times: int, address: str) -> tuple[Counter[int], list[float]]:
    statuses: Counter[int] = Counter()
    took: list[float] = []
    for _ in range(times):
        status, _, _, seconds = request(port, "GET", path, headers={"X-Forwarded-For": address})
        statuses[status] += 1
        took.append(seconds)
    return statuses, took


@attack("certificate-guess", "certificate codes guessed with a good prefix from 20 addresses")
def certificate_guess(args: argparse.Namespace) -> bool:
    print(
        f"== certificate-guess: {len(CERT_ADDRESSES)} addresses x {CERT_GUESSES} guessed codes "
        "with a printed prefix, behind one proxy; a visitor confirms a real code meanwhile"
    )
    one = argparse.Namespace(**{**vars(args), "workers": 1})
    with serving(one, CERTIFICATE_SETUP, env={"PROXY_COUNT": "1"}) as served:
        code = served.info["code"]
        prefix = code.rsplit("-", 1)[0]
        port = served.port
        _timed(port, "/", 3, "203.0.113.9")  # warm: templates, the first connection
        home, home_took = _timed(port, "/", 30, "203.0.113.9")
        first, first_took = _timed(port, f"/certificate/{code}/", 1, "203.0.113.9")
        good, good_took = _timed(port, f"/certificate/{code}/", 30, "203.0.113.9")
        page, page_took = _timed(port, served.info["page"], 10, "203.0.113.9")
        letters = "abcdefghijklmnopqrstuvwxyz234567"
        quiet_guess: Counter[int] = Counter()
        quiet_took: list[float] = []
        for k in range(CERT_MISSES - 1):  # one address, quiet, within its allowance
            tail = "".join(letters[(k * 5 + j * 3) % 32] for j in range(10))
            status, _, _, seconds = request(
                port, "GET", f"/certificate/{prefix}-{tail}/",
                headers={"X-Forwarded-For": "203.0.113.20"},
            )  # fmt: skip
            quiet_guess[status] += 1
            quiet_took.append(seconds)
        guesses: Counter[int] = Counter()
        guess_took: list[float] = []
        lock = threading.Lock()

        def stranger(n: int, address: str) -> None:
            for k in range(CERT_GUESSES):
                tail = "".join(letters[(n * 31 + k * 7 + j * 13) % 32] for j in range(10))
                status, _, _, seconds = request(
                    port, "GET", f"/certificate/{prefix}-{tail}/",
                    headers={"X-Forwarded-For": address},
                )  # fmt: skip
                with lock:
                    guesses[status] += 1
                    if status == 404:
                        guess_took.append(seconds)

        pool = [
            threading.Thread(target=stranger, args=(n, a), daemon=True)
            for n, a in enumerate(CERT_ADDRESSES)
        ]
        began = time.perf_counter()
        for thread in pool:
            thread.start()
        attacked, attacked_took = _timed(port, f"/certificate/{code}/", 30, "203.0.113.9")
        for thread in pool:
            thread.join(timeout=300)
        elapsed = time.perf_counter() - began
    expected = Counter(
        {
            404: CERT_MISSES * len(CERT_ADDRESSES),
            429: (CERT_GUESSES - CERT_MISSES) * len(CERT_ADDRESSES),
        }
    )
    for label, statuses, took in (
        ("home page", home, home_took),
        ("standings", page, page_took),
        ("code, first", first, first_took),
        ("code, again", good, good_took),
        ("a guess, quiet", quiet_guess, quiet_took),
        ("code, attack", attacked, attacked_took),
        ("guesses (404)", Counter({404: len(guess_took)}), guess_took),
    ):
        print(
            f"  {label:<15} {dict(statuses)}  p50 {ms(percentile(took, 0.5))}"
            f"  p99 {ms(percentile(took, 0.99))}"
        )
    print(
        f"  the stranger    {sum(guesses.values())} guesses in {elapsed:.1f} s: "
        f"{guesses[404]} answered 404, {guesses[429]} refused (429), "
        f"{sum(v for k, v in guesses.items() if k not in (404, 429))} other"
        f"  (expected {expected[404]} and {expected[429]})"
    )
    print(f"  {load_average()}")
    cheap = percentile(quiet_took, 0.5) <= 2 * percentile(home_took, 0.5)
    return cheap and guesses == expected and attacked == Counter({200: 30})


def _live(name: str, summary: str, run: Callable[[], None]) -> None:
    """An attack of `attacks_live.py` (on PostgreSQL, with a Redis of its own), registered
    here so that one script runs them all; it prints its figures beside the quiet ones and
    checks no target of its own (None)."""
    attack(name, summary)(lambda _args: run())  # type: ignore[arg-type, return-value]


def _register_live() -> None:
    import attacks_live

    _live(
        "check-flood",
        "a 240 KB record from one link, 6 checks at once, beside the quiet standings",
        attacks_live.attack_check_flood,
    )
    _live(
        "redis-outage",
        "the shared Redis killed for 8 s under viewers and reports, back empty, back stale",
        attacks_live.attack_redis_outage,
    )


_register_live()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=sorted(ATTACKS), help="run this attack alone")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--check", action="store_true", help="exit 1 if a target is missed")
    args = parser.parse_args()
    missed = []
    for name, entry in ATTACKS.items():
        if args.only and name != args.only:
            continue
        held = entry.run(args)
        if held is None:  # its figures printed, no target of its own to check
            print()
            continue
        print(f"  target {'held' if held else 'MISSED'}\n")
        if not held:
            missed.append(name)
    print("targets missed: " + ", ".join(missed) if missed else "every target held")
    return 1 if missed and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
