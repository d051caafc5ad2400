"""The desk's pairing pages: pair a round, check it, swap players, pair by hand, publish, and the
division's settings. The work is done in `pairing/services.py`."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.db.models import F
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import get_language, gettext, ngettext
from django.views.decorators.http import require_POST

from scoring.i18n import translator
from tournament.core import bounds, changes, sentences
from tournament.core.access import get_desk_division
from tournament.core.forms import form_error
from tournament.engine.pairing import SYSTEMS
from tournament.models import Division, Game, Round
from tournament.pairing import services
from tournament.pairing import systems as pairing_systems
from tournament.pairing.forms import DivisionSettingsForm, ManualPairingsForm, PairForm, SwapForm
from tournament.results import services as results
from tournament.standings import queries, read_model
from tournament.standings import stamps as division_stamps
from tournament.standings.tables import fixed_table_legend


def tell(request: HttpRequest, said: list[str]) -> None:
    """What a change did to later rounds' pairings (`services.revisit`), on the next page."""
    for sentence in said:
        messages.info(request, sentence)


def _round_rows(division: Division, round_number: int) -> list[dict[str, Any]]:
    """The round's games with each player's standing before it, for the preview."""
    standings = {
        row.player.pk: row
        for row in read_model.division_standings(
            division, public=False, stamps=division_stamps.read(division)
        )
    }
    games = (
        division.games.filter(round=round_number)
        .select_related("player1", "player2")
        .order_by(F("table").asc(nulls_last=True), "pk")  # byes after the tables, on any database
    )
    met: dict[frozenset[int], int] = {}
    for g in division.games.filter(round__lt=round_number).exclude(player2=None):
        key = frozenset((g.player1_id, g.player2_id))
        met[key] = met.get(key, 0) + 1
    rows = []
    for g in games:
        rows.append(
            {
                "game": g,
                "one": standings.get(g.player1_id),
                "two": standings.get(g.player2_id) if g.player2_id else None,
                "met": met.get(frozenset((g.player1_id, g.player2_id)), 0) if g.player2_id else 0,
            }
        )
    return rows


def past_plan(division: Division, round_number: int | None) -> str | None:
    """The question the desk asks before pairing a round past the division's planned rounds
    (none while the plan has room, for a division with no plan, or for a round past it already
    paired, whose pairing is only made again)."""
    planned = division.planned_rounds
    if not planned or round_number is None or round_number <= planned:
        return None
    # A round past the last one with games has none (and is never looked up: any number).
    if (
        round_number < services.next_round(division)
        and division.games.filter(round=round_number).exists()
    ):
        return None
    return ngettext(
        "Round %(round)s is past the %(count)s planned round. Pair it anyway?",
        "Round %(round)s is past the %(count)s planned rounds. Pair it anyway?",
        planned,
    ) % {"round": round_number, "count": planned}


def _round_asked(form: PairForm, upcoming: int) -> int | None:
    """The round the pairing form holds: as typed once sent, else the next one."""
    if not form.is_bound:
        return upcoming
    return bounds.plain_number(str(form["round"].value() or "").strip())


def _pairing_page(
    request: HttpRequest, division: Division, form: PairForm | None = None, status: int = 200
) -> HttpResponse:
    states = {r.number: r for r in division.rounds.all()}
    summaries = results.round_summaries(division)
    upcoming = services.next_round(division)
    # Once the planned rounds are paired the page offers no next round: pairing past the plan is
    # a step of its own, asked first.
    planned = division.planned_rounds
    plan_done = bool(planned and upcoming > planned)
    entry = None
    if not plan_done:
        try:
            entry = services.schedule_entry(division, upcoming)
        except services.PairingRefused as error:
            messages.error(request, str(error))
    form = form or PairForm(initial={"round": upcoming})
    context = {
        "tournament": division.tournament,
        "division": division,
        "rounds": [(s, states.get(s.number)) for s in summaries],
        "upcoming": upcoming,
        "plan_done": plan_done,
        "past_plan": past_plan(division, _round_asked(form, upcoming)),
        "entry": entry,
        "form": form,
        "systems": pairing_systems.descriptions(list(SYSTEMS)),
    }
    return render(request, "tournament/pairing/pairing.html", context, status=status)


@login_required
def pairing(request: HttpRequest, slug: str, division_id: int) -> HttpResponse:
    division = get_desk_division(request, slug, division_id)
    return _pairing_page(request, division)


