"""A TSH event uploaded at the desk: a config.tsh with its `.t` files, or a zip of them (or a
lone `.t` file, named by the director). The files are written into a folder of their own,
under the import's caps, and imported from there by `tsh_io.import_tsh`, which reads only the
files inside the config's folder; the director who uploads becomes the event's director.

The caps: at most `MAX_FILES` files (a zip's members counted), each at most
`files.MAX_FILE_BYTES` (the cap of every import), a zip at most that size itself and at most
`MAX_UNPACKED` bytes unpacked, its sizes checked as declared and as read (a zip bomb is refused
after reading at most the cap). A zip member whose path leaves the zip's own folder (absolute,
`..`) is refused; a folder, a hidden file or macOS's `__MACOSX` copies are skipped. A member
keeps the time stamp the zip gives it, so that an event without `event_date` is dated by its
files' days, as `importtsh` dates it; a file uploaded on its own carries none (today's).
"""

from __future__ import annotations

import datetime
import io
import os
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from django.contrib.auth.models import User
from django.utils import timezone
from django.utils.translation import gettext

from tournament.exchange import tsh_io
from tournament.interchange import files
from tournament.models import Tournament

MAX_FILES = 100
MAX_UNPACKED = 4 * files.MAX_FILE_BYTES
CONFIG = "config.tsh"


class UploadRefused(ValueError):
    """An upload that is not imported; the message says why, in a sentence."""


@dataclass(frozen=True, slots=True)
class Upload:
    path: PurePosixPath  # relative, inside the upload
    data: bytes
    modified: datetime.datetime | None = None


def _mib(size: int) -> int:
    return size // 2**20


def _plain_name(name: str) -> PurePosixPath:
    """A file's own name as the browser sent it (any folders dropped)."""
    name = PurePosixPath(name.replace("\\", "/")).name
    if not name or name in (".", "..") or "\x00" in name:
        raise UploadRefused(gettext("A file without a usable name was sent."))
    return PurePosixPath(name)


def _member_path(name: str) -> PurePosixPath | None:
    """A zip member's path inside the zip; None for one that is skipped; refused when it
    leaves the zip's folder."""
    raw = name.replace("\\", "/")
    path = PurePosixPath(raw)
    if "\x00" in raw or raw.startswith("/") or (len(raw) > 1 and raw[1] == ":"):
        raise UploadRefused(
            gettext("The zip holds %(name)s, a path outside its own folder: it is not read.")
            % {"name": repr(name)}
        )
    if ".." in path.parts:
        raise UploadRefused(
            gettext("The zip holds %(name)s, a path outside its own folder: it is not read.")
            % {"name": repr(name)}
        )
    if raw.endswith("/") or "__MACOSX" in path.parts or any(p.startswith(".") for p in path.parts):
        return None
    return path


def zip_members(data: bytes) -> list[Upload]:
    """The files of a zip, under the caps."""
    if len(data) > files.MAX_FILE_BYTES:
        raise UploadRefused(
            gettext("The zip is over %(most)s MiB.") % {"most": _mib(files.MAX_FILE_BYTES)}
        )
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        infos = archive.infolist()
    except (zipfile.BadZipFile, ValueError, OSError, EOFError):
        raise UploadRefused(gettext("The file is not a zip that can be read.")) from None
    if len(infos) > MAX_FILES:
        raise UploadRefused(
            gettext("The zip holds %(count)s files; at most %(most)s are read.")
            % {"count": len(infos), "most": MAX_FILES}
        )
    found: list[Upload] = []
    total = 0
    for info in infos:
        path = _member_path(info.filename)
        if path is None or info.is_dir():
            continue
        too_large = gettext("%(name)s in the zip is over %(most)s MiB.") % {
            "name": str(path),
            "most": _mib(files.MAX_FILE_BYTES),
        }
        if info.file_size > files.MAX_FILE_BYTES:
            raise UploadRefused(too_large)
        total += info.file_size
        if total > MAX_UNPACKED:
            raise UploadRefused(
                gettext("The zip unpacks to over %(most)s MiB.") % {"most": _mib(MAX_UNPACKED)}
            )
        try:
            with archive.open(info) as member:
                raw = member.read(files.MAX_FILE_BYTES + 1)
        except (zipfile.BadZipFile, ValueError, OSError, EOFError, NotImplementedError):
            raise UploadRefused(
                gettext("%(name)s in the zip is damaged.") % {"name": str(path)}
            ) from None
        if len(raw) > files.MAX_FILE_BYTES:
            raise UploadRefused(too_large)
        try:
            stamp = timezone.make_aware(datetime.datetime(*info.date_time))
        except (ValueError, OverflowError):
            stamp = None
        found.append(Upload(path, raw, stamp))
    return found


