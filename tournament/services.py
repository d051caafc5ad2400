"""Services: load rows, call an engine, save the result in one transaction.

Views and commands come here; they never compute standings or read files themselves.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from django.core.cache import cache
from django.db import transaction
from django.utils.text import slugify

from tournament.engine import pairing
from tournament.engine import ratings as ratings_engine
from tournament.engine import standings as engine
from tournament.interchange import tsh
from tournament.models import Division, Game, Player, Tournament


class ImportError_(ValueError):
    """A file that cannot be imported; the message says where and why."""


def division_by_name(slug: str, name: str) -> Division:
    """The division `name` of the tournament `slug`; LookupError with a sentence if none."""
    try:
        return Division.objects.select_related("tournament").get(tournament__slug=slug, name=name)
    except Division.DoesNotExist:
        raise LookupError(f"no division {name!r} in tournament {slug!r}") from None


# -- standings ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    """A player's line in the standings."""

    rank: int | None
    player: Player
    wins: float
    losses: float
    spread: int
    games: int

    @property
    def name(self) -> str:
        return self.player.name

    @property
    def rating(self) -> int:
        return self.player.rating

    @property
    def record(self) -> str:
        return f"{count_text(self.wins)}–{count_text(self.losses)}"


def count_text(x: float) -> str:
    """Wins or losses as written: 7, or 7.5 with a tie."""
    return str(int(x)) if x == int(x) else f"{x:g}"


@dataclass(frozen=True, slots=True)
class _GameRow:
    """The columns of a game the engines need, read without building a model instance."""

    round: int
    player1_id: int
    player2_id: int | None
    score1: int | None
    score2: int | None
    kind: str
    first: int

    @property
    def has_result(self) -> bool:
        return self.score1 is not None and (self.player2_id is None or self.score2 is not None)


_GAME_COLUMNS = ("round", "player1_id", "player2_id", "score1", "score2", "kind", "first")


def engine_game(g: Game | _GameRow, with_scores: bool = True) -> engine.Game:
    """A game as the engines take it, from player1's side; without its scores, its pairing
    only (a round paired and not yet played)."""
    if g.player2_id is None:
        kind = engine.GameKind.FORFEIT if g.kind == Game.FORFEIT else engine.GameKind.BYE
        return engine.Game(g.player1_id, None, (g.score1 or 0) if with_scores else 0, 0, kind)
    first = {1: True, 2: False}.get(g.first)
    if not with_scores:
        return engine.Game(g.player1_id, g.player2_id, 0, 0, first=first)
    return engine.Game(g.player1_id, g.player2_id, g.score1, g.score2, first=first)


def engine_games(games: Sequence[Game | _GameRow], rounds: int) -> list[list[engine.Game]]:
    """The results of each round as the engines take them (`[0]` is round 1)."""
    by_round: list[list[engine.Game]] = [[] for _ in range(rounds)]
    for g in games:
        if not g.has_result or g.kind == Game.VOID or g.round > rounds:
            continue
        by_round[g.round - 1].append(engine_game(g))
    return by_round


def rounds_played(division: Division) -> int:
    """The last round with a result."""
    last = division.games.exclude(score1=None).order_by("-round").values_list("round", flat=True)
    return last.first() or 0


def shows_inactive(tournament: Tournament) -> bool:
    """tsh's `config show_inactive`: withdrawn players keep a rank in the standings."""
    if not tournament.tsh_config:
        return False
    try:
        value = tsh.read_config(tournament.tsh_config).value("show_inactive")
    except tsh.TshFormatError:
        return False  # the config was read when imported; an edit that broke it sets nothing
    return _perl_true(value)


