"""The game viewer: the board at any turn of a scoresheet, drawn from its stored report, equal
tile by tile to the engine's board (`python -m scoring show FILE --turn N`); its record as
GCG; the high plays page; the demo's scoresheets on the players' pages."""

from __future__ import annotations

import html
import io
import re
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db.models import Q
from django.test import Client
from django.urls import reverse
from scoring_support import corpus_game

import scoring
from scoring.__main__ import main as scoring_main
from tournament.models import Division, Game, Player, Round, Scoresheet, Tournament
from tournament.scoresheets import services as scoresheets

DOUG_V_EMELY = "macondo/gcgio__testdata__doug_v_emely.gcg"  # blanks: RE.IgION, .aFS
POLISH = "macondo/gcgio__testdata__polish_endgame.gcg"  # Polish letters, blanks, a phony taken back

_TILE = re.compile(
    r'<g class="tile( blank)?( last)?" data-square="([A-Z])(\d+)" data-tile="([^"]*)">'
    r'.*?<text class="letter[^"]*"[^>]*>([^<]*)</text>'
)
_TEXT_BOARD = re.compile(r'<pre class="board" id="viewer-text">(.*?)</pre>', re.S)


def svg_tiles(page: str) -> dict[tuple[int, int], str]:
    """The tiles the page's SVG draws, as the engine writes them (a blank in lower case), after
    checking each tile's letter text and blank mark against its data-tile."""
    tiles = {}
    for blank, _last, col, row, tile, letter in _TILE.findall(page):
        tile, letter = html.unescape(tile), html.unescape(letter)
        assert letter == tile.upper()
        assert bool(blank) == tile.islower()
        tiles[(int(row) - 1, ord(col) - ord("A"))] = tile
    return tiles


def last_play(page: str) -> set[str]:
    return {f"{col}{row}" for _b, last, col, row, _t, _l in _TILE.findall(page) if last}


def engine_tiles(board: scoring.Board) -> dict[tuple[int, int], str]:
    return {
        (r, c): board.at(r, c)
        for r in range(board.size)
        for c in range(board.size)
        if board.at(r, c) is not None
    }


def shown_board(path: Path, turn: int, division: Division) -> str:
    """What `python -m scoring show FILE --turn N` prints for the board (its first 16 lines)."""
    out = io.StringIO()
    argv = ["show", str(path), "--turn", str(turn), "--rules", division.ruleset]
    assert scoring_main([*argv, "--tiles", division.tile_set], out=out) == 0
    return "\n".join(out.getvalue().splitlines()[:16])


def page_of(client: Client, sheet: Scoresheet, turn: int | None = None) -> str:
    sheet.refresh_from_db()
    if sheet.held:  # error findings, or finals not the result: published anyway, to be viewed
        scoresheets.release_scoresheet(sheet, None)
    url = reverse("scoresheet", args=[sheet.game.division.tournament.slug, sheet.pk])
    response = client.get(url, {"turn": turn} if turn is not None else {})
    assert response.status_code == 200
    return response.content.decode()


@pytest.fixture
def director(db: None) -> User:
    return User.objects.create_user("dora")


def one_game(director: User, data: bytes, tile_set: str = "english", ruleset: str = "naspa"):
    tournament = Tournament.objects.create(name="Viewer Open", slug="viewer", public=True)
    tournament.directors.add(director)
    division = Division.objects.create(
        tournament=tournament, name="A", ruleset=ruleset, tile_set=tile_set
    )
    one = Player.objects.create(division=division, number=1, name="One")
    two = Player.objects.create(division=division, number=2, name="Two")
    game = Game.objects.create(division=division, round=1, table=1, player1=one, player2=two)
    return scoresheets.attach_scoresheet(game, data, director, "game.gcg")


def check_turns(client: Client, sheet: Scoresheet, turns: list[int], tmp_path: Path) -> None:
    division = sheet.game.division
    path = tmp_path / "record.gcg"
    path.write_text(sheet.gcg, encoding="utf-8")
    for turn in turns:
        page = page_of(client, sheet, turn)
        report = scoring.verify(
            sheet.gcg, rules=division.ruleset, tiles=division.tile_set, upto=turn
        )
        assert svg_tiles(page) == engine_tiles(report.board), f"turn {turn}"
        text = html.unescape(_TEXT_BOARD.search(page).group(1))
        assert text == shown_board(path, turn, division), f"turn {turn}"


