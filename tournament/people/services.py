"""People across events: every event's players linked to the `Person` they are, and the
director's changes to those links (confirm, merge, split, hide), each logged in `PeopleChange`
with its before and after so that it can be undone.

A player is linked by an identifier they and a person both have (cross-tables id, NASPA
membership id, WESPA id, association id), else by the name as `ratinglist.name_key` folds it
(case, accents, spacing, "Last, First" order), else to a new person. When two or more people
fit, or an identifier points at one person and the name at another, nobody is linked: the
player is marked "unsure" and the desk asks a director (`unsure_players`, `confirm`).

People belong to the events that hold them. The name alone never joins a player to a person
of an event that shares no director with the player's (an event nobody directs is staff's):
the player gets a new person and a `PersonSuggestion` that the directors of both events see
and either confirms (`accept`) or dismisses. Hiding, merging and splitting a person need the
right to change every event they hold (`may_change`); the director of any event a change
touched may undo it (`may_undo`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import Count, Q
from django.utils.translation import gettext, ngettext

from tournament.core import audit
from tournament.core.actor import RequestUser, signed_in
from tournament.core.sentences import isolate
from tournament.interchange import ratinglist
from tournament.models import (
    Change,
    Division,
    PeopleChange,
    Person,
    PersonSuggestion,
    Player,
    RatingList,
    Tournament,
)
from tournament.standings import stamps

ID_FIELDS = ("xtid", "naspa_id", "wespa_id", "association_id")
PERSON_FIELDS = ("name", "latin_name", "key", "club", *ID_FIELDS, "hidden")
_NASPA_ID = re.compile(r"[A-Z]{2}[0-9]{6}")


class PeopleRefused(ValueError):
    """A change the desk or the command refuses; the message says why, in one sentence."""


def fold(name: str) -> str:
    """The name as people are matched by (`Person.key`): `ratinglist.name_key`'s words."""
    return " ".join(ratinglist.name_key(name))


@dataclass(frozen=True)
class Identity:
    """Who a player says they are: a name and any identifiers."""

    name: str
    xtid: int | None = None
    naspa_id: str = ""
    wespa_id: str = ""
    association_id: str = ""

    @property
    def key(self) -> str:
        return fold(self.name)[:200]  # as `Person.key` holds it

    def ids(self) -> dict[str, Any]:
        return {f: getattr(self, f) for f in ID_FIELDS if getattr(self, f) not in (None, "")}

    @classmethod
    def of_person(cls, person: Person) -> Identity:
        return cls(
            person.name,
            person.xtid or None,
            person.naspa_id,
            person.wespa_id,
            person.association_id,
        )

    @classmethod
    def from_dict(cls, data: Any) -> Identity | None:
        """An identity as a backup carries it; None for anything else."""
        if not isinstance(data, dict) or not isinstance(data.get("name"), str):
            return None
        xtid = data.get("xtid")
        texts = {f: str(data.get(f) or "")[:40] for f in ID_FIELDS[1:]}
        good = xtid if isinstance(xtid, int) and not isinstance(xtid, bool) and xtid > 0 else None
        return cls(data["name"][:200], good, **texts)


def identity_of(player: Player, hint: Identity | None = None) -> Identity:
    """The player's identity: the name without a tsh ":AA000000" suffix; the membership id
    (the field, or that suffix) as a NASPA id when it looks like one, else as an association
    id; the cross-tables id as read into `Player.xtid`. A `hint` (a backup's person) fills
    what the player lacks."""
    name, suffix = ratinglist.member_suffix(player.name)
    member = (player.membership_id or suffix).strip()
    naspa = member.upper() if _NASPA_ID.fullmatch(member.upper()) else ""
    found = Identity(
        name=name,
        xtid=player.xtid or None,
        naspa_id=naspa,
        association_id="" if naspa else member[:40],
    )
    if hint is None:
        return found
    return Identity(
        name=found.name,
        xtid=found.xtid or hint.xtid,
        naspa_id=found.naspa_id or hint.naspa_id,
        wespa_id=found.wespa_id or hint.wespa_id,
        association_id=found.association_id or hint.association_id,
    )


@dataclass(frozen=True)
class Linked:
    player: int
    name: str
    person: int
    how: str  # "id", "name" or "new"


@dataclass(frozen=True)
class Unsure:
    player: int
    name: str
    candidates: list[tuple[int, str]]  # (person id, name)


