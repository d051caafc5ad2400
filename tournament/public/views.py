"""Pages anyone may see, signed in or not: read-only, and a fixed number of queries each.

A tournament that is not public is shown to its directors only; to anyone else it does not exist.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import translation
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext

from tournament.core import tsh_settings
from tournament.core.access import (
    after_round_asked,
    get_public_division,
    get_public_player,
    get_public_scoresheet,
    get_public_tournament,
)
from tournament.engine.teams import Record, team_standings
from tournament.models import Division, Player, Scoresheet, Tournament
from tournament.reports import data
from tournament.scoresheets import services as scoresheets
from tournament.scoresheets import viewer
from tournament.standings import keys, memos, prizes, queries, read_model
from tournament.standings.cache_once import get_or_compute
from tournament.standings.gibson import gibsonized
from tournament.standings.pages import PAGE_TIMEOUT, Page, Scoped
from tournament.standings.rows import PlayerParts
from tournament.standings.stamps import DivisionStamps
from tournament.standings.tables import (
    crosstable_cells,
    crosstable_html,
    fixed_table_legend,
    pairings_by_name_html,
    pairings_by_table_html,
    player_games_html,
    ratings_html,
    standings_html,
)

HIGH_PLAYS = 20


def home(request: HttpRequest) -> HttpResponse:
    visible = Q(public=True)
    if request.user.is_authenticated:
        visible |= Q(directors=request.user)
    tournaments = Tournament.objects.filter(visible).distinct()
    return render(request, "tournament/public/home.html", {"tournaments": tournaments})


def tournament_detail(request: HttpRequest, page: Page[None], slug: str) -> HttpResponse:
    tournament = get_public_tournament(request, slug)
    rounds = queries.rounds_by_division(tournament)
    divisions = [(d, rounds.get(d.pk, [])) for d in tournament.divisions.all()]
    return render(
        request,
        "tournament/public/tournament.html",
        {"tournament": tournament, "divisions": divisions},
    )


def standings(request: HttpRequest, page: Page[None], slug: str, division: str) -> HttpResponse:
    tournament = get_public_tournament(request, slug)
    div = get_public_division(tournament, division)
    stamps = page.stamps(div)
    rounds = queries.division_rounds(div, stamps)
    played = [r.number for r in rounds if r.has_results]
    last = max(played, default=0)
    after = after_round_asked(request, last)
    in_play = next((r.number for r in rounds if r.number > last), None)
    if after is None and in_play is not None:
        after = last  # a round in play adds nothing yet, not even its byes
    capped = bool(div.spread_cap) and request.GET.get("capped") == "1"
    # A big division's table takes far longer to render than to compute, and is the same for
    # every phone until a result changes: it is kept under the standings' own stamp, and
    # its headers are in the page's language: one copy a language, one an order asked for.
    key = keys.of_division(
        "standings-table",
        stamps,
        public=True,
        after=after,
        capped=capped,
        spread_cap=div.spread_cap,
        sort=",".join(request.GET.getlist("sort")),
        language=translation.get_language(),
    )
    table = cache.get(key)
    if table is None:
        rows = read_model.division_standings(div, after, capped, public=True, stamps=stamps)
        table = standings_html(div, rows, request.GET)
        cache.set(key, table, timeout=24 * 3600)
    table = mark_safe(table)  # noqa: S308 - escaped cell by cell
    ctx = {
        "tournament": tournament,
        "division": div,
        "rounds": rounds,
        "played": played,
        "after": last if after is None else after,
        # The round published after the last one counted, with no game result yet.
        "in_play": in_play if after is None or after == last else None,
        # The last round counted while its results are still coming in: the heading says so.
        "partial": next(
            (r for r in rounds if r.number == last and not r.complete),
            None,
        )
        if after is None or after == last
        else None,
        "capped": capped,
        "table": table,
        **standings_extras(div, after, stamps),
    }
    return render(request, "tournament/public/standings.html", ctx)


def pairings(
    request: HttpRequest, page: Page[None], slug: str, division: str, number: int
) -> HttpResponse:
    tournament = get_public_tournament(request, slug)
    div = get_public_division(tournament, division)
    stamps = page.stamps(div)
    rounds = queries.division_rounds(div, stamps)
    if number not in {r.number for r in rounds}:
        raise Http404(gettext("No such round."))
    found = queries.round_pairings(div, number, stamps)
    ctx = {
        "tournament": tournament,
        "division": div,
        "rounds": rounds,
        "round": number,
        "by_table": mark_safe(pairings_by_table_html(div, found.by_table)),  # noqa: S308 - escaped cell by cell
        "by_name": mark_safe(pairings_by_name_html(div, found.by_name)),  # noqa: S308 - escaped cell by cell
        "fixed_legend": fixed_table_legend() if found.fixed_tables else "",
    }
    return render(request, "tournament/public/pairings.html", ctx)


def _parts_of_every_player(div: Division, stamps: DivisionStamps) -> dict[int, PlayerParts]:
    """Every player's parts (by number): the standings and ratings as cached, and the games
    tables' keys from the games this process read under the division's stamps (one query)."""
    rated = read_model.division_ratings(div, public=True, stamps=stamps)
    ratings = {r.player.pk: r for r in rated}
    tables = queries.player_games_keys(div, get_language() or "", stamps)
    return {
        row.player.number: PlayerParts(row, ratings[row.player.pk], tables[row.player.pk])
        for row in read_model.division_standings(div, public=True, stamps=stamps)
        if row.player.pk in ratings and row.player.pk in tables
    }


@dataclass(frozen=True)
class PlayerPage:
    """What `player_scope` worked out for a player's page: the division (read with its
    tournament and playoff, as the page shows them) and the player's parts."""

    division: Division
    parts: PlayerParts


