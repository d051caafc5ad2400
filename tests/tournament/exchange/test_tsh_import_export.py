"""importtsh, standings and exporttsh on the real tsh events of the shared corpus.

Each event's files are copied into the test's own folder under the names its config.tsh gives
them (the corpus names them after where they came from), imported with `importtsh`, ranked with
`standings --json` after every round and compared with the ranks tsh wrote into the `.t` file,
then exported with `exporttsh` and read back. Which files are real events is in the corpus's
PROVENANCE.md; the tests that need the corpus are skipped where it is absent.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass, field
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tournament.interchange.tsh import TshPlayer, read_t_file
from tournament.models import Tournament
from tournament.standings import read_model
from tournament.standings.stamps import read as read_stamps

CORPUS = Path(__file__).resolve().parents[4] / "shared" / "corpus" / "tsh"
JVC56 = "jvc56_tournament_pairing_algorithms"
MGI = "domino14_tsh-parser"
E4C5 = "e4c5_team_pairings"
SLUG = "event"


@dataclass(frozen=True)
class Event:
    id: str
    files: dict[str, str]  # name in the test's folder -> name in the corpus
    imported: str  # the file given to importtsh: a config.tsh or a .t
    division: str
    t_file: str  # the division's .t file, in the test's folder
    rank_field: str | None = None  # None: tsh wrote no ranks into the file
    capped: bool = False
    values_checked: int = 0
    # (player number, round) -> why tsh wrote a rank no standings table can give
    tsh_differs: dict[tuple[int, int], str] = field(default_factory=dict)


EVENTS = [
    Event(
        "jvc56-test_data-a.t",
        {"test_data_a.t": f"{JVC56}/test_data_a.t.86aeb79"},
        "test_data_a.t",
        "test_data_a",
        "test_data_a.t",
        "rrank",
        values_checked=576,
    ),
    Event(
        "jvc56-a.t",
        {"a.t": f"{JVC56}/a.t"},
        "a.t",
        "a",
        "a.t",
        "rrank",
        values_checked=621,
        tsh_differs={
            # As in interchange/test_tsh_files.py: Keras forfeited round 20 and was then made
            # inactive. tsh wrote her rank 25 while she was still active and never cleared it
            # when it recomputed round 20 without her; she is rightly unranked after round 20.
            (16, 20): "a rank left over from before the player was made inactive",
        },
    ),
    Event("jvc56-b.t", {"b.t": f"{JVC56}/b.t"}, "b.t", "b", "b.t"),
    # Its config.tsh names a b.t that is not in the corpus, so the .t is imported on its own.
    Event("domino14-a.t", {"a.t": f"{MGI}/a.t"}, "a.t", "a", "a.t", "rrank", values_checked=780),
    # rcrank: ranks on spread capped by the config's `spread_cap`, one per round, withdrawn
    # players ranked too as the config's `show_inactive` asks. The rrank tsh wrote after
    # rounds 15-17 leaves them out; see the test of it below.
    Event(
        "e4c5-tournament1",
        {"config.tsh": f"{E4C5}/tournament1_config.tsh", "a.t": f"{E4C5}/tournament1_a.t"},
        "config.tsh",
        "a",
        "a.t",
        "rcrank",
        capped=True,
        values_checked=684,
    ),
    Event("e4c5-anon1", {"anon1.t": f"{E4C5}/anon1.t"}, "anon1.t", "anon1", "anon1.t"),
]
RANKED = [event for event in EVENTS if event.rank_field]


def corpus_file(name: str) -> Path:
    path = CORPUS / name
    if not path.is_file():
        pytest.skip(f"the shared tsh corpus is not beside the project ({path} is absent)")
    return path


def copy_event(event: Event, folder: Path) -> Path:
    """The event's files in `folder` under the names tsh knows them by; the file to import."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, source in event.files.items():
        shutil.copyfile(corpus_file(source), folder / name)
    return folder / event.imported


