"""The player's own page, `/p/<token>/`, built for a phone; and the desk's side of it: the
queue of players' reports, and revoking and reissuing links.

The page is one player's: never cached by a browser or proxy, but its body is kept in the
server's cache, exact, under what it shows (see `page`). Every write is rate limited per link.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from tournament.core import bounds, sentences
from tournament.core.access import get_desk_division
from tournament.core.choices import DISPLAY_VIEWS
from tournament.core.html import bdi, ltr
from tournament.core.language import apply_tournament_language, ltr_text
from tournament.core.sentences import isolate
from tournament.hall import clock
from tournament.models import Claim, Division, Game, Player, Scoresheet
from tournament.phone import checkin, link_lists, offline, sheet_reports
from tournament.phone import services as phone
from tournament.results import claims as reports
from tournament.results import services as results
from tournament.scoresheets import board_entry
from tournament.scoresheets import services as scoresheets
from tournament.scoresheets.views import read_upload, saved_by_script
from tournament.standings.pages import PAGE_TIMEOUT
from tournament.standings.tables import RESULT_WORDS

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

SENT_SHOWN = 50  # the latest scoresheets sent from phones, on the desk's queue page
TOO_MANY = gettext_lazy("Too many reports from this link in a minute: wait a moment.")


def _player(request: HttpRequest, token: str) -> Player:
    player = phone.player_for(token)
    if player is None:
        raise Http404(_("This link does not work: ask the desk for a new one."))
    # The player's page speaks the tournament's language unless the player chose another.
    apply_tournament_language(request, player.division.tournament.language)
    return player


CSRF_MARK = "csrf-mark-3b9f0c"  # where the request's own CSRF token goes in a kept page body
STANDING_MARK = "standing-mark-7d41e2"  # where the player's record and rank go in a kept body


@dataclass
class _Poll:
    """What a poll of the player's page read: the player, the division's snapshot, their
    claims, the key their body is kept under, and what the division's round clock is kept by."""

    player_id: int
    snap: dict
    claims: tuple
    key: str
    clock_version: str
    clock_row: phone.PollClock | None
    token: str

    def kept(self) -> dict[str, str]:
        """The player's kept title and body (rendered from the snapshot if not kept)."""
        kept = cache.get(self.key)
        if kept is None:
            kept = _body(self.player_id, self.snap, self.claims, self.token)
            cache.set(self.key, kept, PAGE_TIMEOUT)
        return kept

    def standing(self) -> str:
        row = self.snap["standing"].get(self.player_id)
        return "" if row is None else _standing(row["record"], row["rank"], get_language())


def _poll(request: HttpRequest, token: str) -> _Poll:
    """The poll of the player's page: their body is kept per player under what it shows and
    their claims, from the division's snapshot (computed once per stamp for all its players)."""
    state = phone.poll_state(token)
    if state is None:
        raise Http404(_("This link does not work: ask the desk for a new one."))
    player_id, division_id, stamp, claims, clock_version, clock_row = state
    snap = phone.kept_snapshot(division_id, stamp)
    if snap is None:
        division = Division.objects.select_related("tournament").filter(pk=division_id).first()
        if division is None:  # removed since the poll's query
            raise Http404(_("This link does not work: ask the desk for a new one."))
        division.stamp = stamp  # kept under the stamp read with the claims
        snap = phone.snapshot(division)
    # The page speaks the tournament's language unless the player chose another; its body is
    # kept once per language.
    apply_tournament_language(request, snap["tournament"].get("language", ""))
    own = _own(snap, player_id)
    raw = f"{player_id}:{token}:{claims}:{own!r}:{get_language()}"
    key = "phone-page:" + hashlib.sha256(raw.encode()).hexdigest()
    return _Poll(player_id, snap, claims, key, clock_version, clock_row, token)


def _live_etag(key: str, standing: str, clock_version: str) -> str:
    """What the live feed is kept by: the body's key, then the record and rank and the clock,
    each part a digest of its own (`_body_part`: a page whose body is the feed's own needs
    only the rest)."""
    body = hashlib.sha256(key.encode()).hexdigest()[:16]
    rest = hashlib.sha256(f"{standing}:{clock_version}".encode()).hexdigest()[:16]
    return f'"{body}-{rest}"'


