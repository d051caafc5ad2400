"""A tournament's life at the desk: created by a user allowed to create events, its co-directors
and scorekeepers (what a scorekeeper may and may not do), the refused page, the lock, players
pasted in and checked in, and round 1 pairing only the players checked in."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission, User
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.utils import timezone
from text_support import plain

from tournament.event import services as event
from tournament.models import Change, Division, Game, Player, Tournament
from tournament.pairing import services as pairing
from tournament.players import roster


@pytest.fixture
def creator(db: None) -> User:
    call_command("createdirector", "dora", password="pw-dora-1234", stdout=None)
    return User.objects.get(username="dora")


def test_createdirector_gives_the_permission_to_create_events(creator: User) -> None:
    assert creator.check_password("pw-dora-1234")
    assert creator.has_perm("tournament.add_tournament")
    assert event.may_create(creator)


def test_createdirector_refuses_a_new_account_without_a_password(db: None) -> None:
    with pytest.raises(CommandError, match="give --password"):
        call_command("createdirector", "nopass")
    assert not User.objects.filter(username="nopass").exists()


def test_an_admin_given_permission_is_the_same_permission(db: None) -> None:
    user = User.objects.create_user("ed")
    assert not event.may_create(user)
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    assert event.may_create(User.objects.get(pk=user.pk))


def test_the_desk_index_offers_new_tournament_only_with_the_permission(creator: User) -> None:
    client = Client()
    client.force_login(creator)
    assert "New tournament" in client.get("/desk/").content.decode()
    other = Client()
    other.force_login(User.objects.create_user("fred"))
    page = other.get("/desk/").content.decode()
    assert "New tournament" not in plain(page)
    assert "ask an administrator of this site for the permission to create events" in plain(page)


def test_a_new_tournament_from_the_form(creator: User) -> None:
    client = Client()
    client.force_login(creator)
    form = {
        "name": "Leeds Open 2027",
        "start_date": "2027-03-06",
        "end_date": "2027-03-07",
        "venue": "Leeds",
        "public": "on",
        "div-TOTAL_FORMS": "2",
        "div-INITIAL_FORMS": "0",
        "div-0-name": "A",
        "div-0-planned_rounds": "7",
        "div-0-ruleset": "wespa",
        "div-0-tile_set": "english",
        "div-0-spread_cap": "350",
        "div-0-bye_spread": "75",
        "div-0-rating_system": "nsa2008",
        "div-1-name": "",
        "div-1-ruleset": "naspa",
        "div-1-tile_set": "english",
        "div-1-bye_spread": "50",
        "div-1-rating_system": "nsa2008",
    }
    response = client.post("/desk/new/", form)

    assert response.status_code == 302
    assert response["Location"] == "/desk/leeds-open-2027/"
    tournament = Tournament.objects.get(slug="leeds-open-2027")
    assert (str(tournament.start_date), tournament.venue, tournament.public) == (
        "2027-03-06",
        "Leeds",
        True,
    )
    assert list(tournament.directors.all()) == [creator]
    division = tournament.divisions.get()
    assert (division.name, division.planned_rounds, division.ruleset, division.spread_cap) == (
        "A",
        7,
        "wespa",
        [350],
    )
    assert division.bye_spread == 75
    assert "you are its director" in client.get(response["Location"]).content.decode()


def test_a_name_alone_is_enough_and_bad_input_says_what(creator: User) -> None:
    client = Client()
    client.force_login(creator)
    empty = {"div-TOTAL_FORMS": "0", "div-INITIAL_FORMS": "0"}
    assert client.post("/desk/new/", {"name": "Tiny", **empty}).status_code == 302
    assert Tournament.objects.get(slug="tiny").divisions.count() == 0
    bad = client.post(
        "/desk/new/",
        {"name": "Bad", "start_date": "2027-03-07", "end_date": "2027-03-06", **empty},
    )
    assert bad.status_code == 400
    assert "The last day comes before the first." in bad.content.decode()
    assert not Tournament.objects.filter(name="Bad").exists()


def test_new_tournament_is_refused_without_the_permission_in_the_site_layout(db: None) -> None:
    client = Client()
    client.force_login(User.objects.create_user("gil"))
    response = client.get("/desk/new/")
    page = response.content.decode()
    assert response.status_code == 403
    assert "<header>" in plain(page) and "Spread" in plain(page)  # the site's own layout
    assert "createdirector gil" in plain(page)


# -- roles --------------------------------------------------------------------------------------


@pytest.fixture
def keeper(tournament: Tournament, director: User) -> User:
    User.objects.create_user("kim")
    return event.add_person(tournament, "kim", "scorekeeper", director)


def test_people_are_added_by_username_and_logged(
    desk: Client, tournament: Tournament, director: User
) -> None:
    User.objects.create_user("Zoe")
    response = desk.post("/desk/spring-open/people/", {"username": "zoe", "role": "director"})
    assert response.status_code == 302
    assert tournament.directors.filter(username="Zoe").exists()
    unknown = desk.post("/desk/spring-open/people/", {"username": "nobody", "role": "scorekeeper"})
    assert unknown.status_code == 400
    assert "No user is called “nobody”" in unknown.content.decode()
    change = Change.objects.get(action="people")
    assert (change.user, plain(change.reason)) == (director, "Zoe added as co-director")


def test_the_last_director_cannot_be_removed(db: None) -> None:
    user = User.objects.create_user("solo")
    t = event.create_tournament(user, "Solo Cup", [])
    with pytest.raises(event.PeopleRefused, match="at least one director"):
        event.remove_person(t, user.pk, user)


def test_a_scorekeeper_enters_results_and_scoresheets_only(
    keeper: User, division: Division, client_for
) -> None:
    client = client_for(keeper)
    d = division.pk
    game = division.games.filter(round=1, player2__isnull=False).first()
    allowed = [
        "/desk/",
        "/desk/spring-open/",
        "/desk/spring-open/changes/",
        f"/desk/spring-open/division/{d}/round/1/",
        f"/desk/spring-open/division/{d}/upload/",
        f"/desk/spring-open/games/{game.pk}/",
        f"/desk/spring-open/games/{game.pk}/scoresheet/",
        f"/desk/spring-open/division/{d}/report/standings.pdf",
    ]
    for url in allowed:
        assert client.get(url).status_code == 200, url
    entered = client.post(f"/desk/spring-open/division/{d}/round/1/enter", {"line": "1 400 2 350"})
    assert entered.status_code in (200, 302)
    assert division.games.get(round=1, player1__number=1).score1 == 400

    refused_pages = [
        f"/desk/spring-open/division/{d}/pairing/",
        f"/desk/spring-open/division/{d}/settings/",
        f"/desk/spring-open/division/{d}/round/1/pairings/",
        f"/desk/spring-open/division/{d}/players/",
        f"/desk/spring-open/division/{d}/check-in/",
        "/desk/spring-open/people/",
    ]
    for url in refused_pages:
        response = client.get(url)
        assert response.status_code == 403, url
        assert "You keep score at Spring Open" in response.content.decode()
    refused_posts = [
        (f"/desk/spring-open/division/{d}/pairing/pair", {"round": "2"}),
        (f"/desk/spring-open/division/{d}/round/1/publish", {}),
        (f"/desk/spring-open/division/{d}/round/1/unpair", {}),
        (f"/desk/spring-open/division/{d}/round/1/swap", {"a": "1", "b": "3"}),
        (f"/desk/spring-open/division/{d}/settings/", {"bye_spread": "10"}),
        (f"/desk/spring-open/division/{d}/players/paste", {"players": "New One, 1500"}),
        (f"/desk/spring-open/division/{d}/check-in/", {"player": "1", "checked_in": "1"}),
        ("/desk/spring-open/people/", {"username": "kim", "role": "director"}),
        ("/desk/spring-open/lock", {"locked": "1"}),
    ]
    before = Change.objects.count()
    for url, data in refused_posts:
        assert client.post(url, data).status_code == 403, url
    assert Change.objects.count() == before
    assert not division.rounds.filter(number=2).exists()
    page = client.get("/desk/spring-open/").content.decode()
    assert "You keep score here" in plain(page) and "pairing</a>" not in plain(page)


def test_a_stranger_is_told_who_gives_access(stranger: User, tournament: Tournament) -> None:
    client = Client()
    client.force_login(stranger)
    response = client.get("/desk/spring-open/")
    page = response.content.decode()
    assert response.status_code == 403
    assert "<header>" in plain(page)
    assert "Ask its directors alice, bob to add you by your username." in plain(page)


def test_logging_in_leads_to_the_desk_and_the_header_links_to_it(director: User) -> None:
    director.set_password("pw-alice-1234")
    director.save()
    client = Client()
    response = client.post("/accounts/login/", {"username": "alice", "password": "pw-alice-1234"})
    assert response["Location"] == "/desk/"
    assert '<a href="/desk/" id="desk-link">Desk</a>' in client.get("/").content.decode()


# -- the lock -----------------------------------------------------------------------------------


def test_a_locked_tournament_takes_no_change_until_unlocked(
    desk: Client, division: Division, director: User
) -> None:
    assert desk.post("/desk/spring-open/lock", {"locked": "1"}).status_code == 302
    d = division.pk
    refused = desk.post(f"/desk/spring-open/division/{d}/round/1/enter", {"line": "1 400 2 350"})
    assert refused.status_code == 403
    at = timezone.localtime(Change.objects.get(action="lock").at).strftime("%H:%M")
    assert f"Spring Open is locked (by alice at {at})" in plain(refused.content.decode())
    assert division.games.get(round=1, player1__number=1).score1 is None
    assert desk.get(f"/desk/spring-open/division/{d}/round/1/").status_code == 200  # reading

    assert (
        desk.post("/desk/spring-open/lock", {"locked": "0", "reason": "a slip"}).status_code == 302
    )
    unlock = Change.objects.get(action="unlock")
    assert (unlock.user, unlock.reason, unlock.after) == (director, "a slip", {"locked": False})
    desk.post(f"/desk/spring-open/division/{d}/round/1/enter", {"line": "1 400 2 350"})
    assert division.games.get(round=1, player1__number=1).score1 == 400


# -- players: pasted in, checked in ---------------------------------------------------------------

PASTED = """Quill, Ada, 1850, Leeds
Ben Crane\t1720
Cora Vale 1640 York

