"""Standings: players and the results of each round in, each player's record and rank out.

The order and the counting are tsh's (`TSH::Player::MakeStandingComparator`,
`TSH::Division::Synch` and `ComputeRanks`; `shared/reference/tsh.md` §5–6), so that the ranks
computed here agree with the `rrank` / `rcrank` values tsh writes into a `.t` file:

- players are ordered by wins (a drawn game is half a win and half a loss), then fewer losses,
  then spread, then pre-event rating, then seed (tsh puts a pseudo-random number drawn from the
  `.t` line before its player number; it only ever separates players who already share a rank);
- players level on wins, losses and spread share a rank, the rank of the first of them; before
  round 1 (after round 0) players are ranked by rating alone, equal ratings sharing a rank;
- a result without an opponent (a bye, or a forfeit as tsh records it) counts for its player
  alone: a win if its spread is positive, a loss if negative, neither if zero;
- with a spread cap, each game's spread is clipped to ±cap of its round before it is added up;
- a withdrawn player keeps their record but is left out of the ranking from the round they
  withdrew (tsh's inactive players), unless asked to rank everyone (tsh's `show_inactive`).

Plain data only: no Django, no database.
"""

from __future__ import annotations

import bisect
from collections.abc import Container, Hashable, Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import TypeAlias

from tournament.engine.text import counted

PlayerId: TypeAlias = Hashable
SpreadCap: TypeAlias = int | Sequence[int]


class StandingsError(ValueError):
    """The players or results handed in cannot be ranked as they stand (a mistake in the data)."""


class GameKind(Enum):
    PLAYED = "played"
    BYE = "bye"
    FORFEIT = "forfeit"


@dataclass(frozen=True, slots=True)
class Player:
    id: PlayerId
    name: str = ""
    rating: float = 0  # pre-event rating; 0 = unrated
    seed: int = 0  # the player's number in the division (tsh's line number): the last tie-break
    withdrawn_from_round: int | None = None  # the first round the player no longer takes part in

    def withdrawn_after(self, round_number: int) -> bool:
        """Whether the player had withdrawn by the end of `round_number`."""
        return self.withdrawn_from_round is not None and self.withdrawn_from_round <= round_number


@dataclass(frozen=True, slots=True)
class Game:
    """One result of a round, seen from `player`.

    A game between two players may be given once, or twice mirrored (once from each side, as a
    `.t` file holds it); either way each player's result is counted once. A result without an
    opponent is signed from the player's side, as tsh records it with opponent 0: a bye is
    `score=+bye_spread`, a forfeit loss `score=-forfeit_spread`, and a player whose opponent
    forfeited gets `+spread`. A forfeit between two paired players keeps both of them, with
    `kind=GameKind.FORFEIT`: it counts in the standings and is never rated.

    `first` says who went first: True if `player` did, False if the opponent did, None when it is
    not known or there was no game (a bye). The mirrored copy of a game carries the opposite value.
    """

    player: PlayerId
    opponent: PlayerId | None
    score: int
    opponent_score: int = 0
    kind: GameKind = GameKind.PLAYED
    first: bool | None = None
    # The player's and the opponent's results (1, ½ or 0) where the record gives them apart
    # from the scores: a .tou file's result digits that disagree with its scores.
    results: tuple[float, float] | None = None

    @property
    def spread(self) -> int:
        return self.score - self.opponent_score


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's record after some round, and their place in the ranking asked for."""

    player: Player
    rank: int | None  # None: withdrawn, and so not ranked
    wins: float
    losses: float
    spread: int  # the sum of each game's spread as played
    capped_spread: int  # the sum of each game's spread clipped to its round's cap
    games: int  # results counted, byes and forfeits included

    @property
    def id(self) -> PlayerId:
        return self.player.id


@dataclass(slots=True)
class Record:
    """A player's results counted up to some round (`records`): read-only once handed out."""

    wins: float = 0
    losses: float = 0
    spread: int = 0
    capped_spread: int = 0
    games: int = 0


