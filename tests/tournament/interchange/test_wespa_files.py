"""Reading `.tou` files: a small event worked out by hand, with what real WESPA files hold."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client

from tournament.exchange.tou import import_tou
from tournament.interchange import tou, wespa
from tournament.models import Division, Game, Tournament
from tournament.reports.data import tou_text
from tournament.standings import read_model
from tournament.standings.stamps import read as read_stamps

# Round 1: Zoë, going first, beats Bob 420-380; Dan, going first, ties Cara 400-400.
# Round 2: Cara, going first, beats Zoë 450-300; Bob has a bye (2001); Dan is absent (0).
# Round 3: Dan beats Zoë 410-390 (Zoë first); Bob, going first, beats Cara 350-340.
# Zoë's name is Latin-1, Bob's line has a tab after the name, Dan's first score starts in
# column 21, and the high-word line names a player, a word and its score.
LINES = [
    b"*M07.03.2015 Club Night",
    b"*A",
    b"Cara Cole           QUIZ            88",
    b"Zo\xeb M\xfcller           2420  +2  300   3  390  +4",
    b"Bob Bell\t 380   1 2001   2 2350  +3",
    b"Cara Cole            1400   4 2450  +1  340   2",
    b"Dan Dunn            1400  +3    0   4 2410   1",
    b"*** END OF FILE ***",
]


def event_bytes(lines: list[bytes] = LINES, end: bytes = b"\r\n") -> bytes:
    return end.join(lines) + end


@pytest.fixture
def club(db: None, tmp_path: Path) -> Tournament:
    path = tmp_path / "club.tou"
    path.write_bytes(event_bytes())
    return import_tou(path, slug="club").tournament


def test_a_file_without_its_closing_line_is_read_as_far_as_it_goes() -> None:
    assert tou.read(event_bytes(LINES[:-1], b"\n")) == tou.read(event_bytes())


def test_the_reader_takes_latin1_tabs_column_21_and_a_named_high_word() -> None:
    event = tou.read(event_bytes())
    (section,) = event.sections
    assert (event.results_only, str(event.date), event.event) == (False, "2015-03-07", "Club Night")
    assert section.high_word == "Cara Cole           QUIZ            88"
    assert [r.name for r in section.rows] == ["Zoë Müller", "Bob Bell", "Cara Cole", "Dan Dunn"]
    dan = section.rows[3]
    assert dan.entries[0] == tou.TouEntry(1400, 3, True, column21=True)
    assert [e.code for e in section.rows[1].entries] == [380, 2001, 2350]


def test_wespas_faults_recomputed_on_the_small_event() -> None:
    (section,) = tou.read(event_bytes()).sections
    figures = wespa.flawed_figures(section)
    # Dan's 1400 in column 21 is read as 0400, a loss; his missed round 2 is dropped, so he
    # is matched against Zoë's round-2 score (410 - 300), and Zoë's round 3 reads past the
    # end of his list. Bob's bye counts nowhere.
    assert figures[3] == wespa.Figures(1.0, 110, 2)
    assert figures[0] == wespa.Figures(1.0, None, 3)
    assert figures[1] == wespa.Figures(1.0, -30, 2)


def test_standings_count_self_pairings_by_the_division_settings(club: Tournament) -> None:
    division = club.divisions.get()
    rows = [
        (r.rank, r.name, r.wins, r.losses, r.spread, r.games)
        for r in read_model.division_standings(division, stamps=read_stamps(division))
    ]
    assert rows == [
        (1, "Bob Bell", 2.0, 1.0, 70, 3),  # the bye: a win worth the bye spread, 100
        (2, "Dan Dunn", 1.5, 0.5, 20, 3),  # the absence: a game neither won nor lost
        (3, "Cara Cole", 1.5, 1.5, 140, 3),
        (4, "Zoë Müller", 1.0, 2.0, -130, 3),
    ]
    assert division.bye_spread == 100


def test_the_export_writes_each_game_back_as_it_came(club: Tournament) -> None:
    assert tou_text(club).split("\r\n") == [
        "*M07.03.2015 Club Night",
        "*A",
        "Cara Cole           QUIZ            88",
        "Zoe Muller           2420  +2  300   3  390  +4",
        "Bob Bell              380   1 2001   2 2350  +3",
        "Cara Cole            1400   4 2450  +1  340   2",
        "Dan Dunn             1400  +3    0   4 2410   1",
        "*** END OF FILE ***",
        "",
    ]


def test_a_game_corrected_after_the_import_is_written_from_its_new_scores(
    club: Tournament,
) -> None:
    game = Game.objects.get(division__tournament=club, round=3, player1__name="Bob Bell")
    game.score1 = 330
    game.save()
    lines = tou_text(club).split("\r\n")
    assert lines[4] == "Bob Bell              380   1 2001   2  330  +3"
    assert lines[5] == "Cara Cole            1400   4 2450  +1 2340   2"


def test_a_line_that_lists_only_the_rounds_played_is_put_in_its_opponents_rounds(
    db: None, tmp_path: Path
) -> None:
    lines = list(LINES)
    lines[6] = b"Dan Dunn             1400  +3 2410   1"
    path = tmp_path / "compact.tou"
    path.write_bytes(event_bytes(lines, b"\n"))
    club = import_tou(path, slug="compact").tournament
    dan = Game.objects.filter(division__tournament=club, player2__name="Dan Dunn")
    assert sorted(dan.values_list("round", "player1__name")) == [
        (1, "Cara Cole"),
        (3, "Zoë Müller"),
    ]
    assert tou_text(club).split("\r\n")[6] == "Dan Dunn             1400  +3 2410   1"


def test_an_event_of_wins_and_losses_only_has_no_spread(db: None, tmp_path: Path) -> None:
    lines = [b"*N07.03.2015 Club Night", *LINES[1:]]
    path = tmp_path / "wins.tou"
    path.write_bytes(event_bytes(lines))
    club = import_tou(path, slug="wins").tournament
    rows = read_model.division_standings(
        club.divisions.get(), stamps=read_stamps(club.divisions.get())
    )
    assert [(r.name, r.wins, r.spread) for r in rows] == [
        ("Bob Bell", 2.0, 0),
        ("Dan Dunn", 1.5, 0),
        ("Cara Cole", 1.5, 0),
        ("Zoë Müller", 1.0, 0),
    ]
    assert tou_text(club).startswith("*N07.03.2015 Club Night\r\n")
    assert tou_text(club).split("\r\n")[3] == "Zoe Muller           2420  +2  300   3  390  +4"


@pytest.mark.parametrize(
    "change, message",
    [
        (
            {5: b"Cara Cole            1400   4 2450"},
            "line 6: Cara Cole: the games are not score and opponent pairs",
        ),
        (
            # Round 3 a ring: Zoe names Bob, Bob Cara, Cara Dan, Dan Zoe.
            {
                3: b"Zo\xeb M\xfcller           2420  +2  300   3  390  +2",
                5: b"Cara Cole            1400   4 2450  +1  340   4",
            },
            "line 4: in round 3, Zoë Müller (line 4) names player 2, Bob Bell (line 5) names "
            "player 3, Cara Cole (line 6) names player 4, Dan Dunn (line 7) names player 1: "
            "these players pair off in two ways, each game named by one of its lines; which "
            "games were played cannot be told",
        ),
        ({4: b"Bob Bell\t 380   1 2001   2 2350  +9"}, "line 5: Bob Bell: opponent 9 is not"),
        (
            {4: b"Bob Bell\t 380   1 20\xb21   2 2350  +3"},
            "line 5: Bob Bell: '20²1' is not a score",
        ),
        ({0: b"*M7 March 2015 Club Night"}, "line 1: '7' is not a date"),
        ({1: b"*"}, "line 2: a section line (*NAME) has no name"),
    ],
)
def test_a_line_that_cannot_be_read_is_named_and_nothing_is_imported(
    db: None, tmp_path: Path, change: dict[int, bytes], message: str
) -> None:
    lines = list(LINES)
    for index, text in change.items():
        lines[index] = text
    path = tmp_path / "bad.tou"
    path.write_bytes(event_bytes(lines))
    with pytest.raises(CommandError) as error:
        call_command("importtou", str(path), slug="bad", stdout=StringIO())
    assert str(error.value).startswith("bad.tou: ")
    assert message in str(error.value)
    assert "\n" not in str(error.value)
    assert not Tournament.objects.exists()


def test_importtou_keeps_wespas_printed_ratings_and_the_pages_show_them(
    db: None, tmp_path: Path, client: Client
) -> None:
    (tmp_path / "club.tou").write_bytes(event_bytes())
    (tmp_path / "club.txt").write_text(
        "Results and ratings: 07.03.2015 Club Night\n\nA\n\n       3 games\n"
        "       W     M                           Old  Chg  New\n"
        "  1    2   -30  OS Bob Bell             1500  +12 1512\n"
        "  2    1   -10&GBR Cara Cole           (1100)     1130\n"
        "  3    1   110*SWE Dan Dunn                      ( 900)\n",
        encoding="latin-1",
    )
    out = StringIO()
    call_command(
        "importtou",
        str(tmp_path / "club.tou"),
        slug="club",
        name="Club Night 2015",
        printout=str(tmp_path / "club.txt"),
        stdout=out,
    )
    assert "no rating printed for Zoë Müller (line 4)" in out.getvalue()
    assert "Imported Club Night 2015 as club: A (4 players)" in out.getvalue()
    division = Division.objects.get(tournament__slug="club")
    bob, cara, dan = (division.players.get(name=n) for n in ("Bob Bell", "Cara Cole", "Dan Dunn"))
    assert (bob.rating, bob.wespa) == (
        1500,
        {"old": "1500", "change": "+12", "new": "1512", "mark": "", "country": "OS"},
    )
    assert (cara.wespa["old"], cara.wespa["new"], cara.wespa["mark"]) == ("(1100)", "1130", "&")
    assert (dan.rating, dan.wespa["old"], dan.wespa["new"], dan.wespa["mark"]) == (
        0,
        "",
        "(900)",
        "*",
    )
    page = client.get("/t/club/A/ratings/").content.decode()
    assert "WESPA&#x27;s ratings" in page or "WESPA's ratings" in page
    assert "(1100)" in page and "1512" in page
    page = client.get(f"/t/club/A/player/{bob.number}/").content.decode()
    assert "1500 +12 → 1512" in page


def test_an_imported_event_has_pages_reports_tsh_files_and_pairs_more_rounds(
    club: Tournament, client: Client, tmp_path: Path
) -> None:
    assert client.get("/t/club/").status_code == 200
    for url in ("/t/club/A/", "/t/club/A/crosstable/", "/t/club/A/round/2/"):
        response = client.get(url)
        assert response.status_code == 200, url
        assert "Dan Dunn" in response.content.decode(), url
    call_command(
        "report",
        "club",
        "standings",
        division="A",
        format="pdf",
        output=str(tmp_path / "s.pdf"),
        stdout=StringIO(),
    )
    assert (tmp_path / "s.pdf").read_bytes().startswith(b"%PDF")
    call_command("exporttsh", "club", output=str(tmp_path / "tsh"), stdout=StringIO())
    assert (tmp_path / "tsh" / "a.t").read_text().splitlines()[1].startswith("Bob Bell")
    division = club.divisions.get()
    division.planned_rounds = 4
    division.max_repeats = 1  # four players have all met after three rounds
    division.save()
    out = StringIO()
    call_command("pair", "club", division="A", round_number=4, dry_run=True, json=True, stdout=out)
    pairs = json.loads(out.getvalue())
    seated = sorted(p[k] for p in pairs for k in ("first", "second") if p[k])
    assert seated == ["Bob Bell", "Cara Cole", "Dan Dunn", "Zoë Müller"]


def test_result_digits_that_disagree_with_the_scores_count_as_wespa_counts_them(
    db: None, tmp_path: Path
) -> None:
    # Round 3: Bob 2350 and Cara 2340 both claim the win; 2xxx is a win whatever the scores.
    lines = list(LINES)
    lines[5] = b"Cara Cole            1400   4 2450  +1 2340   2"
    path = tmp_path / "digits.tou"
    path.write_bytes(event_bytes(lines))
    imported = import_tou(path, slug="digits")
    assert any("the result digits do not agree" in n for n in imported.notes)
    rows = {
        r.name: r
        for r in read_model.division_standings(
            imported.tournament.divisions.get(),
            stamps=read_stamps(imported.tournament.divisions.get()),
        )
    }
    assert (rows["Bob Bell"].wins, rows["Bob Bell"].spread) == (2.0, 70)
    assert (rows["Cara Cole"].wins, rows["Cara Cole"].losses, rows["Cara Cole"].spread) == (
        2.5,
        0.5,
        140,
    )
    assert tou_text(imported.tournament).split("\r\n")[5].endswith("2340   2")


def test_wespa_drops_a_game_scored_0_whatever_opponent_it_names() -> None:
    # Round 1: Ann beats Cy 400-350; Bo scores 0 against Di, who has a bye (2100 against her
    # own number) and does not name Bo back. Round 2: Bo beats Ann 410-380; Cy beats Di.
    text = "\r\n".join(
        [
            "*M07.03.2015 Club Night",
            "*A",
            "                                      0",
            f"{'Ann':20} 2400   3  380   2",
            f"{'Bo':20}    0   4 2410   1",
            f"{'Cy':20}  350   1 2390   4",
            f"{'Di':20} 2100   4  370   3",
            "*** END OF FILE ***",
        ]
    )
    (section,) = tou.read(text).sections
    figures = wespa.flawed_figures(section)
    # Bo's 0 is dropped from his list (not counted as a lost game against Di), so his round-2
    # score sits first and is set against Ann's first score, her round 1: 410 - 400.
    assert figures[1] == wespa.Figures(1.0, 10, 1)
    # Ann's second game reads past the end of Bo's one-game list: her 380 less a score of
    # 0-999 left from an earlier event.
    assert figures[0] == wespa.Figures(1.0, None, 2)
    assert (figures[0].known, figures[0].unread) == (400 - 350 + 380, 1)
    assert figures[0].could_print(430 - 410) and figures[0].could_print(430 - 999)
    assert not figures[0].could_print(431) and not figures[0].could_print(430 - 1000)
    assert figures[2] == wespa.Figures(1.0, (350 - 400) + (390 - 370), 2)


def _importtou_says(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *argv: str
) -> tuple[int, str, str]:
    """`manage.py importtou …` as typed at a shell: its exit status, stdout and stderr."""
    from django.core.management import execute_from_command_line
    from django.db import connections

    # A command run from the command line closes every connection when it ends; the test's
    # own (a transaction on PostgreSQL) must stay open.
    monkeypatch.setattr(connections, "close_all", lambda: None)
    try:
        execute_from_command_line(["manage.py", "importtou", *argv])
        status = 0
    except SystemExit as exit:
        status = int(exit.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize(
    "index, text",
    [
        (3, b"Zo\xeb M\x00ller           2420  +2  300   3  390  +4"),  # in a player's name
        (0, b"*M07.03.2015 Club\x00Night"),  # in the event's line
        (1, b"*A\x00"),  # in a section's name
        (2, b"\x00"),  # alone on the high word's line
        (7, b"*** END OF FILE ***\x00"),  # even on the last line
    ],
)
def test_importtou_refuses_a_file_holding_a_nul_byte_in_one_line_and_imports_nothing(
    db: None,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    index: int,
    text: bytes,
) -> None:
    lines = list(LINES)
    lines[index] = text
    path = tmp_path / "club.tou"
    path.write_bytes(event_bytes(lines))

    said = _importtou_says(capsys, monkeypatch, str(path), "--slug", "club")

    message = f"CommandError: club.tou: line {index + 1}: a NUL byte (\\0): not a text file\n"
    assert said == (1, "", message)
    assert not Tournament.objects.exists()


def test_importtou_refuses_a_printout_holding_a_nul_byte_in_one_line(
    db: None, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "club.tou").write_bytes(event_bytes())
    (tmp_path / "club.txt").write_bytes(
        b"Results and ratings: 07.03.2015 Club Night\n\nA\n\n"
        b"  1    2   -30  OS Bob B\x00ll             1500  +12 1512\n"
    )

    tou_file, printout = str(tmp_path / "club.tou"), str(tmp_path / "club.txt")
    said = _importtou_says(capsys, monkeypatch, tou_file, "--slug", "club", "--printout", printout)

    assert said == (1, "", "CommandError: club.txt: line 5: a NUL byte (\\0): not a text file\n")
    assert not Tournament.objects.exists()
