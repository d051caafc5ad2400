"""Results at the director's desk: the entry line, checking it against the round, and saving it.

Corrections from a game's own form and undo are in `corrections.py`; scoresheets in
`scoresheets/services.py`.

An entry line is one of

    P S Q T     player P scored S against player Q's T; P is recorded as having gone first
    P bye       P's bye: +bye_spread
    P forfeit   P forfeits: -forfeit_spread; P's opponent, if paired, gets +forfeit_spread

A played line may end with a time penalty for either player or both, `ot P M` (`t` and `time`
say the same), the scores typed as the scoresheet has them before the penalty: `12 380 7 350
ot 12 2` is 12's 380 less 20 for two minutes over, counted 360. M is the minutes over as the
clock shows them, `2` or `1:05` (part of a minute counts whole: 1:05 is 2 minutes), or the
points themselves, `20p`. The points a minute are the division's ruleset's (10 under NASPA and
WESPA rules); a ruleset without a clock (home rules) takes no time penalty. The game keeps the
scores as they count (`score1`, `score2`) and the points taken off (`penalty1`, `penalty2`).

(`b` and `f` are short for `bye` and `forfeit`). In a division whose entry mode is "spread
only" (tsh's `config entry = 'spread'`), `P S Q` also says that P beat Q by S (`6 +55 3`; a
negative S a loss, 0 a tie), written as tsh writes it: the winner's score is the spread, the
loser's 0. Typing the player who went first first is how tsh's `track_firsts` works;
when the pairing named the other player first, the pairing's first stays unless the director
ticks "first as typed".

What is refused, and what is only warned about (the director may still save with Enter):

- refused: a line that is not one of the three forms, a player paired with themselves, and a
  score outside MIN_SCORE..MAX_SCORE, which can only be a typing slip (no tournament game has
  reached 900; a negative score comes only from penalties); a time penalty on a bye, a forfeit
  or a spread, under rules without a clock, negative, nothing, not a whole number of minutes'
  points, over MAX_OVERTIME minutes, twice for one player or for a player not in the game;
- warned: a score (as it counts, after a penalty) under LOW_SCORE or over HIGH_SCORE, a spread
  over BIG_SPREAD and a time penalty over LONG_OVERTIME minutes. These are rare but real, so
  they ask for a second look rather than block;
- refused at the desk: a player not in the division, players not paired with each other in the
  round, a bye for a player who has an opponent, a result identical to the one entered, and a
  correction (the game already has a result) without a reason.

A forfeit between paired players is split as tsh's `floss` does it: the game becomes the
forfeiter's result without an opponent, and a second result without an opponent is added for
the other player. The standings engine counts results without an opponent by their sign.

Every write is one transaction: it locks the rows it reads, refuses a save made against an
older version of a game than the one stored (`StaleResult`, naming what changed), and writes a
`Change` with the rows before and after (`{"games": [snapshot, …]}`), so that undo can put
them back.
"""

from __future__ import annotations

import copy
import dataclasses
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from scoring.rules import RulesError, Ruleset, load_rules
from tournament.core import audit, bounds
from tournament.core.actor import Actor
from tournament.core.changes import (
    CORRECT,
    CREATE,
    differences,
    kind_label,
    penalty_lines,
    result_text,
    snapshot,
    snapshot_of,
)
from tournament.core.choices import ruleset_title
from tournament.core.errors import EntryError
from tournament.core.sentences import isolate
from tournament.core.signals import announced
from tournament.models import Change, Division, Game, Player

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

MIN_SCORE = -200
MAX_SCORE = 1000
LOW_SCORE = 100
HIGH_SCORE = 800
BIG_SPREAD = 400
MAX_OVERTIME = 30  # minutes over the clock: more is a slip (a clock shows 25 a player)
LONG_OVERTIME = 5  # minutes over the clock that ask for a second look

BYE_WORDS = ("bye", "b")
FORFEIT_WORDS = ("forfeit", "f")
TIME_WORDS = ("ot", "t", "time")
FORMS = "P S Q T (ot P M), P bye or P forfeit"
SPREAD_FORMS = "P +S Q (spread), P S Q T (ot P M), P bye or P forfeit"


class StaleResult(EntryError):
    """The game changed after the form was loaded; the message names what changed."""


# -- the entry line (pure) ----------------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    kind: str  # Game.PLAYED, Game.BYE or Game.FORFEIT
    player: int
    score: int | None = None
    opponent: int | None = None
    opponent_score: int | None = None
    spread_only: bool = False  # typed as a spread: the scores are the spread and 0
    # Time penalties, points: `score` and `opponent_score` are the scores before them.
    penalty: int = 0
    opponent_penalty: int = 0

    @property
    def counted(self) -> tuple[int, int]:
        """The player's and the opponent's scores as they count, the penalties taken off."""
        assert self.score is not None and self.opponent_score is not None
        return self.score - self.penalty, self.opponent_score - self.opponent_penalty


