"""A rating list that starts from known ratings (`ratinglist create … --start-from FILE`, and
the desk's new list with a file): each person the file rates starts at that rating as an
established player, so that after one real event every player's rating on the list is the
rating the event itself gives them from their pre-event ratings (and tsh's own `newr`)."""

from __future__ import annotations

import datetime
import os
import shutil
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client

from tests.tournament.rating_lists.rating_list_support import Result, link_people, small_event
from tournament.engine import ratings as engine_ratings
from tournament.engine.standings import Game as EngineGame
from tournament.exchange import tsh_io
from tournament.interchange import ratinglist
from tournament.models import Person, Player, RatingList, RatingListStart, Tournament
from tournament.rating_lists import services
from tournament.standings.read_model import division_ratings
from tournament.standings.stamps import read as read_stamps

CORPUS = Path(__file__).resolve().parents[4] / "shared" / "corpus" / "tsh"
JVC56_A = CORPUS / "jvc56_tournament_pairing_algorithms" / "a.t"
needs_corpus = pytest.mark.skipif(not JVC56_A.is_file(), reason="the shared TSH corpus is absent")


def _event(tmp_path: Path) -> Tournament:
    """The 26-player, 23-round division of February 2023 (ratings 1320 to 2009, every player
    with 193 or more career games), imported as it is; dated by its file's day."""
    path = tmp_path / "a.t"
    shutil.copyfile(JVC56_A, path)
    moment = datetime.datetime(2023, 2, 20, 18, 0, tzinfo=datetime.UTC).timestamp()
    os.utime(path, (moment, moment))
    return tsh_io.import_tsh(path, slug="feb-2023", name="February 2023")


def _pre_event_file(tournament: Tournament, folder: Path, fmt: str = "naspa") -> Path:
    """The players' ratings before the event, as the project's own writer writes a list."""
    players = Player.objects.filter(division__tournament=tournament).order_by("-rating", "pk")
    rows = [
        ratinglist.Listed(name=p.name, rating=p.rating, games=p.lifetime_games or 0, rank=n)
        for n, p in enumerate(players, start=1)
    ]
    path = folder / f"before.{fmt}.txt"
    if fmt == "naspa":
        path.write_text(ratinglist.write_naspa(rows), encoding="utf-8")
    else:
        path.write_text(ratinglist.write_wespa(rows, "before", "20230216"), encoding="utf-8")
    return path


def _newr(player: Player) -> int:
    return int(dict(player.tsh_extras)["newr"][-1])


@needs_corpus
@pytest.mark.parametrize("fmt", ["naspa", "wespa"])
def test_after_one_event_every_rating_on_the_list_is_the_events_own(
    db: None, tmp_path: Path, fmt: str
) -> None:
    tournament = _event(tmp_path)
    start = _pre_event_file(tournament, tmp_path, fmt)
    out = StringIO()

    call_command("ratinglist", "create", "texas", "Texas", "--start-from", str(start), stdout=out)
    call_command("ratinglist", "add", "texas", "feb-2023", stdout=out)
    call_command("ratinglist", "rebuild", "texas", stdout=out)

    lines = out.getvalue().splitlines()
    assert lines[1] == f"26 starting ratings from before.{fmt}.txt ({fmt})"
    assert lines[3] == (
        "2023-02-20 feb-2023: 26 rated, 0 new, 295 games, 26 from the starting ratings"
    )
    division = tournament.divisions.get()
    own = {
        row.player.person_id: row.after
        for row in division_ratings(division, public=False, stamps=read_stamps(division))
    }
    tsh_own = {p.person_id: _newr(p) for p in division.players.all()}
    listed = {
        row.person.pk: row.rating
        for row in services.current_ratings(RatingList.objects.get(slug="texas"))
    }
    assert len(listed) == 26
    assert listed == own == tsh_own
    # The figures of the top and the bottom of the field, as tsh wrote them.
    by_name = {
        row.person.name: row.rating
        for row in services.current_ratings(RatingList.objects.get(slug="texas"))
    }
    assert (by_name["Smylie, Jackson"], by_name["Sokol, Joshua"]) == (2022, 2013)


@needs_corpus
def test_a_list_without_starting_ratings_rates_everyone_as_new(db: None, tmp_path: Path) -> None:
    tournament = _event(tmp_path)
    out = StringIO()
    call_command("ratinglist", "create", "texas", "Texas", stdout=out)
    call_command("ratinglist", "add", "texas", "feb-2023", stdout=out)
    call_command("ratinglist", "rebuild", "texas", stdout=out)

    assert out.getvalue().splitlines()[2] == "2023-02-20 feb-2023: 26 rated, 26 new, 295 games"
    division = tournament.divisions.get()
    own = {
        row.player.person_id: row.after
        for row in division_ratings(division, public=False, stamps=read_stamps(division))
    }
    listed = {
        row.person.pk: row.rating
        for row in services.current_ratings(RatingList.objects.get(slug="texas"))
    }
    assert sum(listed[p] != own[p] for p in own) == 26
    # Everyone rated as a newcomer from one event: a 1855 player who gains 28 points in the
    # event is put at 2490, a 1380 player at 1793.
    by_name = {
        row.person.name: row.rating
        for row in services.current_ratings(RatingList.objects.get(slug="texas"))
    }
    assert (by_name["Sykes, Christopher"], by_name["Kadanka, Marcela"]) == (2490, 1793)


