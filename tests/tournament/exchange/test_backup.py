"""A tournament backed up and restored (`manage.py backup`, `manage.py restore`): every page
reads the same after, old links still work, and hostile files are refused in one line."""

from __future__ import annotations

import io
import json
import re
import zipfile
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.core.management import CommandError, call_command
from django.test import Client, override_settings
from django.urls import reverse

from tournament.exchange import backup
from tournament.models import Change, Division, Game, Player, PlayerLink, Scoresheet, Tournament
from tournament.phone import services as phone

FIXTURE = Path(__file__).parent / "data" / "backup-v1.zip"
CSRF = re.compile(
    r'(name="csrfmiddlewaretoken" value=")[^"]*(")|(csrf[-_]?token["\']?\s*[:=]\s*["\'])[^"\']*'
    r'|"csrf": "[^"]*"'
)
# The phone page's live feed names the version it shows: of its stamps, new in every restore.
ETAG = re.compile(r'"etag": "(\\"|[^"])*"')


def _other_event() -> Tournament:
    other = Tournament.objects.create(name="Other Open", slug="other")
    division = Division.objects.create(tournament=other, name="A")
    a = Player.objects.create(division=division, number=1, name="Alpha, One")
    b = Player.objects.create(division=division, number=2, name="Beta, Two")
    Game.objects.create(division=division, round=1, player1=a, player2=b, score1=400, score2=350)
    return other


def _pages(slug: str, tokens: list[str]) -> dict[str, str]:
    """Every public page of the tournament, its change log and the phone pages of `tokens`,
    keyed by a name that does not hold a database key."""
    cache.clear()
    t = Tournament.objects.get(slug=slug)
    client = Client()
    urls: dict[str, str] = {"tournament": reverse("tournament", args=[slug])}
    for d in t.divisions.order_by("position", "name"):
        for name in ("standings", "crosstable", "ratings", "statistics"):
            urls[f"{d.name}/{name}"] = reverse(name, args=[slug, d.name])
        for r in d.rounds.order_by("number"):
            urls[f"{d.name}/round {r.number}"] = reverse("pairings", args=[slug, d.name, r.number])
        for p in d.players.order_by("number"):
            urls[f"{d.name}/player {p.number}"] = reverse("player", args=[slug, d.name, p.number])
    sheets = Scoresheet.objects.filter(game__division__tournament=t).order_by("pk")
    for i, sheet in enumerate(sheets):
        urls[f"sheet {i}"] = reverse("scoresheet", args=[slug, sheet.pk])
    pages = {}
    for key, url in urls.items():
        response = client.get(url)
        assert response.status_code in (200, 404), url  # a sheet not released is not found
        # A 404's page is DEBUG's own: its status is what compares.
        pages[key] = "404" if response.status_code == 404 else response.content.decode()
    desk = Client()
    desk.force_login(User.objects.get(username="director"))
    response = desk.get(reverse("desk-changes", args=[slug]))
    assert response.status_code == 200
    pages["changes"] = response.content.decode()
    for i, token in enumerate(tokens):
        response = Client().get(reverse("phone", args=[token]))
        assert response.status_code == 200
        pages[f"phone {i}"] = response.content.decode()
    return pages


def _keys(slug: str) -> list[tuple[str, list[int]]]:
    t = Tournament.objects.get(slug=slug)
    sheets = Scoresheet.objects.filter(game__division__tournament=t).order_by("pk")
    games = Game.objects.filter(division__tournament=t).order_by("pk")
    sheet_keys = list(sheets.values_list("pk", flat=True))
    game_keys = list(games.values_list("pk", flat=True))
    # Each player's person, in the players' order: a restore links them again by name.
    people = Player.objects.filter(division__tournament=t).order_by("division__position", "number")
    person_keys = list(dict.fromkeys(people.values_list("person_id", flat=True)))
    return [
        ("scoresheet", sheet_keys),
        ("scoresheets", sheet_keys),
        ("games", game_keys),
        ("people", person_keys),
    ]


def _plain(text: str, keys: list[tuple[str, list[int]]]) -> str:
    """A page without its CSRF token, its rows' keys written as their places."""
    text = ETAG.sub("ETAG", CSRF.sub("CSRF", text))
    for word, pks in keys:
        place = {pk: i for i, pk in enumerate(pks)}
        text = re.sub(
            rf"{word}/(\d+)/",
            lambda m, place=place, word=word: f"{word}/#{place.get(int(m.group(1)), m.group(1))}/",
            text,
        )
        if word == "games":  # the phone page names its games too (its report form, its rows)
            text = re.sub(
                r'(data-game="|name="game" value=")(\d+)"',
                lambda m, place=place: f'{m.group(1)}#{place.get(int(m.group(2)), m.group(2))}"',
                text,
            )
    return text


