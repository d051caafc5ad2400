"""The engine's findings as data: a stable code and its parameters, and the one table of English
sentences they are written with.

A finding's parameters are plain JSON values (numbers, strings, lists, objects of them). A code
that reads in more than one way names the way in its ``case`` parameter: its sentence is the
template ``code.case`` (``wrong_score.pass``); without ``case`` it is the template ``code``.
The ``legacy`` case keeps a sentence written before findings carried parameters, whole, in
``text``.

A template field may name how its value is written (after the colon): ``#noun`` "3 noun(s)";
``list`` items joined by commas; ``names`` the same, or "none named"; ``counts`` [tile, count]
pairs, "2 E, 1 Z"; ``op`` a signed number as the operator and its size, "+ 5" or
"- 5"; otherwise a Python format spec.

English is the table; `render(..., lang=)` writes the sentence in another language from the
engine's catalog (``scoring.i18n``), where each template is the message id under the context
``finding:<key>``.
"""

from __future__ import annotations

import _string
import functools
import json
import string
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .i18n import Translator, translator

LEGACY = "legacy"

MESSAGES: Mapping[str, str] = {
    # --- reading the record (scoring.gcg)
    "empty": "the record is empty",
    "malformed_line": "the line is neither a #pragma nor a >move",
    "malformed_line.no_nick": "an event line must start >nick:",
    "malformed_line.no_move": "the line has no move",
    "malformed_line.rack_no_move": "the line has a rack but no move",
    "malformed_line.not_move": "the line is not a move: expected RACK POSITION WORD +SCORE TOTAL",
    "malformed_line.no_score": "the line needs a score and a running total",
    "malformed_line.not_score": "{token!r} is not a score (write it as +N or -N)",
    "malformed_line.not_total": "{token!r} is not a running total",
    "malformed_line.score_digits": "{token!r} is not a number: a score is written with the "
    "digits 0 to 9 only",
    "malformed_line.total_digits": "{token!r} is not a number: a total is written with the "
    "digits 0 to 9 only",
    "malformed_line.tiles_digits": "{token!r} is not a number: a number of tiles is written with "
    "the digits 0 to 9 only",
    "malformed_line.too_long": "{token!r} is not a number a game can have ({digits} digits)",
    "malformed_line.after_total": "unexpected {extra!r} after the running total",
    "malformed_line.not_rack": "{token!r} is not a rack in parentheses",
    "event_after_last_rack": "an event follows the final racks given on line {rack_line}",
    "malformed_pragma": "#player needs a nickname",
    "malformed_pragma.number": "player number {number} is not 1 to 4",
    "duplicate_player_number": "#player{number} is given twice",
    "duplicate_nick": "two players share the nickname {nick!r}, so their moves cannot be told "
    "apart",
    "duplicate_name": "two players are both named {name!r}",
    "pragma_after_events": "#{keyword} belongs before the moves",
    "pragma_after_events.player": "#player{number} after the moves",
    "unsupported_encoding": "the character encoding {value!r} is not supported (use UTF-8 or "
    "ISO-8859-1)",
    "misplaced_encoding": "#character-encoding must be the first line",
    "repeated_pragma": "#{keyword} is given twice",
    "repeated_pragma.header": "#{keyword} is given twice (first on line {first})",
    "note_before_events": "a #note before the first move",
    "unknown_game_type": "unknown game type {value!r}: the record is checked as a classic game",
    # --- the record's settings (scoring.replay)
    "unknown_layout": "#board-layout {value!r} is not a built-in board layout ({layouts:list}); "
    "a record cannot name a file, so the standard board is used",
    "unknown_tile_set": "#tile-distribution {value!r} is not a built-in tile set ({sets:list}); "
    "a record cannot name a file, so the set is told from the letters the record uses",
    "too_few_players": "the record names {count:#player}; the {rules} rules need at least "
    "{least}",
    "too_many_players": "the record names {count} players; the {rules} rules allow at most "
    "{most}",
    "no_moves": "the record has no moves",
    # --- racks and tiles
    "malformed_rack": "the rack {text!r} holds {tile!r}, which is not a tile of the {tiles} set",
    "malformed_rack.exchange": "the exchange {text!r} holds {tile!r}, which is not a tile of "
    "the {tiles} set",
    "malformed_rack.shown": "the rack in parentheses {text!r} holds {tile!r}, which is not a "
    "tile of the {tiles} set",
    "rack_too_big": "the rack has {count} tiles; a rack holds at most {size}",
    "rack_not_drawable": "the rack needs {needs:counts} but only {unseen:counts} can be unseen "
    "(the {tiles} set and the tiles on the board)",
    "rack_not_drawable.left": "the rack left needs {needs:counts} but only {unseen:counts} can "
    "be unseen (the {tiles} set and the tiles on the board)",
    "tiles_not_in_rack": "the play uses {tiles}, which the rack {rack} does not hold",
    "tiles_not_in_rack.exchange": "the exchange uses {tiles}, which the rack {rack} does not hold",
    "tiles_not_in_rack.count": "the exchange of {count} tiles is more than the rack {rack} holds",
    "too_many_tiles": "the play puts more {over:list} on the board than the {tiles} set has",
    "too_many_tiles.held": "the play uses {count} tiles but the player holds only {held}",
    # --- turns and totals
    "wrong_total": "the running total should be {before} {score:op} = {expected}, not {total}",
    "wrong_total.withdrawal": "after the withdrawal the total goes back to {expected}, not "
    "{total}",
    "event_before_players": "a move comes before every player has been named",
    "unknown_player": "{nick!r} is not one of the players ({players:names})",
    "unknown_player.rack": "#{keyword}: there is no player {number}",
    "event_after_end": "a move after the game has ended",
    "out_of_turn": "it is {expected}'s turn, not {nick}'s",
    # --- plays
    "board_unknown": "this play could not be placed, so the plays after it are checked for turn "
    "order and running totals only",
    "wrong_score": "{word} at {position} scores {score}, not {recorded}",
    "wrong_score.withdrawn": "{word} at {position} scores {score}, not {recorded} (the play was "
    "withdrawn)",
    "wrong_score.pass": "a pass scores 0",
    "wrong_score.exchange": "an exchange scores 0",
    "mark_differs": "the record marks {word} {marks!r}; the word lists give {mark!r}",
    "mark_differs.unmarked": "the record marks {word} {marks!r}; the word lists give 'no mark'",
    "bad_position": "{position!r} is not a square of the board (write 8H across or H8 down)",
    "not_whole_word": "{word} at {position} is not the whole word: the tiles next to it on the "
    "board belong to it",
    "first_move_off_centre": "the first play must cover the centre square {square}",
    "first_move_one_tile": "the first play must use at least two tiles",
    "not_connected": "{word} at {position} does not touch any tile on the board",
    "malformed_move": "the play has no tiles",
    "off_board": "{word} at {position} runs off the board",
    "playthrough_empty": "{word} at {position} marks {square} as a tile on the board, but it is "
    "empty",
    "playthrough_empty.parens": "{word} marks {tile} at {square} as on the board, but it is empty",
    "unknown_tile": "{tile!r} in {word} is not a tile of the {tiles} set",
    "square_occupied": "{word} at {position} puts {tile} on {square}, which already holds {here}",
    "no_new_tiles": "{word} at {position} places no tile",
    # --- exchanges, phonies and challenges
    "malformed_exchange": "an exchange is of 1 to {size} tiles, not {count}",
    "exchange_bag_too_small": "an exchange needs at least {least} tiles in the bag; {left} are "
    "left",
    "phony_without_play": "a phony is withdrawn, but the line before is not a play",
    "phony_wrong_player": "only {player}, who made the play, can withdraw it",
    "phony_rack_mismatch": "the rack {rack} is not the rack {play_rack} of the withdrawn play",
    "wrong_withdrawal": "withdrawing the play takes off its {points} points, not {taken}",
    "challenge_without_play": "a challenge bonus, but the line before is not a play",
    "challenge_wrong_player": "the bonus goes to {player}, whose play was challenged",
    "challenge_bonus_not_in_rules": "the {rules} rules give no points for a wrong challenge "
    "(double challenge)",
    "wrong_challenge_bonus": "a challenge bonus is more than 0 points",
    "wrong_challenge_bonus.per_word": "a challenge bonus is {points} points a word challenged, "
    "not {score}",
    # --- the end of the game
    "end_before_end": "points for the opponent's rack, but the game has not ended",
    "end_before_end.rack_penalty": "a rack penalty, but the game has not ended",
    "end_before_end.time": "a time penalty belongs after the end of the game",
    "unexpected_end_points": "nobody went out: each player loses their own rack instead",
    "end_points_wrong_player": "the rack points go to {player}, who went out",
    "repeated_end_points": "the rack points are given twice",
    "repeated_end_points.rack_penalty": "this player's rack is counted twice",
    "end_rack_mismatch": "the opponent was left with {left}, not {tiles}",
    "end_rack_mismatch.rack_penalty": "the player was left with {left}, not {tiles}",
    "wrong_end_points": "going out earns twice the opponents' rack {rack} ({value}) = "
    "{expected}, not {score}",
    "wrong_end_points.transfer": "going out earns the value of the opponents' rack {rack} "
    "({value}) = {expected}, not {score}",
    "penalty_rack_mismatch": "the rack {rack} and the rack in parentheses ({tiles}) differ",
    "unexpected_rack_penalty": "the player who went out has no rack to lose",
    "unexpected_rack_penalty.double": "with 2x rack for going out the opponent loses nothing",
    "wrong_end_penalty": "the rack left, {tiles}, is worth {value}: the penalty is -{value}, not "
    "{score}",
    "time_before_end_points": "a time penalty is recorded before the end-of-game rack points",
    "repeated_time_penalty": "a player has one time penalty, for all the time over",
    "time_penalty_not_in_rules": "the {rules} rules have no clock, so no time penalty",
    "wrong_time_penalty": "a time penalty is {per_minute} points for each minute or part of a "
    "minute over: a negative multiple of {per_minute}, not {score}",
    "not_finished": "the record stops before the game ended; the last totals recorded stand",
    "not_finished.ended": "the record stops before the end of the game",
    "not_finished.incomplete": "the record stops before the end of the game (it says it is "
    "incomplete)",
    "missing_end_points": "{out} went out, but {player}'s rack penalty is not recorded",
    "missing_end_points.penalty": "{out} went out, but {player}'s rack penalty ({penalty} for "
    "{rack}) is not recorded",
    "missing_end_points.out": "{player} went out, but the points for the rack left ({rack}), "
    "+{points}, are not recorded",
    "missing_end_points.scoreless": "the game ended after scoreless turns; {player}'s rack "
    "penalty is not recorded",
}


