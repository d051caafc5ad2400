"""Results at the director's desk: the entry line, entries, corrections, undo and scoresheets.

An entry line is one of

    P S Q T     player P scored S against player Q's T; P is recorded as having gone first
    P bye       P's bye: +bye_spread
    P forfeit   P forfeits: -forfeit_spread; P's opponent, if paired, gets +forfeit_spread

(`b` and `f` are short for `bye` and `forfeit`). Typing the player who went first first is
how tsh's `track_firsts` works; if the pairing said the other player was to go first the check
warns, and the entry records the order typed.

What is refused, and what is only warned about (the director may still save with Enter):

- refused: a line that is not one of the three forms, a player paired with themselves, and a
  score outside MIN_SCORE..MAX_SCORE, which can only be a typing slip (no tournament game has
  reached 900; a negative score comes only from penalties);
- warned: a score under LOW_SCORE or over HIGH_SCORE, and a spread over BIG_SPREAD. These are
  rare but real, so they ask for a second look rather than block;
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
import functools
import json
import logging
import re
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils import timezone

import scoring
from scoring import gcg
from scoring.lexicon import LexiconError
from tournament.models import Change, Division, Game, Player, Scoresheet

logger = logging.getLogger(__name__)

MIN_SCORE = -200
MAX_SCORE = 1000
LOW_SCORE = 100
HIGH_SCORE = 800
BIG_SPREAD = 400

BYE_WORDS = ("bye", "b")
FORFEIT_WORDS = ("forfeit", "f")
FORMS = "P S Q T, P bye or P forfeit"

# Change.action values written here.
CREATE = "create"
CORRECT = "correct"
DELETE = "delete"
UPLOAD = "upload"
RESOLVE = "resolve"
UNDO = "undo"

MAX_SCORESHEET_BYTES = 256 * 1024


class EntryError(ValueError):
    """The director's input cannot be saved; the message says why, in a sentence."""


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


def _player_number(token: str) -> int:
    if not token.isdigit() or int(token) == 0:
        raise EntryError(f"'{token}' is not a player number.")
    return int(token)


def _score(token: str) -> int:
    if not re.fullmatch(r"[+-]?\d+", token):
        raise EntryError(f"'{token}' is not a score.")
    score = int(token)
    if not MIN_SCORE <= score <= MAX_SCORE:
        raise EntryError(f"{score} is not a possible score ({MIN_SCORE} to {MAX_SCORE}).")
    return score


def parse_line(text: str) -> Entry:
    """The entry a line stands for; `EntryError` says why a line is refused."""
    tokens = text.split()
    if not tokens:
        raise EntryError(f"Type a result: {FORMS}.")
    player = _player_number(tokens[0])
    if len(tokens) == 1:
        raise EntryError(f"Player {player} needs a score, bye or forfeit: {FORMS}.")
    word = tokens[1].lower()
    if word in BYE_WORDS or word in FORFEIT_WORDS:
        kind = Game.BYE if word in BYE_WORDS else Game.FORFEIT
        if len(tokens) > 2:
            raise EntryError(f"Nothing may follow '{tokens[1]}': P {kind}.")
        return Entry(kind, player)
    if not re.fullmatch(r"[+-]?\d+", tokens[1]):
        raise EntryError(f"'{tokens[1]}' is not a score, bye or forfeit.")
    score = _score(tokens[1])
    if len(tokens) == 2:
        raise EntryError("A score needs the opponent and their score: P S Q T.")
    opponent = _player_number(tokens[2])
    if len(tokens) == 3:
        raise EntryError(f"The score of player {opponent} is missing: P S Q T.")
    if len(tokens) > 4:
        raise EntryError(f"Too many fields: {FORMS}.")
    opponent_score = _score(tokens[3])
    if opponent == player:
        raise EntryError(f"Player {player} cannot play themselves.")
    return Entry(Game.PLAYED, player, score, opponent, opponent_score)


