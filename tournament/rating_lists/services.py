"""An association's own rating list: the events it rates, in date order, rated one after the
other by the rating engine (`engine/ratings.py`), each from the ratings the list itself gave
its players after the events before it.

What counts: each event's complete results as its directors entered them (every round with
results that count by the division's `byes_count`, published or not: the desk's view, read
through the read model, `standings/read_model.players_and_results`). A list is rebuilt after
its events, when their results are final; the report says how many rounds of each event were
not yet published.

Who is rated: the players linked to a person (`Player.person`). A list may start from a
rating-list file (`create_list(start_from=…)`, NASPA's or WESPA's format): each person the file
gives a rating starts at it, as an established player (career games the file's count, at least
`ESTABLISHED_GAMES`), matched at each rebuild by membership id, else by the folded name
(`RatingListStart`). Any other person new to the list is unrated (0) before their first event,
and the engine gives them the rating a newcomer's results earn (nsa2008: the iterated
performance rating); their games in the list so far are their career games (the multiplier's
50-game line). A player without a person is not rated in the
list and has no entry (the report names them), but their games still rate their opponents,
against the rating the event itself gave them. A person with no rated game in an event
(byes, forfeits) has no entry for it. A person who plays in two divisions of one event is
refused: a rebuild changes nothing until one of the two links is undone.

A rebuild deletes the list's entries and writes them again in one transaction, in event
order; the same events and results give the same entries every time.
"""

from __future__ import annotations

import datetime
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext

from tournament.core.actor import RequestUser
from tournament.core.errors import EntryError
from tournament.core.sentences import isolate
from tournament.engine import ratings as ratings_engine
from tournament.engine import standings as engine
from tournament.event import services as event_services
from tournament.interchange import names, ratinglist
from tournament.models import (
    Division,
    Game,
    Person,
    Player,
    RatingList,
    RatingListEntry,
    RatingListEvent,
    RatingListStart,
    Tournament,
)
from tournament.standings.read_model import players_and_results
from tournament.standings.stamps import read_many

log = logging.getLogger(__name__)

# /desk/ratings/new/ is the desk's page for a new list.
RESERVED_SLUGS = ("new",)


class RatingListRefused(EntryError):
    """A list cannot be changed or rebuilt as asked; the sentence says why."""


@dataclass(frozen=True, slots=True)
class EventReport:
    """What a rebuild made of one event."""

    name: str
    slug: str
    date: str  # ISO
    rated: int  # people with an entry
    newcomers: int  # of them, new to the list
    games: int  # rated games
    skipped: tuple[str, ...] = ()  # players without a person: not rated in the list
    no_games: tuple[str, ...] = ()  # people without a rated game: no entry
    unpublished: int = 0  # rounds with results not published yet (rated all the same)
    started: int = 0  # of the rated, new to the list but started at the file's rating


@dataclass(frozen=True, slots=True)
class Report:
    events: tuple[EventReport, ...]
    entries: int
    people: int


@dataclass(slots=True)
class _Standing:
    """A person in the list so far: their rating and rated games."""

    rating: int = 0
    games: int = 0


@dataclass(slots=True)
class _Event:
    entries: list[RatingListEntry] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    no_games: list[str] = field(default_factory=list)
    newcomers: int = 0
    started: int = 0
    games: int = 0


# A person started from a rating-list file counts as established (`engine.ratings`).
ESTABLISHED_GAMES = ratings_engine.ESTABLISHED_GAMES


@dataclass(frozen=True, slots=True)
class StartReport:
    """What a list's starting file gave: the ratings kept, and the lines not read."""

    ratings: int
    problems: tuple[str, ...] = ()
    more_problems: int = 0


# -- the list and its events ----------------------------------------------------------------


