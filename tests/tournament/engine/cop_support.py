"""Woogles' COP test events and requests, for Spread's COP tests.

Each event is a tsh division under cop_events/ (Woogles' data, from the requests of
woogles-io/liwords pkg/pair/testutils/testutils.go at commit b790d24); REQUESTS holds the rest
of each request: its COP options (Woogles' pair request fields in snake case; the control loss
activation round 1-based, Woogles' 0-based one plus one), the players Woogles removed, and the
pairs of a round partly paired by hand. Players are numbered from 0 as in Woogles' requests, so
that the tests read as Woogles' do: `pairings[3] == 10` is player 3 against player 10, a player
against themselves a bye.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from tournament.engine.pairing import PairingResult, PairingRules, pair_round
from tournament.engine.standings import Game, GameKind, Player
from tournament.interchange.tsh import read_t_file

EVENTS = Path(__file__).resolve().parent / "cop_events"

REQUESTS: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "default": (
        {
            "rounds": 10,
            "place_prizes": 2,
            "gibson_spread": 200,
            "control_loss_threshold": 0.25,
            "hopefulness_threshold": 0.02,
            "division_sims": 1000,
            "control_loss_sims": 1000,
            "control_loss_activation_round": 11,
            "allow_repeat_byes": False,
            "class_prizes": [2],
        },
        {"removed": []},
    ),
    "belleville_csw_r12": (
        {
            "rounds": 15,
            "place_prizes": 2,
            "gibson_spread": 200,
            "control_loss_threshold": 0.25,
            "hopefulness_threshold": 0.02,
            "division_sims": 1000,
            "control_loss_sims": 1000,
            "control_loss_activation_round": 16,
            "allow_repeat_byes": False,
            "class_prizes": [2],
        },
        {"removed": []},
    ),
    "belleville_csw_4th_cl_r12": (
        {
            "rounds": 16,
            "place_prizes": 2,
            "gibson_spread": 200,
            "control_loss_threshold": 0.25,
            "hopefulness_threshold": 0.02,
            "division_sims": 1000,
            "control_loss_sims": 1000,
            "control_loss_activation_round": 17,
            "allow_repeat_byes": False,
            "class_prizes": [2],
        },
        {"removed": []},
    ),
    "albany_3rd_gibsonized_r25": (
        {
            "rounds": 27,
            "place_prizes": 5,
            "gibson_spread": 200,
            "control_loss_threshold": 0.25,
            "hopefulness_threshold": 0.02,
            "division_sims": 1000,
            "control_loss_sims": 1000,
            "control_loss_activation_round": 28,
            "allow_repeat_byes": False,
            "class_prizes": [2],
        },
        {"removed": [11]},
    ),
    "albany_1st_4th_8th_gibsonized_r25": (
        {
            "rounds": 27,
            "place_prizes": 10,
            "gibson_spread": 100,
            "control_loss_threshold": 0.25,
            "hopefulness_threshold": 0.02,
            "division_sims": 1000,
            "control_loss_sims": 1000,
            "control_loss_activation_round": 28,
            "allow_repeat_byes": False,
            "class_prizes": [2],
        },
        {"removed": [11]},
    ),
    "albany_csw_r24_odd": (
        {
            "rounds": 27,
            "place_prizes": 2,
            "gibson_spread": 200,
            "control_loss_threshold": 0.25,
            "hopefulness_threshold": 0.02,
            "division_sims": 1000,
            "control_loss_sims": 1000,
            "control_loss_activation_round": 28,
            "allow_repeat_byes": False,
            "class_prizes": [2],
        },
        {"removed": [0]},
    ),
    "lake_george_r13": (
        {
            "rounds": 15,
            "place_prizes": 2,
            "gibson_spread": 200,
            "control_loss_threshold": 0.25,
            "hopefulness_threshold": 0.02,
            "division_sims": 1000,
            "control_loss_sims": 1000,
            "control_loss_activation_round": 16,
            "allow_repeat_byes": False,
            "class_prizes": [2],
        },
        {"removed": []},
    ),
    "albany_july4th_2024_r21": (
        {
            "rounds": 27,
            "place_prizes": 2,
            "gibson_spread": 200,
            "control_loss_threshold": 0.25,
            "hopefulness_threshold": 0.02,
            "division_sims": 1000,
            "control_loss_sims": 1000,
            "control_loss_activation_round": 28,
            "allow_repeat_byes": False,
            "class_prizes": [2],
        },
        {"removed": []},
    ),
    "albany_r16": (
        {
            "rounds": 27,
            "place_prizes": 5,
            "gibson_spread": 200,
            "control_loss_threshold": 0.25,
            "hopefulness_threshold": 0.01,
            "division_sims": 50000,
            "control_loss_sims": 50000,
            "control_loss_activation_round": 1,
            "allow_repeat_byes": True,
            "class_prizes": [3],
            "player_classes": {
                12: 1,
                13: 1,
                14: 1,
                15: 1,
                16: 1,
                17: 1,
                18: 1,
                19: 1,
                20: 1,
                21: 1,
                22: 1,
                23: 1,
            },
        },
        {"removed": [11], "prepaired": [[0, 22], [19, 19]]},
    ),
    "bls_r32": (
        {
            "rounds": 32,
            "place_prizes": 10,
            "gibson_spread": 250,
            "control_loss_threshold": 0.25,
            "hopefulness_threshold": 0.1,
            "division_sims": 100000,
            "control_loss_sims": 10000,
            "control_loss_activation_round": 25,
            "allow_repeat_byes": False,
            "class_prizes": [3, 3, 3],
            "player_classes": {
                5: 3,
                12: 2,
                15: 2,
                16: 2,
                17: 2,
                18: 2,
                19: 2,
                20: 2,
                21: 2,
                22: 3,
                23: 2,
                24: 2,
                25: 2,
                26: 2,
                27: 3,
                28: 3,
                29: 3,
                30: 3,
                31: 3,
                32: 3,
                33: 3,
                34: 3,
                35: 3,
                36: 3,
                37: 1,
                38: 1,
                39: 1,
                40: 1,
                41: 1,
                42: 1,
                43: 1,
                44: 1,
                45: 2,
                46: 1,
                47: 1,
                48: 3,
                49: 1,
                50: 1,
                51: 1,
            },
        },
        {"removed": []},
    ),
    "almost_gibsonized": (
        {
            "rounds": 10,
            "place_prizes": 4,
            "gibson_spread": 200,
            "control_loss_threshold": 0.25,
            "hopefulness_threshold": 0.1,
            "division_sims": 100000,
            "control_loss_sims": 10000,
            "control_loss_activation_round": 8,
            "allow_repeat_byes": False,
            "class_prizes": [],
        },
        {"removed": [11]},
    ),
    "kingston_2023_r15": (
        {
            "rounds": 23,
            "place_prizes": 2,
            "gibson_spread": 200,
            "control_loss_threshold": 0.25,
            "hopefulness_threshold": 0.02,
            "division_sims": 1000,
            "control_loss_sims": 1000,
            "control_loss_activation_round": 24,
            "allow_repeat_byes": False,
            "class_prizes": [2],
        },
        {"removed": []},
    ),
    "albany_csw_new_years_r27": (
        {
            "rounds": 28,
            "place_prizes": 4,
            "gibson_spread": 250,
            "control_loss_threshold": 0.25,
            "hopefulness_threshold": 0.1,
            "division_sims": 5000,
            "control_loss_sims": 5000,
            "control_loss_activation_round": 29,
            "allow_repeat_byes": True,
            "class_prizes": [2],
            "player_classes": {
                10: 1,
                11: 1,
                12: 1,
                13: 1,
                14: 1,
                15: 1,
                16: 1,
                17: 1,
                18: 1,
                19: 1,
            },
        },
        {"removed": []},
    ),
    "albany_csw_new_years_r27_partial": (
        {
            "rounds": 28,
            "place_prizes": 4,
            "gibson_spread": 200,
            "control_loss_threshold": 0.25,
            "hopefulness_threshold": 0.01,
            "division_sims": 5000,
            "control_loss_sims": 5000,
            "control_loss_activation_round": 29,
            "allow_repeat_byes": True,
            "class_prizes": [2],
            "player_classes": {
                10: 1,
                11: 1,
                12: 1,
                13: 1,
                14: 1,
                15: 1,
                16: 1,
                17: 1,
                18: 1,
                19: 1,
            },
        },
        {"removed": [], "prepaired": [[7, 7], [8, 12]]},
    ),
    "albany_csw_new_years_r25_partial": (
        {
            "rounds": 28,
            "place_prizes": 4,
            "gibson_spread": 200,
            "control_loss_threshold": 0.25,
            "hopefulness_threshold": 0.05,
            "division_sims": 5000,
            "control_loss_sims": 5000,
            "control_loss_activation_round": 29,
            "allow_repeat_byes": True,
            "class_prizes": [2],
            "player_classes": {
                10: 1,
                11: 1,
                12: 1,
                13: 1,
                14: 1,
                15: 1,
                16: 1,
                17: 1,
                18: 1,
                19: 1,
            },
        },
        {"removed": [], "prepaired": [[6, 6], [11, 19], [15, 15]]},
    ),
    "lake_george_2025_r15": (
        {
            "rounds": 15,
            "place_prizes": 4,
            "gibson_spread": 250,
            "control_loss_threshold": 0.25,
            "hopefulness_threshold": 0.1,
            "division_sims": 100000,
            "control_loss_sims": 10000,
            "control_loss_activation_round": 12,
            "allow_repeat_byes": False,
            "class_prizes": [1],
            "player_classes": {8: 1, 9: 1, 10: 1, 11: 1, 12: 1, 13: 1, 14: 1, 15: 1},
        },
        {"removed": []},
    ),
}


class Event:
    """A Woogles test request read into Spread's terms, ready to be changed and paired."""

    def __init__(self, name: str) -> None:
        options, extra = REQUESTS[name]
        self.name = name
        self.options: dict[str, Any] = dict(options)
        tfile = read_t_file(EVENTS / f"{name}.t")
        removed = set(extra["removed"])
        self.players = [
            Player(p.number - 1, p.name, 0, p.number, 1 if p.number - 1 in removed else None)
            for p in tfile.players
        ]
        self.rounds: list[list[Game]] = [
            [
                Game(
                    r.player - 1,
                    None if r.opponent is None else r.opponent - 1,
                    r.score,
                    r.opponent_score,
                    GameKind.BYE if r.opponent is None else GameKind.PLAYED,
                )
                for r in games
            ]
            for games in tfile.results()
        ]
        paired = max(len(p.opponents) for p in tfile.players)
        self.paired: list[list[Game]] = []
        for index in range(len(self.rounds), paired):
            self.add_round(
                {p.number - 1: _opponent(p.number - 1, p.opponents[index]) for p in tfile.players}
            )
        self.prepaired: list[list[int]] = [list(p) for p in extra.get("prepaired", [])]

    def add_round(self, pairings: dict[int, int]) -> None:
        """A round paired and not played: player -> opponent (themselves: a bye)."""
        games = []
        for p, o in pairings.items():
            if o == p:
                games.append(Game(p, None, 0, kind=GameKind.BYE))
            elif p < o:
                games.append(Game(p, o, 0, 0))
        self.paired.append(games)

    def pair(self, **options: Any) -> PairingResult:
        chosen = {**self.options, **options}
        if self.prepaired and "prepaired" not in chosen:
            chosen["prepaired"] = [[a, None if a == b else b] for a, b in self.prepaired]
        rounds = chosen["rounds"]
        # A number of rounds the rules refuse is left to COP to refuse (the tests of refusals).
        total = rounds if isinstance(rounds, int) and rounds >= 1 else None
        rules = PairingRules(rounds_total=total, options=chosen)
        number = len(self.rounds) + len(self.paired) + 1
        return pair_round(self.players, self.rounds, number, "cop", rules, paired=self.paired)

    def pairings(self, **options: Any) -> dict[int, int]:
        """Woogles' answer's shape: each player's opponent, themselves for a bye."""
        return as_pairings(self.pair(**options))

    def withdraw(self, player: int) -> None:
        self.players[player] = replace(self.players[player], withdrawn_from_round=1)


def _opponent(player: int, opponent: int | None) -> int:
    return player if not opponent else opponent - 1


def as_pairings(result: PairingResult) -> dict[int, int]:
    out: dict[int, int] = {}
    for p in result.pairings:
        out[p.first] = p.first if p.second is None else p.second
        if p.second is not None:
            out[p.second] = p.first
    return out
