"""Every player's name in Latin letters: spelled automatically when the player is added, by
every path a player comes in; checked or corrected by the director on the players page; written
by the `.tou` file (and by a TSH file whose line cannot hold the name); warned about on the
dashboard and the summary while a transliteration is unchecked."""

from __future__ import annotations

import datetime
import importlib
from io import StringIO
from pathlib import Path

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client

import tournament.migrations as migrations_package
from tournament.event import services as event
from tournament.exchange import tsh_io
from tournament.exchange.tou import import_tou
from tournament.interchange import names, tou, tsh
from tournament.models import Change, Division, Game, Player, Tournament
from tournament.players import roster
from tournament.players import services as players
from tournament.reports.data import tou_text

KOREAN, PERSIAN = "김민수", "علی رضایی"


@pytest.fixture
def seoul(director: User) -> Tournament:
    """Round 1: 김민수, going first, beats علی رضایی 420-380; Quill, Ada has a bye."""
    tournament = Tournament.objects.create(
        name="Seoul Open", slug="seoul", start_date=datetime.date(2026, 3, 7)
    )
    tournament.directors.add(director)
    division = Division.objects.create(tournament=tournament, name="A", planned_rounds=1)
    kim, ali, ada = (
        Player.objects.create(division=division, number=n, name=name)
        for n, name in enumerate([KOREAN, PERSIAN, "Quill, Ada"], start=1)
    )
    Game.objects.create(
        division=division,
        round=1,
        table=1,
        player1=kim,
        player2=ali,
        score1=420,
        score2=380,
        first=1,
    )
    Game.objects.create(division=division, round=1, player1=ada, score1=50, kind=Game.BYE)
    return tournament


def _lines(tournament: Tournament) -> list[str]:
    return tou_text(tournament).split("\r\n")


def test_the_tou_file_writes_korean_and_persian_players_in_latin_letters(
    seoul: Tournament,
) -> None:
    assert _lines(seoul) == [
        "*M07.03.2026 Seoul Open",
        "*A",
        " " * 38 + "0",
        "GimMinSu             2420  +2",
        "Ly Rdyy               380   1",
        "Quill, Ada             50   3",
        "*** END OF FILE ***",
        "",
    ]
    # As the director corrects them on the players page, so the file writes them.
    division = seoul.divisions.get()
    division.players.filter(number=1).update(latin_name="Kim Min-su", latin_checked=True)
    division.players.filter(number=2).update(latin_name="Ali Rezaei", latin_checked=True)
    assert _lines(seoul)[3:5] == [
        "Kim Min-su           2420  +2",
        "Ali Rezaei            380   1",
    ]


def test_a_player_added_gets_the_automatic_latin_name_unchecked(seoul: Tournament) -> None:
    rows = list(seoul.divisions.get().players.values_list("name", "latin_name", "latin_checked"))
    assert rows == [
        (KOREAN, "GimMinSu", False),
        (PERSIAN, "Ly Rdyy", False),
        ("Quill, Ada", "Quill, Ada", False),
    ]
    assert [p.latin_to_check for p in seoul.divisions.get().players.all()] == [True, True, False]


def test_the_director_edits_a_latin_name_on_the_players_page(
    seoul: Tournament, desk: Client, director: User
) -> None:
    division = seoul.divisions.get()
    url = f"/desk/seoul/division/{division.pk}/players/"
    page = desk.get(url).content.decode()
    assert 'name="latin-1" id="id_latin_1" value="GimMinSu"' in page
    assert 'name="latin-2" id="id_latin_2" value="Ly Rdyy"' in page
    assert 'name="latin-3"' not in page  # a name in Latin letters already: nothing to check
    assert page.count('<span class="badge bad">automatic</span>') == 2

    response = desk.post(
        f"{url}latin",
        {"latin-1": "  Kim   Min-su ", "latin-2": "Ly Rdyy"},
    )
    assert response.status_code == 302
    assert response["Location"] == f"{url}#latin-names"
    kim, ali = division.players.filter(number__in=[1, 2])
    # A name the director changed is theirs, checked; the other stays the automatic one.
    assert (kim.latin_name, kim.latin_checked) == ("Kim Min-su", True)
    assert (ali.latin_name, ali.latin_checked) == ("Ly Rdyy", False)
    change = Change.objects.get(action="edit player")
    assert change.user == director
    assert change.reason == "1 name in Latin letters saved: 1 Kim Min-su"
    assert change.before == {"latin_names": [[1, "GimMinSu", False]]}
    assert change.after == {"latin_names": [[1, "Kim Min-su", True]]}

    page = desk.get(url).content.decode()
    assert "1 name in Latin letters saved." in page
    assert 'value="Kim Min-su"' in page
    assert page.count('<span class="badge ok">checked</span>') == 1

    # Ticked as checked, as it is.
    desk.post(f"{url}latin", {"latin-2": "Ly Rdyy", "checked-2": "1"})
    ali.refresh_from_db()
    assert (ali.latin_name, ali.latin_checked) == ("Ly Rdyy", True)