def division_standings(
    division: Division,
    after_round: int | None = None,
    capped: bool = False,
    show_inactive: bool | None = None,
    key: str | None = None,
) -> list[Row]:
    """The standings after a round (default: the last with a result), in rank order.

    Withdrawn players are ranked too if `show_inactive` (default: as the event's config.tsh
    says). The standings are cached under the division's stamp, so a change to its games or
    players is seen at once: one query by primary key reads the stamp; computing the
    standings afresh takes two more whatever the size of the division (its players and its
    games), and one for the tournament's config if a player has withdrawn and the division was
    loaded without its tournament. A caller that has just asked for `standings_key` passes it
    as `key`.
    """
    key = key or standings_key(division, after_round, capped, show_inactive)
    rows = cache.get(key)
    if rows is None:
        rows = _standings(division, after_round, capped, show_inactive)
        cache.set(key, rows, timeout=24 * 3600)
    return rows


def standings_key(
    division: Division,
    after_round: int | None = None,
    capped: bool = False,
    show_inactive: bool | None = None,
) -> str:
    """The cache key of a standings table: it changes with any game or player of the division."""
    raw = (
        f"{division.pk}:{_stamp(division)}:{after_round}:{capped}:"
        f"{division.spread_cap}:{show_inactive}"
    )
    return "standings:" + hashlib.sha256(raw.encode()).hexdigest()


def _stamp(division: Division) -> str:
    """The division's stamp, read afresh (one query by primary key): every change to its games,
    players, rounds or settings replaces it (`tournament/stamps.py`), and an instance read
    before the change still holds the old one."""
    return Division.objects.filter(pk=division.pk).values_list("stamp", flat=True).get()


def engine_player(p: Player) -> engine.Player:
    """A player as the engines take them: the id is the primary key."""
    return engine.Player(p.pk, p.name, p.rating, p.number, p.withdrawn_from_round)


def _players_and_results(division: Division) -> tuple[list[Player], list[list[engine.Game]]]:
    """The division's players, and the results of each round up to the last with one (two
    queries; the games are read as plain values, without building model instances)."""
    players = list(division.players.all())
    games = [
        _GameRow(*values)
        for values in Game.objects.filter(division=division).values_list(*_GAME_COLUMNS)
    ]
    last_round = max((g.round for g in games if g.has_result), default=0)
    return players, engine_games(games, last_round)


def _standings(
    division: Division, after_round: int | None, capped: bool, show_inactive: bool | None
) -> list[Row]:
    players, results = _players_and_results(division)
    last_round = len(results)
    after = last_round if after_round is None else min(after_round, last_round)
    by_id = {p.pk: p for p in players}
    if show_inactive is None:
        withdrawn = any(p.withdrawn_from_round is not None for p in players)
        show_inactive = withdrawn and shows_inactive(division.tournament)
    table = engine.standings(
        [engine_player(p) for p in players],
        results,
        after_round=after,
        spread_cap=division.spread_cap if capped else None,
        rank_withdrawn=show_inactive,
    )
    return [
        Row(
            s.rank,
            by_id[s.player.id],
            s.wins,
            s.losses,
            s.capped_spread if capped else s.spread,
            s.games,
        )
        for s in table
    ]


# -- ratings ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class RatingRow:
    """A player's rating before the event and after each round rated so far."""

    player: Player
    before: int
    by_round: tuple[int, ...]  # by_round[0]: the rating after round 1
    after_round: int  # the round `after` is the rating after (0: none rated yet)

    @property
    def name(self) -> str:
        return self.player.name

    @property
    def after(self) -> int:
        return self.by_round[self.after_round - 1] if self.after_round else self.before

    @property
    def change(self) -> int:
        return self.after - self.before


def division_ratings(
    division: Division, after_round: int | None = None, key: str | None = None
) -> list[RatingRow]:
    """Every player's rating after `after_round` (default: the last with a result), by the
    division's rating system, highest new rating first. Byes and forfeits are not rated.

    Cached like the standings, under the same stamp of the division's games and players: a
    caller that has just asked for `standings_key(division)` passes it as `key`. Computing
    them afresh takes two queries, the players and the games.
    """
    system = f"{division.rating_system}:{division.planned_rounds}"
    key = f"ratings:{system}:" + (key or standings_key(division))
    rows = cache.get(key)
    if rows is None:
        rows = _ratings(division)
        cache.set(key, rows, timeout=24 * 3600)
    if after_round is not None:
        rows = [replace(r, after_round=max(0, min(after_round, len(r.by_round)))) for r in rows]
    return sorted(rows, key=lambda r: (-r.after, r.player.number))


