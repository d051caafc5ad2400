"""The smaller seams of the desk a director's trial met: names isolated in the pairing reasons and
each pair's figures in the order of its names; a locked event saying so on every desk page; a
result line sent twice saved once; a restore that leaves someone to direct the event; the
login's port; a command's output without isolation marks; the refused removal of a player.

The desk's division (conftest): seven players, round 1 paired 1 v 2, 3 v 4, 5 v 6 and 7 a bye.
Here Cora is "سارا احمدی" and Gus "Lopez, Maria"; round 1's results rank them سارا احمدی (+200),
Lopez, Maria (+100), Ada (+50), Hal (bye, +50), Ben (−50), Fay (−100), Eli (−200).
"""

from __future__ import annotations

import io
import os
import re

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from text_support import plain

from tests.tournament.engine.pairing_support import field, win
from tournament.core import sentences
from tournament.core.sentences import FSI, LRI, PDI
from tournament.engine.pairing import pair_round
from tournament.engine.pairing.messages import Message
from tournament.exchange import backup
from tournament.models import Change, Division, Player, Round, Tournament
from tournament.pairing import services as pairing
from tournament.results import services as results

ROUND_1 = ["1 400 2 350", "3 500 4 300", "6 450 5 350", "7 bye"]
SARA = "سارا احمدی"


@pytest.fixture
def played(division: Division, director) -> Division:
    Player.objects.filter(division=division, number=3).update(name=SARA)
    Player.objects.filter(division=division, number=6).update(name="Lopez, Maria")
    for line in ROUND_1:
        results.enter_line(division, 1, line, director)
    return division


def url(name: str, division: Division, *args) -> str:
    return reverse(name, args=[division.tournament.slug, division.pk, *args])


# --------------------------------------------------------------------------- pairing reasons


def test_each_pairs_figures_follow_the_order_of_its_names() -> None:
    players = field(*"ABCDEF")
    round1 = [win("A", "D", a_first=True), win("B", "E", a_first=True), win("C", "F", a_first=True)]

    result = pair_round(players, [round1], 2, "koth")

    # D (4th, no win) goes first against C (3rd, one win): D's figures come first.
    lines = {(p.first, p.second): [str(r) for r in p.reasons] for p in result.pairings}
    assert lines == {
        ("B", "A"): [
            "king of the hill",
            "places 2 and 1",
            "both on 1 wins",
            "B goes first: level on starts, the lower-placed player",
        ],
        ("D", "C"): [
            "king of the hill",
            "places 4 and 3",
            "0 v 1 wins",
            "D goes first: 0 start(s) against 1",
        ],
        ("F", "E"): [
            "king of the hill",
            "places 6 and 5",
            "both on 0 wins",
            "F goes first: level on starts, the lower-placed player",
        ],
    }


def test_names_in_lists_pairs_and_nested_messages_are_isolated_and_numbers_are_not() -> None:
    relaxed = Message(
        "repeats_relaxed", limit=0, what=Message("by_swiss"), pairs=[[SARA, "Kim, Min"]]
    )
    plays = Message(
        "gibson_plays",
        player="Kim, Min",
        other=SARA,
        why=Message("gibson_opponent_out", best=4, met=0),
    )
    imbalance = Message("first_imbalance", a=SARA, b="Kim, Min", firsts=3, other=1)
    unknown = Message("unknown_player", player="Nobody")

    assert sentences.messages([m.as_dict() for m in (relaxed, plays, imbalance, unknown)]) == [
        f"The repeat limit (no rematches) could not be met in the Swiss; it was relaxed for "
        f"{FSI}{SARA}{PDI} v {FSI}Kim, Min{PDI}.",
        f"{FSI}Kim, Min{PDI}, Gibsonized, plays {FSI}{SARA}{PDI}: the highest-placed player who "
        "can no longer reach the prizes (best finish 4th), of those who met the Gibson least "
        "(0 time(s)).",
        f"{FSI}{SARA}{PDI} goes first with 3 start(s) so far, against {FSI}Kim, Min{PDI}'s 1.",
        "'Nobody' is not a player of this division.",
    ]


