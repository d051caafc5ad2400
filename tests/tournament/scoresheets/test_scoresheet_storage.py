"""A scoresheet's page is drawn from the report stored with it, and every way of saving a
scoresheet keeps to the size cap and copes with what a file may hold.

The desk's division of the conftest; its scoresheets are the conftest's 20–24 game.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

import scoring
from tests.tournament.reports.report_support import pdf_text
from tournament.models import Division, Game, Scoresheet
from tournament.results import services as results
from tournament.scoresheets import services as scoresheets
from tournament.standings import stamps

TOO_BIG = scoresheets.MAX_SCORESHEET_BYTES + 1


@pytest.fixture
def engine_calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every run of the rules engine from here on, by the text it was given."""
    calls: list[str] = []
    verify = scoring.verify

    def counted(source, *args, **kwargs):
        calls.append(source)
        return verify(source, *args, **kwargs)

    monkeypatch.setattr(scoring, "verify", counted)
    return calls


def page_url(sheet: Scoresheet) -> str:
    return reverse("scoresheet", args=[sheet.game.division.tournament.slug, sheet.pk])


@pytest.fixture
def sheet(division: Division, director, record: Callable[..., str], game_of) -> Scoresheet:
    results.enter_line(division, 1, "1 20 2 24", director)
    return scoresheets.attach_scoresheet(game_of(1), record(), director)


