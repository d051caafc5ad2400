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
from django.db.models import Max, Q
from django.utils.text import slugify
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext as _

from tournament.core import audit, bounds
from tournament.core.actor import Actor, RequestUser
from tournament.core.sentences import isolate
from tournament.event import snapshots
from tournament.interchange import names, ratinglist
from tournament.models import Change, Division, Game, Player, Scoresheet, Tournament
from tournament.pairing import services as rounds
from tournament.people import services as people
from tournament.players.services import NewPlayer, late_entry, names_last_first
from tournament.results import services as results
from tournament.standings import stamps

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


class PeopleRefused(ValueError):
    """A co-director or scorekeeper who cannot be added or removed; the message says why."""


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


# -- players ------------------------------------------------------------------------------------


class PasteError(ValueError):
    """Lines of a pasted list that cannot be read: one message a line, with its number."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


def _fields(line: str) -> list[str]:
    if "\t" in line:
        return [f.strip() for f in line.split("\t")]
    if "," in line:
        return [f.strip() for f in line.split(",")]
    return line.split()


def read_player_list(text: str) -> list[NewPlayer]:
    """Players pasted one a line: name, rating, optional club.

    Fields are split by tabs (a spreadsheet's copy), else commas, else spaces. The rating is the
    first whole number after the name, so a name written “Last, First” keeps its comma; what
    follows the rating is the club. A line without a rating is refused.
    """
    players: list[NewPlayer] = []
    problems: list[str] = []
    seen: set[str] = set()
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        fields = [f for f in _fields(line) if f]
        at = next(
            (i for i, f in enumerate(fields) if i > 0 and bounds.plain_number(f) is not None),
            None,
        )
        if at is None:
            problems.append(
                gettext("line %(number)s: a name, then a rating (e.g. “Quill, Ada, 1650”)")
                % {"number": number}
            )
            continue
        separator = ", " if "," in line and "\t" not in line else " "
        name = " ".join(separator.join(fields[:at]).split())
        rating = bounds.plain_number(fields[at])
        assert rating is not None
        if rating > 3000:
            problems.append(
                gettext("line %(number)s: a rating of at most 3000, not %(rating)s")
                % {"number": number, "rating": rating}
            )
            continue
        club = " ".join(" ".join(fields[at + 1 :]).split())
        if len(name) > 200 or len(club) > 100:
            problems.append(
                gettext("line %(number)s: a name of at most 200 characters, a club of 100")
                % {"number": number}
            )
            continue
        if name.lower() in seen:
            problems.append(
                gettext("line %(number)s: %(name)s is listed twice")
                % {"number": number, "name": name}
            )
            continue
        seen.add(name.lower())
        players.append(NewPlayer(name=name, rating=rating, club=club))
    if problems:
        raise PasteError(problems)
    if not players:
        raise PasteError(["the list is empty: one player a line, name then rating"])
    return players


def add_players(
    division: Division, text: str, user: Actor, rewritten: list[str] | None = None
) -> list[Player]:
    """The pasted players added to the division, all or (on any bad line) none, every name in
    the division's one style: the style of its names, or for its first players the style of
    most of the list's (`names.in_style`: “Last, First” or “First Last”). Each name written
    otherwise than pasted is listed in `rewritten`, as it is written now."""
    new = read_player_list(text)
    with transaction.atomic():
        rounds.locked_division(division)
        style = names_last_first(division)
        if style is None:
            style = names.style_of(p.name for p in new)
        added = []
        for number, player in enumerate(new, 1):
            try:
                added.append(late_entry(division, player, user, last_first=style))
            except rounds.PairingRefused as refused:
                raise PasteError([f"player {number}: {refused}"]) from refused
            if rewritten is not None and added[-1].name != player.name:
                rewritten.append(added[-1].name)
    return added


def set_checked_in(player: Player, checked_in: bool, user: Actor) -> Player:
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player.pk)
        if player.checked_in == checked_in:
            return player
        player.checked_in = checked_in
        player.save(update_fields=["checked_in", "updated"])
        audit.record(
            player.division,
            Change.Action.CHECK_IN,
            actor=user,
            before={"player": player.number, "checked_in": not checked_in},
            after={"player": player.number, "checked_in": checked_in},
            reason=f"{isolate(player.name)} {'checked in' if checked_in else 'not checked in'}",
        )
    return player


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


def _before_round_1(player: Player, what: str) -> None:
    if Game.objects.filter(division_id=player.division_id).exists():
        raise rounds.PairingRefused(
            gettext(
                "Round 1 of division %(name)s is paired: players can no longer be "
                "%(what)s (withdraw them instead, or unpair round 1 first)."
            )
            % {"name": player.division.name, "what": what}
        )


def edit_player(player: Player, new: NewPlayer, user: Actor) -> Player:
    """A player's name, rating and club corrected before round 1 is paired."""
    name = " ".join(new.name.split())
    if not name:
        raise rounds.PairingRefused(gettext("A player needs a name."))
    with transaction.atomic():
        division = rounds.locked_division(player.division)
        player = Player.objects.select_for_update().get(pk=player.pk)
        _before_round_1(player, "edited")
        if division.players.exclude(pk=player.pk).filter(name__iexact=name).exists():
            raise rounds.PairingRefused(
                gettext("%(name)s is already in division %(name2)s.")
                % {"name": name, "name2": division.name}
            )
        before = {
            "player": player.number,
            "name": player.name,
            "rating": player.rating,
            "club": player.club,
        }
        if name != player.name:
            # A new name is spelled in Latin letters afresh, to be checked again.
            player.latin_name, player.latin_checked = "", False
        player.name, player.rating, player.club = name, new.rating, new.club
        player.rating_text = str(new.rating)
        player.save()
        after = {"player": player.number, "name": name, "rating": new.rating, "club": new.club}
        audit.record(
            division,
            Change.Action.EDIT_PLAYER,
            actor=user,
            before=before,
            after=after,
            reason=(
                f"Player {player.number} edited: {isolate(before['name'])} became {isolate(name)}"
            )
            if before["name"] != name
            else f"Player {player.number} ({isolate(name)}) edited",
        )
        if before["name"] != name:
            people.link_player(player, renamed=True)
    return player


def remove_player(player: Player, user: Actor) -> None:
    """A player taken off the roster before round 1 is paired; the others keep their numbers."""
    with transaction.atomic():
        division = rounds.locked_division(player.division)
        player = Player.objects.select_for_update().get(pk=player.pk)
        _before_round_1(player, "removed")
        before = {"player": player.number, "name": player.name, "rating": player.rating}
        player.delete()
        audit.record(
            division,
            Change.Action.REMOVE_PLAYER,
            actor=user,
            before=before,
            reason=f"Player {before['player']} ({isolate(before['name'])}) removed before round 1",
        )


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
        division = rounds.locked_division(division)
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
        division = rounds.locked_division(division)
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


def move_player(player: Player, target: Division, user: Actor) -> Player:
    """A player moved to another division of the tournament before they have played: they have
    no game (not even a pairing) in their division, and the target has no round paired; they
    take the next number there. Their old number in the division they leave stays free."""
    with transaction.atomic():
        source = rounds.locked_division(player.division)
        target = rounds.locked_division(target)
        player = Player.objects.select_for_update().get(pk=player.pk)
        if target.tournament_id != source.tournament_id or target.pk == source.pk:
            raise PeopleRefused(_("Choose another division of the tournament."))
        if source.games.filter(Q(player1=player) | Q(player2=player)).exists():
            raise PeopleRefused(
                _(
                    "%(name)s is paired or has played in division %(division)s: a player moves "
                    "only before their first pairing (unpair the round first)."
                )
                % {"name": player.name, "division": source.name}
            )
        if target.games.exists():
            raise PeopleRefused(
                _(
                    "Division %(division)s has rounds paired: add %(name)s there as a late "
                    "entry instead."
                )
                % {"name": player.name, "division": target.name}
            )
        if target.players.filter(name__iexact=player.name).exists():
            raise PeopleRefused(
                _("%(name)s is already in division %(division)s.")
                % {"name": player.name, "division": target.name}
            )
        before = {"division": source.name, "player": player.number, "name": player.name}
        player.division = target
        player.number = (target.players.aggregate(n=Max("number"))["n"] or 0) + 1
        player.absent_rounds = []
        player.save()
        after = {"division": target.name, "player": player.number, "name": player.name}
        reason = _("%(name)s moved from division %(source)s to %(target)s as player %(number)d") % {
            "name": player.name,
            "source": source.name,
            "target": target.name,
            "number": player.number,
        }
        stamps.touch([source.pk])  # the player's save renewed the target's stamp
        audit.record(
            target, Change.Action.MOVE_PLAYER, actor=user, before=before, after=after, reason=reason
        )
    return player


def rating_list_matches(division: Division, rating_list: ratinglist.RatingList) -> list:
    """Each player of the division (withdrawn ones too) matched by name to a rating list's
    entries (`interchange.ratinglist.match`): what the desk previews before anything changes."""
    players = [
        (p.pk, p.name, p.rating, p.membership_id) for p in division.players.order_by("number")
    ]
    return ratinglist.match(players, rating_list)


def use_ratings(
    division: Division, updates: list[tuple[int, int, int]], user: Actor, source: str
) -> int:
    """tsh's USERATINGS: players' ratings set from a rating list before round 1 is paired, as
    previewed: `updates` are (player id, rating previewed, new rating). One transaction and one
    logged change; refused (nothing changed) once round 1 is paired, or if a player's rating
    changed since the preview. Returns the number of players changed."""
    with transaction.atomic():
        division = rounds.locked_division(division)
        if Game.objects.filter(division=division).exists():
            raise rounds.PairingRefused(
                gettext(
                    "Round 1 of division %(name)s is paired: ratings are set from a rating "
                    "list only before it (unpair round 1 first)."
                )
                % {"name": division.name}
            )
        players = {
            p.pk: p
            for p in Player.objects.select_for_update().filter(
                division=division, pk__in=[pk for pk, _, _ in updates]
            )
        }
        before: dict[str, int] = {}
        after: dict[str, int] = {}
        for pk, previewed, new in updates:
            player = players.get(pk)
            if player is None or player.rating != previewed:
                raise rounds.PairingRefused(
                    gettext("The roster changed since the preview: upload the rating list again.")
                )
            if player.rating == new:
                continue
            before[str(player.number)] = player.rating
            after[str(player.number)] = new
            player.rating, player.rating_text = new, str(new)
            player.save(update_fields=["rating", "rating_text", "updated"])
        if after:
            audit.record(
                division,
                Change.Action.EDIT_PLAYER,
                actor=user,
                before={"ratings": before},
                after={"ratings": after},
                reason=f"Ratings of {len(after)} player{'s' if len(after) != 1 else ''} "
                f"from the {source}",
            )
    return len(after)


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