def _shown(token: str) -> str:
    """A token as a refusal quotes it: short, and without characters a page cannot show."""
    token = "".join(c if c.isprintable() else "?" for c in token)
    return token if len(token) <= 20 else token[:20] + "…"


def _player_number(token: str) -> int:
    number = bounds.plain_number(token)
    if not number:
        raise EntryError(gettext("'%(text)s' is not a player number.") % {"text": _shown(token)})
    return number


def _score(token: str) -> int:
    score = bounds.plain_number(token, signed=True)
    if score is None:
        raise EntryError(gettext("'%(text)s' is not a score.") % {"text": _shown(token)})
    return _possible(score)


def _possible(score: int) -> int:
    """The score, if a game can have it (MIN_SCORE..MAX_SCORE); else `EntryError`."""
    if not MIN_SCORE <= score <= MAX_SCORE:
        raise EntryError(
            gettext("%(score)s is not a possible score (%(low)s to %(high)s).")
            % {"score": score, "low": MIN_SCORE, "high": MAX_SCORE}
        )
    return score


def division_rules(division: Division) -> Ruleset:
    """The division's ruleset; one that cannot be loaded has the built-in clock (10 a minute)."""
    try:
        return load_rules(division.ruleset)
    except (RulesError, OSError):
        return Ruleset(name=division.ruleset)


