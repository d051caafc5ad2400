"""An imported TSH event is an event its importer directs: `importtsh --director`, and the
desk's upload of a config.tsh with its `.t` files or a zip of them; the event's dates from
config.tsh's `event_date`, else from its files' modification days; a lone `.t` named from
config.tsh's `event_name` or by the director, never after its file."""

from __future__ import annotations

import datetime
import io
import os
import shutil
import zipfile
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth.models import Permission, User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.utils import timezone

from tournament.interchange import tsh
from tournament.models import Change, Tournament

CORPUS = Path(__file__).resolve().parents[4] / "shared" / "corpus" / "tsh"
MGI = CORPUS / "domino14_tsh-parser"
needs_corpus = pytest.mark.skipif(not MGI.is_dir(), reason="the shared TSH corpus is absent")

A_T = "Alice 1800 2; 400\nBob 1700 1; 300\n"
B_T = "Eve 1400 2; 350\nFay 1300 1; 340\n"
CONFIG = "division A a.t\ndivision B b.t\nconfig max_rounds = 1\n"


def day(text: str) -> datetime.date:
    return datetime.date.fromisoformat(text)


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("February 19, 2021", "2021-02-19", "2021-02-19"),  # the corpus' own
        ("Saturday, February 19, 2021", "2021-02-19", "2021-02-19"),
        ("19 February 2021", "2021-02-19", "2021-02-19"),
        ("2021-02-19", "2021-02-19", "2021-02-19"),
        ("February 19-21, 2021", "2021-02-19", "2021-02-21"),
        ("Feb. 19–21, 2021", "2021-02-19", "2021-02-21"),
        ("19-21 February 2021", "2021-02-19", "2021-02-21"),
        ("February 27-March 1, 2021", "2021-02-27", "2021-03-01"),
        ("27 February - 1 March 2021", "2021-02-27", "2021-03-01"),
        ("December 30, 2021-January 2, 2022", "2021-12-30", "2022-01-02"),
        ("December 30-January 2, 2022", "2021-12-30", "2022-01-02"),
        ("2021-12-30 to 2022-01-02", "2021-12-30", "2022-01-02"),
    ],
)
def test_event_date_gives_the_first_and_last_day_in_every_form(
    text: str, start: str, end: str
) -> None:
    assert tsh.event_dates(text) == (day(start), day(end))


@pytest.mark.parametrize(
    "text",
    ["", "next weekend", "2021", "February 30, 2021", "March 5-4, 2021", "February 19", "TBA"],
)
def test_event_date_that_is_no_date_is_none(text: str) -> None:
    assert tsh.event_dates(text) is None


@needs_corpus
def test_the_corpus_event_is_dated_from_its_event_date(db: None, tmp_path: Path) -> None:
    shutil.copyfile(MGI / "config.tsh", tmp_path / "config.tsh")
    shutil.copyfile(MGI / "a.t", tmp_path / "a.t")
    shutil.copyfile(MGI / "a.t", tmp_path / "b.t")  # its division B's file is not in the corpus

    call_command("importtsh", str(tmp_path / "config.tsh"), slug="mgi", stdout=StringIO())

    event = Tournament.objects.get(slug="mgi")
    assert (event.name, event.start_date, event.end_date) == (
        "MGI SCRABBLE PREMIER LEAGUE 2022 - MATCH DAY ONE",
        day("2021-02-19"),
        day("2021-02-19"),
    )


def _stamp(path: Path, when: str) -> None:
    moment = datetime.datetime.fromisoformat(when).replace(tzinfo=datetime.UTC).timestamp()
    os.utime(path, (moment, moment))


def _event(folder: Path, config: str = CONFIG) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.tsh").write_text(config)
    (folder / "a.t").write_text(A_T)
    (folder / "b.t").write_text(B_T)
    _stamp(folder / "a.t", "2023-02-17T21:15:00")
    _stamp(folder / "b.t", "2023-02-20T18:40:00")
    _stamp(folder / "config.tsh", "2024-01-01T00:00:00")  # not a division's file
    return folder / "config.tsh"


