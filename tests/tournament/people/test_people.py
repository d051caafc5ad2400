"""People across events: linking by identifiers and by names written differently, the unsure
case, the desk's merge, split, hiding and undo, who may do them, the command, the backup; and
three real TSH events whose shared player's events and head-to-head are checked against the
files themselves."""

from __future__ import annotations

import datetime as dt
import io
import json
import re
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client

from tests.tournament.wespa_support import event_file
from tournament.exchange import backup, tsh_io
from tournament.interchange import tou
from tournament.models import Change, Division, Game, PeopleChange, Person, Player, Tournament
from tournament.people import services
from tournament.players import roster
from tournament.players.services import NewPlayer, late_entry

pytestmark = pytest.mark.django_db

TSH = Path(__file__).resolve().parents[4] / "shared" / "corpus" / "tsh"
JVC = TSH / "jvc56_tournament_pairing_algorithms"


def _tsh(path: Path) -> Path:
    if not path.is_file():
        pytest.skip(f"the shared TSH corpus is not next to the project ({path.name})")
    return path


def _t_file(tmp_path: Path, name: str, lines: list[str]) -> Path:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _person(player_name: str, slug: str) -> Person | None:
    return Player.objects.get(division__tournament__slug=slug, name=player_name).person


# --- Reading the .t files ourselves, for the expected values ---------------------------------


def _read_t(path: Path) -> list[dict]:
    """Each line of a .t file: name, rating, opponents (0 a bye), scores and extras."""
    out = []
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        head, scores, *rest = line.split(";")
        m = re.match(r"^(.*?)\s+(-?\d+)((?:\s+-?\d+)*)\s*$", head)
        assert m is not None
        extras = {}
        for part in rest:
            words = part.split()
            if words:
                extras[words[0]] = words[1:]
        out.append(
            {
                "name": m.group(1).strip(),
                "rating": int(m.group(2)),
                "opponents": [int(x) for x in m.group(3).split()],
                "scores": [int(x) for x in scores.split()],
                "extras": extras,
            }
        )
    return out


def _expected(path: Path, name: str) -> tuple[dict, dict[str, list[int]]]:
    """The player's record in the file, and against each opponent [games, wins×2, losses×2,
    spread]."""
    rows = _read_t(path)
    me = next(r for r in rows if r["name"] == name)
    wins = losses = spread = 0.0
    versus: dict[str, list[int]] = {}
    for i, opp in enumerate(me["opponents"]):
        mine = me["scores"][i]
        if opp == 0:
            wins += mine > 0
            losses += mine < 0
            spread += mine
            continue
        their = rows[opp - 1]["scores"][i]
        diff = mine - their
        wins += 1 if diff > 0 else 0.5 if diff == 0 else 0
        losses += 1 if diff < 0 else 0.5 if diff == 0 else 0
        spread += diff
        row = versus.setdefault(rows[opp - 1]["name"], [0, 0, 0, 0])
        row[0] += 1
        row[1] += 2 if diff > 0 else 1 if diff == 0 else 0
        row[2] += 2 if diff < 0 else 1 if diff == 0 else 0
        row[3] += diff
    return {"wins": wins, "losses": losses, "spread": int(spread), "row": me}, versus


# --- Three real TSH events --------------------------------------------------------------------


@pytest.fixture
def three_events(db: None, tmp_path: Path) -> list[Tournament]:
    """b.t (2006), the top division of the February 2023 event and its other division, in
    date order: Robert Linn played the first two. Each read as DIVISION.t from a copy outside
    the project (the import takes a division's name from the file's)."""
    files = [
        (_tsh(JVC / "b.t"), "b2006", "b", dt.date(2006, 3, 12)),
        (_tsh(JVC / "test_data_a.t.86aeb79"), "top2023", "A", dt.date(2023, 2, 17)),
        (_tsh(JVC / "a.t"), "other2023", "B", dt.date(2023, 2, 18)),
    ]
    made = []
    for source, slug, division, date in files:
        path = tmp_path / slug / f"{division}.t"
        path.parent.mkdir()
        path.write_bytes(source.read_bytes())
        t = tsh_io.import_tsh(path, slug=slug, name=slug)
        Tournament.objects.filter(pk=t.pk).update(start_date=date)
        made.append(t)
    return made