def player_scope(page: Page[PlayerPage], kwargs: dict[str, Any]) -> Scoped | None:
    """A player's page (`division`, `number`) is kept under the divisions' frame stamps and what
    it shows of the results (`PlayerParts.fingerprint`), not under the division's stamp: a
    result entered changes the pages of its two players and of those whose rank it moves, and
    leaves the others' pages cached. The parts are handed to the view (`page.scoped`), which
    shows exactly them: a page kept under a fingerprint is the page of that fingerprint.

    The parts are worked out under the stamps the page cache read (so never older than they
    are), and remembered under them."""
    stamps = page.named(kwargs.get("division", ""))
    if stamps is None:
        return None
    memo = (stamps.pk, stamps.stamp, get_language() or "")
    found = memos.PLAYER_PARTS.get(memo)
    if found is None:
        divisions = Division.objects.select_related("tournament", "playoff")  # as the page shows
        div = divisions.filter(pk=stamps.pk).first()
        if div is None:
            return None
        found = (div, _parts_of_every_player(div, stamps))
        memos.PLAYER_PARTS.put(memo, found)
    div, every = found
    parts = every.get(int(kwargs["number"]))
    if parts is None:
        return None  # no such player: the view says so
    page.scoped = PlayerPage(div, parts)  # the page need not read them again
    return Scoped(shows=f"player:{parts.fingerprint()}")


def player(
    request: HttpRequest, page: Page[PlayerPage], slug: str, division: str, number: int
) -> HttpResponse:
    if page.scoped is not None:  # by `player_scope`, of a public tournament
        div, parts = page.scoped.division, page.scoped.parts
        person, tournament = parts.standing.player, div.tournament
    else:  # a signed-in director's page, rendered for them
        tournament = get_public_tournament(request, slug)
        div = get_public_division(tournament, division)  # the player's games are read below
        person = get_public_player(div, number)
        parts = _parts_of_every_player(div, page.stamps(div))[person.number]
    table, kept = _player_games(request, person, div, page.stamps(div), parts.table_key)
    ctx = {
        "tournament": tournament,
        "division": div,
        "player": person,
        "standing": parts.standing,
        # As the games table's record column writes them ("2–1 -13"); kept left to right.
        "number": f"#{person.number}",
        "record": f"{parts.standing.record} {queries.signed(parts.standing.spread)}",
        "rating": parts.rating,
        "ratings_note": tsh_settings.ratings_note(div),
        "table": mark_safe(table),  # noqa: S308 - escaped
    }
    if not kept:
        # The games changed since their key was read: the table shown is the newer one, and
        # the page is not kept under a fingerprint that says otherwise.
        page.keep = False
    return render(request, "tournament/public/player.html", ctx)


def _player_games(
    request: HttpRequest, person: Player, div: Division, stamps: DivisionStamps, key: str
) -> tuple[str, bool]:
    """The player's games table, kept under `key` (`queries.player_games_key`), which changes
    with what the table shows: after a result only the two players' tables are written again.
    With it, whether it is the table of `key`: not when the games changed since `key` was read
    (the table is then the newer one, and is not kept)."""

    def write() -> str:
        return player_games_html(div, queries.player_games(person))

    fresh: list[str] = []

    def compute() -> str | None:
        fresh.append(write())
        # Read again after the table: kept only if it is the table of `key`.
        same = queries.player_games_key(person, stamps, get_language() or "") == key
        return fresh[-1] if same else None

    table = get_or_compute(key, compute, PAGE_TIMEOUT)
    if table is not None:
        return table, True
    return (fresh[-1] if fresh else write()), False


