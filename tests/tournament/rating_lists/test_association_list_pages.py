"""An association's rating list on the public pages, in its files, at the desk and on the
command line: who may do what, a hidden person, and the files loaded by an event's desk."""

from __future__ import annotations

import datetime
import io

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client

from tests.tournament.rating_lists.rating_list_support import link_people, small_event
from tournament.event import services as event
from tournament.models import Person, Player, RatingList, RatingListEvent, Tournament
from tournament.rating_lists import services

DAY1, DAY2 = datetime.date(2026, 4, 4), datetime.date(2026, 5, 9)
NAMES = ["رضا محمدی", "김민준", "KIM Minjun", "Ada Quill"]
ROUNDS = [
    [("رضا محمدی", "김민준", 420, 380), ("KIM Minjun", "Ada Quill", 350, 410)],
    [("رضا محمدی", "KIM Minjun", 399, 401), ("김민준", "Ada Quill", 455, 300)],
    [("رضا محمدی", "Ada Quill", 500, 350), ("김민준", "KIM Minjun", 380, 380)],
]
LATER = [[("Ada Quill", "김민준", 433, 400), ("رضا محمدی", "KIM Minjun", 390, 391)]]


def client_for(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def keeper(db: None) -> User:
    """The list's director, who directs both events."""
    return User.objects.create_user("keeper")


@pytest.fixture
def rated(keeper: User) -> RatingList:
    one = small_event("tehran-open", DAY1, NAMES, ROUNDS)
    two = small_event("seoul-open", DAY2, ["Ada Quill", "김민준", "رضا محمدی", "KIM Minjun"], LATER)
    for t in (one, two):
        t.directors.add(keeper)
        link_people(t)
    rating_list = services.create_list("Asia ratings", "asia", creator=keeper)
    services.add_event(rating_list, one, keeper)
    services.add_event(rating_list, two, keeper)
    services.rebuild(rating_list, keeper)
    return rating_list


def current(rating_list: RatingList) -> dict[str, int]:
    return {r.person.name: r.rating for r in services.current_ratings(rating_list)}


# -- the public pages -------------------------------------------------------------------------


def test_the_public_list_ranks_the_current_ratings(rated: RatingList) -> None:
    page = Client().get("/ratings/asia/").content.decode()
    rows = services.current_ratings(rated)
    assert [r.person.name for r in rows] == sorted(
        current(rated), key=lambda n: (-current(rated)[n], n)
    )
    for row in rows:
        link = f'/ratings/asia/{row.person.pk}/"><bdi>{row.person.name}</bdi></a>'
        assert link in page
        # Every one played 3 + 1 rated games.
        assert f'<td class="num">{row.rating}</td>\n      <td class="num">4</td>' in page
    assert "<bdi>Seoul-Open</bdi>" in page and 'href="/naspa.txt"' not in page
    assert 'href="/ratings/asia/naspa.txt"' in page and 'href="/ratings/asia/wespa.txt"' in page
    assert "/ratings/asia/" in Client().get("/ratings/").content.decode()


def test_a_persons_history_event_by_event(rated: RatingList) -> None:
    reza = Person.objects.get(name="رضا محمدی")
    entries = services.history(rated, reza)
    page = Client().get(f"/ratings/asia/{reza.pk}/").content.decode()
    assert [e.tournament.slug for e in entries] == ["tehran-open", "seoul-open"]
    first, second = entries
    assert first.before == 0 and second.before == first.after
    assert f"new → {first.after}" in page
    assert f"{second.before} → {second.after}" in page
    assert f"{second.after - second.before:+d}" in page
    assert f'<td class="num">{first.games}</td>' in page and first.games == 3


def test_a_hidden_person_keeps_their_place_without_their_name(rated: RatingList) -> None:
    kim = Person.objects.get(name="김민준")
    kim.hidden = True
    kim.save()
    page = Client().get("/ratings/asia/").content.decode()
    assert "김민준" not in page and f"/ratings/asia/{kim.pk}/" not in page
    assert page.count('class="hidden-person"') == 1 and ">hidden</span>" in page
    assert Client().get(f"/ratings/asia/{kim.pk}/").status_code == 404
    assert "김민준" not in Client().get("/ratings/asia/naspa.txt").content.decode()
    assert "김민준" not in Client().get("/ratings/asia/wespa.txt").content.decode()


def test_a_private_list_is_not_shown(rated: RatingList) -> None:
    rated.public = False
    rated.save()
    anyone = Client()
    assert anyone.get("/ratings/asia/").status_code == 404
    assert anyone.get("/ratings/asia/naspa.txt").status_code == 404
    assert "/ratings/asia/" not in anyone.get("/ratings/").content.decode()
    assert anyone.get("/ratings/asia/xml.txt").status_code == 404


# -- the files ---------------------------------------------------------------------------------


def test_the_naspa_file_is_the_current_list(rated: RatingList) -> None:
    text = Client().get("/ratings/asia/naspa.txt").content.decode()
    rows = services.current_ratings(rated)
    assert text.splitlines() == ["name\trating\trank\tgames\tid"] + [
        f"{r.person.name}\t{r.rating}\t{r.rank}\t4\t" for r in rows
    ]


def test_the_wespa_file_is_the_current_list(rated: RatingList) -> None:
    text = Client().get("/ratings/asia/wespa.txt").content.decode()
    rows = {r.person.name: r for r in services.current_ratings(rated)}
    lines = text.splitlines()
    assert lines[0] == "NICKstateNAME asia.tou 20260509"
    assert lines[1:] == [
        f"{nick} XX {name} 4 {rows[name].rating} 20260509"
        for nick, name in sorted(
            [
                ("RDMH", "رضا محمدی"),
                ("GIMM", "김민준"),
                ("KIMM", "KIM Minjun"),
                ("ADAQ", "Ada Quill"),
            ],
            key=lambda n: (-rows[n[1]].rating, n[1]),
        )
    ]


@pytest.mark.parametrize("fmt", ["naspa", "wespa"])
def test_an_event_loads_the_lists_ratings_before_round_1(
    rated: RatingList, keeper: User, fmt: str
) -> None:
    """The list's file, loaded by the desk's own rating-list page into a fresh event, gives
    each player exactly their current rating in the list."""
    data = Client().get(f"/ratings/asia/{fmt}.txt").content
    t = event.create_tournament(keeper, "Next Open", [event.NewDivision(name="A")])
    division = t.divisions.get()
    # Written as a roster would have them: in the other name order, and a newcomer.
    for number, name in enumerate(
        ["Quill, Ada", "김민준", "Minjun KIM", "رضا محمدی", "Nia New"], 1
    ):
        Player.objects.create(division=division, number=number, name=name)
    desk = client_for(keeper)
    url = f"/desk/{t.slug}/division/{division.pk}/players/ratings/"
    upload = SimpleUploadedFile("list.txt", data, content_type="text/plain")
    page = desk.post(url, {"action": "preview", "format": fmt, "file": upload}).content.decode()
    assert "1 player not found (not changed)" in page
    sets = [
        f"{p.pk}:0:{current(rated)[name]}"
        for p, name in zip(
            division.players.order_by("number")[:4],
            ["Ada Quill", "김민준", "KIM Minjun", "رضا محمدی"],
            strict=True,
        )
    ]
    for value in sets:
        assert f'value="{value}"' in page
    desk.post(url, {"action": "confirm", "format": fmt, "set": sets})
    assert dict(division.players.values_list("name", "rating")) == {
        "Quill, Ada": current(rated)["Ada Quill"],
        "김민준": current(rated)["김민준"],
        "Minjun KIM": current(rated)["KIM Minjun"],
        "رضا محمدی": current(rated)["رضا محمدی"],
        "Nia New": 0,
    }


# -- the desk ----------------------------------------------------------------------------------


def test_only_staff_create_lists(db: None) -> None:
    plain = client_for(User.objects.create_user("plain"))
    assert plain.get("/desk/ratings/new/").status_code == 403
    staff_user = User.objects.create_user("staff", is_staff=True)
    staff = client_for(staff_user)
    form = {"name": "Finnish ratings", "slug": "fin", "system": "nsa2008", "public": "on"}
    assert staff.post("/desk/ratings/new/", form).status_code == 302
    made = RatingList.objects.get(slug="fin")
    assert list(made.directors.all()) == [staff_user] and made.public
    again = staff.post("/desk/ratings/new/", form)
    assert again.status_code == 400 and "is taken" in again.content.decode()
    assert Client().get("/desk/ratings/").status_code == 302  # to the login page


def test_a_director_adds_only_the_events_they_direct(rated: RatingList, keeper: User) -> None:
    desk = client_for(keeper)
    theirs = Tournament.objects.create(name="Other Open", slug="other", start_date=DAY2)
    mine = Tournament.objects.create(name="My Open", slug="mine", start_date=DAY2)
    mine.directors.add(keeper)
    page = desk.get("/desk/ratings/asia/").content.decode()
    assert "My Open" in page and "Other Open" not in page
    desk.post("/desk/ratings/asia/events/", {"tournament": theirs.pk})
    assert not RatingListEvent.objects.filter(tournament=theirs).exists()
    desk.post("/desk/ratings/asia/events/", {"tournament": mine.pk})
    assert RatingListEvent.objects.filter(rating_list=rated, tournament=mine).exists()
    with pytest.raises(services.RatingListRefused, match="Only the directors of"):
        services.add_event(rated, theirs, keeper)
    desk.post(f"/desk/ratings/asia/events/{mine.pk}/remove")
    assert not RatingListEvent.objects.filter(tournament=mine).exists()


def test_only_the_lists_directors_manage_it(rated: RatingList) -> None:
    """Even an event's director, or staff, who is not one of the list's directors."""
    outsider = User.objects.create_user("outsider", is_staff=True)
    Tournament.objects.get(slug="tehran-open").directors.add(outsider)
    desk = client_for(outsider)
    before = rated.rebuilt
    assert desk.get("/desk/ratings/asia/").status_code == 403
    assert desk.post("/desk/ratings/asia/rebuild").status_code == 403
    tehran = Tournament.objects.get(slug="tehran-open")
    assert desk.post(f"/desk/ratings/asia/events/{tehran.pk}/remove").status_code == 403
    assert desk.post("/desk/ratings/asia/directors/", {"username": "outsider"}).status_code == 403
    assert desk.get("/desk/ratings/asia/naspa.txt").status_code == 403
    rated.refresh_from_db()
    assert rated.rebuilt == before and rated.events.count() == 2
    assert not rated.directors.filter(username="outsider").exists()


def test_the_rebuild_at_the_desk_shows_its_report(rated: RatingList, keeper: User) -> None:
    before = rated.rebuilt
    Person.objects.get(name="Ada Quill").players.filter(
        division__tournament__slug="seoul-open"
    ).update(person=None)
    page = client_for(keeper).post("/desk/ratings/asia/rebuild").content.decode()
    assert "4 people rated, 7 entries." in page
    assert "Not rated in the list (no person linked): <bdi>Ada Quill</bdi>" in page
    rated.refresh_from_db()
    assert rated.rebuilt is not None and before is not None and rated.rebuilt > before


def test_the_desks_file_names_hidden_people_too(rated: RatingList, keeper: User) -> None:
    Person.objects.filter(name="김민준").update(hidden=True)
    text = client_for(keeper).get("/desk/ratings/asia/naspa.txt").content.decode()
    assert "김민준\t" in text


def test_a_director_adds_a_co_director(rated: RatingList, keeper: User) -> None:
    User.objects.create_user("second")
    desk = client_for(keeper)
    desk.post("/desk/ratings/asia/directors/", {"username": "second"})
    assert rated.directors.filter(username="second").exists()
    page = desk.post("/desk/ratings/asia/directors/", {"username": "nobody"}, follow=True)
    assert "No user is called" in page.content.decode()


# -- the command line --------------------------------------------------------------------------


def test_the_command_line(db: None, tmp_path) -> None:
    one = small_event("tehran-open", DAY1, NAMES, ROUNDS)
    link_people(one)
    out = io.StringIO()
    call_command("ratinglist", "create", "iran", "Iran ratings", stdout=out)
    call_command("ratinglist", "add", "iran", "tehran-open", stdout=out)
    call_command("ratinglist", "rebuild", "iran", stdout=out)
    rating_list = RatingList.objects.get(slug="iran")
    assert "2026-04-04 tehran-open: 4 rated, 4 new, 6 games" in out.getvalue()
    shown = io.StringIO()
    call_command("ratinglist", "show", "iran", stdout=shown)
    for row in services.current_ratings(rating_list):
        assert (
            f"{row.rank:>4} {row.rating:>5}     3  {row.person.name}  [tehran-open]"
            in shown.getvalue()
        )
    target = tmp_path / "current.txt"
    call_command(
        "ratinglist", "export", "iran", "--format", "naspa", "--output", str(target), stdout=out
    )
    assert target.read_text(encoding="utf-8") == services.export_text(rating_list, "naspa")
    with pytest.raises(Exception, match="already in"):
        call_command("ratinglist", "add", "iran", "tehran-open", stdout=out)