def test_three_real_events_a_shared_player_s_events_and_head_to_head(three_events) -> None:
    linn = _person("Linn, Robert", "b2006")
    assert linn is not None and _person("Linn, Robert", "top2023") == linn
    assert linn.players.count() == 2
    # Everyone else played one event: one person each.
    names = {r["name"] for p in ("b.t", "test_data_a.t.86aeb79", "a.t") for r in _read_t(JVC / p)}
    assert Person.objects.count() == len(names)

    old, old_versus = _expected(JVC / "b.t", "Linn, Robert")
    top, top_versus = _expected(JVC / "test_data_a.t.86aeb79", "Linn, Robert")
    data = Client().get(f"/api/v1/people/{linn.pk}").json()
    assert data["id"] == linn.pk and data["name"] == "Linn, Robert"
    rrank = top["row"]["extras"]["rrank"]
    assert data["events"] == [
        {
            "slug": "b2006",
            "division": "b",
            "wins": old["wins"],
            "losses": old["losses"],
            "spread": old["spread"],
            "rank": data["events"][0]["rank"],
        },
        {
            "slug": "top2023",
            "division": "A",
            "wins": top["wins"],
            "losses": top["losses"],
            "spread": top["spread"],
            "rank": int(rrank[-1]),  # TSH's own rank after the last round
        },
    ]
    expected = {**old_versus, **top_versus}  # no other player is in both events
    got = {
        o["name"]: [o["games"], int(o["wins"] * 2), int(o["losses"] * 2), o["spread"]]
        for o in data["head_to_head"]
    }
    assert got == expected
    assert sum(v[0] for v in expected.values()) == 14 + 23
    # The rating before and after, as TSH wrote it (`newr`) in the 2023 file.
    page = Client().get(f"/people/{linn.pk}/").content.decode()
    newr = top["row"]["extras"]["newr"]
    assert f'1787 → {newr[-1]}</bdi> <bdi dir="ltr">({int(newr[-1]) - 1787:+d})' in page
    assert "<svg" in page and "polyline" in page


def test_linking_the_same_event_again_changes_nothing(three_events) -> None:
    before = list(Player.objects.order_by("pk").values_list("pk", "person_id", "person_link"))
    report = services.link_tournament(three_events[0])
    assert (len(report.by_id), len(report.by_name), len(report.new), report.kept) == (0, 0, 0, 109)
    after = list(Player.objects.order_by("pk").values_list("pk", "person_id", "person_link"))
    assert before == after


def test_the_import_command_reports_the_links(db: None, tmp_path: Path) -> None:
    out = io.StringIO()
    call_command("importtsh", str(_tsh(JVC / "b.t")), slug="b2006", name="b2006", stdout=out)
    assert (
        "People: 0 linked by an identifier, 0 by the name, 109 new, 0 to be confirmed, "
        "0 linked before." in out.getvalue()
    )
    out = io.StringIO()
    top = tmp_path / "A.t"
    top.write_bytes(_tsh(JVC / "test_data_a.t.86aeb79").read_bytes())
    call_command("importtsh", str(top), slug="t2", name="t2", stdout=out)
    assert "People: 0 linked by an identifier, 1 by the name, 23 new" in out.getvalue()


def test_three_wespa_events_link_the_people_who_played_two_or_three(db: None) -> None:
    stems = ["2008_KEN_PANASA08", "2008_TZA_ECASA08", "2012_ZAM_asc2012"]
    keys: list[set[str]] = []
    for stem in stems:
        path = event_file(stem)
        read = tou.read(path.read_bytes())
        keys.append({services.fold(r.name) for s in read.sections for r in s.rows})
        from tournament.exchange.tou import import_tou

        import_tou(path, slug=stem.lower().replace("_", "-"))
    in_all = keys[0] & keys[1] & keys[2]
    in_two = ((keys[0] & keys[1]) | (keys[0] & keys[2]) | (keys[1] & keys[2])) - in_all
    counted = {p.key: p.players.count() for p in Person.objects.prefetch_related("players").all()}
    assert sorted(k for k, n in counted.items() if n == 3) == sorted(in_all)
    assert sorted(k for k, n in counted.items() if n == 2) == sorted(in_two)
    assert len(in_all) > 0 and Player.objects.filter(person_link="unsure").count() == 0


