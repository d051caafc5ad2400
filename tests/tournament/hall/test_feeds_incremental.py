"""The hall's two feeds after a write: the scoreboard's cards (`hall/cards.py`) and the display's
rows (`public/api.display`) kept under the stamp before, those of the players the write changed
(and of those whose rating or mark moved) made again, the ranks put in as the feed is written:
byte for byte the feed built afresh, through many random results, corrections, undos and
forfeits in the latest round and the rounds before (which move ratings after them), a game's
table or first player changed, a player renamed and a round published (which build them
afresh)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client

from tournament.hall import cards
from tournament.models import Division, Game, Player, PlayerPhoto, Round, Tournament
from tournament.public import api
from tournament.results import corrections
from tournament.results import services as results
from tournament.standings import memos, stamps

PLAYERS = 13  # one bye a round
ROUNDS = 5
DISPLAY = "/api/v1/t/hall-open/A/display"
SCOREBOARD = "/api/v1/t/hall-open/A/scoreboard"


@pytest.fixture
def event(director: User) -> Division:
    """Thirteen players, five rounds paired at random (the last not yet published), a bye each
    round, the first player by the pairing in some games and in none in others (a table's
    order is then the standings'), rating classes, Gibsonization, and a photo."""
    cache.clear()
    memos.clear_all()
    tournament = Tournament.objects.create(name="Hall Open", slug="hall-open", public=True)
    tournament.directors.add(director)
    division = Division.objects.create(
        tournament=tournament, name="A", bye_spread=50, forfeit_spread=50,
        planned_rounds=ROUNDS, rating_classes=2, gibson=True,
    )  # fmt: skip
    made = [
        Player.objects.create(
            division=division, number=n, name=f"Player {n}", rating=1400 + 37 * (n % 5)
        )
        for n in range(1, PLAYERS + 1)
    ]
    made[2].name = "رضا محمدی"
    made[2].save()
    PlayerPhoto.objects.create(player=made[0], data=b"", width=256, height=256)
    rng = random.Random(7)
    for number in range(1, ROUNDS + 1):
        Round.objects.create(division=division, number=number, published=number < ROUNDS)
        order = made[:]
        rng.shuffle(order)
        pairs = zip(order[0:12:2], order[1:12:2], strict=True)
        for table, (one, two) in enumerate(pairs, 1):
            Game.objects.create(
                division=division, round=number, table=table, player1=one, player2=two,
                first=rng.choice([0, 1, 2]),
            )  # fmt: skip
        Game.objects.create(
            division=division, round=number, player1=order[12], kind=Game.BYE, score1=50
        )
    return Division.objects.select_related("tournament").get(pk=division.pk)


def _feeds(division: Division, made: list[int] | None = None) -> list[tuple[Any, Any]]:
    """Each feed as this worker serves it (its kept parts under the stamp before) and as built
    afresh, under the same stamps. `made`: the cards made to serve them, left in it."""
    fresh = Division.objects.select_related("tournament").get(pk=division.pk)
    now = stamps.read(fresh)
    served = [
        cards.scoreboard_json(fresh, now),
        cards.scoreboard(fresh, now),
        Client().get(DISPLAY).content,
        Client().get(SCOREBOARD).content,
    ]
    if made is not None:
        made[:] = [len(made)]  # then the cards made afresh, after it
    # Each feed's text is its content as `json.dumps` writes it (names as written), as the
    # feeds were written whole.
    assert served[0] == json.dumps(served[1], ensure_ascii=False).encode()
    for text in served[2:]:
        assert text == json.dumps(json.loads(text), ensure_ascii=False).encode()
    with memos.afresh():
        built = [
            cards.scoreboard_json(fresh, now),
            cards.scoreboard(fresh, now),
            Client().get(DISPLAY).content,
            Client().get(SCOREBOARD).content,
        ]
    return list(zip(served, built, strict=True))


def test_the_feeds_kept_parts_equal_those_built_afresh_after_every_write(
    event: Division,
    director: User,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    kept: dict[str, int] = {"cards": 0, "display": 0}

    def counting(name: str, module: Any) -> None:
        original = module.kept_before

        def spy(*args: Any, **kwargs: Any) -> Any:
            found = original(*args, **kwargs)
            if found is not None and args[2] in (memos.CARD_TEXTS, memos.DISPLAY_TEXTS):
                kept[name] += 1
            return found

        monkeypatch.setattr(module, "kept_before", spy)

    counting("cards", cards)
    counting("display", api)
    made: list[int] = []
    card = cards._card

    def counted_card(*args: Any, **kwargs: Any) -> dict[str, Any]:
        made.append(1)
        return card(*args, **kwargs)

    monkeypatch.setattr(cards, "_card", counted_card)
    rng = random.Random(2026)
    _feeds(event)  # the parts of the first stamp kept
    writes = dict.fromkeys(
        ("result", "correction", "undo", "forfeit", "seat", "rename", "publish"), 0
    )
    few = 0
    for step in range(90):
        games = list(Game.objects.filter(division=event, round__lt=ROUNDS).exclude(player2=None))
        pending = [g for g in games if g.score1 is None]
        entered = [g for g in games if g.score1 is not None]
        roll = rng.random()
        call: Callable[[], object]
        if step == 70:
            last = Round.objects.get(division=event, number=ROUNDS)
            last.published = True
            kind, call = "publish", last.save
        elif pending and (roll < 0.4 or not entered):
            g = rng.choice(pending)
            line = f"{g.player1.number} {rng.randint(380, 420)} {g.player2.number} " + str(  # type: ignore[union-attr]
                rng.randint(380, 420)
            )
            kind = "result"
            call = lambda g=g, line=line: results.enter_line(event, g.round, line, director)  # noqa: E731
        elif entered and roll < 0.65:
            g = rng.choice(entered)
            line = f"{g.player1.number} {rng.randint(380, 420)} {g.player2.number} " + str(  # type: ignore[union-attr]
                rng.randint(300, 500)
            )
            kind = "correction"
            call = lambda g=g, line=line: results.enter_line(  # noqa: E731
                event, g.round, line, director, g.version, reason="the slip"
            )
        elif roll < 0.78:
            kind = "undo"
            call = lambda: corrections.undo_last(event, director)  # noqa: E731
        elif pending and roll < 0.84:
            g = rng.choice(pending)
            kind = "forfeit"
            call = lambda g=g: results.enter_line(  # noqa: E731
                event, g.round, f"{g.player1.number} forfeit", director
            )
        elif roll < 0.95:
            latest = max(
                Round.objects.filter(division=event, published=True).values_list(
                    "number", flat=True
                )
            )
            g = rng.choice(list(Game.objects.filter(division=event, round=latest)))

            def seat(g: Game = g) -> None:
                g.first = rng.choice([0, 1, 2])
                g.table = rng.choice([g.table, rng.randint(1, 9)])
                g.save()

            kind, call = "seat", seat
        else:
            player = rng.choice(list(Player.objects.filter(division=event)))
            player.name = f"Renamed {step}"
            kind, call = "rename", player.save
        try:
            with django_capture_on_commit_callbacks(execute=True):
                call()
        except Exception:  # noqa: BLE001 - a refused write (nothing to undo) writes nothing
            continue
        writes[kind] += 1
        made.clear()
        for served, built in _feeds(event, made):
            assert served == built
        if kind in ("result", "correction") and made[0] <= 6:
            few += 1  # the changed players' cards (and those whose rating moved) alone
    assert all(writes.values()), writes
    # Every result and correction was followed by the feeds made from those kept under the
    # stamp before (an undo too, but of a forfeit's new game), most remaking a few cards.
    results_written = writes["result"] + writes["correction"]
    assert kept["cards"] >= results_written and kept["display"] >= results_written, kept
    assert few >= writes["result"] // 2, (few, writes)


def test_a_worker_without_the_feeds_before_builds_them_afresh(
    event: Division, director: User, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    _feeds(event)
    g = Game.objects.filter(division=event, round=4).exclude(player2=None).first()
    assert g is not None
    with django_capture_on_commit_callbacks(execute=True):
        results.enter_line(event, 4, f"{g.player1.number} 420 {g.player2.number} 380", director)  # type: ignore[union-attr]
    memos.clear_all()  # another worker: it keeps no feed of the stamp before
    for served, built in _feeds(event):
        assert served == built


def test_the_feeds_of_a_division_without_players(director: User) -> None:
    cache.clear()
    memos.clear_all()
    tournament = Tournament.objects.create(name="Hall Open", slug="hall-open", public=True)
    Division.objects.create(tournament=tournament, name="A")
    for served, built in _feeds(Division.objects.get(tournament=tournament)):
        assert served == built
    display = Client().get(DISPLAY).json()
    assert (display["pairings"], display["standings"], display["results"]) == ([], [], [])
    assert Client().get(SCOREBOARD).json()["players"] == []
