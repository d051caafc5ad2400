"""A large division's desk reports are built by a thread of their own and kept in the database:
the request answers at once with a page that asks again, then downloads the file, which is the
report as it is made inline; a file built before a change is never served, but built again; a
report that cannot be made says why; a build whose process stopped is taken over, and a build
running is never started twice."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.tournament.reports.report_support import pdf_lines
from tournament import reports
from tournament.models import Division, Game, Player, PreparedReport, Tournament
from tournament.reports import prepared

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Smith, John", "김민준", "احمدی، مریم", "Müller, Łukasz"]
# John Smith's crosstable row: his results, then their scores, a line each.
SMITH = ["1 1 Smith, John 2 0 +160 W 2 W 3", "400-350 410-300"]


def _has_smith(content: bytes) -> bool:
    lines = pdf_lines(content)
    return any(lines[i : i + 2] == SMITH for i in range(len(lines)))


@pytest.fixture
def division(settings) -> Division:
    settings.REPORTS_BUILT_APART_FROM = 4  # this division's four players: built apart
    tournament = Tournament.objects.create(name="Spring Open", slug="spring")
    division = Division.objects.create(tournament=tournament, name="A", planned_rounds=2)
    p = [
        Player.objects.create(division=division, number=n, name=name, rating=1500 + n)
        for n, name in enumerate(NAMES, start=1)
    ]
    for r, pairs in ((1, [(0, 1, 400, 350), (2, 3, 380, 390)]), (2, [(0, 2, 410, 300)])):
        for t, (a, b, s1, s2) in enumerate(pairs, start=1):
            Game.objects.create(
                division=division, round=r, table=t, player1=p[a], player2=p[b], score1=s1,
                score2=s2, first=1,
            )  # fmt: skip
    Game.objects.create(division=division, round=2, table=2, player1=p[1], player2=p[3])
    return division


@pytest.fixture
def desk(division: Division) -> Client:
    director = User.objects.create_user("alice")
    division.tournament.directors.add(director)
    client = Client()
    client.force_login(director)
    return client


def _url(division: Division, kind: str = "crosstable", fmt: str = "pdf") -> str:
    return reverse("desk-report", args=[division.tournament.slug, division.pk, kind, fmt])


def _fetched(desk: Client, url: str, **query) -> bytes:
    """What the waiting page's requests lead to: the file, once built."""
    first = desk.get(url, query)
    assert first.status_code == 202, first.status_code
    prepared.wait()
    ready = desk.get(url, {**query, "wait": "1"})
    assert ready.status_code == 200
    assert b'http-equiv="refresh" content="0;url=' in ready.content
    done = desk.get(url, query)
    assert done.status_code == 200
    assert done["Content-Disposition"].startswith("attachment; ")
    return done.content


def test_the_waiting_page_asks_again_then_the_file_is_the_report_as_made_inline(
    division: Division, desk: Client
) -> None:
    url = _url(division)
    waiting = desk.get(url, {"paper": "letter"})

    assert waiting.status_code == 202
    assert waiting["Cache-Control"] == "no-store"
    page = waiting.content.decode()
    assert "The report is being prepared" in page
    assert f'content="2;url={url}?paper=letter&amp;wait=1"' in page
    prepared.wait()
    ready = desk.get(url, {"paper": "letter", "wait": "1"})
    assert "The report is ready and downloads now." in ready.content.decode()
    assert f'content="0;url={url}?paper=letter"' in ready.content.decode()

    served = desk.get(url, {"paper": "letter"})
    assert served.status_code == 200
    assert served["Content-Disposition"] == 'attachment; filename="spring-a-crosstable-r2.pdf"'
    inline = reports.make(division, "crosstable", "pdf", paper="letter", lang="en")
    assert pdf_lines(served.content) == pdf_lines(inline.content)
    assert _has_smith(served.content)
    assert PreparedReport.objects.get().state == PreparedReport.READY