def _op(n: int) -> str:
    return f"{'+' if n >= 0 else '-'} {abs(n)}"


# Each spec writes a value in the translator's language.
Spec = Callable[[Any, Translator], str]

_SPECS: dict[str, Spec] = {
    "list": lambda items, tr: tr.join(items),
    "names": lambda items, tr: tr.join(items) or tr.word("none named"),
    "counts": lambda pairs, tr: tr.join(f"{c} {t}" for t, c in pairs),
    "op": lambda n, tr: _op(n),
}
# The words the specs write, for the catalog.
WORDS = ("none named",)


class SpecFormatter(string.Formatter):
    """`str.format` with the message tables' own format specs, in one language: `{n:#noun}` a
    counted noun, and a named spec (`{words:list}`) a function of the value and the translator.
    Shared by the pairing engine's table."""

    def __init__(self, specs: Mapping[str, Spec], translator: Translator) -> None:
        super().__init__()
        self.specs = specs
        self.translator = translator

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec.startswith("#"):
            return self.translator.counted(value, format_spec[1:])
        if format_spec in self.specs:
            return self.specs[format_spec](value, self.translator)
        return format(value, format_spec)

    def vformat(self, format_string: str, args: Sequence[Any], kwargs: Mapping[str, Any]) -> str:
        # Every template names its fields: read once, it is filled in without string.Formatter's
        # own walk through it, which took more time than the rest of writing a finding.
        fields = _named_fields(format_string)
        if fields is None or args:
            return super().vformat(format_string, args, kwargs)
        out = []
        for literal, name, spec in fields:
            out.append(literal)
            if name is not None:
                out.append(self.format_field(kwargs[name], spec))
        return "".join(out)