def plausibility(entry: Entry) -> list[str]:
    """Warnings for scores that are possible but unusual enough to look at twice."""
    if entry.kind != Game.PLAYED:
        return []
    assert entry.score is not None and entry.opponent_score is not None
    warnings = []
    for number, score in ((entry.player, entry.score), (entry.opponent, entry.opponent_score)):
        if score < LOW_SCORE:
            warnings.append(f"{score} for player {number} is low (under {LOW_SCORE}): check it.")
        elif score > HIGH_SCORE:
            warnings.append(f"{score} for player {number} is high (over {HIGH_SCORE}): check it.")
    spread = abs(entry.score - entry.opponent_score)
    if spread > BIG_SPREAD:
        warnings.append(f"A spread of {spread} is large (over {BIG_SPREAD}): check the scores.")
    return warnings


# -- how a result is written down -------------------------------------------------------------


def snapshot(game: Game) -> dict[str, Any]:
    """A game's result as the change log keeps it; names are kept for reading it later."""
    return {
        "id": game.pk,
        "round": game.round,
        "table": game.table,
        "player1": game.player1.number,
        "name1": game.player1.name,
        "player2": game.player2.number if game.player2 else None,
        "name2": game.player2.name if game.player2 else None,
        "score1": game.score1,
        "score2": game.score2,
        "kind": game.kind,
        "first": game.first,
        "version": game.version,
    }


def result_text(s: dict[str, Any]) -> str:
    """A snapshot as a line a director reads: `12 Smith 455 – 7 Jones 389, Smith first`."""
    one = f"{s['player1']} {s['name1']}"
    if s["player2"] is None:
        if s["score1"] is None:
            return f"{one}: {s['kind']}, not entered"
        if s["kind"] == Game.FORFEIT:
            label = "forfeit win" if s["score1"] > 0 else "forfeit loss"
        else:
            label = s["kind"]
        return f"{one}: {label} {s['score1']:+d}"
    two = f"{s['player2']} {s['name2']}"
    if s["score1"] is None:
        return f"{one} v {two}: not entered"
    text = f"{one} {s['score1']} – {two} {s['score2']}"
    if s["kind"] != Game.PLAYED:
        text += f" ({s['kind']})"
    if s["first"] in (1, 2):
        text += f", {s['name1'] if s['first'] == 1 else s['name2']} first"
    return text


def change_text(data: dict[str, Any] | None) -> str:
    """A change's before or after as a line: the results, or the scoresheet's state."""
    if not data:
        return ""
    if "games" in data:
        return "; ".join(result_text(s) for s in data["games"])
    if "scoresheet" in data:
        state = "verified" if data.get("verified") else f"{data.get('findings', 0)} finding(s)"
        if data.get("resolved"):
            state += ", resolved"
        elif data.get("flagged"):
            state += ", flagged"
        scores = ", ".join(f"{nick} {final}" for nick, final in data.get("players") or [])
        return f"scoresheet {data['scoresheet']} ({scores}): {state}"
    return ""


