"""Who may see what: the lookups every view starts with.

The desk's (`get_desk_*`) answer 403 to anyone who is not one of the tournament's directors
(or, where `scorekeeper=True`, its scorekeepers: results and scoresheets only), and to every
change (a POST) while the tournament is locked, but its unlocking (`unlocking=True`);
the public pages' (`get_public_*`) answer 404 for a tournament that is not public (except to its
directors) and for a scoresheet of a round not published yet, so that neither exists for them.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from tournament.core import bounds
from tournament.core.language import apply_tournament_language
from tournament.core.sentences import isolate
from tournament.models import Change, Division, Game, Player, Scoresheet, Tournament

# -- the director's desk ------------------------------------------------------------------------


def _who_gives_access(tournament: Tournament) -> str:
    names = sorted(u.get_username() for u in tournament.directors.all())
    if not names:
        return gettext("an administrator of this site")
    return ngettext("its director %(names)s", "its directors %(names)s", len(names)) % {
        "names": ", ".join(names)
    }


def get_desk_tournament(
    request: HttpRequest, slug: str, *, scorekeeper: bool = False, unlocking: bool = False
) -> Tournament:
    """The tournament, if the user may do this at its desk; PermissionDenied says why not and
    who can give access (the 403 page shows it)."""
    tournament = get_object_or_404(Tournament, slug=slug)
    user = request.user
    if not tournament.is_director(user):
        if scorekeeper and tournament.is_scorekeeper(user):
            pass
        elif tournament.is_scorekeeper(user):
            raise PermissionDenied(
                gettext(
                    "You keep score at %(name)s: you may enter results and scoresheets. "
                    "Pairing, publishing, players and settings are for its directors; "
                    "%(who)s can make you a co-director."
                )
                % {"name": tournament.name, "who": _who_gives_access(tournament)}
            )
        else:
            raise PermissionDenied(
                gettext(
                    "Only the directors and scorekeepers of %(name)s may use its desk. "
                    "Ask %(who)s to add you by your username."
                )
                % {"name": tournament.name, "who": _who_gives_access(tournament)}
            )
    if tournament.locked and request.method == "POST" and not unlocking:
        raise PermissionDenied(locked_sentence(tournament))
    return tournament


def locked_sentence(tournament: Tournament) -> str:
    """Why nothing can be changed: the tournament is locked, by whom and since when."""
    lock = (
        tournament.changes.filter(action=Change.Action.LOCK)
        .select_related("user", "player")
        .order_by("-at", "-pk")
        .first()
    )
    values = {"name": isolate(tournament.name)}
    if lock is not None and lock.actor_name:
        values |= {
            "who": isolate(lock.actor_name),
            "time": timezone.localtime(lock.at).strftime("%H:%M"),
        }
        return (
            gettext(
                "%(name)s is locked (by %(who)s at %(time)s): nothing can be changed until "
                "one of its directors unlocks it on its desk dashboard."
            )
            % values
        )
    return (
        gettext(
            "%(name)s is locked: nothing can be changed until one of its directors unlocks it "
            "on its desk dashboard."
        )
        % values
    )


def forbidden(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """The 403 answer: the page that says why (templates/403.html), or for the desk's scripts,
    which ask for JSON, the same sentence as `{"ok": false, "error": …}`, so that a refusal
    is shown as what it is and never as a lost connection."""
    reason = str(exception) if exception is not None and str(exception) else ""
    if "application/json" in request.headers.get("Accept", ""):
        text = reason or gettext("This page is for a tournament's directors and scorekeepers.")
        return JsonResponse({"ok": False, "error": text, "refused": True}, status=403)
    return render(request, "403.html", {"exception": reason}, status=403)


def get_desk_division(
    request: HttpRequest, slug: str, division_id: int, *, scorekeeper: bool = False
) -> Division:
    tournament = get_desk_tournament(request, slug, scorekeeper=scorekeeper)
    return get_object_or_404(
        Division.objects.select_related("tournament"), pk=division_id, tournament=tournament
    )


def get_desk_game(
    request: HttpRequest, slug: str, game_id: int, *, scorekeeper: bool = False
) -> Game:
    tournament = get_desk_tournament(request, slug, scorekeeper=scorekeeper)
    return get_object_or_404(
        Game.objects.select_related("division__tournament", "player1", "player2"),
        pk=game_id,
        division__tournament=tournament,
    )


def get_desk_scoresheet(
    request: HttpRequest, slug: str, sheet_id: int, *, scorekeeper: bool = False
) -> Scoresheet:
    tournament = get_desk_tournament(request, slug, scorekeeper=scorekeeper)
    return get_object_or_404(
        Scoresheet.objects.select_related(
            "game__division__tournament", "game__player1", "game__player2", "uploaded_by", "sent_by"
        ),
        pk=sheet_id,
        game__division__tournament=tournament,
    )


# -- the public pages ---------------------------------------------------------------------------


def get_public_tournament(request: HttpRequest, slug: str) -> Tournament:
    tournament = get_object_or_404(Tournament, slug=slug)
    if not tournament.public and not tournament.is_director(request.user):
        raise Http404(gettext("No such tournament."))
    apply_tournament_language(request, tournament.language)
    return tournament


def get_public_division(tournament: Tournament, name: str) -> Division:
    # Through the related manager, so that division.tournament needs no query of its own.
    divisions = tournament.divisions.select_related("playoff")  # the subnav links a playoff
    division = find_division(divisions, name)
    if division is None:
        raise Http404(gettext("No such division."))
    return division


def get_public_player(division: Division, number: int) -> Player:
    return get_object_or_404(division.players, number=number)


def get_public_scoresheet(tournament: Tournament, pk: int) -> Scoresheet:
    """A scoresheet of the tournament, unless its round is not published yet or the sheet is
    held for the director (`Scoresheet.held`: flagged, or with error findings)."""
    return get_object_or_404(
        Scoresheet.objects.public().select_related(
            "game__division", "game__player1", "game__player2"
        ),
        pk=pk,
        game__division__tournament=tournament,
    )


def after_round_asked(request: HttpRequest, last: int) -> int | None:
    """The round asked for with ?round=N, from 0 (before round 1) to the last with a result."""
    value = request.GET.get("round")
    if value is None or value == "":
        return None
    number = bounds.plain_number(value)
    if number is None or number > last:
        raise Http404(gettext("No such round."))
    return number


def find_division(divisions: QuerySet[Division], name: str) -> Division | None:
    """The division called `name` among `divisions`, in any case as in tsh (`a` finds `A`);
    a name written exactly as given wins over one that differs only in case."""
    found = list(divisions.filter(name__iexact=name)[:10])
    if not found:
        # SQLite's iexact folds ASCII letters only: fold the others here, reading names alone.
        names = divisions.prefetch_related(None).values_list("pk", "name")
        pks = [pk for pk, other in names if other.casefold() == name.casefold()]
        found = list(divisions.filter(pk__in=pks)) if pks else []
    exact = [d for d in found if d.name == name]
    return (exact or found)[0] if found else None


def division_by_name(slug: str, name: str) -> Division:
    """The division `name` (in any case) of the tournament `slug`; LookupError with a sentence
    if none."""
    divisions = Division.objects.select_related("tournament").filter(tournament__slug=slug)
    division = find_division(divisions, name)
    if division is None:
        raise LookupError(
            gettext("no division %(name)r in tournament %(slug)r") % {"name": name, "slug": slug}
        )
    return division
