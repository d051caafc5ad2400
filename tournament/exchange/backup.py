"""A tournament in one file, and back (`manage.py backup`, `manage.py restore`, the desk's
download): a zip of JSON, one file a table, and `manage.py restore` into any database.

The format (docs/formats.md, version 1): `manifest.json` ({"format": "spread-backup",
"version": 1, "slug", "written", "tables": {name: rows}, "users": [...], "link_key"}) and one
`<table>.json` a table, each a list of rows as {field: value}, keys as they were in the database
the file came from (`id`, `division_id`, ...), users by username. A restore gives every row a
new key and maps the old keys to the new ones; a row that points at a key the file does not
hold (another tournament's row) is refused, and so is a field Spread does not know. Players'
links are copied as they are stored (an HMAC digest and a Fernet seal under keys derived from
SECRET_KEY): they keep working where SECRET_KEY is the same; elsewhere the restore says so and
`manage.py playerlinks` issues new ones. No password, no session, nothing of another event.
"""

from __future__ import annotations

import base64
import datetime as dt
import io
import json
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import DatabaseError, IntegrityError, models, transaction
from django.utils import timezone
from django.utils.translation import gettext

from tournament.core import jsonin, tokens
from tournament.models import (
    Change,
    Claim,
    Dispute,
    Division,
    Game,
    Person,
    Player,
    PlayerLink,
    PlayerPhoto,
    Playoff,
    PlayoffGame,
    Round,
    Scoresheet,
    Tournament,
)
from tournament.pairing import basis
from tournament.people import services as linking

FORMAT = "spread-backup"
VERSION = 1
VERSIONS = (1,)  # the versions this code reads

# The import limits: a file over any of them is refused before it is read, by the sizes its
# zip declares, and again by the bytes read as each member streams (a declaration may lie).
# A thousand players' photos take 40 MB of JSON; a 500-player event's games, sheets and
# changes a few MB each. The memory a restore takes stays within 600 MB: the file, one member
# as read, and what reading them all makes (`jsonin.cost`, an upper bound, within MAX_READ_COST).
MAX_MEMBERS = 32
MAX_MEMBER_BYTES = 64 * 1024 * 1024  # one table's JSON, uncompressed
MAX_TOTAL_BYTES = 192 * 1024 * 1024
MAX_RATIO = 200  # uncompressed / compressed, for a member over 1 MiB
MAX_ROWS = 2_000_000  # rows of one table
MAX_FILE_BYTES = 128 * 1024 * 1024  # the zip itself
MAX_READ_COST = 384 * 1024 * 1024  # what the tables take in memory once read (`jsonin.cost`)
READ_CHUNK = 1024 * 1024

# The tables in the order a restore writes them (a row's keys point at earlier tables).
TABLES: list[tuple[str, type[models.Model]]] = [
    ("tournament", Tournament),
    ("divisions", Division),
    ("players", Player),
    ("player_photos", PlayerPhoto),
    ("rounds", Round),
    ("games", Game),
    ("scoresheets", Scoresheet),
    ("playoffs", Playoff),
    ("playoff_games", PlayoffGame),
    ("changes", Change),
    ("player_links", PlayerLink),
    ("claims", Claim),
    ("disputes", Dispute),
]
MEMBERS = {"manifest.json", *(f"{name}.json" for name, _ in TABLES)}
# Tables added since version 1 was first written: a file without them restores with none.
OPTIONAL = {"player_photos.json", "disputes.json"}
_LINK_PROBE = "spread backup: is this the same secret key?"


class BackupRefused(ValueError):
    """A file that is not a backup this code restores; the message is one line."""


@dataclass
class Restored:
    tournament: Tournament
    missing_users: list[str] = field(default_factory=list)
    links_copied: int = 0
    links_to_issue: int = 0  # links stored under another secret key, or taken here


def _fields(model: type[models.Model]) -> list[models.Field[Any, Any]]:
    return [f for f in model._meta.concrete_fields]


def _user_field(f: models.Field[Any, Any]) -> bool:
    return f.is_relation and f.related_model is get_user_model()