def test_without_event_date_the_dates_are_the_t_files_modification_days(
    db: None, tmp_path: Path
) -> None:
    out = StringIO()
    call_command("importtsh", str(_event(tmp_path)), slug="club", name="Club", stdout=out)

    event = Tournament.objects.get(slug="club")
    assert (event.start_date, event.end_date) == (day("2023-02-17"), day("2023-02-20"))
    assert out.getvalue().splitlines()[0] == "Imported Club as club: A (2 players), B (2 players)"


def test_an_event_date_spread_cannot_read_is_said_and_the_files_days_taken(
    db: None, tmp_path: Path
) -> None:
    config = CONFIG + "config event_date = 'the third weekend of February'\n"
    out = StringIO()
    call_command("importtsh", str(_event(tmp_path, config)), slug="club", stdout=out)

    event = Tournament.objects.get(slug="club")
    assert (event.start_date, event.end_date) == (day("2023-02-17"), day("2023-02-20"))
    assert out.getvalue().splitlines()[1] == (
        "config event_date 'the third weekend of February' is not a date Spread reads: the "
        "dates are the files' modification days; change them at the desk if they are not right."
    )


def test_an_event_date_across_years_gives_both_days(db: None, tmp_path: Path) -> None:
    config = CONFIG + "config event_date = 'December 30, 2022-January 2, 2023'\n"
    call_command("importtsh", str(_event(tmp_path, config)), slug="club", stdout=StringIO())

    event = Tournament.objects.get(slug="club")
    assert (event.start_date, event.end_date) == (day("2022-12-30"), day("2023-01-02"))


def test_a_lone_t_file_is_refused_without_a_name_and_never_named_after_its_file(
    db: None, tmp_path: Path
) -> None:
    path = tmp_path / "a.t"
    path.write_text(A_T)

    with pytest.raises(CommandError) as refused:
        call_command("importtsh", str(path), stdout=StringIO())

    assert str(refused.value) == (
        "a.t: a .t file alone does not say its event's name, and no config.tsh beside it does "
        '(event_name): give the event a name with --name "NAME".'
    )
    assert not Tournament.objects.exists()


def test_a_lone_t_file_takes_the_name_and_date_of_the_config_beside_it(
    db: None, tmp_path: Path
) -> None:
    config = (
        "division A a.t\nconfig event_name = 'Lagos Open'\nconfig event_date = 'May 6-7, 2022'\n"
    )
    (tmp_path / "config.tsh").write_text(config)
    (tmp_path / "a.t").write_text(A_T)

    call_command("importtsh", str(tmp_path / "a.t"), stdout=StringIO())

    event = Tournament.objects.get()
    assert (event.name, event.slug, event.start_date, event.end_date) == (
        "Lagos Open",
        "lagos-open",
        day("2022-05-06"),
        day("2022-05-07"),
    )


def test_a_lone_t_file_with_a_name_is_dated_by_its_modification_day(
    db: None, tmp_path: Path
) -> None:
    path = tmp_path / "a.t"
    path.write_text(A_T)
    _stamp(path, "2019-11-23T10:00:00")

    call_command("importtsh", str(path), name="Club Night", stdout=StringIO())

    event = Tournament.objects.get()
    assert (event.name, event.slug, event.start_date, event.end_date) == (
        "Club Night",
        "club-night",
        day("2019-11-23"),
        day("2019-11-23"),
    )
    assert list(event.divisions.values_list("name", flat=True)) == ["a"]


def test_the_director_named_directs_the_imported_event_and_opens_its_desk(
    db: None, tmp_path: Path
) -> None:
    alice = User.objects.create_user("alice")
    eve = User.objects.create_user("eve")
    out = StringIO()

    call_command(
        "importtsh", str(_event(tmp_path)), slug="club", name="Club", director="alice", stdout=out
    )

    event = Tournament.objects.get(slug="club")
    assert list(event.directors.all()) == [alice]
    assert "alice directs it: /desk/club/" in out.getvalue().splitlines()
    change = Change.objects.get(tournament=event)
    assert (change.action, change.user, change.after) == (
        "create",
        alice,
        {"tournament": "Club", "imported": "config.tsh"},
    )
    desk = Client()
    desk.force_login(alice)
    assert desk.get("/desk/club/").status_code == 200
    division = event.divisions.get(name="A")
    assert desk.get(f"/desk/club/division/{division.pk}/pairing/").status_code == 200
    stranger = Client()
    stranger.force_login(eve)
    assert stranger.get("/desk/club/").status_code in (403, 404)


