"""Downloads: every report for the tournament's directors at the desk, the pairings and the
standings for anyone, never a round not yet published; a wrong round is a 404, never a 500."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from scoring_support import game_record

from tests.tournament.reports.report_support import lines_of_arabic, pdf_lines, pdf_text
from tournament.models import Division, Game, Player, Round, Scoresheet, Tournament


def _client(user: User | None = None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _desk(division: Division, kind: str, fmt: str) -> str:
    return reverse("desk-report", args=[division.tournament.slug, division.pk, kind, fmt])


def _public(division: Division, kind: str, fmt: str) -> str:
    return reverse("public-report", args=[division.tournament.slug, division.name, kind, fmt])


@pytest.mark.parametrize(
    "kind, fmt",
    [
        ("pairings", "pdf"),
        ("standings", "xlsx"),
        ("scorecards", "pdf"),
        ("crosstable", "pdf"),
        ("ratings", "xlsx"),
        ("prizes", "pdf"),
        ("results", "xlsx"),
    ],
)
def test_a_director_downloads_every_report(
    mgi_directed: Division, director: User, kind: str, fmt: str
) -> None:
    response = _client(director).get(
        _desk(mgi_directed, kind, fmt), {"round": 3, "paper": "letter"}
    )
    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="mgi-a-{kind}-r3.{fmt}"'


def test_the_desk_reports_are_for_the_tournaments_directors_only(
    mgi_directed: Division, stranger: User
) -> None:
    assert _client(stranger).get(_desk(mgi_directed, "standings", "pdf")).status_code == 403
    response = _client().get(_desk(mgi_directed, "standings", "pdf"))
    assert response.status_code == 302  # to the login page


@pytest.mark.parametrize("query", [{"round": 13}, {"round": "x"}, {"paper": "a3"}])
def test_a_report_that_cannot_be_made_is_a_404(
    mgi_directed: Division, director: User, query: dict
) -> None:
    assert _client(director).get(_desk(mgi_directed, "standings", "pdf"), query).status_code == 404


@pytest.mark.parametrize(
    "kind, fmt", [("bogus", "pdf"), ("scorecards", "xlsx"), ("standings", "doc")]
)
def test_an_unknown_report_or_format_is_a_404(
    mgi_directed: Division, director: User, kind: str, fmt: str
) -> None:
    assert _client(director).get(_desk(mgi_directed, kind, fmt)).status_code == 404


def test_anyone_downloads_the_pairings_and_standings(mgi: Division) -> None:
    client = _client()
    response = client.get(_public(mgi, "standings", "pdf"))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert "Wellington, Jighere" in pdf_text(response.content)
    assert client.get(_public(mgi, "pairings", "xlsx"), {"round": 2}).status_code == 200


def test_the_public_pages_link_to_their_downloads(mgi: Division) -> None:
    page = _client().get(reverse("standings", args=["mgi", "A"])).content.decode()
    assert _public(mgi, "standings", "pdf") + "?round=12" in page
    page = _client().get(reverse("pairings", args=["mgi", "A", 2])).content.decode()
    assert _public(mgi, "pairings", "xlsx") + "?round=2" in page


def test_the_other_reports_are_not_public(mgi: Division) -> None:
    for kind in ("scorecards", "crosstable", "ratings", "prizes"):
        assert _client().get(_public(mgi, kind, "pdf")).status_code == 404


def test_a_round_not_yet_published_is_printed_at_the_desk_only(
    mgi_directed: Division, director: User
) -> None:
    players = list(mgi_directed.players.order_by("number")[:2])
    Game.objects.create(
        division=mgi_directed, round=13, table=1, player1=players[0], player2=players[1], first=1
    )
    Round.objects.create(division=mgi_directed, number=13, published=False)
    assert _client().get(_public(mgi_directed, "pairings", "pdf"), {"round": 13}).status_code == 404
    # The public's latest round is still 12.
    latest = _client().get(_public(mgi_directed, "pairings", "pdf"))
    assert "Pairings, round 12" in pdf_text(latest.content)
    desk = _client(director).get(_desk(mgi_directed, "pairings", "pdf"), {"round": 13})
    assert desk.status_code == 200
    assert "Karo, Eta" in pdf_text(desk.content)


def test_a_private_tournaments_reports_are_not_public(mgi: Division) -> None:
    mgi.tournament.public = False
    mgi.tournament.save()
    assert _client().get(_public(mgi, "standings", "pdf")).status_code == 404


def test_the_desk_gives_the_tou_file(mgi_directed: Division, director: User) -> None:
    response = _client(director).get(reverse("desk-tou", args=["mgi"]))
    assert response.status_code == 200
    lines = response.content.decode("ascii").split("\r\n")
    assert lines[1] == "*A" and lines[3].startswith("Karo, Eta           ")


# The desk's game with Ben's WITHY written as 34 (it scores 33), his totals one more after it.
GAME = game_record().replace("33", "34").replace("-9 24", "-9 25")


def test_a_game_record_shows_the_board_the_moves_and_the_engines_findings(
    mgi_directed: Division, director: User
) -> None:
    ada = Player.objects.create(division=mgi_directed, number=61, name="Ada Quill")
    ben = Player.objects.create(division=mgi_directed, number=62, name="Ben Crane")
    game = Game.objects.create(
        division=mgi_directed, round=1, table=31, player1=ada, player2=ben, score1=20, score2=25
    )
    sheet = Scoresheet.objects.create(game=game, gcg=GAME)
    url = reverse("desk-game-record", args=["mgi", sheet.pk])
    text = " ".join(pdf_text(_client(director).get(url).content).split())
    assert "The board after the last move" in text
    assert "1 Ada DJINNRS 8D DJINN +30 +30 30" in text
    assert "2 Ben ABHITWY I7 WITHY +34 +33 34 error: WITHY at I7 scores 33, not 34" in text
    for letter in "DJINWTHY":
        assert f" {letter} " in f" {text} "
    after_one = _client(director).get(url, {"move": 1})
    assert "The board after move 1" in pdf_text(after_one.content)
    assert _client(director).get(url, {"move": 99}).status_code == 404


def test_a_game_record_is_public_once_its_round_is(mgi_directed: Division) -> None:
    ada = Player.objects.create(division=mgi_directed, number=61, name="Ada Quill")
    ben = Player.objects.create(division=mgi_directed, number=62, name="Ben Crane")
    game = Game.objects.create(
        division=mgi_directed, round=13, table=31, player1=ada, player2=ben, score1=20, score2=25
    )
    # Its error finding would hold it from the public: the director published it anyway.
    sheet = Scoresheet.objects.create(game=game, gcg=GAME, released=True)
    state = Round.objects.create(division=mgi_directed, number=13, published=False)
    record = reverse("public-game-record", args=["mgi", sheet.pk])
    page = reverse("scoresheet", args=["mgi", sheet.pk])
    assert _client().get(record).status_code == 404
    assert _client().get(page).status_code == 404
    state.published = True
    state.save()
    assert record in _client().get(page).content.decode()
    text = " ".join(pdf_text(_client().get(record).content).split())
    assert "2 Ben ABHITWY I7 WITHY +34 +33 34 error: WITHY at I7 scores 33, not 34" in text


def test_the_prizes_of_a_division_with_none_set_are_a_page_that_says_so(
    small: Tournament, director: User
) -> None:
    small.directors.add(director)
    division = Division.objects.create(tournament=small, name="B")
    Player.objects.create(division=division, number=1, name="Ada Quill")

    response = _client(director).get(_desk(division, "prizes", "pdf"))

    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == 'attachment; filename="spring-open-b-prizes.pdf"'
    assert [line for line in pdf_lines(response.content) if line] == [
        "Spring Open",
        "Division B · Prizes",
        "Division B has no prizes set.",
        "Spread Page 1 of 1",
    ]
    persian = _client(director).get(_desk(division, "prizes", "pdf"), {"lang": "fa"})
    assert persian.status_code == 200
    # "گروه B · جایزه‌ها" (Division B · Prizes) in the header, read from the right
    assert "گروهجایزهها" in lines_of_arabic(persian.content)