@login_required
@require_POST
def pair(request: HttpRequest, slug: str, division_id: int) -> HttpResponse:
    division = get_desk_division(request, slug, division_id)
    form = PairForm(request.POST)
    if not form.is_valid():
        messages.error(request, form_error(form))
        return _pairing_page(request, division, form, status=400)
    data = form.cleaned_data
    question = past_plan(division, data["round"])
    if question and not data["past_plan"]:
        # Refused as it is asked: the page comes back with the question to tick.
        messages.error(request, question)
        return _pairing_page(request, division, form, status=409)
    try:
        state = services.pair(
            division,
            data["round"],
            request.user,
            data["based_on"],
            data["system"] or None,
            data["repeats"],
        )
    except services.PairingRefused as refused:
        messages.error(request, str(refused))
        return _pairing_page(request, division, form, status=409)
    messages.success(
        request,
        gettext("Round %(number)s paired by %(system)s: check it, then publish.")
        % {"number": state.number, "system": state.system},
    )
    _tell_left_out(request, state)
    return redirect("desk-round-pairings", slug, division.pk, state.number)


def _tell_left_out(request: HttpRequest, state: Round) -> None:
    """Who the pairing left out and what each got (`pairing.missed`), as the round's notes
    say it: "Not checked in, so left out of round 1 with a forfeit loss (−50): Ed Fox"."""
    for note in state.notes:
        if str(note.get("code", "")).startswith("left_out_"):
            messages.warning(request, sentences.message(note))


@login_required
@require_POST
def pair_manual(
    request: HttpRequest, slug: str, division_id: int, round_number: int
) -> HttpResponse:
    division = get_desk_division(request, slug, division_id)
    form = ManualPairingsForm(request.POST)
    if not form.is_valid():
        messages.error(request, form_error(form))
        return redirect("desk-round-pairings", slug, division.pk, round_number)
    question = past_plan(division, round_number)
    if question and not form.cleaned_data["past_plan"]:
        messages.error(request, question)
        return redirect("desk-round-pairings", slug, division.pk, round_number)
    try:
        state = services.save_manual(
            division, round_number, form.cleaned_data["pairs"], request.user
        )
    except services.PairingRefused as refused:
        messages.error(request, str(refused))
    else:
        messages.success(
            request,
            gettext("Round %(round_number)s paired by hand: check it, then publish.")
            % {"round_number": round_number},
        )
        _tell_left_out(request, state)
    return redirect("desk-round-pairings", slug, division.pk, round_number)


@login_required
def round_pairings(
    request: HttpRequest, slug: str, division_id: int, round_number: int
) -> HttpResponse:
    division = get_desk_division(request, slug, division_id)
    state = Round.objects.filter(division=division, number=round_number).first()
    rows = _round_rows(division, round_number)
    warnings: list[Any] = []
    if rows and state is not None and state.basis:
        # The reasons and warnings of the results the round was paired from, as stored then;
        # the page says which results those were, and what has changed since.
        warnings = sentences.stored_warnings(state.warnings)
    elif rows:
        try:
            warnings = sentences.warnings(services.current_warnings(division, round_number))
        except services.PairingRefused as error:
            messages.error(request, str(error))
    for r in rows:
        game = r["game"]
        r["fixed"] = queries.at_fixed_table(game.table, game.player1, game.player2)
    manual_text = "\n".join(
        f"{r['game'].player1.number} {r['game'].player2.number if r['game'].player2 else 'bye'}"
        for r in rows
        if r["game"].kind not in (Game.VOID, Game.FORFEIT)  # an absent player's: made again
    )
    context = {
        "tournament": division.tournament,
        "division": division,
        "round": round_number,
        "state": state,
        "published": state is None or state.published,
        "rows": rows,
        "warnings": warnings,
        "beyond": services.beyond_range(division, [r["game"].table for r in rows]),
        "notes": services.note_lines(state),
        "has_results": any(r["game"].has_result and r["game"].kind != Game.BYE for r in rows),
        "stale": services.stale_text(state) if state is not None and state.stale else "",
        "basis_change": (state.basis or {}).get("change") if state is not None else None,
        "swap": SwapForm(),
        "manual": ManualPairingsForm(initial={"pairs": manual_text}),
        "past_plan": past_plan(division, round_number),
        "forfeit_spread": division.forfeit_spread,
        "fixed_legend": fixed_table_legend() if any(r["fixed"] for r in rows) else "",
        "simulation": _simulation(division, state),
    }
    return render(request, "tournament/pairing/round_pairings.html", context)


