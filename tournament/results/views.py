"""The desk's entry of results: a round's entry page, the typed line and the game form, undo,
and a game's own page with its changes.

Every page needs a login and answers 403 to anyone who is not one of the tournament's directors
(or scorekeepers, where they may), so no edit control is ever shown to them. The work is done in
`results/services.py` and `results/corrections.py`; these views read forms, call them and show
what they say.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournament.core import bounds
from tournament.core.access import (
    get_desk_division,
    get_desk_game,
)
from tournament.core.changes import RESOLVE, UPLOAD, change_text, kind_label, result_text, snapshot
from tournament.core.forms import form_error
from tournament.core.sentences import isolate, penalty_note
from tournament.hall import clock as hall_clock
from tournament.models import Change, Division, Game
from tournament.results import corrections, unresolved
from tournament.results import services as results
from tournament.results.forms import EntryForm, GameResultForm
from tournament.scoresheets.forms import SingleUploadForm
from tournament.standings import read_model
from tournament.standings import stamps as division_stamps


def _wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


def change_rows(changes: Any) -> list[dict[str, Any]]:
    return [
        {
            "change": c,
            "before": change_text(c.before),
            "after": change_text(c.after),
        }
        for c in changes
    ]


_ROUND_COLUMNS = (
    "pk", "table", "score1", "score2", "first", "kind",
    "player1__number", "player1__name", "player2_id", "player2__number", "player2__name",
    "penalty1", "penalty2",
)  # fmt: skip


def round_rows_html(division: Division, round_number: int) -> str:
    """The rows of the round's games for the desk's entry table, written in one pass from plain
    values: a template loop over 250 games' model instances cost most of a save at 500 players."""
    rows = [html for _, html in round_rows(division, round_number)]
    if not rows:
        text = _("Round %(round)s has no pairings yet.") % {"round": round_number}
        rows.append(f'<tr><td colspan="7" class="muted">{escape(text)}</td></tr>')
    return "\n".join(rows)


def round_rows(
    division: Division, round_number: int, pks: Iterable[int] | None = None
) -> list[tuple[int, str]]:
    """Each game's row of the round's entry table, by the game's key, in the table's order;
    only the games `pks` where given (the rows a save changed, which the desk's page patches
    in: `static/desk-entry.js`)."""
    games = division.games.filter(round=round_number)
    if pks is not None:
        games = games.filter(pk__in=list(pks))
    marker = 987654321  # a game's address, with the game's own key put in below
    url = reverse("desk-game", args=[division.tournament.slug, marker])
    head, tail = (escape(part) for part in url.split(str(marker)))
    rows = []
    for values in games.values_list(*_ROUND_COLUMNS):
        pk, table, score1, score2, first, kind, n1, name1, p2, n2, name2, t1, t2 = values
        done = score1 is not None and (p2 is None or score2 is not None)
        cells = [
            _number(table),
            f"{n1} <bdi>{escape(name1)}</bdi>",
            _number(score1) + _penalty(t1),
        ]
        if p2 is not None:
            who = n1 if first == 1 else n2 if first == 2 else ""
            tail_cells = (
                f"<td>{n2} <bdi>{escape(name2)}</bdi></td>"
                f'<td class="num">{_number(score2)}{_penalty(t2)}</td>'
                f"<td>{who}</td>"
            )
        else:
            if kind == Game.FORFEIT and score1 is not None:
                what = escape(_("forfeit win") if score1 > 0 else _("forfeit loss"))
            else:
                what = escape(kind_label(kind))
            tail_cells = f'<td colspan="3" class="muted">{what}</td>'
        link = escape(_("correct") if done else _("open"))
        rows.append(
            (
                pk,
                f'<tr class="{"" if done else "missing"}" data-game="{pk}">'
                f'<td>{cells[0]}</td><td>{cells[1]}</td><td class="num">{cells[2]}</td>'
                f'{tail_cells}<td><a href="{head}{pk}{tail}">{link}</a></td></tr>',
            )
        )
    return rows


def _number(value: int | None) -> str:
    return "" if value is None else str(value)


def _penalty(points: int) -> str:
    """A score's time penalty after it in the round's table: ` (−20 time)`, or nothing."""
    if not points:
        return ""
    return f' <span class="penalty">{escape(penalty_note(points))}</span>'


