"""A division's statistics: on the two real 23-round NASPA events of the corpus, every figure
equals the one worked out here from the `.t` file itself (read by the small reader below, not
the app's); the public page shows the published rounds only; the scoresheets give the high
plays and bingos; and the `stats` report prints them as PDF and xlsx."""

from __future__ import annotations

import io
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import openpyxl
import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from scoring_support import corpus_game

from tournament import reports
from tournament.engine import statistics as engine
from tournament.exchange import tsh_io
from tournament.models import Division, Game, Player, Round
from tournament.results import services as results
from tournament.scoresheets import services as scoresheets
from tournament.standings.statistics import division_statistics

CORPUS = Path(__file__).resolve().parents[4] / "shared" / "corpus" / "tsh"
JVC56 = CORPUS / "jvc56_tournament_pairing_algorithms"
EVENTS = [("test_data_a.t", JVC56 / "test_data_a.t.86aeb79"), ("a.t", JVC56 / "a.t")]
needs_corpus = pytest.mark.skipif(
    not JVC56.is_dir(), reason="the shared tsh corpus (../shared/corpus/tsh) is not here"
)


@dataclass(frozen=True)
class TGame:
    round: int
    one: str
    two: str
    s1: int
    s2: int
    first: int  # 1: `one` went first, 2: `two` did, 0: not known

    @property
    def winner(self) -> tuple[str, int, str, int] | None:
        if self.s1 == self.s2:
            return None
        if self.s1 > self.s2:
            return self.one, self.s1, self.two, self.s2
        return self.two, self.s2, self.one, self.s1


def read_t(path: Path) -> tuple[dict[str, int], list[TGame]]:
    """Each player's rating, and every game between two players once, from a .t file."""
    lines = [line for line in path.read_text().splitlines() if line.strip()]
    people = []
    for line in lines:
        parts = line.split(";")
        m = re.match(r"^(.*?)\s+(\d+)((?:\s+\d+)*)\s*$", parts[0])
        assert m, line
        fields = dict(p.strip().split(" ", 1) for p in parts[2:] if p.strip())
        people.append(
            (
                m.group(1).strip(),
                int(m.group(2)),
                [int(x) for x in m.group(3).split()],
                [int(x) for x in parts[1].split()],
                [int(x) for x in fields.get("p12", "").split()],
            )
        )
    games = []
    for i, (name, _rating, opponents, scores, p12) in enumerate(people, start=1):
        for r, opp in enumerate(opponents):
            if opp > i:
                other = people[opp - 1]
                first = p12[r] if r < len(p12) and p12[r] in (1, 2) else 0
                games.append(TGame(r + 1, name, other[0], scores[r], other[3][r], first))
    return {p[0]: p[1] for p in people}, games


def best(items: list, key: Callable, size: int = 10) -> list:
    """The items of the `size` highest keys, and those level with the last."""
    keys = sorted((key(x) for x in items), reverse=True)
    if len(keys) <= size:
        return items
    return [x for x in items if key(x) >= keys[size - 1]]


