"""A Redis server of a bench's (or test's) own, on an ephemeral loopback port, to kill and start
again without touching the machine's shared Redis. Its dump (`save`) is kept in its folder and
read back by the next `start` unless `empty=True`."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from pathlib import Path

REDIS_SERVER = shutil.which("redis-server")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class RedisServer:
    def __init__(self, folder: Path, port: int | None = None) -> None:
        if REDIS_SERVER is None:
            raise RuntimeError("redis-server is not installed")
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.port = port or free_port()
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    @property
    def dump(self) -> Path:
        return self.folder / "dump.rdb"

    def start(self, empty: bool = False, timeout: float = 10.0) -> None:
        """Start it on its port; with `empty`, without the contents it last saved."""
        assert REDIS_SERVER is not None
        if empty:
            self.dump.unlink(missing_ok=True)
        self.process = subprocess.Popen(
            [
                REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no", "--dir", str(self.folder),
                "--dbfilename", "dump.rdb", "--protected-mode", "yes",
            ],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        import redis

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                if self.client().ping():
                    return
            except (OSError, redis.RedisError):  # not listening yet, or loading its dump
                pass
            time.sleep(0.05)
        self.kill()
        raise RuntimeError(f"redis-server did not start on port {self.port}")

    def client(self):  # type: ignore[no-untyped-def]
        import redis

        return redis.Redis(port=self.port, socket_connect_timeout=0.5, socket_timeout=2)

    def save(self) -> None:
        """Write its contents to its dump now (a later `start` reads them back: a server that
        comes back with what it had, stale)."""
        self.client().save()

    def kill(self) -> None:
        """Kill it at once (SIGKILL: nothing saved), as a crash would."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)
        self.process = None