def standings(
    players: Sequence[Player],
    rounds: Sequence[Iterable[Game]],
    *,
    after_round: int | None = None,
    spread_cap: SpreadCap | None = None,
    rank_withdrawn: bool = False,
) -> list[Standing]:
    """Every player's record after `after_round`, in rank order.

    `rounds[0]` holds the results of round 1; `after_round` defaults to the last round given, and
    0 gives the pre-event ranking by rating. With `spread_cap` (one cap for every round, or one per
    round, the last repeated for later rounds, as tsh's `config spread_cap`) players are ranked on
    their capped spread. Withdrawn players come last, unranked, unless `rank_withdrawn`.
    The two steps: each player's `records`, then their `ranking`.
    """
    return ranking(
        players,
        records(players, rounds, after_round=after_round, spread_cap=spread_cap),
        after_round=_last_round(rounds, after_round),
        capped=spread_cap is not None,
        rank_withdrawn=rank_withdrawn,
    )


def records(
    players: Sequence[Player],
    rounds: Sequence[Iterable[Game]],
    *,
    after_round: int | None = None,
    spread_cap: SpreadCap | None = None,
) -> dict[PlayerId, Record]:
    """Each player's record after `after_round` (as `standings` counts it), by player."""
    last = _last_round(rounds, after_round)
    by_id = _players_by_id(players)
    caps = _caps(spread_cap)
    by_player = {p.id: Record() for p in players}
    for number, games in enumerate(rounds[:last], 1):
        cap = _cap_for_round(caps, number)
        for player_id, spread, opposed, result in _results_of_round(number, games, by_id):
            _count(by_player[player_id], spread, opposed, cap, result)
    return by_player


def recounted(
    kept: dict[PlayerId, Record],
    players: Sequence[Player] | None,
    rounds: Sequence[Iterable[Game]],
    changed: Iterable[PlayerId],
    *,
    after_round: int | None = None,
    spread_cap: SpreadCap | None = None,
) -> dict[PlayerId, Record]:
    """The `records` of `players` after `after_round`, given `kept`, their records counted from
    other results in which only the games of the `changed` players differ (a game has both its
    players among them): those players' records counted again from `rounds`, everyone else's
    as kept. `kept` is left as it is.

    `rounds` need hold no more than the changed players' games of each round (in the round's
    order), as an index of each round's games by player gives them: the others are left out
    here. `players` None: the players `kept` was counted for, checked then."""
    last = _last_round(rounds, after_round)
    if players is not None and kept.keys() != _players_by_id(players).keys():
        raise StandingsError("records kept of other players than those given")
    caps = _caps(spread_cap)
    fresh = {p: Record() for p in changed if p in kept}
    for number, games in enumerate(rounds[:last], 1):
        cap = _cap_for_round(caps, number)
        mine = [g for g in games if g.player in fresh or g.opponent in fresh]
        for player_id, spread, opposed, result in _results_of_round(number, mine, kept):
            record = fresh.get(player_id)
            if record is not None:  # an unchanged opponent's record is kept
                _count(record, spread, opposed, cap, result)
    return {**kept, **fresh}


# A ranked player's place in the sort: their key (`_key`) and their index among the players.
_Entry: TypeAlias = tuple[tuple[float, float, int, float, int], int]


@dataclass(frozen=True, slots=True)
class Ranking:
    """A ranking (`ranked`) with what it was sorted by, so that after a few players' records
    change it is made again without sorting everyone (`reranked`). Read-only once handed out.

    Its table's rows (`table`) are the ranked players in rank order, then the unranked: the
    row at `position` is the player `place(position)` with the rank `ranks[position]`."""

    ranks: list[int | None]  # each row's rank (None: not ranked)
    players: Sequence[Player]
    by_player: dict[PlayerId, Record]
    after_round: int
    capped: bool
    rank_withdrawn: bool
    ranked: list[_Entry]  # the ranked players' entries, as sorted: the table's first rows
    unranked: list[_Entry]  # the unranked players', as sorted: the table's last rows
    index: dict[PlayerId, int]  # each player's index among `players`

    def place(self, position: int) -> int:
        """The index among `players` of the player in the table's row `position`."""
        if position < len(self.ranked):
            return self.ranked[position][1]
        return self.unranked[position - len(self.ranked)][1]

    @property
    def table(self) -> list[Standing]:
        """Every player's `Standing`, in the table's order."""
        players, by_player = self.players, self.by_player
        return [
            _standing(p, rank, by_player[p.id])
            for p, rank in zip(
                (players[e[1]] for e in (*self.ranked, *self.unranked)), self.ranks, strict=True
            )
        ]


