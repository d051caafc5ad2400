"""COP's request and what its simulations tell the pairing (Woogles' pkg/pair/copdata): the
options, checked and refused as Woogles refuses them; each player's hopeful, best and worst
places; the lowest contender the leader has lost control to; the factor-3 test of the
second-to-last round."""

from __future__ import annotations

import math
import random
import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tournament.engine.pairing.cop_sim import Sim, SimResults
from tournament.engine.pairing.history import Field
from tournament.engine.pairing.messages import Message
from tournament.engine.pairing.model import PairingError
from tournament.engine.standings import PlayerId

MIN_SIMS = 1000  # Woogles' desk refuses fewer simulations

# Woogles' pair request fields, in snake case, with what they mean here (the system's options).
OPTIONS: Mapping[str, str] = {
    "rounds": "rounds in the event (the division's number of rounds)",
    "place_prizes": "how many places win a prize (4)",
    "class_prizes": "prizes of each class: a list, class 1 first (none)",
    "player_classes": "each player's class, 1 for class 1 … (a player by number or name: "
    "class; the rest 0)",
    "gibson_spread": "the most spread a game is counted to swing, or a list from the last round "
    "backwards ([250, 200])",
    "control_loss_threshold": "how much more often a contender must win the event playing the "
    "leader for the leader to have lost control (0.3)",
    "hopefulness_threshold": "the chance of a place that makes a player hopeful of it, or a list "
    "from the last round backwards ([0.1, 0.1, 0.05, 0.02, 0.01])",
    "division_sims": "simulations of the rounds left (100000; at least 1000)",
    "control_loss_sims": "simulations for each control-loss test (10000; at least 1000)",
    "control_loss_activation_round": "the first round control loss may pair the leader (3 "
    "rounds before the last)",
    "allow_repeat_byes": "whether a player may have a second bye without penalty (false)",
    "top_down_byes": "give the bye to the highest-placed player with the fewest byes (false)",
    "seed": "the simulations' seed (0: one made from the names and the round)",
    "prepaired": "pairs made by hand before COP pairs the rest: [[a, b], [c, null] …]",
}

DEFAULTS: Mapping[str, Any] = {
    "place_prizes": 4,
    "class_prizes": [],
    "player_classes": {},
    "gibson_spread": [250, 200],
    "control_loss_threshold": 0.3,
    "hopefulness_threshold": [0.1, 0.1, 0.05, 0.02, 0.01],
    "division_sims": 100000,
    "control_loss_sims": 10000,
    "allow_repeat_byes": False,
    "top_down_byes": False,
    "seed": 0,
    "prepaired": [],
}


@dataclass(frozen=True)
class CopParams:
    """A COP request for one round, checked."""

    rounds: int
    place_prizes: int
    class_prizes: tuple[int, ...]
    player_classes: Mapping[PlayerId, int]
    gibson_spread: int
    control_loss_threshold: float
    hopefulness_threshold: float
    division_sims: int
    control_loss_sims: int
    control_loss_activation_round: int  # 1-based
    allow_repeat_byes: bool
    top_down_byes: bool
    seed: int
    prepaired: tuple[tuple[PlayerId, PlayerId | None], ...]


def _from_end(value: Any, rounds_after: int) -> Any:
    if isinstance(value, (list, tuple)):
        if not value:
            raise PairingError("COP: an empty list where a number or list of numbers is wanted")
        return value[min(rounds_after, len(value) - 1)]
    return value


def _number(name: str, value: Any, kind: type) -> Any:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise PairingError(f"COP: {name} should be a number, not {value!r}")
    if kind is int and value != int(value):
        raise PairingError(f"COP: {name} should be a whole number, not {value!r}")
    return kind(value)


