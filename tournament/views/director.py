"""The director's desk: a tournament's own directors enter and check its results here.

Every page needs a login; every page of a tournament answers 403 to anyone who is not one of
its directors, so no edit control is ever shown to them. The work is done in
`tournament/results.py`, `corrections.py` and `scoresheets.py`; these views read forms, call them,
and show what they say.
"""

from __future__ import annotations

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
    get_desk_scoresheet,
    get_desk_tournament,
    locked_sentence,
)
from tournament.core.sentences import isolate
from tournament.event import services as events
from tournament.forms import (
    AssignForm,
    EntryForm,
    GameResultForm,
    ResolveForm,
    ScoresheetTextForm,
    SingleUploadForm,
    UploadForm,
    form_error,
)
from tournament.models import Change, Division, Game, Scoresheet, Tournament
from tournament.pairing import services as rounds
from tournament.phone import services as selfservice
from tournament.players.services import latin_to_check
from tournament.results import corrections, unresolved
from tournament.results import services as results
from tournament.scoresheets import services as scoresheets
from tournament.scoresheets import viewer
from tournament.scoresheets.report import SheetReport
from tournament.standings import read_model

RECENT_CHANGES = 15


def _locked_text(tournament: Tournament) -> str:
    return locked_sentence(tournament) if tournament.locked else ""


def _wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


# -- the change log as rows ---------------------------------------------------------------------


def _change_rows(changes: Any) -> list[dict[str, Any]]:
    return [
        {
            "change": c,
            "before": results.change_text(c.before),
            "after": results.change_text(c.after),
        }
        for c in changes
    ]


def _changes(tournament: Tournament) -> Any:
    return tournament.changes.select_related("user", "player", "game", "scoresheet")


# -- pages --------------------------------------------------------------------------------------


@login_required
def index(request: HttpRequest) -> HttpResponse:
    context = {
        "tournaments": request.user.directed.all(),
        "scorekeeping": request.user.scorekeeping.all(),
        "may_create": events.may_create(request.user),
    }
    return render(request, "tournament/desk/index.html", context)