def import_event(path: Path, slug: str = SLUG) -> str:
    out = StringIO()
    # A lone .t file does not name its event: the slug does here.
    name = slug if path.suffix == ".t" else None
    call_command("importtsh", str(path), slug=slug, name=name, stdout=out)
    return out.getvalue()


def standings_json(division: str, after_round: int | None = None, capped: bool = False) -> list:
    out = StringIO()
    options: dict[str, object] = {"division": division, "json": True, "capped": capped}
    if after_round is not None:
        options["after_round"] = after_round
    call_command("standings", SLUG, stdout=out, **options)
    return json.loads(out.getvalue())


def line_fields(p: TshPlayer) -> tuple[object, ...]:
    return (p.number, p.name, p.rating, p.opponents, p.scores, p.extras)


# --------------------------------------------------------------------------- ranks


@pytest.mark.django_db
@pytest.mark.parametrize("event", RANKED, ids=lambda e: e.id)
def test_standings_after_every_round_give_the_ranks_tsh_wrote(event: Event, tmp_path: Path) -> None:
    import_event(copy_event(event, tmp_path))
    tfile = read_t_file(tmp_path / event.t_file)
    number_of = {p.name: p.number for p in tfile.players}

    checked = 0
    differences: dict[tuple[int, int], tuple[int, int | None]] = {}
    # One pre-event rank (round 0), then one per round; "00" where tsh wrote none.
    for after_round in range(tfile.rounds + 1):
        rows = standings_json(event.division, after_round, capped=event.capped)
        ranks = {row["name"]: row["rank"] for row in rows}
        assert sorted(ranks) == sorted(number_of)  # every player once, named as in the file
        for p in tfile.players:
            written = p.extra_numbers(event.rank_field) or []
            if after_round >= len(written) or written[after_round] is None:
                continue
            checked += 1
            if ranks[p.name] != written[after_round]:
                differences[(p.number, after_round)] = (written[after_round], ranks[p.name])

    assert checked == event.values_checked
    assert set(differences) == set(event.tsh_differs), differences


@pytest.mark.django_db
def test_a_player_made_inactive_is_left_unranked_where_tsh_left_a_stale_rank(
    tmp_path: Path,
) -> None:
    (event,) = [e for e in EVENTS if e.id == "jvc56-a.t"]
    import_event(copy_event(event, tmp_path))

    after_20 = {row["name"]: row["rank"] for row in standings_json("a", 20)}
    after_19 = {row["name"]: row["rank"] for row in standings_json("a", 19)}

    keras, sinanan = "Keras, Lydia", read_t_file(tmp_path / "a.t").player(24).name
    assert after_19[keras] is not None and after_20[keras] is None
    assert after_20[sinanan] == 25


@pytest.mark.django_db
def test_the_ranks_tsh_wrote_without_inactive_players_come_from_standings_that_leave_them_out(
    tmp_path: Path,
) -> None:
    # tournament1's config sets `show_inactive`, and tsh ranked withdrawn players in every
    # rcrank; but the rrank it wrote after rounds 15-17 (its spread_cap caps those too) was
    # computed without them. The command follows the config; the service can be told otherwise.
    (event,) = [e for e in EVENTS if e.id == "e4c5-tournament1"]
    import_event(copy_event(event, tmp_path))
    division = Tournament.objects.get(slug=SLUG).divisions.get()
    tfile = read_t_file(tmp_path / "a.t")

    checked = differences = 0
    for after_round in range(tfile.rounds + 1):
        rows = read_model.division_standings(
            division, after_round, capped=True, show_inactive=False, stamps=read_stamps(division)
        )
        ranks = {row.name: row.rank for row in rows}
        shown = {row["name"]: row["rank"] for row in standings_json("a", after_round, True)}
        for p in tfile.players:
            written = p.extra_numbers("rrank") or []
            if after_round < len(written) and written[after_round] is not None:
                checked += 1
                assert ranks[p.name] == written[after_round]
                differences += shown[p.name] != written[after_round]

    assert checked == 93
    assert differences == 36  # what `standings --capped` shows, with withdrawn players ranked


