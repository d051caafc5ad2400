"""The desk's roster pages: the players, late entries, withdrawals and reinstatement, the pasted
list, a player's edit, check-in, absence, a fixed table and a move to another division. The work
is done in `players/services.py`; what a write of the field did to later rounds comes back as
the player's `said` (`core/signals.py`)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournament.core import bounds
from tournament.core.access import get_desk_division
from tournament.core.errors import PeopleRefused
from tournament.core.forms import form_error
from tournament.hall import forms as hall_forms
from tournament.hall import photos
from tournament.interchange import names
from tournament.interchange.roster import MAX_BYTES, RosterError
from tournament.models import Division, Game, Player
from tournament.pairing import services as pairing
from tournament.pairing.views import tell
from tournament.people import services as people
from tournament.phone import checkin as self_check_in
from tournament.players import roster as roster_changes
from tournament.players import services as player_changes
from tournament.players.forms import (
    AbsentForm,
    FixedTableForm,
    LateEntryForm,
    MoveForm,
    PasteForm,
    PlayerForm,
    RosterForm,
    WithdrawForm,
)
from tournament.players.services import NewPlayer


def _players_page(
    request: HttpRequest,
    division: Division,
    late: LateEntryForm | None = None,
    status: int = 200,
    latin_given: dict[int, player_changes.LatinName] | None = None,
) -> HttpResponse:
    players = list(division.players.all())
    style = names.style_of(p.name for p in players)
    every = request.GET.get("latin") == "all"
    context = {
        "tournament": division.tournament,
        "division": division,
        "players": players,
        "started": division.games.exists(),  # players are edited and removed before round 1
        "withdraw": WithdrawForm(initial={"from_round": pairing.next_round(division)}),
        "late": late or LateEntryForm(last_first=style, absent_result=division.absent_result),
        "roster": RosterForm(),
        "next_round": pairing.next_round(division),
        "other_divisions": division.tournament.divisions.exclude(pk=division.pk),
        # A refused list comes back to be corrected rather than typed again.
        "paste": PasteForm(
            initial={"players": request.session.pop("pasted_players", "")}, last_first=style
        ),
        "latin_rows": _latin_rows(players, every, latin_given or {}),
        "latin_every": every,
        "latin_to_check": sum(p.latin_to_check for p in players),
    }
    return render(request, "tournament/players/players.html", context, status=status)


def _latin_rows(
    players: list[Any], every: bool, given: dict[int, player_changes.LatinName]
) -> list[dict[str, Any]]:
    """The rows of the Latin names' form: the players whose name is in another script, or
    whose Latin name a director wrote (every player with `every`), with what was typed in a
    refused form kept (and its rows shown)."""
    rows = []
    for p in players:
        typed = given.get(p.number)
        shown = every or typed is not None or p.latin_checked or names.needs_check(p.name)
        if not (shown or p.latin_name != names.automatic(p.name)):
            continue
        rows.append(
            {
                "player": p,
                "value": typed.latin if typed else p.name_in_latin,
                "checked": typed.checked if typed else p.latin_checked,
                "automatic": not p.latin_checked,
            }
        )
    return rows


@login_required
def players(request: HttpRequest, slug: str, division_id: int) -> HttpResponse:
    division = get_desk_division(request, slug, division_id)
    return _players_page(request, division)


@login_required
@require_POST
def withdraw(request: HttpRequest, slug: str, division_id: int) -> HttpResponse:
    division = get_desk_division(request, slug, division_id)
    form = WithdrawForm(request.POST)
    if not form.is_valid():
        messages.error(request, form_error(form))
        return redirect("desk-players", slug, division.pk)
    player = get_object_or_404(division.players, number=form.cleaned_data["player"])
    try:
        withdrawn = player_changes.withdraw(player, form.cleaned_data["from_round"], request.user)
    except pairing.PairingRefused as refused:
        messages.error(request, str(refused))
    else:
        tell(request, withdrawn.said)
        messages.success(
            request,
            gettext("%(name)s withdrawn from round %(round)s.")
            % {"name": player.name, "round": form.cleaned_data["from_round"]},
        )
    return redirect("desk-players", slug, division.pk)


@login_required
@require_POST
def reinstate(request: HttpRequest, slug: str, division_id: int, number: int) -> HttpResponse:
    division = get_desk_division(request, slug, division_id)
    player = get_object_or_404(division.players, number=number)
    tell(request, player_changes.reinstate(player, request.user).said)
    messages.success(request, gettext("%(name)s takes part again.") % {"name": player.name})
    return redirect("desk-players", slug, division.pk)


@login_required
@require_POST
def roster(request: HttpRequest, slug: str, division_id: int) -> HttpResponse:
    """Players added from a spreadsheet or CSV file; a file with a bad row adds no one."""
    division = get_desk_division(request, slug, division_id)
    form = RosterForm(request.POST, request.FILES)
    if not form.is_valid():
        messages.error(request, form_error(form))
        return redirect("desk-players", slug, division.pk)
    upload = form.cleaned_data["file"]
    try:
        # One byte more than a roster may be is enough to refuse it: no more is read.
        data = upload.read(MAX_BYTES + 1)
        added = player_changes.import_roster(division, data, upload.name, request.user)
    except RosterError as error:
        messages.error(
            request,
            gettext("Nothing imported: %(problems)s") % {"problems": "; ".join(error.problems)},
        )
    else:
        late = sum(1 for p in added if p.games_as_1.exists())
        text = ngettext(
            "%(count)s player added to division %(name)s.",
            "%(count)s players added to division %(name)s.",
            len(added),
        ) % {"count": len(added), "name": division.name}
        if late:
            text += " " + ngettext(
                "%(count)s of them with forfeit losses for the rounds already under way.",
                "%(count)s of them with forfeit losses for the rounds already under way.",
                late,
            ) % {"count": late}
        messages.success(request, text)
        if note := people.unsure_note(added):
            messages.warning(request, note)
    return redirect("desk-players", slug, division.pk)


@login_required
@require_POST
def latin_names(request: HttpRequest, slug: str, division_id: int) -> HttpResponse:
    """The players' names in Latin letters, written or checked by the director."""
    division = get_desk_division(request, slug, division_id)
    every = request.POST.get("all") == "1"  # “Save, every name checked”
    given = {}
    for key in request.POST:
        number = bounds.plain_number(key.removeprefix("latin-")) if key[:6] == "latin-" else None
        if number is not None:
            checked = every or request.POST.get(f"checked-{number}") == "1"
            name = request.POST.get(key, "")  # the key's last value, as items() gives it
            given[number] = player_changes.LatinName(number, name, checked)
    if not given:
        messages.error(request, gettext("No name in Latin letters was sent."))
        return redirect("desk-players", slug, division.pk)
    try:
        changed = player_changes.set_latin_names(division, list(given.values()), request.user)
    except player_changes.LatinRefused as refused:
        messages.error(
            request,
            gettext("Nothing saved: %(problems)s") % {"problems": " ".join(refused.problems)},
        )
        return _players_page(request, division, status=400, latin_given=given)
    messages.success(
        request,
        ngettext(
            "%(count)s name in Latin letters saved.",
            "%(count)s names in Latin letters saved.",
            len(changed),
        )
        % {"count": len(changed)},
    )
    return redirect(reverse("desk-players", args=[slug, division.pk]) + "#latin-names")