def _ratings(division: Division) -> list[RatingRow]:
    players, results = _players_and_results(division)
    rated = ratings_engine.rate_event(
        [ratings_engine.RatedPlayer(p.pk, p.rating, p.lifetime_games or 0) for p in players],
        results,
        system=division.rating_system,
        max_rounds=max(division.planned_rounds or 0, len(results)) or None,
    )
    rows = []
    for p in players:
        by_round = tuple(int(r) for r in rated[p.pk].after_round)
        rows.append(RatingRow(p, p.rating, by_round, len(by_round)))
    return rows


# -- TSH files ---------------------------------------------------------------------------------


def _lifetime_games(player: tsh.TshPlayer) -> int | None:
    values = player.extra("lifeg")
    if values and values[0].isdigit():
        return int(values[0])
    return None


def _first_second(player: tsh.TshPlayer, round_index: int) -> int:
    """tsh's `p12` for a round: 1 first, 2 second; anything else is not known."""
    values = player.extra("p12") or []
    if round_index < len(values) and values[round_index] in ("1", "2"):
        return int(values[round_index])
    return 0


@transaction.atomic
def import_division(tournament: Tournament, name: str, tfile: tsh.TFile, **settings) -> Division:
    """A division and its players and games from a read `.t` file."""
    division = Division.objects.create(tournament=tournament, name=name, **settings)
    players = {}
    for p in tfile.players:
        players[p.number] = Player.objects.create(
            division=division,
            number=p.number,
            name=p.name,
            rating=int(p.rating_value),
            rating_text=p.rating,
            lifetime_games=_lifetime_games(p),
            team=" ".join(p.extra("team") or []),
            withdrawn_from_round=p.withdrawn_from_round,
            tsh_extras=[[e.key, e.values] for e in p.extras],
        )
    games = []
    for p in tfile.players:
        boards = p.extra_numbers("board") or []
        for index, opponent in enumerate(p.opponents):
            if opponent is None:
                continue
            score = p.scores[index] if index < len(p.scores) else None
            round_number = index + 1
            board = boards[index] if index < len(boards) else None
            if opponent == tsh.BYE:
                # A bye paired but not scored yet is kept, so that exporting gives it back.
                kind = Game.FORFEIT if score is not None and score < 0 else Game.BYE
                games.append(
                    Game(
                        division=division,
                        round=round_number,
                        table=board,
                        player1=players[p.number],
                        score1=score,
                        kind=kind,
                    )
                )
                continue
            if opponent < p.number:
                continue  # the game is made from the lower-numbered player's side
            other = tfile.player(opponent)
            their = other.scores[index] if index < len(other.scores) else None
            first = _first_second(p, index)
            games.append(
                Game(
                    division=division,
                    round=round_number,
                    table=board,
                    player1=players[p.number],
                    player2=players[opponent],
                    score1=score,
                    score2=their,
                    first=first,
                )
            )
    Game.objects.bulk_create(games)
    return division


def _perl_true(value: object) -> bool:
    return value not in (None, 0, "", "0")


def _schedule(config: tsh.ConfigFile, division: str) -> list[dict]:
    """The division's `autopair` lines as a pairing schedule. A command Spread does not pair
    by leaves the schedule empty (the lines stay in the kept config.tsh)."""
    try:
        return pairing.schedule_from_autopair(config.autopairs, division)
    except ValueError:
        return []


def _unique_slug(base: str) -> str:
    slug = base or "tournament"
    n = 2
    while Tournament.objects.filter(slug=slug).exists():
        slug = f"{base}-{n}"
        n += 1
    return slug