@needs_corpus
@pytest.mark.django_db
@pytest.mark.parametrize(("name", "source"), EVENTS, ids=[e[0] for e in EVENTS])
def test_the_statistics_of_a_real_23_round_event_are_the_t_files_own(
    tmp_path: Path, name: str, source: Path
) -> None:
    target = tmp_path / name
    shutil.copyfile(source, target)
    tournament = tsh_io.import_tsh(target, slug="event", name="Event")
    division = tournament.divisions.get(name=Path(name).stem)
    ratings, games = read_t(target)
    st = division_statistics(division)

    assert st.games == len(games) and max(g.round for g in games) == 23
    totals: dict[str, list[int]] = {}
    for g in games:
        for me, mine, theirs in ((g.one, g.s1, g.s2), (g.two, g.s2, g.s1)):
            t = totals.setdefault(me, [0, 0, 0])
            t[0] += 1
            t[1] += mine
            t[2] += theirs
    assert {a.player.name: [a.games, a.points_for, a.points_against] for a in st.averages} == (
        totals
    )
    fors = [a.average_for for a in st.averages]
    assert fors == sorted(fors, reverse=True)

    sides = [(g.round, g.one, g.s1, g.two, g.s2) for g in games]
    sides += [(g.round, g.two, g.s2, g.one, g.s1) for g in games]

    def seen(scores: list) -> list:
        return sorted((s.round, s.player.name, s.score, s.opponent.name, s.opponent_score)
                      for s in scores)  # fmt: skip

    assert seen(st.high_games) == sorted(best(sides, lambda s: s[2]))
    assert st.high_games[0].score == max(s[2] for s in sides)
    losses = [s for s in sides if s[2] < s[4]]
    assert seen(st.high_losses) == sorted(best(losses, lambda s: s[2]))
    wins = [s for s in sides if s[2] > s[4]]
    assert seen(st.low_wins) == sorted(best(wins, lambda s: -s[2]))
    assert st.low_wins[0].score == min(s[2] for s in wins)
    assert seen(st.high_combined) == sorted(best(wins, lambda s: s[2] + s[4]))
    assert st.average_score == pytest.approx(sum(s[2] for s in sides) / len(sides))
    assert st.average_winning == pytest.approx(sum(s[2] for s in wins) / len(wins))

    upsets = [
        (ratings[s[3]] - ratings[s[1]], s[0], s[1], s[3])
        for s in wins
        if ratings[s[1]] and ratings[s[3]] and ratings[s[3]] > ratings[s[1]]
    ]
    assert sorted((u.difference, u.game.round, u.game.player.name, u.game.opponent.name)
                  for u in st.upsets) == sorted(best(upsets, lambda u: u[0]))  # fmt: skip
    assert st.upsets[0].difference == max(u[0] for u in upsets) > 0

    known = [g for g in games if g.first]
    first_wins = sum(
        1 if (g.s1 - g.s2) * (1 if g.first == 1 else -1) > 0 else 0.5 if g.s1 == g.s2 else 0
        for g in known
    )
    assert (st.first_games, st.first_wins) == (len(known), first_wins)
    assert len(known) > len(games) * 0.9  # p12 is written for almost every game

    longest: dict[str, int] = {}
    for player in totals:
        run = top = 0
        mine = sorted((s for s in sides if s[1] == player), key=lambda s: s[0])
        for s in mine:
            run = run + 1 if s[2] > s[4] else 0
            top = max(top, run)
        if top:
            longest[player] = top
    expected = best(list(longest.items()), lambda item: item[1])
    assert sorted((s.player.name, s.length) for s in st.streaks) == sorted(expected)
    assert all(s.end - s.start + 1 >= s.length for s in st.streaks)

    # The report prints the same figures: as a spreadsheet, and as a PDF.
    book = openpyxl.load_workbook(io.BytesIO(reports.make(division, "stats", "xlsx").content))
    high = st.high_games[0]
    assert [c.value for c in book["High games"][2]] == [
        high.round, high.player.name, high.score, high.opponent.name, high.opponent_score
    ]  # fmt: skip
    assert book["Summary"]["B2"].value == len(games)
    pdf = reports.make(division, "stats", "pdf")
    assert pdf.filename.endswith("-stats-r23.pdf")
    assert pdf.content.startswith(b"%PDF")


@pytest.fixture
def played(division: Division, director: User) -> Division:
    """Round 1 of the desk's division, the player typed first going first: Ada 451–345 Ben,
    Cora 300–420 Eli, Gus 390–390 Fay; Hal a bye."""
    for line in ("1 451 2 345", "3 300 4 420", "6 390 5 390", "7 bye"):
        results.enter_line(division, 1, line, director)
    players = {p.number: p for p in division.players.all()}
    for number, rating in {1: 1500, 2: 1700, 3: 1800, 4: 1000}.items():
        Player.objects.filter(pk=players[number].pk).update(rating=rating)
    return division


