"""The pairing systems' one-line descriptions in the reader's language.

The pairing engine (`engine/pairing/registry.py`) keeps each system's English description; the
desk shows it through Django's catalog from here. A test holds these in step with the registry,
so a system's description is changed in both places or the suite fails.
"""

from __future__ import annotations

from django.utils.translation import gettext, gettext_noop

from tournament.engine.pairing.registry import REGISTRY

DESCRIPTIONS: dict[str, str] = {
    "swiss": gettext_noop(
        "Swiss: players on the same wins meet, the top half of each group against the bottom "
        "half, by minimum-weight matching; rematches avoided, up to the repeat limit"
    ),
    "koth": gettext_noop(
        "King of the hill: 1 v 2, 3 v 4 … in the standings, stepping around rematches"
    ),
    "rr": gettext_noop(
        "Round robin: a fixed Berger table from the round the block starts (a bye for an odd "
        "number of players)"
    ),
    "rr2": gettext_noop(
        "Double round robin: the Berger table twice, who goes first swapped the second time"
    ),
    "fontes": gettext_noop(
        "Initial Fontes: groups of N+1 players, one from each band of seeds, play a round robin "
        "in the first N rounds"
    ),
    "factor": gettext_noop(
        "Factor pairing: opponents as near to F places apart as possible (1 v 1+F …); option "
        "`factor`, 2 by default"
    ),
    "cp": gettext_noop(
        "Contention pairing (Chew pairings): players who can still reach a prize band play each "
        "other, the top pairs first; the rest are paired Swiss"
    ),
    "cop": gettext_noop(
        "COP (Woogles' contention pairing by simulation): the rounds left simulated to find who "
        "can still win what; the last round king of the hill among the cashers, the leader "
        "against the lowest contender they have lost control to, the rest by minimum-weight "
        "matching"
    ),
    "australian": gettext_noop(
        "Australian draw: round 1 top half v bottom half; then the top remaining player meets "
        "the highest-placed player they have not met"
    ),
    "teamrr": gettext_noop(
        "Team round robin: each team's players meet every player of every other team, the "
        "opposing teams interleaved (Woogles' option); teams from same-team avoidance"
    ),
    "manual": gettext_noop("Manual: the director pairs; the pairings are only checked"),
}


def description(name: str) -> str:
    """The system's description in the active language (the engine's English for a system
    added to the registry and not yet here)."""
    english = REGISTRY[name].description
    return gettext(english) if DESCRIPTIONS.get(name) == english else english


def descriptions(names: list[str] | None = None) -> dict[str, str]:
    """name → description, in the registry's order."""
    return {name: description(name) for name in (names or list(REGISTRY))}
