"""What the rating lists' tests share: small events with known results, and the people their
players are linked to.

`link_people` links the event's players to people through the people linker
(`tournament.people.services.link_tournament`): by an identifier, else by the folded name,
else a new person."""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from tournament.models import Division, Game, Player, Tournament
from tournament.people import services as people

# A round: (first player, second player, first's score, second's score); a bye: (player, None,
# spread, 0).
Result = tuple[str, str | None, int, int]


def link_people(tournament: Tournament) -> None:
    people.link_tournament(tournament)


def small_event(
    slug: str,
    day: datetime.date,
    names: Sequence[str],
    rounds: Sequence[Sequence[Result]],
    *,
    ratings: dict[str, int] | None = None,
    division: str = "A",
    tournament: Tournament | None = None,
) -> Tournament:
    """A tournament (or another division of `tournament`) whose players play `rounds`."""
    if tournament is None:
        tournament = Tournament.objects.create(name=slug.title(), slug=slug, start_date=day)
    d = Division.objects.create(
        tournament=tournament, name=division, planned_rounds=len(rounds), byes_count="any"
    )
    players = {
        name: Player.objects.create(
            division=d, number=n, name=name, rating=(ratings or {}).get(name, 0)
        )
        for n, name in enumerate(names, start=1)
    }
    for number, games in enumerate(rounds, start=1):
        for table, (one, two, s1, s2) in enumerate(games, start=1):
            if two is None:
                Game.objects.create(
                    division=d, round=number, player1=players[one], score1=s1, kind=Game.BYE
                )
                continue
            Game.objects.create(
                division=d,
                round=number,
                table=table,
                player1=players[one],
                player2=players[two],
                score1=s1,
                score2=s2,
            )
    return tournament


def division_of(tournament: Tournament, name: str = "A") -> Division:
    return tournament.divisions.get(name=name)