def _key(p: Player, r: Record, capped: bool) -> tuple[float, float, int, float, int]:
    return (-r.wins, r.losses, -(r.capped_spread if capped else r.spread), -p.rating, p.seed)


def _level(entry: _Entry, last: int) -> tuple[float, ...]:
    # Before round 1 everyone is 0-0 and rating alone separates players (ComputeRanks with a
    # negative round); afterwards the rating orders players but never splits a shared rank.
    return entry[0][3:4] if last == 0 else entry[0][:3]


def ranking(
    players: Sequence[Player],
    by_player: dict[PlayerId, Record],
    *,
    after_round: int,
    capped: bool = False,
    rank_withdrawn: bool = False,
) -> list[Standing]:
    """The players in rank order by their records (`records`) after round `after_round`, on
    their capped spread if `capped`; withdrawn players last, unranked, unless `rank_withdrawn`."""
    return ranked(
        players, by_player, after_round=after_round, capped=capped, rank_withdrawn=rank_withdrawn
    ).table


def ranked(
    players: Sequence[Player],
    by_player: dict[PlayerId, Record],
    *,
    after_round: int,
    capped: bool = False,
    rank_withdrawn: bool = False,
) -> Ranking:
    """`ranking`, with what it was sorted by (`Ranking`)."""
    last = after_round
    ranked_: list[_Entry] = []
    unranked: list[_Entry] = []
    index: dict[PlayerId, int] = {}
    for i, p in enumerate(players):
        index[p.id] = i
        entry = (_key(p, by_player[p.id], capped), i)
        (unranked if p.withdrawn_after(last) and not rank_withdrawn else ranked_).append(entry)
    # By key, then as given: the order of a stable sort by key.
    ranked_.sort()
    unranked.sort()
    ranks: list[int | None] = []
    previous: tuple[float, ...] | None = None
    rank = 0
    for position, entry in enumerate(ranked_, 1):
        level = _level(entry, last)
        if level != previous:
            rank, previous = position, level
        ranks.append(rank)
    ranks.extend(None for _ in unranked)
    return Ranking(
        ranks, players, by_player, last, capped, rank_withdrawn, ranked_, unranked, index
    )


# A part of a table made again (`reranked`): its rows [start, end), and for each the row of
# the table before with the same player and record (None: the player's record changed).
Span: TypeAlias = tuple[int, int, list[int | None]]