def create_list(
    name: str,
    slug: str,
    system: str = "nsa2008",
    *,
    public: bool = True,
    creator=None,
    start_from: ratinglist.RatingList | None = None,
    start_name: str = "",
) -> RatingList:
    """A new list (its creator, a user, becomes its director); refused with a sentence when
    the slug is taken or reserved or the system unknown. `start_from`, a rating-list file as
    read (`interchange.ratinglist.read`), gives the ratings people start at (`start_name`: the
    file's name); a file without a rating to start from is refused."""
    name, slug = name.strip(), slug.strip()
    if not name:
        raise RatingListRefused(gettext("A rating list needs a name."))
    if system not in ratings_engine.rating_system_names():
        raise RatingListRefused(
            gettext("%(system)s is not a rating system Spread computes (known: %(known)s).")
            % {"system": isolate(system), "known": ", ".join(ratings_engine.rating_system_names())}
        )
    if slug in RESERVED_SLUGS or RatingList.objects.filter(slug=slug).exists():
        raise RatingListRefused(
            gettext("The address %(slug)s is taken: choose another.") % {"slug": isolate(slug)}
        )
    if start_from is not None and not start_from.entries:
        raise RatingListRefused(
            gettext("%(file)s has no rating to start from.") % {"file": isolate(start_name)}
        )
    with transaction.atomic():
        rating_list = RatingList.objects.create(
            name=name,
            slug=slug,
            system=system,
            public=public,
            start_from=start_name[:200] if start_from is not None else "",
        )
        if creator is not None:
            rating_list.directors.add(creator)
        if start_from is not None:
            RatingListStart.objects.bulk_create(
                (
                    RatingListStart(
                        rating_list=rating_list,
                        line=entry.line,
                        name=entry.name[:200],
                        key=" ".join(ratinglist.name_key(entry.name))[:200],
                        member_id=entry.member_id.upper(),
                        rating=entry.rating,
                        games=entry.games,
                    )
                    for entry in start_from.entries
                ),
                batch_size=2000,
            )
    log.info("rating list %s created by %s", slug, _who(creator))
    return rating_list


def guess_format(data: bytes) -> str:
    """A rating-list file's format when none is said: WESPA's when its first line names the
    columns as linrat writes them (NICKstateNAME…) or it has no tab; else NASPA's."""
    head = data[:4096].lstrip()
    if head[:4].upper() == b"NICK" or b"\t" not in head:
        return "wespa"
    return "naspa"


def start_report(read: ratinglist.RatingList) -> StartReport:
    """What a list started from the file `read` keeps, and the lines it could not read."""
    return StartReport(len(read.entries), tuple(p.text for p in read.problems), read.more_problems)


def is_director(rating_list: RatingList, user: RequestUser) -> bool:
    return bool(user.is_authenticated and rating_list.directors.filter(pk=user.pk).exists())


def proposed_date(tournament: Tournament) -> datetime.date:
    """The date a list offers an event without one: the day it was first logged (created or
    imported), else today."""
    first = tournament.changes.order_by("at", "pk").values_list("at", flat=True).first()
    return timezone.localdate(first) if first is not None else timezone.localdate()


def add_event(
    rating_list: RatingList,
    tournament: Tournament,
    user: RequestUser | None = None,
    position: int | None = None,
    on_date: datetime.date | None = None,
) -> RatingListEvent:
    """`tournament` rated by the list, after the events of earlier dates (and of the same date
    already in it, unless `position` says otherwise). A user must direct both the list and the
    event; the command line (no user) may add any. An event without a date is refused with the
    date the list would give it (`proposed_date`), and accepted once that date, or another, is
    given as `on_date`: it becomes the event's date, logged on the event."""
    if user is not None and not is_director(rating_list, user):
        raise RatingListRefused(_not_list_director(rating_list))
    if user is not None and not tournament.is_director(user):
        raise RatingListRefused(
            gettext("Only the directors of %(event)s may add it to a rating list.")
            % {"event": isolate(tournament.name)}
        )
    if tournament.start_date is None and on_date is None:
        raise RatingListRefused(
            gettext(
                "%(event)s has no date: a rating list rates its events in date order. It would "
                "be placed on %(date)s, the day it came into Spread: add it with that date "
                "(--date %(date)s), or give it its dates on its desk first."
            )
            % {"event": isolate(tournament.name), "date": proposed_date(tournament).isoformat()}
        )
    with transaction.atomic():
        if tournament.start_date is None and on_date is not None:
            event_services.set_dates(tournament, on_date, None, user)
        RatingList.objects.select_for_update().get(pk=rating_list.pk)
        events = rating_list.events.all()
        if events.filter(tournament=tournament).exists():
            raise RatingListRefused(
                gettext("%(event)s is already in %(list)s.")
                % {"event": isolate(tournament.name), "list": isolate(rating_list.name)}
            )
        if position is None:
            same_day = events.filter(tournament__start_date=tournament.start_date)
            position = max((e.position for e in same_day), default=-1) + 1
        event = RatingListEvent.objects.create(
            rating_list=rating_list, tournament=tournament, position=position
        )
    log.info("rating list %s: %s added by %s", rating_list.slug, tournament.slug, _who(user))
    return event