@pytest.mark.django_db
def test_json_standings_give_each_players_record_spread_and_rating(tmp_path: Path) -> None:
    (event,) = [e for e in EVENTS if e.id == "jvc56-test_data-a.t"]
    import_event(copy_event(event, tmp_path))
    tfile = read_t_file(tmp_path / event.t_file)
    expected = {}
    for p in tfile.players:
        pairs = enumerate(zip(p.opponents, p.scores, strict=True))
        spreads = [score - tfile.player(o).scores[i] for i, (o, score) in pairs]
        wins = sum(1 if s > 0 else 0.5 if s == 0 else 0 for s in spreads)
        expected[p.name] = (wins, len(spreads) - wins, sum(spreads), int(p.rating))

    rows = standings_json(event.division)

    assert all(set(row) == {"rank", "name", "wins", "losses", "spread", "rating"} for row in rows)
    assert {r["name"]: (r["wins"], r["losses"], r["spread"], r["rating"]) for r in rows} == expected
    assert [r["rank"] for r in rows] == sorted(r["rank"] for r in rows)
    assert rows[0]["rank"] == 1


# --------------------------------------------------------------------------- export


@pytest.mark.django_db
@pytest.mark.parametrize("event", EVENTS, ids=lambda e: e.id)
def test_export_after_import_gives_back_every_players_line(event: Event, tmp_path: Path) -> None:
    source = copy_event(event, tmp_path / "in")
    import_event(source)

    out = StringIO()
    call_command("exporttsh", SLUG, output=str(tmp_path / "out"), stdout=out)

    original = read_t_file(tmp_path / "in" / event.t_file)
    exported = read_t_file(tmp_path / "out" / event.t_file)
    assert [line_fields(p) for p in exported.players] == [line_fields(p) for p in original.players]
    written = out.getvalue().split()
    assert str(tmp_path / "out" / event.t_file) in written
    assert str(tmp_path / "out" / "config.tsh") in written
    if source.name == "config.tsh":
        assert (tmp_path / "out" / "config.tsh").read_bytes() == source.read_bytes()


@pytest.mark.django_db
def test_pairings_waiting_for_scores_and_gaps_in_a_line_are_exported_as_they_were(
    tmp_path: Path,
) -> None:
    # In round 2 Bo and Di are paired but not scored yet and Ev's bye has no score yet; Di and
    # Ev had no opponent in round 1 ("00").
    text = (
        "Al, B                   1500 2 3; 400 350; p12 1 2\n"
        "Bo, C                   1400 1 4; 300; rrank 1 2\n"
        "Cy, D                   1300 0 1; 50 410\n"
        "Di, E                      0 00 2; ; note late entry\n"
        "Ev, F                   1200 00 0; \n"
    )
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.t").write_text(text)
    import_event(tmp_path / "in" / "a.t")

    call_command("exporttsh", SLUG, output=str(tmp_path / "out"), stdout=StringIO())

    assert (tmp_path / "out" / "a.t").read_text() == text


@pytest.mark.django_db
def test_a_t_file_imported_alone_is_exported_with_a_config_naming_it(tmp_path: Path) -> None:
    (event,) = [e for e in EVENTS if e.id == "e4c5-anon1"]
    import_event(copy_event(event, tmp_path / "in"))

    call_command("exporttsh", SLUG, output=str(tmp_path / "out"), stdout=StringIO())

    assert (tmp_path / "out" / "config.tsh").read_text() == "division anon1 anon1.t\n"


# --------------------------------------------------------------------------- import


