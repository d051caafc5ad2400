"""The public pages: tournament list, standings, pairings, a player's games, crosstable, scoresheet.

Every tournament is built here with the ORM. The small one, worked out by hand:

    players   1 Ann 1800   2 Bob 1700   3 Cy 1600   4 Di 1500
    round 1   table 1  Ann 400 – Bob 350 (Ann first)     table 2  Cy 380 – Di 380 (a tie)
    round 2   table 1  Ann 390 – Di 410                  Bob a bye (+50), Cy a forfeit (−50)
    round 3   table 1  Ann 450 – Cy 400                  table 2  Bob 360 – Di 400

    after round 3   Di  ½ + 1 + 1 = 2.5–0.5    0 + 20 + 40    =  +60   rank 1
                    Ann 1 + 0 + 1 = 2–1       50 − 20 + 50    =  +80   rank 2
                    Bob 0 + 1 + 0 = 1–2      −50 + 50 − 40    =  −40   rank 3
                    Cy  ½ + 0 + 0 = 0.5–2.5    0 − 50 − 50    = −100   rank 4
    after round 1   Ann 1–0 +50 rank 1; Cy and Di 0.5–0.5 0 share rank 2 (Cy first on rating);
                    Bob 0–1 −50 rank 4
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from html.parser import HTMLParser

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from scoring_support import SIX_SCORELESS

from tournament.models import Division, Game, Player, Scoresheet, Tournament

# scoring_support's hand-made game; ann's RETAINS scores 66 (2 + 6 = 8, doubled 16, + 50), not
# the 70 written on line 3 of the wrong one.
RIGHT_SCORE_GCG = SIX_SCORELESS
WRONG_SCORE_GCG = (
    SIX_SCORELESS.replace("+66 66", "+70 70").replace("+0 66", "+0 70").replace("-16 50", "-16 54")
)


# -- reading the pages -------------------------------------------------------------------------


class _Tables(HTMLParser):
    """The text of every cell of every <table>, row by row: the texts of a cell's elements
    joined by a space, but an isolate (<bdi>) read as the inline text it is."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[list[list[str]]] = []
        self._cell: list[str] | None = None
        self._inline = False

    def handle_starttag(self, tag: str, attrs: list) -> None:
        self._inline = tag == "bdi"
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        self._inline = tag == "bdi"
        if tag in ("td", "th") and self._cell is not None:
            self.tables[-1][-1].append(" ".join("".join(self._cell).split()))
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(("" if self._inline else " ") + data)
        self._inline = True


def tables_of(response) -> list[list[list[str]]]:
    """Each table of the page as rows of cell texts, its header row first."""
    parser = _Tables()
    parser.feed(response.content.decode())
    return parser.tables


def body_rows(response, index: int = 0) -> list[list[str]]:
    return tables_of(response)[index][1:]


def column(response, index: int, table: int = 0) -> list[str]:
    return [row[index] for row in body_rows(response, table)]


# -- building tournaments ----------------------------------------------------------------------


@dataclass
class Event:
    tournament: Tournament
    division: Division
    players: dict[str, Player]
    games: dict[str, Game]


def make_event(slug: str = "spring", public: bool = True) -> Event:
    tournament = Tournament.objects.create(name="Spring Open", slug=slug, public=public)
    division = Division.objects.create(tournament=tournament, name="Division A")
    players = {
        name: Player.objects.create(division=division, number=n, name=name, rating=rating)
        for n, (name, rating) in enumerate(
            [("Ann", 1800), ("Bob", 1700), ("Cy", 1600), ("Di", 1500)], 1
        )
    }
    ann, bob, cy, di = players.values()

    def game(round_: int, table: int | None, p1: Player, p2: Player | None, s1: int, s2=None, **kw):
        return Game.objects.create(
            division=division,
            round=round_,
            table=table,
            player1=p1,
            player2=p2,
            score1=s1,
            score2=s2,
            **kw,
        )

    games = {
        "r1 ann bob": game(1, 1, ann, bob, 400, 350, first=1),
        "r1 cy di": game(1, 2, cy, di, 380, 380),
        "r2 ann di": game(2, 1, ann, di, 390, 410),
        "r2 bob bye": game(2, None, bob, None, 50, kind=Game.BYE),
        "r2 cy forfeit": game(2, None, cy, None, -50, kind=Game.FORFEIT),
        "r3 ann cy": game(3, 1, ann, cy, 450, 400),
        "r3 bob di": game(3, 2, bob, di, 360, 400),
    }
    return Event(tournament, division, players, games)


