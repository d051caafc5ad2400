"""The hall's server against 200 slow sockets: do /healthz and a standings page keep answering?

    .venv/bin/python bench/slow_clients.py [--slow 200] [--threads 32 256] [--seconds 15]

For each connection-thread count (WEB_THREADS) in turn: `python -m config.serve` as `make
hall` runs it (2 workers, gthread, one render thread a worker) on a free port of 127.0.0.1, a
fresh SQLite file with a 120-player division whose first round is played; 4 clients ask for
/healthz and the division's standings in turn for `--seconds` while quiet, then again with
`--slow` sockets open, a third of each kind:

- head: a request's head sent one byte a second, never finished;
- body: a whole head with `Content-Length: 4000`, then a few bytes of the body every second;
- read: a standings page asked for whole over a 4 KB receive buffer, read 256 bytes a second.

Printed: each page's answers, p50, p99 and slowest, and the requests with no answer within 10
s. Loopback only; every loop is bounded, and the server is stopped however the bench ends.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import socket
import subprocess
import sys
import tempfile
import threading
import time

from load import ROOT, django_shell, free_port, page_setup, server_env, start_server, stop_server

SETUP = page_setup("slow-bench", "Slow bench", 120)
TIMEOUT = 10.0
HEAD = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"x" * 400 + b"\r\n\r\n"
BODY = (
    b"POST /i18n/setlang/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    b"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 4000\r\n\r\n"
)


def _get(port: int, path: str) -> tuple[int, float]:
    start = time.monotonic()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        response.read()
        return response.status, time.monotonic() - start
    finally:
        conn.close()


def probe(port: int, paths: list[str], seconds: float) -> dict[str, tuple[list[float], int]]:
    """4 clients asking for `paths` in turn for `seconds`: each path's answer times (200s)
    and how many got no 200 within TIMEOUT."""
    found: dict[str, tuple[list[float], list[int]]] = {p: ([], [0]) for p in paths}
    lock = threading.Lock()
    stop = time.monotonic() + seconds

    def client(n: int) -> None:
        turn = n
        while time.monotonic() < stop:
            path = paths[turn % len(paths)]
            turn += 1
            try:
                status, took = _get(port, path)
            except OSError:
                status, took = 0, TIMEOUT
            with lock:
                if status == 200:
                    found[path][0].append(took)
                else:
                    found[path][1][0] += 1

    clients = [threading.Thread(target=client, args=(n,), daemon=True) for n in range(4)]
    for thread in clients:
        thread.start()
    for thread in clients:
        thread.join(timeout=seconds + TIMEOUT + 5)
    return {p: (times, failed[0]) for p, (times, failed) in found.items()}


class SlowSockets:
    """`count` slow connections (heads, bodies and readers in turn), driven by one thread that
    gives each its next few bytes (or reads its next few) once a second until `close`."""

    def __init__(self, port: int, count: int, page: str) -> None:
        self.port, self.page = port, page
        self.socks: list[tuple[str, socket.socket]] = []
        self.sent = [0] * count
        self.stop = threading.Event()
        for n in range(count):
            kind = ("head", "body", "read")[n % 3]
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            if kind == "read":
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sock.settimeout(5)
            sock.connect(("127.0.0.1", port))
            if kind == "body":
                sock.sendall(BODY)
            elif kind == "read":
                sock.sendall(f"GET {page} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
            sock.setblocking(False)
            self.socks.append((kind, sock))
        self.thread = threading.Thread(target=self._drive, daemon=True)
        self.thread.start()

    def _drive(self) -> None:
        while not self.stop.wait(1.0):
            for n, (kind, sock) in enumerate(self.socks):
                with contextlib.suppress(OSError):
                    if kind == "head" and self.sent[n] < len(HEAD) - 4:  # never the end
                        sock.send(HEAD[self.sent[n] : self.sent[n] + 1])
                        self.sent[n] += 1
                    elif kind == "body" and self.sent[n] < 3900:
                        sock.send(b"a%d=1&" % n)
                        self.sent[n] += 5
                    elif kind == "read":
                        sock.recv(256)

    def close(self) -> None:
        self.stop.set()
        self.thread.join(timeout=5)
        for _, sock in self.socks:
            sock.close()


def _line(label: str, path: str, times: list[float], failed: int) -> str:
    times = sorted(times)

    def at(q: float) -> float:
        return times[min(len(times) - 1, int(q * len(times)))] * 1000 if times else float("nan")

    worst = times[-1] * 1000 if times else float("nan")
    return (
        f"  {label:<16} {path:<18} {len(times):5d} answers  p50 {at(0.5):7.1f} ms  "
        f"p99 {at(0.99):7.1f} ms  slowest {worst:7.1f} ms  no answer in {TIMEOUT:g} s: {failed}"
    )


def run(threads: int, args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory(prefix="spread-slow-") as folder:
        port = free_port()
        env = server_env(f"sqlite:///{folder}/db.sqlite3", 2, f"slow-{port}")
        env.pop("REDIS_URL", None)
        env |= {"STATIC_ROOT": f"{folder}/static", "WEB_THREADS": str(threads)}
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
            cwd=ROOT, env=env, check=True, timeout=600,
        )  # fmt: skip
        info = django_shell(env, SETUP)
        server, log = start_server(env, port)
        try:
            paths = ["/healthz", info["page"]]
            print(f"== WEB_THREADS={threads}, 2 workers, {args.slow} slow sockets")
            quiet = probe(port, paths, args.seconds)
            slow = SlowSockets(port, args.slow, info["page"])
            try:
                time.sleep(3)  # each has sent a byte more: it holds its connection
                attacked = probe(port, paths, args.seconds)
            finally:
                slow.close()
        finally:
            stop_server(server)
        for label, figures in (("quiet", quiet), (f"{args.slow} slow", attacked)):
            for path, (times, failed) in figures.items():
                print(_line(label, path, times, failed), flush=True)
        troubles = [x for x in log if any(w in x for w in ("Traceback", "CRITICAL"))]
        print(f"  the server's log: {len(troubles)} tracebacks")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--slow", type=int, default=200, help="slow sockets (default 200)")
    parser.add_argument("--threads", type=int, nargs="+", default=[32, 256])
    parser.add_argument("--seconds", type=float, default=15.0, help="each probe's length")
    args = parser.parse_args()
    for threads in args.threads:
        run(threads, args)


if __name__ == "__main__":
    main()
