"""A player's own scoresheet as their report of the result.

A scoresheet a player saves from their link (typed, uploaded or entered on the board: all
three are saved by `services.send_sheet`) that is whole (the game ends on it, by the engine's
replay) and verified (no error findings) is that player's report of its final scores, taken
exactly as if they had typed them (`services.report`): the opponent's report, typed or their
own sheet, agreeing records the result once; disagreeing waits for the desk. A sheet that is
not whole or has findings is no report, and the player is told why.

Only a player's own sheet is their report: a sheet the desk attaches speaks for neither player.
So this is done here, by the phone, the writer of a player's sheet, after it is saved, rather
than by a signal from the scoresheets' writer, which the desk's uploads go through too. The
sheet is saved in its own transaction and the report taken in the next, as a typed report is:
the engine's check is never run with the round's games locked, and a report refused (the
desk recorded the result meanwhile) leaves the sheet saved, compared with the result as any
sheet is.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext

from tournament.core.errors import EntryError
from tournament.core.language import ltr_text
from tournament.core.sheet_report import SheetReport
from tournament.models import Claim, Game, Player, Scoresheet
from tournament.phone import services
from tournament.results import services as results
from tournament.scoresheets import services as scoresheets


@dataclass(frozen=True)
class Sent:
    """A scoresheet saved from a player's link, and what it did as their report: a sentence,
    or "" where it said nothing (the game's result was recorded already)."""

    sheet: Scoresheet
    said: str


def final_scores(game: Game, player: Player, report: SheetReport) -> tuple[int, int] | str:
    """The player's final score and their opponent's as the sheet has them, or why the sheet
    is not the player's report of the result, in a sentence."""
    if not report.verified:
        return gettext(
            "A scoresheet with findings is not your report of the result: correct it, or "
            "type your scores on your page."
        )
    if not report.ended:
        return gettext(
            "The game does not end on this scoresheet, so it is not your report of the result."
        )
    players = scoresheets.sheet_players(game, report)
    one = two = None
    if players is not None:
        one, two = players[0].final, players[1].final
    if one is None or two is None:
        return gettext(
            "The scoresheet's players are not the game's, so it is not your report of the "
            "result: type your scores on your page."
        )
    if any(scoresheets.sheet_time_penalties(game, report) or ()):
        return gettext(
            "A time penalty is the desk's to enter, so this scoresheet is not your report of "
            "the result: type your scores on your page."
        )
    if not all(results.MIN_SCORE <= s <= results.MAX_SCORE for s in (one, two)):
        return gettext(
            "The scoresheet's final scores are not possible ones, so it is not your report."
        )
    return (one, two) if game.player1_id == player.pk else (two, one)


def send(
    player: Player, game: Game, data: str | bytes, file: str = "", key: str | None = None
) -> Sent:
    """Save the player's scoresheet (`services.send_sheet`, which refuses as it says, and
    answers a `key` sent again as the first time); then, while the game has no result, take a
    whole verified sheet as the player's report (`services.report`), else say why it is none."""
    sheet = services.send_sheet(player, game, data, file, key=key)
    game = Game.objects.select_related("division", "player1", "player2").get(pk=game.pk)
    if game.has_result or game.player2_id is None:
        return Sent(sheet, "")
    scores = final_scores(game, player, sheet.engine_report)
    if isinstance(scores, str):
        return Sent(sheet, scores)
    try:
        outcome = services.report(player, game, *scores)
    except (services.ReportRefused, EntryError):
        return Sent(sheet, "")  # recorded meanwhile: the sheet is compared with the result
    return Sent(sheet, f"{_taken(scores)} {outcome.message}")


def _taken(scores: tuple[int, int]) -> str:
    return gettext("It is your report of the result: %(scores)s.") % {
        "scores": ltr_text(f"{scores[0]}–{scores[1]}")
    }


def note(game: Game, player: Player, sheet: Scoresheet) -> tuple[bool, str] | None:
    """What the sheet's page says of the player's sheet as their report, while the game has no
    result: (True, that it is their report) while their report is the sheet's scores, (False,
    why it is none) for a sheet that cannot be one; None otherwise (a report typed since)."""
    if game.has_result or game.player2_id is None or sheet.resolved:
        return None
    scores = final_scores(game, player, sheet.engine_report)
    if isinstance(scores, str):
        return False, scores
    claimed = Claim.objects.filter(game=game, player=player).values_list(
        "my_score", "opponent_score"
    )
    if tuple(claimed.first() or ()) != scores:
        return None
    return True, _taken(scores)