@dataclass(frozen=True)
class Suggested:
    player: int
    name: str
    person: int  # a person of events that share no director with the player's
    person_name: str


@dataclass
class LinkReport:
    """What linking did: the players linked by an identifier, by the name, to a new person,
    the ones left for a director (`unsure`), how many were linked already, and the people of
    other directors' events whose name a player has (`suggested`, not linked)."""

    by_id: list[Linked] = field(default_factory=list)
    by_name: list[Linked] = field(default_factory=list)
    new: list[Linked] = field(default_factory=list)
    unsure: list[Unsure] = field(default_factory=list)
    kept: int = 0
    suggested: list[Suggested] = field(default_factory=list)

    def add(self, other: LinkReport) -> None:
        self.by_id += other.by_id
        self.by_name += other.by_name
        self.new += other.new
        self.unsure += other.unsure
        self.kept += other.kept
        self.suggested += other.suggested

    def lines(self) -> list[str]:
        """The report as an import's messages: a summary, then each name not told apart."""
        out = [
            gettext(
                "People: %(id)d linked by an identifier, %(name)d by the name, %(new)d new, "
                "%(unsure)d to be confirmed, %(kept)d linked before."
            )
            % {
                "id": len(self.by_id),
                "name": len(self.by_name),
                "new": len(self.new),
                "unsure": len(self.unsure),
                "kept": self.kept,
            }
        ]
        for u in self.unsure:
            out.append(
                ngettext(
                    "%(name)s: could not be told apart from %(count)d person (%(who)s); "
                    "a director confirms at /desk/people/.",
                    "%(name)s: could not be told apart between %(count)d people (%(who)s); "
                    "a director confirms at /desk/people/.",
                    len(u.candidates),
                )
                % {
                    "name": isolate(u.name),
                    "count": len(u.candidates),
                    "who": ", ".join(f"#{pk} {isolate(n)}" for pk, n in u.candidates),
                }
            )
        for g in self.suggested:
            out.append(
                gettext(
                    "%(name)s: the name of #%(pk)d %(who)s, of events with other directors; "
                    "not linked: a director of either confirms at /desk/people/."
                )
                % {"name": isolate(g.name), "pk": g.person, "who": isolate(g.person_name)}
            )
        return out

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


# The owner of an event nobody directs (made on the command line): staff, who alone may change it.
STAFF = 0


def owners(tournaments: Iterable[int]) -> dict[int, set[int]]:
    """Each event's directors (user ids), or {STAFF} for an event nobody directs (one query)."""
    found: dict[int, set[int]] = {t: set() for t in tournaments}
    rows = Tournament.directors.through.objects.filter(tournament_id__in=list(found))
    for tournament, user in rows.values_list("tournament_id", "user_id"):
        found[tournament].add(user)
    return {t: users or {STAFF} for t, users in found.items()}


def _events_held(people: Iterable[int]) -> dict[int, set[int]]:
    """The events each of these people has a player in (one query)."""
    held: dict[int, set[int]] = {}
    rows = Player.objects.filter(person__in=list(people)).values_list(
        "person_id", "division__tournament_id"
    )
    for person, tournament in rows.distinct():
        held.setdefault(person, set()).add(tournament)
    return held