def test_every_name_in_the_rounds_reasons_is_isolated(desk: Client, played: Division):
    desk.post(url("desk-pair", played), {"round": 2, "system": "koth"})

    state = Round.objects.get(division=played, number=2)
    assert pairing.note_lines(state) == [
        f"{FSI}Moss, Eli{PDI} {LRI}(7th, 0-1 -200){PDI} has the bye: the lowest-placed player "
        "without a bye.",
        f"{FSI}Lopez, Maria{PDI} v {FSI}{SARA}{PDI}: king of the hill; places 2 and 1; both on 1 "
        f"wins; {FSI}Lopez, Maria{PDI} goes first: level on starts, the lower-placed player",
        f"{FSI}Reed, Hal{PDI} v {FSI}Quill, Ada{PDI}: king of the hill; places 4 and 3; both on 1 "
        f"wins; {FSI}Reed, Hal{PDI} goes first: 0 start(s) against 1",
        f"{FSI}North, Fay{PDI} v {FSI}Crane, Ben{PDI}: king of the hill; places 6 and 5; both on 0 "
        f"wins; {FSI}North, Fay{PDI} goes first: level on starts, the lower-placed player",
    ]
    page = desk.get(url("desk-round-pairings", played, 2)).content.decode()
    assert (
        f"<li><bdi>Lopez, Maria</bdi> v <bdi>{SARA}</bdi>: king of the hill; places 2 and 1; "
        "both on 1 wins; <bdi>Lopez, Maria</bdi> goes first: level on starts, the lower-placed "
        "player</li>"
    ) in page
    assert (
        '<li><bdi>Moss, Eli</bdi> <bdi dir="ltr" class="ltr">(7th, 0-1 -200)</bdi> has the bye: '
        "the lowest-placed player without a bye.</li>"
    ) in page


def test_a_warning_isolates_its_names_on_the_page(desk: Client, played: Division):
    desk.post(url("desk-pair", played), {"round": 2, "system": "koth"})
    # A rematch made by hand: Ada and Ben met in round 1, and Ada went first then.
    desk.post(url("desk-pair-manual", played, 2), {"pairs": "1 2\n3 6\n4 7\n5 bye"})

    page = desk.get(url("desk-round-pairings", played, 2)).content.decode()
    assert (
        '<li class="warning" data-code="repeat_limit"><bdi>Quill, Ada</bdi> and <bdi>Crane, Ben'
        "</bdi> have met 1 time(s); the division allows no rematches.</li>"
    ) in page
    assert (
        '<li class="warning" data-code="first_imbalance"><bdi>Quill, Ada</bdi> goes first with 1 '
        "start(s) so far, against <bdi>Crane, Ben</bdi>&#x27;s 0.</li>"
    ) in page


# --------------------------------------------------------------------------- a locked event


def test_every_desk_page_of_a_locked_event_says_it_is_locked(
    desk: Client, division: Division, director
):
    results.enter_line(division, 1, "1 400 2 350", director)
    game = division.games.get(round=1, table=1)
    desk.post("/desk/spring-open/lock", {"locked": "1"})
    at = timezone.localtime(Change.objects.get(action="lock").at).strftime("%H:%M")
    banner = (
        '<p class="warning" id="locked" role="status"><bdi>Spring Open</bdi> is locked (by '
        f"<bdi>alice</bdi> at {at}): nothing can be changed until one of its directors unlocks "
        "it on its desk dashboard.</p>"
    )
    d = division.pk
    pages = [
        "",
        "changes/",
        "divisions/",
        "people/",
        "summary/",
        f"division/{d}/players/",
        f"division/{d}/players/1/edit/",
        f"division/{d}/check-in/",
        f"division/{d}/pairing/",
        f"division/{d}/settings/",
        f"division/{d}/round/1/pairings/",
        f"division/{d}/round/1/",
        f"games/{game.pk}/",
        f"division/{d}/upload/",
        f"division/{d}/links/",
        f"division/{d}/prizes/",
        f"division/{d}/photos/",
    ]
    for page in pages:
        html = desk.get(f"/desk/spring-open/{page}").content.decode()
        assert html.count(banner) == 1, page

    desk.post("/desk/spring-open/lock", {"locked": "0"})
    for page in pages:
        assert 'id="locked"' not in desk.get(f"/desk/spring-open/{page}").content.decode(), page


# --------------------------------------------------------------------------- Enter twice

JSON = {"HTTP_ACCEPT": "application/json"}


def enter_url(division: Division) -> str:
    return f"/desk/spring-open/division/{division.pk}/round/1/enter"