def reranked(
    kept: Ranking, by_player: dict[PlayerId, Record], changed: Iterable[PlayerId]
) -> tuple[Ranking, list[Span]]:
    """`kept` ranked again by the records `by_player`, which differ from those it was ranked
    by in the `changed` players' records alone: exactly `ranked` of them, with each changed
    player taken out of the sorted order and put back by bisection, and the ranks worked out
    again only where they can differ. With the spans of the table made again (`Span`): every
    other row is the one of `kept` at the same place (the same player, rank and record)."""
    players, last, capped = kept.players, kept.after_round, kept.capped
    parts = {True: kept.ranked, False: kept.unranked}
    made: dict[bool, list[_Entry]] = {}
    bounds: dict[bool, tuple[_Entry, _Entry]] = {}
    moved: set[int] = set()
    for pid in changed:
        i = kept.index.get(pid)
        if i is None:
            continue
        old, new = kept.by_player[pid], by_player[pid]
        if old == new:
            continue
        p = players[i]
        moved.add(i)
        in_ranked = not (p.withdrawn_after(last) and not kept.rank_withdrawn)
        before, after = (_key(p, old, capped), i), (_key(p, new, capped), i)
        if before != after:
            entries = made.get(in_ranked)
            if entries is None:
                entries = made[in_ranked] = list(parts[in_ranked])
            del entries[bisect.bisect_left(entries, before)]
            bisect.insort(entries, after)
        low, high = bounds.get(in_ranked, (min(before, after), max(before, after)))
        bounds[in_ranked] = (min(low, before, after), max(high, before, after))
    if not bounds:
        return kept, []
    ranks = list(kept.ranks)
    spans: list[Span] = []
    for in_ranked, (low, high) in bounds.items():
        entries = made.get(in_ranked, parts[in_ranked])
        old_entries = parts[in_ranked]
        offset = 0 if in_ranked else len(kept.ranked)
        # Everyone sorted before `low` or after `high` keeps their place (the same players on
        # either side); a rank can differ up to the end of the run of level players at `high`,
        # as sorted now or before.
        start = bisect.bisect_left(entries, low)
        end = bisect.bisect_right(entries, high)
        rank: int | None = None
        level: tuple[float, ...] | None = None
        if in_ranked:
            while end < len(entries) and (
                _level(entries[end], last) == _level(entries[end - 1], last)
                or _level(old_entries[end], last) == _level(old_entries[end - 1], last)
            ):
                end += 1
            if start > 0:  # the rank of a run of level players begun before
                rank, level = kept.ranks[start - 1], _level(entries[start - 1], last)
        same: list[int | None] = []
        # The unchanged players of the span are those of the span before, in the same order.
        was = start
        for position in range(start, end):
            entry = entries[position]
            if in_ranked:
                now = _level(entry, last)
                if now != level:
                    rank, level = position + 1, now
            ranks[offset + position] = rank
            if entry[1] in moved:
                same.append(None)
                continue
            while old_entries[was][1] in moved:
                was += 1
            same.append(offset + was)
            was += 1
        spans.append((offset + start, offset + end, same))
    return (
        Ranking(
            ranks,
            players,
            by_player,
            last,
            capped,
            kept.rank_withdrawn,
            made.get(True, kept.ranked),
            made.get(False, kept.unranked),
            kept.index,
        ),
        spans,
    )


def _last_round(rounds: Sequence[Iterable[Game]], after_round: int | None) -> int:
    last = len(rounds) if after_round is None else after_round
    if not 0 <= last <= len(rounds):
        given = counted(len(rounds), "round")
        raise StandingsError(f"standings after round {last} asked of {given}")
    return last


def ranks_by_round(
    players: Sequence[Player],
    rounds: Sequence[Iterable[Game]],
    *,
    spread_cap: SpreadCap | None = None,
    rank_withdrawn: bool = False,
) -> dict[PlayerId, list[int | None]]:
    """Each player's rank after round 0 (pre-event), 1, 2 … — tsh's `rrank` / `rcrank` layout."""
    materialised = [list(games) for games in rounds]
    ranks: dict[PlayerId, list[int | None]] = {p.id: [] for p in players}
    for after in range(len(materialised) + 1):
        table = standings(
            players,
            materialised,
            after_round=after,
            spread_cap=spread_cap,
            rank_withdrawn=rank_withdrawn,
        )
        for row in table:
            ranks[row.id].append(row.rank)
    return ranks


def _standing(player: Player, rank: int | None, r: Record) -> Standing:
    return Standing(player, rank, r.wins, r.losses, r.spread, r.capped_spread, r.games)


def _count(
    record: Record, spread: int, opposed: bool, cap: int | None, given: float | None = None
) -> None:
    capped = spread if cap is None else max(-cap, min(cap, spread))
    record.spread += spread
    record.capped_spread += capped
    record.games += 1
    # tsh counts an unopposed result with no spread as neither a win nor a loss (Synch: the
    # result is counted only `if ($oppid || $thisSpread)`); an opposed draw is half of each.
    if not opposed and spread == 0:
        return
    result = 1.0 if spread > 0 else 0.0 if spread < 0 else 0.5
    if given is not None:
        result = given
    record.wins += result
    record.losses += 1 - result


