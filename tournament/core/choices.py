"""The rulesets and the rating systems in words, in the reader's language: the choices a director
picks from at the desk (a new tournament's divisions, a division added, a division's settings).

A ruleset is described from what it does, read from its file (`scoring.rules.load_rules`): the
challenge, going out, the game's other ending and the clock. A change to a ruleset's file
changes its words with it; a ruleset added to `scoring/data/rules/` is described by the same
rules under its own name.
"""

from __future__ import annotations

from django.utils.translation import gettext, gettext_noop, ngettext

from scoring.rules import Ruleset, builtin_rulesets, load_rules
from tournament.core.sentences import isolate
from tournament.engine.ratings import rating_system_names

# The rulesets' names; "home" names its players (from its file) in `ruleset_title`.
_RULESET_TITLES = {
    "naspa": gettext_noop("North American (NASPA)"),
    "wespa": gettext_noop("International (WESPA)"),
}

# Each rating system Spread computes (`tournament/engine/ratings.py`), its code kept in view: it
# is the name config.tsh and the reports use.
RATING_SYSTEMS = {
    "nsa2008": gettext_noop("NASPA 2008 (nsa2008): NASPA's ratings, as TSH computes them"),
    "naspa-csw": gettext_noop(
        "NASPA Collins (naspa-csw): NASPA 2008's formula without its floor of 1"
    ),
}


def ruleset_title(rules: Ruleset) -> str:
    if rules.name in _RULESET_TITLES:
        return gettext(_RULESET_TITLES[rules.name])
    if rules.name == "home":
        players = isolate(f"{rules.min_players}–{rules.max_players}")
        return gettext("Home rules (%(players)s players)") % {"players": players}
    return rules.name


def ruleset_words(rules: Ruleset) -> list[str]:
    """What the ruleset does, a phrase a setting: the challenge, going out, the other ending
    of a game, the clock."""
    words = []
    if rules.challenge == "double":
        words.append(gettext("double challenge"))
    elif rules.challenge == "penalty":
        words.append(
            ngettext(
                "%(count)s point a word for a wrong challenge",
                "%(count)s points a word for a wrong challenge",
                rules.challenge_points,
            )
            % {"count": rules.challenge_points}
        )
    else:
        words.append(gettext("the challenge bonus as the record shows it"))
    two = rules.max_players == 2
    if rules.end_out == "double":
        words.append(
            gettext("going out gains twice the opponent's rack")
            if two
            else gettext("going out gains twice the others' racks")
        )
    elif rules.end_out == "transfer":
        words.append(
            gettext("going out gains the opponent's rack and the opponent loses it")
            if two
            else gettext("going out gains the others' racks and each loses their own")
        )
    else:
        words.append(gettext("going out scored as the record scores it"))
    if rules.scoreless_turns:
        words.append(
            ngettext(
                "%(count)s scoreless turn ends the game",
                "%(count)s scoreless turns in a row end the game",
                rules.scoreless_turns,
            )
            % {"count": rules.scoreless_turns}
        )
    if rules.pass_rounds:
        words.append(
            ngettext(
                "the game ends when every player has passed %(count)s time in a row",
                "the game ends when every player has passed %(count)s times in a row",
                rules.pass_rounds,
            )
            % {"count": rules.pass_rounds}
        )
    if rules.time_penalty_per_minute:
        words.append(
            ngettext(
                "%(count)s point a minute over time",
                "%(count)s points a minute over time",
                rules.time_penalty_per_minute,
            )
            % {"count": rules.time_penalty_per_minute}
        )
    else:
        words.append(gettext("no clock"))
    return words


def ruleset_label(name: str) -> str:
    """The ruleset's name and what it does: "North American (NASPA): double challenge, …"."""
    rules = load_rules(name)
    return gettext("%(name)s: %(rules)s") % {
        "name": ruleset_title(rules),
        "rules": ", ".join(ruleset_words(rules)),
    }


def ruleset_choices() -> list[tuple[str, str]]:
    """The built-in rulesets a division may play under (not `auto`, which is for checking a
    record by its own conventions), each described: the two-player ones first."""
    found = [load_rules(name) for name in builtin_rulesets() if name != "auto"]
    found.sort(key=lambda rules: (rules.max_players > 2, rules.name))
    return [(rules.name, ruleset_label(rules.name)) for rules in found]


def rating_system_label(name: str) -> str:
    text = RATING_SYSTEMS.get(name)
    return gettext(text) if text else name


def rating_system_choices() -> list[tuple[str, str]]:
    """Every rating system Spread computes, described: in RATING_SYSTEMS' order (NASPA's own
    first), then any other by name."""
    order = list(RATING_SYSTEMS)
    names = sorted(
        rating_system_names(), key=lambda n: (order.index(n) if n in order else len(order), n)
    )
    return [(name, rating_system_label(name)) for name in names]


# The demo tournament's slug (`manage.py loaddemo`): the one tournament a director may delete
# from the desk.
DEMO_SLUG = "demo"

# What a division's hall display may be pinned to show (`Division.display_pin`).
DISPLAY_VIEWS = ("pairings", "standings", "results")