def uploads(sent: list[Any]) -> list[Upload]:
    """The files sent (Django's uploaded files): one zip unpacked, or each file by its name."""
    if len(sent) > MAX_FILES:
        raise UploadRefused(
            gettext("%(count)s files were sent; at most %(most)s are read.")
            % {"count": len(sent), "most": MAX_FILES}
        )
    if not sent:
        raise UploadRefused(gettext("No file was sent."))
    for one in sent:
        if one.size is not None and one.size > files.MAX_FILE_BYTES:
            raise UploadRefused(
                gettext("%(name)s is over %(most)s MiB.")
                % {"name": str(_plain_name(one.name or "")), "most": _mib(files.MAX_FILE_BYTES)}
            )
    if len(sent) == 1 and (sent[0].name or "").lower().endswith(".zip"):
        return zip_members(sent[0].read(files.MAX_FILE_BYTES + 1))
    found: list[Upload] = []
    seen: set[str] = set()
    for one in sent:
        path = _plain_name(one.name or "")
        if path.name.casefold() in seen:
            raise UploadRefused(gettext("Two files are called %(name)s.") % {"name": path.name})
        seen.add(path.name.casefold())
        data = one.read(files.MAX_FILE_BYTES + 1)
        if len(data) > files.MAX_FILE_BYTES:
            raise UploadRefused(
                gettext("%(name)s is over %(most)s MiB.")
                % {"name": path.name, "most": _mib(files.MAX_FILE_BYTES)}
            )
        found.append(Upload(path, data))
    return found


def _to_import(found: list[Upload]) -> PurePosixPath:
    """The file the event is imported from: the config.tsh nearest the top, else the one `.t`."""
    configs = [u.path for u in found if u.path.name.lower() == CONFIG]
    if configs:
        top = min(len(p.parts) for p in configs)
        nearest = [p for p in configs if len(p.parts) == top]
        if len(nearest) > 1:
            raise UploadRefused(
                gettext("The upload holds more than one config.tsh: send one event at a time.")
            )
        return nearest[0]
    tfiles = [u.path for u in found if u.path.name.lower().endswith(".t")]
    if len(tfiles) == 1:
        return tfiles[0]
    if not tfiles:
        raise UploadRefused(
            gettext("The upload holds no config.tsh and no .t file: nothing to import.")
        )
    raise UploadRefused(
        gettext(
            "The upload holds %(count)s .t files and no config.tsh: send the config.tsh that "
            "names them, or one .t file."
        )
        % {"count": len(tfiles)}
    )


def import_upload(
    sent: list[Any], director: User, name: str | None = None
) -> tuple[Tournament, list[str]]:
    """The event the files sent hold, directed by `director`; the notes the import made.
    Without a name given or config.tsh's `event_name`, the event is named after the zip's
    folder holding config.tsh, else the zip's own name; loose files need a name. Refused with
    a sentence (UploadRefused), nothing saved, when it cannot be imported."""
    found = uploads(sent)
    chosen = _to_import(found)
    zipped = len(sent) == 1 and (sent[0].name or "").lower().endswith(".zip")
    folder_name = chosen.parent.name or (PurePosixPath(sent[0].name).stem if zipped else "")
    notes: list[str] = []
    with tempfile.TemporaryDirectory(prefix="spread-tsh-") as folder:
        root = Path(folder)
        for upload in found:
            target = root.joinpath(*upload.path.parts)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(upload.data)
            if upload.modified is not None:
                seconds = upload.modified.timestamp()
                os.utime(target, (seconds, seconds))
        try:
            tournament = tsh_io.import_tsh(
                root.joinpath(*chosen.parts),
                name=name or None,
                director=director,
                notes=notes,
                folder_name=folder_name,
            )
        except tsh_io.ImportError_ as error:
            raise UploadRefused(str(error)) from error
    return tournament, notes
