"""The player cards: the scoreboard's feed, its pages, one card, the overlays (tournament/hall)."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from tournament.hall.cards import initials
from tournament.models import Division, Game, Player, Round, Tournament
from tournament.results import services as results
from tournament.standings import read_model
from tournament.standings.stamps import read as read_stamps

FEED = "/api/v1/t/cards-open/A/scoreboard"
PAGE = "/t/cards-open/A/"


@pytest.fixture
def event(db: None, django_user_model) -> tuple[Division, object]:
    director = django_user_model.objects.create_user("dee")
    t = Tournament.objects.create(name="Cards Open", slug="cards-open")
    t.directors.add(director)
    d = Division.objects.create(tournament=t, name="A", planned_rounds=3, bye_spread=50)
    names = ["Smylie, Jackson", "رضا محمدی", "김민준", "Vale, Cora"]
    ps = [
        Player.objects.create(division=d, number=n, name=name, rating=r)
        for n, (name, r) in enumerate(zip(names, [1800, 1700, 1600, 1500], strict=True), 1)
    ]
    for table, (a, b) in enumerate([(0, 1), (2, 3)], 1):
        Game.objects.create(division=d, round=1, table=table, player1=ps[a], player2=ps[b], first=1)
    results.enter_line(d, 1, "1 450 2 380", director)
    results.enter_line(d, 1, "3 400 4 410", director)
    # Round 2 paired and published: 1 v 4 at table 1 (4 first), 2 v 3 at table 2, one result in.
    Round.objects.create(division=d, number=2, published=True)
    Game.objects.create(division=d, round=2, table=1, player1=ps[0], player2=ps[3], first=2)
    Game.objects.create(division=d, round=2, table=2, player1=ps[1], player2=ps[2], first=1)
    results.enter_line(d, 2, "2 500 3 300", director)
    return d, director


def test_initials_in_any_script() -> None:
    assert initials("Smylie, Jackson") == "SJ"
    assert initials("رضا محمدی") == "ر\u200cم"
    assert initials("김민준") == "김"
    assert initials("de la Cruz") == "DL"
    assert initials("  ") == ""


def test_feed_in_standing_order_with_exact_cards(event) -> None:
    d, _ = event
    data = Client().get(FEED).json()
    rated = {r.player.number: r for r in read_model.division_ratings(d, stamps=read_stamps(d))}
    # Ranked by wins less losses, then spread: 1–0 +70, 1–0 +10, 1–1 +130, 1–1 −190.
    assert [c["number"] for c in data["players"]] == [1, 4, 2, 3]
    assert [c["rank"] for c in data["players"]] == [1, 2, 3, 4]
    assert data["round"] == 2 and data["division"] == "A" and data["tournament"] == "Cards Open"
    second = data["players"][2]
    assert second == {
        "number": 2,
        "name": "رضا محمدی",
        "initials": "ر\u200cم",
        "photo": None,
        "rank": 3,
        "wins": 1.0,
        "losses": 1.0,
        "record": "1–1",
        "spread": 130,
        "games": 2,
        "rating": 1700,
        "rating_now": rated[2].after,
        "rating_change": rated[2].after - 1700,
        "gibsonized": False,
        "class": "",
        "xtid": None,
        "last": {
            "round": 2,
            "table": 2,
            "opponent": "김민준",
            "opponent_number": 3,
            "kind": "played",
            "first": True,
            "score": 500,
            "opponent_score": 300,
            "result": "W",
        },
        "current": {
            "round": 2,
            "table": 2,
            "opponent": "김민준",
            "opponent_number": 3,
            "kind": "played",
            "first": True,
            "score": 500,
            "opponent_score": 300,
            "result": "W",
        },
    }
    # −12 for the loss to the higher-rated player, +12 for the win over the lower-rated one.
    assert rated[2].by_round == (1688, 1700)
    assert data["players"][0]["rating_now"] == rated[1].after > 1800
    first = data["players"][0]
    assert (first["rank"], first["record"], first["spread"]) == (1, "1–0", 70)
    assert first["last"]["opponent"] == "رضا محمدی" and first["last"]["result"] == "W"
    assert first["current"] == {
        "round": 2,
        "table": 1,
        "opponent": "Vale, Cora",
        "opponent_number": 4,
        "kind": "played",
        "first": False,
        "score": None,
        "opponent_score": None,
        "result": None,
    }
    assert data["tables"] == [
        {"table": 1, "round": 2, "players": [4, 1], "scores": None},
        {"table": 2, "round": 2, "players": [2, 3], "scores": [500, 300]},
    ]


def test_feed_shows_published_rounds_only(event) -> None:
    d, director = event
    Round.objects.create(division=d, number=3, published=False)
    ps = {p.number: p for p in d.players.all()}
    Game.objects.create(division=d, round=3, table=1, player1=ps[1], player2=ps[2])
    data = Client().get(FEED).json()
    assert data["round"] == 2
    assert all(c["current"]["round"] == 2 for c in data["players"])


def test_feed_is_cached_with_etag(event) -> None:
    d, director = event
    first = Client().get(FEED)
    again = Client().get(FEED, headers={"if-none-match": first["ETag"]})
    assert again.status_code == 304
    results.enter_line(d, 2, "1 420 4 400", director)
    changed = Client().get(FEED, headers={"if-none-match": first["ETag"]})
    assert changed.status_code == 200
    assert changed.json()["tables"][0]["scores"] == [400, 420]


def test_gibsonized_and_class_marks(event) -> None:
    d, director = event
    d.gibson = True
    d.planned_rounds = 3
    d.class_bands = [["A", 1650], ["B", 0]]
    d.save()
    results.enter_line(d, 2, "1 600 4 300", director)
    data = Client().get(FEED).json()
    marks = {c["number"]: (c["gibsonized"], c["class"]) for c in data["players"]}
    gibsons = {n for n, (g, _) in marks.items() if g}
    from tournament.standings.gibson import gibsonized

    assert gibsons == {g.player.number for g in gibsonized(d, public=True, stamps=read_stamps(d))}
    assert {n: c for n, (_, c) in marks.items()} == {1: "A", 2: "A", 3: "B", 4: "B"}


def test_pages_and_card(event) -> None:
    page = Client().get(PAGE + "scoreboard/?per=2&seconds=5")
    assert page.status_code == 200
    body = page.content.decode()
    assert 'data-per="2"' in body and 'data-seconds="5"' in body and 'id="cards-data"' in body
    assert "cards.js" in body and FEED in body
    bad = Client().get(PAGE + "scoreboard/?per=abc&seconds=9999").content.decode()
    assert 'data-per="8"' in bad and 'data-seconds="120"' in bad
    one = Client().get(PAGE + "scoreboard/3/")
    assert one.status_code == 200 and 'data-player="3"' in one.content.decode()
    assert Client().get(PAGE + "scoreboard/9/").status_code == 404


def test_hidden_event_has_no_cards(event) -> None:
    d, _ = event
    Tournament.objects.filter(pk=d.tournament_id).update(public=False)
    assert Client().get(FEED).status_code == 404
    assert Client().get(PAGE + "scoreboard/").status_code == 404
    assert Client().get(PAGE + "overlay/?player=1").status_code == 404


def test_overlay_pages(event) -> None:
    player = Client().get(PAGE + "overlay/?player=2")
    assert player.status_code == 200
    body = player.content.decode()
    assert 'data-player="2"' in body and "overlay-strip" in body and FEED in body
    table = Client().get(PAGE + "overlay/?table=1&layout=full&seconds=10&photo=0")
    body = table.content.decode()
    assert 'data-table="1"' in body and "overlay-full" in body and "no-photos" in body
    assert 'data-seconds="10"' in body
    for query, word in [
        ("", "player"),
        ("?player=1&table=1", "player"),
        ("?player=x", "player"),
        ("?player=1&layout=wide", "layout"),
        ("?player=1&seconds=0", "seconds"),
    ]:
        refused = Client().get(PAGE + "overlay/" + query)
        assert refused.status_code == 400, query
        assert word in refused.content.decode()


def test_after_each_result_the_cards_are_the_changed_players_read_again_and_exact(
    event, django_capture_on_commit_callbacks
) -> None:
    from django.core.cache import cache

    from tournament.hall import cards
    from tournament.results import corrections
    from tournament.standings import memos

    d, director = event
    cache.clear()
    memos.clear_all()
    cards.scoreboard(d, read_stamps(d))  # the cards kept under the stamp before

    def after(write) -> dict:
        with django_capture_on_commit_callbacks(execute=True):
            write()
        now = read_stamps(d)
        assert cards._patched(d, {p.pk: p for p in d.players.all()}, now.stamp) is not None
        served = cards.scoreboard(d, now)
        with memos.afresh():
            built = cards.scoreboard(d, now)
        assert served == built
        # The feed's text, each card's kept with it: the same cards, exactly.
        assert json.loads(cards.scoreboard_json(d, now)) == built
        assert json.loads(Client().get(FEED).content) == built
        return served

    served = after(lambda: results.enter_line(d, 2, "1 420 4 440", director))
    four = next(c for c in served["players"] if c["number"] == 4)
    assert four["last"] == {
        "round": 2,
        "table": 1,
        "opponent": "Smylie, Jackson",
        "opponent_number": 1,
        "kind": "played",
        "first": True,
        "score": 440,
        "opponent_score": 420,
        "result": "W",
    }
    assert served["tables"][0] == {"table": 1, "round": 2, "players": [4, 1], "scores": [440, 420]}
    after(lambda: results.enter_line(d, 2, "1 430 4 440", director, 1, reason="the slip"))
    after(lambda: corrections.undo_last(d, director))
    served = after(lambda: corrections.undo_last(d, director))
    four = next(c for c in served["players"] if c["number"] == 4)
    assert four["last"]["round"] == 1 and four["current"]["score"] is None