def _results_of_round(
    number: int, games: Iterable[Game], by_id: Container[PlayerId]
) -> list[tuple[PlayerId, int, bool, float | None]]:
    """(player, spread, opposed, result given apart from the scores or None) once per player
    who has a result in the round."""
    seen: dict[PlayerId, Game] = {}
    results: list[tuple[PlayerId, int, bool, float | None]] = []
    for game in games:
        _check_game(number, game, by_id)
        mine, theirs = game.results or (None, None)
        sides = [(game.player, game.opponent, game.score, game.opponent_score, mine)]
        if game.opponent is not None:
            sides.append((game.opponent, game.player, game.opponent_score, game.score, theirs))
        for player, opponent, score, opponent_score, given in sides:
            earlier = seen.get(player)
            if earlier is None:
                seen[player] = game
                results.append((player, score - opponent_score, opponent is not None, given))
                continue
            # The same game given from the other side is welcome if it says the same thing.
            if not mirrors(earlier, game):
                raise StandingsError(
                    f"round {number}: player {player!r} has more than one result "
                    f"({_describe(earlier)}; {_describe(game)})"
                )
    return results


def mirrors(a: Game, b: Game) -> bool:
    """Whether `b` is the game `a` seen from the other side (who went first is not compared:
    the two copies say it from opposite sides, and it counts for neither standings nor ratings)."""
    return a.opponent is not None and (a.player, a.opponent, a.score, a.opponent_score, a.kind) == (
        b.opponent,
        b.player,
        b.opponent_score,
        b.score,
        b.kind,
    )


def _describe(game: Game) -> str:
    against = "no opponent" if game.opponent is None else f"opponent {game.opponent!r}"
    return f"{game.kind.value} {game.player!r} {game.score}-{game.opponent_score} {against}"


def _check_game(number: int, game: Game, by_id: Container[PlayerId]) -> None:
    if game.player not in by_id:
        raise StandingsError(f"round {number}: a result for unknown player {game.player!r}")
    if game.opponent is not None and game.opponent not in by_id:
        raise StandingsError(f"round {number}: {game.player!r} against unknown {game.opponent!r}")
    if game.opponent == game.player:
        raise StandingsError(f"round {number}: player {game.player!r} paired with themselves")
    if game.kind is GameKind.PLAYED and game.opponent is None:
        raise StandingsError(f"round {number}: a game played by {game.player!r} with no opponent")
    if game.kind is GameKind.BYE and game.opponent is not None:
        raise StandingsError(f"round {number}: a bye for {game.player!r} with an opponent")


def _players_by_id(players: Sequence[Player]) -> dict[PlayerId, Player]:
    by_id: dict[PlayerId, Player] = {}
    for p in players:
        if p.id in by_id:
            raise StandingsError(f"two players with the id {p.id!r}")
        if p.withdrawn_from_round is not None and p.withdrawn_from_round < 1:
            raise StandingsError(f"player {p.id!r} withdrawn from round {p.withdrawn_from_round}")
        by_id[p.id] = p
    return by_id


def _caps(spread_cap: SpreadCap | None) -> list[int] | None:
    if spread_cap is None:
        return None
    caps = [spread_cap] if isinstance(spread_cap, int) else list(spread_cap)
    if not caps:
        raise StandingsError("an empty list of spread caps")
    if any(c < 0 for c in caps):
        raise StandingsError(f"a negative spread cap in {caps}")
    return caps


def _cap_for_round(caps: list[int] | None, number: int) -> int | None:
    # tsh: `$j <= $#$full_caps ? $full_caps->[$j] : $full_caps->[-1]`, j the 0-based round.
    if caps is None:
        return None
    return caps[number - 1] if number <= len(caps) else caps[-1]