@login_required
@require_POST
def late_entry(request: HttpRequest, slug: str, division_id: int) -> HttpResponse:
    division = get_desk_division(request, slug, division_id)
    form = LateEntryForm(request.POST, last_first=player_changes.names_last_first(division))
    if not form.is_valid():
        messages.error(request, form_error(form))
        return _players_page(request, division, form, status=400)
    try:
        data = dict(form.cleaned_data)
        missed = data.pop("missed")
        new = player_changes.NewPlayer(**data)
        player = player_changes.late_entry(division, new, request.user, missed)
    except pairing.PairingRefused as refused:
        messages.error(request, str(refused))
        return _players_page(request, division, form, status=409)
    tell(request, player.said)
    if note := people.unsure_note([player]):
        messages.warning(request, note)
    kinds = list(
        player.games_as_1.filter(kind__in=(Game.FORFEIT, Game.BYE)).values_list("kind", flat=True)
    )
    given = len(kinds)
    values = {"name": player.name, "number": player.number, "count": given}
    if given and Game.FORFEIT in kinds:
        text = ngettext(
            "%(name)s added as player %(number)s, with forfeit losses in %(count)s round.",
            "%(name)s added as player %(number)s, with forfeit losses in %(count)s rounds.",
            given,
        )
    elif given:
        text = ngettext(
            "%(name)s added as player %(number)s, with byes in %(count)s round.",
            "%(name)s added as player %(number)s, with byes in %(count)s rounds.",
            given,
        )
    else:
        text = gettext("%(name)s added as player %(number)s.")
    text %= values
    if player.name != data["name"]:
        rewritten = gettext("“%(typed)s” is written “%(name)s”, as the division writes names.")
        text += " " + rewritten % {"typed": data["name"], "name": player.name}
    messages.success(request, text)
    return redirect("desk-players", slug, division.pk)


