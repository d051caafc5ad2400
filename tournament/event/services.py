"""A tournament's life at the desk: its creation, its people, its lock, players pasted in and
checked in. Every change is logged through `audit.record`.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext as _

from tournament.core import audit
from tournament.core.actor import Actor, RequestUser
from tournament.core.errors import PeopleRefused
from tournament.core.sentences import isolate
from tournament.exchange import snapshots
from tournament.models import Change, Division, Game, Player, Scoresheet, Tournament
from tournament.pairing import services as pairing
from tournament.results import services as results

# The permission that lets a signed-in user create events (given by an admin, or by
# `manage.py createdirector USER`): Django's own "add" permission on tournaments.
CREATE_PERMISSION = "tournament.add_tournament"


def may_create(user: RequestUser) -> bool:
    return bool(user.is_authenticated and user.has_perm(CREATE_PERMISSION))


def unique_slug(name: str) -> str:
    base = slugify(name)[:90] or "event"
    if base in Tournament.RESERVED_SLUGS:  # the desk's own pages, e.g. /desk/new/
        base = f"{base}-event"
    slug, n = base, 1
    while Tournament.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


@dataclass
class NewDivision:
    name: str
    planned_rounds: int | None = None
    ruleset: str = "naspa"
    tile_set: str = "english"
    spread_cap: list[int] | None = None
    bye_spread: int = 50
    rating_system: str = "nsa2008"
    auto_pair: bool = True  # a division made at the desk pairs its next round by itself

    def create(self, tournament: Tournament, position: int, name: str) -> Division:
        """This division's row in `tournament`, at `position`, under `name` (already checked)."""
        return Division.objects.create(
            tournament=tournament,
            position=position,
            name=name,
            planned_rounds=self.planned_rounds,
            ruleset=self.ruleset,
            tile_set=self.tile_set,
            spread_cap=self.spread_cap or None,
            bye_spread=self.bye_spread,
            rating_system=self.rating_system,
            auto_pair=self.auto_pair,
        )


def create_tournament(
    user: User, name: str, divisions: list[NewDivision], **fields: Any
) -> Tournament:
    """A new tournament directed by `user`, with its divisions, in one transaction."""
    with transaction.atomic():
        tournament = Tournament.objects.create(name=name, slug=unique_slug(name), **fields)
        tournament.directors.add(user)
        for position, d in enumerate(divisions):
            division = d.create(tournament, position, d.name)
            audit.record(
                division,
                Change.Action.CREATE,
                actor=user,
                after={"division": d.name},
                reason=f"Division {isolate(d.name)} created with the tournament",
            )
        audit.record(
            tournament,
            Change.Action.CREATE,
            actor=user,
            after={"tournament": name},
            reason=f"{isolate(name)} created by {isolate(user.get_username())}",
        )
    return tournament


ROLES = {"director": "co-director", "scorekeeper": "scorekeeper"}


def add_person(tournament: Tournament, username: str, role: str, by: Actor) -> Any:
    """Make the user `username` a co-director or a scorekeeper (one role at a time)."""
    if role not in ROLES:
        raise PeopleRefused(
            gettext("%(role)r is not a role: co-director or scorekeeper.") % {"role": role}
        )
    User = get_user_model()
    username = username.strip()
    try:
        user = User.objects.get(**{User.USERNAME_FIELD + "__iexact": username})
    except User.DoesNotExist:
        raise PeopleRefused(
            gettext("No user is called “%(username)s”: they need an account on this site first.")
            % {"username": username}
        ) from None
    with transaction.atomic():
        if role == "director":
            tournament.scorekeepers.remove(user)
            tournament.directors.add(user)
        else:
            if tournament.is_director(user):
                raise PeopleRefused(
                    gettext("%(username)s directs %(name)s; remove them as a co-director first.")
                    % {"username": user.get_username(), "name": tournament.name}
                )
            tournament.scorekeepers.add(user)
        audit.record(
            tournament,
            Change.Action.PEOPLE,
            actor=by,
            after={"user": user.get_username(), "role": role},
            reason=f"{isolate(user.get_username())} added as {ROLES[role]}",
        )
    return user


def remove_person(tournament: Tournament, user_id: int, by: Actor) -> str:
    with transaction.atomic():
        user = tournament.directors.filter(pk=user_id).first()
        if user is not None:
            if tournament.directors.count() == 1:
                raise PeopleRefused(gettext("A tournament keeps at least one director."))
            tournament.directors.remove(user)
            role = "director"
        else:
            user = tournament.scorekeepers.filter(pk=user_id).first()
            if user is None:
                raise PeopleRefused(gettext("That user has no role in this tournament."))
            tournament.scorekeepers.remove(user)
            role = "scorekeeper"
        audit.record(
            tournament,
            Change.Action.PEOPLE,
            actor=by,
            before={"user": user.get_username(), "role": role},
            reason=f"{isolate(user.get_username())} is no longer {ROLES[role]}",
        )
    return str(user.get_username())