def check_penalty(points: int, rules: Ruleset, player: int | str) -> int:
    """A time penalty's points for `player` (a number or a name), if the rules allow them:
    not negative, a whole number of minutes' points, at most MAX_OVERTIME minutes;
    else `EntryError`. 0 is no penalty."""
    per_minute = rules.time_penalty_per_minute
    if points and not per_minute:
        _refuse_no_clock(rules)
    if points < 0:
        raise EntryError(
            gettext("A time penalty of %(points)s for %(player)s: a penalty is not negative.")
            % {"points": points, "player": player}
        )
    if points and points % per_minute:
        raise EntryError(
            gettext(
                "A time penalty of %(points)s for %(player)s: it is %(per_minute)s points a "
                "minute over, so %(below)s or %(above)s."
            )
            % {
                "points": points,
                "player": player,
                "per_minute": per_minute,
                "below": points // per_minute * per_minute,
                "above": (points // per_minute + 1) * per_minute,
            }
        )
    if points > MAX_OVERTIME * per_minute:
        raise EntryError(
            gettext(
                "A time penalty of %(points)s for %(player)s is %(minutes)s minutes over: over "
                "%(most)s is not a game's time, check the clock."
            )
            % {
                "points": points,
                "player": player,
                "minutes": points // per_minute,
                "most": MAX_OVERTIME,
            }
        )
    return points


def _refuse_no_clock(rules: Ruleset) -> None:
    raise EntryError(
        gettext("%(rules)s have no clock: no time penalty.") % {"rules": ruleset_title(rules)}
    )


_CLOCK = re.compile(r"([0-9]{1,3}):([0-5][0-9])")


def _overtime_points(token: str, rules: Ruleset, player: int) -> int:
    """`2` (minutes), `1:05` (minutes and seconds, a part of a minute counted whole) or `20p`
    (points) as a time penalty's points for `player`."""
    per_minute = rules.time_penalty_per_minute
    if not per_minute:
        _refuse_no_clock(rules)
    text = token.lower()
    if text.startswith("-"):
        raise EntryError(
            gettext(
                "'%(text)s': a time penalty is not negative; type the minutes over without a "
                "sign (ot P 2, ot P 1:05) or the points (ot P 20p)."
            )
            % {"text": _shown(token)}
        )
    clock = _CLOCK.fullmatch(text)
    if clock:
        minutes = int(clock[1]) + (int(clock[2]) > 0)
        points = minutes * per_minute
    elif text.endswith("p") and bounds.plain_number(text[:-1]) is not None:
        points = bounds.plain_number(text[:-1]) or 0
    elif bounds.plain_number(text) is not None:
        points = (bounds.plain_number(text) or 0) * per_minute
    else:
        raise EntryError(
            gettext(
                "'%(text)s' is not a time over: minutes (2), minutes and seconds (1:05) or "
                "points (20p)."
            )
            % {"text": _shown(token)}
        )
    if not points and per_minute:
        raise EntryError(
            gettext("'%(text)s' is no time over: leave out 'ot' for a player within the clock.")
            % {"text": _shown(token)}
        )
    return check_penalty(points, rules, player)


def _split_penalties(tokens: list[str], rules: Ruleset) -> tuple[list[str], dict[int, int]]:
    """The line's tokens before its time penalties, and the penalties, player to points."""
    at = next((i for i, t in enumerate(tokens) if t.lower() in TIME_WORDS), len(tokens))
    rest = tokens[at:]
    penalties: dict[int, int] = {}
    while rest:
        if len(rest) < 3 or rest[1].lower() in TIME_WORDS or rest[2].lower() in TIME_WORDS:
            raise EntryError(
                gettext("A time penalty is 'ot P M': the player and the minutes over (ot 12 2).")
            )
        player = _player_number(rest[1])
        if player in penalties:
            raise EntryError(
                gettext(
                    "Player %(player)s has two time penalties: type one, for all the time over."
                )
                % {"player": player}
            )
        penalties[player] = _overtime_points(rest[2], rules, player)
        rest = rest[3:]
        if rest and rest[0].lower() not in TIME_WORDS:
            raise EntryError(gettext("Too many fields: %(forms)s.") % {"forms": FORMS})
    return tokens[:at], penalties


def parse_line(text: str, spread: bool = False, rules: Ruleset | None = None) -> Entry:
    """The entry a line stands for; `EntryError` says why a line is refused. With `spread`
    (the division's entry mode), `P S Q` is a spread. `rules`: the division's ruleset, for
    the time penalties' points a minute (by default the built-in clock, 10 a minute)."""
    tokens, penalties = _split_penalties(text.split(), rules or Ruleset(name="naspa"))
    entry = _parse_result(tokens, spread)
    if not penalties:
        return entry
    if entry.kind != Game.PLAYED:
        raise EntryError(
            gettext("A %(kind)s has no time penalty.") % {"kind": kind_label(entry.kind)}
        )
    if entry.spread_only:
        raise EntryError(gettext("A spread has no time penalty: type the scores, P S Q T ot P M."))
    for number in penalties:
        if number not in (entry.player, entry.opponent):
            raise EntryError(
                gettext(
                    "Player %(number)s is not in this game (%(player)s v %(opponent)s): a time "
                    "penalty is for one of its players."
                )
                % {"number": number, "player": entry.player, "opponent": entry.opponent}
            )
    entry = dataclasses.replace(
        entry,
        penalty=penalties.get(entry.player, 0),
        opponent_penalty=penalties.get(entry.opponent or 0, 0),
    )
    for score in entry.counted:
        _possible(score)
    return entry


def _parse_result(tokens: list[str], spread: bool) -> Entry:
    """The entry of a line's tokens before any time penalty."""
    if spread and len(tokens) == 3 and bounds.plain_number(tokens[1], signed=True) is not None:
        player, opponent = _player_number(tokens[0]), _player_number(tokens[2])
        margin = bounds.plain_number(tokens[1], signed=True)
        assert margin is not None
        if not -MAX_SCORE <= margin <= MAX_SCORE:
            raise EntryError(
                gettext("%(margin)s is not a possible spread (at most %(most)s).")
                % {"margin": margin, "most": MAX_SCORE}
            )
        if opponent == player:
            raise EntryError(
                gettext("Player %(player)s cannot play themselves.") % {"player": player}
            )
        return Entry(Game.PLAYED, player, max(margin, 0), opponent, max(-margin, 0), True)
    if not tokens:
        raise EntryError(gettext("Type a result: %(forms)s.") % {"forms": FORMS})
    player = _player_number(tokens[0])
    if len(tokens) == 1:
        raise EntryError(
            gettext("Player %(player)s needs a score, bye or forfeit: %(forms)s.")
            % {"player": player, "forms": FORMS}
        )
    word = tokens[1].lower()
    if word in BYE_WORDS or word in FORFEIT_WORDS:
        kind = Game.BYE if word in BYE_WORDS else Game.FORFEIT
        if len(tokens) > 2:
            raise EntryError(
                gettext("Nothing may follow '%(text)s': P %(kind)s.")
                % {"text": _shown(tokens[1]), "kind": kind}
            )
        return Entry(kind, player)
    if bounds.plain_number(tokens[1], signed=True) is None:
        raise EntryError(
            gettext("'%(text)s' is not a score, bye or forfeit.") % {"text": _shown(tokens[1])}
        )
    score = _score(tokens[1])
    if len(tokens) == 2:
        raise EntryError(gettext("A score needs the opponent and their score: P S Q T."))
    opponent = _player_number(tokens[2])
    if len(tokens) == 3:
        raise EntryError(
            gettext("The score of player %(opponent)s is missing: P S Q T.")
            % {"opponent": opponent}
        )
    if len(tokens) > 4:
        raise EntryError(gettext("Too many fields: %(forms)s.") % {"forms": FORMS})
    opponent_score = _score(tokens[3])
    if opponent == player:
        raise EntryError(gettext("Player %(player)s cannot play themselves.") % {"player": player})
    return Entry(Game.PLAYED, player, score, opponent, opponent_score)


def plausibility(entry: Entry, per_minute: int = 10) -> list[str]:
    """Warnings for scores (as they count) and time penalties that are possible but unusual
    enough to look at twice; `per_minute`: the ruleset's points a minute over."""
    if entry.kind != Game.PLAYED:
        return []
    assert entry.score is not None and entry.opponent_score is not None
    warnings = []
    counted = entry.counted
    scores = (
        ()
        if entry.spread_only
        else (
            (entry.player, counted[0]),
            (entry.opponent, counted[1]),
        )
    )
    for number, score in scores:
        if score < LOW_SCORE:
            warnings.append(
                gettext("%(score)s for player %(number)s is low (under %(low)s): check it.")
                % {"score": score, "number": number, "low": LOW_SCORE}
            )
        elif score > HIGH_SCORE:
            warnings.append(
                gettext("%(score)s for player %(number)s is high (over %(high)s): check it.")
                % {"score": score, "number": number, "high": HIGH_SCORE}
            )
    spread = abs(counted[0] - counted[1])
    if spread > BIG_SPREAD:
        warnings.append(
            gettext("A spread of %(spread)s is large (over %(limit)s): check the scores.")
            % {"spread": spread, "limit": BIG_SPREAD}
        )
    for number, points in ((entry.player, entry.penalty), (entry.opponent, entry.opponent_penalty)):
        if per_minute and points > LONG_OVERTIME * per_minute:
            warnings.append(
                gettext(
                    "A time penalty of %(points)s for player %(number)s is %(minutes)s minutes "
                    "over (over %(long)s): check the clock."
                )
                % {
                    "points": points,
                    "number": number,
                    "minutes": points // per_minute,
                    "long": LONG_OVERTIME,
                }
            )
    return warnings


def _who(player: Player) -> str:
    return gettext("%(number)s %(name)s") % {"number": player.number, "name": isolate(player.name)}


# -- checking a line against the round --------------------------------------------------------


@dataclass
class _Plan:
    game: Game
    values: dict[str, Any]  # Game fields to set
    split_to: Player | None  # the opponent who gets a forfeit win of their own
    warnings: list[str] = field(default_factory=list)

    @property
    def correction(self) -> bool:
        return self.game.has_result

    @property
    def unchanged(self) -> bool:
        return self.split_to is None and all(
            getattr(self.game, k) == v for k, v in self.values.items()
        )

    def after(self) -> dict[str, Any]:
        """The game's snapshot once the plan is applied (nothing saved)."""
        game = copy.copy(self.game)  # Django copies the related-object cache too
        for key, value in self.values.items():
            setattr(game, key, value)
        return snapshot(game)


def _where(player: Player, games: list[Game], players: dict[int, Player]) -> str:
    """Where a player stands in a round, for a refusal: `Smith plays 5 Brown`."""
    for g in games:
        if player.pk == g.player1_id and g.player2_id is None:
            if g.kind == Game.FORFEIT and g.score1 is not None:
                if g.score1 > 0:
                    return gettext("%(name)s has a forfeit win") % {"name": isolate(player.name)}
                return gettext("%(name)s has a forfeit loss") % {"name": isolate(player.name)}
            return gettext("%(name)s has a %(kind)s") % {
                "name": isolate(player.name),
                "kind": kind_label(g.kind),
            }
        if player.pk in (g.player1_id, g.player2_id):
            other = g.player2_id if player.pk == g.player1_id else g.player1_id
            assert other is not None  # a game of one player is answered above
            return gettext("%(name)s plays %(opponent)s") % {
                "name": isolate(player.name),
                "opponent": _who(players[other]),
            }
    return gettext("%(name)s is not paired") % {"name": isolate(player.name)}


def _plan(
    division: Division,
    round_number: int,
    entry: Entry,
    games: list[Game],
    players: list[Player],
    first_as_typed: bool = False,
    paired: bool = True,
) -> _Plan:
    """What an entry would write; `EntryError` if it cannot be entered in this round.

    `games`: the round's games of the players the entry names (or more), `players` their
    players (`_named`); `paired`: the round has games.

    Who went first is the pairing's when it says so, whichever player is typed first: typing
    the second player first records them as first only with `first_as_typed`, the director's
    explicit choice."""
    by_number = {p.number: p for p in players}
    by_id = {p.pk: p for p in players}
    for g in games:  # no query per name below
        g.player1 = by_id[g.player1_id]
        g.player2 = by_id[g.player2_id] if g.player2_id else None
    numbers = [entry.player] + ([entry.opponent] if entry.opponent is not None else [])
    for number in numbers:
        if number not in by_number:
            raise EntryError(
                gettext("No player %(number)s in division %(name)s.")
                % {"number": number, "name": division.name}
            )
    if not paired:
        raise EntryError(
            gettext("Round %(round_number)s has no pairings yet.") % {"round_number": round_number}
        )
    player = by_number[entry.player]
    mine = [g for g in games if player.pk in (g.player1_id, g.player2_id)]
    if not mine:
        raise EntryError(
            gettext("%(who)s is not paired in round %(round_number)s.")
            % {"who": _who(player), "round_number": round_number}
        )
    if entry.kind == Game.PLAYED:
        assert entry.opponent is not None
        opponent = by_number[entry.opponent]
        game = _game_between(player, opponent, round_number, mine, games, by_id)
        per_minute = division_rules(division).time_penalty_per_minute
        return _plan_played(entry, game, player, first_as_typed, per_minute)
    return _plan_alone(division, round_number, entry, player, mine[0], by_id)


def _game_between(
    player: Player,
    opponent: Player,
    round_number: int,
    mine: list[Game],
    games: list[Game],
    by_id: dict[int, Player],
) -> Game:
    """The game of the round between the two players, of `mine` (the player's games); else
    `EntryError`, which says where each of them stands in the round."""
    game = next((g for g in mine if opponent.pk in (g.player1_id, g.player2_id)), None)
    if game is None:
        raise EntryError(
            gettext(
                "%(who)s and %(who2)s are not paired in round %(round_number)s: "
                "%(where)s, %(where2)s."
            )
            % {
                "who": _who(player),
                "who2": _who(opponent),
                "round_number": round_number,
                "where": _where(player, games, by_id),
                "where2": _where(opponent, games, by_id),
            }
        )
    if game.kind == Game.VOID:
        raise EntryError(
            gettext("%(game)s is void: change it on the game's page.") % {"game": game}
        )
    return game


def _plan_played(
    entry: Entry, game: Game, player: Player, first_as_typed: bool, per_minute: int
) -> _Plan:
    """A played game's scores (as they count) and time penalties, `player` typed first: who
    went first is the pairing's, unless it says nothing or `first_as_typed`; a warning says
    when the typed order differs."""
    mine, theirs = entry.counted
    if game.player1_id == player.pk:
        score1, score2, first = mine, theirs, 1
        penalty1, penalty2 = entry.penalty, entry.opponent_penalty
    else:
        score1, score2, first = theirs, mine, 2
        penalty1, penalty2 = entry.opponent_penalty, entry.penalty
    warnings = plausibility(entry, per_minute)
    if game.first in (1, 2) and game.first != first:
        due = game.player1 if game.first == 1 else game.player2
        assert due is not None  # a played game has two players
        if first_as_typed:
            warnings.append(
                gettext(
                    "%(name)s was to go first; this entry records %(name2)s as going "
                    "first, as you chose."
                )
                % {"name": isolate(due.name), "name2": isolate(player.name)}
            )
        else:
            warnings.append(
                gettext(
                    "%(name)s was to go first, as paired, and stays first; tick “first as "
                    "typed” to record %(name2)s as going first."
                )
                % {"name": isolate(due.name), "name2": isolate(player.name)}
            )
            first = game.first
    values = {
        "score1": score1,
        "score2": score2,
        "first": first,
        "kind": Game.PLAYED,
        "penalty1": penalty1,
        "penalty2": penalty2,
    }
    return _Plan(game, values, None, warnings)


def _plan_alone(
    division: Division,
    round_number: int,
    entry: Entry,
    player: Player,
    game: Game,
    by_id: dict[int, Player],
) -> _Plan:
    """A bye (for a player without an opponent) or a forfeit (the opponent, if paired, gets
    a forfeit win of their own) in the player's game of the round."""
    other_id = None
    if game.player2_id is not None:
        other_id = game.player2_id if game.player1_id == player.pk else game.player1_id
    if entry.kind == Game.BYE:
        if other_id is not None:
            raise EntryError(
                gettext(
                    "%(who)s plays %(who2)s in round %(round_number)s: a bye is for a "
                    "player without an opponent."
                )
                % {
                    "who": _who(player),
                    "who2": _who(by_id[other_id]),
                    "round_number": round_number,
                }
            )
        values: dict[str, Any] = {
            "score1": division.bye_spread,
            "score2": None,
            "first": 0,
            "kind": Game.BYE,
            "penalty1": 0,
            "penalty2": 0,
        }
        return _Plan(game, values, None)
    values = {
        "player1": player,
        "player2": None,
        "score1": -division.forfeit_spread,
        "score2": None,
        "first": 0,
        "kind": Game.FORFEIT,
        "penalty1": 0,
        "penalty2": 0,
    }
    return _Plan(game, values, by_id[other_id] if other_id else None)


@dataclass
class Check:
    """What the line would do, for the page to show as the director types."""

    ok: bool
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    correction: bool = False
    game: int | None = None
    version: int | None = None
    before: str = ""
    after: str = ""
    also: str = ""  # the opponent's forfeit win
    penalties: list[str] = field(default_factory=list)  # `Alice 380 − 20 = 360`

    def as_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "errors": self.errors,
            "warnings": self.warnings,
            "correction": self.correction,
            "game": self.game,
            "version": self.version,
            "before": self.before,
            "after": self.after,
            "also": self.also,
            "penalties": self.penalties,
        }