def differences(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """What changed between two snapshots of one game, a phrase a change."""
    if (before["player1"], before["player2"], before["kind"]) != (
        after["player1"],
        after["player2"],
        after["kind"],
    ):
        return [f"{result_text(before)} became {result_text(after)}"]
    found = []
    for key, name in (("score1", "name1"), ("score2", "name2")):
        if before[key] != after[key]:
            was = "none" if before[key] is None else before[key]
            now = "none" if after[key] is None else after[key]
            found.append(f"{after[name]}'s score {was} → {now}")
    if before["first"] != after["first"]:

        def who(s: dict[str, Any]) -> str:
            return {1: s["name1"], 2: s["name2"]}.get(s["first"]) or "not known"

        found.append(f"going first {who(before)} → {who(after)}")
    return found


def _games_of(data: dict[str, Any] | None) -> list[dict[str, Any]]:
    return list((data or {}).get("games") or [])


def _snapshot_of(data: dict[str, Any] | None, game_id: int) -> dict[str, Any] | None:
    return next((s for s in _games_of(data) if s.get("id") == game_id), None)


def _content(s: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in s.items() if k != "version"}


def _who(player: Player) -> str:
    return f"{player.number} {player.name}"


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
                return f"{player.name} has a forfeit {'win' if g.score1 > 0 else 'loss'}"
            return f"{player.name} has a {g.kind}"
        if player.pk in (g.player1_id, g.player2_id):
            other = g.player2_id if player.pk == g.player1_id else g.player1_id
            return f"{player.name} plays {_who(players[other])}"
    return f"{player.name} is not paired"


def _plan(
    division: Division, round_number: int, entry: Entry, games: list[Game], players: list[Player]
) -> _Plan:
    """What an entry would write; `EntryError` if it cannot be entered in this round."""
    by_number = {p.number: p for p in players}
    by_id = {p.pk: p for p in players}
    for g in games:  # no query per name below
        g.player1 = by_id[g.player1_id]
        g.player2 = by_id[g.player2_id] if g.player2_id else None
    numbers = [entry.player] + ([entry.opponent] if entry.opponent is not None else [])
    for number in numbers:
        if number not in by_number:
            raise EntryError(f"No player {number} in division {division.name}.")
    if not games:
        raise EntryError(f"Round {round_number} has no pairings yet.")
    player = by_number[entry.player]
    mine = [g for g in games if player.pk in (g.player1_id, g.player2_id)]
    if not mine:
        raise EntryError(f"{_who(player)} is not paired in round {round_number}.")

    if entry.kind == Game.PLAYED:
        assert entry.opponent is not None
        opponent = by_number[entry.opponent]
        game = next((g for g in mine if opponent.pk in (g.player1_id, g.player2_id)), None)
        if game is None:
            raise EntryError(
                f"{_who(player)} and {_who(opponent)} are not paired in round {round_number}: "
                f"{_where(player, games, by_id)}, {_where(opponent, games, by_id)}."
            )
        if game.kind == Game.VOID:
            raise EntryError(f"{game} is void: change it on the game's page.")
        if game.player1_id == player.pk:
            score1, score2, first = entry.score, entry.opponent_score, 1
        else:
            score1, score2, first = entry.opponent_score, entry.score, 2
        warnings = plausibility(entry)
        if game.first in (1, 2) and game.first != first:
            due = game.player1 if game.first == 1 else game.player2
            warnings.append(
                f"{due.name} was to go first; this entry records {player.name} as going first."
            )
        values = {"score1": score1, "score2": score2, "first": first, "kind": Game.PLAYED}
        return _Plan(game, values, None, warnings)

    game = mine[0]
    other_id = None
    if game.player2_id is not None:
        other_id = game.player2_id if game.player1_id == player.pk else game.player1_id
    if entry.kind == Game.BYE:
        if other_id is not None:
            raise EntryError(
                f"{_who(player)} plays {_who(by_id[other_id])} in round {round_number}: "
                "a bye is for a player without an opponent."
            )
        values = {"score1": division.bye_spread, "score2": None, "first": 0, "kind": Game.BYE}
        return _Plan(game, values, None)
    values = {
        "player1": player,
        "player2": None,
        "score1": -division.forfeit_spread,
        "score2": None,
        "first": 0,
        "kind": Game.FORFEIT,
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
        }


def _already(game: Game) -> str:
    return f"Already entered: {result_text(snapshot(game))}. Nothing to change."


def check_line(division: Division, round_number: int, text: str) -> Check:
    """Check a line against the round without writing anything."""
    try:
        entry = parse_line(text)
        games = list(division.games.filter(round=round_number))
        plan = _plan(division, round_number, entry, games, list(division.players.all()))
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
    )
    if plan.split_to is not None:
        check.also = f"{_who(plan.split_to)}: forfeit win {division.forfeit_spread:+d}"
    if plan.unchanged:
        check.ok = False
        check.errors.append(_already(plan.game))
    elif plan.correction:
        check.warnings.append(f"Already entered as {check.before}: a correction needs a reason.")
    return check


# -- writes -------------------------------------------------------------------------------------


def changes_touching(game: Game) -> Iterator[tuple[Change, dict | None, dict]]:
    """The changes that wrote this game, oldest first, with its snapshots before and after."""
    changes = Change.objects.filter(
        game__division_id=game.division_id, game__round=game.round
    ).select_related("user")
    for change in changes.order_by("at", "pk"):
        after = _snapshot_of(change.after, game.pk)
        if after is not None:
            yield change, _snapshot_of(change.before, game.pk), after