def _body_part(tag: str) -> str:
    """The body's part of a live feed's tag (`_live_etag`), "" for any other tag."""
    body, dash, _rest = tag.strip().strip('"').partition("-")
    return body if dash and len(body) == 16 else ""


# Sent by a page that takes a live answer without the body when its own body is the feed's:
# the record and rank, and the clock (static/phone.js). A page without it gets the body always.
PARTS_HEADER = "X-Spread-Parts"


def page(request: HttpRequest, token: str) -> HttpResponse:
    """The player's page. Its body is kept per player under what it shows of the player's
    own (their games, opponents, check-in, scoresheets, the division's switches) and their
    claims, so a result elsewhere in the division re-renders no one's page: their record and
    rank, which every result may move, and the request's CSRF token and messages are put in
    afresh every time. A poll costs one query and cache reads. The page then keeps
    itself up to date from its live feed (`live`, `static/phone.js`)."""
    poll = _poll(request, token)
    kept, standing = poll.kept(), poll.standing()
    csrf = get_token(request)
    body = kept["body"].replace(CSRF_MARK, csrf).replace(STANDING_MARK, _standing_holder(standing))
    # The clock comes with the live feed's first answer, asked for at once (`static/phone.js`).
    live = {
        "url": reverse("phone-live", args=[token]),
        "etag": _live_etag(poll.key, standing, poll.clock_version),
        "csrf": csrf,
    }
    ctx = {"title": kept["title"], "body": mark_safe(body), "live": live, "token": token}  # noqa: S308
    if request.headers.get("X-Spread-Copy") == "1":
        # The copy the phone's service worker keeps, to open offline (static/phone-sw.js): the
        # messages are left for the page the player sees.
        ctx["messages"] = ()
    response = render(request, "tournament/phone/page.html", ctx)
    response["Cache-Control"] = "no-store"
    # The site's own Referrer-Policy (same-origin) keeps the token, in the address, from other
    # sites; "no-referrer" would make Chromium send `Origin: null`, which CSRF refuses.
    return response


def live(request: HttpRequest, token: str) -> HttpResponse:
    """The page's live feed, polled by `static/phone.js` with If-None-Match: a bare 304 while
    nothing the page shows has changed (its kept body's key, the record and rank, the round's
    clock), else the body (its CSRF fields left marked, for the page to fill with its own
    token), the title and the clock with the server's time. One query and the page's own cache
    reads; nothing is rendered that the page has not kept."""
    poll = _poll(request, token)
    standing = poll.standing()
    etag = _live_etag(poll.key, standing, poll.clock_version)
    wanted = [tag.strip() for tag in request.headers.get("If-None-Match", "").split(",")]
    if etag in wanted:
        response: HttpResponse = HttpResponseNotModified()
    else:
        public_clock = clock.public_state_read(poll.clock_row)  # as the poll read it
        data = {"standing": standing, "clock": public_clock}
        # A result elsewhere moves most players' ranks: a page whose body is still the feed's
        # is sent its record and rank alone, and keeps its body (what the player is typing).
        same_body = request.headers.get(PARTS_HEADER) == "1" and _body_part(etag) in map(
            _body_part, wanted
        )
        if not same_body:
            kept = poll.kept()  # only now: an unchanged body costs no cache read of it
            data["title"] = kept["title"]
            data["body"] = kept["body"].replace(STANDING_MARK, _standing_holder(standing))
        response = JsonResponse(data, json_dumps_params={"ensure_ascii": False})
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache, private"
    return response


def _own(snap: dict, player_id: int) -> tuple:
    """All the snapshot says that the player's kept body shows (not their rank)."""
    players = snap["players"]
    mine = snap["games"].get(player_id, [])
    opponents = [players[g["opponent"]] for g in mine if g["opponent"] is not None]
    return (players[player_id], mine, opponents, snap["division"], snap["tournament"])


