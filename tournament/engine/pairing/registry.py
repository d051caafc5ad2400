"""Every pairing system in one place: its name, what it does, the options it takes and the tsh
`autopair` commands that stand for it.

Adding a system is one `System` entry in REGISTRY: `pair_round` runs its `pair`, schedules and
the desk accept its name and check its options, the `pair` command offers it, and its tsh
commands are read from `autopair` lines by its `from_tsh`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from tournament.engine.pairing.cop import OPTIONS as COP_OPTIONS
from tournament.engine.pairing.cop import pair_cop
from tournament.engine.pairing.draft import Draft
from tournament.engine.pairing.history import Field
from tournament.engine.pairing.messages import Message
from tournament.engine.pairing.model import PairingError
from tournament.engine.pairing.roundrobin import pair_fontes, pair_round_robin
from tournament.engine.pairing.systems import (
    pair_australian,
    pair_contention,
    pair_factor,
    pair_koth,
    pair_swiss,
)
from tournament.engine.pairing.teamrr import pair_team_round_robin

# Options every system takes: they tune the shared steps (matching, repeats, the checks).
COMMON_OPTIONS: Mapping[str, str] = MappingProxyType(
    {
        "relax_repeats": "go over the repeat limit, fewest repeats first, rather than refuse",
        "neighbours": "how many nearby players the matching considers for each (8)",
        "rank_gap_wins": "warn about a pair this many wins apart or more (2)",
    }
)
SWISS_OPTIONS: Mapping[str, str] = MappingProxyType(
    {"swiss_priority": "'wins' (default) or 'repeats': which a Swiss keeps first"}
)

# A tsh autopair command's numbers (the division name left out) -> schedule entry fields:
# "system", "repeats", any option, "source" (the round whose results are used; the autopair
# line's own when absent) and "span" (rounds covered from the target: a number, or None for
# "to the next entry").
TshArgs = Callable[[list[int]], dict[str, Any]]


def _need(command: str, numbers: list[int], count: int, wanted: str) -> None:
    if len(numbers) < count:
        raise ValueError(f"autopair: {command} wants {wanted}, got {numbers}")


def _swiss_args(numbers: list[int]) -> dict[str, Any]:
    _need("swiss", numbers, 2, "Repeats BasedOnRound")
    return {"system": "swiss", "repeats": numbers[0], "source": numbers[1]}


def _koth_args(numbers: list[int]) -> dict[str, Any]:
    _need("koth", numbers, 2, "Repeats [Since] BasedOnRound")
    entry: dict[str, Any] = {"system": "koth", "repeats": numbers[0], "source": numbers[-1]}
    if len(numbers) >= 3:
        entry["since"] = numbers[1]
    return entry


def _cp_args(numbers: list[int]) -> dict[str, Any]:
    _need("cp", numbers, 1, "BasedOnRound")
    return {"system": "cp", "source": numbers[0]}


def _factor_args(numbers: list[int]) -> dict[str, Any]:
    _need("fp", numbers, 3, "Factor Repeats BasedOnRound")
    return {"system": "factor", "factor": numbers[0], "repeats": numbers[1], "source": numbers[2]}


def _fontes_args(numbers: list[int]) -> dict[str, Any]:
    _need("if", numbers, 1, "NumberOfRounds")
    return {"system": "fontes", "span": numbers[0]}


def _rr_args(numbers: list[int]) -> dict[str, Any]:
    times = numbers[0] if numbers else 1
    return {"system": "rr2" if times >= 2 else "rr", "span": None}


def _manual(fld: Field) -> Draft:
    draft = Draft()
    draft.notes.append(Message("manual", round=fld.round_number))
    return draft


@dataclass(frozen=True)
class System:
    name: str
    description: str
    pair: Callable[[Field], Draft]
    options: Mapping[str, str] = field(default_factory=dict)  # its own, besides COMMON_OPTIONS
    tsh: tuple[str, ...] = ()  # tsh autopair commands read as this system
    from_tsh: TshArgs | None = None
    from_standings: bool = True  # False: a fixed table, counted from the entry's first round
    # True: too costly to run inside a write (simulations): paired when the director asks,
    # never by the division itself when results come in.
    on_demand: bool = False

    def allowed_options(self) -> dict[str, str]:
        return {**COMMON_OPTIONS, **self.options}


_START = {"start": "the round the table starts (the schedule entry's first round)"}

REGISTRY: Mapping[str, System] = MappingProxyType(
    {
        s.name: s
        for s in (
            System(
                "swiss",
                "Swiss: players on the same wins meet, the top half of each group against the "
                "bottom half, by minimum-weight matching; rematches avoided, up to the repeat "
                "limit",
                pair_swiss,
                SWISS_OPTIONS,
                tsh=("ns", "newswiss", "sw", "swiss"),
                from_tsh=_swiss_args,
            ),
            System(
                "koth",
                "King of the hill: 1 v 2, 3 v 4 … in the standings, stepping around rematches",
                pair_koth,
                {"since": "tsh's Since argument, read from autopair lines and not used"},
                tsh=("koth",),
                from_tsh=_koth_args,
            ),
            System(
                "rr",
                "Round robin: a fixed Berger table from the round the block starts (a bye for an "
                "odd number of players)",
                lambda fld: pair_round_robin(fld, double=False),
                _START,
                tsh=("rr", "roundrobin"),
                from_tsh=_rr_args,
                from_standings=False,
            ),
            System(
                "rr2",
                "Double round robin: the Berger table twice, who goes first swapped the second "
                "time",
                lambda fld: pair_round_robin(fld, double=True),
                _START,
                from_standings=False,
            ),
            System(
                "fontes",
                "Initial Fontes: groups of N+1 players, one from each band of seeds, play a round "
                "robin in the first N rounds",
                pair_fontes,
                {
                    **_START,
                    "rounds": "how many rounds the groups play (the entry's rounds)",
                    "draw": "'straight' (default), 'snaked' or 'random': how bands make groups",
                    "seed": "the random draw's seed",
                },
                tsh=("if", "initfontes"),
                from_tsh=_fontes_args,
                from_standings=False,
            ),
            System(
                "factor",
                "Factor pairing: opponents as near to F places apart as possible (1 v 1+F …); "
                "option `factor`, 2 by default",
                pair_factor,
                {"factor": "how many places apart opponents are (2)"},
                tsh=("fp", "factorpair"),
                from_tsh=_factor_args,
            ),
            System(
                "cp",
                "Contention pairing (Chew pairings): players who can still reach a prize band "
                "play each other, the top pairs first; the rest are paired Swiss",
                pair_contention,
                {
                    "flight_cap": "most contenders paired among themselves (none: no cap)",
                    **SWISS_OPTIONS,
                },
                tsh=("cp", "chewpair"),
                from_tsh=_cp_args,
            ),
            System(
                "cop",
                "COP (Woogles' contention pairing by simulation): the rounds left simulated to "
                "find who can still win what; the last round king of the hill among the "
                "cashers, the leader against the lowest contender they have lost control to, "
                "the rest by minimum-weight matching",
                pair_cop,
                COP_OPTIONS,
                on_demand=True,
            ),
            System(
                "australian",
                "Australian draw: round 1 top half v bottom half; then the top remaining player "
                "meets the highest-placed player they have not met",
                pair_australian,
                {"reset_round": "meetings before this round do not count as repeats (1)"},
            ),
            System(
                "teamrr",
                "Team round robin: each team's players meet every player of every other team, "
                "the opposing teams interleaved (Woogles' option); teams from same-team "
                "avoidance",
                pair_team_round_robin,
                {**_START, "interleave": "'yes' (default) or 'no': a team met k rounds running"},
                from_standings=False,
            ),
            System(
                "manual",
                "Manual: the director pairs; the pairings are only checked",
                _manual,
            ),
        )
    }
)

# name -> description, for forms and the documentation.
SYSTEMS: Mapping[str, str] = MappingProxyType({s.name: s.description for s in REGISTRY.values()})
_BY_TSH = {alias: s for s in REGISTRY.values() for alias in s.tsh}


def get(name: str) -> System:
    """The system called `name`; PairingError, listing the known ones, when there is none."""
    try:
        return REGISTRY[name]
    except KeyError:
        known = ", ".join(REGISTRY)
        raise PairingError(f"there is no pairing system {name!r} (known: {known})") from None


def by_tsh_command(command: str) -> System:
    """The system a tsh `autopair` command stands for (ValueError when Spread has none)."""
    try:
        return _BY_TSH[command.lower()]
    except KeyError:
        raise ValueError(
            f"autopair: tsh's {command!r} command has no pairing system here"
        ) from None


def check_options(system: System, options: Mapping[str, Any]) -> None:
    """PairingError naming an option the system does not take, and the ones it does."""
    allowed = system.allowed_options()
    unknown = sorted(set(options) - set(allowed))
    if unknown:
        raise PairingError(
            f"{system.name} takes no option {', '.join(repr(o) for o in unknown)} "
            f"(its options: {', '.join(allowed)})"
        )


def automatic() -> list[str]:
    """The systems that pair by themselves (all but manual), for choices."""
    return [name for name in REGISTRY if name != "manual"]