def test_an_unknown_director_is_refused_before_anything_is_imported(
    db: None, tmp_path: Path
) -> None:
    with pytest.raises(CommandError, match="^no user 'zed': create them first"):
        call_command("importtsh", str(_event(tmp_path)), director="zed", stdout=StringIO())
    assert not Tournament.objects.exists()


# -- the desk's upload -------------------------------------------------------------------------


@pytest.fixture
def importer(db: None) -> Client:
    """A signed-in director allowed to create events."""
    user = User.objects.create_user("dana")
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    client = Client()
    client.force_login(user)
    return client


def upload(name: str, data: bytes | str) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data.encode() if isinstance(data, str) else data)


def zipped(members: dict[str, bytes | str], when: tuple[int, ...] = (2023, 2, 18, 9, 30, 0)):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            info = zipfile.ZipInfo(name, date_time=when)
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data)
    return upload("event.zip", buffer.getvalue())


def refusal(response) -> str:
    assert response.status_code == 400
    return response.context["form"].non_field_errors()[0]


def test_a_config_and_its_t_files_uploaded_make_the_uploader_its_director(
    importer: Client,
) -> None:
    config = (
        CONFIG
        + "config event_name = 'Club Night'\nconfig event_date = 'February 27-March 1, 2021'\n"
    )
    files = [upload("config.tsh", config), upload("a.t", A_T), upload("b.t", B_T)]

    response = importer.post("/desk/import/", {"tsh_files": files})

    event = Tournament.objects.get()
    assert response.status_code == 302 and response["Location"] == "/desk/club-night/"
    assert (event.name, event.start_date, event.end_date) == (
        "Club Night",
        day("2021-02-27"),
        day("2021-03-01"),
    )
    assert [u.username for u in event.directors.all()] == ["dana"]
    assert sorted(event.divisions.values_list("name", "players__name")) == [
        ("A", "Alice"),
        ("A", "Bob"),
        ("B", "Eve"),
        ("B", "Fay"),
    ]
    assert importer.get("/desk/club-night/").status_code == 200


def test_a_zip_of_the_event_is_imported_and_dated_by_its_files_days(importer: Client) -> None:
    archive = zipped(
        {"club/config.tsh": CONFIG, "club/a.t": A_T, "club/b.t": B_T, "__MACOSX/._a.t": "x"}
    )

    response = importer.post("/desk/import/", {"tsh_files": [archive]})

    event = Tournament.objects.get()
    assert response.status_code == 302
    assert (event.name, event.start_date, event.end_date) == (
        "club",  # the zip's folder, as importtsh names an event without event_name
        day("2023-02-18"),
        day("2023-02-18"),
    )
    assert [u.username for u in event.directors.all()] == ["dana"]


@pytest.mark.parametrize(
    ("members", "sentence"),
    [
        (
            {"config.tsh": "division A ../a.t\n", "../a.t": A_T},
            "The zip holds '../a.t', a path outside its own folder: it is not read.",
        ),
        (
            {"config.tsh": CONFIG, "/etc/a.t": A_T},
            "The zip holds '/etc/a.t', a path outside its own folder: it is not read.",
        ),
        (
            {f"f{n}.t": A_T for n in range(101)},
            "The zip holds 101 files; at most 100 are read.",
        ),
        (
            {"config.tsh": CONFIG, "a.t": b"\0" * (16 * 2**20 + 1), "b.t": B_T},
            "a.t in the zip is over 16 MiB.",
        ),
        (
            {"config.tsh": CONFIG, "a.t": A_T},
            "config.tsh: line 2: division B b.t: no such file",
        ),
        (
            {"a.t": A_T, "b.t": B_T},
            "The upload holds 2 .t files and no config.tsh: send the config.tsh that names "
            "them, or one .t file.",
        ),
    ],
)
def test_a_zip_that_cannot_be_imported_is_refused_with_a_sentence(
    importer: Client, members: dict[str, bytes | str], sentence: str
) -> None:
    response = importer.post("/desk/import/", {"tsh_files": [zipped(members)]})

    assert refusal(response) == sentence
    assert not Tournament.objects.exists()