def read_params(fld: Field) -> CopParams:
    """The options of the request with Woogles' defaults, refused as Woogles refuses them."""
    options = {**DEFAULTS, **fld.rules.options}
    rounds = options.get("rounds", fld.rules.rounds_total)
    if rounds is None:
        raise PairingError("COP needs the number of rounds in the event (rounds)")
    rounds = _number("rounds", rounds, int)
    if rounds < 1:
        raise PairingError(f"COP needs at least one round in the event, not {rounds}")
    if len(fld.active) < 2:
        raise PairingError(f"COP needs at least two players, not {len(fld.active)}")
    if fld.round_number > rounds:
        raise PairingError(
            f"all {rounds} rounds of the event are paired: there is no round {fld.round_number}"
        )
    after = rounds - fld.round_number
    gibson = _number("gibson_spread", _from_end(options["gibson_spread"], after), int)
    if gibson < 0:
        raise PairingError(f"COP: the Gibson spread cannot be negative ({gibson})")
    hope = _number(
        "hopefulness_threshold", _from_end(options["hopefulness_threshold"], after), float
    )
    if not 0 < hope <= 1:
        raise PairingError(
            f"COP: the hopefulness threshold should be above 0 and at most 1, not {hope:g}"
        )
    control = _number("control_loss_threshold", options["control_loss_threshold"], float)
    if not 0 <= control <= 1:
        raise PairingError(
            f"COP: the control loss threshold should be between 0 and 1, not {control:g}"
        )
    sims = {}
    for name in ("division_sims", "control_loss_sims"):
        sims[name] = _number(name, options[name], int)
        if sims[name] < MIN_SIMS:
            raise PairingError(
                f"COP: {sims[name]} {name.replace('_', ' ')} are too few; at least {MIN_SIMS}"
            )
    places = _number("place_prizes", options["place_prizes"], int)
    if not 1 <= places <= len(fld.active):
        raise PairingError(
            f"COP: {places} place prizes in a division of {len(fld.active)} players; there "
            f"should be between 1 and {len(fld.active)}"
        )
    if not isinstance(options["class_prizes"], (list, tuple)):
        raise PairingError("COP: class_prizes should be a list of numbers, class 1's first")
    class_prizes = tuple(_number("class_prizes", c, int) for c in options["class_prizes"])
    for c in class_prizes:
        if c < 1:
            raise PairingError(f"COP: a class should have at least one prize, not {c}")
    classes = _player_classes(fld, options["player_classes"], len(class_prizes))
    activation = options.get("control_loss_activation_round", max(rounds - 3, 1))
    activation = _number("control_loss_activation_round", activation, int)
    if activation < 1:
        raise PairingError(
            f"COP: control loss cannot start before round 1 (control_loss_activation_round "
            f"{activation})"
        )
    seed = _number("seed", options["seed"], int)
    if seed == 0:
        names = "\n".join(fld.name(p) for p in fld.active)
        seed = zlib.crc32(names.encode()) + fld.round_number
    return CopParams(
        rounds=rounds,
        place_prizes=places,
        class_prizes=class_prizes,
        player_classes=classes,
        gibson_spread=gibson,
        control_loss_threshold=control,
        hopefulness_threshold=hope,
        division_sims=sims["division_sims"],
        control_loss_sims=sims["control_loss_sims"],
        control_loss_activation_round=activation,
        allow_repeat_byes=bool(options["allow_repeat_byes"]),
        top_down_byes=bool(options["top_down_byes"]),
        seed=seed,
        prepaired=_prepaired(fld, options["prepaired"]),
    )


def _player(fld: Field, key: Any) -> PlayerId:
    if key in fld.by_id:
        return key  # type: ignore[no-any-return]
    for p in fld.players:
        if str(p.id) == str(key) or p.name == key:
            return p.id
    raise PairingError(f"COP: {key!r} is not a player of this division")


def _player_classes(fld: Field, given: Any, count: int) -> dict[PlayerId, int]:
    if not isinstance(given, Mapping):
        raise PairingError("COP: player_classes should map players to their class numbers")
    out: dict[PlayerId, int] = {}
    for key, value in given.items():
        pid = _player(fld, key)
        cls = _number("player_classes", value, int)
        if not 0 <= cls <= count:
            raise PairingError(
                f"COP: {fld.name(pid)}'s class {cls} is not one of the {count} classes with "
                "prizes (0 for none)"
            )
        out[pid] = cls
    return out


def _prepaired(fld: Field, given: Any) -> tuple[tuple[PlayerId, PlayerId | None], ...]:
    out: list[tuple[PlayerId, PlayerId | None]] = []
    seen: set[PlayerId] = set()
    shape = "COP: prepaired should be a list of pairs, [a, b] or [a, null] for a bye"
    if not isinstance(given, (list, tuple)):
        raise PairingError(shape)
    for pair in given:
        if not isinstance(pair, (list, tuple)) or not 1 <= len(pair) <= 2:
            raise PairingError(shape)
        a = _player(fld, pair[0])
        b = None if len(pair) < 2 or pair[1] is None else _player(fld, pair[1])
        if b == a:
            b = None  # paired with themselves: a bye
        for who in (a, b):
            if who is None:
                continue
            if who in seen:
                raise PairingError(f"COP: {fld.name(who)} is paired by hand twice")
            if who not in fld.active:
                raise PairingError(f"COP: {fld.name(who)} is paired by hand but does not play")
            seen.add(who)
        out.append((a, b))
    return tuple(out)


# --------------------------------------------------------------------------- what the runs say


@dataclass
class Precomp:
    """What the simulations tell the pairing, indexed by place in the standings (rank)."""

    sim: Sim
    order: list[PlayerId]  # the player in each place
    results: SimResults
    hopeful: list[int]  # the best place reached in at least the threshold's share of runs
    highest: list[int]  # the best place reached at all
    lowest: list[int]  # the worst place reached at all
    lowest_hope_nth: list[int]  # for each place, the lowest player hopeful of it or better
    destinys_child: int  # the lowest contender the leader has lost control to; -1 none
    control: SimResults | None
    initial_factor: int
    max_factor: int