def test_a_latin_name_in_another_script_is_refused_and_what_was_typed_kept(
    seoul: Tournament, desk: Client
) -> None:
    division = seoul.divisions.get()
    url = f"/desk/seoul/division/{division.pk}/players/latin"
    response = desk.post(url, {"latin-1": "Kim 민수", "latin-2": "  ", "checked-2": "1"})
    assert response.status_code == 400
    page = response.content.decode()
    assert (
        "Nothing saved: Player 1: “민수” are not Latin letters. "
        "Player 2: a name in Latin letters is needed."
    ) in page
    assert 'value="Kim 민수"' in page  # kept to be corrected
    assert list(division.players.values_list("latin_name", "latin_checked")) == [
        ("GimMinSu", False),
        ("Ly Rdyy", False),
        ("Quill, Ada", False),
    ]
    assert not Change.objects.exists()


def test_only_a_director_saves_latin_names(seoul: Tournament, client_for, stranger: User) -> None:
    seoul.scorekeepers.add(stranger)
    division = seoul.divisions.get()
    url = f"/desk/seoul/division/{division.pk}/players/latin"
    response = client_for(stranger).post(url, {"latin-1": "Kim Minsu", "checked-1": "1"})
    assert response.status_code == 403
    assert division.players.get(number=1).latin_name == "GimMinSu"


def test_the_dashboard_and_summary_warn_until_the_director_checks_the_names(
    seoul: Tournament, desk: Client
) -> None:
    division = seoul.divisions.get()
    warning = (
        '<div class="warning" id="latin-warning"><strong>2 names in Latin letters are only '
        "spelled automatically:</strong>\n    the .tou file writes them as a transliteration "
        "guessed them. Check them on the players page:\n    "
        f'<a href="/desk/seoul/division/{division.pk}/players/#latin-names">division '
        '<bdi>A</bdi> (<bdi dir="ltr" class="ltr">2</bdi>)</a>.</div>'
    )
    assert warning in desk.get("/desk/seoul/").content.decode()
    assert warning in desk.get("/desk/seoul/summary/").content.decode()

    # “Save, every name on the list checked”: the warning is gone.
    response = desk.post(
        f"/desk/seoul/division/{division.pk}/players/latin",
        {"latin-1": "Kim Min-su", "latin-2": "Ali Rezaei", "all": "1"},
    )
    assert response.status_code == 302
    assert 'id="latin-warning"' not in desk.get("/desk/seoul/").content.decode()
    assert 'id="latin-warning"' not in desk.get("/desk/seoul/summary/").content.decode()


def test_a_renamed_player_is_spelled_afresh_and_checked_again(director: User) -> None:
    t = event.create_tournament(director, "Busan", [event.NewDivision(name="A")])
    division = t.divisions.get()
    (player,) = roster.add_players(division, f"{KOREAN}, 1500", director)
    player.latin_name, player.latin_checked = "Kim Minsu", True
    player.save()
    roster.edit_player(player, players.NewPlayer("박지성", 1500), director)
    player.refresh_from_db()
    assert (player.latin_name, player.latin_checked) == ("BagJiSeong", False)


def test_every_way_in_gives_a_player_the_automatic_latin_name(
    director: User, tmp_path: Path
) -> None:
    t = event.create_tournament(director, "Every Way", [event.NewDivision(name="A")])
    division = t.divisions.get()
    roster.add_players(division, f"{KOREAN}, 1500", director)  # pasted
    players.late_entry(division, players.NewPlayer(PERSIAN, 1400), director)  # typed
    players.import_roster(division, "name,rating\nΣωκράτης,1300\n".encode(), "r.csv", director)
    copy = event.copy_tournament(t, director, "Every Way 2")
    (tmp_path / "a.t").write_text("Дмитрий Иванов 1600 ;\n", encoding="utf-8")
    imported = tsh_io.import_tsh(tmp_path / "a.t", slug="from-tsh", name="From TSH")
    tou_lines = ["*M07.03.2015 Club", "*A", " " * 38 + "0", "Zoë Müller           2420   2"]
    tou_lines += ["Bob Bell              380   1", "*** END OF FILE ***", ""]
    (tmp_path / "e.tou").write_bytes("\r\n".join(tou_lines).encode("latin-1"))
    from_tou = import_tou(tmp_path / "e.tou", slug="from-tou").tournament

    def latin(tournament: Tournament) -> list[tuple[str, str]]:
        found = Player.objects.filter(division__tournament=tournament)
        return list(found.values_list("name", "latin_name"))

    expected = [(KOREAN, "GimMinSu"), (PERSIAN, "Ly Rdyy"), ("Σωκράτης", "Sokratis")]
    assert latin(t) == expected
    assert latin(copy) == expected
    assert latin(imported) == [("Дмитрий Иванов", "Dmitriy Ivanov")]
    assert latin(from_tou) == [("Zoë Müller", "Zoë Müller"), ("Bob Bell", "Bob Bell")]