# --- Linking by identifiers and by names written differently ---------------------------------


def test_names_written_differently_are_one_person_and_their_head_to_head(tmp_path) -> None:
    one = _t_file(tmp_path, "one.t", ["Smith, John 1500 2; 400", "Doe, Jane 1400 1; 380"])
    two = _t_file(tmp_path, "two.t", ["john  SMITH 1510 2; 350", "Jane DOE 1420 1; 420"])
    three = _t_file(tmp_path, "three.t", ["Jöhn Smith 1490 2; 410", "Doé, Jane 1430 1; 410"])
    for i, path in enumerate((one, two, three), start=1):
        tsh_io.import_tsh(path, slug=f"e{i}", name=f"Event {i}")
    assert Person.objects.count() == 2
    john = _person("Smith, John", "e1")
    assert john is not None
    assert {p.person_link for p in john.players.all()} == {"new", "name"}
    data = Client().get(f"/api/v1/people/{john.pk}").json()
    jane = _person("Doe, Jane", "e1")
    assert data["head_to_head"] == [
        {
            "opponent": jane.pk,
            "name": "Doe, Jane",
            "games": 3,
            "wins": 1.5,
            "losses": 1.5,
            "spread": 20 - 70 + 0,
        }
    ]
    page = Client().get(f"/people/{john.pk}/vs/{jane.pk}/").content.decode()
    assert page.count("<tr>") == 1 + 3
    assert "1.5 won, 1.5 lost" in page


def test_a_membership_id_links_where_the_names_differ(tmp_path) -> None:
    _t_file(tmp_path, "a.t", ["Smith, John:AA000123 1500 0; 50"])
    _t_file(tmp_path, "b.t", ["Smith, Johnny:aa000123 1500 0; 50"])
    tsh_io.import_tsh(tmp_path / "a.t", slug="a", name="a")
    tsh_io.import_tsh(tmp_path / "b.t", slug="b", name="b")
    john = _person("Smith, John:AA000123", "a")
    assert john is not None and john.naspa_id == "AA000123" and john.name == "Smith, John"
    second = Player.objects.get(division__tournament__slug="b")
    assert (second.person, second.person_link) == (john, "id")


def test_a_cross_tables_id_links_and_fills_the_person(db: None) -> None:
    t1 = Tournament.objects.create(name="One", slug="one")
    d1 = Division.objects.create(tournament=t1, name="A")
    Player.objects.create(division=d1, number=1, name="Kim, Minjun", xtid=4242)
    services.link_tournament(t1)
    t2 = Tournament.objects.create(name="Two", slug="two")
    d2 = Division.objects.create(tournament=t2, name="A")
    p = Player.objects.create(division=d2, number=1, name="김민준", xtid=4242)
    report = services.link_tournament(t2)
    assert [(x.player, x.how) for x in report.by_id] == [(p.pk, "id")]
    assert Person.objects.get().xtid == 4242


def test_two_people_of_one_name_leave_the_player_unsure_for_the_desk(
    tmp_path, director: User, client_for
) -> None:
    a = Person.objects.create(name="Lee, Min", key="lee min")
    b = Person.objects.create(name="Lee, Min", key="lee min", club="Busan")
    path = _t_file(tmp_path, "c.t", ["Min Lee 1500 0; 50"])
    out = io.StringIO()
    call_command("importtsh", str(path), slug="c", name="c", stdout=out)
    player = Player.objects.get(division__tournament__slug="c")
    assert (player.person, player.person_link) == (None, "unsure")
    assert services.unsure_note([player]) == (
        "1 player's name fits more than one person: confirm who at /desk/people/."
    )
    assert f"Min Lee: could not be told apart between 2 people (#{a.pk} Lee, Min, #{b.pk}" in (
        out.getvalue().replace("\u2068", "").replace("\u2069", "")
    )
    Tournament.objects.get(slug="c").directors.add(director)
    desk = client_for(director)
    # Not a candidate, and of no event of theirs: refused, nothing changed.
    elsewhere = Person.objects.create(name="Park, Jisoo", key=services.fold("Park, Jisoo"))
    refused = desk.post("/desk/people/confirm/", {"player": player.pk, "person": elsewhere.pk})
    assert refused.status_code == 403 and PeopleChange.objects.count() == 0
    listing = desk.get("/desk/people/").content.decode()
    assert f'name="player" value="{player.pk}"' in listing
    response = desk.post("/desk/people/confirm/", {"player": player.pk, "person": b.pk})
    assert response.status_code == 302
    player.refresh_from_db()
    assert (player.person, player.person_link) == (b, "director")
    change = PeopleChange.objects.get()
    assert change.action == "link" and change.before["players"] == {
        str(player.pk): [None, "unsure"]
    }