def _notes_context(request: HttpRequest, division: Division, round_number: int) -> dict[str, Any]:
    """The entry page's round but its table: what is unresolved, undo, the latest changes."""
    recent = Change.objects.filter(
        game__division=division, game__round=round_number
    ).select_related("user", "player", "game", "scoresheet")
    assert request.user.is_authenticated  # a desk's page
    undoable = corrections.last_undoable(division, request.user)
    return {
        "tournament": division.tournament,
        "division": division,
        "round": round_number,
        "recent": change_rows(recent[:10]),
        "undoable": undoable,
        "undoable_text": change_text(undoable.after) if undoable else "",
        "unresolved": unresolved.for_division(division, round_number),
    }


def _round_context(request: HttpRequest, division: Division, round_number: int) -> dict[str, Any]:
    rows = mark_safe(round_rows_html(division, round_number))  # noqa: S308 - escaped there
    return {**_notes_context(request, division, round_number), "game_rows": rows}


def _entry_page(
    request: HttpRequest,
    division: Division,
    round_number: int,
    form: EntryForm,
    error: str = "",
    status: int = 200,
) -> HttpResponse:
    context = _round_context(request, division, round_number)
    context.update(
        # The round's clock, for its directors (scorekeepers enter results, not the clock).
        clock=hall_clock.desk_panel(division, request.user),
        form=form,
        error=error,
        rounds=results.round_summaries(division),
        bye_spread=division.bye_spread,
        forfeit_spread=division.forfeit_spread,
        limits={
            "low": results.LOW_SCORE,
            "high": results.HIGH_SCORE,
            "spread": results.BIG_SPREAD,
            "min": results.MIN_SCORE,
            "max": results.MAX_SCORE,
        },
        per_minute=results.division_rules(division).time_penalty_per_minute,
    )
    return render(request, "tournament/results/entry.html", context, status=status)


def _round_html(request: HttpRequest, division: Division, round_number: int) -> str:
    return render_to_string(
        "tournament/results/_round.html", _round_context(request, division, round_number), request
    )


def _round_patch(
    request: HttpRequest, division: Division, round_number: int, change: Change
) -> dict[str, Any]:
    """What a save changed on the round's entry page, for `static/desk-entry.js` to patch in:
    the rows of the games it wrote (`rows`, by game), what is unresolved and the round's notes
    (undo, the latest changes). The whole round (`html`) where the save made a game the page
    does not show (a forfeit's win for the opponent)."""
    sides = [(change.before or {}).get("games") or [], (change.after or {}).get("games") or []]
    before, after = ({s["id"] for s in side if isinstance(s, dict)} for side in sides)
    if after - before:
        return {"html": _round_html(request, division, round_number)}
    context = _notes_context(request, division, round_number)
    unresolved_html = render_to_string(
        "tournament/results/_unresolved.html", {"items": context["unresolved"]}, request
    )
    return {
        "rows": {str(pk): row for pk, row in round_rows(division, round_number, before | after)},
        "unresolved": unresolved_html,
        "notes": render_to_string("tournament/results/_round_notes.html", context, request),
    }


@login_required
def entry(request: HttpRequest, slug: str, division_id: int, round_number: int) -> HttpResponse:
    division = get_desk_division(request, slug, division_id, scorekeeper=True)
    return _entry_page(request, division, round_number, EntryForm())


@login_required
def entry_check(
    request: HttpRequest, slug: str, division_id: int, round_number: int
) -> JsonResponse:
    division = get_desk_division(request, slug, division_id, scorekeeper=True)
    first_as_typed = request.GET.get("first_as_typed") in ("1", "on")
    check = results.check_line(division, round_number, request.GET.get("line", ""), first_as_typed)
    return JsonResponse(check.as_dict())


def _records_now(division: Division, change: Change) -> str:
    """Both players' record and cumulative spread after an entry, so that a wrong slip (a
    score put to the wrong player) stands out at once: "Now: Quill, Ada 2–0 +155; …"."""
    numbers = []
    for g in (change.after or {}).get("games", []):
        numbers += [n for n in (g["player1"], g["player2"]) if n is not None]
    # Their own games only: the whole division's standings would be computed afresh after
    # every save (a result replaces the stamp they are kept under).
    rows = read_model.records_of(
        division, numbers, public=False, stamps=division_stamps.read(division)
    )
    if not rows:
        return ""
    shown = gettext("; ").join(
        gettext("%(name)s %(record)s %(spread)s")
        % {
            "name": isolate(r.name),
            "record": isolate(r.record),
            "spread": isolate(f"{r.spread:+d}"),
        }
        for r in rows
    )
    return gettext("Now: %(records)s.") % {"records": shown}