@login_required
@require_POST
def paste_players(request: HttpRequest, slug: str, division_id: int) -> HttpResponse:
    division = get_desk_division(request, slug, division_id)
    form = PasteForm(request.POST)
    if not form.is_valid():
        messages.error(request, form_error(form))
        return redirect("desk-players", slug, division.pk)
    rewritten: list[str] = []
    try:
        added = roster_changes.add_players(
            division, form.cleaned_data["players"], request.user, rewritten
        )
    except roster_changes.PasteError as error:
        messages.error(
            request,
            gettext("Nobody added: %(problems)s.") % {"problems": "; ".join(error.problems)},
        )
        request.session["pasted_players"] = form.cleaned_data["players"]
    else:
        messages.success(
            request,
            ngettext(
                "%(count)s player added to division %(name)s.",
                "%(count)s players added to division %(name)s.",
                len(added),
            )
            % {"count": len(added), "name": division.name}
            + _rewritten_text(rewritten),
        )
    return redirect("desk-players", slug, division.pk)


def _rewritten_text(rewritten: list[str]) -> str:
    """The names written in the division's style rather than as pasted (the first five), said
    after the count."""
    if not rewritten:
        return ""
    values = {
        "count": len(rewritten),
        "names": "; ".join(rewritten[:5]) + (" …" if len(rewritten) > 5 else ""),
    }
    if "," in rewritten[0]:
        text = ngettext(
            "%(count)s name written “Last, First”, as the division writes names: %(names)s.",
            "%(count)s names written “Last, First”, as the division writes names: %(names)s.",
            len(rewritten),
        )
    else:
        text = ngettext(
            "%(count)s name written “First Last”, as the division writes names: %(names)s.",
            "%(count)s names written “First Last”, as the division writes names: %(names)s.",
            len(rewritten),
        )
    return " " + text % values


@login_required
def check_in(request: HttpRequest, slug: str, division_id: int) -> HttpResponse:
    division = get_desk_division(request, slug, division_id)
    if request.method == "POST" and "self_check_in" in request.POST:
        # The division's switch: players may check themselves in from their links.
        on = request.POST["self_check_in"] == "on"
        try:
            self_check_in.set_open(division, on, request.user)
            messages.success(
                request,
                gettext("Players may check themselves in from their links until round 1 is paired.")
                if on
                else gettext("Players can no longer check themselves in."),
            )
        except self_check_in.CheckInRefused as refused:
            messages.error(request, str(refused))
        return redirect("desk-check-in", slug, division.pk)
    if request.method == "POST":
        player = get_object_or_404(division.players, number=request.POST.get("player") or 0)
        checked_in = request.POST.get("checked_in") == "1"
        roster_changes.set_checked_in(player, checked_in, request.user)
        messages.success(
            request,
            (
                gettext("%(name)s checked in.")
                if checked_in
                else gettext("%(name)s is not checked in.")
            )
            % {"name": player.name},
        )
        return redirect("desk-check-in", slug, division.pk)
    players = list(division.players.filter(withdrawn_from_round=None))
    context = {
        "tournament": division.tournament,
        "division": division,
        "players": players,
        "checked": sum(p.checked_in for p in players),
        "by_phone": sum(p.checked_in and p.checked_in_by == "phone" for p in players),
        "round_1_paired": self_check_in.round_1_paired(division),
    }
    return render(request, "tournament/players/check_in.html", context)


@login_required
def edit_player(request: HttpRequest, slug: str, division_id: int, number: int) -> HttpResponse:
    """A player's name, rating and club, corrected (or the player removed) before round 1."""
    division = get_desk_division(request, slug, division_id)
    player = get_object_or_404(division.players, number=number)
    stored = {"name": player.name, "rating": player.rating, "club": player.club}
    removing = request.method == "POST" and request.POST.get("action") == "remove"
    if removing:
        # A refused removal shows the form as the director left it (the remove button sends
        # its fields), unchecked: the refusal is the page's one message.
        form = PlayerForm(initial={k: request.POST.get(k, v) for k, v in stored.items()})
    else:
        form = PlayerForm(request.POST or None, initial=stored)
    status = 200
    if request.method == "POST":
        try:
            if removing:
                roster_changes.remove_player(player, request.user)
                messages.success(
                    request,
                    gettext("%(name)s removed from division %(name2)s.")
                    % {"name": player.name, "name2": division.name},
                )
                return redirect("desk-players", slug, division.pk)
            if form.is_valid():
                new = NewPlayer(**form.cleaned_data)
                roster_changes.edit_player(player, new, request.user)
                messages.success(
                    request,
                    gettext("Player %(number)s saved: %(name)s.")
                    % {"number": player.number, "name": new.name},
                )
                return redirect("desk-players", slug, division.pk)
            status = 400
        except pairing.PairingRefused as refused:
            messages.error(request, str(refused))
            status = 409
    context = {
        "tournament": division.tournament,
        "division": division,
        "player": player,
        "form": form,
        **_hall_forms(division, player),
    }
    return render(request, "tournament/players/player_edit.html", context, status=status)