def _value(obj: models.Model, f: models.Field[Any, Any], usernames: dict[int, str]) -> Any:
    value = getattr(obj, f.attname)
    if _user_field(f):
        return usernames.get(value) if value is not None else None
    if isinstance(value, (dt.datetime, dt.date, dt.time)):
        return value.isoformat()
    if isinstance(value, (bytes, memoryview)):
        return base64.b64encode(bytes(value)).decode("ascii")  # a photo's JPEG
    return value


def _querysets(tournament: Tournament) -> dict[str, models.QuerySet[Any]]:
    t = tournament
    return {
        "tournament": Tournament.objects.filter(pk=t.pk),
        "divisions": Division.objects.filter(tournament=t).order_by("pk"),
        "players": Player.objects.filter(division__tournament=t).order_by("pk"),
        "player_photos": PlayerPhoto.objects.filter(player__division__tournament=t).order_by("pk"),
        "rounds": Round.objects.filter(division__tournament=t).order_by("pk"),
        "games": Game.objects.filter(division__tournament=t).order_by("pk"),
        "scoresheets": Scoresheet.objects.filter(game__division__tournament=t).order_by("pk"),
        "playoffs": Playoff.objects.filter(division__tournament=t).order_by("pk"),
        "playoff_games": PlayoffGame.objects.filter(playoff__division__tournament=t).order_by("pk"),
        "changes": Change.objects.filter(tournament=t).order_by("pk"),
        "player_links": PlayerLink.objects.filter(player__division__tournament=t).order_by("pk"),
        "claims": Claim.objects.filter(game__division__tournament=t).order_by("pk"),
        "disputes": Dispute.objects.filter(game__division__tournament=t).order_by("pk"),
    }


def write(tournament: Tournament) -> bytes:
    """The tournament as a backup file's bytes."""
    users = get_user_model()
    usernames = dict(users.objects.values_list("pk", users.USERNAME_FIELD))
    buffer = io.BytesIO()
    counts: dict[str, int] = {}
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, model in TABLES:
            fs = _fields(model)
            rows = [
                {f.attname: _value(o, f, usernames) for f in fs}
                for o in _querysets(tournament)[name]
            ]
            if name == "players":
                _person_identities(rows)
            if name == "tournament":
                rows[0]["directors"] = sorted(u.get_username() for u in tournament.directors.all())
                rows[0]["scorekeepers"] = sorted(
                    u.get_username() for u in tournament.scorekeepers.all()
                )
            counts[name] = len(rows)
            zf.writestr(f"{name}.json", json.dumps(rows, ensure_ascii=False, indent=1))
        manifest = {
            "format": FORMAT,
            "version": VERSION,
            "slug": tournament.slug,
            "name": tournament.name,
            "written": timezone.now().isoformat(),
            "tables": counts,
            "link_key": tokens.digest(_LINK_PROBE),
        }
        zf.writestr("manifest.json", json.dumps(manifest, ensure_ascii=False, indent=1))
    return buffer.getvalue()


def _person_identities(rows: list[dict[str, Any]]) -> None:
    """Each player's person as who they are (name and identifiers), not as a key of this
    database: a restore links again by them (`linking.link_tournament`)."""
    ids = {r["person_id"] for r in rows if r.get("person_id") is not None}
    found = {p.pk: p for p in Person.objects.filter(pk__in=ids)}
    for row in rows:
        person = found.get(row.pop("person_id", None))
        row.pop("person_link", None)
        row["person"] = (
            {f: getattr(person, f) for f in ("name", *linking.ID_FIELDS)} if person else None
        )


def _refuse(message: str) -> BackupRefused:
    return BackupRefused(gettext("This backup is refused: %(why)s") % {"why": message})