def _already(game: Game) -> str:
    return gettext("Already entered: %(result_text)s. Nothing to change.") % {
        "result_text": result_text(snapshot(game))
    }


def check_line(
    division: Division, round_number: int, text: str, first_as_typed: bool = False
) -> Check:
    """Check a line against the round without writing anything."""
    try:
        entry = parse_line(
            text, spread=division.entry_mode == "spread", rules=division_rules(division)
        )
        games, players = _named(division, round_number, entry)
        paired = bool(games) or division.games.filter(round=round_number).exists()
        plan = _plan(division, round_number, entry, games, players, first_as_typed, paired)
    except EntryError as error:
        return Check(ok=False, errors=[str(error)])
    check = Check(
        ok=True,
        warnings=plan.warnings,
        correction=plan.correction,
        game=plan.game.pk,
        version=plan.game.version,
        before=result_text(snapshot(plan.game)),
        after=result_text(plan.after()),
        penalties=penalty_lines(plan.after()),
    )
    if plan.split_to is not None:
        check.also = gettext("%(player)s: forfeit win %(spread)+d") % {
            "player": _who(plan.split_to),
            "spread": division.forfeit_spread,
        }
    if plan.unchanged:
        check.ok = False
        check.errors.append(_already(plan.game))
    elif plan.correction:
        check.warnings.append(
            gettext("Already entered as %(before)s: a correction needs a reason.")
            % {"before": check.before}
        )
    return check