@transaction.atomic
def import_tsh(path: str | Path, slug: str | None = None, name: str | None = None) -> Tournament:
    """A tournament from a `config.tsh` (its divisions and settings) or a single `.t` file."""
    path = Path(path)
    if slug is not None and Tournament.objects.filter(slug=slug).exists():
        raise ImportError_(f"the slug {slug!r} is already taken by another tournament")
    try:
        if path.suffix == ".t" or path.name.endswith(".t"):
            tfile = tsh.read_t_file(path)
            base = slugify(name or path.stem)
            tournament = Tournament.objects.create(
                name=name or path.stem, slug=slug or _unique_slug(base)
            )
            import_division(tournament, path.stem, tfile, tsh_file=path.name)
            return tournament
        config = tsh.read_config_file(path)
        folder = path.parent
        title = name or config.value("event_name") or folder.name
        tournament = Tournament.objects.create(
            name=str(title),
            slug=slug or _unique_slug(slugify(str(title))),
            tsh_config=tsh.write_config(config),
        )
        caps = config.standings_spread_cap or config.spread_cap
        for position, line in enumerate(config.divisions):
            tfile = tsh.read_t_file(folder / line.file)
            import_division(
                tournament,
                line.name,
                tfile,
                position=position,
                tsh_file=line.file,
                bye_spread=config.effective_bye_spread,
                planned_rounds=config.max_rounds,
                spread_cap=[caps] if isinstance(caps, int) else caps,
                prize_bands=config.prize_bands(line.name),
                prizes=config.prizes(line.name),
                gibson=_perl_true(config.value("gibson")),
                gibson_spread=config.gibson_spread,
                pairing_schedule=_schedule(config, line.name),
            )
        return tournament
    except tsh.TshFormatError as error:
        raise ImportError_(str(error)) from error
    except OSError as error:
        raise ImportError_(f"cannot read {error.filename}: {error.strerror}") from error


def division_tfile(division: Division) -> tsh.TFile:
    """The division as a `.t` file: every player's line with its opponents, scores and fields."""
    players = list(division.players.all())
    number_of = {p.pk: p.number for p in players}
    rounds = max((g.round for g in division.games.all()), default=0)
    opponents: dict[int, list[int | None]] = {p.pk: [None] * rounds for p in players}
    scores: dict[int, list[int | None]] = {p.pk: [None] * rounds for p in players}
    for g in division.games.all():
        i = g.round - 1
        if g.player2_id is None:
            opponents[g.player1_id][i] = tsh.BYE
            scores[g.player1_id][i] = g.score1
        else:
            opponents[g.player1_id][i] = number_of[g.player2_id]
            opponents[g.player2_id][i] = number_of[g.player1_id]
            scores[g.player1_id][i] = g.score1
            scores[g.player2_id][i] = g.score2
    lines: list[tsh.TshLine] = []
    for p in players:
        opp = opponents[p.pk]
        sc = scores[p.pk]
        while sc and sc[-1] is None:  # rounds paired but not played keep their opponents only
            sc.pop()
        while opp and opp[-1] is None:
            opp.pop()
        lines.append(
            tsh.TshPlayer(
                number=p.number,
                name=p.name,
                rating=p.rating_text or str(p.rating),
                opponents=opp,
                scores=sc,
                extras=[tsh.ExtraField(key, list(values)) for key, values in p.tsh_extras],
            )
        )
    return tsh.TFile(lines)


def export_tsh(tournament: Tournament, folder: str | Path) -> list[Path]:
    """Write `config.tsh` and a `.t` file per division into `folder`; the files written."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    divisions = list(tournament.divisions.all())
    for division in divisions:
        target = folder / (division.tsh_file or f"{slugify(division.name) or 'division'}.t")
        tsh.write_t_file(division_tfile(division), target)
        written.append(target)
    config_text = tournament.tsh_config or "".join(
        f"division {d.name} {(d.tsh_file or slugify(d.name) + '.t')}\n" for d in divisions
    )
    config_path = folder / "config.tsh"
    config_path.write_text(config_text, encoding="utf-8")
    written.append(config_path)
    return written