def test_an_id_one_way_and_a_name_another_is_unsure(db: None) -> None:
    Person.objects.create(name="Smith, John", key="john smith", naspa_id="AA000123")
    Person.objects.create(name="Doe, Jane", key="doe jane")
    t = Tournament.objects.create(name="X", slug="x")
    d = Division.objects.create(tournament=t, name="A")
    Player.objects.create(division=d, number=1, name="Doe, Jane", membership_id="AA000123")
    report = services.link_tournament(t)
    assert [len(u.candidates) for u in report.unsure] == [2]


def test_a_late_entry_and_a_rename_at_the_desk_are_linked(division, director) -> None:
    ada = Person.objects.get(players__name="Quill, Ada") if Person.objects.exists() else None
    assert ada is None  # the fixture's players were made without a link
    services.link_tournament(division.tournament)
    other = Tournament.objects.create(name="Other", slug="other")
    other.directors.add(director)  # the name alone joins events that share a director
    d2 = Division.objects.create(tournament=other, name="A")
    late = late_entry(d2, NewPlayer(name="Ada Quill"), director)
    late.refresh_from_db()
    assert late.person_link == "name" and late.person.name == "Quill, Ada"
    # A rename before round 1: the person made for the old name goes on under the new one.
    d3 = Division.objects.create(tournament=other, name="B")
    mis = late_entry(d3, NewPlayer(name="Zed Unique"), director)
    mis.refresh_from_db()
    made = mis.person
    roster.edit_player(mis, NewPlayer(name="Ben Crane"), director)
    mis.refresh_from_db()
    assert mis.person.name == "Crane, Ben" and mis.person_link == "name"
    assert not Person.objects.filter(pk=made.pk).exists()


# --- Merge, split, hide, undo, who may -------------------------------------------------------


def _two_events(tmp_path: Path) -> tuple[Person, Person, Person]:
    _t_file(tmp_path, "a.t", ["رضا محمدی 1500 2; 400", "김민준 1400 1; 380"])
    _t_file(tmp_path, "b.t", ["Reza Mohammadi 1500 2; 300", "Kim Minjun 1400 1; 390"])
    tsh_io.import_tsh(tmp_path / "a.t", slug="a", name="a")
    tsh_io.import_tsh(tmp_path / "b.t", slug="b", name="b")
    reza = _person("رضا محمدی", "a")
    latin = _person("Reza Mohammadi", "b")
    kim = _person("김민준", "a")
    return reza, latin, kim


def test_a_merge_and_its_undo_restore_exactly(tmp_path) -> None:
    reza, latin, kim = _two_events(tmp_path)
    assert Person.objects.count() == 4
    before_people = sorted(Person.objects.values_list("pk", "name", "key", "xtid", "hidden"))
    before_players = sorted(Player.objects.values_list("pk", "person_id", "person_link"))
    change = services.merge(reza, latin, None)
    assert set(reza.players.values_list("division__tournament__slug", flat=True)) == {"a", "b"}
    assert not Person.objects.filter(pk=latin.pk).exists()
    assert Change.objects.filter(action="people").count() == 2  # one per event touched
    data = Client().get(f"/api/v1/people/{kim.pk}").json()
    assert [(o["name"], o["games"]) for o in data["head_to_head"]] == [("رضا محمدی", 1)]
    services.undo(change, None)
    assert sorted(Person.objects.values_list("pk", "name", "key", "xtid", "hidden")) == (
        before_people
    )
    assert sorted(Player.objects.values_list("pk", "person_id", "person_link")) == before_players
    change.refresh_from_db()
    assert change.undone is not None and change.undone.action == "undo"
    with pytest.raises(services.PeopleRefused):
        services.undo(change, None)


