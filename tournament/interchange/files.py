"""Reading the files an import is given or a file names: the one check every import makes.

A file given by the operator (`importtsh PATH`, `importtou PATH --printout FILE`) must be a
regular file under the size cap. A file another file names (a `config.tsh`'s `division A a.t`)
must also be inside the naming file's folder or below it: a relative name, with every link on
the way resolved to a place inside that folder. Devices (`/dev/zero` grew an import to 23 GB),
FIFOs, sockets and directories are refused before they are opened; a file is read no further
than the cap, and a file that changes between the look and the read is refused. Each refusal
is a `FileRefused` whose message is one line naming the file as it was written.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path, PurePath

# No tsh, .tou or printout file of a real event comes near it: a 500-player, 31-round `.t` is
# about 150 KB, and a config.tsh carrying every division's file a few MB.
MAX_FILE_BYTES = 16 * 1024 * 1024


ONLY_INSIDE = "only a file in the config's folder or below it is read"


class FileRefused(ValueError):
    """A file an import may not read: `name` as it was written, `reason` why; the message is
    both, in one line."""

    def __init__(self, name: str, reason: str) -> None:
        self.name = name
        self.reason = reason
        super().__init__(f"{name}: {reason}")


def _kind(mode: int) -> str | None:
    """What a file is when it is not a regular file; None for a regular one."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _flags() -> int:
    flags = os.O_RDONLY | os.O_NONBLOCK  # a FIFO swapped in after the look does not block
    for name in ("O_NOFOLLOW", "O_NOCTTY", "O_CLOEXEC"):
        flags |= getattr(os, name, 0)
    return flags


def read_file(path: str | Path, *, cap: int | None = None, shown: str | None = None) -> bytes:
    """The bytes of a regular file of at most `cap` bytes (default MAX_FILE_BYTES; a link to one
    is followed); `shown`: the name the refusal says (the file's name by default)."""
    cap = MAX_FILE_BYTES if cap is None else cap
    where = Path(path)
    said = shown if shown is not None else where.name or str(where)
    try:
        found = os.stat(where)
    except FileNotFoundError:
        raise FileRefused(said, "no such file") from None
    except (OSError, ValueError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        raise FileRefused(said, f"cannot be read ({reason})") from None
    kind = _kind(found.st_mode)
    if kind is not None:
        raise FileRefused(said, f"{kind}, not a regular file")
    if found.st_size > cap:
        raise FileRefused(said, f"{found.st_size:,} bytes, over the {cap:,} a file may have")
    try:
        fd = os.open(os.path.realpath(where), _flags())
    except OSError as error:
        raise FileRefused(said, f"cannot be read ({error.strerror})") from None
    try:
        opened = os.fstat(fd)
        if (opened.st_dev, opened.st_ino) != (found.st_dev, found.st_ino) or _kind(opened.st_mode):
            raise FileRefused(said, "changed while it was read")
        chunks: list[bytes] = []
        size = 0
        while size <= cap:
            chunk = os.read(fd, min(1 << 20, cap + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    finally:
        os.close(fd)
    if size > cap:
        raise FileRefused(said, f"over the {cap:,} bytes a file may have")
    return b"".join(chunks)


def read_beside(folder: str | Path, name: str, *, cap: int | None = None) -> bytes:
    """The bytes of the file `name` as another file in `folder` names it: a relative name that
    stays inside `folder` (or below it) once every link is resolved, then as `read_file`."""
    if not name or "\x00" in name:
        raise FileRefused(repr(name), "not a file name")
    if PurePath(name).is_absolute() or name.startswith("~"):
        raise FileRefused(name, f"an absolute path; {ONLY_INSIDE}")
    root = os.path.realpath(folder)
    target = os.path.realpath(os.path.join(root, name))
    if os.path.commonpath([root, target]) != root:
        if ".." in PurePath(name).parts:
            raise FileRefused(name, f"outside the config's folder; {ONLY_INSIDE}")
        raise FileRefused(name, f"a link to {target}, outside the config's folder; {ONLY_INSIDE}")
    return read_file(target, cap=cap, shown=name)