@pytest.mark.django_db
def test_a_config_reads_its_divisions_and_settings(tmp_path: Path) -> None:
    (event,) = [e for e in EVENTS if e.id == "e4c5-tournament1"]

    report = import_event(copy_event(event, tmp_path))

    tournament = Tournament.objects.get(slug=SLUG)
    (division,) = tournament.divisions.all()
    assert (division.name, division.tsh_file, division.planned_rounds) == ("a", "a.t", 18)
    assert (division.bye_spread, division.spread_cap) == (1, [200] + [700] * 17)
    assert tournament.name == "Wouldnt you like to know"
    assert "a (38 players)" in report and SLUG in report
    # `autopair a 0 1 ns 0 0 a` … `autopair a 17 18 ns 3 17 a`: Swiss from the round before,
    # no repeats in rounds 1-9 and up to three from round 10; `gibson = 'strict'`.
    assert division.pairing_schedule == [
        {"rounds": "1-9", "system": "swiss", "repeats": 0, "lag": 1},
        {"rounds": "10-18", "system": "swiss", "repeats": 3, "lag": 1},
    ]
    assert (division.gibson, division.gibson_spread) == (True, None)


@pytest.mark.django_db
def test_a_players_team_is_read_from_the_team_field(tmp_path: Path) -> None:
    (event,) = [e for e in EVENTS if e.id == "domino14-a.t"]
    import_event(copy_event(event, tmp_path))
    players = Tournament.objects.get(slug=SLUG).divisions.get().players
    assert players.get(number=1).team == "Airpop Alpha"  # `team Airpop Alpha`
    assert players.exclude(team="").count() == 60


@pytest.mark.django_db
def test_every_field_of_a_t_line_is_kept_on_import(tmp_path: Path) -> None:
    (event,) = [e for e in EVENTS if e.id == "jvc56-test_data-a.t"]
    import_event(copy_event(event, tmp_path))
    logan = read_t_file(tmp_path / "test_data_a.t").player(1)

    player = Tournament.objects.get(slug=SLUG).divisions.get().players.get(number=1)

    assert (player.name, player.rating, player.rating_text) == ("Logan, Adam", 2182, "2182")
    assert player.tsh_extras == [[e.key, e.values] for e in logan.extras]
    assert player.lifetime_games == int(logan.extra("lifeg")[0])


@pytest.mark.django_db
def test_a_config_naming_a_t_file_that_is_not_there_is_refused_naming_it(tmp_path: Path) -> None:
    # The domino14 config declares divisions A (a.t) and B (b.t); only a.t was published.
    event = Event("domino14", {"config.tsh": f"{MGI}/config.tsh", "a.t": f"{MGI}/a.t"}, "", "", "")
    copy_event(event, tmp_path)

    refused = r"^config\.tsh: line 4: division B b\.t: no such file$"
    with pytest.raises(CommandError, match=refused):
        import_event(tmp_path / "config.tsh")

    assert not Tournament.objects.exists()  # nothing half imported: not even division A


@pytest.mark.django_db
def test_a_missing_file_is_refused_naming_it(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match=r"^nowhere\.t: no such file$"):
        import_event(tmp_path / "nowhere.t")
    with pytest.raises(CommandError, match=r"^config\.tsh: no such file$"):
        import_event(tmp_path / "config.tsh")

    assert not Tournament.objects.exists()


@pytest.mark.django_db
def test_a_malformed_t_line_is_refused_naming_the_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "a.t"
    path.write_text("Al, B  1500 2; 400\nBo, C  1400 1; 3x0\n")

    with pytest.raises(CommandError, match=r"^a\.t: line 2: not a player line"):
        import_event(path)

    assert not Tournament.objects.exists()


@pytest.mark.django_db
def test_a_malformed_line_in_a_configs_t_file_is_refused_naming_the_line(tmp_path: Path) -> None:
    (tmp_path / "config.tsh").write_text("division A a.t\nconfig max_rounds = 3\n")
    (tmp_path / "a.t").write_text("Al, B  1500 2; 400\nBo, C  1400 1; 4-0\n")

    with pytest.raises(CommandError, match=r"^a\.t: line 2: score '4-0' is not a number"):
        import_event(tmp_path / "config.tsh")

    assert not Tournament.objects.exists()


@pytest.mark.django_db
def test_a_malformed_config_line_is_refused_naming_the_line(tmp_path: Path) -> None:
    (tmp_path / "config.tsh").write_text("division A a.t\nparty on\n")
    (tmp_path / "a.t").write_text("Al, B  1500 2; 400\nBo, C  1400 1; 300\n")

    with pytest.raises(CommandError, match=r"^config\.tsh: line 2: tsh does not know this line"):
        import_event(tmp_path / "config.tsh")