def test_a_split_moves_the_chosen_players_to_a_new_person(tmp_path) -> None:
    reza, latin, _ = _two_events(tmp_path)
    services.merge(reza, latin, None)
    moved = reza.players.get(division__tournament__slug="b")
    out = io.StringIO()
    call_command("people", "--split", str(reza.pk), "--players", "b:b:1", stdout=out)
    moved.refresh_from_db()
    assert moved.person != reza and moved.person.name == "Reza Mohammadi"
    assert moved.person_link == "director"
    assert list(reza.players.values_list("pk", flat=True)) == [
        Player.objects.get(division__tournament__slug="a", number=1).pk
    ]
    with pytest.raises(services.PeopleRefused):
        services.split(reza, list(reza.players.all()), None)  # someone must stay


def test_a_hidden_person_is_gone_from_the_people_pages_but_not_the_events(tmp_path) -> None:
    reza, _, kim = _two_events(tmp_path)
    services.set_hidden(reza, True, None)
    client = Client()
    assert client.get(f"/people/{reza.pk}/").status_code == 404
    assert client.get(f"/api/v1/people/{reza.pk}").status_code == 404
    assert client.get(f"/people/{kim.pk}/vs/{reza.pk}/").status_code == 404
    listing = client.get("/people/").content.decode()
    assert f"/people/{reza.pk}/" not in listing and f"/people/{kim.pk}/" in listing
    assert f"/people/{reza.pk}/" not in client.get("/people/?q=reza").content.decode()
    data = client.get(f"/api/v1/people/{kim.pk}").json()
    assert data["head_to_head"][0]["opponent"] is None
    assert data["head_to_head"][0]["name"] == "رضا محمدی"
    page = client.get(f"/people/{kim.pk}/").content.decode()
    assert f"/vs/{reza.pk}/" not in page and "رضا محمدی" in page
    player = client.get("/t/a/a/player/1/").content.decode()
    assert "رضا محمدی" in player and f"/people/{reza.pk}/" not in player
    assert f"/people/{kim.pk}/" in client.get("/t/a/a/player/2/").content.decode()


def test_only_a_director_of_every_person_s_event_may_merge(tmp_path, client_for) -> None:
    reza, latin, _ = _two_events(tmp_path)
    only_a = User.objects.create_user("dir-a")
    Tournament.objects.get(slug="a").directors.add(only_a)
    both = User.objects.create_user("dir-both")
    for slug in ("a", "b"):
        Tournament.objects.get(slug=slug).directors.add(both)
    url = f"/desk/people/{reza.pk}/merge/"
    assert client_for(only_a).post(url, {"other": latin.pk}).status_code == 403
    assert Client().post(url, {"other": latin.pk}).status_code == 302  # to the login page
    assert Person.objects.filter(pk=latin.pk).exists() and PeopleChange.objects.count() == 0
    stranger = User.objects.create_user("stranger")
    hide = client_for(stranger).post(f"/desk/people/{reza.pk}/hide/", {"hidden": "1"})
    assert hide.status_code == 403 and not Person.objects.get(pk=reza.pk).hidden
    assert client_for(stranger).get(f"/desk/people/{reza.pk}/").status_code == 403
    assert client_for(both).post(url, {"other": latin.pk}).status_code == 302
    assert not Person.objects.filter(pk=latin.pk).exists()
    change = PeopleChange.objects.get()
    undo = f"/desk/people/changes/{change.pk}/undo/"
    assert client_for(stranger).post(undo).status_code == 403
    # The director of any event the merge touched may undo it.
    assert client_for(only_a).post(undo).status_code == 302
    assert Person.objects.filter(pk=latin.pk).exists()