def test_the_same_line_sent_twice_is_saved_once_and_answered_as_saved(
    desk: Client, division: Division
):
    line = {"line": "1 455 2 389", "version": "0"}

    first = desk.post(enter_url(division), line, **JSON)
    again = desk.post(enter_url(division), line, **JSON)

    assert (first.status_code, again.status_code) == (200, 200)
    assert first.json()["ok"] is True and again.json()["ok"] is True
    assert (
        plain(again.json()["message"])
        == plain(first.json()["message"])
        == ("Saved: 1 Quill, Ada 455 – 2 Crane, Ben 389, Quill, Ada first")
    )
    assert "error" not in again.json()
    assert Change.objects.filter(action="create").count() == 1
    game = division.games.get(round=1, table=1)
    assert (game.score1, game.score2, game.version) == (455, 389, 1)


def test_a_correction_sent_twice_is_one_correction(desk: Client, division: Division, director):
    results.enter_line(division, 1, "1 455 2 389", director)
    line = {"line": "1 455 2 398", "version": "1", "reason": "a slip"}

    first = desk.post(enter_url(division), line, **JSON)
    again = desk.post(enter_url(division), line, **JSON)

    assert (first.status_code, again.status_code) == (200, 200)
    assert plain(again.json()["message"]) == plain(first.json()["message"])
    assert Change.objects.filter(action="correct").count() == 1
    assert division.games.get(round=1, table=1).version == 2


def test_another_line_or_another_director_after_a_save_is_still_refused(
    desk: Client, second_desk: Client, division: Division
):
    desk.post(enter_url(division), {"line": "1 455 2 389", "version": "0"}, **JSON)

    other_scores = desk.post(
        enter_url(division), {"line": "1 445 2 389", "version": "0", "reason": "x"}, **JSON
    )
    other_director = second_desk.post(
        enter_url(division), {"line": "1 455 2 389", "version": "0"}, **JSON
    )

    assert (other_scores.status_code, other_director.status_code) == (409, 409)
    assert other_scores.json()["stale"] is True and other_director.json()["stale"] is True
    assert plain(other_director.json()["error"]).startswith(
        "alice changed the round 1 game Quill, Ada v Crane, Ben at "
    )
    assert Change.objects.filter(action__in=["create", "correct"]).count() == 1


# --------------------------------------------------------------------------- restore


@pytest.fixture
def backup_file(tournament: Tournament, tmp_path) -> str:
    """The desk's tournament backed up, then gone with its two directors' accounts, as on
    another server."""
    path = tmp_path / "spring-open.zip"
    path.write_bytes(backup.write(tournament))
    tournament.delete()
    User.objects.filter(username__in=["alice", "bob"]).delete()
    return str(path)


def test_a_restore_that_would_leave_nobody_to_direct_is_refused_before_writing(backup_file):
    with pytest.raises(CommandError) as refused:
        call_command("restore", backup_file, stdout=io.StringIO())

    assert str(refused.value) == (
        "Nothing was restored: none of its directors (alice, bob) has an account on this server. "
        "Create one first (manage.py createdirector alice), or name a user of this server to "
        "direct it with --director USERNAME."
    )
    assert Tournament.objects.count() == 0 and Player.objects.count() == 0


def test_a_restore_names_its_director_here(backup_file):
    carol = User.objects.create_user("carol")
    out = io.StringIO()

    call_command("restore", backup_file, "--director", "carol", stdout=out)

    restored = Tournament.objects.get(slug="spring-open")
    assert list(restored.directors.all()) == [carol]
    assert out.getvalue().splitlines() == [
        "spring-open: restored (Spring Open).",
        "Users not here (an admin may add them, then make them directors or scorekeepers at "
        "the desk): alice, bob",
        "spring-open: consistency check, consistent.",
    ]


def test_a_director_who_is_not_here_is_refused_by_name(backup_file):
    with pytest.raises(CommandError) as refused:
        call_command("restore", backup_file, "--director", "dave", stdout=io.StringIO())

    assert str(refused.value) == (
        "No user 'dave' on this server: create it first (manage.py createdirector dave), then "
        "restore again. Nothing was restored."
    )
    assert Tournament.objects.count() == 0


def test_one_of_its_directors_here_is_enough(tournament: Tournament, tmp_path):
    path = tmp_path / "spring-open.zip"
    path.write_bytes(backup.write(tournament))
    tournament.delete()
    User.objects.filter(username="bob").delete()

    call_command("restore", str(path), stdout=io.StringIO())

    restored = Tournament.objects.get(slug="spring-open")
    assert [u.username for u in restored.directors.all()] == ["alice"]


# --------------------------------------------------------------------------- the command line