def url(name: str, event: Event, *args: object) -> str:
    if name in ("tournament", "scoresheet"):
        return reverse(name, args=[event.tournament.slug, *args])
    return reverse(name, args=[event.tournament.slug, event.division.name, *args])


def circle_division(tournament: Tournament, name: str, players: int, rounds: int) -> Division:
    """A division of an even number of players paired by the circle method, every game played."""
    division = Division.objects.create(tournament=tournament, name=name)
    entrants = Player.objects.bulk_create(
        Player(division=division, number=n, name=f"Player {n:02d}", rating=2000 - n)
        for n in range(1, players + 1)
    )
    games = []
    order = list(entrants)
    for round_ in range(1, rounds + 1):
        for table in range(players // 2):
            one, two = order[table], order[-1 - table]
            games.append(
                Game(
                    division=division,
                    round=round_,
                    table=table + 1,
                    player1=one,
                    player2=two,
                    score1=350 + (one.number * 7 + round_ * 13) % 150,
                    score2=350 + (two.number * 11 + round_ * 5) % 150,
                    first=1,
                )
            )
        order = [order[0], order[-1], *order[1:-1]]
    Game.objects.bulk_create(games)
    return division


# -- the tournament list -----------------------------------------------------------------------


@pytest.mark.django_db
def test_the_list_shows_public_tournaments_only(client: Client) -> None:
    make_event("spring")
    Tournament.objects.create(name="Club Night", slug="club-night", public=True)
    Tournament.objects.create(name="Secret Invitational", slug="secret", public=False)

    page = client.get(reverse("home")).content.decode()

    assert "Spring Open" in page
    assert reverse("tournament", args=["spring"]) in page
    assert "Club Night" in page
    assert "Secret Invitational" not in page


@pytest.mark.django_db
def test_the_list_shows_a_director_their_own_private_tournament(client: Client) -> None:
    director = User.objects.create_user("dora", password="x")
    secret = Tournament.objects.create(name="Secret Invitational", slug="secret", public=False)
    secret.directors.add(director)
    Tournament.objects.create(name="Someone Else's", slug="else", public=False)
    client.force_login(director)

    page = client.get(reverse("home")).content.decode()

    assert "Secret Invitational" in page
    assert "Someone Else" not in page


@pytest.mark.django_db
def test_the_tournament_page_links_each_division_s_standings_crosstable_and_rounds(
    client: Client,
) -> None:
    event = make_event()

    page = client.get(url("tournament", event)).content.decode()

    assert "Division A" in page
    assert url("standings", event) in page
    assert url("crosstable", event) in page
    for round_ in (1, 2, 3):
        assert url("pairings", event, round_) in page


# -- standings ---------------------------------------------------------------------------------


@pytest.mark.django_db
def test_standings_show_exact_ranks_records_and_spreads_in_rank_order(client: Client) -> None:
    event = make_event()

    response = client.get(url("standings", event))

    assert response.status_code == 200
    assert tables_of(response)[0][0] == ["#", "Player", "Record", "Spread", "Rating"]
    assert body_rows(response) == [
        ["1", "Di", "2.5–0.5", "+60", "1500"],
        ["2", "Ann", "2–1", "+80", "1800"],
        ["3", "Bob", "1–2", "-40", "1700"],
        ["4", "Cy", "0.5–2.5", "-100", "1600"],
    ]
    assert "after round 3" in response.content.decode()


@pytest.mark.django_db
def test_standings_after_an_earlier_round_share_a_rank_between_level_players(
    client: Client,
) -> None:
    event = make_event()

    response = client.get(url("standings", event), {"round": 1})

    assert body_rows(response) == [
        ["1", "Ann", "1–0", "+50", "1800"],
        ["2", "Cy", "0.5–0.5", "0", "1600"],
        ["2", "Di", "0.5–0.5", "0", "1500"],
        ["4", "Bob", "0–1", "-50", "1700"],
    ]


@pytest.mark.django_db
def test_standings_sort_by_another_column(client: Client) -> None:
    event = make_event()
    standings = url("standings", event)

    assert column(client.get(standings, {"sort": "spread"}), 1) == ["Cy", "Bob", "Di", "Ann"]
    assert column(client.get(standings, {"sort": "-spread"}), 1) == ["Ann", "Di", "Bob", "Cy"]
    assert column(client.get(standings, {"sort": "name"}), 1) == ["Ann", "Bob", "Cy", "Di"]
    assert column(client.get(standings, {"sort": "-rating"}), 1) == ["Ann", "Bob", "Cy", "Di"]
    # Sorting by record orders by wins, then fewer losses.
    assert column(client.get(standings, {"sort": "-record"}), 1) == ["Di", "Ann", "Bob", "Cy"]


@pytest.mark.django_db
def test_standings_with_capped_spread_clip_each_game_to_the_cap(client: Client) -> None:
    event = make_event()
    event.division.spread_cap = [30]
    event.division.save()

    response = client.get(url("standings", event), {"capped": "1"})

    # Ann +30 −20 +30 = +40; Di 0 + 20 + 30 = +50; Bob −30 + 30 − 30 = −30; Cy 0 − 30 − 30 = −60.
    assert body_rows(response) == [
        ["1", "Di", "2.5–0.5", "+50", "1500"],
        ["2", "Ann", "2–1", "+40", "1800"],
        ["3", "Bob", "1–2", "-30", "1700"],
        ["4", "Cy", "0.5–2.5", "-60", "1600"],
    ]


@pytest.mark.django_db
@pytest.mark.parametrize("players, rounds", [(4, 3), (40, 10)])
def test_the_standings_page_runs_the_same_number_of_queries_for_any_size(
    client: Client, django_assert_num_queries, players: int, rounds: int
) -> None:
    tournament = Tournament.objects.create(name="Big Open", slug="big")
    circle_division(tournament, "Division A", players, rounds)
    page = reverse("standings", args=["big", "Division A"])

    # The divisions' stamps (the page cache's key, read once and passed down to every read of
    # the page), the tournament, the division, the rounds' count, and on the first view the
    # players and the games; later views find the whole page in the cache under the same stamps.
    with django_assert_num_queries(6):
        response = client.get(page, {"sort": "-spread"})
    with django_assert_num_queries(1):
        again = client.get(page, {"sort": "-spread"})

    assert response.status_code == 200
    assert len(body_rows(response)) == players
    assert again.content == response.content


@pytest.mark.django_db
@pytest.mark.parametrize("players, rounds", [(4, 3), (40, 10)])
def test_the_crosstable_and_player_pages_run_the_same_number_of_queries_for_any_size(
    client: Client, django_assert_num_queries, players: int, rounds: int
) -> None:
    tournament = Tournament.objects.create(name="Big Open", slug="big")
    circle_division(tournament, "Division A", players, rounds)

    # The page cache's stamps (passed down), the tournament, the division; the players and the
    # games (the cells of every round are written from them), under which the standings are
    # then computed without another query.
    with django_assert_num_queries(5):
        client.get(reverse("crosstable", args=["big", "Division A"]))
    # The page cache's stamps; every player's parts, worked out once for the division under
    # them: the division, then the standings (now cached), the ratings and the games tables'
    # keys from the players and games this process read under the same stamps, and which games
    # have scoresheets. The page (its tournament, division and player read with the parts): not
    # yet kept, the player's games and their scoresheets, and the key of their games table read
    # again (their games' values, which of them have scoresheets).
    with django_assert_num_queries(7):
        response = client.get(reverse("player", args=["big", "Division A", 2]))
    # Another player's page: the parts are known, the games table is not kept yet.
    with django_assert_num_queries(5):
        client.get(reverse("player", args=["big", "Division A", 3]))
    # A page asked for again: the stamps alone.
    with django_assert_num_queries(1):
        client.get(reverse("player", args=["big", "Division A", 3]))

    assert len(body_rows(response)) == rounds


# -- pairings ----------------------------------------------------------------------------------


@pytest.mark.django_db
def test_pairings_of_a_round_are_listed_by_table(client: Client) -> None:
    event = make_event()

    first = client.get(url("pairings", event, 1))
    second = client.get(url("pairings", event, 2))

    assert tables_of(first)[0][0] == ["Table", "Player", "Score", "Opponent"]
    assert body_rows(first) == [
        ["1", "Ann (first)", "400–350", "Bob"],
        ["2", "Cy", "380–380", "Di"],
    ]
    assert body_rows(second) == [
        ["1", "Ann", "390–410", "Di"],
        ["", "Bob", "+50", "Bye"],
        ["", "Cy", "-50", "Forfeit"],
    ]


@pytest.mark.django_db
def test_pairings_of_a_round_are_listed_by_name(client: Client) -> None:
    event = make_event()

    first = client.get(url("pairings", event, 1))
    second = client.get(url("pairings", event, 2))

    assert tables_of(first)[1][0] == ["Player", "Table", "Opponent", "1st/2nd", "Score"]
    assert body_rows(first, 1) == [
        ["Ann", "1", "Bob", "first", "400–350"],
        ["Bob", "1", "Ann", "second", "350–400"],
        ["Cy", "2", "Di", "", "380–380"],
        ["Di", "2", "Cy", "", "380–380"],
    ]
    assert body_rows(second, 1) == [
        ["Ann", "1", "Di", "", "390–410"],
        ["Bob", "", "Bye", "", "+50"],
        ["Cy", "", "Forfeit", "", "-50"],
        ["Di", "1", "Ann", "", "410–390"],
    ]


@pytest.mark.django_db
def test_pairings_of_a_round_without_results_show_the_pairings_only(client: Client) -> None:
    event = make_event()
    ann, bob, cy, di = event.players.values()
    Game.objects.create(division=event.division, round=4, table=1, player1=ann, player2=bob)
    Game.objects.create(division=event.division, round=4, table=2, player1=di, player2=cy, first=1)

    response = client.get(url("pairings", event, 4))

    assert body_rows(response) == [["1", "Ann", "", "Bob"], ["2", "Di (first)", "", "Cy"]]
    # The standings stay after round 3, the last with a result.
    assert "after round 3" in client.get(url("standings", event)).content.decode()


# -- a player's games --------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_player_s_page_shows_each_game_with_the_running_record(client: Client) -> None:
    event = make_event()
    sheet = Scoresheet.objects.create(
        game=event.games["r3 ann cy"], gcg=RIGHT_SCORE_GCG, verified=True
    )

    response = client.get(url("player", event, 1))

    header = ["Rd", "Opponent", "1st/2nd", "Score", "Result", "Record", "Scoresheet"]
    assert tables_of(response)[0][0] == header
    assert body_rows(response) == [
        ["1", "Bob", "first", "400–350", "win", "1–0 +50", ""],
        ["2", "Di", "", "390–410", "loss", "1–1 +30", ""],
        ["3", "Cy", "", "450–400", "win", "2–1 +80", "verified"],
    ]
    page = response.content.decode()
    assert url("scoresheet", event, sheet.pk) in page
    assert url("player", event, 2) in page  # the opponents are links
    assert "rank 2" in page


@pytest.mark.django_db
def test_a_player_s_page_counts_a_tie_as_half_and_a_forfeit_as_a_loss(client: Client) -> None:
    event = make_event()

    cy = client.get(url("player", event, 3))
    bob = client.get(url("player", event, 2))

    assert body_rows(cy) == [
        ["1", "Di", "", "380–380", "tie", "0.5–0.5 0", ""],
        ["2", "Forfeit", "", "-50", "loss", "0.5–1.5 -50", ""],
        ["3", "Ann", "", "400–450", "loss", "0.5–2.5 -100", ""],
    ]
    assert body_rows(bob) == [
        ["1", "Ann", "second", "350–400", "loss", "0–1 -50", ""],
        ["2", "Bye", "", "+50", "win", "1–1 0", ""],
        ["3", "Di", "", "360–400", "loss", "1–2 -40", ""],
    ]


# -- the crosstable ----------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_crosstable_shows_each_player_s_round_by_round_results(client: Client) -> None:
    event = make_event()

    response = client.get(url("crosstable", event))

    assert tables_of(response)[0][0] == ["#", "No", "Player", "Record", "Spread", "R1", "R2", "R3"]
    assert body_rows(response) == [
        ["1", "4", "Di", "2.5–0.5", "+60", "T #3 380–380", "W #1 410–390", "W #2 400–360"],
        ["2", "1", "Ann", "2–1", "+80", "W #2 400–350", "L #4 390–410", "W #3 450–400"],
        ["3", "2", "Bob", "1–2", "-40", "L #1 350–400", "W bye +50", "L #4 360–400"],
        ["4", "3", "Cy", "0.5–2.5", "-100", "T #4 380–380", "L forfeit -50", "L #1 400–450"],
    ]


# -- a scoresheet ------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_scoresheet_shows_the_engine_s_score_beside_the_recorded_one_and_the_finding_on_its_line(
    client: Client,
) -> None:
    event = make_event()
    # A sheet with an error finding is held from the public until the director publishes it
    # anyway (`released`).
    sheet = Scoresheet.objects.create(
        game=event.games["r3 ann cy"], gcg=WRONG_SCORE_GCG, released=True
    )

    response = client.get(url("scoresheet", event, sheet.pk))

    assert response.status_code == 200
    header, *moves = tables_of(response)[0]
    assert header == ["Line", "Player", "Move", "Score", "Engine", "Total", "Engine", "Findings"]
    assert moves[0] == [
        "3",
        "ann",
        ">ann: AEINRST 8D RETAINS +70 70",
        "70",
        "66",
        "70",
        "66",
        "wrong_score: RETAINS at 8D scores 66, not 70",
    ]
    assert moves[1] == ["4", "bob", ">bob: CDGLNOU - +0 0", "0", "0", "0", "0", ""]
    assert [m[0] for m in moves] == [str(n) for n in range(3, 12)]
    # Only line 3 has a finding; the later totals are off by the same 4 points.
    assert [m[7] for m in moves[1:]] == [""] * 8
    assert moves[-2][5:7] == ["54", "50"]
    page = html.unescape(response.content.decode())
    assert "1 error" in page
    assert "  8 = . . R E T A I N S . ' . . =" in page  # the final board


