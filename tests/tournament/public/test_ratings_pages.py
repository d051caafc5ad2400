"""Ratings through the app: the `ratings` command and the public ratings pages.

On the two real 23-round NASPA events of the corpus, the rating after every round printed by
`ratings --json --after-round N` equals the `newr` value tsh wrote for that round (the engine's
own tests check the formula; these check that the app hands it the right players and games).
"""

from __future__ import annotations

import json
import re
import shutil
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client

from tournament.engine.ratings import RatedPlayer, rate_event
from tournament.engine.standings import Game, GameKind
from tournament.exchange import tsh_io
from tournament.interchange.tsh import read_t_file
from tournament.models import Game as GameRow
from tournament.standings import read_model
from tournament.standings.stamps import read as read_stamps

CORPUS = Path(__file__).resolve().parents[4] / "shared" / "corpus" / "tsh"
JVC56 = CORPUS / "jvc56_tournament_pairing_algorithms"
EVENTS = [("test_data_a.t", JVC56 / "test_data_a.t.86aeb79"), ("a.t", JVC56 / "a.t")]

needs_corpus = pytest.mark.skipif(
    not JVC56.is_dir(), reason="the shared tsh corpus (../shared/corpus/tsh) is not here"
)


def _ratings(slug: str, division: str, *args: str) -> list[dict]:
    out = StringIO()
    call_command("ratings", slug, "--division", division, "--json", *args, stdout=out)
    return json.loads(out.getvalue())


@needs_corpus
@pytest.mark.django_db
@pytest.mark.parametrize(("name", "source"), EVENTS, ids=[e[0] for e in EVENTS])
def test_ratings_after_every_round_equal_tsh_newr(tmp_path: Path, name: str, source: Path):
    target = tmp_path / name
    shutil.copyfile(source, target)
    tsh_io.import_tsh(target, slug="event", name="Event")
    division = Path(name).stem
    tfile = read_t_file(target)
    checked = 0
    for after in range(1, tfile.rounds + 1):
        printed = {r["name"]: r for r in _ratings("event", division, "--after-round", str(after))}
        for p in tfile.players:
            newr = p.extra_numbers("newr")
            if not newr or after > len(newr) or newr[after - 1] is None:
                continue
            assert printed[p.name]["rating_after"] == newr[after - 1], (p.name, after)
            assert printed[p.name]["rating_before"] == int(p.rating_value)
            checked += 1
    assert checked == {"test_data_a.t": 552, "a.t": 598}[name]


@pytest.fixture
def rated(db, tournament):
    """Round 1 of the desk's division played: Ada beats Ben, Cora beats Eli, Fay beats Gus."""
    division = tournament.divisions.get()
    players = {p.number: p for p in division.players.all()}
    for p, rating in zip(players.values(), [1800, 1700, 1500, 1400, 1000, 0, 1200], strict=True):
        p.rating = rating
        p.save()
    for g in division.games.filter(round=1):
        if g.player2 is not None:
            g.score1, g.score2 = 400, 350
        else:
            g.score1 = 50
        g.save()
    return division


def test_ratings_command_and_page_agree(rated):
    rows = read_model.division_ratings(rated, stamps=read_stamps(rated))
    by_name = {r.name: r for r in rows}
    # The engine on the same games, by hand: the app hands it the right players and results.
    ids = {p.name: p.pk for p in rated.players.all()}
    expected = rate_event(
        [RatedPlayer(p.pk, p.rating, 0) for p in rated.players.all()],
        [
            [
                Game(ids["Quill, Ada"], ids["Crane, Ben"], 400, 350),
                Game(ids["Vale, Cora"], ids["Moss, Eli"], 400, 350),
                Game(ids["North, Fay"], ids["Stone, Gus"], 400, 350),
                Game(ids["Reed, Hal"], None, 50, 0, GameKind.BYE),
            ]
        ],
        max_rounds=3,
    )
    for r in rows:
        assert r.after == expected[r.player.pk].final
        assert r.before == r.player.rating
    ada, ben = by_name["Quill, Ada"], by_name["Crane, Ben"]
    assert ada.before == 1800 and ben.before == 1700
    assert ada.change > 0 and ben.change < 0
    assert by_name["Reed, Hal"].change == 0  # the bye is not rated
    assert by_name["Stone, Gus"].before == 0 and by_name["Stone, Gus"].after > 0  # a newcomer
    printed = {r["name"]: r for r in _ratings("spring-open", "A")}
    for r in rows:
        assert printed[r.name] == {
            "name": r.name,
            "rating_before": r.before,
            "rating_after": r.after,
        }
    page = Client().get("/t/spring-open/A/ratings/")
    assert page.status_code == 200
    html = page.content.decode()
    for r in rows:
        assert r.name in html
    assert f"{ada.change:+d}" in html
    player_page = Client().get("/t/spring-open/A/player/1/").content.decode()
    # The figures are one left-to-right run (<bdi>) in every language.
    player_text = re.sub(r"<[^>]+>", "", player_page)
    assert f"1800 → {ada.after} ({ada.change:+d}) after round 1" in player_text


def test_ratings_before_round_1(rated):
    rows = read_model.division_ratings(rated, after_round=0, stamps=read_stamps(rated))
    assert all(r.after == r.before and r.change == 0 for r in rows)
    assert Client().get("/t/spring-open/A/ratings/?round=2").status_code == 404


def test_ratings_command_errors(rated):
    with pytest.raises(CommandError, match="no division 'Z' in tournament 'spring-open'"):
        _ratings("spring-open", "Z")
    with pytest.raises(CommandError, match="rounds count from 0"):
        _ratings("spring-open", "A", "--after-round", "-1")


def test_forfeits_are_not_rated(rated):
    game = rated.games.get(round=1, player1__number=1)
    game.player2, game.score1, game.score2, game.kind = None, -50, None, GameRow.FORFEIT
    game.save()
    by_name = {r.name: r for r in read_model.division_ratings(rated, stamps=read_stamps(rated))}
    assert by_name["Quill, Ada"].change == 0
    assert by_name["Crane, Ben"].change == 0