def remove_event(
    rating_list: RatingList, tournament: Tournament, user: RequestUser | None = None
) -> None:
    """The event no longer rated by the list (its entries go at the next rebuild)."""
    if user is not None and not is_director(rating_list, user):
        raise RatingListRefused(_not_list_director(rating_list))
    with transaction.atomic():
        deleted, _ = rating_list.events.filter(tournament=tournament).delete()
    if not deleted:
        raise RatingListRefused(
            gettext("%(event)s is not in %(list)s.")
            % {"event": isolate(tournament.name), "list": isolate(rating_list.name)}
        )
    log.info("rating list %s: %s removed by %s", rating_list.slug, tournament.slug, _who(user))


def add_director(rating_list: RatingList, username: str, user: RequestUser | None = None) -> None:
    """A user made a director of the list, by their username."""
    if user is not None and not is_director(rating_list, user):
        raise RatingListRefused(_not_list_director(rating_list))
    found = get_user_model().objects.filter(username=username.strip()).first()
    if found is None:
        raise RatingListRefused(
            gettext("No user is called %(name)s.") % {"name": isolate(username.strip())}
        )
    rating_list.directors.add(found)
    log.info("rating list %s: director %s added by %s", rating_list.slug, username, _who(user))


def ordered_events(rating_list: RatingList) -> list[RatingListEvent]:
    """The list's events in the order they are rated: date, then position, then when added."""
    return list(
        rating_list.events.select_related("tournament").order_by(
            "tournament__start_date", "position", "pk"
        )
    )


def _not_list_director(rating_list: RatingList) -> str:
    return gettext("Only the directors of the rating list %(list)s may change it.") % {
        "list": isolate(rating_list.name)
    }


def _who(user: RequestUser | None) -> str:
    return user.get_username() if user is not None else "the command line"


# -- the rebuild -------------------------------------------------------------------------------


def rebuild(rating_list: RatingList, user: RequestUser | None = None) -> Report:
    """Every entry of the list computed again from its events, in order, and written in one
    transaction (the old entries deleted); the list's `rebuilt` time set. Refused, with nothing
    changed, when an event has no date or a person plays in two divisions of one event."""
    if user is not None and not is_director(rating_list, user):
        raise RatingListRefused(_not_list_director(rating_list))
    with transaction.atomic():
        locked = RatingList.objects.select_for_update().get(pk=rating_list.pk)
        standings: dict[int, _Standing] = {}
        starts: dict[int, _Standing | None] = {}
        entries: list[RatingListEntry] = []
        reports: list[EventReport] = []
        for event in ordered_events(locked):
            rated, report = _rate_event(locked, event.tournament, standings, starts)
            entries.extend(rated)
            reports.append(report)
        RatingListEntry.objects.filter(rating_list=locked).delete()
        RatingListEntry.objects.bulk_create(entries)
        locked.rebuilt = timezone.now()
        locked.save(update_fields=["rebuilt"])
    rating_list.rebuilt = locked.rebuilt
    log.info(
        "rating list %s rebuilt by %s: %d events, %d entries",
        locked.slug,
        _who(user),
        len(reports),
        len(entries),
    )
    return Report(tuple(reports), len(entries), len(standings))


def _rate_event(
    rating_list: RatingList,
    tournament: Tournament,
    standings: dict[int, _Standing],
    starts: dict[int, _Standing | None],
) -> tuple[list[RatingListEntry], EventReport]:
    """One event rated from the list's ratings so far (a person new to the list from their
    starting rating, looked up into `starts`); `standings` moved on past it."""
    if tournament.start_date is None:
        raise RatingListRefused(
            gettext("%(event)s has no date: give it a start date, then rebuild.")
            % {"event": isolate(tournament.name)}
        )
    divisions = list(tournament.divisions.order_by("position", "pk"))
    read_stamps = read_many(d.pk for d in divisions)
    reads = [(d, *players_and_results(d, False, read_stamps[d.pk])) for d in divisions]
    # Who is whom read afresh: the read model's players are kept by the division's stamps,
    # which a link to a person (a bulk update by the people's linker) need not renew.
    links = dict(Player.objects.filter(division__in=divisions).values_list("pk", "person_id"))
    _refuse_two_divisions(tournament, [(d, players) for d, players, _ in reads], links)
    new = {p for p in links.values() if p is not None and p not in standings and p not in starts}
    starts.update(_starting(rating_list, new))
    fresh = {p: s for p, s in starts.items() if s is not None and p not in standings}
    known = standings | fresh
    found = _Event()
    after: dict[int, _Standing] = {}
    for division, players, results in reads:
        _rate_division(
            rating_list, division, players, results, links, known, set(fresh), found, after
        )
    standings.update(after)
    report = EventReport(
        tournament.name,
        tournament.slug,
        tournament.start_date.isoformat(),
        len(found.entries),
        found.newcomers,
        found.games,
        tuple(found.skipped),
        tuple(found.no_games),
        sum(_unpublished_rounds(d) for d in divisions),
        found.started,
    )
    return found.entries, report


