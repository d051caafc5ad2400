"""A player says a recorded result is wrong, from their link (`/p/<token>/wrong`), and the
desk answers that it stands (from "Still to settle"): `phone/disputes.py` does the work."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from tournament.core import bounds
from tournament.core.access import get_desk_division
from tournament.core.language import ltr_text
from tournament.core.sentences import isolate
from tournament.models import DISPUTE_LENGTH, Dispute, Game, Player
from tournament.phone import disputes, offline
from tournament.phone import services as phone
from tournament.phone.views import TOO_MANY, _player


def _label(game: Game, player: Player) -> str:
    """A game in the list to choose from, as the player sees it: "Round 3, 2 Crane, Ben:
    420–380"; a bye or forfeit: "Round 3: bye (+50)"."""
    mine_first = game.player1_id == player.pk
    other = game.player2 if mine_first else game.player1
    mine, theirs = (game.score1, game.score2) if mine_first else (game.score2, game.score1)
    if other is None:
        what = f"{game.get_kind_display()} ({ltr_text(f'{mine:+d}' if mine else '0')})"
        return _("Round %(round)s: %(what)s") % {"round": game.round, "what": what}
    return _("Round %(round)s, %(opponent)s: %(scores)s") % {
        "round": game.round,
        "opponent": f"{other.number} {isolate(other.name)}",
        "scores": ltr_text(f"{mine}–{theirs}"),
    }


@require_http_methods(["GET", "POST"])
def dispute(request: HttpRequest, token: str) -> HttpResponse:
    """The form: which of the player's recorded games (`?game=`, else the latest) and what is
    wrong. A POST is one of the link's writes (`phone.allow`), then `disputes.open_dispute`;
    its optional `idempotency_key` goes with it."""
    player = _player(request, token)
    data = request.POST if request.method == "POST" else request.GET
    chosen = bounds.plain_number(data.get("game", "")) or 0
    text = request.POST.get("text", "")
    error = ""
    if request.method == "POST":
        # One of the link's writes, counted before the game is looked for.
        allowed = phone.allow(token)
        game = phone.game_of(player, chosen) if allowed else None
        if not allowed:
            error = str(TOO_MANY)
        elif game is None:
            error = _("This is not one of your games.")
        else:
            try:
                disputes.open_dispute(player, game, text, key=offline.key_of(request.POST))
            except disputes.DisputeRefused as refused:
                error = str(refused)
            else:
                messages.success(request, _("Sent to the desk. Its answer will be on this page."))
                return redirect("phone", token=token)
    games = disputes.disputable(player)
    if not any(g.pk == chosen for g in games):
        chosen = games[0].pk if games else 0
    ctx = {
        "player": player,
        "tournament": player.division.tournament,
        "token": token,
        "games": [(g.pk, _label(g, player)) for g in games],
        "chosen": chosen,
        "text": text[: DISPUTE_LENGTH * 4],
        "most": DISPUTE_LENGTH,
        "error": error,
    }
    response = render(request, "tournament/phone/dispute.html", ctx, status=400 if error else 200)
    response["Cache-Control"] = "no-store"
    return response


@login_required
@require_POST
def desk_answer(request: HttpRequest, slug: str, division_id: int, dispute_id: int) -> HttpResponse:
    """The desk answers a dispute: the result stands (its directors and scorekeepers). Back to
    the round's entry page when sent from it (`back=entry`), else to the dashboard."""
    division = get_desk_division(request, slug, division_id, scorekeeper=True)
    found = get_object_or_404(Dispute, pk=dispute_id, game__division=division)
    try:
        disputes.answer_stands(found, request.user)
        messages.success(
            request,
            _("Answered: the result stands. %(name)s's phone says so, and the opponent's.")
            % {"name": isolate(found.player.name)},
        )
    except disputes.DisputeRefused as refused:
        messages.error(request, str(refused))
    if request.POST.get("back") == "entry":
        where = reverse("desk-entry", args=[slug, division.pk, found.game.round])
    else:
        where = reverse("desk-dashboard", args=[slug])
    return redirect(where + "#unresolved")