def read(data: bytes) -> tuple[dict[str, Any], dict[str, list[dict[str, Any]]]]:
    """The manifest and the tables of a backup file, every import limit checked before a byte
    of a member is read; anything else is refused with `BackupRefused`."""
    if len(data) > MAX_FILE_BYTES:
        raise _refuse(gettext("the file is over %(n)s MB.") % {"n": MAX_FILE_BYTES // 2**20})
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
        infos = zf.infolist()
    except (zipfile.BadZipFile, ValueError, OSError, EOFError):
        raise _refuse(gettext("it is not a zip file, or it is damaged.")) from None
    if len(infos) > MAX_MEMBERS:
        raise _refuse(gettext("it holds %(n)s files.") % {"n": len(infos)})
    total = 0
    for info in infos:
        name = info.filename
        if name not in MEMBERS:
            raise _refuse(
                gettext("it holds a file Spread does not know: %(name)s.") % {"name": name[:80]}
            )
        if info.file_size > MAX_MEMBER_BYTES:
            raise _refuse(
                gettext("%(name)s is over %(n)s MB.")
                % {"name": name, "n": MAX_MEMBER_BYTES // 2**20}
            )
        if info.file_size > 2**20 and info.file_size > MAX_RATIO * max(info.compress_size, 1):
            raise _refuse(gettext("%(name)s unpacks too far (a zip bomb?).") % {"name": name})
        total += info.file_size
    if total > MAX_TOTAL_BYTES:
        raise _refuse(gettext("it unpacks to over %(n)s MB.") % {"n": MAX_TOTAL_BYTES // 2**20})
    names = {i.filename for i in infos}
    if len(names) != len(infos):
        raise _refuse(gettext("it holds a file twice."))
    if not MEMBERS - OPTIONAL <= names <= MEMBERS:
        missing = sorted(MEMBERS - OPTIONAL - names)
        raise _refuse(gettext("it lacks %(names)s.") % {"names": ", ".join(missing)})

    spent = [0]  # what the tables read so far take (`jsonin.cost`)

    def streamed(name: str) -> bytearray:
        """The member's bytes, read a chunk at a time into room of its declared size: refused
        as soon as it gives more than it declared (or than a member may hold)."""
        declared = zf.getinfo(name).file_size
        raw = bytearray(declared)
        view = memoryview(raw)
        got = 0
        with zf.open(name) as member:
            while True:
                chunk = member.read(READ_CHUNK)
                if not chunk:
                    break
                if got + len(chunk) > declared:
                    raise _refuse(
                        gettext("%(name)s holds more than its zip entry says.") % {"name": name}
                    )
                view[got : got + len(chunk)] = chunk
                got += len(chunk)
        view.release()
        if got != declared:
            raise _refuse(gettext("%(name)s is damaged.") % {"name": name})
        return raw

    def load(name: str) -> Any:
        try:
            raw = streamed(name)
            spent[0] += jsonin.cost(raw)
            if spent[0] > MAX_READ_COST:
                raise _refuse(
                    gettext("reading %(name)s would take over %(n)s MB of memory.")
                    % {"name": name, "n": MAX_READ_COST // 2**20}
                )
            return jsonin.read(raw)
        except BackupRefused:
            raise
        except jsonin.Refused as why:
            raise _refuse(
                gettext("%(name)s is damaged: %(why)s.") % {"name": name, "why": why}
            ) from None
        except (zipfile.BadZipFile, ValueError, OSError, EOFError, RecursionError):
            raise _refuse(gettext("%(name)s is damaged.") % {"name": name}) from None

    manifest = load("manifest.json")
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise _refuse(gettext("it is not a Spread backup."))
    if manifest.get("version") not in VERSIONS:
        raise _refuse(
            gettext("it is of version %(v)s; this Spread reads version %(known)s.")
            % {"v": str(manifest.get("version"))[:20], "known": ", ".join(map(str, VERSIONS))}
        )
    tables: dict[str, list[dict[str, Any]]] = {}
    for name, _ in TABLES:
        rows = load(f"{name}.json") if f"{name}.json" in names else []
        if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
            raise _refuse(gettext("%(name)s is not a list of rows.") % {"name": f"{name}.json"})
        if len(rows) > MAX_ROWS:
            raise _refuse(
                gettext("%(name)s holds over %(n)s rows.") % {"name": f"{name}.json", "n": MAX_ROWS}
            )
        tables[name] = rows
    if len(tables["tournament"]) != 1:
        raise _refuse(gettext("it does not hold one tournament."))
    return manifest, tables


@contextmanager
def _kept_dates() -> Iterator[None]:
    """The rows' own dates kept: auto_now and auto_now_add switched off while restoring."""
    switched: list[tuple[Any, bool, bool]] = []
    for _, model in TABLES:
        for f in _fields(model):
            if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False):
                switched.append((f, f.auto_now, f.auto_now_add))  # type: ignore[attr-defined]
                f.auto_now = f.auto_now_add = False  # type: ignore[attr-defined]
    try:
        yield
    finally:
        for f, now, now_add in switched:
            f.auto_now, f.auto_now_add = now, now_add


def _game_ids(value: Any, games: dict[int, int]) -> Any:
    """A change's before/after with its games' snapshots (`results.services.snapshot`) pointed
    at the games' new keys."""
    if isinstance(value, list):
        return [_game_ids(v, games) for v in value]
    if isinstance(value, dict):
        out = {k: _game_ids(v, games) for k, v in value.items()}
        if "id" in out and "round" in out and "player1" in out and isinstance(out["id"], int):
            out["id"] = games.get(out["id"], out["id"])
        return out
    return value


def _people(
    tables: dict[str, list[dict[str, Any]]],
) -> tuple[dict[str, list[str]], dict[str, Any], list[str]]:
    """The tournament's directors and scorekeepers by username (taken out of its row), the
    users of this database the file names, by username, and the usernames it does not have."""
    users = get_user_model()
    wanted: set[str] = set()
    source_row = tables["tournament"][0]
    people: dict[str, list[str]] = {}
    for key in ("directors", "scorekeepers"):
        names = people[key] = source_row.pop(key, [])
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise _refuse(gettext("its people are not a list of usernames."))
        wanted.update(names)
    for rows_name, model in TABLES:
        for f in _fields(model):
            if _user_field(f):
                wanted.update(
                    r[f.attname] for r in tables[rows_name] if isinstance(r.get(f.attname), str)
                )
    found = users.objects.filter(**{f"{users.USERNAME_FIELD}__in": wanted})
    by_name = {u.get_username(): u.pk for u in found}
    return people, by_name, sorted(wanted - set(by_name))


def _restored_value(
    name: str, attname: str, f: Any, value: Any, keys: dict[Any, dict[int, int]], by_name: dict
) -> Any:
    """A field's value as this database takes it: a user by username, a row by its new key."""
    if _user_field(f):
        return by_name.get(value) if isinstance(value, str) else None
    if f.is_relation and value is not None:
        target = keys.get(f.related_model)
        if target is None or value not in target:
            raise _refuse(
                gettext("a row of %(name)s points at a row the file does not hold.")
                % {"name": f"{name}.json"}
            )
        return target[value]
    if value is not None:
        try:
            return f.to_python(value)
        except Exception:
            raise _refuse(
                gettext("%(name)s has a value %(field)s cannot take.")
                % {"name": f"{name}.json", "field": attname}
            ) from None
    return value


def _row_values(
    name: str,
    fs: dict[str, Any],
    row: dict[str, Any],
    keys: dict[Any, dict[int, int]],
    model: type[models.Model],
    by_name: dict,
) -> tuple[int, dict[str, Any]]:
    """A row's source key and its values for a new row, every key and user mapped."""
    unknown = set(row) - set(fs)
    if unknown:
        raise _refuse(
            gettext("%(name)s has a field Spread does not know: %(field)s.")
            % {"name": f"{name}.json", "field": sorted(unknown)[0][:40]}
        )
    old = row.get("id")
    if not isinstance(old, int) or old in keys[model]:
        raise _refuse(gettext("%(name)s has a row without its own key.") % {"name": f"{name}.json"})
    values = {
        attname: _restored_value(name, attname, f, row[attname], keys, by_name)
        for attname, f in fs.items()
        if attname != "id" and attname in row
    }
    if model is Playoff:
        seeds = values.get("seeds") or []
        if not isinstance(seeds, list) or any(s not in keys[Player] for s in seeds):
            raise _refuse(gettext("a playoff seeds a player the file does not hold."))
        values["seeds"] = [keys[Player][s] for s in seeds]
    if model is Change:
        for k in ("before", "after"):
            values[k] = _game_ids(values.get(k), keys[Game])
    return old, values


def _rebase_rounds(tournament: Tournament) -> None:
    """What each round was paired from (`Round.basis`) is digests of the players' and games'
    keys, which a restore makes anew: a round in line with its results is made so again under
    the new keys; a stale round keeps its mark and what it was paired from."""
    for state in Round.objects.filter(division__tournament=tournament).select_related("division"):
        if not state.basis or state.stale:
            continue
        state.basis = basis.basis(state.division, state.number, state.basis["based_on"])
        state.save(update_fields=["basis"])


def _nobody_to_direct(directors: list[str]) -> BackupRefused:
    """The refusal of a restore that would leave an event nobody here can direct."""
    if directors:
        return BackupRefused(
            gettext(
                "Nothing was restored: none of its directors (%(names)s) has an account on this "
                "server. Create one first (manage.py createdirector %(first)s), or name a user "
                "of this server to direct it with --director USERNAME."
            )
            % {"names": ", ".join(directors), "first": directors[0]}
        )
    return BackupRefused(
        gettext(
            "Nothing was restored: the backup names no director. Name a user of this server to "
            "direct it with --director USERNAME."
        )
    )


def restore(data: bytes, slug: str | None = None, director: User | None = None) -> Restored:
    """The backup's tournament written into this database as new rows, in one transaction.

    Someone here directs it: its directors who have an account on this server, and `director`
    (a user) too; a restore that would leave nobody is refused before anything is written."""
    manifest, tables = read(data)
    people, by_name, result_missing = _people(tables)
    if director is None and not any(n in by_name for n in people["directors"]):
        raise _nobody_to_direct(people["directors"])
    source_row = tables["tournament"][0]
    new_slug = slug or source_row.get("slug")
    if not isinstance(new_slug, str) or not new_slug:
        raise _refuse(gettext("it holds no slug."))
    if Tournament.objects.filter(slug=new_slug).exists():
        raise BackupRefused(
            gettext("A tournament %(slug)s is here already: name another with --slug.")
            % {"slug": new_slug}
        )
    source_row["slug"] = new_slug
    keys: dict[type[models.Model], dict[int, int]] = {m: {} for _, m in TABLES}
    links_copied = links_to_issue = 0
    hints: dict[int, linking.Identity] = {}
    same_key = manifest.get("link_key") == tokens.digest(_LINK_PROBE)
    try:
        with transaction.atomic(), _kept_dates():
            for name, model in TABLES:
                fs = {f.attname: f for f in _fields(model)}
                objs: list[models.Model] = []
                olds: list[int] = []
                for row in tables[name]:
                    if model is Player:
                        row = dict(row)
                        hint = linking.Identity.from_dict(row.pop("person", None))
                        # Never a key of another database: linked again below.
                        row.pop("person_id", None)
                        row.pop("person_link", None)
                    old, values = _row_values(name, fs, row, keys, model, by_name)
                    if model is Player and hint is not None:
                        hints[old] = hint
                    if model is PlayerLink:
                        taken = PlayerLink.objects.filter(token_hash=values.get("token_hash"))
                        if not same_key or taken.exists():
                            links_to_issue += 1
                            continue
                        links_copied += 1
                    objs.append(model(**values))
                    olds.append(old)
                made = model._default_manager.bulk_create(objs, batch_size=500)
                for old, obj in zip(olds, made, strict=True):
                    keys[model][old] = obj.pk
            tournament = Tournament.objects.get(pk=keys[Tournament][source_row["id"]])
            tournament.directors.set([by_name[n] for n in people["directors"] if n in by_name])
            if director is not None:
                tournament.directors.add(director)
            # Linked once its directors are known: the name alone joins only people of events
            # that share a director with it.
            linking.link_tournament(
                tournament, {keys[Player][old]: hint for old, hint in hints.items()}
            )
            tournament.scorekeepers.set(
                [by_name[n] for n in people["scorekeepers"] if n in by_name]
            )
            _rebase_rounds(tournament)
    except IntegrityError as e:
        raise _refuse(
            gettext("its rows break a rule of the database (%(why)s).")
            % {"why": str(e).splitlines()[0][:120]}
        ) from None
    except DatabaseError as e:
        raise _refuse(
            gettext("the database refused a row (%(why)s).") % {"why": str(e).splitlines()[0][:120]}
        ) from None
    return Restored(tournament, result_missing, links_copied, links_to_issue)
