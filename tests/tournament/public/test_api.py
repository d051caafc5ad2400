"""The read-only JSON API v1 and TSH's tourney.js (tournament/public/api.py)."""

from __future__ import annotations

import json

import pytest
from django.core.cache import cache
from django.test import Client

from tournament.models import Division, Round
from tournament.results import services as results

BASE = "/api/v1/t/spring-open/A/"


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    cache.clear()


def test_pairings_give_table_first_second_and_scores(division: Division, director) -> None:
    data = Client().get(BASE + "round/1/pairings").json()
    assert data == [
        {"table": 1, "first": 1, "second": 2, "scores": None, "penalties": None, "kind": "played"},
        {"table": 2, "first": 3, "second": 4, "scores": None, "penalties": None, "kind": "played"},
        {"table": 3, "first": 6, "second": 5, "scores": None, "penalties": None, "kind": "played"},
        {
            "table": None,
            "first": 7,
            "second": None,
            "scores": None,
            "penalties": None,
            "kind": "bye",
        },
    ]
    results.enter_line(division, 1, "6 400 5 350", director)
    results.enter_line(division, 1, "7 bye", director)
    data = Client().get(BASE + "round/1/pairings").json()
    assert data[2]["scores"] == [400, 350]
    assert data[3]["scores"] == [50, None]
    assert data[2]["penalties"] == [0, 0]
    assert data[3]["penalties"] == [0, None]


def test_pairings_give_the_time_penalties_in_the_scores_order(division: Division, director) -> None:
    # Gus (6) goes first at table 3: his 400 less 20 for two minutes over, Fay's 350 less 10.
    results.enter_line(division, 1, "6 400 5 350 ot 6 2 ot 5 0:40", director)

    data = Client().get(BASE + "round/1/pairings").json()

    assert data[2] == {
        "table": 3,
        "first": 6,
        "second": 5,
        "scores": [380, 340],
        "penalties": [20, 10],
        "kind": "played",
    }


def test_an_unpublished_round_is_not_in_the_api(division: Division) -> None:
    Round.objects.create(division=division, number=1, published=False)
    assert Client().get(BASE + "round/1/pairings").status_code == 404
    assert Client().get(BASE + "rounds").json() == []


def test_etag_gives_304_until_a_result_changes(division: Division, director) -> None:
    first = Client().get(BASE + "standings")
    etag = first["ETag"]
    again = Client().get(BASE + "standings", headers={"if-none-match": etag})
    assert again.status_code == 304
    results.enter_line(division, 1, "1 420 2 380", director)
    changed = Client().get(BASE + "standings", headers={"if-none-match": etag})
    assert changed.status_code == 200
    rows = changed.json()
    assert rows[0]["number"] == 1 and rows[0]["wins"] == 1 and rows[0]["spread"] == 40


def test_players_and_rounds(division: Division, director) -> None:
    players = Client().get(BASE + "players").json()
    assert players[0] == {"number": 1, "name": "Quill, Ada", "rating": 0, "club": ""}
    results.enter_line(division, 1, "1 420 2 380", director)
    assert Client().get(BASE + "rounds").json() == [{"round": 1, "games": 4, "results": 1}]


def test_tourney_js_in_tsh_layout(division: Division, director) -> None:
    results.enter_line(division, 1, "1 420 2 380", director)
    body = Client().get("/t/spring-open/tourney.js").content.decode()
    assert body.startswith("newt=") and body.endswith(";\n")
    data = json.loads(body[len("newt=") : -2])
    [div] = data["divisions"]
    assert div["players"][0] is None
    ada, ben = div["players"][1], div["players"][2]
    assert (ada["name"], ada["pairings"], ada["scores"]) == ("Quill, Ada", [2], [420])
    assert (ben["pairings"], ben["scores"], ben["etc"]["p12"]) == ([1], [380], [2])
    assert ada["etc"]["p12"] == [1]
    assert ada["etc"]["rrank"][-1] == 1 and len(ada["etc"]["rrank"]) == 2
    assert len(ada["etc"]["newr"]) == 1
    assert div["players"][7]["pairings"] == [0]


def test_the_display_feed_and_a_pinned_view(division: Division, director, desk) -> None:
    division.players.update(rating=1500)  # rated players: a win gains, a loss loses
    results.enter_line(division, 1, "1 420 2 380", director)
    data = Client().get(BASE + "display").json()
    assert data["round"] == 1 and data["pin"] == ""
    assert [r["name"] for r in data["pairings"]][:3] == ["Crane, Ben", "Moss, Eli", "North, Fay"]
    ada = next(r for r in data["pairings"] if r["name"] == "Quill, Ada")
    assert ada == {
        "name": "Quill, Ada",
        "number": 1,
        "table": 1,
        "opponent": "Crane, Ben",
        "first": True,
    }
    [latest] = data["results"]
    assert (latest["one"], latest["two"], latest["scores"]) == (
        "Quill, Ada",
        "Crane, Ben",
        [420, 380],
    )
    assert latest["changes"][0] > 0 > latest["changes"][1]
    assert data["standings"][0]["name"] == "Quill, Ada"
    desk.post(f"/desk/spring-open/division/{division.pk}/claims/", {"display_pin": "standings"})
    assert Client().get(BASE + "display").json()["pin"] == "standings"
    page = Client().get("/t/spring-open/A/display/")
    assert page.status_code == 200 and b'id="display-feeds"' in page.content