def _hall_forms(division: Division, player: Player) -> dict[str, object]:
    """The edit page's other forms, saved at any time: the cross-tables id and the photo."""
    stamp = photos.photo_stamps(division).get(player.pk)
    return {
        "xtid_form": hall_forms.XtidForm(initial={"xtid": player.xtid}),
        "photo_form": hall_forms.PhotoForm(),
        "photo_url": photos.photo_url(division, player.number, stamp) if stamp else None,
    }


@login_required
@require_POST
def absent(request: HttpRequest, slug: str, division_id: int) -> HttpResponse:
    """A player marked absent for a round not paired yet (or present again)."""
    division = get_desk_division(request, slug, division_id)
    form = AbsentForm(request.POST)
    if not form.is_valid():
        messages.error(request, form_error(form))
        return redirect("desk-players", slug, division.pk)
    player = get_object_or_404(division.players, number=form.cleaned_data["player"])
    round_number = form.cleaned_data["round"]
    is_absent = request.POST.get("absent") != "0"
    paired = player_changes.pairing_of(player, round_number) if is_absent else None
    changes_pairing = (
        paired is not None
        and not paired.has_result
        and round_number not in (player.absent_rounds or [])
    )
    if changes_pairing and request.POST.get("confirm") != "1":
        assert paired is not None  # changes_pairing: it is paired
        # A round already paired: its pairing changes at once, so the desk asks first, naming
        # both players.
        context = {
            "tournament": division.tournament,
            "division": division,
            "player": player,
            "round": round_number,
            "question": player_changes.absence_question(player, paired),
        }
        return render(request, "tournament/players/absent_confirm.html", context)
    try:
        marked = player_changes.set_absent(player, round_number, is_absent, request.user)
    except pairing.PairingRefused as refused:
        messages.error(request, str(refused))
    else:
        for said in marked.said:
            messages.info(request, said)
        if not is_absent:
            text = _("%(name)s is present in round %(round)d.")
        elif changes_pairing:
            text = _(
                "%(name)s is absent in round %(round)d: the pairing is changed (undo takes it "
                "back)."
            )
        elif division.absent_result == "forfeit":
            text = _("%(name)s is absent in round %(round)d: a forfeit loss when it is paired.")
        else:
            text = _("%(name)s is absent in round %(round)d: not paired, no result.")
        messages.success(request, text % {"name": player.name, "round": round_number})
    return redirect("desk-players", slug, division.pk)


@login_required
@require_POST
def fixed_table(request: HttpRequest, slug: str, division_id: int) -> HttpResponse:
    division = get_desk_division(request, slug, division_id)
    form = FixedTableForm(request.POST)
    if not form.is_valid():
        messages.error(request, form_error(form))
        return redirect("desk-players", slug, division.pk)
    player = get_object_or_404(division.players, number=form.cleaned_data["player"])
    table = form.cleaned_data["table"]
    try:
        player_changes.set_fixed_table(player, table, request.user)
    except pairing.PairingRefused as refused:
        messages.error(request, str(refused))
    else:
        messages.success(
            request,
            _("%(name)s sits at table %(table)d in every round paired from now on.")
            % {"name": player.name, "table": table}
            if table
            else _("%(name)s has no fixed table.") % {"name": player.name},
        )
    return redirect("desk-players", slug, division.pk)


@login_required
@require_POST
def move_player(request: HttpRequest, slug: str, division_id: int) -> HttpResponse:
    division = get_desk_division(request, slug, division_id)
    form = MoveForm(request.POST)
    if not form.is_valid():
        messages.error(request, form_error(form))
        return redirect("desk-players", slug, division.pk)
    player = get_object_or_404(division.players, number=form.cleaned_data["player"])
    target = get_object_or_404(division.tournament.divisions, pk=form.cleaned_data["division"])
    try:
        moved = roster_changes.move_player(player, target, request.user)
    except PeopleRefused as refused:
        messages.error(request, str(refused))
    else:
        messages.success(
            request,
            _("%(name)s moved to division %(division)s as player %(number)d.")
            % {"name": moved.name, "division": target.name, "number": moved.number},
        )
    return redirect("desk-players", slug, division.pk)