def _stale_message(game: Game, version: int, outcome: str) -> str:
    """Who changed the game since `version`, when, and what they changed."""
    later = [(c, b, a) for c, b, a in changes_touching(game) if a["version"] > version]
    now = snapshot(game)
    label = _game_label(game)
    if not later:
        return (
            f"{label} was changed while you had it open (version {version}, now "
            f"{game.version}). {outcome}; it is now {result_text(now)}."
        )
    names = sorted({c.user.get_username() for c, _, _ in later if c.user} or {"someone"})
    when = timezone.localtime(later[-1][0].at).strftime("%H:%M")
    loaded = later[0][1]
    what = "; ".join(differences(loaded, now)) if loaded else result_text(now)
    return (
        f"{' and '.join(names)} changed {label} at {when} while you had it open: "
        f"{what or 'no visible change'}. {outcome}; it is now {result_text(now)}."
    )


def _game_label(game: Game) -> str:
    if game.player2_id is None:
        return f"{game.player1.name}'s round {game.round} {game.kind}"
    return f"the round {game.round} game {game.player1.name} v {game.player2.name}"


REFUSED = "Your save was refused and nothing was overwritten"


def _apply(plan: _Plan, user: Any, reason: str, action: str) -> Change:
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
    _reflag(game)
    return Change.objects.create(
        tournament_id=game.division.tournament_id,
        game=game,
        user=user,
        action=action,
        before={"games": before},
        after={"games": after},
        reason=reason,
    )


def _locked_round(division: Division, round_number: int) -> list[Game]:
    return list(
        Game.objects.select_for_update()
        .filter(division=division, round=round_number)
        .order_by("pk")
    )


def enter_line(
    division: Division,
    round_number: int,
    text: str,
    user: Any,
    version: int | None = None,
    reason: str = "",
) -> Change:
    """Save a line: a new result, or a correction (which needs a reason).

    `version` is the game's version the check showed: a save against an older one is refused.
    """
    entry = parse_line(text)
    reason = reason.strip()
    with transaction.atomic():
        games = _locked_round(division, round_number)
        plan = _plan(division, round_number, entry, games, list(division.players.all()))
        if version is not None and plan.game.version != version:
            raise StaleResult(_stale_message(plan.game, version, REFUSED))
        if plan.unchanged:
            raise EntryError(_already(plan.game))
        if plan.correction and not reason:
            raise EntryError(
                f"{result_text(snapshot(plan.game))} is already entered: "
                "a correction needs a reason."
            )
        return _apply(plan, user, reason, CORRECT if plan.correction else CREATE)


def correct_game(
    game: Game,
    user: Any,
    version: int,
    reason: str,
    score1: int | None,
    score2: int | None = None,
    first: int | None = None,
    kind: str | None = None,
) -> Change:
    """Save a game's result from its own form; `version` is the one the form was loaded with.

    Both scores None removes the result. Changing or removing an entered result needs a reason.
    """
    reason = reason.strip()
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        if game.version != version:
            raise StaleResult(_stale_message(game, version, REFUSED))
        if game.kind == Game.VOID:
            raise EntryError("A void game has no result to enter.")
        if game.player2_id is None:
            values: dict[str, Any] = {"score1": score1, "kind": kind or game.kind}
        else:
            if (score1 is None) != (score2 is None):
                raise EntryError("Give both scores, or neither to remove the result.")
            values = {
                "score1": score1,
                "score2": score2,
                "first": game.first if first is None else first,
            }
        plan = _Plan(game, values, None)
        if plan.unchanged:
            raise EntryError("Nothing to change.")
        if plan.correction and not reason:
            raise EntryError("The game already has a result: a correction needs a reason.")
        action = CREATE if not game.has_result else DELETE if score1 is None else CORRECT
        return _apply(plan, user, reason, action)


def _undone_ids(changes: Iterable[Change]) -> set[int]:
    return {c.after.get("undoes") for c in changes if c.action == UNDO and c.after}


def last_undoable(division: Division, user: Any) -> Change | None:
    """The user's latest result entry or correction in the division not yet undone."""
    mine = Change.objects.filter(
        tournament_id=division.tournament_id,
        user=user,
        game__division=division,
        scoresheet__isnull=True,
        action__in=(CREATE, CORRECT, DELETE, UNDO),
    ).order_by("-at", "-pk")
    undone = _undone_ids(mine.filter(action=UNDO))
    for change in mine.exclude(action=UNDO)[:200]:
        if change.pk not in undone:
            return change
    return None