@login_required
def dashboard(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_desk_tournament(request, slug, scorekeeper=True)
    divisions = []
    for d in tournament.divisions.all():
        states = events.round_states(d)
        d.next_step = events.next_step(d, states)  # for the page: what to do next here
        divisions.append((d, states))
    sheets = (
        Scoresheet.objects.filter(game__division__tournament=tournament)
        .select_related("game__division", "game__player1", "game__player2")
        .defer("gcg")
    )
    sheets = list(sheets)
    context = {
        "tournament": tournament,
        "is_director": tournament.is_director(request.user),
        "unplayed": events.unplayed_rounds(tournament),
        "latin_to_check": latin_to_check(tournament),
        "may_create": events.may_create(request.user),
        "divisions": divisions,
        "flagged": [s for s in sheets if s.flagged and not s.resolved],
        "with_findings": [s for s in sheets if s.engine_report.findings],
        "changes": _change_rows(_changes(tournament)[:RECENT_CHANGES]),
        "unresolved": unresolved.for_tournament(tournament),
        "show_division": len(divisions) > 1,
    }
    return render(request, "tournament/desk/dashboard.html", context)


@login_required
def changes(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_desk_tournament(request, slug, scorekeeper=True)
    context = {"tournament": tournament, "changes": _change_rows(_changes(tournament))}
    return render(request, "tournament/desk/changes.html", context)


# -- result entry -------------------------------------------------------------------------------


_ROUND_COLUMNS = (
    "pk", "table", "score1", "score2", "first", "kind",
    "player1__number", "player1__name", "player2_id", "player2__number", "player2__name",
)  # fmt: skip


def round_rows_html(division: Division, round_number: int) -> str:
    """The rows of the round's games for the desk's entry table, written in one pass from plain
    values: the desk swaps the table in after every save, and a template loop over 250 games'
    model instances cost most of a save at 500 players."""
    games = division.games.filter(round=round_number).values_list(*_ROUND_COLUMNS)
    marker = 987654321  # a game's address, with the game's own key put in below
    url = reverse("desk-game", args=[division.tournament.slug, marker])
    head, tail = (escape(part) for part in url.split(str(marker)))
    rows = []
    for pk, table, score1, score2, first, kind, n1, name1, p2, n2, name2 in games:
        done = score1 is not None and (p2 is None or score2 is not None)
        cells = [
            _number(table),
            f"{n1} <bdi>{escape(name1)}</bdi>",
            _number(score1),
        ]
        if p2 is not None:
            who = n1 if first == 1 else n2 if first == 2 else ""
            tail_cells = (
                f'<td>{n2} <bdi>{escape(name2)}</bdi></td><td class="num">{_number(score2)}</td>'
                f"<td>{who}</td>"
            )
        else:
            if kind == Game.FORFEIT and score1 is not None:
                what = escape(_("forfeit win") if score1 > 0 else _("forfeit loss"))
            else:
                what = escape(results.kind_label(kind))
            tail_cells = f'<td colspan="3" class="muted">{what}</td>'
        link = escape(_("correct") if done else _("open"))
        rows.append(
            f'<tr class="{"" if done else "missing"}" data-game="{pk}">'
            f'<td>{cells[0]}</td><td>{cells[1]}</td><td class="num">{cells[2]}</td>'
            f'{tail_cells}<td><a href="{head}{pk}{tail}">{link}</a></td></tr>'
        )
    if not rows:
        text = _("Round %(round)s has no pairings yet.") % {"round": round_number}
        rows.append(f'<tr><td colspan="7" class="muted">{escape(text)}</td></tr>')
    return "\n".join(rows)


def _number(value: int | None) -> str:
    return "" if value is None else str(value)


def _round_context(request: HttpRequest, division: Division, round_number: int) -> dict[str, Any]:
    rows = mark_safe(round_rows_html(division, round_number))  # noqa: S308 - escaped there
    recent = Change.objects.filter(
        game__division=division, game__round=round_number
    ).select_related("user", "player", "game", "scoresheet")
    undoable = corrections.last_undoable(division, request.user)
    return {
        "tournament": division.tournament,
        "division": division,
        "round": round_number,
        "game_rows": rows,
        "recent": _change_rows(recent[:10]),
        "undoable": undoable,
        "undoable_text": results.change_text(undoable.after) if undoable else "",
        "unresolved": unresolved.for_division(division, round_number),
        "locked": _locked_text(division.tournament),
    }


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
    )
    return render(request, "tournament/desk/entry.html", context, status=status)


def _round_html(request: HttpRequest, division: Division, round_number: int) -> str:
    return render_to_string(
        "tournament/desk/_round.html", _round_context(request, division, round_number), request
    )


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
    rows = read_model.records_of(division, numbers, public=False)
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
    return gettext("Saved: %(change_text)s") % {"change_text": results.change_text(change.after)}


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
            with rounds.keeping_pairings(division, request.user) as after:
                change = results.enter_line(
                    division,
                    round_number,
                    data["line"],
                    request.user,
                    data["version"],
                    data["reason"],
                    first_as_typed=data["first_as_typed"],
                )
                settled = selfservice.settle(change.game) if change.game else ""
        except results.StaleResult as stale:
            error, status = str(stale), 409
        except results.EntryError as refused:
            error = str(refused)
        else:
            message = saved_text(change)
            records = " ".join(filter(None, [_records_now(division, change), settled, *after.said]))
            if _wants_json(request):
                html = _round_html(request, division, round_number)
                return JsonResponse(
                    {
                        "ok": True,
                        "message": message,
                        "records": records,
                        "pairings": after.said,
                        "html": html,
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
    round_number = results.plain_number(round_text)
    try:
        with rounds.keeping_pairings(division, request.user) as after:
            change = corrections.undo_last(division, request.user)
    except results.EntryError as refused:
        ok, message, status = False, str(refused), 409
    else:
        ok, status = True, 200
        message = " ".join(
            [
                gettext("Undone: back to %(change_text)s")
                % {"change_text": results.change_text(change.after)},
                *after.said,
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


# -- a game -------------------------------------------------------------------------------------


def _game_changes(game: Game) -> list[dict[str, Any]]:
    changes = [c for c, _, _ in results.changes_touching(game)]
    changes += list(game.change_set.filter(action__in=(results.UPLOAD, results.RESOLVE)))
    unique = {c.pk: c for c in changes}
    return _change_rows(sorted(unique.values(), key=lambda c: (c.at, c.pk), reverse=True))


@login_required
def game(request: HttpRequest, slug: str, game_id: int) -> HttpResponse:
    game = get_desk_game(request, slug, game_id, scorekeeper=True)
    error, status = "", 200
    if request.method == "POST":
        form = GameResultForm(request.POST, game=game)
        if form.is_valid():
            data = form.cleaned_data
            try:
                with rounds.keeping_pairings(game.division, request.user) as after:
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
                    settled = selfservice.settle(game)
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
                said = [saved_text(change), settled, *after.said]
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
        "result": results.result_text(results.snapshot(game)),
        "form": form,
        "error": error,
        "scoresheets": game.scoresheets.select_related("uploaded_by", "sent_by"),
        "upload_form": SingleUploadForm(),
        "changes": _game_changes(game),
    }
    return render(request, "tournament/desk/game.html", context, status=status)


# -- scoresheets --------------------------------------------------------------------------------


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


def _scoresheet_form_page(
    request: HttpRequest, game: Game, form: ScoresheetTextForm, sheet: Scoresheet | None = None
) -> HttpResponse:
    context = {
        "tournament": game.division.tournament,
        "division": game.division,
        "game": game,
        "form": form,
        "sheet": sheet,
        "check_url": reverse(
            "desk-scoresheet-check", args=[game.division.tournament.slug, game.pk]
        ),
    }
    return render(request, "tournament/desk/scoresheet_form.html", context)


@login_required
def scoresheet_new(request: HttpRequest, slug: str, game_id: int) -> HttpResponse:
    game = get_desk_game(request, slug, game_id, scorekeeper=True)
    if request.method == "POST":
        form = ScoresheetTextForm(request.POST)
        if form.is_valid():
            try:
                sheet = scoresheets.attach_scoresheet(game, form.cleaned_data["gcg"], request.user)
            except results.EntryError as refused:
                form.add_error("gcg", str(refused))
            else:
                messages.success(request, _sheet_message(sheet))
                return redirect("desk-scoresheet", slug, sheet.pk)
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
            except results.EntryError as refused:
                form.add_error("gcg", str(refused))
            else:
                messages.success(request, _sheet_message(sheet))
                return redirect("desk-scoresheet", slug, sheet.pk)
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


def _sheet_message(sheet: Scoresheet) -> str:
    findings = len(sheet.engine_report.findings)
    text = "Scoresheet saved: " + ("verified" if sheet.verified else f"{findings} finding(s)")
    if sheet.flagged:
        text += "; its final scores differ from the entered result, so it is flagged"
    return text + "."


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
    except results.EntryError as refused:
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
        "result": results.result_text(results.snapshot(game)),
        "scores": scoresheets.sheet_scores(game, report),
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
    return render(request, "tournament/desk/scoresheet.html", context)


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
    except results.EntryError as refused:
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
    except results.EntryError as refused:
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
            except results.EntryError as refused:
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
                    except results.EntryError as refused:
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
    return render(request, "tournament/desk/upload.html", context)
