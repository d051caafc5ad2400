"""The pairing engine's reasons, notes and warnings as data: a stable code and its parameters,
and the one table of English sentences they are written with.

A `Message` is the sentence itself (a `str`, so it prints, compares and joins as one) that also
keeps its `code` and `params`; `as_dict()` is what is stored, `from_dict()` reads it back. The
parameters are plain JSON values: names (as the division knew the player then), numbers, lists
and other messages (as dicts). `parse()` finds the code and parameters of a sentence written
before messages were stored as data; a sentence no template writes is kept as `legacy`.

A template field may name how its value is written (after the colon):
`ordinal` 1st; `#noun` "3 noun(s)"; `limit` "no rematches" or "2 repeat(s)"; `limit_words`
"no rematches" or "at most 2 repeat(s) of a pairing"; `byes` "no bye" or "2 bye(s)"; `list`
names joined by commas; `or` numbers joined by "or"; `pairs` "A v B, C v D"; `label` the name
of a fixed table ("rr" or "fontes"); `msg` and `msgs` one message, or several joined by "; ";
otherwise a Python format spec.

`render(code, params, lang)` writes the sentence in another language from the engine's catalog
(``scoring.i18n``), where each template is the message id under the context ``pairing:<code>``.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from scoring.i18n import Translator, translator
from scoring.messages import Spec, SpecFormatter, write

TEMPLATES: Mapping[str, str] = {
    # --- kept as written before codes: a sentence no template reads
    "legacy": "{text}",
    # --- what a table was paired by (also named in refusals and notes)
    "by_swiss": "Swiss",
    "by_koth": "king of the hill",
    "by_factor": "factor {factor}",
    "by_contention": "contention pairing for places 1-{band}",
    "by_australian": "Australian draw",
    "by_gibson": "Gibson pairing",
    "by_cop": "COP",
    # --- why two players meet: figures of the two in the order the pair names them ("A v B:
    # places 5 and 2" is A 5th, B 2nd), whatever the field's name says (`SIDES`)
    "places": "places {high} and {low}",
    "same_wins": "both on {wins:g} wins",
    "wins_apart": "{more:g} v {fewer:g} wins",
    "met_before": "rematch: they have met {met:#time}",
    "met_last_round": "rematch: they have met {met:#time} (last round too)",
    "places_apart": "rank gap: {gap} places apart",
    "forbidden_pair": "a forbidden pair, paired because nothing else was possible",
    "in_contention": "contention: both can still finish in places 1-{band}",
    "australian_round_1": "Australian draw, round 1: top half v bottom half",
    "australian_forbidden": "Australian draw (no draw without a forbidden pair)",
    "australian_highest": "Australian draw: the highest-placed opponent allowed",
    "gibson_settled": "Gibsonized: {player}'s {place:ordinal} place is settled",
    "gibsons_meet": "Gibsonized: {a}'s {place_a:ordinal} place and {b}'s {place_b:ordinal} "
    "place are settled; they play each other",
    "gibson_opponent_out": "the highest-placed player who can no longer reach the prizes (best "
    "finish {best:ordinal}), of those who met the Gibson least ({met:#time})",
    "gibson_opponent_lowest": "everyone left can still reach the prizes: the lowest-placed player",
    "table_of": "{label:label}, round {k} of the table (players {x} and {y})",
    "table_bye": "{label:label}, round {k} of the table (players {x} and {y}): the bye of the "
    "table",
    "table_opponent_withdrawn": "{label:label}, round {k} of the table (players {x} and {y}): "
    "the scheduled opponent has withdrawn",
    "table_alone": "{label:label}: alone in the group",
    "table_late_paired": "not in the {label:label}: paired by place",
    "table_late_odd": "not in the {label:label}: the odd one out",
    "cop_prepaired": "paired by hand before COP paired the rest",
    "cop_koth": "COP, last round: king of the hill among the players who can still finish in "
    "places 1-{places}",
    "cop_class_koth": "COP, last round: king of the hill for class {cls}'s {prizes:#prize}",
    "cop_control_loss": "control loss: {leader} wins {chance:g}% of the simulations, but "
    "{player}, the lowest player who can still catch them, winning every game wins the event "
    "{vs_first:g}% of the time playing {leader} and {vs_factor:g}% otherwise",
    "cop_control_loss_above": "control loss: {leader} has lost control of the event to {lowest}; "
    "with more than four rounds left {leader} may play {player}, the contender just above",
    "cop_factor3": "COP, second-to-last round: factor 3 (1 v 4, 2 v 5, 3 v 6), as 4th, 5th and "
    "6th can still reach 1st, 2nd and 3rd ({fourth:g}%, {fifth:g}% and {sixth:g}% of runs)",
    "cop_factor3_control": "COP, second-to-last round: under factor 3 {player} would lose control "
    "(winning every game, {vs_first:g}% to win the event playing {leader}, {vs_factor:g}% "
    "otherwise), so plays {leader}",
    "cop_gibson_group": "COP: Gibson group {group}, paired among themselves",
    "cop_hopeful": "COP: {player} can hope for {place:ordinal} place, {other} for "
    "{other_place:ordinal}",
    "cop_cannot_catch": "COP: {low} cannot hope to catch {high}, paired because nothing better "
    "was possible",
    "cop_gibson_bye": "bye: {player} is Gibsonized ({place:ordinal} place settled)",
    "cop_top_down_bye": "bye: top-down byes, the highest-placed player with {had:byes}",
    "cop_bye": "bye: the player COP's weights chose ({player}, with {had:byes} so far)",
    # --- who goes first
    "first_by_table": "{player} goes first as the table says",
    "first_fewer_starts": "{player} goes first: {fewer:#start} against {more}",
    "first_more_replies": "{player} goes first: level on starts, {more} replies against {fewer}",
    "first_went_second": "{player} goes first: level on starts, went second more recently",
    "first_lower_placed": "{player} goes first: level on starts, the lower-placed player",
    # --- byes
    "bye_more": "bye: {player} has had {had:#bye}, but no one with fewer could be given it and "
    "the rest still be paired",
    "bye_lowest": "bye: the lowest-placed player with {had:byes}, as few as anyone's",
    "bye_gibson": "bye: Gibsonized ({player}'s {place:ordinal} place is settled)",
    # --- notes on the round
    "manual": "Round {round} is paired by hand; check the director's pairings with check_pairings.",
    "left_out_check_in": "Not checked in, so left out of round {round} with {result:msg}: "
    "{players:list}.",
    "left_out_absent": "Marked absent, so left out of round {round} with {result:msg}: "
    "{players:list}.",
    "left_out_by_hand": "Not in the pairings, so left out of round {round} with {result:msg}: "
    "{players:list}.",
    "left_out_late": "Entered late, so given {result:msg} in round {round}: {players:list}.",
    "left_out_reinstated": "Withdrawn when round {round} was paired, so given {result:msg} in "
    "it: {players:list}.",
    "missed_forfeit": "a forfeit loss (−{spread})",
    "missed_bye": "a bye (+{spread})",
    "missed_nothing": "no result",
    "has_bye": "{player} has the bye.",
    "has_bye_more": "{player} has the bye: a bye more than some others, who could not be given "
    "it with the rest paired.",
    "has_bye_none": "{player} has the bye: the lowest-placed player without a bye.",
    "has_bye_fewest": "{player} has the bye: the lowest-placed player with {had:#bye}, as few "
    "as anyone's.",
    "repeats_relaxed": "The repeat limit ({limit:limit_words}) could not be met in the "
    "{what:msg}; it was relaxed for {pairs:pairs}.",
    "gibsonized": "Gibsonized: {players:list} cannot be caught by anyone below with "
    "{left:#round} left, allowing {spread} points of spread a game.",
    "gibson_takes_bye": "{player}, Gibsonized, takes the bye.",
    "gibson_plays": "{player}, Gibsonized, plays {other}: {why:msg}.",
    "contention_unpaired": "The {count} players in contention for places 1-{band} could not be "
    "paired among themselves within the repeat limit; they are paired Swiss.",
    "contention_flight": "In contention for places 1-{band}: {players:list} (best possible "
    "finish within the band).",
    "australian_forgiven": "No Australian draw avoids every repeat; meetings before round "
    "{round} were forgiven.",
    "table_again": "The {label:label} of {players} has {rounds} rounds; round {round} starts it "
    "again (cycle {cycle}), with who goes first swapped.",
    "table_double_over": "The double {label:label} is over; round {round} starts it again.",
    "table_opponent_gone": "{player} has a bye: their scheduled opponent {gone} has withdrawn.",
    "table_joined": "{players:list} joined after the {label:label} was drawn.",
    "fontes": "Initial Fontes, round {k} of {rounds}: {groups:#group} of {sizes:or} drawn by seed.",
    "cop_summary": "COP: {sims} simulations of the {left:#round} left (seed {seed}); {leader} "
    "wins {chance:g}% of them; a player is hopeful of a place reached in {threshold:g}% of them "
    "or more.",
    "cop_control_loss_note": "Control loss: {leader} has lost control of the event to {player}, "
    "the lowest contender who can still catch them.",
    # --- warnings about a round's pairings
    "unknown_player": "{player!r} is not a player of this division.",
    "withdrawn": "{player} has withdrawn and should not be paired.",
    "paired_with_self": "{player} is paired with themselves.",
    "paired_twice": "{player} is paired {count} times.",
    "unpaired": "{player} is not paired.",
    "repeat_limit": "{a} and {b} have met {met:#time}; the division allows {limit:limit}.",
    "rematch": "{a} and {b} have met {met:#time} before.",
    "forbidden": "{a} and {b} should not be paired.",
    "rank_gap": "{a} and {b} are {gap:g} wins apart.",
    "first_imbalance": "{a} goes first with {firsts:#start} so far, against {b}'s {other}.",
    "extra_bye": "{count} byes in a field of {field}.",
    "second_bye": "{player} gets bye number {number} while {other} has had {fewest}.",
    "gibson_contender": "{player} is Gibsonized but plays {other}, who can still finish in the "
    "prizes.",
    # --- a paired table as the desk stores it: the players and the engine's reasons
    "table": "{first} v {second}: {reasons:msgs}",
}

# The messages that give each of a pair's players a figure: the fields of the first-named player
# and of the second. The names are the catalog's (its message ids), kept as they were when the
# figures were written highest first.
SIDES: Mapping[str, tuple[str, str]] = {"places": ("high", "low"), "wins_apart": ("more", "fewer")}
# The fields that hold a player's name, or a list of names (`list`), or of pairs of names
# (`pairs`); a name may be followed by the player's place and record (`Field.describe`). A field
# of another kind of value under one of these names (a count, a number of starts) is left alone:
# only text is a name.
NAME_FIELDS = frozenset(
    {"player", "a", "b", "other", "first", "second", "gone", "players", "pairs"}
)

LABELS = {"rr": "round robin", "fontes": "Initial Fontes group"}
# The words the specs write, for the catalog (and the separators "; " and " or ").
WORDS = (
    *LABELS.values(),
    "no rematches",
    "at most {repeats} of a pairing",
    "no bye",
    "{a} v {b}",
)


def _limit(n: int, tr: Translator) -> str:
    return tr.word("no rematches") if n == 0 else tr.counted(n, "repeat")


def _limit_words(n: int, tr: Translator) -> str:
    if n == 0:
        return tr.word("no rematches")
    return tr.word("at most {repeats} of a pairing").format(repeats=tr.counted(n, "repeat"))


def limit_words(n: int) -> str:
    """The repeat limit in English words: "no rematches", "at most 2 repeat(s) of a pairing"."""
    return _limit_words(n, translator("en"))


def _pair_text(pair: Any, tr: Translator) -> str:
    # A pair parsed from an old sentence is its text; a pair made now is [name, name].
    return pair if isinstance(pair, str) else tr.word("{a} v {b}").format(a=pair[0], b=pair[1])


_SPECS: dict[str, Spec] = {
    "ordinal": lambda n, tr: tr.ordinal(n),
    "limit": _limit,
    "limit_words": _limit_words,
    "byes": lambda n, tr: tr.word("no bye") if n == 0 else tr.counted(n, "bye"),
    "list": lambda names, tr: tr.join(names),
    "or": lambda numbers, tr: tr.separator(" or ").join(str(n) for n in numbers),
    "pairs": lambda pairs, tr: tr.join(_pair_text(p, tr) for p in pairs),
    "label": lambda name, tr: tr.word(LABELS[name]) if name in LABELS else name,
    "msg": lambda m, tr: _text(m, tr.lang),
    "msgs": lambda ms, tr: tr.separator("; ").join(_text(m, tr.lang) for m in ms),
}


_FORMATTER = SpecFormatter(_SPECS, translator("en"))


def render(code: str, params: Mapping[str, Any], lang: str | None = "en") -> str:
    """The sentence of a code and its parameters, in English or `lang` (``scoring.i18n``).
    Raises as `str.format` does when the parameters do not fit the template."""
    return write(f"pairing:{code}", TEMPLATES[code], params, _SPECS, lang)


def _text(m: Any, lang: str | None = "en") -> str:
    if not isinstance(m, Mapping):
        return str(m)
    # Stored data: a code this version does not know, or parameters it lacks, is shown as it is
    # rather than breaking the page it is on.
    code, params = str(m.get("code")), m.get("params", {})
    try:
        return render(code, params, lang)
    except (KeyError, IndexError, ValueError, TypeError, AttributeError):
        return f"{code}: {json.dumps(params, ensure_ascii=False, sort_keys=True, default=str)}"


class Message(str):
    """A sentence made from `code` and `params` by TEMPLATES; it keeps both."""

    code: str
    params: dict[str, Any]

    def __new__(cls, code: str, /, **params: Any) -> Message:
        self = super().__new__(cls, render(code, params))
        self.code = code
        self.params = params
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (self.code, self.params))

    def sides_swapped(self) -> Message:
        """This message with its two players' figures exchanged (`SIDES`), for the pair named the
        other way round; a message without such figures is itself."""
        sides = SIDES.get(self.code)
        if sides is None:
            return self
        x, y = sides
        return Message(self.code, **{**self.params, x: self.params[y], y: self.params[x]})

    def as_dict(self) -> dict[str, Any]:
        """The code and parameters as plain JSON values, nested messages as dicts."""
        return {"code": self.code, "params": _plain(self.params)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Message:
        return cls(data["code"], **data.get("params", {}))


def _rebuild(code: str, params: dict[str, Any]) -> Message:
    return Message(code, **params)


def _plain(value: Any) -> Any:
    if isinstance(value, Message):
        return value.as_dict()
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def legacy(text: str) -> dict[str, Any]:
    return {"code": "legacy", "params": {"text": text}}


# --------------------------------------------------------------------------- reading sentences

_NUMBER = r"-?\d+(?:\.\d+)?"


def _number(text: str) -> int | float:
    value = float(text)
    return int(value) if value == int(value) else value


def _scalar(text: str) -> Any:
    return int(text) if re.fullmatch(r"-?\d+", text) else text


def _noun_count(text: str) -> int:
    return int(text.split()[0])


def _none_or_count(zero: str) -> Callable[[str], int]:
    return lambda text: 0 if text == zero else int(re.findall(r"\d+", text)[0])


# spec -> (pattern, value from the matched text)
_READ: dict[str, tuple[str, Callable[[str], Any]]] = {
    "ordinal": (r"\d+(?:st|nd|rd|th)", lambda t: int(t[:-2])),
    "limit": (r"no rematches|\d+ repeat\(s\)", _none_or_count("no rematches")),
    "limit_words": (
        r"no rematches|at most \d+ repeat\(s\) of a pairing",
        _none_or_count("no rematches"),
    ),
    "byes": (r"no bye|\d+ bye\(s\)", _none_or_count("no bye")),
    "or": (r"\d+(?: or \d+)*", lambda t: [int(n) for n in t.split(" or ")]),
    "label": ("|".join(re.escape(v) for v in LABELS.values()), lambda t: _label_name(t)),
    "g": (_NUMBER, _number),
    "+d": (r"[+-]\d+", int),
}
# Fields of free text, read as a whole: names (which hold commas) and lists of them.
_FREE: dict[str, Callable[[str], Any]] = {
    "": _scalar,
    "list": lambda t: [t],
    "pairs": lambda t: [t],
}


def _label_name(text: str) -> str:
    return next(name for name, label in LABELS.items() if label == text)


# A field's reader gives its value and how much of the text it took as free text: the reading
# that takes the least is the one meant ("A v B: C goes first …" is a table line, not a player
# called "A v B: C").
_Reader = Callable[[str], tuple[Any, int]]


def _fixed(read: Callable[[str], Any]) -> _Reader:
    return lambda t: (read(t), 0)


def _free(read: Callable[[str], Any]) -> _Reader:
    return lambda t: (read(t), len(t))


def _nested(t: str) -> tuple[Any, int]:
    return _best(t)


def _nested_joined(t: str) -> tuple[Any, int]:
    return _joined(t)


def _pattern(template: str) -> tuple[re.Pattern[str], dict[str, _Reader]]:
    parts: list[str] = []
    readers: dict[str, _Reader] = {}
    for literal, name, spec, conversion in _FORMATTER.parse(template):
        parts.append(re.escape(literal))
        if name is None:
            continue
        if name in readers:  # the same field again: the same text
            parts.append(f"(?P={name})")
            continue
        spec = spec or ""
        if conversion == "r":
            pattern, reader = r".+?", _free(_literal)
        elif spec.startswith("#"):
            pattern, reader = rf"\d+ {re.escape(spec[1:])}\(s\)", _fixed(_noun_count)
        elif spec == "msg":
            pattern, reader = r".+?", _nested
        elif spec == "msgs":
            pattern, reader = r".+", _nested_joined
        elif spec in _FREE:
            pattern, reader = r".+?", _free(_FREE[spec])
        else:
            pattern, reader = _READ[spec][0], _fixed(_READ[spec][1])
        parts.append(f"(?P<{name}>{pattern})")
        readers[name] = reader
    return re.compile("".join(parts), re.DOTALL), readers


def _literal(text: str) -> Any:
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text


_PATTERNS = {code: _pattern(t) for code, t in TEMPLATES.items() if code != "legacy"}


def _best(text: str) -> tuple[dict[str, Any], int]:
    best: tuple[dict[str, Any], int] = (legacy(text), len(text) + 1)
    for code, (pattern, readers) in _PATTERNS.items():
        match = pattern.fullmatch(text)
        if match is None:
            continue
        try:
            read = {name: reader(match.group(name)) for name, reader in readers.items()}
        except (ValueError, KeyError, IndexError, TypeError, StopIteration):
            continue
        params = {name: value for name, (value, _) in read.items()}
        free = sum(taken for _, taken in read.values())
        if free < best[1] and render(code, params) == text:
            best = ({"code": code, "params": params}, free)
    return best


def _joined(text: str, separator: str = "; ") -> tuple[list[dict[str, Any]], int]:
    pieces = text.split(separator)
    # best[end]: the reading of pieces[:end] taking the least free text
    best: dict[int, tuple[list[dict[str, Any]], int]] = {0: ([], 0)}
    for end in range(1, len(pieces) + 1):
        for start in range(end):
            if start not in best:
                continue
            found, free = _best(separator.join(pieces[start:end]))
            candidate = ([*best[start][0], found], best[start][1] + free)
            if end not in best or candidate[1] < best[end][1]:
                best[end] = candidate
    return best[len(pieces)]


def parse(text: str) -> dict[str, Any]:
    """The code and parameters a sentence was written from (as `Message.as_dict()` gives
    them), or a `legacy` message keeping the text when no template writes it exactly."""
    return _best(text)[0]


def parse_joined(text: str, separator: str = "; ") -> list[dict[str, Any]]:
    """Sentences joined by `separator` (some of which may hold it themselves), read back."""
    return _joined(text, separator)[0]


# --------------------------------------------------------------------------- names marked

# "Smith, Al (3rd, 5-2 +310)": a name, then its place and record (`Field.describe`).
_DESCRIBED = re.compile(r"(?P<name>.+) (?P<rest>\(\d+(?:st|nd|rd|th), -?[\d.]+-[\d.]+ [+-]\d+\))")
# The name fields each template writes as they are (not `!r`, not through a number's spec).
_NAMED: dict[str, frozenset[str]] = {
    code: frozenset(
        name
        for _, name, spec, conversion in _FORMATTER.parse(template)
        if name in NAME_FIELDS and conversion is None and spec in ("", None, "list", "pairs")
    )
    for code, template in TEMPLATES.items()
}


def with_names(
    stored: Mapping[str, Any], name: Callable[[str], str], rest: Callable[[str], str]
) -> dict[str, Any]:
    """A stored message (`as_dict()`) with every player's name in it (nested messages' too)
    passed through `name`, and the place and record that follow a described name through
    `rest`: how a page isolates each name of a sentence in its own direction."""
    code = str(stored.get("code"))
    params = stored.get("params", {})
    if not isinstance(params, Mapping):
        return dict(stored)
    named = _NAMED.get(code, frozenset())

    def one(text: str) -> str:
        match = _DESCRIBED.fullmatch(text)
        if match is None:
            return name(text)
        return f"{name(match['name'])} {rest(match['rest'])}"

    def value(key: str, v: Any) -> Any:
        if isinstance(v, Mapping) and "code" in v:
            return with_names(v, name, rest)
        if isinstance(v, list) and v and all(isinstance(m, Mapping) and "code" in m for m in v):
            return [with_names(m, name, rest) for m in v]
        if key not in named:
            return v
        if isinstance(v, str):
            return one(v)
        if isinstance(v, list):  # names, or pairs of names
            return [value(key, x) for x in v]
        return v

    return {**stored, "params": {k: value(k, v) for k, v in params.items()}}


def render_all(
    messages: Iterable[Mapping[str, Any]],
    lang: str | None = "en",
    *,
    names: tuple[Callable[[str], str], Callable[[str], str]] | None = None,
) -> list[str]:
    """Stored messages (dicts) as their sentences, in English or `lang`; with `names`, each
    name and described record marked as `with_names` does."""
    if names is None:
        return [_text(m, lang) for m in messages]
    return [_text(with_names(m, *names), lang) for m in messages]
