"""People belong to the events that hold them, tried at the desk through the whole middleware
stack: another event's director cannot hide, merge or split a person who holds an event of
yours, nor take them over by importing a player of the same name (a suggestion both events'
directors see, and either confirms or dismisses); a signed-in user who directs nothing sees
no one; and the director of any event a change touched may undo it."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from tournament.event import services as event_services
from tournament.models import Change, PeopleChange, Person, PersonSuggestion, Player, Tournament
from tournament.people import services

pytestmark = pytest.mark.django_db


def _event(director: User, name: str, roster: bytes, client: Client) -> Tournament:
    """An event made at the desk by `director`, its roster a .t file uploaded there."""
    event = event_services.create_tournament(director, name, [event_services.NewDivision(name="A")])
    division = event.divisions.get()
    url = reverse("desk-roster", args=[event.slug, division.pk])
    page = client.post(url, {"file": SimpleUploadedFile("roster.t", roster)}, follow=True)
    assert page.status_code == 200
    return event


def _player(event: Tournament, number: int) -> Player:
    return Player.objects.get(division__tournament=event, number=number)


def _plain(html: str) -> str:
    return html.replace("\u2068", "").replace("\u2069", "")


@pytest.fixture
def yves(client_for) -> tuple[User, Client, Tournament]:
    """A director and their event: John Smith (a NASPA id) and Jane Doe."""
    user = User.objects.create_user("yves")
    client = client_for(user)
    home = _event(user, "Home Open", b"Smith, John:AA000123 1500 ;\nDoe, Jane 1400 ;\n", client)
    return user, client, home


@pytest.fixture
def xena(client_for) -> tuple[User, Client]:
    user = User.objects.create_user("xena")
    return user, client_for(user)


def test_another_director_s_hide_merge_and_split_are_refused_and_change_nothing(yves, xena) -> None:
    _, _, home = yves
    x, desk = xena
    # The identifier still links: Xena's John Smith is Yves's person.
    away = _event(x, "Away Open", b"Smith, John:AA000123 1500 ;\nRoe, Max 1300 ;\n", desk)
    john = _player(home, 1).person
    assert john is not None and _player(away, 1).person == john
    assert _player(away, 1).person_link == "id"
    max_roe = _player(away, 2).person
    assert max_roe is not None
    people = sorted(Person.objects.values_list("pk", "name", "hidden"))
    links = sorted(Player.objects.values_list("pk", "person_id", "person_link"))

    # She sees him (he holds her event) but may not change him.
    assert desk.get(f"/desk/people/{john.pk}/").status_code == 200
    assert desk.post(f"/desk/people/{john.pk}/hide/", {"hidden": "1"}).status_code == 403
    assert desk.post(f"/desk/people/{max_roe.pk}/merge/", {"other": john.pk}).status_code == 403
    assert desk.post(f"/desk/people/{john.pk}/merge/", {"other": max_roe.pk}).status_code == 403
    split = desk.post(f"/desk/people/{john.pk}/split/", {"players": [_player(away, 1).pk]})
    assert split.status_code == 403
    # Nor a person of Yves's alone.
    jane = _player(home, 2).person
    assert desk.get(f"/desk/people/{jane.pk}/").status_code == 403
    assert desk.post(f"/desk/people/{jane.pk}/hide/", {"hidden": "1"}).status_code == 403

    assert sorted(Person.objects.values_list("pk", "name", "hidden")) == people
    assert sorted(Player.objects.values_list("pk", "person_id", "person_link")) == links
    assert PeopleChange.objects.count() == 0
    assert not Change.objects.filter(action="people").exists()
    refused = services.set_hidden
    with pytest.raises(PermissionError) as denied:
        refused(john, True, x)
    assert str(denied.value) == (
        "Only staff, or a director of every event of every person involved, may do this."
    )


def test_a_signed_in_user_who_directs_nothing_sees_no_one(yves, client_for) -> None:
    _, own, home = yves
    Tournament.objects.filter(pk=home.pk).update(public=False)
    services.set_hidden(_player(home, 2).person, True, None)  # a change in the log
    stranger = client_for(User.objects.create_user("stranger"))
    page = _plain(stranger.get("/desk/people/").content.decode())
    assert page.count('<li class="muted">None.</li>') == 2  # no people, no changes
    assert "Smith, John" not in page and "Doe, Jane" not in page
    assert "hidden" not in page.split('id="people-changes"')[1]
    # Their own director sees both, and the change.
    mine = _plain(own.get("/desk/people/").content.decode())
    assert "Smith, John" in mine and "Doe, Jane" in mine
    assert "Doe, Jane</bdi> (#" in mine.split('id="people-changes"')[1]


def test_a_name_alone_across_events_with_no_shared_director_is_a_suggestion_both_see(
    yves, xena
) -> None:
    y, home_desk, home = yves
    x, away_desk = xena
    away = _event(x, "Away Open", b"Doe, Jane 1400 ;\nRoe, Max 1300 ;\n", away_desk)
    jane, theirs = _player(home, 2), _player(away, 1)
    assert theirs.person != jane.person and theirs.person_link == "new"
    suggestion = PersonSuggestion.objects.get()
    assert (suggestion.player, suggestion.person) == (theirs, jane.person)
    for desk in (home_desk, away_desk):
        page = desk.get("/desk/people/").content.decode()
        assert f'action="/desk/people/suggestions/{suggestion.pk}/"' in page
    outsider = Client()
    outsider.force_login(User.objects.create_user("outsider"))
    assert (
        outsider.post(f"/desk/people/suggestions/{suggestion.pk}/", {"do": "accept"}).status_code
        == 403
    )
    assert PersonSuggestion.objects.count() == 1

    made = theirs.person
    done = home_desk.post(
        f"/desk/people/suggestions/{suggestion.pk}/", {"do": "accept"}, follow=True
    )
    change = PeopleChange.objects.get()
    assert f"Linked (#{change.pk})" in done.content.decode()
    theirs.refresh_from_db()
    assert (theirs.person, theirs.person_link) == (jane.person, "director")
    assert not Person.objects.filter(pk=made.pk).exists() and not PersonSuggestion.objects.exists()
    assert set(change.events.values_list("slug", flat=True)) == {home.slug, away.slug}
    # The player's own director undoes it: the player is their own person again.
    assert away_desk.post(f"/desk/people/changes/{change.pk}/undo/").status_code == 302
    theirs.refresh_from_db()
    assert (theirs.person_id, theirs.person_link) == (made.pk, "new")


def test_the_player_s_own_director_may_confirm_and_either_may_dismiss(yves, xena) -> None:
    _, home_desk, home = yves
    _, away_desk = xena
    away = _event(xena[0], "Away Open", b"Doe, Jane 1400 ;\nSmith, John 1500 ;\n", away_desk)
    # John Smith without his id: the name alone, so a suggestion too.
    first, second = PersonSuggestion.objects.order_by("player__number")
    assert (first.player, first.person) == (_player(away, 1), _player(home, 2).person)
    assert (second.player, second.person) == (_player(away, 2), _player(home, 1).person)
    page = away_desk.post(f"/desk/people/suggestions/{first.pk}/", {"do": "accept"}, follow=True)
    assert page.status_code == 200
    assert _player(away, 1).person == _player(home, 2).person
    page = home_desk.post(f"/desk/people/suggestions/{second.pk}/", {"do": "dismiss"}, follow=True)
    assert "Dismissed" in page.content.decode()
    assert not PersonSuggestion.objects.exists()
    assert _player(away, 2).person != _player(home, 1).person
    logged = Change.objects.get(tournament=away, before__suggestion__isnull=False)
    assert _plain(logged.reason) == (
        f"Smith, John is not Smith, John (#{_player(home, 1).person_id}): the suggestion dismissed"
    )


def test_a_shared_director_links_by_the_name_and_the_command_line_suggests(
    yves, client_for, tmp_path: Path
) -> None:
    y, home_desk, home = yves
    # Yves's second event: the name alone joins his own people.
    again = _event(y, "Home Open II", b"Doe, Jane 1410 ;\n", home_desk)
    assert _player(again, 1).person == _player(home, 2).person
    assert _player(again, 1).person_link == "name"
    # An event imported on the command line is staff's: no director in common with Yves's.
    path = tmp_path / "A.t"
    path.write_text("Doe, Jane 1420 0; 50\n", encoding="utf-8")
    out = io.StringIO()
    call_command("importtsh", str(path), slug="imported", name="Imported", stdout=out)
    jane = _player(home, 2).person
    assert _plain(out.getvalue()).splitlines()[-2:] == [
        "People: 0 linked by an identifier, 0 by the name, 1 new, 0 to be confirmed, "
        "0 linked before.",
        f"Doe, Jane: the name of #{jane.pk} Doe, Jane, of events with other directors; "
        "not linked: a director of either confirms at /desk/people/.",
    ]
    imported = Tournament.objects.get(slug="imported")
    assert _player(imported, 1).person != jane


def test_the_director_of_any_event_a_merge_touched_may_undo_it(yves, xena, client_for) -> None:
    _, home_desk, home = yves
    x, away_desk = xena
    away = _event(x, "Away Open", b"Doe, Jane 1400 ;\n", away_desk)
    jane, hers = _player(home, 2).person, _player(away, 1).person
    staff = client_for(User.objects.create_user("admin", is_staff=True))
    assert staff.post(f"/desk/people/{jane.pk}/merge/", {"other": hers.pk}).status_code == 302
    assert not Person.objects.filter(pk=hers.pk).exists()
    change = PeopleChange.objects.get(action="merge")
    # Both see the merge in their change log; a stranger's undo is refused.
    for desk in (home_desk, away_desk):
        assert (
            f"/desk/people/changes/{change.pk}/undo/" in desk.get("/desk/people/").content.decode()
        )
    stranger = client_for(User.objects.create_user("stranger"))
    assert stranger.post(f"/desk/people/changes/{change.pk}/undo/").status_code == 403
    # The merged person's own director undoes it.
    assert away_desk.post(f"/desk/people/changes/{change.pk}/undo/").status_code == 302
    assert _player(away, 1).person_id == hers.pk and Person.objects.filter(pk=hers.pk).exists()
    change.refresh_from_db()
    assert change.undone is not None


def test_an_anonymous_user_is_listed_no_one_even_of_events_nobody_directs(tmp_path) -> None:
    from django.contrib.auth.models import AnonymousUser

    from tournament.exchange import tsh_io

    path = tmp_path / "A.t"
    path.write_text("Doe, Jane 1420 0; 50\n", encoding="utf-8")
    tsh_io.import_tsh(path, slug="nobody-s", name="Nobody")
    services.set_hidden(Person.objects.get(), True, None)
    nobody = AnonymousUser()
    assert list(services.visible_people(nobody)) == []
    assert list(services.visible_changes(nobody)) == []
    assert services.unsure_players(nobody) == [] and services.suggestions(nobody) == []
    assert Client().get("/desk/people/").status_code == 302  # to the login page
