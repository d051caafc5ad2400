"""Pairing: players, results and rules in; a round's pairings, with their reasons, out.

Plain data only: no Django, no database. The systems (`registry.REGISTRY`) are Swiss by
minimum-weight matching, king of the hill, round robins on Berger tables, Initial Fontes,
factor pairing, contention pairing for the last rounds (tsh's Chew pairings), Woogles' COP
(the last rounds paired by simulating them), the Australian draw, and manual pairing, which is
only checked. Gibsonization, byes, repeats and forbidden
pairs are handled the same way in every system that pairs from the standings
(`shared/reference/tsh.md` §3-6).
"""

from __future__ import annotations

from tournament.engine.pairing.core import assign_firsts, check_pairings, pair_round
from tournament.engine.pairing.model import (
    Pairing,
    PairingError,
    PairingResult,
    PairingRules,
    PairingWarning,
)
from tournament.engine.pairing.registry import REGISTRY, SYSTEMS, System
from tournament.engine.pairing.roundrobin import berger_round
from tournament.engine.pairing.schedule import (
    Schedule,
    ScheduleEntry,
    parse_schedule,
    schedule_from_autopair,
)

__all__ = [
    "REGISTRY",
    "SYSTEMS",
    "System",
    "Pairing",
    "PairingError",
    "PairingResult",
    "PairingRules",
    "PairingWarning",
    "Schedule",
    "ScheduleEntry",
    "assign_firsts",
    "berger_round",
    "check_pairings",
    "pair_round",
    "parse_schedule",
    "schedule_from_autopair",
]
