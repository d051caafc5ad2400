"""The players' slips (their personal link as a QR code), the QR code on the scorecards, and the
wall sheet (a round's pairings by name in large print)."""

from __future__ import annotations

import io
import re

import pypdf
import pytest
import segno
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tests.tournament.reports.report_support import glyphs, layout_problems, pdf_lines
from tournament import reports
from tournament.core import tokens
from tournament.models import Division, Game, Player, PlayerLink, Round, Tournament
from tournament.phone import services as phone

BASE = "https://hall.example.org"
NAMES = ["Quill, Ada", "Crane, Ben", "Vale, Cora", "Moss, Eli", "North, Fay"]


@pytest.fixture
def division(db: None) -> Division:
    tournament = Tournament.objects.create(name="Spring Open", slug="spring-open")
    division = Division.objects.create(tournament=tournament, name="A")
    players = [
        Player.objects.create(division=division, number=n, name=name)
        for n, name in enumerate(NAMES, start=1)
    ]
    ada, ben, cora, eli, fay = players
    Game.objects.create(division=division, round=1, table=2, player1=ada, player2=ben, first=2)
    Game.objects.create(division=division, round=1, table=1, player1=cora, player2=eli, first=1)
    Game.objects.create(division=division, round=1, player1=fay, kind=Game.BYE)
    Round.objects.create(division=division, number=1, published=True)
    return division


def _link(player: Player, base: str = BASE) -> str:
    token = tokens.unseal(PlayerLink.objects.get(player=player, revoked=None).token_sealed)
    return base + reverse("phone", args=[token])


def qr_codes(content: bytes) -> list[list[list[int]]]:
    """Every QR code drawn in the PDF, read back from its content streams as a matrix of
    modules: each code is a path of 1-module-high rectangles in the code's own units."""
    codes = []
    for page in pypdf.PdfReader(io.BytesIO(content)).pages:
        stream = page.get_contents().get_data().decode("latin-1")
        for block in re.findall(
            r"cm\n0 0 0 rg\nn ((?:[\d.]+ [\d.]+ [\d.]+ 1 re ?)+)\nf\*?", stream
        ):
            runs = [tuple(int(float(v)) for v in r.split()) for r in block.split(" re")[:-1]]
            size = max(row for _, row, _, _ in runs) + 1
            matrix = [[0] * size for _ in range(size)]
            for col, row, wide, _ in runs:
                for c in range(col, col + wide):
                    matrix[row][c] = 1
            codes.append(matrix)
    return codes


def _matrix(url: str) -> list[list[int]]:
    return [list(row) for row in segno.make(url, error="m", micro=False).matrix]


def test_each_player_has_one_slip_whose_qr_code_is_their_own_link(division: Division) -> None:
    made = reports.make(division, "slips", base=BASE + "/")

    players = list(division.players.order_by("number"))
    links = [_link(p) for p in players]
    assert qr_codes(made.content) == [_matrix(url) for url in links]
    assert len(set(links)) == 5 and all(re.fullmatch(BASE + r"/p/[\w-]{32}/", u) for u in links)
    lines = pdf_lines(made.content)
    for player, url in zip(players, links, strict=True):
        assert sum(url in line for line in lines) == 1
        assert sum(player.name in line for line in lines) == 1
        assert f"Player {player.number}" in " ".join(lines)
    assert made.filename == "spring-open-a-slips.pdf"


def test_slips_keep_a_players_live_link_and_follow_a_new_one(division: Division) -> None:
    ada = division.players.get(number=1)
    token = phone.issue_link(ada)

    first = reports.make(division, "slips", base=BASE).content
    assert qr_codes(first)[0] == _matrix(f"{BASE}/p/{token}/")
    again = phone.issue_link(ada)
    second = reports.make(division, "slips", base=BASE).content

    assert qr_codes(second)[0] == _matrix(f"{BASE}/p/{again}/")
    assert qr_codes(second)[1:] == qr_codes(first)[1:]


def test_slips_need_the_sites_address(division: Division) -> None:
    with pytest.raises(reports.ReportError, match="slips need the address the players open"):
        reports.make(division, "slips")


def test_the_scorecards_carry_each_players_link_as_a_qr_code(division: Division) -> None:
    made = reports.make(division, "scorecards", base=BASE)

    players = list(division.players.order_by("number"))
    assert qr_codes(made.content) == [_matrix(_link(p)) for p in players]
    assert qr_codes(reports.make(division, "scorecards").content) == []


def test_the_desk_prints_slips_under_its_own_address(division: Division) -> None:
    director = User.objects.create_user("alice")
    division.tournament.directors.add(director)
    client = Client()
    client.force_login(director)

    response = client.get(
        reverse("desk-report", args=["spring-open", division.pk, "slips", "pdf"]),
        secure=True,
    )

    assert response.status_code == 200
    ada = division.players.get(number=1)
    assert qr_codes(response.content)[0] == _matrix(_link(ada, "https://testserver"))
    public = reverse("public-report", args=["spring-open", "A", "slips", "pdf"])
    division.tournament.public = True
    division.tournament.save()
    assert Client().get(public).status_code == 404


def test_the_wall_sheet_lists_every_player_by_name_with_table_opponent_and_turn(
    division: Division,
) -> None:
    made = reports.make(division, "wall")

    lines = pdf_lines(made.content)
    assert "Round 1: find your table" in lines
    rows = [line for line in lines if re.match(r"^[A-Z][a-z]+, [A-Z][a-z]+ \(\d\)", line)]
    assert rows == [
        "Crane, Ben (2) 2 Quill, Ada (1) first",
        "Moss, Eli (4) 1 Vale, Cora (3) second",
        "North, Fay (5) Bye",
        "Quill, Ada (1) 2 Crane, Ben (2) second",
        "Vale, Cora (3) 1 Moss, Eli (4) first",
    ]
    assert made.filename == "spring-open-a-wall-r1.pdf"


def test_the_wall_sheet_is_large_print_and_fits_the_page(division: Division) -> None:
    wall = reports.make(division, "wall").content
    pairings = reports.make(division, "pairings").content

    def name_height(content: bytes) -> float:
        found, _ = glyphs(content)
        capital = next(g for g in found if g.char == "Q")  # Quill, Ada
        return round(capital.top - capital.bottom, 1)

    assert name_height(wall) >= 2 * name_height(pairings)
    assert layout_problems(wall, margin=36) == []


def test_the_report_command_prints_slips_under_the_address_given(
    division: Division, tmp_path
) -> None:
    from django.core.management import call_command

    output = tmp_path / "slips.pdf"
    call_command(
        "report", "spring-open", "slips", "--division", "A", "--output", str(output),
        "--base", "https://club.example/",
    )  # fmt: skip

    players = division.players.order_by("number")
    expected = [_matrix(_link(p, "https://club.example")) for p in players]
    assert qr_codes(output.read_bytes()) == expected