def undo_last(division: Division, user: Any) -> Change:
    """Put back the rows the user's last entry changed, if no one has changed them since."""
    with transaction.atomic():
        change = last_undoable(division, user)
        if change is None:
            raise EntryError(f"Nothing of yours to undo in division {division.name}.")
        before, after = _games_of(change.before), _games_of(change.after)
        ids = {s["id"] for s in before} | {s["id"] for s in after}
        rows = {g.pk: g for g in Game.objects.select_for_update().filter(pk__in=ids).order_by("pk")}
        for s in after:
            row = rows.get(s["id"])
            if row is None:
                raise EntryError(f"{result_text(s)} no longer exists: not undone.")
            # Content, not version: an undo in between bumps the version and puts back the same.
            if _content(snapshot(row)) != _content(s):
                raise StaleResult(_stale_message(row, s["version"], "Your entry was not undone"))
        kept = {s["id"] for s in before}
        for s in after:
            if s["id"] not in kept and rows[s["id"]].scoresheets.exists():
                raise EntryError(f"{result_text(s)} has a scoresheet: not undone.")
        current = [snapshot(rows[s["id"]]) for s in after]
        players = {p.number: p for p in division.players.all()}
        restored = []
        for s in before:
            game = rows[s["id"]]
            game.player1 = players[s["player1"]]
            game.player2 = players[s["player2"]] if s["player2"] is not None else None
            for key in ("score1", "score2", "kind", "first", "table"):
                setattr(game, key, s[key])
            game.version += 1
            game.save()
            _reflag(game)
            restored.append(snapshot(game))
        for s in after:
            if s["id"] not in kept:
                rows[s["id"]].delete()
        return Change.objects.create(
            tournament_id=division.tournament_id,
            game=change.game,
            user=user,
            action=UNDO,
            before={"games": current},
            after={"games": restored, "undoes": change.pk},
            reason=f"Undo of change {change.pk} ({change.action})",
        )


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


# -- scoresheets ----------------------------------------------------------------------------------


def _words(text: str) -> list[str]:
    plain = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in plain if not unicodedata.combining(c))
    return re.findall(r"[a-z0-9]+", plain.lower())


def name_matches(player_name: str, nick: str, name: str) -> bool:
    """Whether a scoresheet's player (nick and full name) is the division's player.

    The full name matches whatever its order ("Smylie, Jackson" is "Jackson Smylie"); the nick
    matches a name of the player's or all of them run together ("jackson", "jacksonsmylie").
    """
    words = _words(player_name)
    if not words:
        return False
    full = set(_words(name))
    if full and (full == set(words) or len(full & set(words)) >= 2):
        return True
    joined = "".join(_words(nick))
    return bool(joined) and (joined in words or joined in ("".join(words), "".join(words[::-1])))


def scoresheet_text(data: str | bytes) -> str:
    text = gcg.decode(data)[0] if isinstance(data, bytes) else data
    return text.replace("\x00", "")  # PostgreSQL cannot store NUL in text


@functools.lru_cache(maxsize=16)
def _load_lexicon(spec: str) -> scoring.Lexicon:
    return scoring.load_lexicon(spec)


def _engine_settings(
    division: Division,
) -> tuple[scoring.Ruleset | str, scoring.TileSet | str, scoring.Lexicons, list[dict]]:
    """The division's ruleset, tile set and word lists; a note for each that cannot be loaded."""
    notes = []

    def note(message: str) -> None:
        notes.append(scoring.Finding(0, scoring.WARNING, "desk_settings", message).as_dict())

    try:
        rules: scoring.Ruleset | str = scoring.load_rules(division.ruleset)
    except (ValueError, OSError):
        note(f"the division's ruleset {division.ruleset!r} is unknown: checked under auto")
        rules = "auto"
    try:
        tiles: scoring.TileSet | str = scoring.load_tileset(division.tile_set)
    except (ValueError, OSError):
        note(f"the division's tile set {division.tile_set!r} is unknown: guessed from the record")
        tiles = "auto"
    lexicons = []
    for spec in division.lexicons.splitlines():
        if spec.strip():
            try:
                lexicons.append(_load_lexicon(spec.strip()))
            except LexiconError as error:
                note(f"{error}: its words are not checked")
    return rules, tiles, scoring.Lexicons(lexicons), notes


def _json_safe(data: Any) -> Any:
    return json.loads(json.dumps(data, default=str))