def test_a_divisions_figures_worked_out_by_hand(played: Division) -> None:
    st = division_statistics(played)
    assert st.games == 3  # the bye has no score and is left out
    # Every player is in the averages: Hal, with a bye only, last and without an average.
    assert [(a.player.name, a.games, a.average_for) for a in st.averages][::6] == [
        ("Quill, Ada", 1, 451), ("Reed, Hal", 0, None)
    ]  # fmt: skip
    assert [(s.player.name, s.score) for s in st.high_games[:2]] == [
        ("Quill, Ada", 451), ("Moss, Eli", 420)
    ]  # fmt: skip
    assert [(s.player.name, s.score) for s in st.high_losses] == [
        ("Crane, Ben", 345), ("Vale, Cora", 300)
    ]  # fmt: skip
    assert [(s.player.name, s.score) for s in st.low_wins] == [
        ("Moss, Eli", 420), ("Quill, Ada", 451)
    ]  # fmt: skip
    # Ada (1500) beat Ben (1700); Eli (1000) beat Cora (1800): both upsets, Eli's the bigger.
    assert [(u.game.player.name, u.difference) for u in st.upsets] == [
        ("Moss, Eli", 800), ("Quill, Ada", 200)
    ]  # fmt: skip
    # Ada went first and won, Cora first and lost, Gus first and tied: 1.5 of 3.
    assert (st.first_games, st.first_wins, st.first_win_rate) == (3, 1.5, 0.5)
    assert [(s.player.name, s.length, s.running) for s in st.streaks] == [
        ("Moss, Eli", 1, True), ("Quill, Ada", 1, True)
    ]  # fmt: skip
    assert [(s.player.name, s.combined) for s in st.high_combined] == [
        ("Quill, Ada", 796), ("North, Fay", 780), ("Moss, Eli", 720)
    ]  # fmt: skip
    assert st.sheets == 0 and st.high_plays == []


def test_the_scoresheets_give_the_high_plays_and_bingos(
    played: Division, director: User, game_of: Callable[[int], Game]
) -> None:
    """doug v emely: doug (Ada, who went first) bingoed with DONATES (82) and RE.IgION (78);
    emely's TIL.. (24) was challenged off and is no play; her best is SAT (51)."""
    scoresheets.attach_scoresheet(game_of(1), corpus_game(DOUG_V_EMELY), director, "d.gcg")
    st = division_statistics(played)
    assert st.sheets == 1
    assert [(h.player.name, h.score, h.text) for h in st.high_plays[:4]] == [
        ("Quill, Ada", 82, "10B DONATES"),
        ("Quill, Ada", 78, "K5 RE.IgION"),
        ("Crane, Ben", 51, "11E SAT"),
        ("Crane, Ben", 46, "M2 QUOTH"),
    ]
    assert all(h.text != "4B TIL.." for h in st.high_plays)
    assert [(h.player.name, h.score) for h in st.bingos] == [("Quill, Ada", 82), ("Quill, Ada", 78)]
    assert [(c.player.name, c.bingos, c.games) for c in st.bingo_counts] == [("Quill, Ada", 2, 1)]
    book = openpyxl.load_workbook(io.BytesIO(reports.make(played, "stats", "xlsx").content))
    assert [c.value for c in book["Bingos"][2]] == [
        1,
        "Quill, Ada",
        82,
        "10B DONATES",
        "Crane, Ben",
    ]


DOUG_V_EMELY = "macondo/gcgio__testdata__doug_v_emely.gcg"


def test_the_public_page_shows_published_rounds_only(played: Division, director: User) -> None:
    players = {p.number: p for p in played.players.all()}
    Round.objects.create(division=played, number=2, published=False)
    Game.objects.create(
        division=played, round=2, player1=players[3], player2=players[5], score1=677, score2=300
    )
    url = reverse("statistics", args=[played.tournament.slug, played.name])
    page = Client().get(url).content.decode()
    assert "Statistics after round 1" in page and "451" in page
    assert "677" not in page
    assert division_statistics(played).high_games[0].score == 677  # the desk sees it
    Round.objects.filter(division=played, number=2).update(published=True)
    played.save()  # a new stamp, as publishing a round gives
    page = Client().get(url).content.decode()
    assert "Statistics after round 2" in page and "677" in page


def test_a_division_without_results_has_a_statistics_page_and_no_report(
    division: Division,
) -> None:
    url = reverse("statistics", args=[division.tournament.slug, division.name])
    response = Client().get(url)
    assert response.status_code == 200 and "No results yet." in response.content.decode()
    with pytest.raises(reports.ReportError, match="has no results yet"):
        reports.make(division, "stats", "pdf")


def test_a_list_keeps_every_entry_level_with_the_last() -> None:
    assert engine.top([5, 9, 7, 7, 7, 1], lambda x: x, 2) == [9, 7, 7, 7]
    assert engine.top([3, 1], lambda x: x, 5) == [3, 1]


def test_tiles_placed_counts_letters_and_digraphs_but_not_board_tiles() -> None:
    assert engine.tiles_placed("RE.IgION") == 7
    assert engine.tiles_placed("[CH]A..R") == 3
    assert engine.tiles_placed("..") == 0