@pytest.mark.django_db
def test_a_verified_scoresheet_shows_its_moves_with_the_engine_s_scores(client: Client) -> None:
    event = make_event()
    sheet = Scoresheet.objects.create(
        game=event.games["r3 ann cy"], gcg=RIGHT_SCORE_GCG, verified=True
    )

    response = client.get(url("scoresheet", event, sheet.pk))

    moves = body_rows(response)
    assert moves[0][:7] == ["3", "ann", ">ann: AEINRST 8D RETAINS +66 66", "66", "66", "66", "66"]
    assert all(m[7] == "" for m in moves)
    assert "verified" in response.content.decode()


# -- who may see what --------------------------------------------------------------------------


def every_page(event: Event, sheet: Scoresheet) -> list[str]:
    return [
        url("tournament", event),
        url("standings", event),
        url("pairings", event, 2),
        url("player", event, 1),
        url("crosstable", event),
        url("scoresheet", event, sheet.pk),
    ]


@pytest.mark.django_db
def test_a_private_tournament_is_not_found_by_a_stranger_but_shown_to_its_director(
    client: Client,
) -> None:
    event = make_event(public=False)
    sheet = Scoresheet.objects.create(
        game=event.games["r3 ann cy"], gcg=RIGHT_SCORE_GCG, verified=True
    )
    director = User.objects.create_user("dora", password="x")
    event.tournament.directors.add(director)
    other = User.objects.create_user("otto", password="x")

    for page in every_page(event, sheet):
        assert client.get(page).status_code == 404, page
    client.force_login(other)
    for page in every_page(event, sheet):
        assert client.get(page).status_code == 404, page
    client.force_login(director)
    for page in every_page(event, sheet):
        assert client.get(page).status_code == 200, page