# -- writes -------------------------------------------------------------------------------------


def changes_touching(game: Game) -> Iterator[tuple[Change, dict | None, dict]]:
    """The changes that wrote this game, oldest first, with its snapshots before and after."""
    changes = Change.objects.filter(
        game__division_id=game.division_id, game__round=game.round
    ).select_related("user", "player")
    for change in changes.order_by("at", "pk"):
        after = snapshot_of(change.after, game.pk)
        if after is not None:
            yield change, snapshot_of(change.before, game.pk), after


def _stale_message(game: Game, version: int, outcome: StrOrPromise) -> str:
    """Who changed the game since `version`, when, and what they changed."""
    later = [(c, b, a) for c, b, a in changes_touching(game) if a["version"] > version]
    now = snapshot(game)
    label = _game_label(game)
    if not later:
        return gettext(
            "%(game)s was changed while you had it open (version %(version)s, now "
            "%(now)s). %(outcome)s; it is now %(result)s."
        ) % {
            "game": label,
            "version": version,
            "now": game.version,
            "outcome": outcome,
            "result": result_text(now),
        }
    names = sorted({c.actor_name for c, _, _ in later if c.actor} or {gettext("someone")})
    when = timezone.localtime(later[-1][0].at).strftime("%H:%M")
    loaded = later[0][1]
    what = "; ".join(differences(loaded, now)) if loaded else result_text(now)
    return gettext(
        "%(names)s changed %(game)s at %(time)s while you had it open: "
        "%(what)s. %(outcome)s; it is now %(result)s."
    ) % {
        "names": gettext(" and ").join(names),
        "game": label,
        "time": when,
        "what": what or gettext("no visible change"),
        "outcome": outcome,
        "result": result_text(now),
    }