def check_scoresheet(division: Division, data: str | bytes) -> dict[str, Any]:
    """The engine's report on a record, as stored with a scoresheet; never raises.

    `report.as_dict()` plus each turn (recorded and computed score and total), the board after
    the last move, and how the game ended.
    """
    rules, tiles, lexicons, notes = _engine_settings(division)
    try:
        report = scoring.verify(data, rules=rules, tiles=tiles, lexicons=lexicons)
    except Exception as error:  # the engine promises never to raise; if it does, keep the sheet
        logger.exception("the rules engine failed on a scoresheet")
        failure = scoring.Finding(0, scoring.ERROR, "engine_failure", f"not checked: {error}")
        return _json_safe(
            {
                "verified": False,
                "players": [],
                "findings": notes + [failure.as_dict()],
                "turns": [],
                "board": "",
                "ended": None,
            }
        )
    result = report.as_dict()
    result["findings"] = notes + result["findings"]
    result["turns"] = [
        {
            "line": t.line,
            "nick": t.nick,
            "kind": t.kind,
            "text": t.text,
            "recorded_score": t.recorded_score,
            "computed_score": t.computed_score,
            "recorded_total": t.recorded_total,
            "computed_total": t.computed_total,
        }
        for t in report.turns
    ]
    result["board"] = report.board.render()
    result["ended"] = report.ended
    return _json_safe(result)


def sheet_scores(game: Game, report: dict[str, Any]) -> tuple[int, int] | None:
    """The scoresheet's final scores in the game's order (player1, player2), where known.

    By the players' names; else by who went first (the record's first player); else None.
    """
    players = report.get("players") or []
    if len(players) != 2 or game.player2_id is None:
        return None
    a, b = players

    def matches(p: dict, player: Player) -> bool:
        return name_matches(player.name, p.get("nick", ""), p.get("name", ""))

    one, two = game.player1, game.player2
    if matches(a, one) and matches(b, two) and not (matches(a, two) and matches(b, one)):
        return a["final"], b["final"]
    if matches(a, two) and matches(b, one) and not (matches(a, one) and matches(b, two)):
        return b["final"], a["final"]
    if game.first == 1:
        return a["final"], b["final"]
    if game.first == 2:
        return b["final"], a["final"]
    return None


def differs(game: Game, report: dict[str, Any]) -> bool:
    """Whether a scoresheet's final scores differ from the game's entered result."""
    players = report.get("players") or []
    if game.player2_id is None or not game.has_result or len(players) != 2:
        return False
    scores = sheet_scores(game, report)
    if scores is not None:
        return scores != (game.score1, game.score2)
    return sorted(p["final"] for p in players) != sorted([game.score1, game.score2])


def _reflag(game: Game) -> None:
    """After a result changes, flag again the unresolved scoresheets that no longer agree."""
    for sheet in game.scoresheets.filter(resolved=False):
        flagged = differs(game, sheet.report)
        if flagged != sheet.flagged:
            sheet.flagged = flagged
            sheet.save(update_fields=["flagged"])


def _sheet_summary(sheet: Scoresheet) -> dict[str, Any]:
    report = sheet.report
    return {
        "scoresheet": sheet.pk,
        "file": report.get("file", ""),
        "verified": sheet.verified,
        "flagged": sheet.flagged,
        "resolved": sheet.resolved,
        "findings": len(report.get("findings") or []),
        "players": [[p["nick"], p["final"]] for p in report.get("players") or []],
    }


def attach_scoresheet(game: Game, data: str | bytes, user: Any, file: str = "") -> Scoresheet:
    """Save a record with the game, checked under its division's rules; logged as an upload.

    A malformed record is saved too, with its findings.
    """
    report = check_scoresheet(game.division, data)
    if file:
        report["file"] = file
    with transaction.atomic():
        # Compared with the result as stored now, not as the page saw it.
        game = (
            Game.objects.select_for_update(of=("self",))
            .select_related("player1", "player2")
            .get(pk=game.pk)
        )
        sheet = Scoresheet.objects.create(
            game=game,
            gcg=scoresheet_text(data),
            uploaded_by=user,
            verified=report["verified"],
            report=report,
            flagged=differs(game, report),
        )
        Change.objects.create(
            tournament_id=game.division.tournament_id,
            game=game,
            scoresheet=sheet,
            user=user,
            action=UPLOAD,
            after=_sheet_summary(sheet),
        )
    return sheet