def precompute(fld: Field, params: CopParams, rng: random.Random) -> Precomp:
    players = fld.active
    rounds_left = params.rounds - fld.based_on
    sim = Sim(
        [round(2 * fld.wins(p)) for p in players],
        [fld.spread(p) for p in players],
        rounds_left=rounds_left,
        gibson_spread=params.gibson_spread,
        place_prizes=params.place_prizes,
        rng=rng,
    )
    order = [players[i] for i in sim.order()]
    n = len(order)
    initial = sim.factor_runs(
        params.division_sims, rounds_left, hopefulness=params.hopefulness_threshold
    )
    assert initial is not None
    top = next((r for r, g in enumerate(initial.gibsonized[:n]) if not g), 0)
    # 1st's factor opponents who never took first in the runs need not play first: the
    # largest factor is how far down players reached the top contender's place.
    max_factor = 0
    for r in range(top + 1, n):
        if initial.final_ranks[r][top] == 0:
            break
        max_factor += 1
    group = initial.gibson_groups[top]
    size = 0
    for r in range(top, n):
        if initial.gibson_groups[r] != group:
            break
        size += 1
    results = initial
    if max_factor * 2 < size:
        better = sim.factor_runs(
            params.division_sims,
            max_factor,
            initial.segment_factors,
            hopefulness=params.hopefulness_threshold,
        )
        if better is not None:
            results = better
    wanted = math.floor(results.total * params.hopefulness_threshold + 0.5)
    hopeful, highest, lowest = [], [], []
    for r in range(n):
        row = results.final_ranks[r]
        total, hope, best = 0, n - 1, n - 1
        for place in range(n):
            if total == 0 and row[place] > 0:
                best = place
            total += row[place]
            if total >= wanted:
                hope = place
                break
        hopeful.append(hope)
        highest.append(best)
        lowest.append(max((p for p in range(n) if row[p] > 0), default=0))
    lowest_hope_nth = [0] * n
    previous = 0
    for r, place in enumerate(hopeful):
        if r > lowest_hope_nth[place]:
            lowest_hope_nth[place] = r
        for i in range(previous + 1, place):
            lowest_hope_nth[i] = r - 1
        previous = place
    for i in range(previous + 1, n):
        lowest_hope_nth[i] = n - 1
    control = None
    child = -1
    if (
        fld.round_number >= params.control_loss_activation_round
        and not results.gibsonized[0]
        and rounds_left > 1
        and max_factor > 0
    ):
        control = sim.control_loss(
            params.control_loss_sims,
            max_factor,
            lowest_hope_nth[0],
            params.control_loss_threshold,
        )
        child = control.lowest_control_loss
    return Precomp(
        sim,
        order,
        results,
        hopeful,
        highest,
        lowest,
        lowest_hope_nth,
        child,
        control,
        rounds_left,
        max_factor,
    )


# --------------------------------------------------------------------------- factor 3


@dataclass
class Forced:
    pairs: list[tuple[int, int]]
    reason: Message


def factor3(fld: Field, params: CopParams, pre: Precomp) -> Forced | None:
    """In the second-to-last round, 1 v 4, 2 v 5 and 3 v 6 when 4th-6th can each hopefully
    reach 1st-3rd; but 1st plays 2nd (or 3rd) when factor 3 would cost them control."""
    sim = pre.sim
    n = len(pre.order)
    if pre.initial_factor != 2 or n < 6:
        return None
    size = n + n % 2
    first_round = [0, 3, 1, 4, 2, 5]
    rest = (size - 6) // 2
    for i in range(rest):
        first_round += [6 + i, 6 + i + rest]
    plan = [first_round, list(range(size))]
    final, total = sim.runs_with(params.division_sims, plan)
    sims = params.control_loss_sims
    leader = fld.name(pre.order[0])
    for rank in (1, 2):
        vs_first = sim.force_winner_runs(plan, rank, sims, True)
        vs_factor = sim.force_winner_runs(plan, rank, sims, False)
        if vs_first - vs_factor >= params.control_loss_threshold * sims:
            why = Message(
                "cop_factor3_control",
                player=fld.name(pre.order[rank]),
                leader=leader,
                vs_first=percent(vs_first, sims),
                vs_factor=percent(vs_factor, sims),
            )
            return Forced([(0, rank)], why)
    wanted = math.floor(total * params.hopefulness_threshold + 0.5)
    if final[3][0] < wanted or final[4][1] < wanted or final[5][2] < wanted:
        return None
    why = Message(
        "cop_factor3",
        fourth=percent(final[3][0], total),
        fifth=percent(final[4][1], total),
        sixth=percent(final[5][2], total),
    )
    return Forced([(0, 3), (1, 4), (2, 5)], why)


def percent(count: int, total: int) -> float:
    return round(100 * count / total, 1) if total else 0.0
