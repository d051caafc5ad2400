"""The prize ceremony: its slides in the order of award backwards (or as order= sets it), the
full-screen page at the desk and the same slides as a PDF, one a page."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tournament import reports
from tournament.models import Division, Game, Player, Tournament
from tournament.reports import prizes
from tournament.standings import prizes as prize_reads
from tournament.standings.stamps import read as read_stamps

NAMES = [("Quill, Ada", 1800), ("رضایی، مریم", 1700), ("김민준", 1600), ("Moss, Eli", 1500)]
# R1: Ada 420-380 Maryam, Kim 400-350 Eli; R2: Ada 450-300 Kim, Maryam 390-400 Eli.
# Ada 2-0 +190 (1st), Eli 1-1 -40 (2nd), Kim 1-1 -100 (3rd), Maryam 0-2 -50 (4th).
ROUNDS = [[(1, 420, 2, 380), (3, 400, 4, 350)], [(1, 450, 3, 300), (2, 390, 4, 400)]]
PRIZES = [
    {"kind": "rank", "place": 1, "value": "$100", "note": ""},
    {"kind": "rank", "place": 2, "value": "$50", "note": ""},
    {"kind": "tuffluck", "place": 1, "value": "a mug", "note": "", "rounds": 1},
    {"kind": "highgame", "place": 1, "value": "$10", "note": ""},
]


@pytest.fixture
def ceremony(db: None) -> Division:
    tournament = Tournament.objects.create(name="Nowruz Cup", slug="nowruz-cup")
    division = Division.objects.create(tournament=tournament, name="A", prizes=PRIZES)
    people = {
        n: Player.objects.create(division=division, number=n, name=name, rating=rating)
        for n, (name, rating) in enumerate(NAMES, start=1)
    }
    for number, games in enumerate(ROUNDS, start=1):
        for table, (a, sa, b, sb) in enumerate(games, start=1):
            Game.objects.create(
                division=division,
                round=number,
                table=table,
                player1=people[a],
                player2=people[b],
                score1=sa,
                score2=sb,
                first=1,
            )
    return division


def test_the_slides_go_from_the_lowest_prize_to_the_champion(ceremony: Division) -> None:
    # One prize a player: 1st Ada, 2nd Eli; the Tuff Luck (one loss, the smallest margin)
    # passes over Eli's 50 to Maryam's 10 (she lost by 40 and 10; Kim by 150); the high game
    # passes over Ada's 450 (and Eli) to Kim's 400. Shown backwards: the champion last.
    found = prizes.slides(ceremony, stamps=read_stamps(ceremony))
    assert [(s.title, s.value, s.winners, s.initials, s.figure) for s in found] == [
        (
            "1st high game",
            "$10",
            ("김민준",),
            ("김",),
            "the highest score: 400-350 v Moss, Eli, round 1",
        ),
        ("1st Tuff Luck", "a mug", ("رضایی، مریم",), ("مر",), "10 = 10"),
        ("2nd place", "$50", ("Moss, Eli",), ("EM",), "1–1 -40"),
        ("1st place", "$100", ("Quill, Ada",), ("AQ",), "2–0 +190"),
    ]
    # order= sets the ceremony's order: the Tuff Luck to the 1st line, level with 1st place
    # and after it in the order of award.
    ceremony.prizes = [*PRIZES[:2], {**PRIZES[2], "order": 1}, PRIZES[3]]
    ceremony.save()
    assert [s.winners[0] for s in prizes.slides(ceremony, stamps=read_stamps(ceremony))] == [
        "Quill, Ada",
        "رضایی، مریم",
        "Moss, Eli",
        "김민준",
    ]


def test_the_slides_page_and_its_pdf_at_the_desk(
    ceremony: Division, director: User, client_for, stranger: User
) -> None:
    from tests.tournament.reports.report_support import pdf_pages

    ceremony.tournament.directors.add(director)
    desk: Client = client_for(director)
    url = reverse("desk-prize-slides", args=["nowruz-cup", ceremony.pk])
    assert url == f"/desk/nowruz-cup/division/{ceremony.pk}/prizes/slides/"
    page = desk.get(url)
    assert page.status_code == 200
    html = page.content.decode()
    assert html.count('class="slide"') == 4 and html.count(" hidden>") == 3
    assert 'src="/static/prize-slides.js"' in html and "<script>" not in html
    assert '<span class="slide-photo" aria-hidden="true">AQ</span>' in html
    assert "1 of 4" in html
    assert client_for(stranger).get(url).status_code == 403
    pdf = desk.get(reverse("desk-report", args=["nowruz-cup", ceremony.pk, "slides", "pdf"]))
    assert pdf.status_code == 200
    pages = pdf_pages(pdf.content)
    assert len(pages) == 4
    last = " ".join(pages[3].split())
    assert "1st place" in last and "$100" in last and "Quill, Ada" in last and "2–0 +190" in last
    assert "Tuff Luck" in pages[1] and "10 = 10" in pages[1]
    # A division without prizes says so on the page, and the PDF is a 404 with the reason.
    ceremony.prizes = []
    ceremony.save()
    assert "Division A has no prizes set." in desk.get(url).content.decode()
    missing = desk.get(reverse("desk-report", args=["nowruz-cup", ceremony.pk, "slides", "pdf"]))
    assert missing.status_code == 404
    assert reports.KINDS.count("slides") == 1


def test_a_certificates_code_opens_its_page_and_a_forged_code_is_refused(
    ceremony: Division, director: User, client_for, client: Client
) -> None:
    from tests.tournament.reports.report_support import pdf_pages

    ceremony.tournament.directors.add(director)
    desk: Client = client_for(director)
    pdf = desk.get(reverse("desk-report", args=["nowruz-cup", ceremony.pk, "certificates", "pdf"]))
    assert pdf.status_code == 200
    pages = [" ".join(p.split()) for p in pdf_pages(pdf.content)]
    # One page a winner, in the prize table's order: Ada, Eli, Maryam, Kim.
    assert len(pages) == 4
    found = prize_reads.certificates(ceremony, stamps=read_stamps(ceremony))
    assert [(c.player.name, c.prize) for c in found] == [
        ("Quill, Ada", "1st place"),
        ("Moss, Eli", "2nd place"),
        ("رضایی، مریم", "1st Tuff Luck"),
        ("김민준", "1st high game"),
    ]
    ada = found[0]
    # The code: division, player number, the prize's line, and ten letters of signature.
    division_pk, number, line, signature = ada.code.split("-")
    assert (division_pk, number, line, len(signature)) == (str(ceremony.pk), "1", "1", 10)
    assert ada.code in pages[0] and "Quill, Ada" in pages[0] and "Certificate" in pages[0]
    assert f"http://testserver/certificate/{ada.code}/" in pages[0]
    page = client.get(f"/certificate/{ada.code}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert (
        '<p id="confirmed"><bdi>Quill, Ada</bdi> took <bdi>1st place</bdi> in '
        "<bdi>Nowruz Cup</bdi>, division <bdi>A</bdi>.</p>"
    ) in html
    assert '<dt>Results</dt><dd>after round <bdi dir="ltr" class="ltr">2</bdi></dd>' in html
    assert '<dt>Figure</dt><dd dir="ltr">2–0 +190</dd>' in html
    # A forged signature, another player's number on Ada's signature, and rubbish: 404.
    forged = ada.code[:-1] + ("a" if ada.code[-1] != "a" else "b")
    assert client.get(f"/certificate/{forged}/").status_code == 404
    eli = f"{division_pk}-4-1-{signature}"
    assert client.get(f"/certificate/{eli}/").status_code == 404
    assert client.get("/certificate/not-a-code/").status_code == 404
    # The prize changed since (its value): the old code no longer confirms it.
    ceremony.prizes = [{**PRIZES[0], "value": "$200"}, *PRIZES[1:]]
    ceremony.save()
    assert client.get(f"/certificate/{ada.code}/").status_code == 404


def test_a_participation_certificate_for_each_player_and_its_code(
    ceremony: Division, director: User, client_for, client: Client
) -> None:
    from tests.tournament.reports.report_support import pdf_pages

    ceremony.tournament.directors.add(director)
    desk: Client = client_for(director)
    url = reverse("desk-report", args=["nowruz-cup", ceremony.pk, "participation", "pdf"])
    pages = [" ".join(p.split()) for p in pdf_pages(desk.get(url).content)]
    # A page a player in the standings' order; Maryam finished 4th, 0-2 -50.
    assert len(pages) == 4
    found = prize_reads.participations(ceremony, stamps=read_stamps(ceremony))
    maryam = found[3]
    assert (maryam.player.name, maryam.figure) == ("رضایی، مریم", "4th place, 0–2 -50")
    assert maryam.code.split("-")[:3] == [str(ceremony.pk), "2", "0"]
    assert maryam.code in pages[3]
    html = client.get(f"/certificate/{maryam.code}/").content.decode()
    assert (
        '<p id="confirmed"><bdi>رضایی، مریم</bdi> took part in <bdi>Nowruz Cup</bdi>, '
        "division <bdi>A</bdi>.</p>"
    ) in html
    assert '<dt>Figure</dt><dd dir="ltr">4th place, 0–2 -50</dd>' in html
    # Her code with another player's number, or a letter changed: 404.
    other = maryam.code.replace(f"{ceremony.pk}-2-0-", f"{ceremony.pk}-3-0-")
    assert client.get(f"/certificate/{other}/").status_code == 404
    forged = maryam.code[:-1] + ("a" if maryam.code[-1] != "a" else "b")
    assert client.get(f"/certificate/{forged}/").status_code == 404
