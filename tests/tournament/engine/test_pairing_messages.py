"""Pairing reasons, notes and warnings as codes and parameters, written by one table of
templates, and read back from the sentences stored before."""

from __future__ import annotations

import json
import pickle
import random
import string

import pytest

from tests.tournament.engine.pairing_support import games_of
from tournament.engine.pairing import PairingRules, check_pairings, pair_round
from tournament.engine.pairing.messages import (
    TEMPLATES,
    Message,
    parse,
    parse_joined,
    render,
    render_all,
)
from tournament.engine.standings import Player
from tournament.engine.text import count_text, counted, ordinal, plural


def test_ordinals_and_counts_are_written_in_one_place() -> None:
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st", "111th",
    ]  # fmt: skip
    assert (count_text(7), count_text(7.5)) == ("7", "7.5")
    assert (counted(1, "time"), counted(3, "bye")) == ("1 time(s)", "3 bye(s)")
    assert (plural(1, "warning"), plural(0, "warning"), plural(2, "round")) == (
        "1 warning",
        "0 warnings",
        "2 rounds",
    )


def test_a_message_is_its_sentence_and_keeps_code_and_params() -> None:
    m = Message("repeat_limit", a="Crane, Ben", b="Quill, Ada", met=2, limit=1)

    assert m == "Crane, Ben and Quill, Ada have met 2 time(s); the division allows 1 repeat(s)."
    assert (m.code, m.params["met"]) == ("repeat_limit", 2)
    assert Message.from_dict(json.loads(json.dumps(m.as_dict()))) == m
    assert pickle.loads(pickle.dumps(m)).code == "repeat_limit"


def test_nested_messages_are_stored_as_dicts() -> None:
    why = Message("gibson_opponent_out", best=5, met=0)
    note = Message("gibson_plays", player="A", other="F", why=why)

    assert note == (
        "A, Gibsonized, plays F: the highest-placed player who can no longer reach the prizes "
        "(best finish 5th), of those who met the Gibson least (0 time(s))."
    )
    assert note.as_dict()["params"]["why"] == {
        "code": "gibson_opponent_out",
        "params": {"best": 5, "met": 0},
    }
    assert render_all([note.as_dict()]) == [note]


def test_old_sentences_are_read_back_to_code_and_params() -> None:
    repeat = "Crane, Ben and Quill, Ada have met 1 time(s); the division allows no rematches."
    assert parse(repeat) == {
        "code": "repeat_limit",
        "params": {"a": "Crane, Ben", "b": "Quill, Ada", "met": 1, "limit": 0},
    }
    assert parse("'Z' is not a player of this division.") == {
        "code": "unknown_player",
        "params": {"player": "Z"},
    }
    bye = "Moss, Eli (7th, 0-1 +0) has the bye: the lowest-placed player without a bye."
    assert parse(bye) == {"code": "has_bye_none", "params": {"player": "Moss, Eli (7th, 0-1 +0)"}}


def test_a_table_line_with_reasons_holding_semicolons_is_read_back_whole() -> None:
    line = (
        "A v B: Gibsonized: A's 1st place and B's 2nd place are settled; they play each other; "
        "A goes first: level on starts, the lower-placed player"
    )

    found = parse(line)

    assert found["code"] == "table"
    assert [r["code"] for r in found["params"]["reasons"]] == [
        "gibsons_meet",
        "first_lower_placed",
    ]
    assert render_all([found]) == [line]


def test_a_sentence_no_template_writes_is_kept_as_legacy() -> None:
    text = "The director paired this round over the telephone."

    assert parse(text) == {"code": "legacy", "params": {"text": text}}
    assert render_all([parse(text)]) == [text]
    assert [m["code"] for m in parse_joined("Swiss; something else")] == ["by_swiss", "legacy"]


def _everything_said(seed: int) -> list[Message]:
    """Every note, reason and warning of events played out under several systems."""
    rng = random.Random(seed)
    players = [
        Player(i, f"Name{i}, Given{i}", 2000 - 7 * i, i, withdrawn_from_round=5 if i == 9 else None)
        for i in range(1, 12)
    ]
    said: list[Message] = []
    plans = [
        ("fontes", {"rounds": 3, "start": 1}, 3, 0),
        ("swiss", {}, 6, 1),
        ("koth", {"relax_repeats": True}, 6, 0),
        ("factor", {"factor": 3}, 4, 1),
        ("cp", {}, 6, 1),
        ("australian", {}, 6, 0),
        ("rr", {"start": 1}, 12, 9),
    ]
    for system, options, rounds, repeats in plans:
        played: list = []
        rules = PairingRules(
            max_repeats=repeats, rounds_total=rounds, prize_bands=[1, 3], options=options
        )
        for number in range(1, rounds + 1):
            result = pair_round(players, played, number, system, rules)
            said += result.notes
            said += [r for p in result.pairings for r in p.reasons]
            said += [w.message for w in result.warnings]
            winners = [p.id for p in players if rng.random() < 0.3]
            played.append(games_of(result, winners))
        pairs = [(1, 2), (1, 1), (3, None), (4, None), ("Z", 5)]
        said += [w.message for w in check_pairings(players, played, rounds + 1, pairs, rules)]
    return said


def test_every_sentence_the_engine_writes_is_read_back_to_its_code() -> None:
    said = _everything_said(7)
    codes = {m.code for m in said}
    # The play-outs say a great deal: most of the table is exercised.
    assert len(codes) >= 35, sorted(set(TEMPLATES) - codes)
    for m in said:
        found = parse(m)
        assert found["code"] == m.code, m
        assert render(found["code"], found["params"]) == m
        if not any(isinstance(v, (list, dict)) for v in m.params.values()):
            assert found == m.as_dict()


@pytest.mark.parametrize("code", sorted(TEMPLATES))
def test_every_template_has_a_distinct_sentence(code: str) -> None:
    assert TEMPLATES[code] not in [t for c, t in TEMPLATES.items() if c != code]


def _sample(spec: str, conversion: str | None) -> object:
    """A value for a template field, by how the field is written."""
    if conversion == "r":
        return "Z"
    if spec.startswith("#"):
        return 2
    samples: dict[str, object] = {
        "ordinal": 3,
        "limit": 1,
        "limit_words": 2,
        "byes": 0,
        "list": ["Crane, Ben"],
        "or": [4, 6],
        "pairs": [["Crane, Ben", "Quill, Ada"]],
        "label": "fontes",
        "msg": Message("by_swiss").as_dict(),
        "msgs": [Message("places", high=1, low=4).as_dict(), Message("by_swiss").as_dict()],
        "g": 1.5,
        "+d": -20,
    }
    return samples.get(spec, "Vale, Cora")


@pytest.mark.parametrize("code", sorted(set(TEMPLATES) - {"legacy"}))
def test_every_template_is_read_back_from_its_sentence(code: str) -> None:
    fields = string.Formatter().parse(TEMPLATES[code])
    params = {name: _sample(spec or "", conv) for _, name, spec, conv in fields if name}
    text = render(code, params)

    found = parse(text)

    assert found["code"] == code
    assert render(found["code"], found["params"]) == text


def test_stored_messages_this_version_cannot_write_are_shown_as_they_are() -> None:
    stored = [
        {"code": "no_such_code", "params": {"player": "Crane, Ben"}},
        {"code": "rematch", "params": {"a": "Crane, Ben"}},  # b and met missing
        {"code": "places", "params": {"high": 1, "low": 2}},
    ]

    assert render_all(stored) == [
        'no_such_code: {"player": "Crane, Ben"}',
        'rematch: {"a": "Crane, Ben"}',
        "places 1 and 2",
    ]
