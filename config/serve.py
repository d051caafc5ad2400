"""`make serve` and `make hall`: migrate, collect the static files, then hand over to gunicorn.

    python -m config.serve          # production: DEBUG off, SECRET_KEY, PORT, WEB_CONCURRENCY,
                                    # WEB_THREADS, WEB_KEEPALIVE
    python -m config.serve --hall   # the venue laptop: every interface, its addresses allowed,
                                    # the address players open printed with a QR code

Without DEBUG, settings refuse to load unless SECRET_KEY is set and is not the development key;
the hall keeps a key of its own in `.secret_key` beside manage.py so that one command is enough.
"""

from __future__ import annotations

import argparse
import os
import secrets
import socket
import sys
from html import escape
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Connection threads a worker (WEB_THREADS): as many slow clients as a worker holds with its
# pages still answering; Django renders in one thread a worker whatever this is (config/wsgi.py).
WEB_THREADS = 256
# Seconds an idle connection is kept open for its next request (WEB_KEEPALIVE): longer than a
# phone waits between two polls of its live feed (3 s, static/phone.js) and a screen between
# two of its feeds (2 s), so that each keeps one connection instead of opening one a poll. An
# idle connection waits in the worker's poller, holding no thread.
WEB_KEEPALIVE = 5


def hall_addresses() -> list[str]:
    """The laptop's own IPv4 addresses that other machines can reach, the likeliest first.

    The address of the interface a packet would leave by is found by connecting a UDP socket
    (which sends nothing); the host name's addresses add the others.
    """
    found: list[str] = []
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never answered, only routed
        found.append(probe.getsockname()[0])
    except OSError:
        pass  # no network at all: the host name's addresses, or loopback, are all there is
    finally:
        probe.close()
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        infos = []
    found += [str(info[4][0]) for info in infos]
    unique = list(dict.fromkeys(a for a in found if not a.startswith("127.")))
    return unique or ["127.0.0.1"]


def hall_secret_key(path: Path) -> str:
    """The hall's own secret key, made once and kept readable by its owner only."""
    if path.exists():
        return path.read_text(encoding="utf-8").strip()
    key = secrets.token_urlsafe(50)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(key + "\n")
    return key


def qr_page(url: str, path: Path) -> None:
    """A printable page with the address in large type and its QR code (written atomically)."""
    import segno

    svg = segno.make(url, error="m").svg_inline(scale=12, border=2)
    html = (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        "<title>Spread: results on your phone</title></head>\n"
        '<body style="font-family: sans-serif; text-align: center; margin-top: 3em">\n'
        "<h1>Standings, pairings and results</h1>\n"
        f"<div>{svg}</div>\n"
        f'<p style="font-size: 2em">{escape(url)}</p>\n'
        "<p>Join the hall's Wi-Fi, then scan the code or type the address.</p>\n"
        "</body></html>\n"
    )
    tmp = path.with_suffix(".tmp")
    tmp.write_text(html, encoding="utf-8")
    tmp.replace(path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hall", action="store_true", help="serve the venue's Wi-Fi")
    args = parser.parse_args(argv)

    env = os.environ
    env.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    env.setdefault("DEBUG", "False")
    port = env.get("PORT", "8000")
    host = env.get("HOST", "0.0.0.0")
    url = ""
    if args.hall:
        host = "0.0.0.0"
        addresses = hall_addresses()
        if not env.get("SECRET_KEY"):
            env["SECRET_KEY"] = hall_secret_key(ROOT / ".secret_key")
        allowed = [h for h in env.get("ALLOWED_HOSTS", "127.0.0.1,localhost").split(",") if h]
        env["ALLOWED_HOSTS"] = ",".join(dict.fromkeys([*allowed, *addresses]))
        url = f"http://{addresses[0]}:{port}/"

    import django
    from django.core.exceptions import ImproperlyConfigured

    try:
        django.setup()
    except (ImproperlyConfigured, ValueError) as error:
        print(f"spread: cannot start: {error}", file=sys.stderr)
        return 1

    from django.conf import settings
    from django.core.management import call_command

    call_command("migrate", interactive=False, verbosity=1)
    if not settings.DEBUG:
        call_command("collectstatic", interactive=False, verbosity=0)

    if args.hall:
        import segno

        page = ROOT / "hall-qr.html"
        qr_page(url, page)
        print(f"\nPlayers open: {url}\n")
        segno.make(url, error="m").terminal(compact=True)
        print(f"\nA printable page with this code: {page}\n", flush=True)

    workers = env.get("WEB_CONCURRENCY", "2")
    command = [
        sys.executable, "-m", "gunicorn", "config.wsgi:application",
        "--config", "python:config.gunicorn_conf",  # the workers' garbage collector
        "--bind", f"{host}:{port}",
        "--workers", workers,
        # Each connection a thread of its own while it sends its request and reads its answer, so
        # that slow clients hold threads, never a worker; Django renders one request at a time a
        # worker in a thread of its own (config/wsgi.py): measured on bench/load.py and
        # bench/hall.py, threads rendering at once made every page's tail longer (bench/RESULTS.md).
        # 256 connection threads a worker: 200 slow sockets on a worker leave its pages
        # answering (bench/slow_clients.py; 32 stalled every page past 60). A thread is made
        # when a connection needs one, and waits on its socket without the interpreter lock.
        "--worker-class", "gthread",
        "--threads", env.get("WEB_THREADS", str(WEB_THREADS)),
        "--keep-alive", env.get("WEB_KEEPALIVE", str(WEB_KEEPALIVE)),
        "--error-logfile", "-",
        "--graceful-timeout", "10",
        "--no-control-socket",  # several servers may share a machine (and its home folder)
    ]  # fmt: skip
    sys.stdout.flush()
    os.execv(sys.executable, command)  # never returns: gunicorn takes over the process


if __name__ == "__main__":
    sys.exit(main())