def _standing_holder(standing: str) -> str:
    """The record and rank in the body, where a live answer without the body puts them
    again (`static/phone.js`)."""
    return f'<div id="phone-standing">{standing}</div>'


@lru_cache(maxsize=4096)
def _standing(record: str, rank: int | None, language: str) -> str:
    """The record and rank as the page shows them, in the active `language` (the key it is
    kept by: one line for every player of the same record, rank and language)."""
    # The record ("2–1") stays left to right inside a right-to-left sentence.
    text = conditional_escape(_("Record %(record)s")) % {"record": ltr(record)}
    if rank:
        text += " · " + conditional_escape(_("rank %(rank)s") % {"rank": rank})
    return str(format_html('<p class="record">{}</p>', mark_safe(text)))  # noqa: S308


def _body(player_id: int, snap: dict, claims: tuple, token: str) -> dict[str, str]:
    """The page's title and body for the player, from the division's snapshot alone."""
    players = snap["players"]
    player = {"pk": player_id, **players[player_id]}
    mine = snap["games"].get(player_id, [])

    def who(pk: int | None) -> dict | None:
        return None if pk is None else {"pk": pk, **players[pk]}

    games = [{**g, "opponent": who(g["opponent"]), "result": _result(g)} for g in reversed(mine)]
    now = games[0] if games else None
    claim = theirs = None
    if now is not None and now["can_report"]:
        claim, theirs = _claims_of(now["game"], player_id, claims)
    ctx = {
        "csrf_token": CSRF_MARK,
        "player": player,
        "division": snap["division"],
        "tournament": snap["tournament"],
        "now": now,
        "games": games,
        "standing_mark": STANDING_MARK,
        "claim": claim,
        "claim_scores": f"{claim[0]}–{claim[1]}" if claim else "",
        # The opponent's claim, read only once the player has claimed: the two disagree.
        "their_scores": f"{theirs[0]}–{theirs[1]}" if claim and theirs else "",
        "token": token,
        "earlier_disputable": any(g["can_dispute"] for g in games[1:]),
    }
    return {
        "title": f"{isolate(player['name'])} · {isolate(snap['tournament']['name'])}",
        "body": render_to_string("tournament/phone/_body.html", ctx),
    }


def _claims_of(game: int, player_id: int, claims: tuple) -> tuple[tuple | None, tuple | None]:
    """The player's own claim of the game and their opponent's, (my score, opponent's) each
    as its claimant reported it, from the poll's claims (`phone.poll_state`)."""
    mine = theirs = None
    for claimed, by, score, other in claims:
        if claimed == game:
            if by == player_id:
                mine = (score, other)
            else:
                theirs = (score, other)
    return mine, theirs


def _result(game: dict) -> str:
    score, theirs = game["score"], game["opponent_score"]
    if score is None:
        return ""
    if game["opponent"] is None:
        return f"{score:+d}" if score else "0"
    result = "win" if score > theirs else "loss" if score < theirs else "tie"
    return RESULT_WORDS[result]()


def sent_by_queue(request: HttpRequest) -> bool:
    """Whether the phone's own queue sent this (`static/phone-offline.js`): answered in JSON,
    where to go to see the answer, the answer itself in the page's messages as ever."""
    return request.headers.get("X-Spread-Queue") == "send"


def answered(request: HttpRequest, token: str) -> HttpResponse:
    """The answer to a write from the player's page, its message already added: their page,
    or for the phone's queue where it is (the queue goes there once it has sent all it kept)."""
    url = reverse("phone", args=[token])
    if sent_by_queue(request):
        return JsonResponse({"go": url})
    return redirect(url)


def too_many(request: HttpRequest, token: str) -> HttpResponse:
    """A write past the link's limit: the queue keeps it and sends it again later."""
    if sent_by_queue(request):
        return JsonResponse({"error": str(TOO_MANY), "again": True}, status=429)
    messages.error(request, TOO_MANY)
    return redirect("phone", token=token)


