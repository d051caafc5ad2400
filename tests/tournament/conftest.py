"""The people and the tournament the desk's tests share.

A tournament with one division of seven players and round 1 paired (1 v 2, Ada to go first;
3 v 4, first not known; 5 v 6, Gus to go first; 7 a bye), its director and a second director,
the director of another tournament, a player's account and a stranger.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.test import Client
from scoring_support import game_record

from tournament.models import Division, Game, Player, Tournament

NAMES = [
    "Quill, Ada",
    "Crane, Ben",
    "Vale, Cora",
    "Moss, Eli",
    "North, Fay",
    "Stone, Gus",
    "Reed, Hal",
]


@pytest.fixture
def director(db: None) -> User:
    return User.objects.create_user("alice")


@pytest.fixture
def second_director(db: None) -> User:
    return User.objects.create_user("bob")


@pytest.fixture
def other_director(db: None) -> User:
    """The director of another tournament, not of this one."""
    user = User.objects.create_user("carol")
    other = Tournament.objects.create(name="Autumn Open", slug="autumn-open")
    other.directors.add(user)
    return user


@pytest.fixture
def player_user(db: None) -> User:
    """A player's own account: plays in the tournament, directs nothing."""
    return User.objects.create_user("ada.quill")


@pytest.fixture
def stranger(db: None) -> User:
    return User.objects.create_user("eve")


@pytest.fixture
def tournament(director: User, second_director: User) -> Tournament:
    tournament = Tournament.objects.create(name="Spring Open", slug="spring-open")
    tournament.directors.add(director, second_director)
    division = Division.objects.create(
        tournament=tournament, name="A", bye_spread=50, forfeit_spread=50, planned_rounds=3
    )
    players = {
        n: Player.objects.create(division=division, number=n, name=name)
        for n, name in enumerate(NAMES, start=1)
    }
    for table, (one, two, first) in enumerate([(1, 2, 1), (3, 4, 0), (5, 6, 2)], start=1):
        Game.objects.create(
            division=division,
            round=1,
            table=table,
            player1=players[one],
            player2=players[two],
            first=first,
        )
    Game.objects.create(division=division, round=1, player1=players[7], kind=Game.BYE)
    return tournament


@pytest.fixture
def division(tournament: Tournament) -> Division:
    return tournament.divisions.get()


@pytest.fixture
def game_of(division: Division) -> Callable[[int, int], Game]:
    """The game of a player (by number) in a round."""

    def find(number: int, round_number: int = 1) -> Game:
        games = division.games.filter(round=round_number)
        return (games.filter(player1__number=number) | games.filter(player2__number=number)).get()

    return find


@pytest.fixture
def record() -> Callable[..., str]:
    """`game_record`, for tests to write scoresheets with the players' names they need."""
    return game_record


def _client_for(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def desk(director: User) -> Client:
    """The director, logged in."""
    return _client_for(director)


@pytest.fixture
def second_desk(second_director: User) -> Client:
    return _client_for(second_director)


@pytest.fixture
def client_for() -> Callable[[User], Client]:
    return _client_for