@pytest.mark.django_db
def test_the_public_page_of_a_scoresheet_does_not_run_the_engine(
    client: Client, sheet: Scoresheet, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(*args, **kwargs):
        raise AssertionError("the engine ran")

    monkeypatch.setattr(scoring, "verify", refuse)

    response = client.get(page_url(sheet))

    assert response.status_code == 200
    page = response.content.decode()
    line = '<bdi dir="ltr" class="gcg-line">&gt;<bdi>Ada</bdi>: DJINNRS 8D DJINN +30 30</bdi>'
    assert line in page
    assert "verified" in page
    assert '<bdi>Ada Quill</bdi> <bdi dir="ltr" class="ltr">20</bdi>' in page
    assert '<bdi>Ben Crane</bdi> <bdi dir="ltr" class="ltr">24</bdi>' in page
    assert "  8 . . . D J I N N" in page.replace("=", ".").replace("'", ".").replace("-", ".")


@pytest.mark.django_db
def test_a_changed_ruleset_tile_set_or_record_has_the_report_made_again_once(
    client: Client, division: Division, sheet: Scoresheet, engine_calls: list[str]
) -> None:
    client.get(page_url(sheet))
    assert engine_calls == []

    division.ruleset = "wespa"
    division.save()
    client.get(page_url(sheet))
    client.get(page_url(sheet))

    assert len(engine_calls) == 1
    sheet.refresh_from_db()
    assert sheet.report["key"] == scoresheets.report_key(division, sheet.gcg)
    assert sheet.report["rules"] == "wespa"

    division.tile_set = "english"  # unchanged: no new report
    division.save()
    client.get(page_url(sheet))
    assert len(engine_calls) == 1

    Scoresheet.objects.filter(pk=sheet.pk).update(gcg=sheet.gcg.replace("+33 33", "+35 35"))
    stamps.touch([division.pk])  # an update() bypasses the saves that renew the page cache's stamp
    response = client.get(page_url(sheet))
    assert len(engine_calls) == 2
    assert '<span class="badge bad">' in response.content.decode()
    sheet.refresh_from_db()
    assert sheet.verified is False
    assert any(f["code"] == "wrong_score" for f in sheet.report["findings"])


@pytest.mark.django_db
def test_a_new_engine_version_has_the_report_made_again(
    client: Client, sheet: Scoresheet, engine_calls: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(scoring, "ENGINE_VERSION", scoring.ENGINE_VERSION + ".next")

    client.get(page_url(sheet))
    client.get(page_url(sheet))

    assert len(engine_calls) == 1


@pytest.mark.django_db
def test_a_report_stored_before_reports_had_a_key_is_made_again_once(
    client: Client, sheet: Scoresheet, engine_calls: list[str]
) -> None:
    report = dict(sheet.report)
    del report["key"]
    Scoresheet.objects.filter(pk=sheet.pk).update(report=report)

    client.get(page_url(sheet))
    client.get(page_url(sheet))

    assert len(engine_calls) == 1


@pytest.mark.django_db
def test_a_record_of_a_thousand_lines_is_shown_a_page_at_a_time(
    client: Client, division: Division, director, record: Callable[..., str], game_of
) -> None:
    extra = ">Ada: AERSTUV - +0 20\n>Ben: ABEEOST - +0 24\n"
    text = record() + extra * 494  # 1,000 lines: the most a record may have (`bounds`)
    sheet = scoresheets.attach_scoresheet(game_of(1), text, director)
    assert sheet.held  # moves after six passes ended the game are errors: held from the public
    scoresheets.release_scoresheet(sheet, director, "shown with its findings")

    first = client.get(page_url(sheet)).content.decode()
    last = client.get(page_url(sheet), {"page": "5"}).content.decode()

    assert first.count('<td class="num">3</td>') == 1  # line 3, the first move
    assert '<td class="num">1000</td>' in last  # the record's last line
    assert '<td class="num">1000</td>' not in first


# -- the size cap and what a file may hold -------------------------------------------------------


def upload_url(division: Division) -> str:
    return reverse("desk-upload", args=[division.tournament.slug, division.pk])


@pytest.mark.django_db
def test_every_way_of_saving_a_scoresheet_keeps_to_the_size_cap(
    desk: Client, division: Division, director, record: Callable[..., str], game_of
) -> None:
    big = record() + "#note " + "x" * TOO_BIG + "\n"
    game = game_of(1)

    assigned = desk.post(
        upload_url(division),
        {"action": "assign", "count": "1", "name_0": "big.gcg", "text_0": big, "game_0": game.pk},
    )
    assert assigned.status_code == 200
    assert "big.gcg: The scoresheet is 262," in assigned.content.decode()

    # Under the form's limit in characters, over the cap in bytes.
    wide = record() + "#note " + "é" * (scoresheets.MAX_SCORESHEET_BYTES // 2) + "\n"
    typed = desk.post(
        reverse("desk-scoresheet-new", args=[division.tournament.slug, game.pk]), {"gcg": wide}
    )
    assert typed.status_code == 200
    assert "a game record can take: not saved." in typed.content.decode()

    with pytest.raises(results.EntryError):
        scoresheets.attach_scoresheet(game, big.encode(), director)
    sheet = scoresheets.attach_scoresheet(game, record(), director)
    with pytest.raises(results.EntryError):
        scoresheets.update_scoresheet(sheet, wide, director, "typed")
    assert Scoresheet.objects.count() == 1
    assert Scoresheet.objects.get().gcg == record()


@pytest.mark.django_db
@pytest.mark.parametrize("count", ["201", "100000", "²", "-1", "9" * 5000])
def test_the_number_of_scoresheets_assigned_at_once_is_bounded(
    desk: Client, division: Division, record: Callable[..., str], game_of, count: str
) -> None:
    form = {"action": "assign", "count": count, "name_0": "a.gcg", "text_0": record()}
    form["game_0"] = game_of(1).pk

    response = desk.post(upload_url(division), form)

    assert response.status_code == 200
    page = response.content.decode()
    assert "count:" in page
    if count in ("201", "100000"):
        assert "At most 200 scoresheets can be assigned at once." in page
    assert not Scoresheet.objects.exists()


@pytest.mark.django_db
def test_a_scoresheet_with_nul_bytes_is_saved_without_them(
    desk: Client, division: Division, director, record: Callable[..., str], game_of
) -> None:
    data = record().replace("DJINN +30", "DJI\x00NN +30").encode()
    files = {"files": [SimpleUploadedFile("nul.gcg", data)]}

    matched = desk.post(upload_url(division), files)
    single = desk.post(
        reverse("desk-scoresheet-upload", args=[division.tournament.slug, game_of(3).pk]),
        {"file": SimpleUploadedFile("nul\x00.gcg", data)},
    )
    assigned = desk.post(
        upload_url(division),
        {
            "action": "assign",
            "count": "1",
            "name_0": "n\x00.gcg",
            "text_0": data.decode(),
            "game_0": game_of(5).pk,
        },
    )

    assert (matched.status_code, single.status_code, assigned.status_code) == (200, 302, 200)
    sheets = list(Scoresheet.objects.order_by("pk"))
    assert [s.game for s in sheets] == [game_of(1), game_of(3), game_of(5)]
    for sheet in sheets:
        assert "\x00" not in sheet.gcg
        assert ">Ada: DJINNRS 8D DJINN +30 30" in sheet.gcg
        assert sheet.verified
        assert "\x00" not in str(sheet.report)


@pytest.mark.django_db
@pytest.mark.parametrize("long", ["name", "nick"])
def test_a_record_with_a_ten_thousand_character_name_prints(
    client: Client, division: Division, director, record: Callable[..., str], game_of, long: str
) -> None:
    huge = "Z" * 10_000
    text = record(name1=huge) if long == "name" else record(nick1=huge)
    sheet = scoresheets.attach_scoresheet(game_of(1), text, director)

    response = client.get(reverse("public-game-record", args=[division.tournament.slug, sheet.pk]))
    page = client.get(page_url(sheet))

    assert response.status_code == 200
    assert response.content.startswith(b"%PDF")
    printed = pdf_text(response.content)
    assert "Z" * 40 in printed and "Z" * 61 not in printed.replace("\n", "")
    assert "…" in printed
    assert page.status_code == 200


@pytest.mark.django_db
def test_game_record_pdf_and_page_of_an_unpublished_round_are_hidden(
    client: Client, division: Division, director, record: Callable[..., str]
) -> None:
    from tournament.models import Round

    players = {p.number: p for p in division.players.all()}
    Round.objects.create(division=division, number=2, published=False)
    game = Game.objects.create(division=division, round=2, player1=players[1], player2=players[2])
    sheet = scoresheets.attach_scoresheet(game, record(), director)

    slug = division.tournament.slug
    assert client.get(page_url(sheet)).status_code == 404
    assert client.get(reverse("public-game-record", args=[slug, sheet.pk])).status_code == 404


@pytest.mark.django_db
def test_the_desk_s_page_of_a_scoresheet_shows_the_report_under_the_division_s_settings(
    desk: Client, division: Division, sheet: Scoresheet, engine_calls: list[str]
) -> None:
    page = reverse("desk-scoresheet", args=[division.tournament.slug, sheet.pk])
    desk.get(page)
    assert engine_calls == []

    division.ruleset = "no-such-rules"
    division.save()
    response = desk.get(page)

    assert len(engine_calls) == 1
    assert "the division&#x27;s ruleset &#x27;no-such-rules&#x27; is unknown" in (
        response.content.decode()
    )