@pytest.mark.django_db
def test_no_public_page_has_an_edit_control(client: Client) -> None:
    event = make_event()
    sheet = Scoresheet.objects.create(
        game=event.games["r3 ann cy"], gcg=WRONG_SCORE_GCG, released=True
    )

    for page in [reverse("home"), *every_page(event, sheet)]:
        content = client.get(page).content.decode()
        # The header's language switcher is the one form: it changes the reader's language only.
        switcher = re.compile(r'<form class="language".*?</form>', re.S)
        assert len(switcher.findall(content)) == 1, page
        content = switcher.sub("", content)
        for control in ("<form", "<input", "<button", "<textarea", "<select"):
            assert control not in content, (page, control)


@pytest.mark.django_db
def test_pages_for_something_missing_are_not_found(client: Client) -> None:
    event = make_event()
    elsewhere = make_event("autumn")
    foreign = Scoresheet.objects.create(game=elsewhere.games["r1 ann bob"], gcg=RIGHT_SCORE_GCG)
    standings = url("standings", event)

    missing = [
        reverse("tournament", args=["no-such"]),
        reverse("standings", args=["no-such", "Division A"]),
        reverse("standings", args=["spring", "Division Z"]),
        reverse("crosstable", args=["spring", "Division Z"]),
        reverse("pairings", args=["spring", "Division Z", 1]),
        url("pairings", event, 9),
        url("pairings", event, 0),
        url("player", event, 99),
        reverse("player", args=["spring", "Division Z", 1]),
        url("scoresheet", event, 999),
        url("scoresheet", event, foreign.pk),  # a scoresheet of another tournament
        f"{standings}?round=9",
        f"{standings}?round=abc",
        f"{standings}?round=-1",
    ]
    for page in missing:
        assert client.get(page).status_code == 404, page
    assert client.get(f"{standings}?round=0").status_code == 200  # before round 1