@pytest.mark.django_db
def test_the_demo_games_boards_equal_the_engine_s_at_every_turn(
    client: Client, tmp_path: Path
) -> None:
    call_command("loaddemo", stdout=io.StringIO())
    sheets = list(Scoresheet.objects.filter(game__division__name="A").order_by("pk"))
    assert len(sheets) == 3
    for sheet in sheets:
        last = len(sheet.engine_report.turns)
        check_turns(client, sheet, list(range(0, last + 1)), tmp_path)


@pytest.mark.django_db
def test_a_real_game_with_blanks_draws_the_engine_s_board_and_marks_the_blanks(
    client: Client, director: User, tmp_path: Path
) -> None:
    sheet = one_game(director, corpus_game(DOUG_V_EMELY))
    check_turns(client, sheet, [0, 1, 5, 13, 20, 25, 27, 28, 40], tmp_path)

    # Line 20, doug's RE.IgION at K5 (the 18th event): the blank G at K9 is marked as one, and
    # the play is highlighted: its seven tiles, not the D it plays through.
    page = page_of(client, sheet, 18)
    assert svg_tiles(page)[(8, 10)] == "g"
    assert last_play(page) == {"K5", "K6", "K8", "K9", "K10", "K11", "K12"}
    assert (
        'after line 20: <bdi dir="ltr" class="ltr">&gt;<bdi>doug</bdi>: ?EIINOR K5 RE.IgION'
        " +78 335</bdi>" in page
    )
    # Tile tracking: before emely's last play (?FS, line 29) the bag is empty and all she
    # cannot see is doug's rack, EGOP.
    assert '<dd class="mono unseen" id="viewer-unseen">E G O P</dd>' in page_of(client, sheet, 26)


@pytest.mark.django_db
def test_a_polish_game_renders_its_letters_and_takes_a_withdrawn_phony_off(
    client: Client, director: User, tmp_path: Path
) -> None:
    sheet = one_game(director, corpus_game(POLISH), tile_set="polish", ruleset="auto")
    # 1: HUJA on the board; 2: withdrawn; 3: STĘPIĆ.
    check_turns(client, sheet, [0, 1, 2, 3, 10, 18, 30, 53], tmp_path)
    assert set(svg_tiles(page_of(client, sheet, 1)).values()) == {"H", "U", "J", "A"}
    assert svg_tiles(page_of(client, sheet, 2)) == {}
    after = svg_tiles(page_of(client, sheet, 3))
    assert "".join(after[(7, c)] for c in range(6, 12)) == "STĘPIĆ"
    final = page_of(client, sheet)
    assert ">Ż</text>" in final and ">Ą</text>" in final and ">Ź</text>" in final
    # Ł is worth 3 in the Polish set, and the value is drawn with it.
    assert re.search(r'data-tile="Ł">.*?<text class="value"[^>]*>3</text>', final)


SPANISH = """#character-encoding UTF-8
#tile-distribution spanish
#player1 ana Ana
#player2 beto Beto
>ana: CHAORRL 8G CHORRO +{s1} {s1}
"""


@pytest.mark.django_db
def test_a_spanish_game_draws_each_digraph_as_one_tile(client: Client, director: User) -> None:
    # The engine's own score for the line, so that the record checks clean.
    score = scoring.verify(SPANISH.format(s1=0), rules="auto", tiles="spanish").turns[0]
    text = SPANISH.format(s1=score.computed_score)
    sheet = one_game(director, text.encode(), tile_set="spanish", ruleset="auto")
    page = page_of(client, sheet, 1)
    assert svg_tiles(page) == {(7, 6): "CH", (7, 7): "O", (7, 8): "RR", (7, 9): "O"}
    assert '<text class="letter multi"' in page