@needs_corpus
def test_the_starting_ratings_are_kept_so_a_rebuild_gives_the_same_entries(
    db: None, tmp_path: Path
) -> None:
    tournament = _event(tmp_path)
    start = _pre_event_file(tournament, tmp_path)
    call_command(
        "ratinglist", "create", "texas", "Texas", "--start-from", str(start), stdout=StringIO()
    )
    start.unlink()
    rating_list = RatingList.objects.get(slug="texas")
    services.add_event(rating_list, tournament)

    first = services.rebuild(rating_list)
    entries = list(rating_list.entries.order_by("pk").values_list("person", "before", "after"))
    again = services.rebuild(rating_list)

    assert first == again
    assert (
        list(rating_list.entries.order_by("pk").values_list("person", "before", "after")) == entries
    )
    assert RatingListStart.objects.filter(rating_list=rating_list).count() == 26
    assert rating_list.start_from == "before.naspa.txt"


def test_a_start_file_without_a_rating_is_refused_and_no_list_made(
    db: None, tmp_path: Path
) -> None:
    empty = tmp_path / "empty.txt"
    empty.write_text("name\trating\trank\tgames\tid\n")

    with pytest.raises(CommandError, match="empty.txt.? has no rating to start from"):
        call_command(
            "ratinglist", "create", "texas", "Texas", "--start-from", str(empty), stdout=StringIO()
        )
    assert not RatingList.objects.exists()


def test_a_person_starts_by_membership_id_else_by_name_and_two_ratings_of_a_name_are_none(
    db: None,
) -> None:
    day = datetime.date(2026, 3, 1)
    names = ["Ada Quill", "Ben Crane", "Cora Vale", "Dev Patel"]
    rounds: list[list[Result]] = [
        [("Ada Quill", "Ben Crane", 420, 380), ("Cora Vale", "Dev Patel", 350, 410)],
        [("Ada Quill", "Cora Vale", 399, 401), ("Ben Crane", "Dev Patel", 455, 300)],
    ]
    tournament = small_event("club", day, names, rounds)
    link_people(tournament)
    Person.objects.filter(name="Ada Quill").update(naspa_id="AA001234")
    text = (
        "name\trating\trank\tgames\tid\n"
        "QUILL, A.\t1650\t1\t12\tAA001234\n"  # Ada, by her id: 12 games, taken as established
        "Crane, Ben\t1500\t2\t300\t\n"  # Ben, by his name
        "Vale, Cora\t1400\t3\t80\t\n"  # Cora twice with two ratings: no start
        "Vale, Cora\t1410\t4\t90\t\n"
    )
    rating_list = services.create_list(
        "Club", "club-list", start_from=ratinglist.read(text, "naspa"), start_name="club.txt"
    )
    services.add_event(rating_list, tournament)

    report = services.rebuild(rating_list)

    (event,) = report.events
    assert (event.rated, event.newcomers, event.started) == (4, 2, 2)
    before = dict(rating_list.entries.values_list("person__name", "before"))
    assert before == {"Ada Quill": 1650, "Ben Crane": 1500, "Cora Vale": 0, "Dev Patel": 0}
    rated = engine_ratings.rate_event(
        [
            engine_ratings.RatedPlayer("Ada Quill", 1650, 50),
            engine_ratings.RatedPlayer("Ben Crane", 1500, 300),
            engine_ratings.RatedPlayer("Cora Vale", 0, 0),
            engine_ratings.RatedPlayer("Dev Patel", 0, 0),
        ],
        [[EngineGame(a, b, s1, s2) for a, b, s1, s2 in games if b is not None] for games in rounds],
        max_rounds=2,
    )
    after = dict(rating_list.entries.values_list("person__name", "after"))
    assert after == {name: int(rated[name].final) for name in names}


def test_the_desk_creates_a_list_from_a_file_of_starting_ratings(db: None) -> None:
    staff = User.objects.create_user("sam", is_staff=True)
    desk = Client()
    desk.force_login(staff)
    text = (
        "name\trating\trank\tgames\tid\n"
        "Quill, Ada\t1650\t1\t120\t\n"
        "Crane, Ben\t1500\t2\t300\t\n"
        "Vale, Cora\tabc\t3\t80\t\n"
    )
    sent = SimpleUploadedFile("club.txt", text.encode())

    response = desk.post(
        "/desk/ratings/new/",
        {"name": "Club", "slug": "club", "system": "nsa2008", "public": "on", "start_from": sent},
        follow=True,
    )

    rating_list = RatingList.objects.get(slug="club")
    assert rating_list.start_from == "club.txt"
    assert list(rating_list.starts.values_list("name", "key", "rating", "games")) == [
        ("Quill, Ada", "ada quill", 1650, 120),
        ("Crane, Ben", "ben crane", 1500, 300),
    ]
    said = [str(m) for m in response.context["messages"]]
    assert said == [
        "2 starting ratings from \u2068club.txt\u2069.",
        "1 line was not read: line 4: the rating 'abc' is not a whole number from 0 to 9999",
    ]
    assert "starting ratings from" in response.content.decode()