class _Index:
    """The people an event's identities may be: read in one query, kept up to date as new
    people are made while linking; with the events each holds and those events' directors,
    so that the name alone joins only people of events that share a director (`foreign`)."""

    def __init__(self, identities: Sequence[Identity], events: Iterable[int] = ()) -> None:
        query = Q(key__in={i.key for i in identities if i.key})
        for f in ID_FIELDS:
            values = {getattr(i, f) for i in identities} - {None, ""}
            if values:
                query |= Q(**{f"{f}__in": values})
        self.by_key: dict[str, list[Person]] = {}
        self.by_id: dict[tuple[str, Any], list[Person]] = {}
        found = list(Person.objects.filter(query).order_by("pk"))
        for person in found:
            self.add(person)
        named = [p.pk for p in found if p.key in {i.key for i in identities}]
        self.held = _events_held(named)
        self.owners = owners({*events, *(t for ts in self.held.values() for t in ts)})

    def foreign(self, person: Person, event: int | None) -> bool:
        """Whether the person holds an event that shares no director with `event` (their
        events and `event` read when the index was made; a person made since holds none)."""
        if event is None:
            return False
        mine = self.owners.get(event, {STAFF})
        return any(
            not (self.owners.get(t, {STAFF}) & mine)
            for t in self.held.get(person.pk, ())
            if t != event
        )

    def add(self, person: Person) -> None:
        if person.key:
            self.by_key.setdefault(person.key, []).append(person)
        for f in ID_FIELDS:
            value = getattr(person, f)
            if value not in (None, ""):
                self.by_id.setdefault((f, value), []).append(person)

    def decide(
        self, identity: Identity, exclude: set[int], event: int | None = None
    ) -> tuple[str, Person | None, list[Person], list[Person]]:
        """("id" | "name", person, [], []), ("new", None, [], suggested) or ("unsure", None,
        candidates, []). The name alone never picks a person `foreign` to the player's event:
        when only such people have the name, the player is new and they are `suggested`."""
        ids = identity.ids()
        by_id: dict[int, Person] = {}
        for f, value in ids.items():
            for p in self.by_id.get((f, value), []):
                if p.pk not in exclude:
                    by_id[p.pk] = p
        fitting = [
            p
            for p in self.by_key.get(identity.key, [])
            if p.pk not in exclude
            and not any(getattr(p, f) not in (None, "", v) for f, v in ids.items())
        ]
        named = [p for p in fitting if not self.foreign(p, event)]
        if len(by_id) == 1:
            (person,) = by_id.values()
            others = [p for p in named if p.pk != person.pk]
            if others and person.key != identity.key:
                return "unsure", None, [person, *others], []
            return "id", person, [], []
        if len(by_id) > 1:
            return "unsure", None, _unique([*by_id.values(), *named]), []
        if len(named) == 1:
            return "name", named[0], [], []
        if named:
            return "unsure", None, named, []
        return "new", None, [], fitting


def _unique(people: Iterable[Person]) -> list[Person]:
    seen: dict[int, Person] = {}
    for p in people:
        seen.setdefault(p.pk, p)
    return sorted(seen.values(), key=lambda p: p.pk)


def _fill_ids(person: Person, identity: Identity) -> None:
    """What the person lacks of the identity's identifiers (and club), saved."""
    changed = [f for f, v in identity.ids().items() if getattr(person, f) in (None, "")]
    for f in changed:
        setattr(person, f, getattr(identity, f))
    if changed:
        person.save(update_fields=[*changed, "updated"])


def _new_person(player: Player, identity: Identity) -> Person:
    return Person.objects.create(
        name=identity.name[:200],
        latin_name=player.latin_name,
        key=identity.key[:200],
        club=player.club,
        **identity.ids(),
    )


def link_players(players: Sequence[Player], hints: dict[int, Identity] | None = None) -> LinkReport:
    """Link each of these players that has no person yet (or was unsure); the others are
    kept. Players are written with `update` and their divisions stamped."""
    report = LinkReport()
    todo = [p for p in players if p.person_id is None or p.person_link == "unsure"]
    report.kept = len(players) - len(todo)
    if not todo:
        return report
    hints = hints or {}
    identities = {p.pk: identity_of(p, hints.get(p.pk)) for p in todo}
    event_of = dict(
        Division.objects.filter(pk__in={p.division_id for p in todo}).values_list(
            "pk", "tournament_id"
        )
    )
    index = _Index(list(identities.values()), event_of.values())
    used: dict[int, set[int]] = {}
    for division_id, person_id in Player.objects.filter(
        division__in={p.division_id for p in todo}, person__isnull=False
    ).values_list("division_id", "person_id"):
        used.setdefault(division_id, set()).add(person_id)
    for player in todo:
        identity = identities[player.pk]
        # One person plays once in a division: the division's other players' people are not
        # candidates.
        exclude = used.setdefault(player.division_id, set())
        how, person, candidates, suggested = index.decide(
            identity, exclude, event_of.get(player.division_id)
        )
        if how == "unsure":
            Player.objects.filter(pk=player.pk).update(person=None, person_link="unsure")
            player.person, player.person_link = None, "unsure"
            report.unsure.append(
                Unsure(player.pk, identity.name, [(c.pk, c.name) for c in candidates])
            )
            continue
        if person is None:
            person = _new_person(player, identity)
            index.add(person)
        else:
            _fill_ids(person, identity)
        Player.objects.filter(pk=player.pk).update(person=person, person_link=how)
        player.person, player.person_link = person, how
        exclude.add(person.pk)
        linked = Linked(player.pk, identity.name, person.pk, how)
        {"id": report.by_id, "name": report.by_name, "new": report.new}[how].append(linked)
        for other in suggested:
            PersonSuggestion.objects.get_or_create(player=player, person=other)
            report.suggested.append(Suggested(player.pk, identity.name, other.pk, other.name))
    stamps.touch({p.division_id for p in todo})
    return report


