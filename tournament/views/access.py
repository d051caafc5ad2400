"""Who may see what: the lookups every view starts with.

The desk's (`get_desk_*`) answer 403 to anyone who is not one of the tournament's directors;
the public pages' (`get_public_*`) answer 404 for a tournament that is not public (except to its
directors) and for a scoresheet of a round not published yet, so that neither exists for them.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404

from tournament import queries, services
from tournament.models import Division, Game, Player, Scoresheet, Tournament

# -- the director's desk ------------------------------------------------------------------------


def get_desk_tournament(request: HttpRequest, slug: str) -> Tournament:
    tournament = get_object_or_404(Tournament, slug=slug)
    if not tournament.is_director(request.user):
        raise PermissionDenied("Only the tournament's directors may use its desk.")
    return tournament


def get_desk_division(request: HttpRequest, slug: str, division_id: int) -> Division:
    tournament = get_desk_tournament(request, slug)
    return get_object_or_404(
        Division.objects.select_related("tournament"), pk=division_id, tournament=tournament
    )


def get_desk_game(request: HttpRequest, slug: str, game_id: int) -> Game:
    tournament = get_desk_tournament(request, slug)
    return get_object_or_404(
        Game.objects.select_related("division__tournament", "player1", "player2"),
        pk=game_id,
        division__tournament=tournament,
    )


def get_desk_scoresheet(request: HttpRequest, slug: str, sheet_id: int) -> Scoresheet:
    tournament = get_desk_tournament(request, slug)
    return get_object_or_404(
        Scoresheet.objects.select_related(
            "game__division__tournament", "game__player1", "game__player2", "uploaded_by"
        ),
        pk=sheet_id,
        game__division__tournament=tournament,
    )


# -- the public pages ---------------------------------------------------------------------------


def get_public_tournament(request: HttpRequest, slug: str) -> Tournament:
    tournament = get_object_or_404(Tournament, slug=slug)
    if not tournament.public and not tournament.is_director(request.user):
        raise Http404("No such tournament.")
    return tournament


def get_public_division(tournament: Tournament, name: str, with_games: bool = False) -> Division:
    # Through the related manager, so that division.tournament needs no query of its own.
    divisions = tournament.divisions.all()
    if with_games:
        divisions = divisions.prefetch_related(queries.games_with_players())
    division = services.find_division(divisions, name)
    if division is None:
        raise Http404("No such division.")
    return division


def get_public_player(division: Division, number: int) -> Player:
    return get_object_or_404(division.players, number=number)


def get_public_scoresheet(tournament: Tournament, pk: int) -> Scoresheet:
    """A scoresheet of the tournament, unless its round is not published yet."""
    return get_object_or_404(
        Scoresheet.objects.select_related("game__division", "game__player1", "game__player2"),
        pk=pk,
        game__division__tournament=tournament,
        game__in=Game.objects.published(),
    )