def saved_text(change: Change) -> str:
    """What a save at the desk wrote, in a sentence: "Saved: 4 Ada 390 – 1 Ben 350"."""
    return gettext("Saved: %(change_text)s") % {"change_text": change_text(change.after)}


@login_required
@require_POST
def enter(request: HttpRequest, slug: str, division_id: int, round_number: int) -> HttpResponse:
    division = get_desk_division(request, slug, division_id, scorekeeper=True)
    form = EntryForm(request.POST)
    status = 400
    if not form.is_valid():
        error = form_error(form)
    else:
        data = form.cleaned_data
        try:
            change = results.enter_line(
                division,
                round_number,
                data["line"],
                request.user,
                data["version"],
                data["reason"],
                first_as_typed=data["first_as_typed"],
            )
        except results.StaleResult as stale:
            error, status = str(stale), 409
        except results.EntryError as refused:
            error = str(refused)
        else:
            message = saved_text(change)
            records = " ".join(filter(None, [_records_now(division, change), *change.said]))
            if _wants_json(request):
                return JsonResponse(
                    {
                        "ok": True,
                        "message": message,
                        "records": records,
                        "pairings": change.said,
                        **_round_patch(request, division, round_number, change),
                    }
                )
            messages.success(
                request,
                gettext("%(message)s. %(records)s") % {"message": message, "records": records},
            )
            return redirect("desk-entry", division.tournament.slug, division.pk, round_number)
    if _wants_json(request):
        return JsonResponse({"ok": False, "error": error, "stale": status == 409}, status=status)
    return _entry_page(request, division, round_number, form, error, status)


@login_required
@require_POST
def undo(request: HttpRequest, slug: str, division_id: int) -> HttpResponse:
    division = get_desk_division(request, slug, division_id, scorekeeper=True)
    round_text = request.POST.get("round", "")
    round_number = bounds.plain_number(round_text)
    assert request.user.is_authenticated  # login_required
    try:
        change = corrections.undo_last(division, request.user)
    except results.EntryError as refused:
        ok, message, status = False, str(refused), 409
    else:
        ok, status = True, 200
        message = " ".join(
            [
                gettext("Undone: back to %(change_text)s")
                % {"change_text": change_text(change.after)},
                *change.said,
            ]
        )
    if _wants_json(request):
        payload: dict[str, Any] = {"ok": ok, "message" if ok else "error": message}
        if round_number:
            payload["html"] = _round_html(request, division, round_number)
        return JsonResponse(payload, status=status)
    (messages.success if ok else messages.error)(request, message)
    if round_number:
        return redirect("desk-entry", division.tournament.slug, division.pk, round_number)
    return redirect("desk-dashboard", division.tournament.slug)


def _game_changes(game: Game) -> list[dict[str, Any]]:
    found = [c for c, _, _ in results.changes_touching(game)]
    found += list(game.change_set.filter(action__in=(UPLOAD, RESOLVE, Change.Action.DISPUTE)))
    unique = {c.pk: c for c in found}
    return change_rows(sorted(unique.values(), key=lambda c: (c.at, c.pk), reverse=True))


@login_required
def game(request: HttpRequest, slug: str, game_id: int) -> HttpResponse:
    game = get_desk_game(request, slug, game_id, scorekeeper=True)
    error, status = "", 200
    if request.method == "POST":
        form = GameResultForm(request.POST, game=game)
        if form.is_valid():
            data = form.cleaned_data
            try:
                change = corrections.correct_game(
                    game,
                    request.user,
                    data["version"],
                    data["reason"],
                    data["score1"],
                    data.get("score2"),
                    data.get("first"),
                    data.get("kind"),
                )
            except results.StaleResult as stale:
                error, status = str(stale), 409
                game.refresh_from_db()
                # The director's values stay in the form, now against the stored version: a
                # second save is a choice made after reading what changed.
                fresh = request.POST.copy()
                fresh["version"] = str(game.version)
                form = GameResultForm(fresh, game=game)
            except results.EntryError as refused:
                error, status = str(refused), 400
            else:
                said = [saved_text(change), *change.said]
                messages.success(request, " ".join(filter(None, said)))
                return redirect("desk-game", slug, game.pk)
        else:
            status = 400
    else:
        form = GameResultForm(game=game)
    context = {
        "tournament": game.division.tournament,
        "division": game.division,
        "game": game,
        "result": result_text(snapshot(game)),
        "form": form,
        "error": error,
        "scoresheets": game.scoresheets.select_related("uploaded_by", "sent_by"),
        "upload_form": SingleUploadForm(),
        "changes": _game_changes(game),
    }
    return render(request, "tournament/results/game.html", context, status=status)
