"""People across events: every event's players linked to the `Person` they are, and the
director's changes to those links (confirm, merge, split, hide), each logged in `PeopleChange`
with its before and after so that it can be undone.

A player is linked by an identifier they and a person both have (cross-tables id, NASPA
membership id, WESPA id, association id), else by the name as `ratinglist.name_key` folds it
(case, accents, spacing, "Last, First" order), else to a new person. When two or more people
fit, or an identifier points at one person and the name at another, nobody is linked: the
player is marked "unsure" and the desk asks a director (`unsure_players`, `confirm`).
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
from tournament.core.sentences import isolate
from tournament.interchange import ratinglist
from tournament.models import Change, PeopleChange, Person, Player, RatingList, Tournament
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


@dataclass
class LinkReport:
    """What linking did: the players linked by an identifier, by the name, to a new person,
    the ones left for a director (`unsure`), and how many were linked already."""

    by_id: list[Linked] = field(default_factory=list)
    by_name: list[Linked] = field(default_factory=list)
    new: list[Linked] = field(default_factory=list)
    unsure: list[Unsure] = field(default_factory=list)
    kept: int = 0

    def add(self, other: LinkReport) -> None:
        self.by_id += other.by_id
        self.by_name += other.by_name
        self.new += other.new
        self.unsure += other.unsure
        self.kept += other.kept

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
        return out

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


class _Index:
    """The people an event's identities may be: read in one query, kept up to date as new
    people are made while linking."""

    def __init__(self, identities: Sequence[Identity]) -> None:
        query = Q(key__in={i.key for i in identities if i.key})
        for f in ID_FIELDS:
            values = {getattr(i, f) for i in identities} - {None, ""}
            if values:
                query |= Q(**{f"{f}__in": values})
        self.by_key: dict[str, list[Person]] = {}
        self.by_id: dict[tuple[str, Any], list[Person]] = {}
        for person in Person.objects.filter(query).order_by("pk"):
            self.add(person)

    def add(self, person: Person) -> None:
        if person.key:
            self.by_key.setdefault(person.key, []).append(person)
        for f in ID_FIELDS:
            value = getattr(person, f)
            if value not in (None, ""):
                self.by_id.setdefault((f, value), []).append(person)

    def decide(
        self, identity: Identity, exclude: set[int]
    ) -> tuple[str, Person | None, list[Person]]:
        """("id" | "name", person, []), ("new", None, []) or ("unsure", None, candidates)."""
        ids = identity.ids()
        by_id: dict[int, Person] = {}
        for f, value in ids.items():
            for p in self.by_id.get((f, value), []):
                if p.pk not in exclude:
                    by_id[p.pk] = p
        named = [
            p
            for p in self.by_key.get(identity.key, [])
            if p.pk not in exclude
            and not any(getattr(p, f) not in (None, "", v) for f, v in ids.items())
        ]
        if len(by_id) == 1:
            (person,) = by_id.values()
            others = [p for p in named if p.pk != person.pk]
            if others and person.key != identity.key:
                return "unsure", None, [person, *others]
            return "id", person, []
        if len(by_id) > 1:
            return "unsure", None, _unique([*by_id.values(), *named])
        if len(named) == 1:
            return "name", named[0], []
        if named:
            return "unsure", None, named
        return "new", None, []


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
    index = _Index(list(identities.values()))
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
        how, person, candidates = index.decide(identity, exclude)
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
    """The people an unsure player may be, worked out again as linking did."""
    identity = identity_of(player)
    index = _Index([identity])
    exclude = set(
        Player.objects.filter(division=player.division_id, person__isnull=False)
        .exclude(pk=player.pk)
        .values_list("person_id", flat=True)
    )
    how, person, found = index.decide(identity, exclude)
    if how == "unsure":
        return found
    return [person] if person is not None else []


def unsure_players(user: Any) -> list[Player]:
    """The unsure players of the events the user may change (all, for staff)."""
    players = Player.objects.filter(person_link="unsure").select_related("division__tournament")
    if not _staff(user):
        players = players.filter(division__tournament__directors=user)
    return list(players.order_by("division__tournament__name", "division__name", "number"))


# --- Who may change people ------------------------------------------------------------------


def _staff(user: Any) -> bool:
    return bool(user is None or user.is_superuser or user.is_staff)


def may_change(user: Any, people: Iterable[Person] = (), players: Iterable[Player] = ()) -> bool:
    """Staff, the command line (None), or a user who directs an event of every person
    involved (and the event of every player moved)."""
    if _staff(user):
        return True
    if not user.is_authenticated:
        return False
    directed = set(user.directed.values_list("pk", flat=True))
    for person in people:
        if not Player.objects.filter(person=person, division__tournament__in=directed).exists():
            return False
    return all(
        Player.objects.filter(pk=p.pk, division__tournament__in=directed).exists() for p in players
    )


def _check(user: Any, people: Iterable[Person] = (), players: Iterable[Player] = ()) -> None:
    if not may_change(user, people, players):
        raise PermissionError(
            gettext("Only staff, or a director of an event of every person involved, may do this.")
        )


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


def _log(action: str, user: Any, before: dict, after: dict, reason: str) -> PeopleChange:
    """The change in `PeopleChange`, and in the change log of every event whose players it
    touched."""
    actor = user if user is not None and user.is_authenticated else None
    change = PeopleChange.objects.create(
        user=actor, action=action, before=before, after=after, reason=reason
    )
    players = {int(k) for k in (*before["players"], *after["players"])}
    people = [int(k) for k in (*before["people"], *after["people"])]
    tournaments = Tournament.objects.filter(
        Q(divisions__players__in=players) | Q(divisions__players__person__in=people)
    ).distinct()
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
    RatingList.objects.filter(events__tournament__in=tournaments).update(rebuilt=None)
    return change


def _change(
    action: str, user: Any, people: set[int], players: set[int], reason: str, do: Any
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


def confirm(player: Player, person: Person | None, user: Any) -> PeopleChange:
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


def merge(keep: Person, other: Person, user: Any) -> PeopleChange:
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


def split(person: Person, players: Sequence[Player], user: Any) -> PeopleChange:
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


def set_hidden(person: Person, hidden: bool, user: Any) -> PeopleChange:
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


def _people_now(state: dict[str, Any]) -> list[Person]:
    return list(Person.objects.filter(pk__in=[int(k) for k in state["people"]]))


def undo(change: PeopleChange, user: Any) -> PeopleChange:
    """The people and players exactly as they were before `change`, if they are still as it
    left them; logged as an "undo" change, and `change.undone` points at it."""
    with transaction.atomic():
        change = PeopleChange.objects.select_for_update().get(pk=change.pk)
        if change.action == PeopleChange.Action.UNDO:
            raise PeopleRefused(gettext("An undo is not undone; make the change again."))
        if change.undone_id is not None:
            raise PeopleRefused(gettext("This change was undone already."))
        after = change.after
        players = list(Player.objects.filter(pk__in=[int(k) for k in after["players"]]))
        _check(user, _people_now(after) + _people_now(change.before), players)
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