def _starting(rating_list: RatingList, people: set[int]) -> dict[int, _Standing | None]:
    """The rating each of `people` starts the list at, from its starting file: the line with
    their membership id, else the lines of their folded name when they agree on the rating;
    None for a person the file does not give (or gives two ratings)."""
    found: dict[int, _Standing | None] = dict.fromkeys(people)
    if not people:
        return found
    rows = list(Person.objects.filter(pk__in=people).values_list("pk", "key", "naspa_id"))
    keys = {key for _, key, _ in rows if key}
    ids = {member.upper() for _, _, member in rows if member}
    by_key: dict[str, list[tuple[int, int | None]]] = {}
    by_id: dict[str, list[tuple[int, int | None]]] = {}
    for key, member, rating, games in RatingListStart.objects.filter(
        Q(key__in=keys) | Q(member_id__in=ids), rating_list=rating_list
    ).values_list("key", "member_id", "rating", "games"):
        by_key.setdefault(key, []).append((rating, games))
        if member:
            by_id.setdefault(member, []).append((rating, games))
    for pk, key, member in rows:
        lines = by_id.get(member.upper(), []) if member else []
        if len({rating for rating, _ in lines}) != 1:
            lines = by_key.get(key, []) if key else []
        if len({rating for rating, _ in lines}) != 1:
            continue
        games = max(games or 0 for _, games in lines)
        found[pk] = _Standing(lines[0][0], max(games, ESTABLISHED_GAMES))
    return found


def _rate_division(
    rating_list: RatingList,
    division: Division,
    players: Sequence[Player],
    results: Sequence[Sequence[engine.Game]],
    links: dict[int, int | None],
    standings: dict[int, _Standing],
    fresh: set[int],
    found: _Event,
    after: dict[int, _Standing],
) -> None:
    """A division's players rated by the engine, from the list's ratings before the event
    (a person new to it from their starting rating, `fresh`; a player without a person from
    the event's own), into `found` and `after`."""
    rated_players = []
    for p in players:
        person = links.get(p.pk)
        if person is None:
            rated_players.append(ratings_engine.RatedPlayer(p.pk, p.rating, p.lifetime_games or 0))
            found.skipped.append(p.name)
            continue
        known = standings.get(person, _Standing())
        rated_players.append(ratings_engine.RatedPlayer(p.pk, known.rating, known.games))
    if not results:
        found.no_games.extend(p.name for p in players if links.get(p.pk) is not None)
        return
    rated = ratings_engine.rate_event(
        rated_players,
        results,
        system=rating_list.system,
        max_rounds=max(division.planned_rounds or 0, len(results)) or None,
    )
    records = rated_records(results)
    found.games += sum(games for games, _ in records.values()) // 2
    for p in players:
        person = links.get(p.pk)
        if person is None:
            continue
        games, wins = records.get(p.pk, (0, 0.0))
        if not games:
            found.no_games.append(p.name)
            continue
        known = standings.get(person, _Standing())
        final = int(rated[p.pk].final)
        found.newcomers += not known.rating
        found.started += person in fresh
        found.entries.append(
            RatingListEntry(
                rating_list=rating_list,
                person_id=person,
                tournament_id=division.tournament_id,
                before=known.rating,
                after=final,
                games=games,
                wins=wins,
            )
        )
        after[person] = _Standing(final, known.games + games)


def rated_records(rounds: Iterable[Iterable[engine.Game]]) -> dict[object, tuple[int, float]]:
    """Each player's rated games and wins (a draw a half) over the rounds: the games the rating
    engine rates, between two players and played (byes and forfeits are not), each once however
    many sides it is given from."""
    records: dict[object, tuple[int, float]] = {}
    for games in rounds:
        counted: list[engine.Game] = []
        for game in games:
            if game.opponent is None or game.kind is not engine.GameKind.PLAYED:
                continue
            if any(engine.mirrors(earlier, game) for earlier in counted):
                continue
            counted.append(game)
            sign = (game.score > game.opponent_score) - (game.score < game.opponent_score)
            share = (sign + 1) / 2
            for who, gained in ((game.player, share), (game.opponent, 1 - share)):
                played, wins = records.get(who, (0, 0.0))
                records[who] = (played + 1, wins + gained)
    return records