def link_tournament(tournament: Tournament, hints: dict[int, Identity] | None = None) -> LinkReport:
    """Link every player of the event to a person (`_Index.decide`); players linked before
    are kept, so linking again changes nothing. `hints`: a restored backup's identities, by
    the new player's key."""
    with transaction.atomic():
        players = list(
            Player.objects.filter(division__tournament=tournament).order_by(
                "division__position", "division_id", "number"
            )
        )
        return link_players(players, hints)


def link_player(player: Player, renamed: bool = False) -> LinkReport:
    """Link one player added at the desk, or linked again after a rename: a person linked by
    the old name (or made for it) is let go, unless a director set the link. A person left
    with no player is removed, or kept for the new name when nobody else fits it."""
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player.pk)
        if not renamed or player.person_link in ("director", "id", "unsure"):
            return link_players([player])
        old = player.person
        if old is not None and old.key == fold(identity_of(player).name):
            return link_players([player])
        Player.objects.filter(pk=player.pk).update(person=None, person_link="")
        player.person, player.person_link = None, ""
        PersonSuggestion.objects.filter(player=player).delete()  # of the old name
        orphan = old if old is not None and not old.players.exists() else None
        report = link_players([player])
        if orphan is not None and report.new:
            # The person made for the old name goes on under the new one.
            made = Person.objects.get(pk=report.new[0].person)
            Player.objects.filter(pk=player.pk).update(person=orphan)
            for f in ("name", "key", "latin_name"):
                setattr(orphan, f, getattr(made, f))
            orphan.save()
            made.delete()
            report.new[0] = Linked(player.pk, orphan.name, orphan.pk, "new")
        elif orphan is not None:
            orphan.delete()
        return report


def report_of(tournament: Tournament) -> LinkReport:
    """The event's links as they stand, as a `LinkReport` (after an import that linked them)."""
    report = LinkReport()
    players = Player.objects.filter(division__tournament=tournament).order_by(
        "division__position", "division_id", "number"
    )
    for player in players:
        name = identity_of(player).name
        if player.person_link == "unsure":
            found = [(c.pk, c.name) for c in candidates(player)]
            report.unsure.append(Unsure(player.pk, name, found))
        elif player.person_id is not None:
            linked = Linked(player.pk, name, player.person_id, player.person_link)
            {"id": report.by_id, "name": report.by_name, "new": report.new}.get(
                player.person_link, []
            ).append(linked)
    suggestions = PersonSuggestion.objects.filter(player__in=players).select_related(
        "person", "player"
    )
    for s in suggestions.order_by("player__division__position", "player__number", "pk"):
        name = identity_of(s.player).name
        report.suggested.append(Suggested(s.player_id, name, s.person_id, s.person.name))
    return report


def unsure_note(players: Iterable[Player]) -> str | None:
    """The desk's note after players were added: how many are to be confirmed, if any."""
    count = Player.objects.filter(pk__in=[p.pk for p in players], person_link="unsure").count()
    if not count:
        return None
    return ngettext(
        "%(count)d player's name fits more than one person: confirm who at /desk/people/.",
        "%(count)d players' names fit more than one person: confirm who at /desk/people/.",
        count,
    ) % {"count": count}


# --- Candidates, for the desk ---------------------------------------------------------------


def candidates(player: Player) -> list[Person]:
    """The people an unsure player may be, worked out again as linking did (never a person
    the name alone cannot join: `_Index.foreign`)."""
    identity = identity_of(player)
    event = Division.objects.filter(pk=player.division_id).values_list("tournament_id", flat=True)
    index = _Index([identity], event)
    exclude = set(
        Player.objects.filter(division=player.division_id, person__isnull=False)
        .exclude(pk=player.pk)
        .values_list("person_id", flat=True)
    )
    how, person, found, _ = index.decide(identity, exclude, event.first())
    if how == "unsure":
        return found
    return [person] if person is not None else []