Dev Patel, 1580
"""


@pytest.fixture
def empty_division(director: User) -> Division:
    t = event.create_tournament(director, "Club Night", [event.NewDivision(name="A")])
    return t.divisions.get()


def test_a_pasted_list_adds_players_in_order(desk: Client, empty_division: Division) -> None:
    url = f"/desk/club-night/division/{empty_division.pk}/players/paste"
    response = desk.post(url, {"players": PASTED}, follow=True)
    # Most of the list is written "First Last": so is the division, Ada's name with it.
    assert (
        "4 players added to division A. 1 name written “First Last”, as the division writes "
        "names: Ada Quill."
    ) in response.content.decode()
    rows = list(empty_division.players.values_list("number", "name", "rating", "club"))
    assert rows == [
        (1, "Ada Quill", 1850, "Leeds"),
        (2, "Ben Crane", 1720, ""),
        (3, "Cora Vale", 1640, "York"),
        (4, "Dev Patel", 1580, ""),
    ]
    assert not Game.objects.filter(division=empty_division).exists()  # no forfeits before round 1


def test_a_pasted_list_with_a_bad_line_adds_no_one(desk: Client, empty_division: Division) -> None:
    url = f"/desk/club-night/division/{empty_division.pk}/players/paste"
    text = "Quill, Ada, 1850\nBen Crane\nCora Vale, 99999\nQuill, Ada, 1700"
    page = desk.post(url, {"players": text}, follow=True).content.decode()
    assert "Nobody added: line 2: a name, then a rating" in plain(page)
    assert "line 3: a rating of at most 3000, not 99999" in plain(page)
    assert "line 4: Quill, Ada is listed twice" in plain(page)
    assert "Ben Crane" in plain(page)  # the list comes back to be corrected
    assert not empty_division.players.exists()


def test_check_in_marks_a_player_and_logs_it(
    desk: Client, division: Division, director: User
) -> None:
    url = f"/desk/spring-open/division/{division.pk}/check-in/"
    page = desk.get(url).content.decode()
    assert 'data-confirm="Check in \u2068Quill, Ada\u2069?"' in page
    desk.post(url, {"player": "1", "checked_in": "1"})
    assert division.players.get(number=1).checked_in
    assert "1</strong> of 7 checked in" in desk.get(url).content.decode()
    change = Change.objects.get(action="check in")
    assert (change.user, plain(change.reason)) == (director, "Quill, Ada checked in")


def test_round_1_pairs_only_the_players_checked_in(
    desk: Client, empty_division: Division, director: User
) -> None:
    roster.add_players(empty_division, PASTED + "Eli Moss, 1490\nFay North, 1400\n", director)
    for player in empty_division.players.exclude(number=6):
        roster.set_checked_in(player, True, director)

    response = desk.post(
        f"/desk/club-night/division/{empty_division.pk}/pairing/pair",
        {"round": "1", "system": "koth"},
        follow=True,
    )

    page = response.content.decode()
    assert "Not checked in, so left out of round 1 with a forfeit loss (−50): Fay North." in plain(
        page
    )
    games = empty_division.games.filter(round=1).exclude(kind=Game.FORFEIT)
    paired = {p for g in games for p in (g.player1.number, g.player2 and g.player2.number) if p}
    assert paired == {1, 2, 3, 4, 5}
    assert games.filter(kind=Game.BYE).count() == 1
    # Left out, Fay gets what the division gives an absent player, in the pairing's change.
    fay = empty_division.games.get(round=1, kind=Game.FORFEIT)
    assert (fay.player1.number, fay.score1, fay.table, fay.player2) == (6, -50, None, None)
    assert not pairing.not_checked_in([]) and Player.objects.count() == 6


def test_players_are_edited_and_removed_before_round_1_only(
    desk: Client, empty_division: Division, director: User, division: Division
) -> None:
    roster.add_players(empty_division, PASTED, director)
    base = f"/desk/club-night/division/{empty_division.pk}/players"
    assert f'href="{base}/2/edit/"' in desk.get(f"{base}/").content.decode()

    saved = desk.post(
        f"{base}/2/edit/", {"name": "Ben  Crane-Smith", "rating": "1730", "club": "Hull"}
    )
    assert saved.status_code == 302
    ben = empty_division.players.get(number=2)
    assert (ben.name, ben.rating, ben.club) == ("Ben Crane-Smith", 1730, "Hull")
    clash = desk.post(f"{base}/2/edit/", {"name": "ada quill", "rating": "1", "club": ""})
    assert clash.status_code == 409
    assert "ada quill is already in division A." in clash.content.decode()
    assert desk.post(f"{base}/4/edit/", {"action": "remove"}).status_code == 302
    assert list(empty_division.players.values_list("number", flat=True)) == [1, 2, 3]
    removed = Change.objects.get(action="remove player")
    assert plain(removed.reason) == "Player 4 (Dev Patel) removed before round 1"

    # Once round 1 is paired: no edit link, and edits are refused.
    started = f"/desk/spring-open/division/{division.pk}/players"
    assert "/1/edit/" not in desk.get(f"{started}/").content.decode()
    refused = desk.post(f"{started}/1/edit/", {"action": "remove"})
    assert refused.status_code == 409
    assert "Round 1 of division A is paired: players can no longer be removed" in (
        refused.content.decode()
    )
    assert division.players.filter(number=1).exists()


def test_each_rounds_state_and_what_to_do_next(
    desk: Client, division: Division, director: User, record
) -> None:
    def states() -> list[tuple]:
        return [
            (s.number, s.paired, s.published, s.complete, s.verified)
            for s in event.round_states(division)
        ]

    # Round 1 was paired (in the fixture, without a record of its pairing: as imported).
    assert states() == [
        (1, True, True, False, False),
        (2, False, False, False, False),
        (3, False, False, False, False),
    ]
    assert event.next_step(division, event.round_states(division)) == (
        "Enter round 1's results (4 missing)."
    )
    for line in ("1 20 2 24", "3 400 4 300", "5 400 6 300", "7 bye"):
        results_line(division, line, director)
    assert states()[0] == (1, True, True, True, False)  # no scoresheets yet
    assert event.next_step(division, event.round_states(division)) == "Pair round 2."

    pairing.pair(division, 2, director, system="koth")
    assert states()[1] == (2, True, False, False, False)
    page = desk.get("/desk/spring-open/").content.decode()
    assert "<strong>Next:</strong> Check round 2&#x27;s pairings and publish them." in plain(page)
    assert '<span class="badge bad">not published</span>' in plain(page)


def results_line(division: Division, line: str, director: User) -> None:
    from tournament.results import services as results

    results.enter_line(division, 1, line, director)


def test_an_event_is_copied_as_next_years_without_results(
    division: Division, director: User, client_for
) -> None:
    from tournament.results import services as results

    director.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    division.spread_cap = [300]
    division.save()
    results.enter_line(division, 1, "1 400 2 300", director)
    roster.set_checked_in(division.players.get(number=1), True, director)
    event.set_lock(division.tournament, True, director)

    response = client_for(director).post("/desk/spring-open/copy", {"name": "Spring Open 2028"})

    assert response["Location"] == "/desk/spring-open-2028/"
    copy = Tournament.objects.get(slug="spring-open-2028")
    new = copy.divisions.get()
    assert (new.name, new.planned_rounds, new.spread_cap, new.bye_spread) == ("A", 3, [300], 50)
    assert list(new.players.values_list("number", "name", "checked_in")) == [
        (n, p.name, False) for n, p in enumerate(division.players.order_by("number"), 1)
    ]
    assert not new.games.exists() and not copy.locked
    assert set(copy.directors.values_list("username", flat=True)) == {"alice", "bob"}
    assert division.games.filter(score1=400).exists()  # the original is untouched


def test_a_director_deletes_the_demo_and_no_other_event(
    desk: Client, tournament: Tournament
) -> None:
    from io import StringIO

    call_command("loaddemo", stdout=StringIO())
    demo_director = User.objects.get(username="director")
    assert event.may_create(demo_director)
    client = Client()
    client.force_login(demo_director)
    assert "Delete the demo" in client.get("/desk/demo/").content.decode()

    assert client.post("/desk/demo/delete-demo").status_code == 302
    assert not Tournament.objects.filter(slug="demo").exists()
    refused = desk.post("/desk/spring-open/delete-demo")
    assert refused.status_code == 403
    assert Tournament.objects.filter(slug="spring-open").exists()


def test_the_next_round_is_paired_by_itself_when_results_are_complete(
    desk: Client, division: Division, director: User
) -> None:
    url = f"/desk/spring-open/division/{division.pk}/round/1/enter"
    json = {"HTTP_ACCEPT": "application/json"}
    for line in ("1 400 2 300", "3 400 4 300", "5 400 6 300"):
        desk.post(url, {"line": line}, **json)
    assert not division.games.filter(round=2).exists()  # off: as imported divisions are

    division.auto_pair = True
    division.save()
    data = desk.post(url, {"line": "7 bye"}, **json).json()

    assert plain(data["records"]).endswith(
        "Round 1's results are complete: round 2 is paired by swiss, not published yet — "
        "check it on the pairing page."
    )
    assert division.games.filter(round=2).count() == 4
    state = division.rounds.get(number=2)
    assert (state.system, state.published) == ("swiss", False)
    assert state.auto  # paired by the division itself: a correction pairs it again


def test_a_division_made_at_the_desk_pairs_by_itself_and_can_be_turned_off(
    director: User, desk: Client
) -> None:
    t = event.create_tournament(director, "Auto Cup", [event.NewDivision(name="A")])
    division = t.divisions.get()
    assert division.auto_pair
    page = desk.get(f"/desk/auto-cup/division/{division.pk}/settings/").content.decode()
    assert "Pair the next round by itself" in plain(page)