def ratings(request: HttpRequest, page: Page[None], slug: str, division: str) -> HttpResponse:
    tournament = get_public_tournament(request, slug)
    div = get_public_division(tournament, division)
    stamps = page.stamps(div)
    played = [r.number for r in queries.division_rounds(div, stamps) if r.has_results]
    last = max(played, default=0)
    after = after_round_asked(request, last)
    rows = read_model.division_ratings(div, after, public=True, stamps=stamps)
    ctx = {
        "tournament": tournament,
        "division": div,
        "played": played,
        "after": last if after is None else after,
        "table": mark_safe(ratings_html(div, rows, request.GET)),  # noqa: S308 - escaped cell by cell
        "ratings_note": tsh_settings.ratings_note(div),
        # An event imported with WESPA's printout: its ratings as WESPA printed them.
        "wespa": sorted(
            (p for p in read_model.division_read(div, True, stamps=stamps).players if p.wespa),
            key=lambda p: p.number,
        ),
    }
    return render(request, "tournament/public/ratings.html", ctx)


def crosstable(request: HttpRequest, page: Page[None], slug: str, division: str) -> HttpResponse:
    tournament = get_public_tournament(request, slug)
    div = get_public_division(tournament, division)
    # The published games and their players as this process read them under the division's
    # stamps (read first: the games are at least as new as they say), then the standings.
    stamps = page.stamps(div)
    read = read_model.division_read(div, public=True, stamps=stamps)
    rows = read_model.division_standings(div, public=True, stamps=stamps)
    cells = crosstable_cells(div, read)
    ctx = {
        "tournament": tournament,
        "division": div,
        # Each round's cells kept until that round changes.
        "table": mark_safe(crosstable_html(div, rows, cells)),  # noqa: S308 - escaped cell by cell
    }
    return render(request, "tournament/public/crosstable.html", ctx)


def scoresheet(request: HttpRequest, page: Page[None], slug: str, pk: int) -> HttpResponse:
    tournament = get_public_tournament(request, slug)
    sheet = get_public_scoresheet(tournament, pk)
    game = sheet.game
    turn = viewer.turn_param(request.GET.get("turn"))
    # The report stored with the sheet: the engine runs again only if it is out of date.
    report = scoresheets.current_report(sheet)
    ctx = {
        "tournament": tournament,
        "division": game.division,
        "game": game,
        "sheet": sheet,
        "replay": viewer.sheet_view(report),
        "viewer": viewer.viewer_context(report, turn, viewer.turn_param(request.GET.get("page"))),
        "gcg_url": reverse("public-gcg", args=[tournament.slug, sheet.pk]),
        "pdf_url": reverse("public-game-record", args=[tournament.slug, sheet.pk]),
    }
    return render(request, "tournament/public/scoresheet.html", ctx)


def high_plays(request: HttpRequest, page: Page[None], slug: str) -> HttpResponse:
    """The highest-scoring plays and the bingos of the tournament's published scoresheets."""
    tournament = get_public_tournament(request, slug)
    sheets = (
        Scoresheet.objects.public()
        .filter(game__division__tournament=tournament)
        .select_related("game__division", "game__player1", "game__player2")
    )
    plays = viewer.high_plays(sheets)
    ctx = {
        "tournament": tournament,
        "top": plays[:HIGH_PLAYS],
        "bingos": [p for p in plays if p.turn.bingo],
    }
    return render(request, "tournament/public/high_plays.html", ctx)


def standings_extras(
    division: Division, after: int | None, stamps: DivisionStamps
) -> dict[str, Any]:
    """The public standings page's class standings (grouped by class, in the standings' order)
    and Gibsonized players with the rule that made them so, read under the request's
    `stamps`."""
    rows = read_model.division_standings(division, after, public=True, stamps=stamps)
    groups: dict[str, list[prizes.ClassRow]] = {}
    if prizes.has_classes(division, [r.player for r in rows]):
        for row in prizes.class_standings(division, after, True, rows, stamps=stamps):
            groups.setdefault(row.player_class, []).append(row)
    records = [Record(r.player.pk, r.player.team, r.wins, r.losses, r.spread) for r in rows]
    return {
        "classes": sorted(groups.items()),
        "gibsons": gibsonized(division, after, public=True, stamps=stamps),
        "teams": team_standings(records, division.team_order or "wins"),
    }


def statistics(request: HttpRequest, page: Page[None], slug: str, division: str) -> HttpResponse:
    """The statistics of the published rounds, drawn from the same tables as the `stats`
    report, so that the page and the download never disagree."""

    tournament = get_public_tournament(request, slug)
    div = get_public_division(tournament, division)
    played = [r.number for r in queries.division_rounds(div, page.stamps(div)) if r.has_results]
    after = after_round_asked(request, read_model.last_result_round(div, public=True))
    tables = []
    report = None
    if read_model.last_result_round(div, public=True):
        report = data.stats(div, after, public=True)
        for table in report.tables:
            rows = [
                [
                    (data.display(cell, column.style), column.numeric)
                    for cell, column in zip(row, table.columns, strict=True)
                ]
                for row in table.rows
            ]
            tables.append({"table": table, "rows": rows})
    ctx = {
        "tournament": tournament,
        "division": div,
        "played": played,
        "after": report.round if report else None,
        "tables": tables,
    }
    return render(request, "tournament/public/statistics.html", ctx)