def test_the_playoff_is_in_the_api_once_published(division: Division, director) -> None:
    from tournament.playoffs import services as playoffs

    for line in ("1 451 2 345", "3 300 4 420", "6 390 5 380", "7 bye"):
        results.enter_line(division, 1, line, director)
    assert Client().get(BASE + "playoff").status_code == 404  # none
    playoffs.set_up(division, 2, 3, 1, director)  # Eli (+120) and Ada (+106), best of 3
    playoffs.enter_game(division, 1, 1, 400, 350, director)
    assert Client().get(BASE + "playoff").status_code == 404  # not published
    playoffs.publish(division, director)
    first = Client().get(BASE + "playoff")
    assert first.json() == {
        "length": 3,
        "seeded_after": 1,
        "seeds": [{"seed": 1, "number": 4, "name": "Moss, Eli"},
                  {"seed": 2, "number": 1, "name": "Quill, Ada"}],
        "stages": [{"stage": 1, "name": "Final", "matches": [
            {"slot": 1, "players": [4, 1], "games": [[400, 350]], "wins": [1, 0],
             "winner": None},
        ]}],
        "champion": None,
    }  # fmt: skip
    assert first["Access-Control-Allow-Origin"] == "*"
    playoffs.enter_game(division, 1, 1, 380, 420, director)
    playoffs.enter_game(division, 1, 1, 410, 300, director)
    later = Client().get(BASE + "playoff", headers={"if-none-match": first["ETag"]})
    assert later.status_code == 200  # a game entered renews the stamp
    final = later.json()["stages"][0]["matches"][0]
    assert final == {"slot": 1, "players": [4, 1], "games": [[400, 350], [380, 420], [410, 300]],
                     "wins": [2, 1], "winner": 4}  # fmt: skip
    assert later.json()["champion"] == 4


def test_the_display_feeds_kept_rows_are_exact_after_each_result(
    division: Division, director
) -> None:
    from tournament.results import corrections
    from tournament.standings import memos

    Round.objects.create(division=division, number=1, published=True)
    division.players.update(rating=1500)
    memos.clear_all()
    first = Client().get(BASE + "display").json()  # every row written, and kept
    assert [r["record"] for r in first["standings"]] == ["0–0"] * 7

    for write in (
        lambda: results.enter_line(division, 1, "1 420 2 380", director),
        lambda: results.enter_line(division, 1, "4 300 3 380", director),
        lambda: results.enter_line(division, 1, "1 400 2 380", director, 1, reason="slip"),
        lambda: corrections.undo_last(division, director),
    ):
        write()
        served = Client().get(BASE + "display").json()  # the rows kept, where unchanged
        cache.clear()
        memos.clear_all()
        assert served == Client().get(BASE + "display").json()  # every row written afresh
    # The undo put back 420–380 (+40): Cora's +80 first.
    assert [(r["name"], r["record"], r["spread"]) for r in served["standings"]][:2] == [
        ("Vale, Cora", "1–0", 80),
        ("Quill, Ada", "1–0", 40),
    ]


@pytest.mark.parametrize(
    ("text", "tables"),
    [("61-120", (61, 120)), (" 61 \u2013 120 ", (61, 120)), ("7", (7, 7)), ("", None)],
)
def test_a_range_of_tables_first_to_last(text: str, tables: tuple[int, int] | None) -> None:
    from tournament.public.display import table_range

    assert table_range(text) == tables


@pytest.mark.parametrize("text", ["0-3", "5-2", "a", "1-2-3", "1,2", "-4"])
def test_anything_else_is_refused_saying_what_is_wanted(text: str) -> None:
    from tournament.public.display import table_range

    with pytest.raises(ValueError, match=r"^Tables are a range of table numbers, first to last"):
        table_range(text)


def test_a_screen_beside_some_tables_shows_their_pairings_and_results_alone(
    division: Division, director
) -> None:
    for line in ("1 420 2 380", "4 300 3 380", "6 390 5 380"):
        results.enter_line(division, 1, line, director)

    part = Client().get(BASE + "display?tables=2-3").json()
    every = Client().get(BASE + "display").json()

    assert part["tables"] == [2, 3] and every["tables"] is None
    assert [(r["name"], r["table"]) for r in part["pairings"]] == [
        ("Moss, Eli", 2),
        ("North, Fay", 3),
        ("Stone, Gus", 3),
        ("Vale, Cora", 2),
    ]
    assert [(r["table"], r["one"], r["scores"]) for r in part["results"]] == [
        (3, "North, Fay", [380, 390]),
        (2, "Vale, Cora", [380, 300]),
    ]
    assert part["standings"] == every["standings"] and len(every["standings"]) == 7
    assert len(every["pairings"]) == 7 and len(every["results"]) == 3
    one = Client().get(BASE + "display?tables=1").json()
    assert [r["name"] for r in one["pairings"]] == ["Crane, Ben", "Quill, Ada"]
    assert [r["table"] for r in one["results"]] == [1]


def test_a_screens_tables_wrongly_given_are_a_clear_400(division: Division) -> None:
    feed = Client().get(BASE + "display?tables=9-3")
    assert feed.status_code == 400
    assert feed.json() == {"error": "Tables are a range of table numbers, first to last: 61-120."}
    page = Client().get("/t/spring-open/A/display/?tables=x")
    assert page.status_code == 400
    assert page.content.decode() == "Tables are a range of table numbers, first to last: 61-120."


def test_the_display_page_of_some_tables_reads_their_feed(division: Division) -> None:
    page = Client().get("/t/spring-open/A/display/?tables=2-3").content.decode()
    assert '["/api/v1/t/spring-open/A/display?tables=2-3"]' in page
    assert "· division <bdi>A</bdi> · tables 2\u20133</h1>" in page
