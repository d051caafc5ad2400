"""The desk's scoresheets: typed or uploaded records, checked by the engine as they are typed,
assigned to games, resolved or released when they are held.

The work is done in `scoresheets/services.py`; these views read forms, call it and show what it
says.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournament.core import bounds, changes
from tournament.core.access import (
    get_desk_division,
    get_desk_game,
    get_desk_scoresheet,
    get_desk_tournament,
)
from tournament.core.errors import EntryError
from tournament.core.forms import form_error
from tournament.core.sheet_report import SheetReport
from tournament.models import Game, Scoresheet
from tournament.scoresheets import board_entry, viewer
from tournament.scoresheets import services as scoresheets
from tournament.scoresheets.forms import (
    AssignForm,
    ResolveForm,
    ScoresheetTextForm,
    SingleUploadForm,
    UploadForm,
)


def _sheet_lines(text: str, report: SheetReport) -> list[dict[str, Any]]:
    """Each line of the record beside what the engine made of it."""
    turns = report.turns_by_line()
    findings = report.findings_by_line()
    rows = []
    for number, line in enumerate(text.splitlines(), start=1):
        turn = turns.get(number)
        rows.append(
            {
                "number": number,
                "text": line,
                "turn": turn,
                "wrong": turn is not None and turn.wrong,
                "findings": findings.get(number, []),
            }
        )
    return rows


def saved_by_script(request: HttpRequest) -> bool:
    """Whether a sheet is saved by the board entry's script, which is answered in JSON (where
    to go next, or why it was not saved) instead of a page."""
    return request.headers.get("X-Spread-Board") == "save"


def _saved(request: HttpRequest, sheet: Scoresheet, message: str) -> HttpResponse:
    url = reverse("desk-scoresheet", args=[sheet.game.division.tournament.slug, sheet.pk])
    if saved_by_script(request):
        return JsonResponse({"saved": url, "message": message})
    return redirect(url)


def _scoresheet_form_page(
    request: HttpRequest, game: Game, form: ScoresheetTextForm, sheet: Scoresheet | None = None
) -> HttpResponse:
    if saved_by_script(request) and form.errors:
        return JsonResponse({"error": form_error(form)}, status=400)
    slug = game.division.tournament.slug
    save_url = (
        reverse("desk-scoresheet-edit", args=[slug, sheet.pk])
        if sheet
        else reverse("desk-scoresheet-new", args=[slug, game.pk])
    )
    context = {
        "tournament": game.division.tournament,
        "division": game.division,
        "game": game,
        "form": form,
        "sheet": sheet,
        "check_url": reverse(
            "desk-scoresheet-check", args=[game.division.tournament.slug, game.pk]
        ),
        "board": board_entry.board_context(
            game,
            sheet.gcg if sheet else "",
            turn_url=reverse("desk-scoresheet-turn", args=[slug, game.pk]),
            save_url=save_url,
            saved=sheet.gcg if sheet else "",
        ),
    }
    return render(request, "tournament/scoresheets/scoresheet_form.html", context)


@login_required
def scoresheet_new(request: HttpRequest, slug: str, game_id: int) -> HttpResponse:
    game = get_desk_game(request, slug, game_id, scorekeeper=True)
    if request.method == "POST":
        form = ScoresheetTextForm(request.POST)
        if form.is_valid():
            try:
                sheet = scoresheets.attach_scoresheet(game, form.cleaned_data["gcg"], request.user)
            except scoresheets.DuplicateScoresheet as duplicate:
                if not saved_by_script(request):
                    form.add_error("gcg", str(duplicate))
                else:  # saved twice from the board: nothing changes, and the sheet is there
                    messages.warning(request, str(duplicate))
                    return _saved(request, duplicate.sheet, str(duplicate))
            except EntryError as refused:
                form.add_error("gcg", str(refused))
            else:
                messages.success(request, _sheet_message(sheet))
                return _saved(request, sheet, _sheet_message(sheet))
    else:
        form = ScoresheetTextForm(initial={"gcg": scoresheets.scoresheet_header(game)})
    return _scoresheet_form_page(request, game, form)


@login_required
def scoresheet_edit(request: HttpRequest, slug: str, sheet_id: int) -> HttpResponse:
    sheet = get_desk_scoresheet(request, slug, sheet_id, scorekeeper=True)
    if request.method == "POST":
        form = ScoresheetTextForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            try:
                sheet = scoresheets.update_scoresheet(
                    sheet, data["gcg"], request.user, data["reason"]
                )
            except EntryError as refused:
                form.add_error("gcg", str(refused))
            else:
                messages.success(request, _sheet_message(sheet))
                return _saved(request, sheet, _sheet_message(sheet))
    else:
        form = ScoresheetTextForm(initial={"gcg": sheet.gcg})
    return _scoresheet_form_page(request, sheet.game, form, sheet)


@login_required
@require_POST
def scoresheet_check(request: HttpRequest, slug: str, game_id: int) -> JsonResponse:
    game = get_desk_game(request, slug, game_id, scorekeeper=True)
    try:
        return JsonResponse(scoresheets.live_check(game, request.POST.get("gcg", "")))
    except bounds.RecordRefused as over:
        return JsonResponse({"error": str(over)}, status=413)


@login_required
@require_POST
def scoresheet_turn(request: HttpRequest, slug: str, game_id: int) -> JsonResponse:
    """A turn tapped on the board of the desk's typing page, placed and scored by the engine
    (`board_entry.board_turns`, as on a player's phone)."""
    game = get_desk_game(request, slug, game_id, scorekeeper=True)
    first = bounds.plain_number(request.POST.get("first", "0")) or 0
    try:
        return JsonResponse(
            board_entry.board_turns(
                game, request.POST.get("gcg", ""), request.POST.get("turns", ""), first
            )
        )
    except board_entry.Unreadable as unread:
        return JsonResponse({"refused": str(unread), "turn": 0}, status=400)
    except bounds.RecordRefused as over:
        return JsonResponse({"error": str(over)}, status=413)


def _sheet_message(sheet: Scoresheet) -> str:
    findings = len(sheet.engine_report.findings)
    text = "Scoresheet saved: " + ("verified" if sheet.verified else f"{findings} finding(s)")
    if sheet.flagged:
        text += "; its final scores differ from the entered result, so it is flagged"
    said = scoresheets.penalty_differences(sheet.game, sheet.engine_report)
    return " ".join([text + ".", *said])


def read_upload(upload: Any) -> bytes | None:
    """An uploaded scoresheet's bytes, read no further than the bound; None over it."""
    data = upload.read(bounds.MAX_SCORESHEET_BYTES + 1)
    return None if len(data) > bounds.MAX_SCORESHEET_BYTES else data


@login_required
@require_POST
def scoresheet_upload(request: HttpRequest, slug: str, game_id: int) -> HttpResponse:
    game = get_desk_game(request, slug, game_id, scorekeeper=True)
    form = SingleUploadForm(request.POST, request.FILES)
    if not form.is_valid():
        messages.error(request, form_error(form))
        return redirect("desk-game", slug, game.pk)
    upload = form.cleaned_data["file"]
    data = read_upload(upload)
    if data is None:
        messages.error(
            request, gettext("%(name)s is too large to be a scoresheet.") % {"name": upload.name}
        )
        return redirect("desk-game", slug, game.pk)
    try:
        sheet = scoresheets.attach_scoresheet(game, data, request.user, upload.name)
    except scoresheets.DuplicateScoresheet as duplicate:
        messages.warning(request, str(duplicate))
        return redirect("desk-scoresheet", slug, duplicate.sheet.pk)
    except EntryError as refused:
        messages.error(request, str(refused))
        return redirect("desk-game", slug, game.pk)
    messages.success(request, _sheet_message(sheet))
    return redirect("desk-scoresheet", slug, sheet.pk)


@login_required
def scoresheet(request: HttpRequest, slug: str, sheet_id: int) -> HttpResponse:
    sheet = get_desk_scoresheet(request, slug, sheet_id, scorekeeper=True)
    game = sheet.game
    report = scoresheets.current_report(sheet)
    context = {
        "tournament": game.division.tournament,
        "division": game.division,
        "game": game,
        "sheet": sheet,
        "report": report,
        "result": changes.result_text(changes.snapshot(game)),
        "scores": scoresheets.sheet_scores(game, report),
        "penalty_differences": scoresheets.penalty_differences(game, report),
        "record_findings": report.record_findings,
        "lines": _sheet_lines(sheet.gcg, report),
        "resolve_form": ResolveForm(),
        # Resolving or publishing a held sheet shows it to the public: for directors only.
        "may_publish": game.division.tournament.is_director(request.user),
        "viewer": viewer.viewer_context(
            report,
            viewer.turn_param(request.GET.get("turn")),
            viewer.turn_param(request.GET.get("page")),
        ),
        "gcg_url": reverse("desk-gcg", args=[slug, sheet.pk]),
        "pdf_url": reverse("desk-game-record", args=[slug, sheet.pk]),
    }
    return render(request, "tournament/scoresheets/scoresheet.html", context)


@login_required
@require_POST
def scoresheet_resolve(request: HttpRequest, slug: str, sheet_id: int) -> HttpResponse:
    sheet = get_desk_scoresheet(request, slug, sheet_id, scorekeeper=True)
    if sheet.held:
        # Resolving a held sheet shows it to the public, as publishing it anyway does: the
        # same right, a director's (a scorekeeper is told so by the 403 page).
        get_desk_tournament(request, slug)
    form = ResolveForm(request.POST)
    reason = form.cleaned_data["reason"] if form.is_valid() else ""
    try:
        scoresheets.resolve_scoresheet(sheet, request.user, reason)
    except EntryError as refused:
        messages.error(request, str(refused))
    else:
        messages.success(request, gettext("Resolved: the scoresheet is off the dashboard."))
    return redirect("desk-scoresheet", slug, sheet.pk)


@login_required
@require_POST
def scoresheet_release(request: HttpRequest, slug: str, sheet_id: int) -> HttpResponse:
    """A held scoresheet (flagged, or with error findings) shown to the public anyway."""
    sheet = get_desk_scoresheet(request, slug, sheet_id)
    form = ResolveForm(request.POST)
    reason = form.cleaned_data["reason"] if form.is_valid() else ""
    try:
        scoresheets.release_scoresheet(sheet, request.user, reason)
    except EntryError as refused:
        messages.error(request, str(refused))
    else:
        messages.success(request, _("Published: the public pages show the scoresheet."))
    return redirect("desk-scoresheet", slug, sheet.pk)


@login_required
def upload(request: HttpRequest, slug: str, division_id: int) -> HttpResponse:
    """Many GCG files at once: each goes to the game its players' names point to; the director
    picks the game for the others, whose text comes back with the form (nothing is half saved)."""
    division = get_desk_division(request, slug, division_id, scorekeeper=True)
    attached: list[Scoresheet] = []
    pending: list[dict[str, Any]] = []
    errors: list[str] = []
    form = UploadForm()
    if request.method == "POST" and request.POST.get("action") == "assign":
        games = {str(g.pk): g for g in division.games.all()}
        assign = AssignForm(request.POST)
        if not assign.is_valid():
            errors.append(form_error(assign))
        for i in range(assign.cleaned_data["count"] if assign.is_valid() else 0):
            name = request.POST.get(f"name_{i}", "")[:200]
            text = request.POST.get(f"text_{i}", "")
            chosen = games.get(request.POST.get(f"game_{i}", ""))
            if chosen is None:
                errors.append(f"{name}: no game chosen, not saved.")
                continue
            try:
                attached.append(scoresheets.attach_scoresheet(chosen, text, request.user, name))
            except EntryError as refused:
                errors.append(f"{name}: {refused}")
    elif request.method == "POST":
        form = UploadForm(request.POST, request.FILES)
        if form.is_valid():
            round_number = form.cleaned_data["round"]
            for upload in form.cleaned_data["files"]:
                data = read_upload(upload)
                if data is None:
                    errors.append(f"{upload.name} is too large to be a scoresheet.")
                    continue
                try:
                    text = bounds.record_text(data)  # within the bounds before it is read
                except bounds.RecordRefused as refused:
                    errors.append(f"{upload.name}: {refused}")
                    continue
                found, candidates = scoresheets.match_game(division, text, round_number)
                if found is not None:
                    try:
                        sheet = scoresheets.attach_scoresheet(
                            found, text, request.user, upload.name
                        )
                    except EntryError as refused:
                        errors.append(f"{upload.name}: {refused}")
                        continue
                    attached.append(sheet)
                else:
                    pending.append(
                        {
                            "name": upload.name,
                            "text": text,
                            "candidates": candidates,
                        }
                    )
    context = {
        "tournament": division.tournament,
        "division": division,
        "form": form,
        "attached": attached,
        "pending": pending,
        "errors": errors,
        "games": division.games.filter(player2__isnull=False).select_related("player1", "player2"),
    }
    return render(request, "tournament/scoresheets/upload.html", context)