@require_POST
def check_in(request: HttpRequest, token: str) -> HttpResponse:
    player = _player(request, token)
    if not phone.allow(token):
        return too_many(request, token)
    try:
        checkin.check_in(player, key=offline.key_of(request.POST))
        messages.success(request, _("%(name)s: checked in.") % {"name": isolate(player.name)})
    except checkin.CheckInRefused as error:
        messages.error(request, str(error))
    return answered(request, token)


@require_POST
def report(request: HttpRequest, token: str) -> HttpResponse:
    """The player's report of their game: the game the form was made for (a report kept by
    the phone while offline may come after the next round's pairing), else their latest."""
    player = _player(request, token)
    if not phone.allow(token):
        return too_many(request, token)
    named = request.POST.get("game")
    if named is None:
        game = phone.current_game(player)
    else:
        game = phone.game_of(player, bounds.plain_number(named) or 0)
    try:
        if game is None:
            raise phone.ReportRefused(_("You have no game to report."))
        mine = phone.parse_score(request.POST.get("my_score"), _("your score"))
        theirs = phone.parse_score(request.POST.get("opponent_score"), _("your opponent's"))
        key = offline.key_of(request.POST)
        outcome = phone.report(player, game, mine, theirs, key=key)
        messages.success(request, outcome.message)
    except (phone.ReportRefused, results.EntryError) as error:
        messages.error(request, str(error))
    return answered(request, token)


# -- the player's scoresheet ------------------------------------------------------------------


def _own_game(player: Player, game_id: int):
    game = phone.game_of(player, game_id)
    if game is None:
        raise Http404(_("This is not one of your games."))
    return game


def sheet(request: HttpRequest, token: str, game_id: int) -> HttpResponse:
    """Type or upload the scoresheet of one of the player's games, checked as it is typed."""
    player = _player(request, token)
    game = _own_game(player, game_id)
    mine = phone.own_sheet(game, player)
    refused = phone.sheet_refusal(game, player)
    text = mine.gcg if mine else scoresheets.scoresheet_header(game)
    error: StrOrPromise = ""
    if request.method == "POST":
        text = request.POST.get("gcg", "")
        upload = request.FILES.get("file")
        data: str | bytes = text
        file = ""
        if upload is not None and upload.size:
            read = read_upload(upload)
            if read is None:
                error = _("%(name)s is too large to be a scoresheet: not saved.") % {
                    "name": isolate(upload.name)
                }
            data, file = read or b"", upload.name or ""
        if not error and not phone.allow(token):
            if sent_by_queue(request):
                return too_many(request, token)
            error = TOO_MANY
        by_script = saved_by_script(request) or sent_by_queue(request)
        if not error:
            try:
                key = offline.key_of(request.POST)
                sent = sheet_reports.send(player, game, data, file, key=key)
            except (phone.ReportRefused, results.EntryError) as refusal:
                error = str(refusal)
            else:
                messages.success(
                    request, " ".join(filter(None, [_sheet_message(sent.sheet), sent.said]))
                )
                if by_script:
                    return JsonResponse({"saved": reverse("phone", args=[token])})
                return redirect("phone", token=token)
        if by_script:
            return JsonResponse({"error": str(error)}, status=400)
    board = None
    if not refused:
        board = board_entry.board_context(
            game,
            mine.gcg if mine else "",
            turn_url=reverse("phone-sheet-turn", args=[token, game.pk]),
            save_url=reverse("phone-sheet", args=[token, game.pk]),
            saved=mine.gcg if mine else "",
        )
    ctx = {
        "player": player,
        "division": game.division,
        "tournament": game.division.tournament,
        "game": game,
        "token": token,
        "mine": mine,
        # Whether the player's sheet is their report of the result, or why not.
        "as_report": sheet_reports.note(game, player, mine) if mine and not refused else None,
        "refused": refused,
        "text": text,
        "error": error,
        "check_url": reverse("phone-sheet-check", args=[token, game.pk]),
        "board": board,
    }
    response = render(request, "tournament/phone/sheet.html", ctx, status=400 if error else 200)
    response["Cache-Control"] = "no-store"
    return response