def set_lock(tournament: Tournament, locked: bool, by: Actor, reason: str = "") -> None:
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if tournament.locked == locked:
            return
        tournament.locked = locked
        tournament.save(update_fields=["locked"])
        audit.record(
            tournament,
            Change.Action.LOCK if locked else Change.Action.UNLOCK,
            actor=by,
            before={"locked": not locked},
            after={"locked": locked},
            reason=reason or ("Tournament locked" if locked else "Tournament unlocked"),
        )
        if locked:
            snapshots.after_lock(tournament.pk)


def has_games(tournament: Tournament) -> bool:
    """Whether any round of the event is paired (a game, a bye or a forfeit)."""
    return Game.objects.filter(division__tournament=tournament).exclude(kind=Game.VOID).exists()


def unplayed_rounds(tournament: Tournament) -> list[str]:
    """What a .tou file would leave out: a line a division with rounds planned or paired that
    have no result yet (or none at all), e.g. “Division A: rounds 2, 3 not played (of 3)”.
    An event with no game yet (no players, or no round paired) leaves nothing out: no line."""
    if not has_games(tournament):
        return []
    lines = []
    for division in tournament.divisions.all():
        summaries = results.round_summaries(division)
        unplayed = [s.number for s in summaries if not s.games or s.missing]
        if unplayed:
            numbers = ", ".join(map(str, unplayed))
            lines.append(
                ngettext(
                    "Division %(name)s: round %(numbers)s not played (of %(count)s)",
                    "Division %(name)s: rounds %(numbers)s not played (of %(count)s)",
                    len(unplayed),
                )
                % {"name": division.name, "numbers": numbers, "count": len(summaries)}
            )
    return lines


@dataclass
class RoundState:
    """A round as the dashboard shows it: paired, published, results complete, verified (every
    game played has a scoresheet, and none is flagged and unresolved)."""

    number: int
    games: int
    missing: list[Game]
    published: bool
    verified: bool

    @property
    def paired(self) -> bool:
        return self.games > 0

    @property
    def complete(self) -> bool:
        return self.paired and not self.missing

    @property
    def entered(self) -> int:
        return self.games - len(self.missing)


def round_states(division: Division) -> list[RoundState]:
    published = dict(division.rounds.values_list("number", "published"))
    played: dict[int, list[int]] = {}
    for game_id, rnd in division.games.filter(kind=Game.PLAYED).values_list("pk", "round"):
        played.setdefault(rnd, []).append(game_id)
    with_sheet: set[int] = set()
    flagged_rounds: set[int] = set()
    sheets = Scoresheet.objects.filter(game__division=division, game__kind=Game.PLAYED)
    for game_id, rnd, flagged, resolved in sheets.values_list(
        "game_id", "game__round", "flagged", "resolved"
    ):
        with_sheet.add(game_id)
        if flagged and not resolved:
            flagged_rounds.add(rnd)
    states = []
    for s in results.round_summaries(division):
        games = played.get(s.number, [])
        verified = bool(games) and s.number not in flagged_rounds and set(games) <= with_sheet
        states.append(
            RoundState(
                number=s.number,
                games=s.games,
                missing=s.missing,
                # A round without a record of its pairing (imported) was published with them.
                published=s.games > 0 and published.get(s.number, True),
                verified=verified and not s.missing,
            )
        )
    return states


def next_step(division: Division, states: list[RoundState]) -> str:
    """What the director does next in this division, in one sentence."""
    players = division.players.count()
    if players == 0:
        return gettext("Add players: type or paste them on the players page.")
    for s in states:
        if not s.paired:
            if s.number == 1:
                checked = division.players.filter(checked_in=True).count()
                if checked == 0:
                    return gettext("Check players in, then pair round 1.")
                return gettext("Pair round 1 (%(checked)s of %(players)s players checked in).") % {
                    "checked": checked,
                    "players": players,
                }
            return gettext("Pair round %(number)s.") % {"number": s.number}
        if not s.published:
            return gettext("Check round %(number)s's pairings and publish them.") % {
                "number": s.number
            }
        if s.missing:
            return gettext("Enter round %(number)s's results (%(count)s missing).") % {
                "number": s.number,
                "count": len(s.missing),
            }
    if not states:
        return gettext("Pair round 1.")
    if division.planned_rounds and states[-1].number < division.planned_rounds:
        return gettext("Pair round %(value)s.") % {"value": states[-1].number + 1}
    return gettext(
        "Every round is played: check the scoresheets, lock the event, download the .tou file."
    )


# Division and player fields a copy leaves behind: identity, and what belongs to one event.
_DIVISION_SKIP = {"id", "tournament", "stamp", "tou", "tsh_file", "check_in_open"}
_PLAYER_SKIP = {
    "id",
    "division",
    "withdrawn_from_round",
    "checked_in",
    "checked_in_by",
    "updated",
    "wespa",
    "lifetime_games",
    "tsh_extras",
}