def unsure_players(user: RequestUser | None) -> list[Player]:
    """The unsure players of the events the user directs (all, for staff)."""
    players = Player.objects.filter(person_link="unsure").select_related("division__tournament")
    if not _staff(user):
        players = players.filter(division__tournament__directors=_user_pk(user))
    return list(players.order_by("division__tournament__name", "division__name", "number"))


def suggestions(user: RequestUser | None) -> list[PersonSuggestion]:
    """The suggestions the user's desk lists: those of a player or a person of an event they
    direct (all, for staff)."""
    found = PersonSuggestion.objects.select_related("player__division__tournament", "person")
    if not _staff(user):
        pk = _user_pk(user)
        found = found.filter(
            Q(player__division__tournament__directors=pk)
            | Q(person__players__division__tournament__directors=pk)
        ).distinct()
    return list(found.order_by("pk"))


# --- Who may change people ------------------------------------------------------------------


def _staff(user: RequestUser | None) -> bool:
    return bool(user is None or user.is_superuser or user.is_staff)


def _user_pk(user: RequestUser | None) -> int:
    """The user's key; 0, nobody's, for an anonymous user (who directs nothing: a filter by
    None would find the events nobody directs)."""
    return user.pk if user is not None and user.is_authenticated else 0


def _directed(user: RequestUser | None) -> set[int]:
    if user is None or not user.is_authenticated:
        return set()
    return set(user.directed.values_list("pk", flat=True))


def sees_everyone(user: RequestUser | None) -> bool:
    """Staff (and the command line): the desk lists every person and every change."""
    return _staff(user)


def visible_people(user: RequestUser | None) -> Any:
    """The people the user's desk lists: everyone for staff, else the people of the events
    they direct (none for a user who directs nothing)."""
    people = Person.objects.all()
    if not _staff(user):
        people = people.filter(players__division__tournament__directors=_user_pk(user))
    return people.distinct()


def visible_changes(user: RequestUser | None) -> Any:
    """The changes the user's desk lists: all for staff, else those that touched an event
    they direct."""
    changes = PeopleChange.objects.select_related("user")
    if not _staff(user):
        changes = changes.filter(events__directors=_user_pk(user)).distinct()
    return changes.order_by("-at", "-pk")


def may_see(user: RequestUser | None, person: Person) -> bool:
    """Staff, or a director of an event the person holds: the desk's page of the person."""
    if _staff(user):
        return True
    directed = _directed(user)
    return bool(directed) and person.players.filter(division__tournament__in=directed).exists()


def may_change(
    user: RequestUser | None, people: Iterable[Person] = (), players: Iterable[Player] = ()
) -> bool:
    """Staff, the command line (None), or a user who directs every event every person
    involved holds (a person who holds none is staff's), and the event of every player moved.
    Nothing named: staff only."""
    if _staff(user):
        return True
    people, players = list(people), list(players)
    directed = _directed(user)
    if not directed or not (people or players):
        return False
    held = _events_held(p.pk for p in people)
    if any(not held.get(p.pk) or not held[p.pk] <= directed for p in people):
        return False
    return all(
        Player.objects.filter(pk=p.pk, division__tournament__in=directed).exists() for p in players
    )


def may_undo(user: RequestUser | None, change: PeopleChange) -> bool:
    """Staff, or a director of any event the change touched."""
    if _staff(user):
        return True
    directed = _directed(user)
    return bool(directed) and change.events.filter(pk__in=directed).exists()


def may_settle(user: RequestUser | None, suggestion: PersonSuggestion) -> bool:
    """Staff, a director of the player's event, or of an event the person holds."""
    if _staff(user):
        return True
    directed = _directed(user)
    if not directed:
        return False
    player_event = Player.objects.filter(
        pk=suggestion.player_id, division__tournament__in=directed
    ).exists()
    return (
        player_event or suggestion.person.players.filter(division__tournament__in=directed).exists()
    )


def _refuse() -> PermissionError:
    return PermissionError(
        gettext("Only staff, or a director of every event of every person involved, may do this.")
    )


def _check(
    user: RequestUser | None, people: Iterable[Person] = (), players: Iterable[Player] = ()
) -> None:
    if not may_change(user, people, players):
        raise _refuse()


# --- States, changes and undo ---------------------------------------------------------------


def _person_fields(person: Person) -> dict[str, Any]:
    return {f: getattr(person, f) for f in PERSON_FIELDS}


