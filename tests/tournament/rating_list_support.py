"""What the rating lists' tests share: small events with known results, and the people their
players are linked to.

`link_people` stands in for the people linker (`tournament.people.services.link_tournament`)
until it is on main: each player without a person is linked to the person of the same name
(folded as the rating lists' reader folds names), made when there is none. Swap its body for
the linker and every test keeps working."""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from tournament.interchange.ratinglist import name_key
from tournament.models import Division, Game, Person, Player, Tournament

# A round: (first player, second player, first's score, second's score); a bye: (player, None,
# spread, 0).
Result = tuple[str, str | None, int, int]


def link_people(tournament: Tournament) -> None:
    for player in Player.objects.filter(division__tournament=tournament, person=None):
        key = " ".join(name_key(player.name))
        person = Person.objects.filter(key=key).first()
        if person is None:
            person = Person.objects.create(name=player.name, key=key)
        player.person = person
        player.person_link = "name"
        player.save(update_fields=["person", "person_link"])


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
