"""What the public sees of a person across events (`/people/…`, `/api/v1/people/…`): their
events, ratings, high games, verified games and head-to-head, from public events and published
rounds only. Each event's rank, record and rating are the event's own pages' (read_model's
standings and ratings, `public=True`). A person's page is computed once per state of its
divisions: kept under the person, their players and every involved division's stamp."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.core.cache import cache
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.http import Http404

from tournament.models import Game, Person, Player, Scoresheet
from tournament.people.services import fold
from tournament.standings import keys, read_model, stamps

TIMEOUT = 3600
HIGH_GAMES = 10


def public_person(pk: int) -> Person:
    """The person, if the public may see them: not hidden, and in a public event."""
    person = Person.objects.filter(pk=pk, hidden=False).first()
    if person is None or not _public_players(person).exists():
        raise Http404("No such person")
    return person


def _public_players(person: Person) -> QuerySet[Player]:
    return Player.objects.filter(person=person, division__tournament__public=True)


def people_list(query: str = "") -> QuerySet[Person]:
    """Every person the public may see, by name; `query`'s words each found in the name
    (folded as people are matched: case, accents and order do not count)."""
    public = Player.objects.filter(person=OuterRef("pk"), division__tournament__public=True)
    people = Person.objects.filter(Exists(public), hidden=False)
    for word in fold(query).split()[:6]:
        people = people.filter(key__contains=word)
    return people.order_by("key", "pk")


def event_counts(people: list[Person]) -> dict[int, int]:
    """How many public events each of these people played (one query)."""
    rows = (
        Player.objects.filter(person__in=people, division__tournament__public=True)
        .values_list("person_id", "division__tournament_id")
        .distinct()
    )
    counts: dict[int, int] = {}
    for person_id, _ in rows:
        counts[person_id] = counts.get(person_id, 0) + 1
    return counts


@dataclass
class Opponent:
    key: str  # "person:ID" or "player:ID" (an opponent with no person, or a hidden one)
    person: int | None  # None: shown by name without a link
    name: str
    games: int = 0
    wins: float = 0
    losses: float = 0
    spread: int = 0

    def as_api(self) -> dict[str, Any]:
        return {
            "opponent": self.person,
            "name": self.name,
            "games": self.games,
            "wins": self.wins,
            "losses": self.losses,
            "spread": self.spread,
        }


@dataclass
class PersonPage:
    person: int
    name: str
    events: list[dict[str, Any]] = field(default_factory=list)
    head_to_head: list[Opponent] = field(default_factory=list)
    high_games: list[dict[str, Any]] = field(default_factory=list)
    sheets: list[dict[str, Any]] = field(default_factory=list)
    chart: dict[str, Any] | None = None


def _players(person: Person) -> list[Player]:
    return list(
        _public_players(person)
        .select_related("division__tournament")
        .order_by("division__tournament__start_date", "division__tournament_id", "division_id")
    )


def person_page(person: Person) -> PersonPage:
    """The person's page, kept under the person and their divisions' stamps."""
    players = _players(person)
    found = stamps.read_many(p.division_id for p in players)
    shown = [p for p in players if p.division_id in found]
    key = keys.of_divisions(
        "people-page",
        [found[p.division_id] for p in shown],
        person=person.pk,
        updated=person.updated.isoformat(),
        players=tuple(p.pk for p in shown),
    )
    page = cache.get(key)
    if page is None:
        page = _compute(person, players, found)
        cache.set(key, page, TIMEOUT)
    return page


def _compute(person: Person, players: list[Player], found: dict) -> PersonPage:
    page = PersonPage(person.pk, person.name)
    lines = _division_lines(players, found)
    for player in players:
        page.events.append(_event(player, lines.get(player.division_id, {}).get(player.pk)))
    games = _games([p.pk for p in players])
    mine = {p.pk for p in players}
    page.head_to_head = head_to_head(games, mine)
    page.high_games = _high_games(games, mine)
    page.sheets = _sheets(games, mine)
    page.chart = chart([(e["tournament"], e["before"], e["after"]) for e in page.events])
    return page


def _division_lines(players: list[Player], found: dict) -> dict[int, dict[int, tuple]]:
    """Every player's line of each division, (wins, losses, spread, games, rank, rating before,
    after), from the event's own standings and ratings (public): kept under the division's
    stamp, so that every person of a division reads it, and a page of 50 events asks the cache
    once for all of them."""
    by_division = {
        p.division_id: keys.of_division("people-lines", found[p.division_id], public=True)
        for p in players
        if p.division_id in found
    }
    kept = cache.get_many(list(by_division.values()))
    lines: dict[int, dict[int, tuple]] = {}
    missing = {}
    for player in players:
        key = by_division.get(player.division_id)
        if key is None:
            continue
        if key in kept:
            lines[player.division_id] = kept[key]
        elif player.division_id not in lines:
            lines[player.division_id] = _lines_of(player.division, found[player.division_id])
            missing[key] = lines[player.division_id]
    if missing:
        cache.set_many(missing, TIMEOUT)
    return lines


def _lines_of(div: Any, division_stamps: Any) -> dict[int, tuple]:
    standings = read_model.division_standings(div, public=True, stamps=division_stamps)
    ratings = {
        r.player.pk: (r.before, r.after)
        for r in read_model.division_ratings(div, public=True, stamps=division_stamps)
    }
    return {
        r.player.pk: (
            r.wins,
            r.losses,
            r.spread,
            r.games,
            r.rank,
            *ratings.get(r.player.pk, (0, 0)),
        )
        for r in standings
    }


def _event(player: Player, line: tuple | None) -> dict[str, Any]:
    div = player.division
    t = div.tournament
    wins, losses, spread, games, rank, before, after = line or (
        0,
        0,
        0,
        0,
        None,
        player.rating,
        player.rating,
    )
    return {
        "slug": t.slug,
        "tournament": t.name,
        "date": t.start_date.isoformat() if t.start_date else "",
        "division": div.name,
        "number": player.number,
        "player_name": player.name,
        "wins": wins,
        "losses": losses,
        "spread": spread,
        "games": games,
        "rank": rank,
        "before": before,
        "after": after,
        "change": after - before,
    }


def _games(player_ids: list[int]) -> list[dict[str, Any]]:
    """The played games of these players with both scores, in public events and published
    rounds, as plain values (one query)."""
    rows = (
        Game.objects.published()
        .filter(Q(player1__in=player_ids) | Q(player2__in=player_ids))
        .filter(division__tournament__public=True, kind=Game.PLAYED, player2__isnull=False)
        .exclude(score1=None)
        .exclude(score2=None)
        .order_by("division__tournament__start_date", "division__tournament_id", "round", "pk")
        .values(
            "pk",
            "round",
            "score1",
            "score2",
            "player1_id",
            "player2_id",
            "player1__name",
            "player2__name",
            "player1__person_id",
            "player2__person_id",
            "player1__person__hidden",
            "player2__person__hidden",
            "player1__person__name",
            "player2__person__name",
            "division__name",
            "division__tournament__slug",
            "division__tournament__name",
        )
    )
    return list(rows)


def _sides(g: dict[str, Any], mine: set[int]) -> tuple[str, str]:
    """("1", "2") when the person is player1, else ("2", "1")."""
    return ("1", "2") if g["player1_id"] in mine else ("2", "1")


def _opponent_of(g: dict[str, Any], o: str) -> tuple[str, int | None, str]:
    person = g[f"player{o}__person_id"]
    if person is None or g[f"player{o}__person__hidden"]:
        return f"player:{g[f'player{o}_id']}", None, g[f"player{o}__name"]
    return f"person:{person}", person, g[f"player{o}__person__name"]


def head_to_head(games: list[dict[str, Any]], mine: set[int]) -> list[Opponent]:
    """Games, wins (a tie half each), losses and spread against each opponent, most games
    first. Hidden people count by their name alone, each event's player apart."""
    table: dict[str, Opponent] = {}
    for g in games:
        s, o = _sides(g, mine)
        key, person, name = _opponent_of(g, o)
        row = table.setdefault(key, Opponent(key, person, name))
        diff = g[f"score{s}"] - g[f"score{o}"]
        row.games += 1
        row.wins += 1 if diff > 0 else 0.5 if diff == 0 else 0
        row.losses += 1 if diff < 0 else 0.5 if diff == 0 else 0
        row.spread += diff
    return sorted(table.values(), key=lambda r: (-r.games, -r.wins, r.name, r.key))


