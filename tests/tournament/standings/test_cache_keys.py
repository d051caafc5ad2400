"""Every shared-cache key of the read model is made by `standings/keys.py` from the division's
stamps and what the value depends on: a result replaces the stamps, so every key of the
division changes with it; two divisions, or the desk and the public, never share a key."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest
from django.contrib.auth.models import User

from tournament.models import Division, Game
from tournament.results import services as results
from tournament.standings import keys, queries, read_model
from tournament.standings.stamps import DivisionStamps
from tournament.standings.stamps import read as read_stamps

# Each key-maker as the read model calls it, with a value's typical dependencies.
MAKERS: dict[str, Callable[[DivisionStamps], str]] = {
    "standings": lambda s: keys.of_division("standings", s, public=True, after=None),
    "ratings": lambda s: keys.of_division("ratings", s, public=True, system="wespa"),
    "certificates": lambda s: keys.of_division("certificates", s, public=True, participation=False),
    "standings table": lambda s: keys.of_division(
        "standings-table", s, public=True, sort="", language="en"
    ),
    "round 1's games": lambda s: keys.of_rounds(
        "player-games", s, [1], public=True, player=1, language="en", games="1: ..."
    ),
    "page": lambda s: keys.of_divisions("page", [s], address="/t/x/A/", language="en"),
    "page of round 1": lambda s: keys.of_divisions(
        "page", [s], one_round=(s, 1), address="/t/x/A/round/1/", language="en"
    ),
}


def every_key(stamps: DivisionStamps) -> dict[str, str]:
    return {name: make(stamps) for name, make in MAKERS.items()}


@pytest.mark.django_db
def test_a_result_changes_the_stamps_and_so_every_key(division: Division, director: User) -> None:
    before = read_stamps(division)
    standings = read_model.standings_key(division, stamps=before)
    games = queries.player_games_keys(division, "en", before)

    results.enter_line(division, 1, "1 400 2 350", director)
    after = read_stamps(division)

    assert (after.stamp, after.round(1)) != (before.stamp, before.round(1))
    old, new = every_key(before), every_key(after)
    assert [name for name in MAKERS if old[name] == new[name]] == []
    assert read_model.standings_key(division, stamps=after) != standings
    changed = queries.player_games_keys(division, "en", after)
    players = {p.number: p.pk for p in division.players.all()}
    assert changed[players[1]] != games[players[1]]


@pytest.mark.django_db
def test_a_result_in_another_round_leaves_a_round_s_keys(
    division: Division, director: User
) -> None:
    players = {p.number: p for p in division.players.all()}
    Game.objects.create(division=division, round=2, table=1, player1=players[1], player2=players[3])
    before = read_stamps(division)

    results.enter_line(division, 2, "1 400 3 350", director)
    after = read_stamps(division)

    round_1 = ("round 1's games", "page of round 1")
    assert [MAKERS[name](before) == MAKERS[name](after) for name in round_1] == [True, True]
    assert MAKERS["standings"](before) != MAKERS["standings"](after)


@pytest.mark.django_db
def test_two_divisions_never_share_a_key(division: Division) -> None:
    other = Division.objects.create(tournament=division.tournament, name="B")
    mine, theirs = read_stamps(division), read_stamps(other)
    # Even stamps that happened to be equal: the division is in every key.
    alike = replace(theirs, stamp=mine.stamp, frame=mine.frame, rounds=mine.rounds)

    for name in MAKERS:
        assert MAKERS[name](mine) != MAKERS[name](theirs), name
        assert MAKERS[name](mine) != MAKERS[name](alike), name


@pytest.mark.django_db
def test_the_desk_s_key_and_the_public_s_differ(division: Division) -> None:
    stamps = read_stamps(division)

    desk = keys.of_division("standings", stamps, public=False, after=None)
    public = keys.of_division("standings", stamps, public=True, after=None)

    assert desk != public
    assert read_model.standings_key(division, public=False, stamps=stamps) != (
        read_model.standings_key(division, public=True, stamps=stamps)
    )
    assert keys.of_rounds("x", stamps, [1], public=False) != keys.of_rounds(
        "x", stamps, [1], public=True
    )


@pytest.mark.django_db
def test_a_key_names_its_kind_and_what_the_value_depends_on(division: Division) -> None:
    stamps = read_stamps(division)

    key = keys.of_division("standings", stamps, public=True, after=None, language="en")

    assert key.startswith("standings:")
    assert key == keys.of_division("standings", stamps, language="en", public=True, after=None)
    assert key != keys.of_division("standings", stamps, public=True, after=None, language="fa")
    assert key != keys.of_division("standings", stamps, public=True, after=3, language="en")
    assert key != keys.of_division("ratings", stamps, public=True, after=None, language="en")