def test_loose_files_whose_config_names_no_event_need_a_name(importer: Client) -> None:
    files = [upload("config.tsh", CONFIG), upload("a.t", A_T), upload("b.t", B_T)]

    response = importer.post("/desk/import/", {"tsh_files": files})

    assert refusal(response) == (
        "config.tsh does not name its event (event_name): give the event a name."
    )
    files = [upload("config.tsh", CONFIG), upload("a.t", A_T), upload("b.t", B_T)]
    named = importer.post("/desk/import/", {"tsh_files": files, "name": "Club Night"})
    assert named.status_code == 302
    assert Tournament.objects.get().name == "Club Night"


def test_a_file_that_is_not_a_zip_is_refused(importer: Client) -> None:
    response = importer.post("/desk/import/", {"tsh_files": [upload("event.zip", "PK not")]})

    assert refusal(response) == "The file is not a zip that can be read."


def test_a_lone_t_file_needs_a_name_at_the_desk(importer: Client) -> None:
    alone = importer.post("/desk/import/", {"tsh_files": [upload("a.t", A_T)]})

    assert refusal(alone) == (
        "a.t: a .t file alone does not say its event's name, and no config.tsh beside it does "
        "(event_name): give the event a name."
    )
    named = importer.post("/desk/import/", {"tsh_files": [upload("a.t", A_T)], "name": "Club"})
    assert named.status_code == 302
    assert Tournament.objects.get().name == "Club"


def test_only_a_user_who_may_create_events_may_import_one(db: None) -> None:
    client = Client()
    client.force_login(User.objects.create_user("eve"))

    response = client.post("/desk/import/", {"tsh_files": [upload("a.t", A_T)], "name": "X"})

    assert response.status_code == 403
    assert not Tournament.objects.exists()


# -- the event's dates at the desk ---------------------------------------------------------------


def test_the_director_corrects_an_imported_events_dates_at_the_desk(
    db: None, tmp_path: Path
) -> None:
    alice = User.objects.create_user("alice")
    call_command(
        "importtsh", str(_event(tmp_path)), slug="club", director="alice", stdout=StringIO()
    )
    desk = Client()
    desk.force_login(alice)
    assert 'value="2023-02-17"' in desk.get("/desk/club/").content.decode()

    wrong = desk.post("/desk/club/dates", {"start_date": "2023-02-18", "end_date": "2023-02-17"})
    saved = desk.post("/desk/club/dates", {"start_date": "2023-02-18", "end_date": "2023-02-19"})

    assert wrong.status_code == saved.status_code == 302
    event = Tournament.objects.get(slug="club")
    assert (event.start_date, event.end_date) == (day("2023-02-18"), day("2023-02-19"))
    change = Change.objects.filter(tournament=event, action="edit event").get()
    assert (change.user, change.before, change.after) == (
        alice,
        {"start_date": "2023-02-17", "end_date": "2023-02-20"},
        {"start_date": "2023-02-18", "end_date": "2023-02-19"},
    )


def test_a_rating_list_takes_an_event_without_a_date_only_once_it_says_which_date(
    db: None, tmp_path: Path
) -> None:
    from tournament.event import services as event_services
    from tournament.rating_lists import services as lists

    alice = User.objects.create_user("alice")
    event = event_services.create_tournament(alice, "Undated", [])
    Tournament.objects.filter(pk=event.pk).update(start_date=None, end_date=None)
    event.refresh_from_db()
    Change.objects.filter(tournament=event).update(
        at=timezone.make_aware(datetime.datetime(2024, 3, 9, 12, 0))
    )
    rating_list = lists.create_list("Club", "club-list")

    with pytest.raises(lists.RatingListRefused) as refused:
        lists.add_event(rating_list, event)

    assert str(refused.value) == (
        "\u2068Undated\u2069 has no date: a rating list rates its events in date order. It "
        "would be placed on 2024-03-09, the day it came into Spread: add it with that date "
        "(--date 2024-03-09), or give it its dates on its desk first."
    )
    assert not rating_list.events.exists()
    out = io.StringIO()
    call_command("ratinglist", "add", "club-list", event.slug, "--date", "2024-03-09", stdout=out)
    event.refresh_from_db()
    assert (event.start_date, event.end_date) == (day("2024-03-09"), day("2024-03-09"))
    assert out.getvalue().splitlines()[0] == "undated had no date: it is dated 2024-03-09"
    assert rating_list.events.get().tournament == event
    assert Change.objects.filter(tournament=event, action="edit event").exists()