@pytest.mark.django_db
def test_a_withdrawn_player_keeps_their_record_without_a_rank(client: Client) -> None:
    event = make_event()
    Player.objects.filter(name="Bob").update(withdrawn_from_round=3)

    response = client.get(url("standings", event))

    assert body_rows(response) == [
        ["1", "Di", "2.5–0.5", "+60", "1500"],
        ["2", "Ann", "2–1", "+80", "1800"],
        ["3", "Cy", "0.5–2.5", "-100", "1600"],
        ["–", "Bob", "1–2", "-40", "1700"],
    ]


@pytest.mark.django_db
def test_a_bye_paired_but_not_yet_scored_shows_no_result(client: Client) -> None:
    event = make_event()
    ann, bob, cy, di = event.players.values()
    Game.objects.create(division=event.division, round=4, table=1, player1=ann, player2=di)
    Game.objects.create(division=event.division, round=4, player1=bob, kind=Game.BYE)

    pairings = client.get(url("pairings", event, 4))
    bob_page = client.get(url("player", event, 2))
    crosstable = client.get(url("crosstable", event))

    assert body_rows(pairings) == [["1", "Ann", "", "Di"], ["", "Bob", "", "Bye"]]
    assert body_rows(bob_page)[-1] == ["4", "Bye", "", "", "", "1–2 -40", ""]
    assert body_rows(crosstable)[2][-1] == "bye"
