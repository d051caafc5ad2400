"""A division's playoff: set up and entered at the desk, shown on its public page
(`tournament/playoffs/services.py` does the work)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournament.core import bounds
from tournament.core.access import get_desk_division, get_public_division, get_public_tournament
from tournament.core.sentences import isolate
from tournament.playoffs import services as playoffs
from tournament.playoffs.services import PlayoffRefused
from tournament.standings import read_model
from tournament.standings.pages import Page


class SetUpForm(forms.Form):
    seeds = forms.IntegerField(
        label=gettext_lazy("Players"),
        min_value=2,
        max_value=playoffs.MAX_SEEDS,
        initial=2,
        help_text=gettext_lazy(
            "The top of the standings: 2 play a final; more play a single-elimination "
            "bracket (1 meets the last seed; byes to the top seeds when short of a power of two)."
        ),
    )
    length = forms.TypedChoiceField(
        label=gettext_lazy("Each match is best of"),
        choices=[(n, str(n)) for n in playoffs.LENGTHS],
        coerce=int,
        initial=5,
    )
    after = forms.IntegerField(
        label=gettext_lazy("Seeded from the standings after round"), min_value=1
    )


def _score(text: str) -> int | None:
    text = text.strip()
    negative = text.startswith("-")
    number = bounds.plain_number(text[1:] if negative else text)
    return None if number is None else (-number if negative else number)


def _matches(state: playoffs.State) -> list[dict[str, Any]]:
    """Each stage's matches with their players, for the pages."""
    seed_of = {pk: n for n, pk in enumerate(state.playoff.seeds, start=1)}
    stages = []
    for stage in state.stages:
        rows = []
        for m in stage:
            if m.series is None:
                bye = state.players[int(str(m.bye))]
                rows.append({"match": m, "bye": bye, "seed": seed_of[bye.pk]})
                continue
            one = state.players[int(str(m.series.seed1))]
            two = state.players[int(str(m.series.seed2))]
            games = [
                {"number": n, "score1": g.score1, "score2": g.score2}
                for n, g in enumerate(m.series.games, start=1)
            ]
            next_game = len(games) + 1
            first = m.series.first_in(next_game)
            rows.append(
                {
                    "match": m,
                    "one": one,
                    "two": two,
                    "seed1": seed_of[one.pk],
                    "seed2": seed_of[two.pk],
                    "games": games,
                    "winner": state.players[int(str(m.winner))] if m.winner is not None else None,
                    "next_game": next_game,
                    "next_first": one if first == m.series.seed1 else two,
                    "open": not m.series.decided,
                }
            )
        stages.append({"name": state.stage_name(stage[0].stage), "matches": rows})
    return stages


@login_required
def desk_playoff(request: HttpRequest, slug: str, division_id: int) -> HttpResponse:
    division = get_desk_division(request, slug, division_id)
    last = read_model.last_result_round(division)
    form = SetUpForm(initial={"after": last or None})
    status = 200
    if request.method == "POST":
        action = request.POST.get("action")
        try:
            if action == "setup":
                form = SetUpForm(request.POST)
                if form.is_valid():
                    playoffs.set_up(
                        division,
                        form.cleaned_data["seeds"],
                        form.cleaned_data["length"],
                        form.cleaned_data["after"],
                        request.user,
                    )
                    messages.success(request, _("The playoff is set up."))
                    return redirect("desk-playoff", slug, division.pk)
                status = 400
            elif action == "game":
                stage = bounds.plain_number(request.POST.get("stage", "")) or 0
                slot = bounds.plain_number(request.POST.get("slot", "")) or 0
                score1 = _score(request.POST.get("score1", ""))
                score2 = _score(request.POST.get("score2", ""))
                if score1 is None or score2 is None:
                    raise PlayoffRefused(_("Type both scores, as plain numbers."))
                game = playoffs.enter_game(division, stage, slot, score1, score2, request.user)
                messages.success(
                    request,
                    _("Game %(n)d: %(p1)s %(s1)d, %(p2)s %(s2)d.")
                    % {
                        "n": game.number,
                        "p1": isolate(game.player1.name),
                        "s1": game.score1,
                        "p2": isolate(game.player2.name),
                        "s2": game.score2,
                    },
                )
                return redirect("desk-playoff", slug, division.pk)
            elif action == "publish":
                playoffs.publish(division, request.user)
                messages.success(request, _("The playoff is public now."))
                return redirect("desk-playoff", slug, division.pk)
            elif action == "undo":
                playoffs.remove_last_game(division, request.user)
                messages.success(request, _("The last playoff game is taken back."))
                return redirect("desk-playoff", slug, division.pk)
            elif action == "cancel":
                playoffs.cancel(division, request.user)
                messages.success(request, _("The playoff is removed."))
                return redirect("desk-playoff", slug, division.pk)
        except PlayoffRefused as refused:
            messages.error(request, str(refused))
            status = 409
    state = playoffs.state(division)
    context = {
        "tournament": division.tournament,
        "division": division,
        "form": form,
        "state": state,
        "stages": _matches(state) if state else [],
        "last": last,
    }
    return render(request, "tournament/playoffs/desk_playoff.html", context, status=status)


def playoff(request: HttpRequest, page: Page[None], slug: str, division: str) -> HttpResponse:
    """The division's playoff for everyone: each match's series, game by game."""
    tournament = get_public_tournament(request, slug)
    div = get_public_division(tournament, division)
    state = playoffs.state(div, public=True)
    context = {
        "tournament": tournament,
        "division": div,
        "state": state,
        "stages": _matches(state) if state else [],
    }
    return render(request, "tournament/playoffs/playoff.html", context)