def _game_label(game: Game) -> str:
    player2 = game.player2  # None (no query) for a game of one player
    if player2 is None:
        return gettext("%(name)s's round %(round)s %(kind)s") % {
            "name": isolate(game.player1.name),
            "round": game.round,
            "kind": kind_label(game.kind),
        }
    return gettext("the round %(round)s game %(player1)s v %(player2)s") % {
        "round": game.round,
        "player1": isolate(game.player1.name),
        "player2": isolate(player2.name),
    }


REFUSED = gettext_lazy("Your save was refused and nothing was overwritten")


def _apply(
    plan: _Plan, user: Actor, reason: str, action: str, absent: dict[str, int] | None = None
) -> Change:
    game = plan.game
    before = [snapshot(game)]
    for key, value in plan.values.items():
        setattr(game, key, value)
    game.version += 1
    game.save()
    after = [snapshot(game)]
    if plan.split_to is not None:
        won = Game.objects.create(
            division_id=game.division_id,
            round=game.round,
            table=game.table,
            player1=plan.split_to,
            score1=game.division.forfeit_spread,
            kind=Game.FORFEIT,
            version=1,
        )
        after.append(snapshot(won))
    # A forfeit because the player was marked absent keeps the mark with it: undo takes both back.
    marked = {"absent": absent} if absent else {}
    return audit.record(
        game.division,
        action,
        actor=user,
        game=game,
        before={"games": before},
        after={"games": after, **marked},
        reason=reason,
    )


