"""An association's own rating list: three events rated in date order, each from the ratings
the list gave its players after the events before it, exactly as the engine rates them event
by event; rebuilt the same every time; people new to the list, players without a person, a
person in two divisions; the real TSH events of the corpus."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from pathlib import Path

import pytest

from tests.tournament.rating_lists.rating_list_support import Result, link_people, small_event
from tournament.engine import ratings as engine_ratings
from tournament.engine.standings import Game as EngineGame
from tournament.exchange import tsh_io
from tournament.interchange import tsh
from tournament.models import Person, RatingList, RatingListEntry, Tournament
from tournament.people import services as people_services
from tournament.rating_lists import services

CORPUS = Path(__file__).resolve().parents[4] / "shared" / "corpus" / "tsh"
JVC56 = CORPUS / "jvc56_tournament_pairing_algorithms"

D1, D2, D3 = datetime.date(2026, 1, 10), datetime.date(2026, 2, 14), datetime.date(2026, 3, 21)
ONE = ["Ada Quill", "Ben Crane", "Cora Vale", "Dev Patel"]
ROUNDS_ONE: list[list[Result]] = [
    [("Ada Quill", "Ben Crane", 420, 380), ("Cora Vale", "Dev Patel", 350, 410)],
    [("Ada Quill", "Cora Vale", 399, 401), ("Ben Crane", "Dev Patel", 455, 300)],
    [("Ada Quill", "Dev Patel", 500, 350), ("Ben Crane", "Cora Vale", 380, 380)],
]
# Dev stays home; Eli is new; Zed plays but is linked to no one, rated 1500 by the event.
TWO = ["Ada Quill", "Ben Crane", "Cora Vale", "Eli Moss", "Zed Nobody"]
ROUNDS_TWO: list[list[Result]] = [
    [
        ("Ada Quill", "Eli Moss", 300, 450),
        ("Ben Crane", "Cora Vale", 410, 390),
        ("Zed Nobody", None, 50, 0),
    ],
    [
        ("Ada Quill", "Zed Nobody", 433, 402),
        ("Eli Moss", "Ben Crane", 388, 389),
        ("Cora Vale", None, 50, 0),
    ],
    [
        ("Cora Vale", "Eli Moss", 470, 360),
        ("Ben Crane", "Zed Nobody", 350, 351),
        ("Ada Quill", None, 50, 0),
    ],
]
THREE = ["Eli Moss", "Dev Patel", "Ada Quill", "Ben Crane"]
ROUNDS_THREE: list[list[Result]] = [
    [("Eli Moss", "Dev Patel", 402, 398), ("Ada Quill", "Ben Crane", 377, 420)],
    [("Eli Moss", "Ada Quill", 390, 391), ("Dev Patel", "Ben Crane", 444, 333)],
]
UNLINKED = {"Zed Nobody": 1500}


def _engine_rounds(rounds: Sequence[Sequence[Result]]) -> list[list[EngineGame]]:
    return [
        [
            EngineGame(one, two, s1, s2) if two else EngineGame(one, None, s1)
            for one, two, s1, s2 in r
        ]
        for r in rounds
    ]


def _played(rounds: Sequence[Sequence[Result]]) -> dict[str, tuple[int, float]]:
    out: dict[str, tuple[int, float]] = {}
    for r in rounds:
        for one, two, s1, s2 in r:
            if two is None:
                continue
            share = 1.0 if s1 > s2 else 0.5 if s1 == s2 else 0.0
            for who, won in ((one, share), (two, 1 - share)):
                games, wins = out.get(who, (0, 0.0))
                out[who] = (games + 1, wins + won)
    return out


def expected_list(
    events: Sequence[tuple[str, Sequence[str], Sequence[Sequence[Result]]]],
    unlinked: dict[str, int],
) -> list[tuple[str, str, int, int, int, float]]:
    """The entries, worked out apart from the app: the engine called event by event with the
    ratings and career games of the previous outputs (0 for a person new to the list)."""
    rating: dict[str, int] = {}
    career: dict[str, int] = {}
    rows = []
    for slug, names, rounds in events:
        players = [
            engine_ratings.RatedPlayer(n, unlinked[n], 0)
            if n in unlinked
            else engine_ratings.RatedPlayer(n, rating.get(n, 0), career.get(n, 0))
            for n in names
        ]
        rated = engine_ratings.rate_event(players, _engine_rounds(rounds), max_rounds=len(rounds))
        played = _played(rounds)
        for n in names:
            if n in unlinked or n not in played:
                continue
            games, wins = played[n]
            after = int(rated[n].final)
            rows.append((slug, n, rating.get(n, 0), after, games, wins))
            rating[n], career[n] = after, career.get(n, 0) + games
    return rows


def entries(rating_list: RatingList) -> list[tuple[str, str, int, int, int, float]]:
    return [
        (e.tournament.slug, e.person.name, e.before, e.after, e.games, e.wins)
        for e in RatingListEntry.objects.filter(rating_list=rating_list)
        .select_related("tournament", "person")
        .order_by("pk")
    ]


@pytest.fixture
def three_events(db: None) -> list[Tournament]:
    events = [
        small_event("winter-cup", D1, ONE, ROUNDS_ONE),
        small_event("spring-cup", D2, TWO, ROUNDS_TWO, ratings=UNLINKED),
        small_event("summer-cup", D3, THREE, ROUNDS_THREE),
    ]
    for t in events:
        link_people(t)
    Person.objects.filter(name="Zed Nobody").delete()  # his player keeps no person
    return events


@pytest.fixture
def rated(three_events: list[Tournament]) -> RatingList:
    rating_list = services.create_list("Club ratings", "club")
    # Added out of date order: the list rates them by date.
    for t in (three_events[2], three_events[0], three_events[1]):
        services.add_event(rating_list, t)
    return rating_list


EXPECTED_EVENTS = [
    ("winter-cup", ONE, ROUNDS_ONE),
    ("spring-cup", TWO, ROUNDS_TWO),
    ("summer-cup", THREE, ROUNDS_THREE),
]


def test_every_rating_is_the_engines_applied_event_by_event(rated: RatingList) -> None:
    report = services.rebuild(rated)
    expected = expected_list(EXPECTED_EVENTS, UNLINKED)
    assert entries(rated) == expected
    assert len(expected) == 4 + 4 + 4
    assert [e.slug for e in report.events] == ["winter-cup", "spring-cup", "summer-cup"]
    assert (report.entries, report.people) == (12, 5)
    assert [(e.rated, e.newcomers, e.games) for e in report.events] == [
        (4, 4, 6),
        (4, 1, 6),
        (4, 0, 4),
    ]
    assert report.events[1].skipped == ("Zed Nobody",)
    rated.refresh_from_db()
    assert rated.rebuilt is not None


def test_a_later_event_starts_from_the_lists_ratings_not_the_events_own(
    rated: RatingList,
) -> None:
    services.rebuild(rated)
    by_event = {(slug, name): (before, after) for slug, name, before, after, *_ in entries(rated)}
    # Ada's rating after the winter cup is her rating before the spring cup, and so on.
    assert by_event["spring-cup", "Ada Quill"][0] == by_event["winter-cup", "Ada Quill"][1]
    assert by_event["summer-cup", "Ada Quill"][0] == by_event["spring-cup", "Ada Quill"][1]
    # Dev missed the spring cup: the summer cup starts from his winter rating.
    assert by_event["summer-cup", "Dev Patel"][0] == by_event["winter-cup", "Dev Patel"][1]


def test_a_person_new_to_the_list_is_rated_as_the_system_rates_a_newcomer(
    rated: RatingList,
) -> None:
    services.rebuild(rated)
    eli = [e for e in entries(rated) if e[1] == "Eli Moss"]
    assert eli[0][:3] == ("spring-cup", "Eli Moss", 0)
    # The engine's own newcomer rating: Eli unrated, the others at the list's ratings.
    first = expected_list(EXPECTED_EVENTS[:2], UNLINKED)
    assert eli[0][3] == [r for r in first if r[1] == "Eli Moss"][0][3]
    assert eli[0][3] >= engine_ratings.NEWCOMER_FLOOR


def test_rebuilding_twice_gives_identical_rows(rated: RatingList) -> None:
    services.rebuild(rated)
    first = entries(rated)
    services.rebuild(rated)
    assert entries(rated) == first
    assert RatingListEntry.objects.filter(rating_list=rated).count() == len(first)


def test_current_ratings_are_after_each_persons_last_event(rated: RatingList) -> None:
    services.rebuild(rated)
    rows = services.current_ratings(rated)
    last: dict[str, tuple[int, str]] = {}
    games: dict[str, int] = {}
    for slug, name, _, after, played, _ in expected_list(EXPECTED_EVENTS, UNLINKED):
        last[name] = (after, slug)
        games[name] = games.get(name, 0) + played
    assert sorted((r.person.name, r.rating, r.games, r.last_event.slug) for r in rows) == sorted(
        (name, after, games[name], slug) for name, (after, slug) in last.items()
    )
    assert [r.rating for r in rows] == sorted((r.rating for r in rows), reverse=True)
    assert [r.rank for r in rows] == [1, 2, 3, 4, 5] or len({r.rating for r in rows}) < 5


def test_a_person_in_two_divisions_of_one_event_is_refused_and_nothing_changes(
    rated: RatingList, three_events: list[Tournament]
) -> None:
    services.rebuild(rated)
    before = entries(rated)
    small_event(
        "summer-cup",
        D3,
        ["Ben Crane", "Fay North"],
        [[("Ben Crane", "Fay North", 400, 300)]],
        division="B",
        tournament=three_events[2],
    )
    link_people(three_events[2])
    with pytest.raises(services.RatingListRefused, match="linked to one person"):
        services.rebuild(rated)
    assert entries(rated) == before


def test_an_event_needs_a_date_and_is_added_once(rated: RatingList) -> None:
    dateless = Tournament.objects.create(name="Someday", slug="someday")
    with pytest.raises(services.RatingListRefused, match="has no date"):
        services.add_event(rated, dateless)
    with pytest.raises(services.RatingListRefused, match="already in"):
        services.add_event(rated, Tournament.objects.get(slug="winter-cup"))


def test_a_list_needs_a_known_system_and_a_free_address(db: None) -> None:
    with pytest.raises(services.RatingListRefused, match="not a rating system"):
        services.create_list("X", "x", "elo-of-my-own")
    services.create_list("X", "x")
    with pytest.raises(services.RatingListRefused, match="taken"):
        services.create_list("Y", "x")
    with pytest.raises(services.RatingListRefused, match="taken"):
        services.create_list("Y", "new")


# -- real events ------------------------------------------------------------------------------

REAL = [
    ("b.t", datetime.date(2006, 3, 12)),
    ("test_data_a.t.86aeb79", datetime.date(2023, 2, 17)),
    ("a.t", datetime.date(2023, 2, 17)),
]


def _tfile(name: str) -> tsh.TFile:
    return tsh.read_t_file(JVC56 / name)


def _tfile_rounds(tfile: tsh.TFile) -> list[list[Result]]:
    """The file's results as the small events write them, each game once (from the side of the
    player with the lower number)."""
    names = {p.number: p.name for p in tfile.players}
    rounds: list[list[Result]] = []
    for p in tfile.players:
        for index, opponent in enumerate(p.opponents):
            score = p.scores[index] if index < len(p.scores) else None
            if opponent is None or score is None:
                continue
            while len(rounds) <= index:
                rounds.append([])
            if opponent == tsh.BYE:
                rounds[index].append((p.name, None, score, 0))
                continue
            if opponent < p.number:
                continue
            other = tfile.player(opponent)
            theirs = other.scores[index] if index < len(other.scores) else None
            if theirs is not None:
                rounds[index].append((p.name, names[opponent], score, theirs))
    return rounds


@pytest.mark.skipif(not JVC56.is_dir(), reason="the TSH corpus (../shared/corpus/tsh) is absent")
def test_three_real_tsh_events_in_date_order(db: None) -> None:
    """b.t (2006) and the two divisions of the February 2023 event, each as an event of its
    own; Robert Linn plays in 2006 and 2023."""
    rating_list = services.create_list("Real", "real")
    expected_events = []
    for n, (name, day) in enumerate(REAL):
        tfile = _tfile(name)
        t = Tournament.objects.create(name=f"Real {n}", slug=f"real-{n}", start_date=day)
        tsh_io.import_division(t, "A", tfile)
        link_people(t)
        services.add_event(rating_list, t)
        expected_events.append((t.slug, [p.name for p in tfile.players], _tfile_rounds(tfile)))
    services.rebuild(rating_list)
    expected = expected_list(expected_events, {})
    assert entries(rating_list) == expected
    linn = [e for e in expected if e[1] == "Linn, Robert"]
    assert [e[0] for e in linn] == ["real-0", "real-1"]
    assert linn[1][2] == linn[0][3] and linn[0][2] == 0
    assert len(expected) == 109 + 24 + 26


def test_the_directors_results_count_published_or_not(db: None) -> None:
    """A round paired at the desk and not published yet is rated (the list is the event's
    complete results); the report counts it."""
    from tournament.models import Round

    t = small_event("club-night", D1, ONE, ROUNDS_ONE)
    link_people(t)
    Round.objects.create(division=t.divisions.get(), number=3, published=False)
    rating_list = services.create_list("Club", "club")
    services.add_event(rating_list, t)
    report = services.rebuild(rating_list)
    assert report.events[0].unpublished == 1
    assert entries(rating_list) == expected_list([("club-night", ONE, ROUNDS_ONE)], {})


def test_a_person_without_a_rated_game_has_no_entry(db: None) -> None:
    t = small_event(
        "club-night",
        D1,
        ["Ada Quill", "Ben Crane", "Cora Vale"],
        [[("Ada Quill", "Ben Crane", 400, 300), ("Cora Vale", None, 50, 0)]],
    )
    link_people(t)
    rating_list = services.create_list("Club", "club")
    services.add_event(rating_list, t)
    report = services.rebuild(rating_list)
    assert report.events[0].no_games == ("Cora Vale",)
    assert [e[1] for e in entries(rating_list)] == ["Ada Quill", "Ben Crane"]


def test_a_merge_of_people_marks_the_list_to_be_rebuilt_and_the_rebuild_rates_them_as_one(
    rated: RatingList,
) -> None:
    services.rebuild(rated)
    # Eli's spring player linked to a person of their own (a name written another way), then
    # merged into Eli: the list is to be rebuilt, and is rebuilt as before.
    before = entries(rated)
    eli = Person.objects.get(name="Eli Moss")
    spring = eli.players.get(division__tournament__slug="spring-cup")
    stray = Person.objects.create(name="Moss, E.")
    spring.person = stray
    spring.save(update_fields=["person"])
    services.rebuild(rated)
    assert [e for e in entries(rated) if e[1] == "Moss, E."][0][:3] == ("spring-cup", "Moss, E.", 0)

    people_services.merge(eli, stray, None)

    rated.refresh_from_db()
    assert rated.rebuilt is None
    services.rebuild(rated)
    assert entries(rated) == before