@pytest.fixture
def demo(db) -> list[str]:
    _other_event()
    call_command("loaddemo", stdout=io.StringIO())
    players = Player.objects.filter(division__tournament__slug="demo").order_by("pk")[:3]
    return [phone.issue_link(p) for p in players]


def test_a_round_trip_reads_the_same_beside_another_event(demo, tmp_path) -> None:
    before = _pages("demo", demo)
    keys_before = _keys("demo")
    counts = {m.__name__: m.objects.count() for _, m in backup.TABLES}
    other = list(Game.objects.filter(division__tournament__slug="other").values())
    path = tmp_path / "demo.zip"
    call_command("backup", "demo", "--output", str(path), stdout=io.StringIO())
    with pytest.raises(CommandError, match="demo is here already"):
        call_command("restore", str(path), stdout=io.StringIO())
    Tournament.objects.get(slug="demo").delete()
    out = io.StringIO()
    call_command("restore", str(path), stdout=out)
    assert "demo: restored" in out.getvalue()
    # The consistency check runs after every restore, and finds the demo whole.
    assert out.getvalue().splitlines()[-1] == "demo: consistency check, consistent."
    assert {m.__name__: m.objects.count() for _, m in backup.TABLES} == counts
    assert list(Game.objects.filter(division__tournament__slug="other").values()) == other
    after = _pages("demo", demo)  # the old links open the phone pages
    keys_after = _keys("demo")
    assert keys_after[0][1] != keys_before[0][1]  # new keys
    assert after.keys() == before.keys()
    for key in before:
        assert _plain(after[key], keys_after) == _plain(before[key], keys_before), key
    t = Tournament.objects.get(slug="demo")
    assert list(t.directors.values_list("username", flat=True)) == ["director"]


def test_a_copy_under_another_slug_and_its_links(demo) -> None:
    data = backup.write(Tournament.objects.get(slug="demo"))
    done = backup.restore(data, slug="demo-copy")
    assert done.tournament.slug == "demo-copy"
    assert done.links_copied == 0 and done.links_to_issue == 3  # the tokens are taken here
    assert (
        Change.objects.filter(tournament=done.tournament).count()
        == Change.objects.filter(tournament__slug="demo").count()
    )


def test_another_secret_key_says_links_must_be_issued_again(demo, tmp_path) -> None:
    path = tmp_path / "demo.zip"
    call_command("backup", "demo", "--output", str(path), stdout=io.StringIO())
    Tournament.objects.get(slug="demo").delete()
    out = io.StringIO()
    with override_settings(SECRET_KEY="another key, another server, " * 3, SECRET_KEY_FALLBACKS=[]):
        call_command("restore", str(path), stdout=out)
    assert "3 players' links" in out.getvalue() and "playerlinks demo" in out.getvalue()
    assert PlayerLink.objects.filter(player__division__tournament__slug="demo").count() == 0


def test_missing_directors_are_listed(demo) -> None:
    data = backup.write(Tournament.objects.get(slug="demo"))
    Tournament.objects.get(slug="demo").delete()
    User.objects.filter(username="director").delete()
    alice = User.objects.create_user("alice")
    done = backup.restore(data, director=alice)
    assert done.missing_users == ["director"]
    assert list(done.tournament.directors.all()) == [alice]


@pytest.mark.django_db
def test_a_restore_into_an_empty_database() -> None:
    assert Tournament.objects.count() == 0
    done = backup.restore(FIXTURE.read_bytes(), director=User.objects.create_user("alice"))
    assert done.tournament.slug == "demo"
    assert Game.objects.filter(division__tournament=done.tournament).count() > 0
    assert Scoresheet.objects.filter(game__division__tournament=done.tournament).exists()
    assert done.missing_users == ["director"]
    response = Client().get(reverse("tournament", args=["demo"]))
    assert response.status_code == 200


def test_the_kept_version_1_file_reads_as_the_demo(demo) -> None:
    """The file kept in tests/tournament/exchange/data was written once by `manage.py backup` of the
    demo; later versions of Spread must keep reading it."""
    manifest, tables = backup.read(FIXTURE.read_bytes())
    assert manifest["version"] == 1
    done = backup.restore(FIXTURE.read_bytes(), slug="kept")
    demo_t = Tournament.objects.get(slug="demo")
    assert {d.name for d in done.tournament.divisions.all()} == {
        d.name for d in demo_t.divisions.all()
    }
    assert Player.objects.filter(division__tournament=done.tournament).count() == len(
        tables["players"]
    )


