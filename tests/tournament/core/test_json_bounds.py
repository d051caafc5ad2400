"""JSON from outside is read by one bounded reader (`core/jsonin.py`): 100,000 nested brackets
sent to the board entry, from a phone's link or the desk, or packed in a backup, are refused in
a sentence (400 for a request), never a RecursionError's 500."""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from tournament.core import jsonin
from tournament.exchange import backup
from tournament.models import Division, Game, Round, Tournament
from tournament.phone import services as phones

HEADER = "#player1 Ada Ada Quill\n#player2 Ben Ben Crane\n"
NESTED = "[" * 100_000  # as sent: 100 KB, within the turns' byte bound
DEEP = (
    "Not added: the turns sent could not be read: it nests more than 64 lists or objects "
    "within each other."
)


@pytest.fixture
def on(division: Division) -> Division:
    division.self_report = True
    division.save()
    Round.objects.create(division=division, number=1, published=True)
    return division


def test_nested_brackets_from_a_phone_and_the_desk_are_a_400_with_a_sentence(
    on: Division, game_of: Callable[..., Game], desk: Client
) -> None:
    game = game_of(1)
    token = phones.issue_link(on.players.get(number=1))
    phone = Client(raise_request_exception=False)
    url = reverse("phone-sheet-turn", args=[token, game.pk])
    for turns in (NESTED, "[" * 65 + "]" * 65, '[{"a":' * 40 + "1" + "}]" * 40):
        answer = phone.post(url, {"gcg": HEADER, "turns": turns})
        assert answer.status_code == 400, turns[:10]
        assert answer.json() == {"refused": DEEP, "turn": 0}
    desk.raise_request_exception = False
    at_desk = desk.post(
        f"/desk/spring-open/games/{game.pk}/scoresheet/turn", {"gcg": HEADER, "turns": NESTED}
    )
    assert (at_desk.status_code, at_desk.json()) == (400, {"refused": DEEP, "turn": 0})
    # Rubbish is a 400 too, with the sentence it always had; 64 deep is still read (and its
    # turn refused as not a turn, 200).
    rubbish = phone.post(url, {"gcg": HEADER, "turns": "[{"})
    assert (rubbish.status_code, rubbish.json()) == (
        400,
        {"refused": "Not added: the turns sent could not be read.", "turn": 0},
    )
    assert phone.post(url, {"gcg": HEADER, "turns": "[" * 64 + "]" * 64}).status_code == 200


def test_the_reader_bounds_depth_and_length() -> None:
    assert jsonin.read("[" * 64 + "]" * 64) == json.loads("[" * 64 + "]" * 64)
    for text in (NESTED, NESTED.encode(), '{"a":' * 65 + "1" + "}" * 65):
        with pytest.raises(jsonin.Refused, match="nests more than 64"):
            jsonin.read(text)
    with pytest.raises(jsonin.Refused, match="^it is longer than 10 bytes$"):
        jsonin.read("[1, 2, 3, 4]", most_bytes=10)
    with pytest.raises(jsonin.Refused, match="^it is not JSON$"):
        jsonin.read("{")


def _zip(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return buffer.getvalue()


def test_a_backup_with_nested_brackets_is_refused_in_a_sentence(tournament: Tournament) -> None:
    with zipfile.ZipFile(io.BytesIO(backup.write(tournament))) as zf:
        members = {n: zf.read(n) for n in zf.namelist()}
    for bad in (NESTED.encode(), b'[{"x":' + b"[" * 100 + b"]" * 100 + b"}]"):
        with pytest.raises(backup.BackupRefused) as caught:
            backup.restore(_zip({**members, "players.json": bad}), slug="hostile")
        assert str(caught.value) == (
            "This backup is refused: players.json is damaged: it nests more than 64 lists or "
            "objects within each other."
        )
    assert not Tournament.objects.filter(slug="hostile").exists()


def test_every_json_this_app_reads_goes_through_the_bounded_reader() -> None:
    """A `json.loads` or `json.load` of the app's own is in `core/jsonin.py` alone (a copy of
    the app's own data made by dumping it is no reading)."""
    root = Path(__file__).resolve().parents[3] / "tournament"
    found = []
    for path in root.rglob("*.py"):
        text = path.read_text()
        for call in ("json.loads(", "json.load("):
            for line in text.splitlines():
                if call in line and "json.loads(json.dumps(" not in line:
                    found.append(str(path.relative_to(root)))
    assert sorted(set(found)) == ["core/jsonin.py"]