def _sheet_message(sheet: Scoresheet) -> str:
    if sheet.verified:
        text = _("Scoresheet saved: the engine found nothing wrong.")
    else:
        text = _("Scoresheet saved with %(count)s finding(s): the desk will see them.") % {
            "count": len(sheet.engine_report.findings)
        }
    if sheet.flagged:
        text += " " + _("Its final scores differ from the recorded result: it is flagged.")
    said = scoresheets.penalty_differences(sheet.game, sheet.engine_report)
    return " ".join([text, *said])


@require_POST
def sheet_check(request: HttpRequest, token: str, game_id: int) -> JsonResponse:
    """The desk's live check of a record being typed, for the player's own game; charged to
    the link by its lines and bytes (`bounds.check_cost`) before anything else is read, and
    refused past the link's budget; a record over the bounds is refused before its game is
    read (a flood of them costs a link's budget and a millisecond each)."""
    text = request.POST.get("gcg", "")
    game = _checked_game(request, token, game_id, text, bounds.check_cost(text))
    if isinstance(game, JsonResponse):
        return game
    try:
        return JsonResponse(scoresheets.live_check(game, text))
    except bounds.RecordRefused as refusal:
        return JsonResponse({"error": str(refusal)}, status=413)


def _checked_game(
    request: HttpRequest, token: str, game_id: int, text: str, cost: int
) -> Game | JsonResponse:
    """The player's own game whose record `text` may be checked, once the link has paid `cost`
    of its budget (before anything else is read) and the record is within its bounds; else the
    refusal to answer (429 past the budget, 413 over the bounds, 403 a sheet not theirs to send)."""
    player = _player(request, token)
    if not phone.spend(token, cost):
        return JsonResponse({"error": _("Too many checks in a minute: wait a moment.")}, status=429)
    over = bounds.refusal(text, saving=False)
    if over:
        return JsonResponse({"error": over}, status=413)
    game = _own_game(player, game_id)
    refused = phone.sheet_refusal(game, player)
    if refused:
        return JsonResponse({"error": refused}, status=403)
    return game


@require_POST
def sheet_turn(request: HttpRequest, token: str, game_id: int) -> JsonResponse:
    """A turn tapped on the board of the player's own scoresheet, placed and scored by the
    engine (`board_entry.board_turns`); charged to the link as the live check is, for each
    replay it takes (`board_entry.turns_cost`), before anything else is read."""
    text = request.POST.get("gcg", "")
    turns = request.POST.get("turns", "")
    count = min(turns.count("{"), board_entry.MOST_TURNS)
    game = _checked_game(request, token, game_id, text, board_entry.turns_cost(text, count))
    if isinstance(game, JsonResponse):
        return game
    first = bounds.plain_number(request.POST.get("first", "0")) or 0
    try:
        return JsonResponse(board_entry.board_turns(game, text, turns, first))
    except board_entry.Unreadable as unread:
        return JsonResponse({"refused": str(unread), "turn": 0}, status=400)
    except bounds.RecordRefused as refusal:
        return JsonResponse({"error": str(refusal)}, status=413)


# -- the desk's side ------------------------------------------------------------------------------