@pytest.mark.django_db
def test_a_turn_is_a_plain_number_and_one_past_the_end_shows_the_last_board(
    client: Client, director: User
) -> None:
    sheet = one_game(director, corpus_game(DOUG_V_EMELY))
    url = reverse("scoresheet", args=["viewer", sheet.pk])
    assert client.get(url, {"turn": "x"}).status_code == 404
    assert client.get(url, {"turn": "²"}).status_code == 404
    assert svg_tiles(page_of(client, sheet, 999)) == svg_tiles(page_of(client, sheet))
    # Without JavaScript every control is a link: forward from turn 3 goes to turn 4.
    page = page_of(client, sheet, 3)
    assert 'data-go="forward" href="?turn=4"' in page
    assert 'data-go="back" href="?turn=2"' in page


# -- the record as GCG ---------------------------------------------------------------------------


@pytest.mark.django_db
def test_record_gcg_downloads_the_record_as_stored_only_once_its_round_is_published(
    client: Client, director: User
) -> None:
    sheet = one_game(director, corpus_game(DOUG_V_EMELY))
    url = reverse("public-gcg", args=["viewer", sheet.pk])

    response = client.get(url)
    assert response.status_code == 200
    assert response.content.decode() == sheet.gcg
    name = f"viewer-round1-game{sheet.game.pk}.gcg"
    assert response["Content-Disposition"] == f'attachment; filename="{name}"'
    assert f'href="/t/viewer/scoresheet/{sheet.pk}/record.gcg"' in page_of(client, sheet)

    Round.objects.create(division=sheet.game.division, number=1, published=False)
    assert client.get(url).status_code == 404
    desk = reverse("desk-gcg", args=["viewer", sheet.pk])
    assert client.get(desk).status_code == 302  # to the login page
    client.force_login(User.objects.create_user("stranger"))
    assert client.get(desk).status_code == 403
    client.force_login(director)
    response = client.get(desk)
    assert response.status_code == 200 and response.content.decode() == sheet.gcg
    assert (
        desk in client.get(reverse("desk-scoresheet", args=["viewer", sheet.pk])).content.decode()
    )


# -- around the viewer ---------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_high_plays_page_lists_plays_and_bingos_of_published_rounds_linked_to_their_turn(
    client: Client, director: User
) -> None:
    sheet = one_game(director, corpus_game(DOUG_V_EMELY))
    url = reverse("high-plays", args=["viewer"])
    page = client.get(url).content.decode()
    plays = re.findall(
        r'<td class="num">(\d+)</td>\s*<td class="gcg"><a href="([^"]+)">([^<]+)</a>', page
    )
    base = f"/t/viewer/scoresheet/{sheet.pk}/?turn="
    assert plays[:3] == [
        ("82", f"{base}5", "10B DONATES"),
        ("78", f"{base}18", "K5 RE.IgION"),
        ("51", f"{base}13", "11E SAT"),
    ]
    assert [int(p[0]) for p in plays[:20]] == sorted((int(p[0]) for p in plays[:20]), reverse=True)
    # The bingos: the plays that used all seven tiles, highest first.
    bingos = page.split("<h3>Bingos</h3>")[1]
    report = sheet.engine_report
    expected = sorted((t.computed_score for t in report.turns if len(t.placed) == 7), reverse=True)
    assert (
        expected and [int(s) for s in re.findall(r'<td class="num">(\d+)</td>', bingos)] == expected
    )

    Round.objects.create(division=sheet.game.division, number=1, published=False)
    page = client.get(url).content.decode()
    assert "RE.IgION" not in page and "No bingo in the scoresheets yet." in page


@pytest.mark.django_db
def test_the_demo_players_pages_link_each_game_with_a_scoresheet_to_its_viewer(
    client: Client,
) -> None:
    call_command("loaddemo", stdout=io.StringIO())
    ada = reverse("player", args=["demo", "A", 1])
    page = client.get(ada).content.decode()
    sheets = Scoresheet.objects.filter(
        Q(game__player1__name="Ada Quill") | Q(game__player2__name="Ada Quill"),
        game__division__name="A",
    )
    assert sheets.count() == 2
    for sheet in sheets:
        viewer = reverse("scoresheet", args=["demo", sheet.pk])
        if sheet.held:  # the sheet with a wrong addition waits for the director
            assert f'href="{viewer}"' not in page
            assert client.get(viewer).status_code == 404
        else:
            assert f'href="{viewer}"' in page
            assert client.get(viewer).status_code == 200
    assert [s.held for s in sheets.order_by("game__round")] == [False, True]