def _state(people: Iterable[int], players: Iterable[int]) -> dict[str, Any]:
    """What these people and players are now: {"people": {pk: fields or None}, "players":
    {pk: [person, link]}}."""
    found = {p.pk: p for p in Person.objects.filter(pk__in=set(people))}
    return {
        "people": {
            str(pk): (_person_fields(found[pk]) if pk in found else None) for pk in sorted(people)
        },
        "players": {
            str(pk): [person, link]
            for pk, person, link in Player.objects.filter(pk__in=set(players))
            .order_by("pk")
            .values_list("pk", "person_id", "person_link")
        },
    }


def _apply(state: dict[str, Any]) -> None:
    """Make the people and players exactly as `state` says (people first, then the players,
    then the removal of people the state says did not exist)."""
    gone = []
    for pk, fields in state["people"].items():
        if fields is None:
            gone.append(int(pk))
            continue
        updated = Person.objects.filter(pk=int(pk)).update(**fields)
        if not updated:
            Person.objects.create(pk=int(pk), **fields)
    divisions = set()
    for pk, (person, link) in state["players"].items():
        Player.objects.filter(pk=int(pk)).update(person=person, person_link=link)
    divisions |= set(
        Player.objects.filter(pk__in=[int(k) for k in state["players"]]).values_list(
            "division_id", flat=True
        )
    )
    people = [int(pk) for pk in state["people"]]
    divisions |= set(Player.objects.filter(person__in=people).values_list("division_id", flat=True))
    Person.objects.filter(pk__in=gone).delete()
    stamps.touch(divisions)


def _log(
    action: str, user: RequestUser | None, before: dict, after: dict, reason: str
) -> PeopleChange:
    """The change in `PeopleChange`, and in the change log of every event whose players it
    touched."""
    actor = signed_in(user)
    change = PeopleChange.objects.create(
        user=actor, action=action, before=before, after=after, reason=reason
    )
    players = {int(k) for k in (*before["players"], *after["players"])}
    people = [int(k) for k in (*before["people"], *after["people"])]
    tournaments = list(
        Tournament.objects.filter(
            Q(divisions__players__in=players) | Q(divisions__players__person__in=people)
        ).distinct()
    )
    change.events.set(tournaments)
    for tournament in tournaments:
        audit.record(
            tournament,
            Change.Action.PEOPLE,
            actor=actor,
            before={"people_change": change.pk},
            after={"action": action},
            reason=reason,
        )
    # The rating lists that rate these events are to be rebuilt: their entries are of the
    # people as they were (a merged person's went with them).
    RatingList.objects.filter(events__tournament__in=[t.pk for t in tournaments]).update(
        rebuilt=None
    )
    return change


def _change(
    action: str, user: RequestUser | None, people: set[int], players: set[int], reason: str, do: Any
) -> PeopleChange:
    """Run `do()` between the state before and after, and log it."""
    before = _state(people, players)
    made = do()
    after = _state(people | set(made or ()), players)
    before = _state_with(before, after)
    return _log(action, user, before, after, reason)


def _state_with(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """`before` with every person `after` names (one made by the change did not exist)."""
    people = dict(before["people"])
    for pk in after["people"]:
        people.setdefault(pk, None)
    return {"people": people, "players": before["players"]}


def confirm(player: Player, person: Person | None, user: RequestUser | None) -> PeopleChange:
    """A director's link: the player is this person (or, with None, a new person). The
    director of the player's event may choose any of the candidates; another person only a
    user who may change them (`may_change`)."""
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player.pk)
        _check(user, [], [player])
        # A person the linking did not offer is someone else's too: their director, or staff.
        if person is not None and person.pk not in {c.pk for c in candidates(player)}:
            _check(user, [person], [player])
        if (
            person is not None
            and Player.objects.filter(division=player.division_id, person=person)
            .exclude(pk=player.pk)
            .exists()
        ):
            raise PeopleRefused(
                gettext("%(name)s already plays in this division as another player.")
                % {"name": isolate(person.name)}
            )

        def do() -> list[int]:
            target = person or _new_person(player, identity_of(player))
            Player.objects.filter(pk=player.pk).update(person=target, person_link="director")
            stamps.touch([player.division_id])
            return [target.pk]

        people = {person.pk} if person else set()
        if player.person_id:
            people.add(player.person_id)
        reason = f"{isolate(player.name)} linked by a director"
        return _change(PeopleChange.Action.LINK, user, people, {player.pk}, reason, do)