def copy_tournament(tournament: Tournament, user: User, name: str) -> Tournament:
    """The start of next year's event: the settings, divisions and roster, no results; the
    copier and the directors are its directors."""
    name = " ".join(name.split())
    if not name:
        raise PeopleRefused(gettext("The copy needs a name."))
    with transaction.atomic():
        copy = Tournament.objects.create(
            name=name,
            slug=unique_slug(name),
            venue=tournament.venue,
            public=tournament.public,
            language=tournament.language,
            tsh_config=tournament.tsh_config,
        )
        copy.directors.add(user, *tournament.directors.all())
        for division in tournament.divisions.all():
            fields = {
                f.name: getattr(division, f.name)
                for f in Division._meta.concrete_fields
                if f.name not in _DIVISION_SKIP
            }
            new = Division.objects.create(tournament=copy, **fields)
            Player.objects.bulk_create(
                Player(
                    division=new,
                    **{
                        f.name: getattr(p, f.name)
                        for f in Player._meta.concrete_fields
                        if f.name not in _PLAYER_SKIP
                    },
                )
                for p in division.players.all()
            )
            audit.record(
                new,
                Change.Action.CREATE,
                actor=user,
                after={"division": new.name, "players": new.players.count()},
                reason=f"Copied from {isolate(tournament.name)}",
            )
    return copy


# -- divisions: added, renamed, removed; a player moved between them ---------------------------


def _division_name(tournament: Tournament, name: str, exclude: int | None = None) -> str:
    name = " ".join(name.split())
    if not name or len(name) > 50:
        raise PeopleRefused(_("A division needs a name of 1 to 50 characters."))
    others = tournament.divisions.all()
    if exclude is not None:
        others = others.exclude(pk=exclude)
    if others.filter(name__iexact=name).exists():
        raise PeopleRefused(
            _("%(name)s already has a division %(division)s.")
            % {"name": tournament.name, "division": name}
        )
    return name


def add_division(tournament: Tournament, new: NewDivision, user: Actor) -> Division:
    """A division added at the desk, after the others."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        name = _division_name(tournament, new.name)
        last = max((d.position for d in tournament.divisions.all()), default=-1)
        division = new.create(tournament, last + 1, name)
        audit.record(
            division,
            Change.Action.DIVISION,
            actor=user,
            after={"division": name},
            reason=_("Division %(name)s added") % {"name": name},
        )
    return division


def rename_division(division: Division, name: str, user: Actor) -> Division:
    with transaction.atomic():
        division = pairing.locked_division(division)
        name = _division_name(division.tournament, name, exclude=division.pk)
        before = division.name
        if before == name:
            return division
        division.name = name
        division.save(update_fields=["name"])
        audit.record(
            division,
            Change.Action.DIVISION,
            actor=user,
            before={"division": before},
            after={"division": name},
            reason=_("Division %(before)s renamed %(name)s") % {"before": before, "name": name},
        )
    return division


def remove_division(division: Division, user: Actor) -> str:
    """An empty division (no player, no game) removed; the removal is logged on the
    tournament."""
    with transaction.atomic():
        division = pairing.locked_division(division)
        if division.players.exists() or division.games.exists():
            raise PeopleRefused(
                _(
                    "Division %(name)s has players: move or remove them first (only an empty "
                    "division is removed)."
                )
                % {"name": division.name}
            )
        name, tournament = division.name, division.tournament
        division.delete()
        audit.record(
            tournament,
            Change.Action.DIVISION,
            actor=user,
            before={"division": name},
            reason=_("Division %(name)s removed") % {"name": name},
        )
    return name


def set_dates(
    tournament: Tournament, start: datetime.date, end: datetime.date | None, by: Actor
) -> None:
    """The event's first and last day (the last the first when not given), logged. A rating
    list rates its events in the order of their first days."""
    end = end or start
    if end < start:
        raise ValueError(gettext("The last day comes before the first."))
    before = {"start_date": _iso(tournament.start_date), "end_date": _iso(tournament.end_date)}
    with transaction.atomic():
        tournament.start_date, tournament.end_date = start, end
        tournament.save(update_fields=["start_date", "end_date"])
        audit.record(
            tournament,
            Change.Action.EDIT_EVENT,
            actor=by,
            before=before,
            after={"start_date": start.isoformat(), "end_date": end.isoformat()},
            reason=f"Dates {start.isoformat()} to {end.isoformat()}",
        )


def _iso(day: datetime.date | None) -> str | None:
    return day.isoformat() if day is not None else None


def set_language(tournament: Tournament, language: str, by: Actor) -> None:
    """The tournament's default language for its public pages and reports ("" for none: the
    visitor's browser decides). Saved as any change to the tournament: its divisions' stamps
    are renewed, so a page or phone snapshot kept with the old default is not served again."""
    if language and language not in dict(settings.LANGUAGES):
        raise ValueError(
            gettext("%(language)r is not one of Spread's languages") % {"language": language}
        )
    tournament.language = language
    tournament.save(update_fields=["language"])
