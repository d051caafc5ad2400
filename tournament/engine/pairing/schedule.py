"""A division's pairing schedule: which system pairs which round, from which round's results.

Written as a list of entries, like tsh's `autopair` lines:

    [{"rounds": "1-3", "system": "fontes"},
     {"rounds": "4-20", "system": "swiss", "repeats": 1},
     {"rounds": "21-23", "system": "cp", "lag": 1}]

`rounds` is "a-b", "a", "a-" (to the end) or a whole number. `lag` is how far back the results
are: round R is paired from the results of round R - lag (1 by default, the round before; 2
pairs a round while the one before it is still being played). `repeats` is the repeat limit,
as tsh's Repeats argument; every other key is an option of the system (e.g. "factor": 3), one
it takes (`registry.REGISTRY`): any other is refused.
Round robins and Initial Fontes count their table from the first round of their entry, and
Fontes plays as many rounds as the entry covers unless "rounds" says otherwise.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tournament.engine.pairing import registry

DEFAULT_SYSTEM = "swiss"
_RANGE = re.compile(r"^\s*(\d+)\s*(?:(-)\s*(\d+)?)?\s*$")
_ENTRY_KEYS = {"rounds", "system", "repeats", "lag", "options"}


@dataclass(frozen=True)
class ScheduleEntry:
    system: str
    based_on: int  # the last round whose results are used
    repeats: int | None = None  # None: the division's own repeat limit
    options: Mapping[str, Any] = field(default_factory=dict)
    first_round: int = 1
    last_round: int | None = None  # None: to the end of the event
    lag: int = 1

    def covers(self, round_number: int) -> bool:
        return self.first_round <= round_number and (
            self.last_round is None or round_number <= self.last_round
        )


@dataclass(frozen=True)
class Schedule:
    entries: tuple[ScheduleEntry, ...] = ()
    default_system: str = DEFAULT_SYSTEM
    default_repeats: int | None = None

    def entry_for(self, round_number: int) -> ScheduleEntry:
        """How round `round_number` is paired: the entry covering it, its `based_on` set for
        that round; a Swiss from the round before when no entry covers it."""
        if round_number < 1:
            raise ValueError(f"there is no round {round_number}")
        for entry in self.entries:
            if entry.covers(round_number):
                return ScheduleEntry(
                    system=entry.system,
                    based_on=max(0, round_number - entry.lag),
                    repeats=entry.repeats,
                    options=entry.options,
                    first_round=entry.first_round,
                    last_round=entry.last_round,
                    lag=entry.lag,
                )
        return ScheduleEntry(
            system=self.default_system,
            based_on=round_number - 1,
            repeats=self.default_repeats,
            first_round=round_number,
            last_round=round_number,
        )


def parse_schedule(data: object) -> Schedule:
    """A Schedule from plain data (e.g. JSON: a list of mappings); ValueError says which entry
    is wrong and why. Anything may come in, so the type is checked here."""
    if isinstance(data, (str, bytes)) or not isinstance(data, Sequence):
        raise ValueError("a schedule is a list of entries")
    entries: list[ScheduleEntry] = []
    for number, item in enumerate(data, 1):
        where = f"schedule entry {number}"
        if not isinstance(item, Mapping):
            raise ValueError(f"{where}: an entry is a mapping with 'rounds' and 'system'")
        if "rounds" not in item or "system" not in item:
            raise ValueError(f"{where}: 'rounds' and 'system' are both needed")
        first, last = _rounds(item["rounds"], where)
        system = str(item["system"]).strip().lower()
        if system not in registry.REGISTRY:
            known = ", ".join(registry.REGISTRY)
            raise ValueError(f"{where}: unknown pairing system {item['system']!r} (known: {known})")
        repeats = item.get("repeats")
        if repeats is not None:
            repeats = _whole(repeats, f"{where}: repeats", minimum=0)
        lag = _whole(item.get("lag", 1), f"{where}: lag", minimum=1)
        options: dict[str, Any] = dict(item.get("options") or {})
        options.update({k: v for k, v in item.items() if k not in _ENTRY_KEYS})
        try:
            registry.check_options(registry.REGISTRY[system], options)
        except ValueError as error:  # PairingError is a ValueError
            raise ValueError(f"{where}: {error}") from None
        if not registry.REGISTRY[system].from_standings:
            options.setdefault("start", first)
        if system == "fontes":
            if last is None:
                raise ValueError(f"{where}: Initial Fontes needs a last round")
            options.setdefault("rounds", last - first + 1)
        entries.append(
            ScheduleEntry(system, max(0, first - lag), repeats, options, first, last, lag)
        )
    ordered = sorted(entries, key=lambda e: e.first_round)
    for before, after in zip(ordered, ordered[1:], strict=False):
        if before.last_round is None or before.last_round >= after.first_round:
            raise ValueError(
                f"schedule entries overlap: {_span(before)} ({before.system}) and "
                f"{_span(after)} ({after.system}) both pair round {after.first_round}"
            )
    return Schedule(tuple(ordered))


def _span(entry: ScheduleEntry) -> str:
    if entry.last_round is None:
        return f"rounds {entry.first_round}-"
    if entry.last_round == entry.first_round:
        return f"round {entry.first_round}"
    return f"rounds {entry.first_round}-{entry.last_round}"


def _rounds(value: Any, where: str) -> tuple[int, int | None]:
    if isinstance(value, bool):
        raise ValueError(f"{where}: rounds {value!r} is not a round or a range")
    last: int | None
    if isinstance(value, int):
        first, last = value, value
    elif isinstance(value, str) and (match := _RANGE.match(value)):
        first = int(match.group(1))
        last = first if not match.group(2) else (int(match.group(3)) if match.group(3) else None)
    else:
        raise ValueError(f"{where}: rounds {value!r} should be like '4-20', '3' or '21-'")
    if first < 1 or (last is not None and last < first):
        raise ValueError(f"{where}: rounds {value!r} is not a range of rounds from 1 up")
    return first, last


def _whole(value: Any, what: str, *, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ValueError(f"{what} should be a whole number of at least {minimum}, not {value!r}")
    return value


# --------------------------------------------------------------------------- tsh's autopair

_AUTOPAIR = re.compile(r"^\s*autopair\s+(\w+)\s+(\d+)\s+(\d+)\s+(\w+)(?:\s+(.*))?$", re.IGNORECASE)


def schedule_from_autopair(
    lines: Iterable[Any], division: str | None = None
) -> list[dict[str, Any]]:
    """Schedule entries (for `parse_schedule`) from tsh `autopair` lines.

    Takes `tsh.AutopairLine`s (or the lines' text, "autopair a 0 1 ns 0 0 a"), of `division`
    only if given. Understood: the commands each system of `registry.REGISTRY` lists (`ns`,
    `koth`, `cp`, `fp`, `if`, `rr` and their long names); consecutive rounds paired alike are
    merged into one entry. Anything else is a ValueError naming the command.
    """
    items: list[tuple[int, dict[str, Any]]] = []
    for line in lines:
        div, source, target, command, args = _autopair_fields(line)
        if division is not None and _canon(div) != _canon(division):
            continue
        items.append((target, _convert(source, target, command.lower(), args)))
    items.sort(key=lambda item: item[0])
    entries: list[dict[str, Any]] = []
    for target, entry in items:
        last = entries[-1] if entries else None
        if last is not None and _mergeable(last, entry, target):
            last["_last"] = entry["_last"]
            continue
        entries.append(entry)
    for i, entry in enumerate(entries):
        first, last = entry.pop("_first"), entry.pop("_last")
        if last is None:
            following = entries[i + 1]["_first"] if i + 1 < len(entries) else None
            last = None if following is None else following - 1
        entry["rounds"] = _range_text(first, last)
    return [{"rounds": e.pop("rounds"), **e} for e in entries]


def _autopair_fields(line: Any) -> tuple[str, int, int, str, list[str]]:
    if isinstance(line, str):
        match = _AUTOPAIR.match(line)
        if not match:
            raise ValueError(f"not an autopair line: {line!r}")
        div, source, target, command, args = match.groups()
        return div, int(source), int(target), command, (args or "").split()
    return (
        line.division,
        int(line.source_round),
        int(line.target_round),
        line.command,
        list(line.args),
    )


def _canon(name: str) -> str:
    return re.sub(r"\W", "", name).upper()


def _numbers(args: list[str]) -> list[int]:
    # tsh's arguments end with the division name; the numbers come before it.
    return [int(a) for a in args if re.fullmatch(r"-?\d+", a)]


def _convert(source: int, target: int, command: str, args: list[str]) -> dict[str, Any]:
    system = registry.by_tsh_command(command)
    assert system.from_tsh is not None  # a system with tsh commands reads their arguments
    fields = system.from_tsh(_numbers(args))
    on = fields.pop("source", source)
    span = fields.pop("span", 1)
    entry: dict[str, Any] = {"_first": target, "_last": None if span is None else target + span - 1}
    entry.update(fields)
    entry["lag"] = max(1, target - on)
    return entry


def _mergeable(last: dict[str, Any], entry: dict[str, Any], target: int) -> bool:
    if last["_last"] is None or last["_last"] + 1 != target:
        return False
    if not registry.REGISTRY[last["system"]].from_standings:
        return False
    keys = set(last) | set(entry)
    return all(last.get(k) == entry.get(k) for k in keys - {"_first", "_last"})


def _range_text(first: int, last: int | None) -> str:
    if last is None:
        return f"{first}-"
    return str(first) if first == last else f"{first}-{last}"