def _simulation(division: Division, state: Round | None) -> dict[str, Any] | None:
    """COP's table of chances for the page: names, and each chance in percent."""
    table = state.simulation if state is not None else None
    if not table:
        return None
    names = dict(division.players.values_list("pk", "name"))
    ordinal = translator(get_language()).ordinal
    return {
        "sims": table["sims"],
        "places": table["places"],
        "seed": table.get("seed", 0),
        "place_numbers": [ordinal(k) for k in range(1, table["places"] + 1)],
        "rows": [
            {
                "name": names.get(row["player"], str(row["player"])),
                "chances": [f"{100 * c:.1f}" for c in row["chances"]],
                "hopeful": ordinal(row["hopeful"]),
                "lowest": ordinal(row["lowest"]),
                "gibsonized": row["gibsonized"],
            }
            for row in table["rows"]
        ],
    }


@login_required
@require_POST
def swap(request: HttpRequest, slug: str, division_id: int, round_number: int) -> HttpResponse:
    division = get_desk_division(request, slug, division_id)
    form = SwapForm(request.POST)
    if not form.is_valid():
        messages.error(request, form_error(form))
    else:
        players = division.players.all()
        a = players.filter(number=form.cleaned_data["a"]).first()
        b = players.filter(number=form.cleaned_data["b"]).first()
        try:
            if a is None or b is None:
                missing = form.cleaned_data["a"] if a is None else form.cleaned_data["b"]
                raise services.PairingRefused(
                    gettext("No player %(missing)s in division %(name)s.")
                    % {"missing": missing, "name": division.name}
                )
            state = services.swap(division, round_number, a, b, request.user)
        except services.PairingRefused as refused:
            messages.error(request, str(refused))
        else:
            count = len(state.warnings)
            messages.success(
                request,
                ngettext(
                    "Swapped %(name)s and %(name2)s; %(count)s warning.",
                    "Swapped %(name)s and %(name2)s; %(count)s warnings.",
                    count,
                )
                % {"name": a.name, "name2": b.name, "count": count},
            )
    return redirect("desk-round-pairings", slug, division.pk, round_number)


@login_required
@require_POST
def publish(request: HttpRequest, slug: str, division_id: int, round_number: int) -> HttpResponse:
    division = get_desk_division(request, slug, division_id)
    stale_ok = request.POST.get("stale_ok") == "1"
    try:
        services.publish(division, round_number, request.user, stale_ok=stale_ok)
    except services.StaleRound as stale:
        # The page asks: it shows what changed, with a button that publishes all the same.
        messages.warning(request, str(stale))
    except services.PairingRefused as refused:
        messages.error(request, str(refused))
    else:
        messages.success(
            request,
            gettext("Round %(round_number)s published: players can see it now.")
            % {"round_number": round_number},
        )
    return redirect("desk-round-pairings", slug, division.pk, round_number)


@login_required
@require_POST
def unpair(request: HttpRequest, slug: str, division_id: int, round_number: int) -> HttpResponse:
    division = get_desk_division(request, slug, division_id)
    try:
        services.unpair(division, round_number, request.user)
    except services.PairingRefused as refused:
        messages.error(request, str(refused))
        return redirect("desk-round-pairings", slug, division.pk, round_number)
    messages.success(
        request,
        gettext("Round %(round_number)s's pairings were taken back.")
        % {"round_number": round_number},
    )
    return redirect("desk-pairing", slug, division.pk)


@login_required
@require_POST
def forfeit(request: HttpRequest, slug: str, division_id: int, round_number: int) -> HttpResponse:
    """Turn a pairing into a forfeit loss for the absent player and a win for the other."""
    division = get_desk_division(request, slug, division_id)
    number = bounds.plain_number(request.POST.get("player", "").strip())
    try:
        if number is None:
            raise results.EntryError(gettext("Choose the player who forfeits by their number."))
        change = results.enter_line(division, round_number, f"{number} forfeit", request.user)
    except results.EntryError as refused:
        messages.error(request, str(refused))
    else:
        messages.success(
            request,
            gettext("Saved: %(change_text)s") % {"change_text": changes.change_text(change.after)},
        )
        tell(request, change.said)
    return redirect("desk-round-pairings", slug, division.pk, round_number)


@login_required
def settings(request: HttpRequest, slug: str, division_id: int) -> HttpResponse:
    """The division's pairing and rating settings."""
    division = get_desk_division(request, slug, division_id)
    if request.method == "POST":
        form = DivisionSettingsForm(request.POST, instance=division)
        if form.is_valid():
            with transaction.atomic():
                form.save()
            messages.success(
                request,
                gettext("Division %(name)s's settings are saved.") % {"name": division.name},
            )
            return redirect("desk-pairing", slug, division.pk)
        status = 400
    else:
        form = DivisionSettingsForm(instance=division)
        status = 200
    context = {"tournament": division.tournament, "division": division, "form": form}
    return render(request, "tournament/pairing/settings.html", context, status=status)