def merge(keep: Person, other: Person, user: RequestUser | None) -> PeopleChange:
    """`other`'s players become `keep`'s, `keep` takes the identifiers it lacks, and `other`
    is removed."""
    if keep.pk == other.pk:
        raise PeopleRefused(gettext("A person cannot be merged with themselves."))
    with transaction.atomic():
        keep = Person.objects.select_for_update().get(pk=keep.pk)
        other = Person.objects.select_for_update().get(pk=other.pk)
        _check(user, [keep, other])
        both = (
            Player.objects.filter(person__in=[keep, other])
            .values("division_id")
            .annotate(n=Count("pk"))
            .filter(n__gt=1)
        )
        if both.exists():
            raise PeopleRefused(
                gettext("%(a)s and %(b)s play in the same division: they are two people.")
                % {"a": isolate(keep.name), "b": isolate(other.name)}
            )
        moved = set(other.players.values_list("pk", flat=True))

        def do() -> None:
            _fill_ids(keep, Identity.of_person(other))
            if not keep.club and other.club:
                keep.club = other.club
                keep.save(update_fields=["club", "updated"])
            Player.objects.filter(pk__in=moved).update(person=keep, person_link="director")
            stamps.touch(Player.objects.filter(pk__in=moved).values_list("division_id", flat=True))
            other.delete()

        reason = (
            f"{isolate(other.name)} (#{other.pk}) merged into {isolate(keep.name)} (#{keep.pk})"
        )
        return _change(PeopleChange.Action.MERGE, user, {keep.pk, other.pk}, moved, reason, do)


def split(person: Person, players: Sequence[Player], user: RequestUser | None) -> PeopleChange:
    """The chosen players of `person` become a new person's, named and identified as the
    first of them; identifiers only they carried go with them."""
    chosen = {p.pk for p in players}
    with transaction.atomic():
        person = Person.objects.select_for_update().get(pk=person.pk)
        _check(user, [person])
        own = set(person.players.values_list("pk", flat=True))
        if not chosen:
            raise PeopleRefused(gettext("Choose the players that are another person."))
        if not chosen <= own:
            raise PeopleRefused(
                gettext("Only %(name)s's own players can be split off.")
                % {"name": isolate(person.name)}
            )
        if chosen == own:
            raise PeopleRefused(gettext("Leave at least one player with the person."))
        moving = list(
            Player.objects.filter(pk__in=chosen).order_by("division__tournament__start_date", "pk")
        )
        staying = list(Player.objects.filter(pk__in=own - chosen))

        def do() -> list[int]:
            first = identity_of(moving[0])
            new = _new_person(moving[0], first)
            for p in moving[1:]:
                _fill_ids(new, identity_of(p))
            kept = [identity_of(p).ids() for p in staying]
            for f in ID_FIELDS:
                value = getattr(person, f)
                if (
                    value not in (None, "")
                    and getattr(new, f) == value
                    and not any(k.get(f) == value for k in kept)
                ):
                    setattr(person, f, None if f == "xtid" else "")
            person.save()
            Player.objects.filter(pk__in=chosen).update(person=new, person_link="director")
            stamps.touch({p.division_id for p in moving})
            return [new.pk]

        reason = f"{len(chosen)} player(s) split off {isolate(person.name)} (#{person.pk})"
        return _change(PeopleChange.Action.SPLIT, user, {person.pk}, chosen, reason, do)


def set_hidden(person: Person, hidden: bool, user: RequestUser | None) -> PeopleChange:
    """Hide a person from the public people pages (or show them again)."""
    with transaction.atomic():
        person = Person.objects.select_for_update().get(pk=person.pk)
        _check(user, [person])

        def do() -> None:
            person.hidden = hidden
            person.save(update_fields=["hidden", "updated"])
            stamps.touch(person.players.values_list("division_id", flat=True))

        reason = f"{isolate(person.name)} (#{person.pk}) {'hidden' if hidden else 'shown'}"
        return _change(PeopleChange.Action.HIDE, user, {person.pk}, set(), reason, do)


