"""The hall on loopback: N players' phones polling their page's live feed (`/p/<token>/live`,
every `--poll` s with If-None-Match, as static/phone.js) while the games of a round are reported
from their phones (both players of each game) on schedule over a minute, and the hall's screens
poll as static/display.js does: the display feed 2 s after each answer (1 s after a new one) and
the round's clock every 2 s, each with If-None-Match, and, when the feed answers 200, the
scoreboard feed if the server has one. Each screen is beside its part of the hall, showing its
share of the tables (`?tables=`), unless `--every-table`.

    .venv/bin/python bench/hall.py [--players 500] [--seconds 60] [--poll 3.0] [--workers 2]
                                   [--screens 4] [--every-table] [--quiet-only]
                                   [--service-worker [--resend 0.1]]

The server is `python -m config.serve` (as `make serve`) on PostgreSQL's `spread_hall_bench`
(dropped and made afresh), started and stopped as bench/load.py does, with its cache in Redis by
default (the same `--redis`, `--local-cache` and `--threads` options). Prints req/s, p50 and p99
of the page polls and of the reports, errors (any answer but 200 or a report's 302) and lost
reports (games both players reported that have no result), and how long a result takes to be
seen: from its save (the second report's answer) to its first appearance in a screen's display
feed (result-to-screen), and in the live feed of both its players (result-to-phone), p50 and
max. Targets: p99 < 250 ms, 0 errors, 0 lost, result-to-screen under 5 s; `--check` exits 1 if
one is missed.

`--quiet-only`: the quiet window alone (every phone's feed answered once, then polls with
nothing changing), the server's CPU a poll beside the same poll in one process; no round.

`--service-worker`: the phones as the installable page makes them (static/phone-sw.js,
static/phone-offline.js): each has installed its service worker as a browser does, before the
measured minute (the worker's script, the copy of the page it keeps, the manifest and the page's
static files: once a phone, its cost printed apart), then polls exactly as before (the worker
passes each poll through, If-None-Match and all); its reports are sent by the page's queue (an
idempotency key, `X-Spread-Queue`, answered in JSON), and `--resend` of them sent a second time
with the same key, as a phone that lost the answer does. Prints how many games were recorded
twice (0 is the target).
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import random
import re
import subprocess
import sys
import threading
import time
import urllib.parse
import uuid

from load import (  # the same database, server and shell helpers as bench/load.py
    ROOT,
    Tally,
    apply_server_args,
    cpu_line,
    django_shell,
    free_port,
    fresh_database,
    load_average,
    percentile,
    server_args,
    server_cpu,
    server_env,
    start_server,
    stop_server,
)

SETUP = r"""
import json, sys
from tournament.phone import services as phones
from tournament.models import Division, Game, Player, Round, Tournament
n = int(sys.argv[-1])
t = Tournament.objects.create(name="Hall bench", slug="hall-bench", public=True)
d = Division.objects.create(tournament=t, name="A", self_report=True, check_in_open=True)
people = [Player.objects.create(division=d, number=i + 1, name=f"Player {i + 1}",
                                rating=1200 + 3 * i) for i in range(n)]
games = [Game.objects.create(division=d, round=1, table=i // 2 + 1, player1=people[i],
                             player2=people[i + 1], first=1) for i in range(0, n - 1, 2)]