def test_the_migration_gives_players_already_there_their_latin_names(seoul: Tournament) -> None:
    Player.objects.update(latin_name="")
    (path,) = Path(migrations_package.__file__).parent.glob("*_latin.py")
    importlib.import_module(f"tournament.migrations.{path.stem}").fill(apps, None)
    assert list(Player.objects.values_list("latin_name", flat=True)) == [
        "GimMinSu",
        "Ly Rdyy",
        "Quill, Ada",
    ]


def test_exporttou_warns_of_names_not_checked(seoul: Tournament, tmp_path: Path) -> None:
    out, err = StringIO(), StringIO()
    target = tmp_path / "seoul.tou"
    call_command("exporttou", "seoul", output=str(target), stdout=out, stderr=err)
    assert out.getvalue() == f"{target}: 1 division, 3 players\n"
    assert err.getvalue() == (
        "warning: division A: 2 names in Latin letters only spelled automatically: check them "
        "on the desk's players page\n"
    )
    assert target.read_bytes().decode("ascii").split("\r\n")[3] == "GimMinSu             2420  +2"


HOSTILE = ["#Fan", "x 2;", 'B" 2;-', "+", ";", "12 34", "A", "Lee\u2028Ann", "Kim 1500 x"]


@pytest.mark.parametrize("name", HOSTILE)
def test_a_tsh_line_never_writes_a_name_as_player_n(name: str) -> None:
    player = tsh.TshPlayer(3, name, "1500", [], [])
    written = tsh_io.tsh_name(player, names.automatic(name))
    assert "Player 3" not in written
    tsh.format_player(tsh.TshPlayer(3, written, "1500", [], []))  # tsh reads it back


def test_the_automatic_spelling_and_what_needs_a_check() -> None:
    assert names.automatic("محمد حسینی") == "Mhmd Hsyny"
    assert names.automatic("Ngô Bảo Châu") == "Ngô Bảo Châu"  # Latin letters kept
    assert names.automatic("山田 太郎") == "ShanTian TaiLang"
    assert [names.needs_check(n) for n in ("Łukasz Żak", "O’Neil", "Σωκράτης", "🙂")] == [
        False,
        False,
        True,
        True,
    ]
    assert names.latin_problem("Núñez, José") is None
    assert names.latin_problem("Kim 민수") == "민수"


def test_a_name_with_no_letter_a_tou_file_can_hold_is_refused_in_a_sentence(
    seoul: Tournament, desk: Client
) -> None:
    division = seoul.divisions.get()
    Player.objects.create(division=division, number=4, name="\u200b")  # a zero-width space
    message = (
        "division A, player 4: '' has no letter a .tou file can hold: give them a name in "
        "Latin letters"
    )
    with pytest.raises(tou.TouError) as error:
        tou_text(seoul)
    assert str(error.value) == message
    response = desk.get("/desk/seoul/results.tou")
    assert (response.status_code, response["Location"]) == (302, "/desk/seoul/")
    page = desk.get("/desk/seoul/").content.decode()
    assert f"The .tou file cannot be written: {message}." in page.replace("&#x27;", "'")


def test_every_players_latin_name_can_be_shown_and_corrected(
    seoul: Tournament, desk: Client
) -> None:
    division = seoul.divisions.get()
    url = f"/desk/seoul/division/{division.pk}/players/"
    assert 'name="latin-3"' not in desk.get(url).content.decode()
    page = desk.get(f"{url}?latin=all").content.decode()
    assert 'name="latin-3" id="id_latin_3" value="Quill, Ada"' in page
    desk.post(f"{url}latin", {"latin-3": "Quill, Ada Mary"})
    ada = division.players.get(number=3)
    assert (ada.latin_name, ada.latin_checked) == ("Quill, Ada Mary", True)
    # Written otherwise than its name, it stays on the list.
    assert (
        'name="latin-3" id="id_latin_3" value="Quill, Ada Mary"' in desk.get(url).content.decode()
    )
