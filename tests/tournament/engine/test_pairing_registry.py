"""One registry of pairing systems: names, options (checked), tsh's autopair commands."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.tournament.engine.pairing_support import field, pairs, sets
from tournament.engine.pairing import (
    PairingError,
    PairingRules,
    pair_round,
    parse_schedule,
    registry,
    schedule_from_autopair,
)
from tournament.engine.pairing.registry import REGISTRY, SYSTEMS


def test_an_unknown_option_is_refused_naming_the_options_the_system_takes() -> None:
    rules = PairingRules(options={"factr": 3})

    with pytest.raises(PairingError) as refused:
        pair_round(field(*"ABCD"), [], 1, "factor", rules)

    assert str(refused.value) == (
        "factor takes no option 'factr' (its options: relax_repeats, neighbours, "
        "rank_gap_wins, factor)"
    )


def test_an_option_of_another_system_is_refused() -> None:
    with pytest.raises(PairingError, match="swiss takes no option 'factor'"):
        pair_round(field(*"ABCD"), [], 1, "swiss", PairingRules(options={"factor": 2}))


def test_a_schedule_entry_with_an_unknown_option_is_refused_with_its_number() -> None:
    with pytest.raises(ValueError) as refused:
        parse_schedule(
            [{"rounds": "1-3", "system": "swiss"}, {"rounds": "4-", "system": "koth", "factor": 2}]
        )

    assert str(refused.value).startswith("schedule entry 2: koth takes no option 'factor' (")


def test_an_unknown_system_lists_the_known_ones() -> None:
    with pytest.raises(PairingError) as refused:
        pair_round(field(*"ABCD"), [], 1, "dutch")

    assert str(refused.value) == (
        "there is no pairing system 'dutch' (known: swiss, koth, rr, rr2, fontes, factor, cp, "
        "cop, australian, teamrr, manual)"
    )


@pytest.mark.parametrize(
    ("command", "system"),
    [(alias, s.name) for s in REGISTRY.values() for alias in s.tsh],
)
def test_every_tsh_alias_resolves_to_its_system(command: str, system: str) -> None:
    # Three numbers suit every command's arguments (Factor Repeats BasedOnRound at most); a round
    # robin's first number is how many times it is played, so 3 makes it double.
    entries = schedule_from_autopair([f"autopair a 0 1 {command} 3 0 0 a"])

    assert len(entries) == 1
    assert entries[0]["system"] == ("rr2" if system == "rr" else system)
    parse_schedule(entries)  # and the entry is one the schedule accepts, options and all
    assert registry.by_tsh_command(command.upper()).name == system


def test_a_tsh_command_without_a_system_is_named() -> None:
    with pytest.raises(ValueError, match="tsh's 'gp' command has no pairing system here"):
        schedule_from_autopair(["autopair a 0 1 gp 1 0 a"])


def test_adding_a_system_is_one_entry(monkeypatch: pytest.MonkeyPatch) -> None:
    # A system pairing everyone king-of-the-hill style under a name and tsh command of its own.
    mirror = replace(
        REGISTRY["koth"],
        name="mirror",
        description="the same as koth",
        options={"depth": "how deep"},
        tsh=("mirror",),
        from_tsh=lambda numbers: {"system": "mirror", "repeats": numbers[0]},
    )
    monkeypatch.setattr(registry, "REGISTRY", {**REGISTRY, "mirror": mirror})
    monkeypatch.setattr(registry, "_BY_TSH", {**registry._BY_TSH, "mirror": mirror})

    result = pair_round(field(*"ABCD"), [], 1, "mirror", PairingRules(options={"depth": 1}))
    entries = schedule_from_autopair(["autopair a 0 1 mirror 2 a"])

    assert pairs(result) == sets("AB", "CD")
    assert result.system == "mirror"
    assert "mirror" in registry.automatic()
    assert parse_schedule(entries).entry_for(1).system == "mirror"


def test_systems_describes_every_registered_system() -> None:
    assert list(SYSTEMS) == list(REGISTRY)
    assert all(SYSTEMS[name] == s.description for name, s in REGISTRY.items())
