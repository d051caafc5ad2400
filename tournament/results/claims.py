"""The players' own reports of a game's result (`Claim`), as the desk reads them: the games
that have some and no result yet, and each player's report side by side."""

from __future__ import annotations

from django.utils.translation import gettext

from tournament.core.sentences import isolate
from tournament.models import Claim, Division, Game


def claims_text(claims: list[Claim]) -> str:
    """Each player's report side by side: "Priya: 433–377 · Conor: 377–434"."""
    return " · ".join(
        gettext("%(name)s: %(mine)s–%(theirs)s")
        % {"name": isolate(c.player.name), "mine": c.my_score, "theirs": c.opponent_score}
        for c in claims
    )


def pending(division: Division) -> list[tuple[Game, list[Claim]]]:
    """The games of the division with claims and no result, with their claims."""
    claims = Claim.objects.filter(game__division=division).select_related(
        "game__player1", "game__player2", "player"
    )
    found: dict[int, tuple[Game, list[Claim]]] = {}
    for c in claims.order_by("game__round", "game__table", "game_id", "player__number"):
        if c.game.has_result:
            continue
        found.setdefault(c.game_id, (c.game, []))[1].append(c)
    return list(found.values())