def locked_round(division: Division, round_number: int) -> list[int]:
    """Every game of the round locked, in primary-key order: the one order every writer of a
    round's results locks in (the desk's entry line, the players' reports), so that two
    writers never wait on each other. Their keys: the games a writer needs it reads itself."""
    return list(
        Game.objects.select_for_update()
        .filter(division=division, round=round_number)
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def _named(division: Division, round_number: int, entry: Entry) -> tuple[list[Game], list[Player]]:
    """What `_plan` reads of the round: the games of the players the entry names, and their
    players with the named ones (not the round's every game and the division's every player)."""
    numbers = [entry.player] + ([entry.opponent] if entry.opponent is not None else [])
    named = list(division.players.filter(number__in=numbers))
    ids = [p.pk for p in named]
    games = list(
        division.games.filter(round=round_number).filter(
            Q(player1_id__in=ids) | Q(player2_id__in=ids)
        )
    )
    others = {pk for g in games for pk in (g.player1_id, g.player2_id) if pk is not None}
    others -= set(ids)
    return games, named + list(Player.objects.filter(pk__in=others))


def _saved_already(plan: _Plan, version: int | None, actor: Actor) -> Change | None:
    """The change that saved this very line a moment ago, when it comes again (Enter pressed
    twice, a form sent twice): the game one version past the one the sender saw, brought there
    by the same user (or player) to the values sent now. None for anything else, which
    `_refuse_stale_or_same` then judges."""
    if version is None or plan.game.version != version + 1 or not plan.unchanged:
        return None
    actor_pk = getattr(actor, "pk", None)
    if actor_pk is None:
        return None
    touching = list(changes_touching(plan.game))
    if not touching:
        return None
    change, before, after = touching[-1]
    by = change.player_id if isinstance(actor, Player) else change.user_id
    if by != actor_pk or before is None or before.get("version") != version:
        return None
    if after.get("version") != plan.game.version:
        return None
    return change


def _refuse_stale_or_same(plan: _Plan, version: int | None, reason: str) -> None:
    """What refuses any save at the desk once the game is known, in this order: the game
    changed since `version`, the result is the one entered, a correction without a reason."""
    if version is not None and plan.game.version != version:
        raise StaleResult(_stale_message(plan.game, version, REFUSED))
    if plan.unchanged:
        raise EntryError(_already(plan.game))
    if plan.correction and not reason:
        raise EntryError(
            gettext("%(result_text)s is already entered: a correction needs a reason.")
            % {"result_text": result_text(snapshot(plan.game))}
        )


def _refuse_locked(game: Game) -> None:
    """A player's own report is refused in a locked round (`Round.locked`) or tournament."""
    if game.division.rounds.filter(number=game.round, locked=True).exists():
        raise EntryError(
            gettext("Round %(round)s is locked: report at the desk.") % {"round": game.round}
        )
    if game.division.tournament.locked:
        raise EntryError(gettext("The tournament is locked: report at the desk."))


def record_result(
    game: Game,
    score1: int,
    score2: int,
    actor: Actor,
    *,
    reason: str = "",
    first: int | None = None,
    version: int | None = None,
    penalty1: int = 0,
    penalty2: int = 0,
) -> Change:
    """Save a played game's scores, `score1` for its player1 and `score2` for its player2 (as
    they count: `penalty1` and `penalty2`, the time penalties, are already taken off): a
    new result, or a correction (which needs a reason). The one write of a played result, at
    the desk (`enter_line`) and from the players' reports (`phone.services.record`).

    One transaction holds the round locked (`locked_round`'s order), the checks, the game
    written, the change logged (`audit.record`), the division's stamps replaced (`stamps`, by
    the save) and the write announced (`core.signals.results_changed`): its subscribers flag
    the game's scoresheets again, settle the players' reports, bring later rounds' pairings in
    line and take the round's snapshot, and what they did is the change's `said`. A refusal
    writes nothing.

    `actor` is a user, a player of the division or None, as `audit.record` takes it; a player
    is refused a locked round or tournament, the desk is not. `first`: who went first (1, 2,
    or 0 not known), by default the game's own (the pairing's). `version`: the game's version
    the caller showed, a save against an older one refused (`StaleResult`), unless the same
    actor saved these very values from that version a moment ago: then that change is the
    answer and nothing is written (`_saved_already`). `EntryError` says
    why a save is refused.
    """
    if first not in (None, 0, 1, 2):
        raise ValueError(f"Who went first is 1, 2 or 0 (not known), not {first!r}.")
    _possible(score1)
    _possible(score2)
    return announced(
        game.division,
        actor,
        lambda: _record_result(
            game, score1, score2, actor, reason.strip(), first, version, penalty1, penalty2
        ),
    )


def _record_result(
    game: Game,
    score1: int,
    score2: int,
    actor: Actor,
    reason: str,
    first: int | None,
    version: int | None,
    penalty1: int,
    penalty2: int,
    locked: bool = False,
) -> Change:
    if not locked:  # `_enter` holds the round locked already
        locked_round(game.division, game.round)
    game = Game.objects.select_related("division__tournament", "player1", "player2").get(pk=game.pk)
    if game.kind == Game.VOID:
        raise EntryError(
            gettext("%(game)s is void: change it on the game's page.") % {"game": game}
        )
    if game.player2_id is None:
        raise ValueError(f"{game} has no opponent: not a game with scores.")
    if isinstance(actor, Player):
        _refuse_locked(game)
    rules = division_rules(game.division)
    assert game.player2 is not None
    check_penalty(penalty1, rules, isolate(game.player1.name))
    check_penalty(penalty2, rules, isolate(game.player2.name))
    values = {
        "score1": score1,
        "score2": score2,
        "first": game.first if first is None else first,
        "kind": Game.PLAYED,
        "penalty1": penalty1,
        "penalty2": penalty2,
    }
    plan = _Plan(game, values, None)
    again = _saved_already(plan, version, actor)
    if again is not None:
        return again
    _refuse_stale_or_same(plan, version, reason)
    return _apply(plan, actor, reason, CORRECT if plan.correction else CREATE)


def enter_line(
    division: Division,
    round_number: int,
    text: str,
    user: Actor,
    version: int | None = None,
    reason: str = "",
    first_as_typed: bool = False,
    absent: dict[str, int] | None = None,
) -> Change:
    """Save a line: a new result, or a correction (which needs a reason).

    `version` is the game's version the check showed: a save against an older one is refused,
    unless it is this very line saved a moment ago by the same user (`_saved_already`), which
    answers with that save's change and writes nothing.
    `first_as_typed`: the player typed first went first, even against the pairing's first.
    `absent`: the forfeit is a player's marked absent (`players.set_absent`), kept in the
    change as {"player": number, "round": round} so that undo takes the mark back too.
    A played game's scores are saved by `record_result`, once the line names the game.
    """
    entry = parse_line(text, spread=division.entry_mode == "spread", rules=division_rules(division))
    return announced(
        division,
        user,
        lambda: _enter(
            division, round_number, entry, user, version, reason.strip(), first_as_typed, absent
        ),
    )


def _enter(
    division: Division,
    round_number: int,
    entry: Entry,
    user: Actor,
    version: int | None,
    reason: str,
    first_as_typed: bool,
    absent: dict[str, int] | None,
) -> Change:
    paired = bool(locked_round(division, round_number))
    games, players = _named(division, round_number, entry)
    plan = _plan(division, round_number, entry, games, players, first_as_typed, paired)
    if entry.kind == Game.PLAYED and not absent:
        score1, score2 = plan.values["score1"], plan.values["score2"]
        _possible(score1)
        _possible(score2)
        # Within this write's own announcing block (`enter_line`), the round locked already.
        return _record_result(
            plan.game,
            score1,
            score2,
            user,
            reason,
            plan.values["first"],
            version,
            plan.values["penalty1"],
            plan.values["penalty2"],
            locked=True,
        )
    again = _saved_already(plan, version, user)
    if again is not None:
        return again
    _refuse_stale_or_same(plan, version, reason)
    return _apply(plan, user, reason, CORRECT if plan.correction else CREATE, absent)


# -- the rounds at a glance ----------------------------------------------------------------------


@dataclass
class RoundSummary:
    number: int
    games: int
    missing: list[Game]

    @property
    def entered(self) -> int:
        return self.games - len(self.missing)


def round_summaries(division: Division) -> list[RoundSummary]:
    """Each round paired or planned, with the games still without a result."""
    games = list(division.games.select_related("player1", "player2"))
    last = max([g.round for g in games] + [division.planned_rounds or 0], default=0)
    summaries = [RoundSummary(n, 0, []) for n in range(1, last + 1)]
    for g in games:
        s = summaries[g.round - 1]
        if g.kind == Game.VOID:
            continue
        s.games += 1
        if not g.has_result:
            s.missing.append(g)
    return summaries