def update_scoresheet(sheet: Scoresheet, text: str, user: Any, reason: str = "") -> Scoresheet:
    """Replace a scoresheet's record (typed corrections), checked again; logged."""
    game = sheet.game
    report = check_scoresheet(game.division, text)
    if sheet.report.get("file"):
        report["file"] = sheet.report["file"]
    with transaction.atomic():
        sheet = Scoresheet.objects.select_for_update().get(pk=sheet.pk)
        before = _sheet_summary(sheet)
        sheet.gcg = scoresheet_text(text)
        sheet.report = report
        sheet.verified = report["verified"]
        sheet.flagged = differs(game, report) and not sheet.resolved
        sheet.save()
        Change.objects.create(
            tournament_id=game.division.tournament_id,
            game=game,
            scoresheet=sheet,
            user=user,
            action=CORRECT,
            before=before,
            after=_sheet_summary(sheet),
            reason=reason.strip(),
        )
    return sheet


def resolve_scoresheet(sheet: Scoresheet, user: Any, reason: str = "") -> Change:
    """Take a flagged scoresheet off the dashboard: the director has dealt with it."""
    with transaction.atomic():
        sheet = (
            Scoresheet.objects.select_for_update(of=("self",))
            .select_related("game__division")
            .get(pk=sheet.pk)
        )
        if not sheet.flagged or sheet.resolved:
            raise EntryError("The scoresheet is not flagged.")
        before = _sheet_summary(sheet)
        sheet.resolved = True
        sheet.save(update_fields=["resolved"])
        return Change.objects.create(
            tournament_id=sheet.game.division.tournament_id,
            game=sheet.game,
            scoresheet=sheet,
            user=user,
            action=RESOLVE,
            before=before,
            after=_sheet_summary(sheet),
            reason=reason.strip(),
        )


def _last_totals(record: gcg.GameRecord) -> dict[str, int]:
    totals: dict[str, int] = {}
    for event in record.events:
        totals[event.nick] = event.total
    return totals


def match_game(
    division: Division, data: str | bytes, round_number: int | None = None
) -> tuple[Game | None, list[Game]]:
    """The game a record is of, by its players' names and nicks, and the candidates found.

    Where the same two players met in several rounds, a game whose entered result equals the
    record's final totals, else the only one without a scoresheet, is taken; else none is.
    """
    record = gcg.parse(data)
    if len(record.players) != 2:
        return None, []
    players = list(division.players.all())
    sides = [
        {p.pk for p in players if name_matches(p.name, rp.nick, rp.name)} for rp in record.players
    ]
    games = division.games.filter(player2__isnull=False).select_related("player1", "player2")
    if round_number:
        games = games.filter(round=round_number)
    candidates = [
        g
        for g in games.filter(player1__in=sides[0] | sides[1], player2__in=sides[0] | sides[1])
        if (g.player1_id in sides[0] and g.player2_id in sides[1])
        or (g.player1_id in sides[1] and g.player2_id in sides[0])
    ]
    if len(candidates) == 1:
        return candidates[0], candidates
    totals = sorted(_last_totals(record).values())
    same = [g for g in candidates if g.has_result and sorted([g.score1, g.score2]) == totals]
    if len(same) == 1:
        return same[0], candidates
    bare = [g for g in candidates if not g.scoresheets.exists()]
    if len(bare) == 1:
        return bare[0], candidates
    return None, candidates


def scoresheet_header(game: Game) -> str:
    """The #player lines a typed scoresheet starts with: who went first is #player1."""
    players = [game.player1] + ([game.player2] if game.player2 else [])
    if game.first == 2 and len(players) == 2:
        players.reverse()
    lines = []
    nicks: list[str] = []
    for i, p in enumerate(players, 1):
        given = p.name.split(",", 1)[1] if "," in p.name else p.name  # "Last, First" → First
        nick = re.sub(r"[^\w-]", "", (given.split() or [""])[0]) or f"p{p.number}"
        if nick in nicks:
            nick = f"{nick}{p.number}"
        nicks.append(nick)
        lines.append(f"#player{i} {nick} {p.name}\n")
    return "".join(lines)
