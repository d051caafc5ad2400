"""Rulesets as data: NASPA, WESPA and home built in, a director's variant read from a TOML file."""

from __future__ import annotations

import dataclasses
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .text import decode

RULES_DIR = Path(__file__).parent / "data" / "rules"

CHALLENGES = ("double", "penalty", "any")
END_OUT = ("double", "transfer", "any")


class RulesError(ValueError):
    """A ruleset that cannot be read or makes no sense."""


@dataclass(frozen=True)
class Ruleset:
    name: str
    description: str = ""
    min_players: int = 2
    max_players: int = 2
    # "double": no bonus for a wrong challenge; "penalty": challenge_points per word to the
    # challenged player; "any" (auto): whatever bonus the record shows after a play.
    challenge: str = "double"
    challenge_points: int = 0
    # "double": the player who goes out gets twice the others' racks, nobody loses anything;
    # "transfer": the player who goes out gets the others' racks, each of them loses their own;
    # "any" (auto): whichever of the two the record uses, consistently.
    end_out: str = "double"
    scoreless_turns: int = 6  # 0: no such ending
    pass_rounds: int = (
        0  # the game ends when every player passes this many times in a row; 0: never
    )
    time_penalty_per_minute: int = 10  # 0: no clock, so no time penalties
    exchange_min_bag: int = 7
    rack_size: int = 7
    bingo_bonus: int = 50

    def summary(self) -> str:
        challenge = {
            "double": "double challenge",
            "penalty": f"{self.challenge_points} points a word for a wrong challenge",
            "any": "challenge bonus as recorded",
        }[self.challenge]
        end = {
            "double": "2x rack for going out",
            "transfer": "rack added and subtracted",
            "any": "2x rack or rack added and subtracted",
        }[self.end_out]
        return f"{self.name}: {challenge}, {end}"


def _from_mapping(name: str, data: dict[str, Any], base: Ruleset | None = None) -> Ruleset:
    fields = {f.name for f in dataclasses.fields(Ruleset)} - {"name"}
    unknown = set(data) - fields - {"base"}
    if unknown:
        raise RulesError(f"ruleset {name}: unknown setting(s) {', '.join(sorted(unknown))}")
    for f in dataclasses.fields(Ruleset):
        if f.name in data:
            want = int if f.type in ("int", int) else str
            value = data[f.name]
            if not isinstance(value, want) or isinstance(value, bool):
                kind = "a whole number" if want is int else "text"
                raise RulesError(f"ruleset {name}: {f.name} must be {kind}, not {value!r}")
    values = dataclasses.asdict(base) if base else {}
    values.update({k: v for k, v in data.items() if k != "base"})
    values["name"] = name
    if base and "description" not in data:
        changed = ", ".join(f"{k} = {v!r}" for k, v in data.items() if k != "base")
        values["description"] = f"{base.name} with {changed}" if changed else base.description
    try:
        rules = Ruleset(**values)
    except TypeError as exc:
        raise RulesError(f"ruleset {name}: {exc}") from exc
    if rules.challenge not in CHALLENGES:
        raise RulesError(f"ruleset {name}: challenge must be one of {', '.join(CHALLENGES)}")
    if rules.end_out not in END_OUT:
        raise RulesError(f"ruleset {name}: end_out must be one of {', '.join(END_OUT)}")
    if rules.challenge == "penalty" and rules.challenge_points <= 0:
        raise RulesError(f"ruleset {name}: a penalty challenge needs challenge_points above 0")
    if not 1 <= rules.min_players <= rules.max_players <= 4:
        raise RulesError(f"ruleset {name}: players must be between 1 and 4")
    return rules


def builtin_rulesets() -> list[str]:
    return sorted(p.stem for p in RULES_DIR.glob("*.toml")) + ["auto"]


AUTO = Ruleset(
    name="auto",
    description="the conventions the record itself uses, applied consistently",
    max_players=4,
    challenge="any",
    end_out="any",
)


def load_rules(name_or_path: str, _seen: frozenset[str] = frozenset()) -> Ruleset:
    """A built-in ruleset (``naspa``, ``wespa``, ``home``, ``auto``) or a TOML file.

    A file may start from another ruleset: ``base = "wespa"`` then ``challenge_points = 10``.
    """
    key = name_or_path.strip().lower()
    if key == "auto":
        return AUTO
    path = RULES_DIR / f"{key}.toml"
    name = key
    if not path.exists():
        path = Path(name_or_path)
        name = path.stem
        if not path.exists():
            raise RulesError(f"unknown ruleset {name_or_path!r}")
    try:
        data = tomllib.loads(decode(path.read_bytes()))
    except (tomllib.TOMLDecodeError, OSError) as exc:
        raise RulesError(f"ruleset {name}: {exc}") from exc
    base = None
    if "base" in data:
        here = str(path.resolve())
        if here in _seen or str(data["base"]).lower() == name:
            raise RulesError(f"ruleset {name}: a ruleset cannot be based on itself")
        base_path = Path(str(data["base"]))
        if not base_path.is_absolute() and (path.parent / base_path).exists():
            base_path = path.parent / base_path  # a base named beside the file
        base = load_rules(str(base_path), _seen | {here})
    return _from_mapping(name, data, base)
