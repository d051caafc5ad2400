"""The real server (`python -m config.serve`, as `make serve` and `make hall` run it) keeps
answering while a dozen slow clients hang on to it, each sending a header line (or a few bytes of
its body) every second or two and never finishing its request: they hold threads, never a
worker, nor the thread a worker renders in."""

from __future__ import annotations

import http.client
import os
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SLOW_CLIENTS = 12


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(port: int, path: str, timeout: float) -> tuple[int, float]:
    """The status of GET `path` and the seconds it took; OSError past `timeout`."""
    start = time.monotonic()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        response.read()
        return response.status, time.monotonic() - start
    finally:
        conn.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    """`python -m config.serve` on a free port of loopback, a SQLite file its database; its port.
    Stopped, with its workers, however the tests end."""
    tmp_path = tmp_path_factory.mktemp("serve")
    port = _free_port()
    unset = ("DEBUG", "SECRET_KEY", "DATABASE_URL", "REDIS_URL", "WEB_THREADS", "PROXY_COUNT")
    env = {k: v for k, v in os.environ.items() if k not in unset and not k.startswith("DJANGO")}
    env |= {
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "False",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "STATIC_ROOT": str(tmp_path / "static"),
        "ALLOWED_HOSTS": "127.0.0.1",
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "WEB_CONCURRENCY": "2",
    }
    log = (tmp_path / "server.log").open("w")
    process = subprocess.Popen(
        [sys.executable, "-m", "config.serve"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,  # its own process group: the workers are stopped with it
    )
    try:
        deadline = time.monotonic() + 120  # migrations on a fresh database, on a busy machine
        while True:
            try:
                if _get(port, "/healthz", timeout=2)[0] == 200:
                    break
            except OSError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail("the server did not start:\n" + (tmp_path / "server.log").read_text())
            time.sleep(0.3)
        yield port
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)
        log.close()


# A request's head sent a header line at a time; a form's body sent a few bytes at a time, to the
# language switcher, whose view reads it (it takes no CSRF token, which would be checked first).
HEAD = (b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n", b"X-Slow-%d: %d\r\n")
BODY = (
    b"POST /i18n/setlang/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    b"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 4000\r\n\r\n",
    b"a%d=%d&",
)


def _slow_clients(
    port: int, count: int, stop: threading.Event, start: bytes, more: bytes
) -> list[threading.Thread]:
    """`count` connections that each send `start`, then `more` every second or two, never
    ending their request, until `stop`."""
    connected = threading.Barrier(count + 1, timeout=10)

    def client(n: int) -> None:
        with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
            sock.sendall(start)
            connected.wait()
            line = 0
            while not stop.wait(1.0 + n % 2):
                try:
                    sock.sendall(more % (n, line))
                except OSError:
                    return  # the server closed it: it may, but it has not to
                line += 1

    threads = [threading.Thread(target=client, args=(n,), daemon=True) for n in range(count)]
    for thread in threads:
        thread.start()
    connected.wait()
    return threads


@pytest.mark.parametrize("slow", [HEAD, BODY], ids=["head", "body"])
def test_the_server_answers_health_checks_and_pages_while_a_dozen_slow_clients_hang(
    server: int, slow: tuple[bytes, bytes]
) -> None:
    stop = threading.Event()
    threads = _slow_clients(server, SLOW_CLIENTS, stop, *slow)
    try:
        time.sleep(2.5)  # every slow client has sent a line more: each holds its connection
        answers = []
        until = time.monotonic() + 6
        while time.monotonic() < until:
            for path in ("/healthz", "/", "/accounts/login/"):
                try:
                    status, seconds = _get(server, path, timeout=3)
                except OSError as error:  # no answer within 3 s: stalled
                    status, seconds = type(error).__name__, 3.0
                answers.append((path, status, seconds))
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=5)

    assert {(path, status) for path, status, _ in answers} == {
        ("/healthz", 200),
        ("/", 200),
        ("/accounts/login/", 200),
    }
    assert len(answers) >= 9
    assert max(seconds for _, _, seconds in answers) < 2.0


def test_django_renders_every_request_in_one_thread_after_its_whole_body_has_come() -> None:
    from io import BytesIO

    from config.wsgi import OneRenderAtATime

    seen: list[tuple[int, bytes]] = []

    def app(environ, start_response):
        seen.append((threading.get_ident(), environ["wsgi.input"].read()))
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [b"ok"]

    served = OneRenderAtATime(app, spool_bytes=8)  # bodies over 8 bytes go to a temporary file
    answers: list[list[bytes]] = []

    def call(n: int) -> None:
        body = b"field=%d&" % n * (n + 1)
        environ = {"CONTENT_LENGTH": str(len(body)), "wsgi.input": BytesIO(body)}
        answers.append(list(served(environ, lambda status, headers: None)))

    callers = [threading.Thread(target=call, args=(n,)) for n in range(6)]
    for caller in callers:
        caller.start()
    for caller in callers:
        caller.join(timeout=10)
    served({"CONTENT_LENGTH": "", "wsgi.input": BytesIO(b"")}, lambda status, headers: None)

    assert answers == [[b"ok"]] * 6
    assert len({thread for thread, _ in seen}) == 1
    assert threading.get_ident() not in {thread for thread, _ in seen}
    assert sorted(body for _, body in seen) == sorted(
        [b"field=%d&" % n * (n + 1) for n in range(6)] + [b""]
    )


def test_a_worker_holds_its_heartbeat_while_a_request_renders_past_a_second(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """gunicorn's master kills a worker whose heartbeat stops for --timeout: a request that
    renders that long has its worker restarted, as a sync worker's is."""
    import gc

    from config import gunicorn_conf
    from config.wsgi import OneRenderAtATime

    release = threading.Event()

    def app(environ, start_response):
        release.wait(10)
        return [b"late"]

    class Worker:
        beats = 0

        def __init__(self) -> None:
            self.wsgi = OneRenderAtATime(app, spool_bytes=8)

        def notify(self) -> None:
            Worker.beats += 1

    worker = Worker()
    monkeypatch.setattr(gunicorn_conf, "HOLD_HEARTBEAT_AFTER", 0.2)
    before = gc.get_threshold()
    try:
        gunicorn_conf.post_worker_init(worker)
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
    worker.notify()  # idle: beats
    rendering = threading.Thread(target=worker.wsgi, args=({}, None))
    rendering.start()
    time.sleep(0.05)
    worker.notify()  # rendering for less than the hold: beats
    time.sleep(0.3)
    worker.notify()  # rendering past it: holds
    worker.notify()
    held = Worker.beats
    release.set()
    rendering.join(timeout=10)
    worker.notify()  # done: beats again

    assert (held, Worker.beats) == (2, 3)
