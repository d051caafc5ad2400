"""The desk's save, made cheap at 500 players, says the same as before.

After each save the desk shows both players' records (`read_model.records_of`, from their own
games alone, where the whole standings were computed afresh) and swaps in the round's table
(`results.views.round_rows_html`, written in one pass from plain values, where a template looped
over every game's model instance); the save sends back the rows of the games it wrote alone.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from django.test import Client
from text_support import plain

from tournament.exchange import tsh_io
from tournament.models import Division, Game
from tournament.results.views import round_rows_html
from tournament.standings import read_model
from tournament.standings.rows import Row
from tournament.standings.stamps import read as read_stamps

JSON = {"HTTP_ACCEPT": "application/json"}
CORPUS = Path(__file__).resolve().parents[4] / "shared" / "corpus" / "tsh"
EVENTS = [
    CORPUS / "domino14_tsh-parser" / "a.t",  # the real 60-player event of bench/load.py
    CORPUS / "jvc56_tournament_pairing_algorithms" / "a.t",
]


def _enter(desk: Client, division: Division, line: str) -> dict:
    path = f"/desk/spring-open/division/{division.pk}/round/1/enter"
    return desk.post(path, {"line": line}, **JSON).json()


def _standing(row: Row) -> tuple:
    return (row.player.number, row.name, row.record, row.wins, row.losses, row.spread, row.games)


@pytest.mark.parametrize("source", EVENTS, ids=["domino14-a.t", "jvc56-a.t"])
@pytest.mark.django_db
def test_every_players_record_is_their_row_of_the_standings(tmp_path: Path, source: Path):
    if not source.is_file():
        pytest.skip(f"the shared tsh corpus is not here ({source})")
    target = tmp_path / "a.t"
    shutil.copyfile(source, target)
    division = tsh_io.import_tsh(target, slug="event", name="Event").divisions.get()
    rows = read_model.division_standings(division, public=False, stamps=read_stamps(division))
    assert len(rows) > 20

    numbers = [r.player.number for r in rows]
    records = read_model.records_of(division, numbers, public=False, stamps=read_stamps(division))

    assert [_standing(r) for r in records] == [_standing(r) for r in rows]


@pytest.mark.django_db
def test_records_count_byes_forfeits_and_only_what_the_public_may_see(
    desk: Client, division: Division
) -> None:
    assert _enter(desk, division, "1 455 2 389")["ok"]
    assert _enter(desk, division, "3 forfeit")["ok"]
    assert _enter(desk, division, "7 bye")["ok"]

    records = read_model.records_of(
        division, [7, 4, 3, 1, 99], public=False, stamps=read_stamps(division)
    )

    assert [(r.name, r.record, r.spread, r.games) for r in records] == [
        ("Reed, Hal", "0–0", 0, 0),  # round 1 is not complete: its bye does not count yet
        ("Moss, Eli", "1–0", 50, 1),
        ("Vale, Cora", "0–1", -50, 1),
        ("Quill, Ada", "1–0", 66, 1),
    ]
    full = {
        r.player.number: r
        for r in read_model.division_standings(division, public=False, stamps=read_stamps(division))
    }
    assert [_standing(r) for r in records] == [_standing(full[n]) for n in (7, 4, 3, 1)]
    public = {
        r.player.number: r
        for r in read_model.division_standings(division, stamps=read_stamps(division))
    }
    assert [
        _standing(r) for r in read_model.records_of(division, [1, 7], stamps=read_stamps(division))
    ] == [
        _standing(public[1]),
        _standing(public[7]),
    ]


@pytest.mark.django_db
def test_the_save_answers_the_players_records_and_the_rounds_rows(
    desk: Client, division: Division
) -> None:
    forfeit = _enter(desk, division, "3 forfeit")
    data = _enter(desk, division, "1 455 2 389")

    assert plain(data["records"]) == "Now: Quill, Ada 1–0 +66; Crane, Ben 0–1 -66."
    games = {g.player1.number: g.pk for g in division.games.all()}
    link = "/desk/spring-open/games/{}/"
    rows = {
        1: f'<tr class="" data-game="{games[1]}"><td>1</td><td>1 <bdi>Quill, Ada</bdi></td>'
        '<td class="num">455</td><td>2 <bdi>Crane, Ben</bdi></td><td class="num">389</td><td>1</td>'
        f'<td><a href="{link.format(games[1])}">correct</a></td></tr>',
        3: f'<tr class="" data-game="{games[3]}"><td>2</td><td>3 <bdi>Vale, Cora</bdi></td>'
        '<td class="num">-50</td><td colspan="3" class="muted">forfeit loss</td>'
        f'<td><a href="{link.format(games[3])}">correct</a></td></tr>',
        4: f'<tr class="" data-game="{games[4]}"><td>2</td><td>4 <bdi>Moss, Eli</bdi></td>'
        '<td class="num">50</td><td colspan="3" class="muted">forfeit win</td>'
        f'<td><a href="{link.format(games[4])}">correct</a></td></tr>',
        5: f'<tr class="missing" data-game="{games[5]}"><td>3</td><td>5 <bdi>North, Fay</bdi></td>'
        '<td class="num"></td><td>6 <bdi>Stone, Gus</bdi></td><td class="num"></td><td>6</td>'
        f'<td><a href="{link.format(games[5])}">open</a></td></tr>',
        7: f'<tr class="missing" data-game="{games[7]}"><td></td><td>7 <bdi>Reed, Hal</bdi></td>'
        '<td class="num"></td><td colspan="3" class="muted">bye</td>'
        f'<td><a href="{link.format(games[7])}">open</a></td></tr>',
    }
    # In the games' order (the bye's empty table sorts first or last as the database has it).
    written = "\n".join(rows[g.player1.number] for g in division.games.filter(round=1))
    assert round_rows_html(division, 1) == written
    # The forfeit made the opponent's game, not on the page: the whole round came back.
    assert rows[3] in forfeit["html"] and rows[4] in forfeit["html"]
    # The save answers the row of its game alone, exactly as the round's table writes it.
    assert data["rows"] == {str(games[1]): rows[1]}
    assert "html" not in data
    assert (
        written in desk.get(f"/desk/spring-open/division/{division.pk}/round/1/").content.decode()
    )


@pytest.mark.django_db
def test_a_round_without_games_says_so_and_names_are_escaped(division: Division) -> None:
    assert round_rows_html(division, 2) == (
        '<tr><td colspan="7" class="muted">Round 2 has no pairings yet.</td></tr>'
    )
    player = division.players.get(number=1)
    player.name = "<b>Ada</b> & co"
    player.save()
    assert "<td>1 <bdi>&lt;b&gt;Ada&lt;/b&gt; &amp; co</bdi></td>" in round_rows_html(division, 1)
    assert Game.objects.filter(division=division, round=1).count() == 4


@pytest.mark.django_db
def test_a_bye_counts_in_the_records_when_the_division_counts_it(
    desk: Client, division: Division
) -> None:
    assert division.byes_count == "complete"  # a round's byes count once it is complete
    assert _enter(desk, division, "7 bye")["ok"]
    assert _enter(desk, division, "1 455 2 389")["ok"]

    def both() -> list[tuple]:
        full = {
            r.player.number: r
            for r in read_model.division_standings(
                division, public=False, stamps=read_stamps(division)
            )
        }
        records = read_model.records_of(
            division, [7, 1], public=False, stamps=read_stamps(division)
        )
        assert [_standing(r) for r in records] == [_standing(full[n]) for n in (7, 1)]
        return [(r.record, r.spread, r.games) for r in records]

    assert both() == [("0–0", 0, 0), ("1–0", 66, 1)]
    assert _enter(desk, division, "3 300 4 410")["ok"]
    data = _enter(desk, division, "5 420 6 400")
    assert both() == [("1–0", 50, 1), ("1–0", 66, 1)]
    assert plain(data["records"]) == "Now: North, Fay 1–0 +20; Stone, Gus 0–1 -20."


@pytest.mark.django_db
def test_the_rounds_missing_results_are_counted_and_the_first_linked(
    desk: Client, division: Division
) -> None:
    from tournament.models import Player, Round
    from tournament.results import unresolved

    more = [Player.objects.create(division=division, number=n, name=f"P{n}") for n in range(8, 72)]
    for table, k in enumerate(range(0, len(more), 2), start=4):
        Game.objects.create(
            division=division, round=1, table=table, player1=more[k], player2=more[k + 1]
        )
    Round.objects.create(division=division, number=1, published=True)
    assert _enter(desk, division, "1 455 2 389")["ok"]

    [item] = unresolved.for_division(division, 1)
    [whole] = unresolved.for_division(division)  # the dashboard's, from the division's games
    assert plain(item.sentence) == plain(whole.sentence) == "Round 1: 35 results missing."
    assert [g.table for g in item.games] == [g.table for g in whole.games]
    assert {None, 2, 3, 4} <= {g.table for g in item.games} and len(item.games) == 30
    assert item.more == whole.more == 5
    page = desk.get(f"/desk/spring-open/division/{division.pk}/round/1/").content.decode()
    assert ", and 5 more" in page