MARKS = {"\u2066", "\u2067", "\u2068", "\u2069"}


def test_make_run_passes_its_port_to_the_demos_login(db) -> None:
    import shutil
    import subprocess
    from pathlib import Path

    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    root = Path(__file__).resolve().parents[3]
    done = subprocess.run(
        ["make", "--no-print-directory", "-n", "run", "PORT=9101"],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
        env={k: v for k, v in os.environ.items() if k not in ("PORT", "DEMO", "MAKEFLAGS")},
    )
    commands = [
        line.split("manage.py ", 1)[1] for line in done.stdout.splitlines() if "manage.py" in line
    ]
    assert commands == ["migrate --noinput", "loaddemo --port 9101", "runserver 127.0.0.1:9101"]

    out = io.StringIO()
    call_command("loaddemo", "--port", "9101", stdout=out)
    assert out.getvalue().splitlines()[-1] == (
        "Director login: director / spread-demo at http://127.0.0.1:9101/accounts/login/"
    )


def test_commands_print_sentences_with_names_without_isolation_marks(played: Division) -> None:
    out = io.StringIO()
    call_command(
        "pair",
        "spring-open",
        "--division",
        "A",
        "--round",
        "2",
        "--system",
        "koth",
        "--dry-run",
        stdout=out,
    )
    printed = out.getvalue()

    assert not MARKS & set(printed)
    assert printed.splitlines() == [
        "Round 2 of division A, koth from round 1:",
        f"   1  Lopez, Maria                   v  {SARA}",
        "   2  Reed, Hal                      v  Quill, Ada",
        "   3  North, Fay                     v  Crane, Ben",
        "      Moss, Eli                      v  bye",
        "note: Moss, Eli (7th, 0-1 -200) has the bye: the lowest-placed player without a bye.",
        "Dry run: nothing saved.",
    ]

    made = io.StringIO()
    call_command("createdirector", "مریم", "--password", "x-long-password-1", stdout=made)
    assert made.getvalue() == "Account مریم created: it may now create tournaments at /desk/.\n"


def test_a_commands_refusal_carries_no_isolation_marks(db, monkeypatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO())  # not a terminal: no password asked for
    with pytest.raises(CommandError) as refused:
        call_command("createdirector", "مریم", stdout=io.StringIO())

    assert str(refused.value) == "There is no account مریم yet: give --password to create it."


# --------------------------------------------------------------------------- a refused removal


def test_a_refused_removal_keeps_the_entries_and_shows_only_the_refusal(
    desk: Client, division: Division
):
    # Round 1 is paired: the director had typed a new rating and club, then pressed Remove.
    refused = desk.post(
        f"/desk/spring-open/division/{division.pk}/players/1/edit/",
        {"name": "Quill, Ada", "rating": "1720", "club": "Leeds", "action": "remove"},
    )

    page = refused.content.decode()
    assert refused.status_code == 409
    assert re.findall(r'<li class="error">(.*?)</li>', page) == [
        "Round 1 of division A is paired: players can no longer be removed (withdraw them "
        "instead, or unpair round 1 first)."
    ]
    assert 'class="alert"' not in page and "This field is required" not in page
    assert 'name="name" value="Quill, Ada"' in page
    assert 'name="rating" value="1720"' in page
    assert 'name="club" value="Leeds"' in page
    ada = division.players.get(number=1)
    assert (ada.rating, ada.club) == (0, "")

    # A removal sent with no fields (an older page's own form): the stored values, no errors.
    bare = desk.post(
        f"/desk/spring-open/division/{division.pk}/players/1/edit/", {"action": "remove"}
    ).content.decode()
    assert len(re.findall(r'<li class="error">', bare)) == 1
    assert 'class="alert"' not in bare and "This field is required" not in bare
    assert 'name="name" value="Quill, Ada"' in bare and 'name="rating" value="0"' in bare


def test_the_remove_button_sends_the_player_form_and_asks_first(desk: Client, division: Division):
    page = desk.get(f"/desk/spring-open/division/{division.pk}/players/1/edit/").content.decode()
    form = page[page.index('<form method="post" class="stacked" id="player-form">') :]
    form = form[: form.index("</form>")]
    assert (
        '<button type="submit" name="action" value="remove" class="secondary" formnovalidate '
        'id="remove-player" data-confirm="Remove \u2068Quill, Ada\u2069 from division '
        '\u2068A\u2069?">Remove <bdi>Quill, Ada</bdi></button>'
    ) in form