def test_a_file_built_before_a_change_is_built_again_never_served(
    division: Division, desk: Client
) -> None:
    url = _url(division, "standings")
    before = _fetched(desk, url)
    assert "1 1 Smith, John 2 0 +160 1501 1551 +50" in pdf_lines(before)

    game = Game.objects.get(division=division, round=2, table=1)
    game.score1, game.score2 = 300, 410
    game.save()  # its own transaction: the division's stamps change

    again = desk.get(url)
    assert again.status_code == 202  # the old file is not served
    prepared.wait()
    after = desk.get(url).content
    assert "1 1 Smith, John 2 0 +160 1501 1551 +50" not in pdf_lines(after)
    assert "3 1 Smith, John 1 1 -60 1501 1501 0" in pdf_lines(after)
    assert PreparedReport.objects.count() == 1  # the same report's row, built again


def test_a_report_that_cannot_be_made_says_why(division: Division, desk: Client) -> None:
    url = _url(division)
    assert desk.get(url, {"round": 9}).status_code == 202
    prepared.wait()

    said = desk.get(url, {"round": 9, "wait": "1"})

    assert said.status_code == 404
    assert (
        "This report cannot be made: division A has results up to round 2 only, not round 9."
        in said.content.decode()
    )
    assert desk.get(url, {"round": 9}).status_code == 404  # kept: not built again
    assert desk.get(_url(division, "nonsense")).status_code == 404  # no row for no report
    assert PreparedReport.objects.count() == 1


def test_a_build_that_failed_says_so_and_is_tried_again_on_the_next_request(
    division: Division, desk: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = _url(division)
    make = reports.make

    def broken(*args, **kwargs):
        raise RuntimeError("the disk is full")

    monkeypatch.setattr(reports, "make", broken)
    desk.get(url)
    prepared.wait()

    said = desk.get(url, {"wait": "1"})

    assert said.status_code == 500
    assert "The report could not be made: an error on the server, written to its log." in (
        said.content.decode()
    )
    monkeypatch.setattr(reports, "make", make)
    assert _has_smith(_fetched(desk, url))


def test_a_build_whose_process_stopped_is_taken_over_and_a_live_one_is_not(
    division: Division, desk: Client
) -> None:
    url = _url(division)
    desk.get(url)
    prepared.wait()
    row = PreparedReport.objects.get()
    # A build that was running in a worker since restarted: its beat stopped a minute ago.
    old = timezone.now() - timedelta(seconds=60)
    PreparedReport.objects.filter(pk=row.pk).update(
        state=PreparedReport.BUILDING, owner="gone", beat=old, content=None
    )
    assert desk.get(url).status_code == 202
    prepared.wait()
    row.refresh_from_db()
    assert (row.state, row.owner != "gone") == (PreparedReport.READY, True)

    # One beating now, in another process: waited for, never started again.
    PreparedReport.objects.filter(pk=row.pk).update(
        state=PreparedReport.BUILDING, owner="elsewhere", beat=timezone.now(), content=None
    )
    assert desk.get(url).status_code == 202
    prepared.wait()
    row.refresh_from_db()
    assert (row.state, row.owner) == (PreparedReport.BUILDING, "elsewhere")


def test_a_report_asked_for_while_it_is_built_is_built_once(
    division: Division, desk: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = _url(division)
    make = reports.make
    release = threading.Event()
    made: list[str] = []

    def slow(*args, **kwargs):
        made.append(args[1])
        release.wait(30)
        return make(*args, **kwargs)

    monkeypatch.setattr(reports, "make", slow)
    statuses = [desk.get(url).status_code for _ in range(3)]
    statuses.append(desk.get(url, {"wait": "1"}).status_code)
    release.set()
    prepared.wait()

    assert statuses == [202, 202, 202, 202]
    assert made == ["crosstable"]
    assert desk.get(url).status_code == 200


def test_a_small_division_s_report_is_the_file_at_once(
    division: Division, desk: Client, settings
) -> None:
    settings.REPORTS_BUILT_APART_FROM = 5

    response = desk.get(_url(division))

    assert response.status_code == 200
    assert _has_smith(response.content)
    assert not PreparedReport.objects.exists()