def game_line(g: dict[str, Any], mine: set[int]) -> dict[str, Any]:
    s, o = _sides(g, mine)
    key, person, name = _opponent_of(g, o)
    return {
        "game": g["pk"],
        "slug": g["division__tournament__slug"],
        "tournament": g["division__tournament__name"],
        "division": g["division__name"],
        "round": g["round"],
        "score": g[f"score{s}"],
        "their_score": g[f"score{o}"],
        "opponent": person,
        "opponent_name": name,
    }


def _high_games(games: list[dict[str, Any]], mine: set[int]) -> list[dict[str, Any]]:
    lines = [game_line(g, mine) for g in games]
    lines.sort(key=lambda x: (-x["score"], x["game"]))
    return lines[:HIGH_GAMES]


def verified_sheets(game_ids: list[int]) -> dict[int, list[int]]:
    """The public verified scoresheets of these games, by game (one query)."""
    found: dict[int, list[int]] = {}
    rows = Scoresheet.objects.public().filter(game__in=game_ids, verified=True)
    for game, sheet in rows.order_by("pk").values_list("game_id", "pk"):
        found.setdefault(game, []).append(sheet)
    return found


def _sheets(games: list[dict[str, Any]], mine: set[int]) -> list[dict[str, Any]]:
    by_game = verified_sheets([g["pk"] for g in games])
    out = []
    for g in games:
        for sheet in by_game.get(g["pk"], []):
            out.append({**game_line(g, mine), "sheet": sheet})
    return out