def test_the_command_lists_people_as_json_and_merges(tmp_path) -> None:
    reza, latin, kim = _two_events(tmp_path)
    out = io.StringIO()
    call_command("people", "--json", stdout=out)
    assert json.loads(out.getvalue()) == sorted(
        [
            {"id": reza.pk, "name": "رضا محمدی", "events": ["a"]},
            {"id": latin.pk, "name": "Reza Mohammadi", "events": ["b"]},
            {"id": kim.pk, "name": "김민준", "events": ["a"]},
            {"id": _person("Kim Minjun", "b").pk, "name": "Kim Minjun", "events": ["b"]},
        ],
        key=lambda p: (services.fold(p["name"]), p["id"]),
    )
    out = io.StringIO()
    call_command("people", "--merge", str(reza.pk), str(latin.pk), stdout=out)
    change = PeopleChange.objects.get()
    assert out.getvalue().startswith(f"Change #{change.pk}: merge:")
    out = io.StringIO()
    call_command("people", "--json", stdout=out)
    assert {"id": reza.pk, "name": "رضا محمدی", "events": ["a", "b"]} in json.loads(out.getvalue())
    call_command("people", "--undo", str(change.pk), stdout=io.StringIO())
    assert Person.objects.filter(pk=latin.pk).exists()


# --- Backup ----------------------------------------------------------------------------------


def test_a_backup_carries_identities_and_a_restore_links_again(tmp_path) -> None:
    _t_file(tmp_path, "a.t", ["Smith, John:AA000123 1500 2; 400", "Doe, Jane 1400 1; 380"])
    tournament = tsh_io.import_tsh(tmp_path / "a.t", slug="a", name="a")
    john = _person("Smith, John:AA000123", "a")
    data = backup.write(tournament)
    import zipfile

    rows = json.loads(zipfile.ZipFile(io.BytesIO(data)).read("players.json"))
    assert rows[0]["person"] == {
        "name": "Smith, John",
        "xtid": None,
        "naspa_id": "AA000123",
        "wespa_id": "",
        "association_id": "",
    }
    assert "person_id" not in rows[0]
    director = User.objects.create_user("alice")  # an imported event has no director yet
    tournament.directors.add(director)  # she restores her own event's backup
    restored = backup.restore(data, slug="a-copy", director=director).tournament
    copy = Player.objects.get(division__tournament=restored, number=1)
    assert (copy.person, copy.person_link) == (john, "id")
    assert Person.objects.count() == 2


def test_a_backup_s_foreign_person_key_is_never_trusted(tmp_path) -> None:
    _t_file(tmp_path, "a.t", ["Doe, Jane 1400 0; 50"])
    tournament = tsh_io.import_tsh(tmp_path / "a.t", slug="a", name="a")
    jane = _person("Doe, Jane", "a")
    stranger = Person.objects.create(name="Someone Else", key="else someone")
    import zipfile

    source = zipfile.ZipFile(io.BytesIO(backup.write(tournament)))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as out:
        for name in source.namelist():
            body = source.read(name)
            if name == "players.json":
                rows = json.loads(body)
                rows[0]["person_id"] = stranger.pk
                rows[0]["person"] = None
                body = json.dumps(rows).encode()
            out.writestr(name, body)
    director = User.objects.create_user("alice")  # an imported event has no director yet
    tournament.directors.add(director)  # she restores her own event's backup
    restored = backup.restore(buffer.getvalue(), slug="b", director=director).tournament
    copy = Player.objects.get(division__tournament=restored)
    assert (copy.person, copy.person_link) == (jane, "name")


def test_games_of_unpublished_rounds_and_private_events_stay_off(tmp_path) -> None:
    reza, _, kim = _two_events(tmp_path)
    Tournament.objects.filter(slug="b").update(public=False)
    data = Client().get(f"/api/v1/people/{reza.pk}").json()
    assert [e["slug"] for e in data["events"]] == ["a"]
    assert Game.objects.count() == 2


def test_the_same_name_with_another_membership_id_is_another_person(db: None) -> None:
    known = Person.objects.create(name="Smith, John", key="john smith", naspa_id="AA000123")
    t = Tournament.objects.create(name="X", slug="x")
    d = Division.objects.create(tournament=t, name="A")
    Player.objects.create(division=d, number=1, name="John Smith", membership_id="BB000456")
    report = services.link_tournament(t)
    assert len(report.new) == 1 and report.new[0].person != known.pk
    assert Person.objects.get(pk=report.new[0].person).naspa_id == "BB000456"
