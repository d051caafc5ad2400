"""Traps found at the desk in a trial: a forfeit counted as a bye and recorded without naming
the player, a scoresheet saved twice, a .tou file downloaded with rounds unplayed."""

from __future__ import annotations

from collections.abc import Callable
from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client
from text_support import plain

from tournament.models import Division, Game, Scoresheet
from tournament.pairing import services as pairing
from tournament.results import services as results
from tournament.scoresheets import services as scoresheets


def test_a_forfeit_is_not_counted_as_a_bye(division: Division, director: User) -> None:
    results.enter_line(division, 1, "1 forfeit", director)

    codes = [w.code for w in pairing.current_warnings(division, 1)]

    # 1 v 2 became Ada's forfeit loss and Ben's forfeit win; Hal's bye is the field's one bye.
    assert "extra_bye" not in codes
    assert "unpaired" not in codes
    assert division.games.filter(round=1, kind=Game.FORFEIT).count() == 2
    assert division.games.filter(round=1, kind=Game.BYE).count() == 1


def test_two_real_byes_in_an_odd_field_are_still_one_too_many(
    division: Division, director: User
) -> None:
    p = {pl.number: pl for pl in division.players.all()}
    # 5 and 6 each given a bye by hand: three byes where an odd field of 7 needs one.
    pairs = [(p[1], p[2]), (p[3], p[4]), (p[5], None), (p[6], None), (p[7], None)]
    pairing.save_pairings(division, 1, pairs, director)

    extra = [w for w in pairing.current_warnings(division, 1) if w.code == "extra_bye"]
    assert [dict(w.params) for w in extra] == [{"count": 3, "field": 7}]


def test_the_forfeit_asks_for_confirmation_naming_the_player(
    desk: Client, division: Division
) -> None:
    page = desk.get(f"/desk/spring-open/division/{division.pk}/round/1/pairings/").content.decode()

    assert (
        'data-confirm="\u2068Quill, Ada\u2069 forfeits round 1: a forfeit loss (−50) for '
        '\u2068Quill, Ada\u2069 and a forfeit win for \u2068Crane, Ben\u2069. Record it?"' in page
    )
    assert "<bdi>Crane, Ben</bdi> forfeits</button>" in page
    assert '<select name="player"' not in page  # no player chosen in advance


def test_the_same_scoresheet_uploaded_twice_is_saved_once(
    desk: Client,
    division: Division,
    director: User,
    game_of: Callable[..., Game],
    record: Callable[..., str],
) -> None:
    results.enter_line(division, 1, "1 20 2 24", director)
    game = game_of(1)
    text = record()
    first = scoresheets.attach_scoresheet(game, text, director)
    with pytest.raises(scoresheets.DuplicateScoresheet) as refused:
        scoresheets.attach_scoresheet(game, text.replace("\n", "\r\n") + "\n", director)
    assert refused.value.sheet == first

    upload = SimpleUploadedFile("again.gcg", text.encode())
    response = desk.post(f"/desk/spring-open/games/{game.pk}/upload", {"file": upload}, follow=True)
    assert (
        "This scoresheet is already saved with R1: <bdi>Quill, Ada</bdi> v <bdi>Crane, Ben</bdi> "
        f"(scoresheet {first.pk})"
    ) in response.content.decode()
    assert Scoresheet.objects.filter(game=game).count() == 1
    assert game.division.tournament.changes.filter(action="upload").count() == 1


def test_the_tou_export_warns_when_rounds_are_unplayed(
    desk: Client, division: Division, director: User
) -> None:
    page = desk.get("/desk/spring-open/").content.decode()
    assert "The .tou file is not complete:" in page
    assert "Division A: rounds 1, 2, 3 not played (of 3)" in page

    for line in ("1 400 2 300", "3 400 4 300", "5 400 6 300", "7 bye"):
        results.enter_line(division, 1, line, director)
    err = StringIO()
    call_command("exporttou", "spring-open", output="/dev/null", stdout=StringIO(), stderr=err)
    assert err.getvalue() == (
        "warning: Division A: rounds 2, 3 not played (of 3): the file has no results for them\n"
    )


def test_why_these_pairings_drops_the_reasons_of_pairs_a_swap_undid(
    desk: Client, division: Division, director: User
) -> None:
    for line in ("1 400 2 300", "3 400 4 300", "5 400 6 300", "7 bye"):
        results.enter_line(division, 1, line, director)
    state = pairing.pair(division, 2, director, system="swiss")
    tables = [n for n in state.notes if n["code"] == "table"]
    assert tables, "swiss gives each table its reasons"
    games = list(division.games.filter(round=2, player2__isnull=False).order_by("table"))
    a, b = games[0].player1, games[1].player1

    pairing.swap(division, 2, a, b, director)

    state.refresh_from_db()
    now = {
        frozenset((g.player1.name, g.player2.name))
        for g in division.games.filter(round=2, player2__isnull=False)
    }
    left = [n for n in state.notes if n["code"] == "table"]
    assert all(frozenset((n["params"]["first"], n["params"]["second"])) in now for n in left)
    assert len(left) == len(tables) - 2
    page = desk.get(f"/desk/spring-open/division/{division.pk}/round/2/pairings/")
    assert f"{games[0].player1.name} v {games[0].player2.name}:" not in page.content.decode()


def test_a_late_entry_writes_the_name_as_the_roster_does_and_chooses_the_missed_rounds(
    desk: Client, division: Division, director: User
) -> None:
    results.enter_line(division, 1, "1 400 2 300", director)  # round 1 under way
    url = f"/desk/spring-open/division/{division.pk}/players/add"
    page = desk.get(f"/desk/spring-open/division/{division.pk}/players/").content.decode()
    assert (
        "The division writes names “Last, First”: every name added is written so "
        "(“Ada Quill” becomes “Quill, Ada”)."
    ) in page

    byes = desk.post(url, {"name": "Zed Young", "rating": "1500", "missed": "byes"}, follow=True)
    assert (
        "Young, Zed added as player 8, with byes in 1 round. “Zed Young” is written "
        "“Young, Zed”, as the division writes names."
    ) in byes.content.decode()
    zed = division.players.get(number=8)
    assert list(zed.games_as_1.values_list("round", "kind", "score1")) == [(1, Game.BYE, 50)]

    desk.post(url, {"name": "Ash, Ivy", "rating": "1400", "missed": "nothing"})
    ivy = division.players.get(number=9)
    assert not ivy.games_as_1.exists()
    assert plain(division.tournament.changes.filter(action="late entry").first().reason) == (
        "Ash, Ivy added as player 9, nothing for rounds 1"
    )