def versus(person: Person, other: Person) -> tuple[list[dict[str, Any]], Opponent | None]:
    """The games between two people, game by game, with their verified scoresheets; and the
    total."""
    mine = {p.pk for p in _public_players(person)}
    theirs = set(_public_players(other).values_list("pk", flat=True))
    games = [
        g
        for g in _games(sorted(mine))
        if (g["player1_id"] in mine and g["player2_id"] in theirs)
        or (g["player2_id"] in mine and g["player1_id"] in theirs)
    ]
    by_game = verified_sheets([g["pk"] for g in games])
    lines = [{**game_line(g, mine), "sheets": by_game.get(g["pk"], [])} for g in games]
    total = head_to_head(games, mine)
    return lines, (total[0] if total else None)


# --- The rating chart, drawn here (an SVG, no script) ---------------------------------------

WIDTH, HEIGHT, PAD = 600, 180, 28


def chart(points: list[tuple[str, int, int]]) -> dict[str, Any] | None:
    """The rating before the first event and after each, as an SVG polyline's points in a
    WIDTH×HEIGHT box; None with fewer than two values or no rating at all."""
    values = [points[0][1], *(after for _, _, after in points)] if points else []
    if len(values) < 2 or not any(values):
        return None
    low, high = min(values), max(values)
    span = max(high - low, 1)
    step = (WIDTH - 2 * PAD) / (len(values) - 1)

    def y(v: int) -> float:
        return round(HEIGHT - PAD - (v - low) * (HEIGHT - 2 * PAD) / span, 1)

    events = ["", *(name for name, _, _ in points)]  # the first dot: before the first event
    dots = [
        {"x": round(PAD + i * step, 1), "y": y(v), "value": v, "event": events[i]}
        for i, v in enumerate(values)
    ]
    return {
        "width": WIDTH,
        "height": HEIGHT,
        "points": " ".join(f"{d['x']},{d['y']}" for d in dots),
        "dots": dots,
        "low": low,
        "high": high,
        "low_y": y(low),
        "high_y": y(high),
        "pad": PAD,
        "right": WIDTH - PAD,
    }
