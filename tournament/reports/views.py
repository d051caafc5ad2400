"""Report downloads: every report of a division for its directors at the desk, the pairings and
the standings for anyone on the public pages (never a round that is not published yet).

A report that cannot be made (no such round, no results yet) is a 404 with the reason, never an
error page: the reason comes from `tournament.reports`. A report with nothing to list is a page
that says so (the prizes of a division with none set).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext

from tournament import reports
from tournament.core import bounds
from tournament.core.access import (
    get_desk_division,
    get_desk_scoresheet,
    get_desk_tournament,
    get_public_division,
    get_public_scoresheet,
    get_public_tournament,
)
from tournament.core.language import explicit_choice
from tournament.event import services as event
from tournament.exchange import tsh_io
from tournament.interchange.tou import TouError
from tournament.models import Division, PreparedReport, Scoresheet
from tournament.players import services as players
from tournament.reports import data, prepared
from tournament.reports.data import ReportError, game_record, tou_text
from tournament.reports.pdf import render as render_pdf
from tournament.standings import read_model, statistics
from tournament.standings import stamps as division_stamps
from tournament.standings.rows import Row


def _number(request: HttpRequest, name: str) -> int | None:
    value = request.GET.get(name, "")
    if value == "":
        return None
    number = bounds.plain_number(value)
    if number is None:
        raise Http404(
            gettext("?%(name)s=%(value)s: not a number.") % {"name": name, "value": value[:20]}
        )
    return number


def _paper(request: HttpRequest) -> str:
    paper = request.GET.get("paper", "a4").lower()
    if paper not in ("a4", "letter"):
        raise Http404(gettext("?paper=%(paper)s: a4 or letter.") % {"paper": paper})
    return paper


def _download(made: reports.Download) -> HttpResponse:
    response = HttpResponse(made.content, content_type=made.content_type)
    response["Content-Disposition"] = f'attachment; filename="{made.filename}"'
    return response


def _make(request: HttpRequest, division, kind: str, fmt: str, public: bool) -> HttpResponse:
    # The players' links on slips and scorecards are printed under the address the desk uses.
    base = "" if public else request.build_absolute_uri("/")
    try:
        made = reports.make(
            division,
            kind,
            fmt,
            _number(request, "round"),
            _paper(request),
            public,
            base=base,
            # ?lang= first, then the reader's own choice (the switcher), before the tournament's
            # default and the browser's (tournament/core/language.py).
            lang=request.GET.get("lang") or explicit_choice(request),
        )
    except ReportError as error:
        raise Http404(str(error)) from error
    return _download(made)


@login_required
def desk_report(
    request: HttpRequest, slug: str, division_id: int, kind: str, fmt: str
) -> HttpResponse:
    # The reports that print the players' personal links are the directors' alone: a link is
    # the player's own key to their page.
    keeps_score = kind not in data.LINK_KINDS
    division = get_desk_division(request, slug, division_id, scorekeeper=keeps_score)
    if prepared.built_apart(division):
        return _prepared(request, division, kind, fmt)
    return _make(request, division, kind, fmt, public=False)


def _prepared(request: HttpRequest, division: Division, kind: str, fmt: str) -> HttpResponse:
    """A large division's report, built apart from the request (`reports/prepared.py`): the
    file when it is built under the division's stamps as they are now, else a page that says
    it is being prepared and asks again (`?wait=1`) until it is, then downloads it."""
    lang = request.GET.get("lang") or explicit_choice(request)
    paper = _paper(request)
    try:
        reports.check(kind, fmt, paper, lang)
    except ReportError as error:
        raise Http404(str(error)) from error
    asked = prepared.Asked(
        kind,
        fmt,
        _number(request, "round"),
        paper,
        public=False,
        lang=reports.language_of(division, lang),
        base=request.build_absolute_uri("/"),
    )
    waiting = request.GET.get("wait") == "1"
    row = prepared.prepare(division, asked, again=not waiting)
    query = request.GET.copy()
    query.pop("wait", None)
    download = f"{request.path}?{query.urlencode()}" if query else request.path
    query["wait"] = "1"
    context = {
        "tournament": division.tournament,
        "division": division,
        "kind": kind,
        "fmt": fmt,
        "row": row,
        "download": download,
        "again": f"{request.path}?{query.urlencode()}",
        "refresh": prepared.REFRESH,
    }
    template = "tournament/reports/prepared.html"
    if row.state == PreparedReport.FAILED:
        return render(request, template, context, status=404 if row.missing else 500)
    if row.state == PreparedReport.READY:
        if waiting:  # the page that asked again downloads it, and says so
            return render(request, template, context)
        content = PreparedReport.objects.filter(pk=row.pk, state=PreparedReport.READY)
        found = content.values_list("content", flat=True).first()
        if found is not None:
            made = reports.Download(bytes(found), row.filename, row.content_type)
            response = _download(made)
            response["Cache-Control"] = "no-store"
            return response
        context["row"] = PreparedReport(state=PreparedReport.BUILDING)  # taken over meanwhile
    response = render(request, template, context, status=202)
    response["Cache-Control"] = "no-store"
    return response


@login_required
def desk_tou(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_desk_tournament(request, slug, scorekeeper=True)
    try:
        text = tou_text(tournament)
    except TouError as error:
        # Said on the dashboard, where the director can mend it: a bare 404 page says nothing.
        messages.error(
            request, gettext("The .tou file cannot be written: %(reason)s.") % {"reason": error}
        )
        return redirect("desk-dashboard", slug)
    response = HttpResponse(text.encode("ascii"), content_type="text/plain; charset=us-ascii")
    response["Content-Disposition"] = f'attachment; filename="{tournament.slug}.tou"'
    return response


@login_required
def desk_game_record(request: HttpRequest, slug: str, sheet_id: int) -> HttpResponse:
    sheet = get_desk_scoresheet(request, slug, sheet_id, scorekeeper=True)
    return _game_record(request, slug, sheet)


def public_game_record(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    tournament = get_public_tournament(request, slug)
    sheet = get_public_scoresheet(tournament, pk)
    return _game_record(request, slug, sheet)


@login_required
def desk_gcg(request: HttpRequest, slug: str, sheet_id: int) -> HttpResponse:
    return _gcg(slug, get_desk_scoresheet(request, slug, sheet_id))


def public_gcg(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    tournament = get_public_tournament(request, slug)
    return _gcg(slug, get_public_scoresheet(tournament, pk))


def _gcg(slug: str, sheet: Scoresheet) -> HttpResponse:
    """The record as stored, as a download."""
    name = f"{slug}-round{sheet.game.round}-game{sheet.game.pk}.gcg"
    content = sheet.gcg.encode("utf-8", "replace")
    return _download(reports.Download(content, name, "text/plain; charset=utf-8"))


def _game_record(request: HttpRequest, slug: str, sheet: Scoresheet) -> HttpResponse:
    try:
        report = game_record(sheet, _number(request, "move"))
    except ReportError as error:
        raise Http404(str(error)) from error
    content = render_pdf(report, _paper(request))
    name = f"{slug}-round{sheet.game.round}-game{sheet.game.pk}.pdf"
    return _download(reports.Download(content, name, reports.CONTENT_TYPES["pdf"]))


def public_report(
    request: HttpRequest, slug: str, division: str, kind: str, fmt: str
) -> HttpResponse:
    tournament = get_public_tournament(request, slug)
    div = get_public_division(tournament, division)
    if kind not in reports.PUBLIC_KINDS:
        raise Http404(gettext("Only the pairings and the standings are public."))
    return _make(request, div, kind, fmt, public=True)


@login_required
def desk_tsh(request: HttpRequest, slug: str) -> HttpResponse:
    """The whole event as one TSH archive (config.tsh carrying each division's .t file)."""
    tournament = get_desk_tournament(request, slug, scorekeeper=True)
    text = tsh_io.tsh_archive(tournament)
    response = HttpResponse(text.encode("utf-8"), content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{tournament.slug}-config.tsh"'
    return response


@dataclass
class DivisionSummary:
    division: Division
    leaders: list[Row]
    prizes: Any  # the prizes report's table, or None
    high_games: list[Any]
    sheets: int
    with_findings: list[Scoresheet]
    held: int


@login_required
def desk_summary(request: HttpRequest, slug: str) -> HttpResponse:
    """The event at its end: each division's winners, prizes, high game and the scoresheets'
    findings; the files a rating body takes (.tou; the TSH archive for NASPA)."""
    tournament = get_desk_tournament(request, slug, scorekeeper=True)
    summaries = []
    for division in tournament.divisions.all():
        rows = read_model.division_standings(
            division, public=False, stamps=division_stamps.read(division)
        )
        try:
            prizes = data.prizes(division).tables[0] if division.prizes else None
        except data.ReportError:
            prizes = None
        stats = statistics.division_statistics(division)
        sheets = list(
            Scoresheet.objects.filter(game__division=division)
            .select_related("game__player1", "game__player2")
            .defer("gcg")
            .order_by("game__round", "game__table", "pk")
        )
        summaries.append(
            DivisionSummary(
                division=division,
                leaders=[r for r in rows if r.rank is not None and r.rank <= 3],
                prizes=prizes,
                high_games=stats.high_games[:3],
                sheets=len(sheets),
                with_findings=[s for s in sheets if s.report.get("findings")],
                held=sum(s.held for s in sheets),
            )
        )
    context = {
        "tournament": tournament,
        "summaries": summaries,
        "unplayed": event.unplayed_rounds(tournament),
        "has_games": event.has_games(tournament),
        "latin_to_check": players.latin_to_check(tournament),
        "is_director": tournament.is_director(request.user),
    }
    return render(request, "tournament/reports/summary.html", context)