def _zip(members: dict[str, bytes], method: int = zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", method) as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return buffer.getvalue()


def _members(demo_data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(demo_data)) as zf:
        return {n: zf.read(n) for n in zf.namelist()}


def _refused(data: bytes, match: str) -> None:
    before = Tournament.objects.count(), Game.objects.count()
    with pytest.raises(backup.BackupRefused, match=match) as caught:
        backup.restore(data, slug="hostile")
    assert "\n" not in str(caught.value)
    assert (Tournament.objects.count(), Game.objects.count()) == before


def test_hostile_files_are_refused_in_one_line(demo) -> None:
    good = _members(backup.write(Tournament.objects.get(slug="demo")))
    _refused(b"not a zip at all", "not a zip")
    _refused(backup.write(Tournament.objects.get(slug="demo"))[:-200], "not a zip|damaged")
    # A zip bomb (2 MB of zeros packed into a few KB): refused before it is read.
    bomb = _zip({**good, "games.json": b"0" * (2 * 2**20)})
    _refused(bomb, "zip bomb")
    _refused(_zip({**good, "../evil.json": b"[]"}), "does not know")
    _refused(_zip({**good, "/etc/passwd": b"[]"}), "does not know")
    manifest = json.loads(good["manifest.json"])
    _refused(
        _zip({**good, "manifest.json": json.dumps({**manifest, "version": 99}).encode()}),
        "version 99",
    )
    # Another tournament's player, by its key, in a game of this one.
    games = json.loads(good["games.json"])
    outsider = Player.objects.get(division__tournament__slug="other", number=1).pk
    games[0]["player1_id"] = outsider
    _refused(_zip({**good, "games.json": json.dumps(games).encode()}), "does not hold")
    players = json.loads(good["players.json"])
    players[0]["password"] = "x"
    _refused(
        _zip({**good, "players.json": json.dumps(players).encode()}), "does not know: password"
    )
    players = json.loads(good["players.json"])
    players[1]["division_id"], players[1]["number"] = (
        players[0]["division_id"],
        players[0]["number"],
    )
    _refused(_zip({**good, "players.json": json.dumps(players).encode()}), "rule of the database")
    changes = json.loads(good["changes.json"])
    changes[-1]["scoresheet_id"] = 10**9  # a late table: what came before is rolled back
    _refused(_zip({**good, "changes.json": json.dumps(changes).encode()}), "does not hold")


def test_a_1_gb_json_is_refused_before_it_is_read(demo, monkeypatch) -> None:
    good = _members(backup.write(Tournament.objects.get(slug="demo")))
    monkeypatch.setattr(backup, "MAX_MEMBER_BYTES", 2**20)  # the same check, a smaller file
    big = json.dumps([{"id": i, "x": "y" * 100} for i in range(20_000)]).encode()
    _refused(_zip({**good, "games.json": big}, zipfile.ZIP_STORED), "over")


def test_the_dashboard_download_is_for_directors_only(demo) -> None:
    t = Tournament.objects.get(slug="demo")
    keeper = User.objects.create_user("keeper", password="x")
    t.scorekeepers.add(keeper)
    User.objects.create_user("stranger", password="x")
    url = reverse("desk-backup", args=["demo"])
    for name in ("keeper", "stranger"):
        client = Client()
        client.force_login(User.objects.get(username=name))
        assert client.get(url).status_code == 403
    director = Client()
    director.force_login(User.objects.get(username="director"))
    response = director.get(url)
    assert response.status_code == 200 and response["Content-Type"] == "application/zip"
    assert backup.read(response.content)[0]["slug"] == "demo"
    assert director.get(reverse("desk-dashboard", args=["demo"])).status_code == 200


def test_a_snapshot_after_a_round_completes_and_at_the_lock(
    db, tmp_path, django_capture_on_commit_callbacks
) -> None:
    from tournament.event import services as event
    from tournament.exchange import snapshots
    from tournament.results import services as results

    other = _other_event()
    director = User.objects.create_user("director", password="x")
    other.directors.add(director)
    division = other.divisions.get()
    c = Player.objects.create(division=division, number=3, name="Gamma, Three")
    d = Player.objects.create(division=division, number=4, name="Delta, Four")
    open_game = Game.objects.create(division=division, round=1, player1=c, player2=d)
    with override_settings(SNAPSHOT_DIR=str(tmp_path), SNAPSHOT_KEEP=2):
        assert snapshots.listed(other) == []
        with django_capture_on_commit_callbacks(execute=True):
            results.record_result(open_game, 420, 380, director)
        taken = snapshots.listed(other)
        assert [s.what for s in taken] == [f"d{division.pk}-r1"]
        path = snapshots.path_of(other, taken[0].name)
        assert backup.read(path.read_bytes())[0]["slug"] == "other"
        client = Client()
        client.force_login(director)
        page = client.get(reverse("desk-dashboard", args=["other"])).content.decode()
        assert taken[0].name in page
        response = client.get(reverse("desk-snapshot", args=["other", taken[0].name]))
        assert response.status_code == 200
        assert client.get(reverse("desk-snapshot", args=["other", "..%2Fx.zip"])).status_code == 404
        for _ in range(2):
            with django_capture_on_commit_callbacks(execute=True):
                event.set_lock(other, True, director)
            with django_capture_on_commit_callbacks(execute=True):
                event.set_lock(other, False, director)
        assert len(snapshots.listed(other)) == 2  # the last SNAPSHOT_KEEP kept
        assert [s.what for s in snapshots.listed(other)] == ["locked", "locked"]
    blocked = tmp_path / "a file"
    blocked.write_text("not a folder")
    with override_settings(SNAPSHOT_DIR=str(blocked)):
        assert snapshots.take(other.pk, "locked") is None  # not raised
        assert "could not be written" in (snapshots.failure(other) or "")
        page = client.get(reverse("desk-dashboard", args=["other"])).content.decode()
        assert "could not be written" in page


WRITER = """
import io, json, sys
import django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
call_command("loaddemo", stdout=io.StringIO())
sys.path.insert(0, sys.argv[2])
from test_backup import _keys, _pages
from tournament.models import Player
from tournament.phone import services as phone
players = Player.objects.filter(division__tournament__slug="demo").order_by("pk")[:3]
tokens = [phone.issue_link(p) for p in players]
call_command("backup", "demo", "--output", sys.argv[1], stdout=io.StringIO())
print(json.dumps({"tokens": tokens, "pages": _pages("demo", tokens), "keys": _keys("demo")}))
"""


def test_an_event_moved_from_a_sqlite_file_to_this_database(db, tmp_path) -> None:
    """The move the guide shows: the demo on a SQLite file (another process), backed up, then
    restored here (PostgreSQL when the suite runs on it) beside another event; every page
    compared with the SQLite's."""
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[3]
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'laptop.sqlite3'}",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "ALLOWED_HOSTS": "testserver,127.0.0.1,localhost",
        "SNAPSHOT_DIR": "",
    }
    path = tmp_path / "demo.zip"
    done = subprocess.run(
        [sys.executable, "-c", WRITER, str(path), str(Path(__file__).parent)],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    laptop = json.loads(done.stdout.strip().splitlines()[-1])
    _other_event()
    User.objects.create_user("director", password="x")
    call_command("restore", str(path), stdout=io.StringIO())
    here = _pages("demo", laptop["tokens"])
    keys_here = _keys("demo")
    assert here.keys() == laptop["pages"].keys()
    for key, page in laptop["pages"].items():
        assert _plain(here[key], keys_here) == _plain(page, laptop["keys"]), key


@pytest.mark.django_db(transaction=True)
def test_a_snapshot_is_written_by_a_thread_of_its_own_after_the_commit(tmp_path, settings) -> None:
    from tournament.event import services as event
    from tournament.exchange import snapshots

    other = _other_event()
    director = User.objects.create_user("director", password="x")
    settings.SNAPSHOT_BACKGROUND = True
    settings.SNAPSHOT_DIR = str(tmp_path)
    event.set_lock(other, True, director)  # its own transaction, committed: the thread starts
    snapshots.wait()

    assert [s.what for s in snapshots.listed(other)] == ["locked"]
    path = snapshots.path_of(other, snapshots.listed(other)[0].name)
    assert backup.read(path.read_bytes())[0]["slug"] == "other"


def test_photos_and_cross_tables_ids_travel_in_a_backup(demo) -> None:
    from tournament.hall import images
    from tournament.models import PlayerPhoto

    buffer = io.BytesIO()
    from PIL import Image

    Image.new("RGB", (300, 300), (10, 200, 10)).save(buffer, "PNG")
    made = images.make_photo(buffer.getvalue())
    player = Player.objects.filter(division__tournament__slug="demo").order_by("pk").first()
    assert player is not None
    PlayerPhoto.objects.create(player=player, data=made.data, width=256, height=256, stamp="s1")
    Player.objects.filter(pk=player.pk).update(xtid=17175)
    data = backup.write(Tournament.objects.get(slug="demo"))
    done = backup.restore(data, slug="demo-photos")
    copy = Player.objects.get(
        division__tournament=done.tournament,
        division__name=player.division.name,
        number=player.number,
    )
    assert copy.xtid == 17175
    photo = PlayerPhoto.objects.get(player=copy)
    assert bytes(photo.data) == made.data and photo.stamp == "s1" and photo.width == 256
