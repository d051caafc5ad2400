"""A certificate's code through the whole stack: a guess costs one row, however well it copies a
printed prefix; an address that guesses is refused; a code printed while its round was
unpublished confirms once the round is; a private event's codes confirm to its directors only."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tournament.models import Division, Game, Player, Tournament
from tournament.pairing import services as pairing
from tournament.reports import prize_views
from tournament.results import services as results
from tournament.standings import prizes
from tournament.standings.stamps import read as read_stamps

PRIZES = [
    {"kind": "rank", "place": 1, "value": "$100"},
    {"kind": "rank", "place": 2, "value": "$50"},
    {"kind": "rank", "place": 3, "value": "$20"},
    {"kind": "highgame", "place": 1, "value": "$10"},
    {"kind": "tuffluck", "place": 1, "value": "a mug", "rounds": 1},
]
# Five players; round 1: 1 has the bye, 3 358-394 5, 2 396-332 4; round 2: 4 has the bye,
# 5 349-480 2, 1 311-321 3 (as the engine paired them from 1500 + 10n ratings).
ROUNDS = [
    [(3, 5, 358, 394), (2, 4, 396, 332), (1, None, 0, 0)],
    [(5, 2, 349, 480), (1, 3, 311, 321), (4, None, 0, 0)],
]


@pytest.fixture
def five(db: None, director: User) -> Division:
    tournament = Tournament.objects.create(name="Yalda Open", slug="yalda-open")
    tournament.directors.add(director)
    division = Division.objects.create(
        tournament=tournament, name="A", prizes=PRIZES, planned_rounds=3
    )
    for n in range(1, 6):
        Player.objects.create(division=division, number=n, name=f"Player {n}", rating=1500 + 10 * n)
    return division


def _pair_and_play(division: Division, director: User, number: int) -> None:
    pairs = [(a, b) for a, b, _, _ in ROUNDS[number - 1]]
    pairing.save_manual(division, number, pairs, director)
    for a, b, score_a, score_b in ROUNDS[number - 1]:
        if b is None:
            continue
        game = division.games.get(round=number, player1__number=a)
        results.record_result(game, score_a, score_b, director)


def _printed_codes(desk: Client, division: Division, kind: str = "certificates") -> list[str]:
    from tests.tournament.reports.report_support import pdf_pages

    url = reverse("desk-report", args=[division.tournament.slug, division.pk, kind, "pdf"])
    pdf = desk.get(url)
    assert pdf.status_code == 200
    codes = []
    for page in pdf_pages(pdf.content):
        codes += [w for w in page.split() if w.startswith(f"{division.pk}-") and w.count("-") == 3]
    return codes


def test_codes_printed_before_their_round_is_published_confirm_after(
    five: Division, director: User, client_for, client: Client
) -> None:
    desk: Client = client_for(director)
    _pair_and_play(five, director, 1)
    assert desk.post(reverse("desk-publish", args=["yalda-open", five.pk, 1])).status_code == 302
    _pair_and_play(five, director, 2)
    # The bye is scored when paired, as publishing it would: the desk counts it already.
    bye = five.games.get(round=2, kind=Game.BYE)
    assert (bye.player1.number, bye.score1) == (4, 50)
    codes = _printed_codes(desk, five)
    names = [
        (c.player.number, c.prize)
        for c in prizes.certificates(five, public=False, stamps=read_stamps(five))
    ]
    assert names == [
        (2, "1st place"),
        (1, "2nd place"),
        (4, "3rd place"),
        (5, "1st high game"),
        (3, "1st Tuff Luck"),
    ]
    assert len(codes) == 5
    assert desk.post(reverse("desk-publish", args=["yalda-open", five.pk, 2])).status_code == 302
    for code in codes:
        page = client.get(f"/certificate/{code}/")
        assert page.status_code == 200, code
    assert (
        '<dt>Figure</dt><dd dir="ltr">1–1 -14</dd>'
        in client.get(f"/certificate/{codes[2]}/").content.decode()
    )
    # The participation certificates too, one a player.
    participation = _printed_codes(desk, five, "participation")
    assert len(participation) == 5
    assert all(client.get(f"/certificate/{c}/").status_code == 200 for c in participation)


def _one_round(division: Division, director: User) -> None:
    _pair_and_play(division, director, 1)
    pairing.publish(division, 1, director)


def test_a_guessed_code_costs_one_query_and_a_good_one_two_once_computed(
    five: Division, director: User, client: Client
) -> None:
    _one_round(five, director)
    good = prizes.certificates(five, public=True, stamps=read_stamps(five))[0].code
    prefix = good.rsplit("-", 1)[0]
    with CaptureQueriesContext(connection) as guessed:
        assert client.get(f"/certificate/{prefix}-aaaaaaaaaa/").status_code == 404
    # One query: the division's row the code names, whatever the division's size.
    assert len(guessed) == 1
    assert "tournament_division" in guessed[0]["sql"]
    # The cheapest public page costs as much: the home page lists the tournaments.
    with CaptureQueriesContext(connection) as home:
        assert client.get("/").status_code == 200
    assert len(guessed) <= len(home)
    # A good code computes the division's certificates once; after that, two rows: the division
    # and its stamp.
    assert client.get(f"/certificate/{good}/").status_code == 200
    with CaptureQueriesContext(connection) as again:
        assert client.get(f"/certificate/{good}/").status_code == 200
    assert len(again) == 2
    # A result entered replaces the stamp: the next look computes them again, and still finds it.
    game = five.games.get(round=1, player1__number=2)
    results.record_result(game, 400, 332, director, reason="typo")
    page = client.get(f"/certificate/{good}/")
    assert page.status_code == 200
    assert '<dt>Figure</dt><dd dir="ltr">1–0 +68</dd>' in page.content.decode()
    # A code for a division that does not exist, or a prize line past the table: one query.
    with CaptureQueriesContext(connection) as missing:
        assert client.get(f"/certificate/99999-1-1-{good[-10:]}/").status_code == 404
        assert client.get(f"/certificate/{five.pk}-1-9-{good[-10:]}/").status_code == 404
    assert len(missing) == 2


def test_an_address_that_guesses_is_refused_before_anything_is_read(
    five: Division, director: User, settings
) -> None:
    _one_round(five, director)
    settings.PROXY_COUNT = 1
    good = prizes.certificates(five, public=True, stamps=read_stamps(five))[0].code
    prefix = good.rsplit("-", 1)[0]
    guesser = Client(HTTP_X_FORWARDED_FOR="203.0.113.7", REMOTE_ADDR="10.0.0.1")
    for n in range(prize_views.CERTIFICATE_MISSES):
        guess = f"{prefix}-aaaaaaaaa{'abcdefghijklmnopqrstuvwxyz'[n]}"
        assert guesser.get(f"/certificate/{guess}/").status_code == 404
    with CaptureQueriesContext(connection) as refused:
        answer = guesser.get(f"/certificate/{good}/")
    assert answer.status_code == 429
    assert len(refused) == 0
    assert (
        '<p class="alert" role="alert">Too many certificate codes that do not exist were asked '
        "from your address: wait 10 minutes and try again.</p>"
    ) in answer.content.decode()
    # Another client behind the same proxy is its own address, and is answered.
    other = Client(HTTP_X_FORWARDED_FOR="198.51.100.2", REMOTE_ADDR="10.0.0.1")
    assert other.get(f"/certificate/{good}/").status_code == 200
    # A good code is not a miss: an address that confirms many is never refused.
    for _ in range(prize_views.CERTIFICATE_MISSES + 1):
        assert other.get(f"/certificate/{good}/").status_code == 200


def test_a_private_events_codes_confirm_to_its_directors_only(
    five: Division, director: User, client_for, client: Client
) -> None:
    _one_round(five, director)
    good = prizes.certificates(five, public=True, stamps=read_stamps(five))[0].code
    assert client.get(f"/certificate/{good}/").status_code == 200
    Tournament.objects.filter(pk=five.tournament_id).update(public=False)
    assert client.get(f"/certificate/{good}/").status_code == 404
    assert client_for(director).get(f"/certificate/{good}/").status_code == 200
    # What the public sees of a public event: its published rounds only. A round paired and
    # played but unpublished changes no certificate the public is shown.
    Tournament.objects.filter(pk=five.tournament_id).update(public=True)
    _pair_and_play(five, director, 2)
    shown = client.get(f"/certificate/{good}/").content.decode()
    assert '<dt>Results</dt><dd>after round <bdi dir="ltr" class="ltr">1</bdi></dd>' in shown