@functools.lru_cache(maxsize=4096)
def _named_fields(template: str) -> tuple[tuple[str, str | None, str], ...] | None:
    """A template as (text, field name, format spec) pieces, or None unless every field is a
    plain name with a plain spec (no conversion, index, attribute or nested field): those are
    left to ``string.Formatter``."""
    try:
        parsed = list(_string.formatter_parser(template))
    except ValueError:
        return None
    pieces = []
    for literal, name, spec, conversion in parsed:
        plain = name is None or (
            conversion is None and name.isidentifier() and "{" not in spec and "}" not in spec
        )
        if not plain:
            return None
        pieces.append((literal, name, spec or ""))
    return tuple(pieces)


def write(
    context: str,
    english: str,
    params: Mapping[str, Any],
    specs: Mapping[str, Spec],
    lang: str | None = "en",
    template: str | None = None,
) -> str:
    """`english` (a table's template) in `lang` with `params`: the catalog's template under
    `context` (or `template`, already translated), and the English one if the translated one
    cannot be written with these parameters. Raises as `str.format` does if neither can."""
    tr = translator(lang)
    translated = template if template is not None else tr.template(context, english)
    if translated != english:
        try:
            return SpecFormatter(specs, tr).vformat(translated, (), dict(params))
        except (KeyError, IndexError, ValueError, TypeError, AttributeError):
            pass
    return SpecFormatter(specs, translator("en") if tr.lang != "en" else tr).vformat(
        english, (), dict(params)
    )


def template_key(code: str, params: Mapping[str, Any]) -> str:
    """The key of the template a finding is written with: ``code`` or ``code.case``."""
    case = params.get("case")
    return f"{code}.{case}" if case else code


def render(
    code: str,
    params: Mapping[str, Any],
    templates: Mapping[str, str] = MESSAGES,
    lang: str | None = "en",
    template: str | None = None,
) -> str:
    """The sentence of a code and its parameters in `lang` (English by default); never raises.

    `template` is the template already in `lang`, for a table whose translations are not the
    engine's (the desk's own findings). Stored data may hold a code this version does not know,
    or lack a parameter: it is shown as it is (the code and its parameters) rather than breaking
    the page it is on.
    """
    if params.get("case") == LEGACY:
        return str(params.get("text", ""))
    key = template_key(code, params)
    try:
        return write(f"finding:{key}", templates[key], params, _SPECS, lang, template)
    except (KeyError, IndexError, ValueError, TypeError, AttributeError):
        shown = json.dumps(dict(params), ensure_ascii=False, sort_keys=True, default=str)
        return f"{code}: {shown}" if params else code


def legacy(text: str) -> dict[str, Any]:
    """The parameters that keep a sentence written before findings carried parameters."""
    return {"case": LEGACY, "text": text}