@pytest.mark.django_db
def test_a_slug_already_taken_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "a.t"
    path.write_text("Al, B  1500 2; 400\nBo, C  1400 1; 300\n")
    import_event(path)

    with pytest.raises(CommandError, match=f"the slug {SLUG!r} is already taken"):
        import_event(path)

    assert Tournament.objects.count() == 1


@pytest.mark.django_db
def test_without_a_slug_one_is_made_from_the_name(tmp_path: Path) -> None:
    path = tmp_path / "a.t"
    path.write_text("Al, B  1500 2; 400\nBo, C  1400 1; 300\n")

    call_command("importtsh", str(path), name="Spring Open", stdout=StringIO())
    call_command("importtsh", str(path), name="Spring Open", stdout=StringIO())

    assert sorted(Tournament.objects.values_list("slug", flat=True)) == [
        "spring-open",
        "spring-open-2",
    ]


# --------------------------------------------------------------------------- unknown names


@pytest.mark.django_db
def test_standings_of_an_unknown_tournament_or_division_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "a.t"
    path.write_text("Al, B  1500 2; 400\nBo, C  1400 1; 300\n")
    import_event(path)

    with pytest.raises(CommandError, match="no division 'a' in tournament 'nope'"):
        call_command("standings", "nope", division="a", stdout=StringIO())
    with pytest.raises(CommandError, match=f"no division 'B' in tournament {SLUG!r}"):
        call_command("standings", SLUG, division="B", stdout=StringIO())


@pytest.mark.django_db
def test_standings_after_a_negative_round_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "a.t"
    path.write_text("Al, B  1500 2; 400\nBo, C  1400 1; 300\n")
    import_event(path)

    with pytest.raises(CommandError, match="--after-round -1: rounds count from 0"):
        call_command("standings", SLUG, division="a", after_round=-1, stdout=StringIO())


@pytest.mark.django_db
def test_exporting_an_unknown_tournament_is_refused(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="no tournament 'nope'"):
        call_command("exporttsh", "nope", output=str(tmp_path), stdout=StringIO())

    assert not any(tmp_path.iterdir())


@pytest.mark.django_db
def test_exporting_into_a_folder_that_cannot_be_made_is_refused_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "a.t"
    path.write_text("Al, B  1500 2; 400\nBo, C  1400 1; 300\n")
    import_event(path)

    with pytest.raises(CommandError, match=r"cannot write .*a\.t"):
        call_command("exporttsh", SLUG, output=str(path), stdout=StringIO())


@pytest.mark.django_db
def test_every_round_of_a_real_event_is_paired_again_by_the_pair_command(tmp_path: Path) -> None:
    """The 60-player MGI event, paired by Swiss from each round's results: every player once,
    no rematch (the event had none either), nothing saved."""
    (event,) = [e for e in EVENTS if e.id == "domino14-a.t"]
    import_event(copy_event(event, tmp_path))
    division = Tournament.objects.get(slug=SLUG).divisions.get()
    names = set(division.players.values_list("name", flat=True))
    games = set(division.games.values_list("pk", flat=True))
    met: set[frozenset[str]] = set()
    for round_number in range(2, 13):
        for g in division.games.filter(round=round_number - 1).select_related("player1", "player2"):
            met.add(frozenset((g.player1.name, g.player2.name)))
        out = StringIO()
        call_command(
            "pair",
            SLUG,
            division="a",
            round_number=round_number,
            system="swiss",
            dry_run=True,
            json=True,
            stdout=out,
        )
        pairs = json.loads(out.getvalue())
        seated = [p["first"] for p in pairs] + [p["second"] for p in pairs]
        assert sorted(seated) == sorted(names), round_number
        assert not met & {frozenset((p["first"], p["second"])) for p in pairs}, round_number
    assert set(division.games.values_list("pk", flat=True)) == games