@login_required
def desk_queue(request: HttpRequest, slug: str, division_id: int) -> HttpResponse:
    division = get_desk_division(request, slug, division_id)
    if request.method == "POST":
        try:
            if "self_report" in request.POST:
                division.self_report = request.POST["self_report"] == "on"
                division.save(update_fields=["self_report", "stamp"])
            elif "display_pin" in request.POST:
                pin = request.POST["display_pin"]
                division.display_pin = pin if pin in DISPLAY_VIEWS else ""
                division.save(update_fields=["display_pin", "stamp"])
            elif "claim" in request.POST:
                pk = bounds.plain_number(request.POST["claim"]) or 0
                claim = get_object_or_404(Claim, pk=pk, game__division=division)
                said = phone.accept(claim, request.user)
                messages.success(request, " ".join([_("Recorded."), *said]))
            elif "line" in request.POST:
                round_number = bounds.plain_number(request.POST.get("round", "")) or 0
                change = results.enter_line(
                    division, round_number, request.POST["line"], request.user
                )
                messages.success(request, " ".join([_("Recorded."), *change.said]))
        except (phone.ReportRefused, results.EntryError) as error:
            messages.error(request, str(error))
        return redirect("desk-claims", slug=slug, division_id=division.pk)
    ctx = {
        "tournament": division.tournament,
        "division": division,
        "pending": reports.pending(division),
        "sent": Scoresheet.objects.filter(game__division=division, sent_by__isnull=False)
        .select_related("game__player1", "game__player2", "sent_by")
        .order_by("-uploaded")[:SENT_SHOWN],
        "view_choices": [
            ("pairings", _("pairings")),
            ("standings", _("standings")),
            ("results", _("results")),
        ],
    }
    return render(request, "tournament/phone/desk_queue.html", ctx)


# What each action on a player's link does, asked before it is done (the page without a
# script, the browser's own question with one: static/desk.js).
LINK_QUESTIONS = {
    "reissue": gettext_lazy(
        "A new link for %(name)s? The link printed on their slip stops working."
    ),
    "revoke": gettext_lazy(
        "Revoke the link of %(name)s? The link printed on their slip stops working, and they "
        "have none until you make a new one."
    ),
}


def _link_question(action: str, name: str) -> str:
    """The question as plain text (a `data-confirm` attribute), the name isolated."""
    return str(LINK_QUESTIONS[action]) % {"name": sentences.isolate(name)}


def _link_question_html(action: str, name: str) -> str:
    return conditional_escape(str(LINK_QUESTIONS[action])) % {"name": bdi(name)}


@login_required
def desk_links(request: HttpRequest, slug: str, division_id: int) -> HttpResponse:
    """Every player's current link, to copy, replace or revoke: for the directors alone (a
    scorekeeper is refused, as for the slips and scorecards that print them). A player who has
    never had a link is given one, as the slips do; one whose link was revoked has none until a
    director makes a new one."""
    division = get_desk_division(request, slug, division_id)
    found = link_lists.rows(request, division)
    rows = [
        {
            "player": row.player,
            "url": row.url,
            "reissue": _link_question("reissue", row.player.name),
            "revoke": _link_question("revoke", row.player.name),
        }
        for row in found
    ]
    ctx = {
        "tournament": division.tournament,
        "division": division,
        "rows": rows,
        "message_text": link_lists.message_text(found),
    }
    response = render(request, "tournament/phone/desk_links.html", ctx)
    response["Cache-Control"] = "no-store"  # the page holds every player's link
    return response


@login_required
@require_http_methods(["GET", "POST"])
def desk_link(request: HttpRequest, slug: str, division_id: int, number: int) -> HttpResponse:
    """Revoke a player's link, or issue a new one (which revokes the old), once the director
    has confirmed: without `confirm=1` the page asks first, naming the player, and changes
    nothing."""
    division = get_desk_division(request, slug, division_id)
    player = get_object_or_404(division.players, number=number)
    data = request.POST if request.method == "POST" else request.GET
    action = "revoke" if data.get("action") == "revoke" else "reissue"
    if request.method != "POST" or data.get("confirm") != "1":
        ctx = {
            "tournament": division.tournament,
            "division": division,
            "player": player,
            "action": action,
            "question": mark_safe(_link_question_html(action, player.name)),  # noqa: S308
        }
        return render(request, "tournament/phone/desk_link_confirm.html", ctx)
    name = sentences.isolate(player.name)
    if action == "revoke":
        phone.revoke_links(player)
        messages.success(request, _("%(name)s's link no longer works.") % {"name": name})
    else:
        token = phone.issue_link(player)
        url = request.build_absolute_uri(reverse("phone", args=[token]))
        messages.success(
            request, _("%(name)s's new link: %(url)s") % {"name": name, "url": ltr_text(url)}
        )
    return redirect(reverse("desk-player-links", args=[slug, division.pk]) + f"#player-{number}")