def accept(suggestion: PersonSuggestion, user: RequestUser | None) -> PeopleChange:
    """A suggestion confirmed: the player is the suggested person, linked by a director; the
    person the player had is removed if no player is left with them. A director of the
    player's event or of an event the person holds may (`may_settle`); either event's
    director may undo it."""
    with transaction.atomic():
        found = PersonSuggestion.objects.select_for_update().filter(pk=suggestion.pk).first()
        if found is None:
            raise PeopleRefused(gettext("This suggestion was settled already."))
        if not may_settle(user, found):
            raise _refuse_suggestion()
        player = Player.objects.select_for_update().get(pk=found.player_id)
        person = found.person
        if (
            Player.objects.filter(division=player.division_id, person=person)
            .exclude(pk=player.pk)
            .exists()
        ):
            raise PeopleRefused(
                gettext("%(name)s already plays in this division as another player.")
                % {"name": isolate(person.name)}
            )
        old = player.person_id

        def do() -> None:
            Player.objects.filter(pk=player.pk).update(person=person, person_link="director")
            if old is not None and not Player.objects.filter(person=old).exists():
                Person.objects.filter(pk=old).delete()
            PersonSuggestion.objects.filter(player=player).delete()
            stamps.touch([player.division_id])

        people = {person.pk} | ({old} if old is not None else set())
        reason = (
            f"{isolate(player.name)} linked to {isolate(person.name)} (#{person.pk}) "
            "by a director, as suggested"
        )
        return _change(PeopleChange.Action.LINK, user, people, {player.pk}, reason, do)


def dismiss(suggestion: PersonSuggestion, user: RequestUser | None) -> None:
    """A suggestion set aside: the player stays who they are; in the player's event's change
    log."""
    with transaction.atomic():
        found = (
            PersonSuggestion.objects.select_for_update()
            .select_related("player__division__tournament", "person")
            .filter(pk=suggestion.pk)
            .first()
        )
        if found is None:
            raise PeopleRefused(gettext("This suggestion was settled already."))
        if not may_settle(user, found):
            raise _refuse_suggestion()
        player, person = found.player, found.person
        found.delete()
        audit.record(
            player.division.tournament,
            Change.Action.PEOPLE,
            actor=signed_in(user),
            before={"suggestion": [player.pk, person.pk]},
            after=None,
            reason=(
                f"{isolate(player.name)} is not {isolate(person.name)} (#{person.pk}): "
                "the suggestion dismissed"
            ),
        )


def _refuse_suggestion() -> PermissionError:
    return PermissionError(
        gettext("Only staff, or a director of the player's event or of the person's, may do this.")
    )


def undo(change: PeopleChange, user: RequestUser | None) -> PeopleChange:
    """The people and players exactly as they were before `change`, if they are still as it
    left them; logged as an "undo" change, and `change.undone` points at it."""
    with transaction.atomic():
        change = PeopleChange.objects.select_for_update().get(pk=change.pk)
        if change.action == PeopleChange.Action.UNDO:
            raise PeopleRefused(gettext("An undo is not undone; make the change again."))
        if change.undone_id is not None:
            raise PeopleRefused(gettext("This change was undone already."))
        after = change.after
        if not may_undo(user, change):
            raise PermissionError(
                gettext("Only staff, or a director of an event this change touched, may undo it.")
            )
        now = _state({int(k) for k in after["people"]}, {int(k) for k in after["players"]})
        if now != _normal(after):
            raise PeopleRefused(
                gettext("These people have changed since; undo the later changes first.")
            )
        _apply(change.before)
        reason = f"undo of {change.action} #{change.pk}: {change.reason}"
        made = _log(PeopleChange.Action.UNDO, user, now, _normal(change.before), reason)
        change.undone = made
        change.save(update_fields=["undone"])
        return made


def _normal(state: dict[str, Any]) -> dict[str, Any]:
    """A state as `_state` writes it, after a trip through JSON (lists stay lists)."""
    return {
        "people": dict(state["people"]),
        "players": {k: list(v) for k, v in state["players"].items()},
    }


# --- Reading players given on the command line ----------------------------------------------


def players_named(texts: Sequence[str]) -> list[Player]:
    """Players given as primary keys or as SLUG:DIVISION:NUMBER; PeopleRefused names the first
    that is none."""
    found = []
    for text in texts:
        text = text.strip()
        if text.isdigit():
            player = Player.objects.filter(pk=int(text)).first()
        else:
            parts = text.rsplit(":", 2)
            player = None
            if len(parts) == 3 and parts[2].isdigit():
                player = Player.objects.filter(
                    division__tournament__slug=parts[0],
                    division__name=parts[1],
                    number=int(parts[2]),
                ).first()
        if player is None:
            raise PeopleRefused(gettext("No player %(text)s.") % {"text": text})
        found.append(player)
    return found
