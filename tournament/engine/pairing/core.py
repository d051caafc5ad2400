"""`pair_round`, `check_pairings` and `assign_firsts`: the engine's three entry points."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from tournament.engine.pairing import registry
from tournament.engine.pairing.contention import best_finishes, gibsons
from tournament.engine.pairing.firsts import order_pair
from tournament.engine.pairing.history import Field, build_field
from tournament.engine.pairing.messages import Message
from tournament.engine.pairing.model import (
    Pairing,
    PairingError,
    PairingResult,
    PairingRules,
    PairingWarning,
)
from tournament.engine.standings import Game, Player, PlayerId

RANK_GAP_WINS = 2  # a pair whose wins differ by this much or more is pointed out


def pair_round(
    players: Sequence[Player],
    rounds: Sequence[Iterable[Game]],
    round_number: int,
    system: str,
    rules: PairingRules = PairingRules(),  # noqa: B008 - frozen, so one shared default is safe
    *,
    paired: Sequence[Iterable[Game]] = (),
) -> PairingResult:
    """Pair round `round_number` by `system` (a name in `registry.REGISTRY`).

    `rounds` are the results of rounds 1..S, the standings the pairing is based on;
    `paired` the pairings already made, without results, for rounds S+1..R-1: they count for
    repeats, byes and firsts. Players withdrawn from round R or earlier are not paired.
    Raises PairingError when the request cannot be met (e.g. the repeat limit, an option the
    system does not take), saying why.
    """
    chosen = registry.get(system)
    registry.check_options(chosen, rules.options)
    fld = build_field(players, rounds, round_number, rules, paired)
    draft = chosen.pair(fld)
    pairings: list[Pairing] = []
    tables = sorted(
        (t for t in draft.tables if t.b is not None),
        key=lambda t: min(fld.position[t.a], fld.position[t.b]),
    )
    for number, t in enumerate(tables, 1):
        assert t.b is not None
        if t.first_fixed:
            first, second = t.a, t.b
            why = Message("first_by_table", player=fld.name(first))
        else:
            first, second, why = order_pair(fld, t.a, t.b)
        # The reasons give the pair's figures in the order the table names its players.
        reasons = t.reasons if first == t.a else [r.sides_swapped() for r in t.reasons]
        pairings.append(Pairing(number, first, second, (*reasons, why)))
    for t in draft.tables:
        if t.b is None:
            pairings.append(Pairing(0, t.a, None, tuple(t.reasons)))
    warnings = list(draft.warnings)
    if system != "manual":
        warnings += _check(fld, [(p.first, p.second) for p in pairings])
    return PairingResult(
        round=round_number,
        system=system,
        based_on=fld.based_on,
        pairings=pairings,
        warnings=warnings,
        notes=list(draft.notes),
        simulation=draft.simulation,
    )


def check_pairings(
    players: Sequence[Player],
    rounds: Sequence[Iterable[Game]],
    round_number: int,
    pairs: Sequence[tuple[PlayerId, PlayerId | None]],
    rules: PairingRules = PairingRules(),  # noqa: B008
    *,
    paired: Sequence[Iterable[Game]] = (),
) -> list[PairingWarning]:
    """Every warning a director should see about a round's pairings made by hand.

    Each pair is (goes first, goes second); second None is a bye. Nothing is refused: the
    warnings say what is wrong (unknown or withdrawn players, players paired twice or not at
    all, rematches, the repeat limit, forbidden pairs, a second bye, a Gibson against a
    contender, a player starting again when the opponent has started less, big rank gaps).
    """
    fld = build_field(players, rounds, round_number, rules, paired)
    return _check(fld, pairs)


def assign_firsts(
    players: Sequence[Player],
    rounds: Sequence[Iterable[Game]],
    pairs: Sequence[tuple[PlayerId, PlayerId | None]],
    *,
    paired: Sequence[Iterable[Game]] = (),
) -> list[tuple[PlayerId, PlayerId | None]]:
    """Each pair put in playing order, (first, second), as `firsts.order_pair` decides: fewer
    starts first, then more replies, then the one who replied more recently, then the
    lower-placed player. Byes come back as they are."""
    materialised = [list(r) for r in rounds]
    pending = [list(r) for r in paired]
    fld = build_field(
        players, materialised, len(materialised) + len(pending) + 1, PairingRules(), pending
    )
    out: list[tuple[PlayerId, PlayerId | None]] = []
    for a, b in pairs:
        if b is None:
            out.append((a, None))
            continue
        for who in (a, b):
            if who not in fld.by_id:
                raise PairingError(f"{who!r} is not a player of the division")
        first, second, _ = order_pair(fld, a, b)
        out.append((first, second))
    return out


def _check(fld: Field, pairs: Sequence[tuple[PlayerId, PlayerId | None]]) -> list[PairingWarning]:
    rules = fld.rules
    warnings: list[PairingWarning] = []
    active = set(fld.active)
    seen: dict[PlayerId, int] = {}

    def warn(code: str, players: tuple[PlayerId, ...], **params: object) -> None:
        warnings.append(PairingWarning(code, params, players))

    for a, b in pairs:
        for who in (a, b):
            if who is None:
                continue
            if who not in fld.by_id:
                warn("unknown_player", (who,), player=who)
                continue
            seen[who] = seen.get(who, 0) + 1
            if who not in active:
                warn("withdrawn", (who,), player=fld.name(who))
        if a == b:
            warn("paired_with_self", (a,), player=fld.name(a))
    for who, count in seen.items():
        if count > 1:
            warn("paired_twice", (who,), player=fld.name(who), count=count)
    for who in fld.active:
        if who not in seen:
            warn("unpaired", (who,), player=fld.describe(who))

    known = [
        (a, b) for a, b in pairs if a in fld.by_id and (b is None or b in fld.by_id) and a != b
    ]
    for a, b in known:
        if b is None:
            continue
        names = {"a": fld.name(a), "b": fld.name(b)}
        met = fld.times_met(a, b)
        if met > rules.max_repeats:
            warn("repeat_limit", (a, b), **names, met=met, limit=rules.max_repeats)
        elif met:
            warn("rematch", (a, b), **names, met=met)
        if rules.forbidden(a, b):
            warn("forbidden", (a, b), **names)
        gap = abs(fld.wins(a) - fld.wins(b))
        threshold = rules.options.get("rank_gap_wins", RANK_GAP_WINS)
        if gap >= threshold:
            warn("rank_gap", (a, b), a=fld.describe(a), b=fld.describe(b), gap=gap)
        fa, fb = fld.firsts(a), fld.firsts(b)
        if fa > fb:
            warn("first_imbalance", (a, b), **names, firsts=fa, other=fb)

    byes = [a for a, b in known if b is None]
    if len(byes) > len(fld.active) % 2:
        warn("extra_bye", tuple(byes), count=len(byes), field=len(fld.active))
    if byes:
        fewest = min((fld.byes(p) for p in fld.active), default=0)
        without = [p for p in fld.active if fld.byes(p) == fewest and p not in byes]
        for p in byes:
            if fld.byes(p) > fewest and without:
                warn(
                    "second_bye",
                    (p,),
                    player=fld.name(p),
                    number=fld.byes(p) + 1,
                    other=fld.name(without[-1]),
                    fewest=fewest,
                )

    if rules.gibson and rules.rounds_total is not None and fld.rounds_left:
        settled = gibsons(fld, fld.active)
        if settled:
            best = best_finishes(fld, fld.active)
            last_prize = fld.last_prize_rank()
            for a, b in known:
                if b is None:
                    continue
                for g, other in ((a, b), (b, a)):
                    if g in settled and other not in settled and best.get(other, 0) <= last_prize:
                        warn(
                            "gibson_contender",
                            (g, other),
                            player=fld.name(g),
                            other=fld.name(other),
                        )
    return warnings


__all__ = ["assign_firsts", "check_pairings", "pair_round", "PairingError"]