Round.objects.create(division=d, number=1, published=True)
tokens = [phones.issue_link(p) for p in people]
from tournament.hall import clock
clock.start(d, 25, 1)  # the round's clock running, as in the hall
print("JSON" + json.dumps({"tokens": tokens, "games": len(games)}))
"""

DISPLAY = "/api/v1/t/hall-bench/A/display"
CLOCK = "/api/v1/t/hall-bench/A/clock"
SCOREBOARD = "/api/v1/t/hall-bench/A/scoreboard"
SCREEN_POLL = 2.0  # static/display.js: 2 s after an unchanged answer
SCREEN_BUSY_POLL = 1.0  # and 1 s after a new one

COUNT = r"""
import json
from django.db.models import Count
from tournament.models import Change, Game
twice = (
    Change.objects.filter(game__isnull=False, action=Change.Action.CREATE)
    .values("game").annotate(n=Count("id")).filter(n__gt=1).count()
)
recorded = list(Game.objects.exclude(score1=None).values_list("table", flat=True))
print("JSON" + json.dumps({"recorded": recorded, "twice": twice}))
"""
# The same polls in one process (the test client, middleware included), on the same database, in
# the same state as the server's quiet window (before the server starts, with a cache of its own):
# what a poll costs without the server around it. Five passes over the phones, the median pass:
# one pass is a third of a second, and the machine's noise moved a single pass by a third.
IN_PROCESS = r"""
import json, statistics, sys, time
from django.test import Client
tokens = json.loads(sys.argv[-1])
client = Client(HTTP_HOST="127.0.0.1")
tags = {t: client.get(f"/p/{t}/live")["ETag"] for t in tokens}
def cost(tag):
    for t in tokens:  # once unmeasured: the worker's memos, as a server's warm worker has them
        client.get(f"/p/{t}/live", HTTP_IF_NONE_MATCH=tag(t), HTTP_X_SPREAD_PARTS="1")
    passes = []
    for _ in range(5):
        began = time.process_time()
        for t in tokens:
            client.get(f"/p/{t}/live", HTTP_IF_NONE_MATCH=tag(t), HTTP_X_SPREAD_PARTS="1")
        passes.append((time.process_time() - began) / len(tokens) * 1000)
    return statistics.median(passes)