def _refuse_two_divisions(
    tournament: Tournament,
    divisions: Sequence[tuple[Division, Sequence[Player]]],
    links: dict[int, int | None],
) -> None:
    seen: dict[int, tuple[Division, Player]] = {}
    for division, players in divisions:
        for p in players:
            person = links.get(p.pk)
            if person is None:
                continue
            if person in seen:
                first_division, first = seen[person]
                raise RatingListRefused(
                    gettext(
                        "%(first)s (division %(one)s) and %(second)s (division %(two)s) of "
                        "%(event)s are linked to one person: a person is rated once an event. "
                        "Undo one of the two links, or take the event out of the list, then "
                        "rebuild."
                    )
                    % {
                        "first": isolate(first.name),
                        "one": isolate(first_division.name),
                        "second": isolate(p.name),
                        "two": isolate(division.name),
                        "event": isolate(tournament.name),
                    }
                )
            seen[person] = (division, p)


def _unpublished_rounds(division: Division) -> int:
    with_results = Game.objects.filter(division=division).exclude(score1=None)
    everyone = set(with_results.values_list("round", flat=True))
    public = set(with_results.published().values_list("round", flat=True))
    return len(everyone - public)


# -- reading the list --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Current:
    """A person's current rating in the list: after their last event in it."""

    rank: int
    person: Person
    rating: int
    games: int  # rated games in the list, every event
    last_event: Tournament

    @property
    def hidden(self) -> bool:
        return self.person.hidden


def current_ratings(rating_list: RatingList) -> list[Current]:
    """Every person's rating after their last event in the list, highest first (ties by name,
    then person), ranked with ties sharing a rank. The entries are written in event order by
    `rebuild`, so a person's last entry by key is their last event's."""
    last: dict[int, RatingListEntry] = {}
    games: dict[int, int] = {}
    for entry in (
        RatingListEntry.objects.filter(rating_list=rating_list)
        .select_related("person", "tournament")
        .order_by("pk")
    ):
        last[entry.person_id] = entry
        games[entry.person_id] = games.get(entry.person_id, 0) + entry.games
    ordered = sorted(last.values(), key=lambda e: (-e.after, e.person.name, e.person_id))
    rows: list[Current] = []
    for index, entry in enumerate(ordered, start=1):
        rank = rows[-1].rank if rows and rows[-1].rating == entry.after else index
        total = games[entry.person_id]
        rows.append(Current(rank, entry.person, entry.after, total, entry.tournament))
    return rows


def history(rating_list: RatingList, person: Person) -> list[RatingListEntry]:
    """A person's entries in the list, event by event."""
    return list(
        RatingListEntry.objects.filter(rating_list=rating_list, person=person)
        .select_related("tournament")
        .order_by("pk")
    )


FORMATS = ratinglist.FORMATS  # "naspa", "wespa"


def export_text(rating_list: RatingList, fmt: str, *, public: bool = True) -> str:
    """The list's current ratings as a rating-list file the desk reads (`interchange.ratinglist`,
    the players' page's "ratings from a rating list"): every person's current rating and games
    in the list, ranked. For the public, hidden people are left out."""
    if fmt not in FORMATS:
        raise RatingListRefused(
            gettext("%(format)s is not a rating list format (%(known)s).")
            % {"format": isolate(fmt), "known": ", ".join(FORMATS)}
        )
    rows = [
        ratinglist.Listed(
            name=row.person.name,
            rating=row.rating,
            games=row.games,
            rank=row.rank,
            latin=row.person.latin_name or names.automatic(row.person.name),
            member_id=row.person.naspa_id,
            last_played=_yyyymmdd(row.last_event.start_date),
        )
        for row in current_ratings(rating_list)
        if row.person.name.strip() and not (public and row.hidden)
    ]
    if fmt == "naspa":
        return ratinglist.write_naspa(rows)
    last = ordered_events(rating_list)[-1:]
    last_date = _yyyymmdd(last[0].tournament.start_date) if last else ""
    return ratinglist.write_wespa(rows, rating_list.slug, last_date)


def _yyyymmdd(day: datetime.date | None) -> str:
    return day.strftime("%Y%m%d") if day is not None else ""