print("JSON" + json.dumps({"304": cost(tags.get), "200": cost(lambda t: '"changed"')}))
"""
STATIC = re.compile(r'(?:src|href)="(/static/[^"]+)"')


def request(port: int, method: str, path: str, body: str = "", headers=None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        response = conn.getresponse()
        text = response.read().decode(errors="replace")  # a static file may be an image
        return response.status, text, response.getheader("Set-Cookie") or ""
    finally:
        conn.close()


def install(port: int, token: str) -> tuple[int, bool]:
    """What a phone's browser asks for when the page installs its service worker: the worker's
    script, the copy of the page it keeps (X-Spread-Copy), the manifest, the page's static
    files (once: the browser's own cache has them after). How many requests, and all 200."""
    ok = request(port, "GET", "/p/sw.js")[0] == 200
    status, page, _ = request(port, "GET", f"/p/{token}/", headers={"X-Spread-Copy": "1"})
    ok &= status == 200
    ok &= request(port, "GET", f"/p/{token}/manifest.webmanifest")[0] == 200
    files = list(dict.fromkeys(STATIC.findall(page)))
    for path in files:
        ok &= request(port, "GET", path)[0] == 200
    return 3 + len(files), ok


def install_all(port: int, tokens: list[str], pid: int) -> str:
    """Every phone installs its service worker, 20 at a time: what it cost the server."""
    from concurrent.futures import ThreadPoolExecutor

    cpu = server_cpu(pid)
    began = time.perf_counter()
    with ThreadPoolExecutor(20) as pool:
        done = list(pool.map(lambda token: install(port, token), tokens))
    cpu = server_cpu(pid) - cpu
    requests = sum(n for n, _ in done)
    failed = sum(1 for _, ok in done if not ok)
    return (
        f"install: {len(tokens)} phones, {requests} requests in {time.perf_counter() - began:.1f}"
        f" s, {failed} failed; server CPU {cpu:.1f} s, {cpu / len(tokens) * 1000:.1f} ms a phone"
    )


def report(
    port: int,
    token: str,
    mine: int,
    theirs: int,
    tally: Tally,
    queue: bool = False,
    resend: bool = False,
) -> bool:
    """Open the page (for the CSRF cookie and field), then send the report, as a phone does;
    with `queue`, as the page's queue sends it (a key; answered in JSON), and with `resend`
    a second time with the same key (the first answer lost)."""
    status, page, cookie = request(port, "GET", f"/p/{token}/")
    csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    jar = re.search(r"csrftoken=([^;]+)", cookie)
    if status != 200 or not csrf or not jar:
        tally.add("report", 0.0, False)
        return False
    fields = {"csrfmiddlewaretoken": csrf.group(1), "my_score": mine, "opponent_score": theirs}
    headers = {
        "Content-Type": "application/x-www-form-urlencoded",
        "Cookie": f"csrftoken={jar.group(1)}",
    }
    if queue:
        fields["idempotency_key"] = str(uuid.uuid4())
        headers["X-Spread-Queue"] = "send"
    body = urllib.parse.urlencode(fields)
    ok = False
    for _ in range(2 if resend else 1):
        start = time.perf_counter()
        status, answer, _ = request(port, "POST", f"/p/{token}/report", body, headers)
        ok = status == 200 and '"go"' in answer if queue else status == 302
        tally.add("report", time.perf_counter() - start, ok)
    return ok


def quiet_figures(args, inproc, opening, cpu, polls, load) -> int:
    """The quiet window's line: the server's CPU a poll beside the same poll in one process."""
    print(f"every phone's feed answered once within {opening:.1f} s")
    server = cpu / max(1, polls) * 1000
    print(
        f"quiet ({args.quiet:.0f} s of polls alone, {load}): {polls} polls,"
        f" server CPU {server:.2f} ms a poll; in one process {inproc['304']:.2f} ms a 304,"
        f" {inproc['200']:.2f} ms a 200 ({server / inproc['304']:.2f}× the 304)"
    )
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--poll", type=float, default=3.0, help="seconds between a phone's polls")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--screens", type=int, default=4, help="hall displays polling the feed")
    parser.add_argument(
        "--every-table",
        action="store_true",
        help="every screen shows every table (by default each is beside its part of the hall)",
    )
    parser.add_argument(
        "--quiet", type=float, default=10.0, help="seconds of polls alone before the round"
    )
    parser.add_argument(
        "--keep-alive",
        action="store_true",
        help="phones and screens keep their connection between polls, as browsers do",
    )
    parser.add_argument(
        "--quiet-only",
        action="store_true",
        help="the quiet window alone (a poll's CPU, the server's and in one process); no round",
    )
    parser.add_argument("--check", action="store_true")
    parser.add_argument(
        "--service-worker", action="store_true", help="phones with the installable page"
    )
    parser.add_argument(
        "--resend", type=float, default=0.0, help="share of reports sent twice with one key"
    )
    server_args(parser)
    parser.add_argument(
        "--database-url", default="postgres://postgres@127.0.0.1:5432/spread_hall_bench"
    )
    args = parser.parse_args()
    fresh_database(args.database_url)
    port = free_port()
    env = server_env(args.database_url, args.workers, f"hall-{port}")
    apply_server_args(env, args)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True
    )
    info = django_shell(env, SETUP, str(args.players))
    tokens: list[str] = info["tokens"]
    prefix = {"CACHE_KEY_PREFIX": f"hall-{port}-in-process"}
    inproc = django_shell({**env, **prefix}, IN_PROCESS, json.dumps(tokens[:300]))
    server, stderr_lines = start_server(env, port)
    tally = Tally()
    stop = threading.Event()

    saved: dict[int, float] = {}  # table: when its second report was answered
    on_screen: dict[int, float] = {}  # table: when a screen's feed first showed it
    on_phone: dict[int, float] = {}  # player index: when their live feed first had the result
    # The live feed's answers: a new body, a new record or rank alone, or nothing changed.
    answers = {200: 0, 304: 0}
    parts = [0]
    opened: set[int] = set()  # the phones whose feed has answered once
    stopping: asyncio.Event | None = None
    ready = threading.Event()

    async def get(path: str, etag: str, kept: list | None = None) -> tuple[int, str, str]:
        """One GET: status, body, ETag. On a connection of its own, closed after it, as
        bench/load.py's; with `kept` (`--keep-alive`), on the connection kept there from the
        last, as a browser keeps one, and a new one when the server has closed it."""
        match = f"If-None-Match: {etag}\r\n" if etag else ""
        if etag and path.endswith("/live"):  # as static/phone.js: a record and rank alone
            match += "X-Spread-Parts: 1\r\n"
        close = "" if kept is not None else "Connection: close\r\n"
        request = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{match}{close}\r\n".encode()
        for attempt in (1, 2):
            if kept:
                reader, writer = kept
            else:
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
            try:
                writer.write(request)
                raw = await reader.readuntil(b"\r\n\r\n")
            except (OSError, asyncio.IncompleteReadError):
                writer.close()
                if kept:
                    kept.clear()
                if attempt == 2 or kept is None:
                    raise ConnectionError("no answer") from None
                continue
            break
        lines = raw[:-4].decode("latin-1").split("\r\n")
        headers = {k.lower(): v for k, _, v in (line.partition(": ") for line in lines[1:])}
        if "content-length" in headers:
            body = await reader.readexactly(int(headers["content-length"]))
        elif headers.get("transfer-encoding", "").lower() == "chunked":
            body = b""
            while size := int((await reader.readuntil(b"\r\n"))[:-2], 16):
                body += (await reader.readexactly(size + 2))[:-2]
            await reader.readuntil(b"\r\n")
        elif lines[0].split()[1] in ("204", "304"):
            body = b""
        else:
            body = await reader.read()
        if kept is None or headers.get("connection", "").lower() == "close":
            writer.close()
            if kept is not None:
                kept.clear()
        elif not kept:
            kept[:] = [reader, writer]
        return int(lines[0].split()[1]), body.decode(errors="replace"), headers.get("etag", etag)

    async def timed(
        kind: str, path: str, etag: str, kept: list | None = None
    ) -> tuple[int, str, str, float]:
        start = time.perf_counter()
        try:
            status, body, etag = await asyncio.wait_for(get(path, etag, kept), 30)
        except (TimeoutError, OSError, ValueError, IndexError, asyncio.IncompleteReadError):
            status, body = 0, ""
        now = time.perf_counter()
        tally.add(kind, now - start, status in (200, 304))
        if kind == "live" and status in (200, 304):
            answers[status] += 1
        return status, body, etag, now

    async def phone(index: int, token: str) -> None:
        """A phone with its page open: the live feed `--poll` s after each answer, as
        static/phone.js."""
        await asyncio.sleep(random.random() * args.poll)
        etag = ""
        kept: list | None = [] if args.keep_alive else None
        while not stopping.is_set():
            status, body, etag, now = await timed("live", f"/p/{token}/live", etag, kept)
            if status in (200, 304):
                opened.add(index)
            if status == 200 and '"body"' not in body:
                parts[0] += 1
            if status == 200 and "Recorded:" in body and index not in on_phone:
                on_phone[index] = now
            await asyncio.sleep(args.poll)

    async def screen(k: int) -> None:
        """A hall display, as static/display.js: the display feed 2 s after each answer, 1 s
        after a new one, and the clock every 2 s, each with If-None-Match; the scoreboard feed
        after each new display feed (until it answers 404: none here); the screen beside the
        k-th part of the tables (`?tables=`) unless `--every-table`."""
        etags = {"display": "", "clock": "", "scoreboard": ""}
        games = info["games"]
        per = -(-games // args.screens)
        display = DISPLAY
        if not args.every_table:
            display += f"?tables={k * per + 1}-{min(games, (k + 1) * per)}"
        kept: list | None = [] if args.keep_alive else None
        scoreboard = True
        await asyncio.sleep(random.random() * SCREEN_POLL)
        clocked = 0.0
        while not stopping.is_set():
            news = False
            for kind, path in (("display", display), ("clock", CLOCK)):
                if kind == "clock":
                    if time.perf_counter() - clocked < SCREEN_POLL - 0.05:
                        continue
                    clocked = time.perf_counter()
                status, body, etags[kind], now = await timed(kind, path, etags[kind], kept)
                if kind != "display" or status != 200:
                    continue
                news = True
                for row in json.loads(body)["results"]:
                    on_screen.setdefault(row["table"], now)
                if scoreboard:
                    start = time.perf_counter()
                    try:
                        status, _, etags["scoreboard"] = await get(
                            SCOREBOARD, etags["scoreboard"], kept
                        )
                    except (OSError, asyncio.IncompleteReadError):
                        status = 0
                    if status == 404:
                        scoreboard = False
                    else:
                        tally.add("scoreboard", time.perf_counter() - start, status in (200, 304))
            await asyncio.sleep(SCREEN_BUSY_POLL if news else SCREEN_POLL)

    async def hall_clients() -> None:
        nonlocal stopping
        stopping = asyncio.Event()
        ready.set()
        tasks = [asyncio.create_task(phone(i, t)) for i, t in enumerate(tokens)]
        tasks += [asyncio.create_task(screen(k)) for k in range(args.screens)]
        await asyncio.get_running_loop().run_in_executor(None, stop.wait)
        stopping.set()
        await asyncio.wait(tasks, timeout=60)

    def game_reported(i: int) -> None:
        one, two = tokens[2 * i], tokens[2 * i + 1]
        a, b = random.randint(300, 500), random.randint(300, 500)
        done = True  # both reports answered as taken
        for token, mine, theirs in ((one, a, b), (two, b, a)):
            try:
                again = args.service_worker and random.random() < args.resend
                done &= report(port, token, mine, theirs, tally, args.service_worker, again)
            except OSError:
                tally.add("report", 0.0, False)
                done = False
        if done:
            saved[i + 1] = time.perf_counter()

    def reporter() -> None:
        """Each game's two reports start on schedule, 100 games spread over the minute, however
        long the answers take: the load is the hall's, not what a slow server lets through."""
        games = list(range(info["games"]))
        random.shuffle(games)
        gap = args.seconds / max(1, len(games))
        started = time.perf_counter()
        running = []
        for n, i in enumerate(games):
            time.sleep(max(0.0, started + n * gap - time.perf_counter()))
            thread = threading.Thread(target=game_reported, args=(i,), daemon=True)
            thread.start()
            running.append(thread)
        for thread in running:
            thread.join(timeout=120)

    installed = ""
    try:
        if args.service_worker:
            installed = install_all(port, tokens, server.pid)
        clients = threading.Thread(target=lambda: asyncio.run(hall_clients()), daemon=True)
        clients.start()
        ready.wait()
        # Every phone's first poll (its page's body, rendered once), then a quiet window: polls
        # alone, nothing changing.
        opening = time.perf_counter()
        while len(opened) < len(tokens) and time.perf_counter() - opening < 300:
            stop.wait(0.5)
        opening = time.perf_counter() - opening
        stop.wait(args.poll)
        quiet_cpu, quiet_polls = server_cpu(server.pid), len(tally.times["live"])
        quiet_load = load_average()
        stop.wait(args.quiet)
        quiet_cpu = server_cpu(server.pid) - quiet_cpu
        quiet_polls = len(tally.times["live"]) - quiet_polls
        if args.quiet_only:
            stop.set()
            clients.join(timeout=90)
            return quiet_figures(args, inproc, opening, quiet_cpu, quiet_polls, quiet_load)
        tally.times.clear()
        answers[200] = answers[304] = 0
        began = time.perf_counter()
        cpu, client_cpu = server_cpu(server.pid), time.process_time()
        reporting = threading.Thread(target=reporter)
        reporting.start()
        reporting.join()
        stop.wait(args.poll + SCREEN_POLL + 1.0)  # the last results' way to the screens
        elapsed = time.perf_counter() - began
        cpu, client_cpu = server_cpu(server.pid) - cpu, time.process_time() - client_cpu
        requests = sum(len(t) for t in tally.times.values())
        stop.set()
        clients.join(timeout=90)
    finally:
        stop_server(server)
    print(
        f"{args.players} phones, {info['games']} games reported over {args.seconds:.0f} s,"
        f" {args.screens} screens; {args.workers} workers of {args.threads} threads,"
        f" cache {'per worker' if args.local_cache else 'Redis'}; {load_average()}"
    )
    quiet_figures(args, inproc, opening, quiet_cpu, quiet_polls, quiet_load)
    counted = django_shell(env, COUNT)
    twice, recorded = counted["twice"], set(counted["recorded"])
    # Lost: a game both of whose reports were answered as taken, with no result. A report that
    # got no answer (a timeout, a refused connection) is the phone's to send again.
    lost = len(set(saved) - recorded)
    unanswered = info["games"] - len(saved)
    missed = False
    for kind in ("live", "report", "display", "clock", "scoreboard"):
        times = tally.times[kind]
        if not times:
            print(f"{kind:<10} none (the server has no such feed)")
            continue
        p50, p99 = percentile(times, 0.5) * 1000, percentile(times, 0.99) * 1000
        print(
            f"{kind:<10} {len(times) / elapsed:7.1f} req/s  p50 {p50:6.0f}"
            f" ms  p99 {p99:6.0f} ms  errors {tally.errors[kind]}"
        )
        missed |= p99 >= 500 or tally.errors[kind] > 0
    print(
        f"reports: {info['games']} games, {len(recorded)} recorded, {lost} lost, {twice} twice;"
        f" {unanswered} games with a report unanswered (the phone sends it again)"
    )
    screen_lag = [max(0.0, on_screen[t] - saved[t]) for t in saved if t in on_screen]
    # Each player's own result on their own phone: from its save to their feed's first showing.
    phone_lag = [
        max(0.0, on_phone[p] - at)
        for t, at in saved.items()
        for p in (2 * (t - 1), 2 * (t - 1) + 1)
        if p in on_phone
    ]
    within = sum(1 for lag in screen_lag if lag < 5.0)
    print(
        f"result-to-screen: p50 {percentile(screen_lag, 0.5):.2f} s"
        f"  max {max(screen_lag, default=float('nan')):.2f} s; {within} of {len(saved)} results"
        f" within 5 s ({within / max(1, len(saved)):.0%}), {len(screen_lag)} seen"
    )
    print(
        f"own result on the phone: p50 {percentile(phone_lag, 0.5):.2f} s"
        f"  max {max(phone_lag, default=float('nan')):.2f} s"
        f"  ({len(phone_lag)} of {2 * len(saved)} players saw it)"
    )
    polls = answers[200] + answers[304]
    print(
        f"live answers: {answers[200] - parts[0]} bodies (200), {parts[0]} a record and rank"
        f" alone (200), {answers[304]} unchanged (304): {answers[200] / max(1, polls):.0%} of"
        " polls brought something new"
    )
    missed |= len(screen_lag) < len(saved) or max(screen_lag, default=0.0) >= 5.0
    print(cpu_line(cpu, requests) + f"; the bench's own CPU {client_cpu:.1f} s")
    if installed:
        print(installed)
    if stderr_lines:
        print("server errors:\n" + "".join(stderr_lines[-10:]))
    missed |= lost > 0 or twice > 0
    return 1 if args.check and missed else 0


if __name__ == "__main__":
    sys.exit(main())
