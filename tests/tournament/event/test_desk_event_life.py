"""The rest of an event's life at the desk (issue 13): players from a TSH `.t` file, a player
absent for a round, spread-only entry, fixed tables and table ranges, divisions renamed and
removed and players moved between them, the summary and the rating submission files, the
standings while a round is in play, and scoresheets held from the public by their findings."""

from __future__ import annotations

import html
from collections.abc import Callable
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from text_support import plain

from tournament.event import services as event
from tournament.exchange import tsh_io
from tournament.models import Change, Division, Game, Player, Scoresheet, Tournament
from tournament.pairing import services as pairing
from tournament.players import roster
from tournament.players import services as players
from tournament.results import services as results
from tournament.scoresheets import services as scoresheets
from tournament.standings import read_model
from tournament.standings.stamps import read as read_stamps


def desk_url(name: str, division: Division, *args: object) -> str:
    return reverse(name, args=[division.tournament.slug, division.pk, *args])


def play_round_1(division: Division, director: User) -> None:
    for line in ("1 400 2 350", "3 380 4 390", "5 420 6 300"):
        results.enter_line(division, 1, line, director)


def table_of(division: Division, round_number: int) -> dict[int, tuple[int, int | None, str]]:
    """Each player's (table, opponent's number, kind) in the round."""
    found = {}
    for g in division.games.filter(round=round_number).select_related("player1", "player2"):
        two = g.player2.number if g.player2 else None
        found[g.player1.number] = (g.table, two, g.kind)
        if two is not None:
            found[two] = (g.table, g.player1.number, g.kind)
    return found


# -- players from a file -------------------------------------------------------------------------


T_FILE = (
    b"# a TSH roster\n"
    b"Quill, Ada            1650 ;\n"
    b"Crane, Ben:AA001234   1480 ; ; team Owls\n"
    b"Vale, Cora            0 ;\n"
    b"Moss, Eli:XT017175    1500 ;\n"
)


def test_a_tsh_t_file_adds_its_players_at_the_desk(desk: Client, director: User) -> None:
    fresh = event.create_tournament(director, "Fresh Open", [event.NewDivision(name="A")])
    division = fresh.divisions.get()

    upload = SimpleUploadedFile("roster.t", T_FILE)
    page = desk.post(desk_url("desk-roster", division), {"file": upload}, follow=True)

    assert "4 players added to division A." in plain(page.content.decode())
    rows = list(
        division.players.values_list("number", "name", "rating", "team", "membership_id", "xtid")
    )
    assert rows == [
        (1, "Quill, Ada", 1650, "", "", None),
        (2, "Crane, Ben", 1480, "Owls", "AA001234", None),
        (3, "Vale, Cora", 0, "", "", None),
        (4, "Moss, Eli", 1500, "", "", 17175),
    ]


def test_a_bad_t_file_adds_no_one_and_names_the_line(desk: Client, director: User) -> None:
    fresh = event.create_tournament(director, "Fresh Open", [event.NewDivision(name="A")])
    division = fresh.divisions.get()
    bad = SimpleUploadedFile("roster.t", b"Quill, Ada 1650 ;\nno rating here\n")

    page = desk.post(desk_url("desk-roster", division), {"file": bad}, follow=True)

    assert "Nothing imported: roster.t: line 2:" in plain(html.unescape(page.content.decode()))
    assert not division.players.exists()


# -- a player absent for a round ---------------------------------------------------------------


def test_a_player_absent_for_a_round_gets_a_forfeit_loss_instead_of_a_pairing(
    division: Division, director: User
) -> None:
    play_round_1(division, director)
    results.enter_line(division, 1, "7 bye", director)
    cora = division.players.get(number=3)
    players.set_absent(cora, 2, True, director)

    pairing.pair(division, 2, director, system="koth")

    found = table_of(division, 2)
    assert found[3] == (None, None, Game.FORFEIT)
    assert division.games.get(round=2, player1=cora).score1 == -50
    # The six others are paired at three tables, with no bye: Cora's absence evens the field.
    assert sorted(t for n, (t, _, k) in found.items() if n != 3) == [1, 1, 2, 2, 3, 3]
    assert pairing.current_warnings(division, 2) == []
    # The round can be paired again: the absence's forfeit is made again, not a result.
    pairing.pair(division, 2, director, system="koth")
    assert division.games.filter(round=2, kind=Game.FORFEIT).count() == 1
    assert Change.objects.filter(action="absent").get().reason == "Vale, Cora absent in round 2"


def test_an_absent_player_gets_nothing_when_the_division_says_so(
    division: Division, director: User
) -> None:
    play_round_1(division, director)
    results.enter_line(division, 1, "7 bye", director)
    division.absent_result = "nothing"
    division.save()
    players.set_absent(division.players.get(number=3), 2, True, director)

    pairing.pair(division, 2, director, system="koth")

    assert 3 not in table_of(division, 2)
    assert division.games.filter(round=2).count() == 3
    assert pairing.current_warnings(division, 2) == []


def test_absence_is_marked_before_the_round_is_paired(
    desk: Client, division: Division, director: User
) -> None:
    page = desk.post(
        desk_url("desk-absent", division), {"player": 3, "round": 2, "absent": "1"}, follow=True
    )
    text = html.unescape(page.content.decode())
    assert "Vale, Cora is absent in round 2: a forfeit loss when it is paired." in plain(text)
    assert "absent in round 2" in plain(text)
    assert division.players.get(number=3).absent_rounds == [2]


def test_absent_in_a_paired_round_asks_then_turns_the_pairing_into_a_forfeit(
    desk: Client, division: Division, director: User
) -> None:
    from tournament.results import corrections

    asked = desk.post(desk_url("desk-absent", division), {"player": 3, "round": 1, "absent": "1"})

    question = html.unescape(asked.content.decode())
    assert (
        "Vale, Cora is paired with Moss, Eli in round 1. Marked absent, Vale, Cora gets a "
        "forfeit loss (−50) and Moss, Eli a forfeit win (+50). Record it?" in question
    )
    assert division.players.get(number=3).absent_rounds == []  # nothing done yet
    assert table_of(division, 1)[3] == (2, 4, Game.PLAYED)

    confirm = {"player": 3, "round": 1, "absent": "1", "confirm": "1"}
    page = desk.post(desk_url("desk-absent", division), confirm, follow=True)

    assert "Vale, Cora is absent in round 1: the pairing is changed" in plain(
        html.unescape(page.content.decode())
    )
    assert division.players.get(number=3).absent_rounds == [1]
    games = division.games.filter(round=1, kind=Game.FORFEIT).select_related("player1")
    assert sorted((g.player1.number, g.player2_id, g.score1, g.table) for g in games) == [
        (3, None, -50, 2),
        (4, None, 50, 2),
    ]
    change = Change.objects.filter(action="create").latest("pk")
    assert (change.reason, change.after["absent"]) == (
        "Vale, Cora absent in round 1",
        {"player": 3, "round": 1},
    )
    rows = {
        r.player.number: r
        for r in read_model.division_standings(division, public=False, stamps=read_stamps(division))
    }
    assert (rows[3].losses, rows[3].spread, rows[4].wins, rows[4].spread) == (1, -50, 1, 50)
    # Still a pair for the pairing checks: 7 players, one bye, no "extra bye" warning.
    assert pairing.current_warnings(division, 1) == []

    # Undo takes back the forfeit and the mark together.
    corrections.undo_last(division, director)
    assert table_of(division, 1)[3] == (2, 4, Game.PLAYED)
    assert division.games.filter(round=1, kind=Game.FORFEIT).count() == 0
    assert division.players.get(number=3).absent_rounds == []


def test_absent_in_a_paired_round_gives_the_opponent_a_bye_when_absent_players_get_nothing(
    desk: Client, division: Division, director: User
) -> None:
    from tournament.results import corrections

    division.absent_result = "nothing"
    division.save()
    asked = desk.post(desk_url("desk-absent", division), {"player": 3, "round": 1, "absent": "1"})
    assert (
        "Vale, Cora is paired with Moss, Eli in round 1. Marked absent, Vale, Cora gets no "
        "result and Moss, Eli a bye (+50). Record it?"
        in plain(html.unescape(asked.content.decode()))
    )

    players.set_absent(division.players.get(number=3), 1, True, director)

    assert 3 not in table_of(division, 1)
    assert table_of(division, 1)[4] == (2, None, Game.BYE)
    assert division.games.get(round=1, player1__number=4).score1 == 50
    corrections.undo_last(division, director)
    assert table_of(division, 1)[3] == (2, 4, Game.PLAYED)
    assert division.players.get(number=3).absent_rounds == []


def test_absent_in_a_round_already_played_is_refused(division: Division, director: User) -> None:
    results.enter_line(division, 1, "3 380 4 390", director)
    with pytest.raises(pairing.PairingRefused) as refused:
        players.set_absent(division.players.get(number=3), 1, True, director)
    assert str(refused.value) == (
        "Vale, Cora already has a result in round 1: correct it on the entry page instead."
    )


# -- spread-only entry -------------------------------------------------------------------------


def test_spread_only_entry_records_the_spread_as_tsh_does(
    division: Division, director: User
) -> None:
    division.entry_mode = "spread"
    division.save()

    results.enter_line(division, 1, "1 +55 2", director)
    results.enter_line(division, 1, "3 -20 4", director)
    results.enter_line(division, 1, "5 455 6 400", director)  # both scores are still taken
    check = results.check_line(division, 1, "1 +60 2")

    games = division.games.filter(round=1, kind=Game.PLAYED).order_by("table")
    assert [(g.score1, g.score2) for g in games] == [(55, 0), (0, 20), (455, 400)]
    rows = {
        r.player.number: (r.wins, r.spread)
        for r in read_model.division_standings(division, stamps=read_stamps(division))
    }
    assert rows[1] == (1, 55) and rows[2] == (0, -55) and rows[4] == (1, 20)
    assert check.correction and plain(check.after).startswith("1 Quill, Ada 60 – 2 Crane, Ben 0")


def test_a_three_field_line_is_refused_when_scores_are_entered(division: Division) -> None:
    check = results.check_line(division, 1, "1 +55 2")

    assert check.errors == ["The score of player 2 is missing: P S Q T."]


def test_the_entry_page_says_how_to_type_a_spread(desk: Client, division: Division) -> None:
    division.entry_mode = "spread"
    division.save()

    page = desk.get(desk_url("desk-entry", division, 1)).content.decode()

    assert "player 12 beat player 7 by 55 (recorded 55–0, as TSH does)" in plain(page)


# -- tables ------------------------------------------------------------------------------------


def test_a_fixed_table_and_the_division_s_range_number_the_pairings(
    desk: Client, division: Division, director: User
) -> None:
    play_round_1(division, director)
    results.enter_line(division, 1, "7 bye", director)
    division.first_table, division.last_table = 11, 13
    division.save()
    fay = division.players.get(number=5)
    players.set_fixed_table(fay, 12, director)

    pairing.pair(division, 2, director, system="koth")

    found = table_of(division, 2)
    assert found[5][0] == 12
    assert sorted(t for t, _, k in found.values() if t is not None) == [11, 11, 12, 12, 13, 13]
    # A swap that moves Fay keeps her at table 12.
    partner = found[5][1]
    other = next(n for n, (t, _, _) in found.items() if t == 11)
    pairing.swap(
        division, 2, division.players.get(number=5), division.players.get(number=other), director
    )
    assert table_of(division, 2)[5][0] == 12
    assert table_of(division, 2)[partner][0] == 11
    # The printed pairings show the table.
    state = division.rounds.get(number=2)
    pairing.publish(division, 2, director)
    assert state.pk
    pdf = desk.get(
        reverse("desk-report", args=[division.tournament.slug, division.pk, "pairings", "xlsx"]),
        {"round": 2},
    )
    assert pdf.status_code == 200


def test_the_printed_pairings_mark_fixed_tables(
    client: Client, desk: Client, division: Division, director: User
) -> None:
    from tournament.reports import data

    play_round_1(division, director)
    results.enter_line(division, 1, "7 bye", director)
    division.first_table = 11
    division.save()
    players.set_fixed_table(division.players.get(number=5), 12, director)
    pairing.pair(division, 2, director, system="koth")
    pairing.publish(division, 2, director)
    partner = table_of(division, 2)[5][1]
    legend = "* a fixed table: the player sits there every round."
    mark = '12<abbr class="fixed-table" title="fixed table">*</abbr>'

    report = data.pairings(division, 2, public=True)
    by_table, by_name = report.tables
    assert [row[0] for row in by_table.rows] == [11, "12*", 13, None]
    assert {row[1]: row[2] for row in by_name.rows}[5] == "12*"
    assert {row[1]: row[2] for row in by_name.rows}[partner] == "12*"
    assert (by_table.note, by_name.note) == (legend, legend)
    assert (
        desk.get(
            reverse("desk-report", args=[division.tournament.slug, division.pk, "pairings", "pdf"]),
            {"round": 2},
        ).status_code
        == 200
    )

    public = client.get(reverse("pairings", args=[division.tournament.slug, division.name, 2]))
    page = public.content.decode()
    assert page.count(mark) == 3  # by table once, by name for both players
    assert page.count(f'<p class="legend">{legend}</p>') == 2

    at_desk = desk.get(desk_url("desk-round-pairings", division, 2)).content.decode()
    assert at_desk.count(mark) == 1
    assert f'<p class="legend" id="fixed-legend">{legend}</p>' in at_desk

    # Without a fixed table, no mark and no legend.
    players.set_fixed_table(division.players.get(number=5), None, director)
    assert "legend" not in data.pairings(division, 2, public=True).tables[0].note
    assert (
        "fixed-table"
        not in client.get(
            reverse("pairings", args=[division.tournament.slug, division.name, 2])
        ).content.decode()
    )


def test_two_players_cannot_share_a_fixed_table(division: Division, director: User) -> None:
    players.set_fixed_table(division.players.get(number=1), 1, director)

    with pytest.raises(pairing.PairingRefused, match="Quill, Ada already sits at table 1."):
        players.set_fixed_table(division.players.get(number=2), 1, director)


# -- divisions ---------------------------------------------------------------------------------


def test_a_division_is_added_renamed_and_removed_while_empty(
    desk: Client, tournament: Tournament
) -> None:
    url = reverse("desk-divisions", args=[tournament.slug])

    desk.post(url, {"action": "add", "name": "B"})
    b = tournament.divisions.get(name="B")
    page = desk.post(url, {"action": "rename", "division": b.pk, "name": "Lower"}, follow=True)
    assert "Division B is now Lower." in plain(page.content.decode())
    a = tournament.divisions.get(name="A")
    refused = desk.post(url, {"action": "remove", "division": a.pk})
    assert refused.status_code == 409
    assert "Division A has players: move or remove them first" in refused.content.decode()
    desk.post(url, {"action": "remove", "division": b.pk})

    assert list(tournament.divisions.values_list("name", flat=True)) == ["A"]
    assert [c.reason for c in Change.objects.filter(action="division").order_by("pk")] == [
        "Division B added",
        "Division B renamed Lower",
        "Division Lower removed",
    ]


def test_a_player_moves_to_another_division_before_their_first_pairing(
    desk: Client, director: User
) -> None:
    fresh = event.create_tournament(
        director, "Fresh Open", [event.NewDivision(name="A"), event.NewDivision(name="B")]
    )
    a, b = fresh.divisions.order_by("position")
    roster.add_players(a, "Ann Ash, 1500\nBo Birch, 1400", director)
    roster.add_players(b, "Cy Cole, 1300", director)

    page = desk.post(desk_url("desk-move-player", a), {"player": 2, "division": b.pk}, follow=True)

    assert "Bo Birch moved to division B as player 2." in plain(page.content.decode())
    assert list(b.players.values_list("number", "name")) == [(1, "Cy Cole"), (2, "Bo Birch")]
    assert list(a.players.values_list("number", "name")) == [(1, "Ann Ash")]
    # Once division A is paired, Ann has a pairing there and stays.
    pairing.save_pairings(a, 1, [(a.players.get(), None)], director)
    with pytest.raises(event.PeopleRefused, match="Ann Ash is paired or has played"):
        roster.move_player(a.players.get(), b, director)


# -- the summary and the rating submission -----------------------------------------------------


def test_the_summary_names_the_winners_the_high_game_and_the_files_to_submit(
    desk: Client, division: Division, director: User
) -> None:
    play_round_1(division, director)
    results.enter_line(division, 1, "7 bye", director)

    page = desk.get(reverse("desk-summary", args=[division.tournament.slug]))
    text = html.unescape(page.content.decode())

    assert page.status_code == 200
    assert "Division A: rounds 2, 3 not played (of 3)" in plain(text)
    assert (
        "<strong>420</strong> <bdi>North, Fay</bdi> against <bdi>Stone, Gus</bdi> (300), round 1"
        in text
    )
    leaders = text.split('class="desk-table leaders"')[1].split("</table>")[0]
    assert [line for line in ("North, Fay", "Reed, Hal", "Quill, Ada") if line in leaders] == [
        "North, Fay",
        "Reed, Hal",
        "Quill, Ada",
    ]
    assert reverse("desk-tou", args=[division.tournament.slug]) in plain(text)
    assert reverse("desk-tsh", args=[division.tournament.slug]) in plain(text)


def test_the_tsh_archive_reads_back_as_the_same_event(
    desk: Client, division: Division, director: User, tmp_path: Path
) -> None:
    play_round_1(division, director)
    results.enter_line(division, 1, "7 bye", director)

    response = desk.get(reverse("desk-tsh", args=[division.tournament.slug]))
    path = tmp_path / "config.tsh"
    path.write_bytes(response.content)
    again = tsh_io.import_tsh(path, slug="again", name="Again")

    assert response["Content-Disposition"] == 'attachment; filename="spring-open-config.tsh"'
    assert response.content.decode().startswith("division A a.t\n#begin_file name=a.t\n")
    copy = again.divisions.get()

    def games(d: Division) -> list[tuple]:
        return sorted(
            (g.round, g.player1.number, g.player2.number if g.player2 else 0, g.score1, g.score2)
            for g in d.games.select_related("player1", "player2")
        )

    assert games(copy) == games(division)
    assert list(copy.players.values_list("name", flat=True)) == list(
        division.players.values_list("name", flat=True)
    )


# -- the standings while a round is in play ----------------------------------------------------


def _round_2_published(division: Division, director: User, mode: str) -> tuple[Game, str]:
    division.byes_count = mode
    division.save()
    play_round_1(division, director)
    results.enter_line(division, 1, "7 bye", director)
    pairing.pair(division, 2, director, system="koth")
    pairing.publish(division, 2, director)  # 7 players: round 2's bye is scored now
    bye = division.games.select_related("player1").get(round=2, kind=Game.BYE)
    return bye, reverse("standings", args=[division.tournament.slug, division.name])


def _heading(client: Client, url: str) -> str:
    page = html.unescape(client.get(url).content.decode())
    return page.split('<h3 id="standings-heading">')[1].split("</h3>")[0]


def _wins(division: Division, player_id: int, *, public: bool = True) -> float:
    rows = read_model.division_standings(division, public=public, stamps=read_stamps(division))
    return next(r.wins for r in rows if r.player.pk == player_id)


def _enter_round_2(division: Division, director: User, how_many: int) -> None:
    games = division.games.filter(round=2, kind=Game.PLAYED, score1=None)
    for game in list(games.select_related("player1", "player2"))[:how_many]:
        line = f"{game.player1.number} 400 {game.player2.number} 300"
        results.enter_line(division, 2, line, director)


def test_byes_count_once_the_round_is_complete_by_default(
    client: Client, division: Division, director: User
) -> None:
    assert Division(tournament=division.tournament).byes_count == "complete"
    bye, url = _round_2_published(division, director, "complete")
    before = _wins(division, bye.player1_id)  # round 1's record

    assert _heading(client, url) == "Standings after round 1 (round 2 in play)"
    assert _wins(division, bye.player1_id) == before
    assert _wins(division, bye.player1_id, public=False) == before  # the desk counts alike
    from tournament.reports import data

    assert data.standings(division, public=True).heading == "Standings after round 1"

    _enter_round_2(division, director, 1)
    assert _heading(client, url) == (
        "Standings after round 2 (1 of 3 results in; byes count when all are in)"
    )
    assert _wins(division, bye.player1_id) == before

    _enter_round_2(division, director, 2)
    assert _heading(client, url) == "Standings after round 2"
    assert _wins(division, bye.player1_id) == before + 1


def test_byes_count_as_soon_as_published_when_the_director_chooses(
    client: Client, division: Division, director: User
) -> None:
    bye, url = _round_2_published(division, director, "published")
    before = _wins(division, bye.player1_id, public=False) - 1

    assert _heading(client, url) == "Standings after round 1, with round 2's byes (round 2 in play)"
    assert _wins(division, bye.player1_id) == before + 1

    _enter_round_2(division, director, 1)
    assert _heading(client, url) == "Standings after round 2 (1 of 3 results in)"
    assert _wins(division, bye.player1_id) == before + 1


def test_byes_count_once_any_result_is_in_when_the_director_chooses(
    client: Client, division: Division, director: User
) -> None:
    bye, url = _round_2_published(division, director, "any")
    before = _wins(division, bye.player1_id)

    assert _heading(client, url) == "Standings after round 1 (round 2 in play)"
    assert _wins(division, bye.player1_id, public=False) == before

    _enter_round_2(division, director, 1)
    assert _heading(client, url) == "Standings after round 2 (1 of 3 results in)"
    assert _wins(division, bye.player1_id) == before + 1
    # The ratings are the same whichever way byes count: byes are not rated.
    ratings = {
        r.player.pk: r.by_round
        for r in read_model.division_ratings(division, stamps=read_stamps(division))
    }
    assert len(ratings[bye.player1_id]) == 2


def test_the_choice_is_in_the_division_settings(desk: Client, division: Division) -> None:
    page = desk.get(desk_url("desk-division-settings", division)).content.decode()

    assert "Byes and forfeits count in the standings" in plain(page)
    assert "when the round&#x27;s results are complete" in plain(page)


@pytest.mark.django_db
def test_an_imported_tsh_event_counts_byes_once_any_result_is_in(tmp_path: Path) -> None:
    config = tmp_path / "config.tsh"
    config.write_text("config max_rounds = 2\ndivision a a.t\n")
    (tmp_path / "a.t").write_text("Quill, Ada 1650 2 0; 400 0\nCrane, Ben 1480 1 0; 300 0\n")

    imported = tsh_io.import_tsh(config, slug="imported")

    assert imported.divisions.get().byes_count == "any"


# -- scoresheets held from the public -----------------------------------------------------------


def test_a_scoresheet_with_errors_is_held_until_published_anyway(
    client: Client,
    desk: Client,
    division: Division,
    director: User,
    game_of: Callable[..., Game],
    record: Callable[..., str],
) -> None:
    results.enter_line(division, 1, "1 20 2 24", director)
    wrong = record().replace("+33 33", "+35 35")  # a wrong score: an error finding
    sheet = scoresheets.attach_scoresheet(game_of(1), wrong, director)
    public = reverse("scoresheet", args=[division.tournament.slug, sheet.pk])
    player = reverse("player", args=[division.tournament.slug, "A", 1])

    assert (sheet.verified, sheet.flagged, sheet.held) == (False, False, True)
    assert client.get(public).status_code == 404
    assert public not in client.get(player).content.decode()
    desk_page = html.unescape(
        desk.get(
            reverse("desk-scoresheet", args=[division.tournament.slug, sheet.pk])
        ).content.decode()
    )
    assert "held from the public" in desk_page
    assert f"not verified: {sheet.label}" in desk_page

    desk.post(reverse("desk-scoresheet-release", args=[division.tournament.slug, sheet.pk]))

    sheet.refresh_from_db()
    assert sheet.released and not sheet.held
    assert client.get(public).status_code == 200
    assert f'<a href="{public}">{sheet.label}</a>' in client.get(player).content.decode()
    assert Change.objects.filter(action="release").get().reason == "published with its findings"


def test_a_scoresheet_is_verified_through_the_desk_and_labelled_so(
    client: Client,
    desk: Client,
    division: Division,
    director: User,
    game_of: Callable[..., Game],
    record: Callable[..., str],
) -> None:
    results.enter_line(division, 1, "1 20 2 24", director)
    upload = SimpleUploadedFile("ada-ben.gcg", record().encode())

    desk.post(
        reverse("desk-scoresheet-upload", args=[division.tournament.slug, game_of(1).pk]),
        {"file": upload},
    )

    sheet = Scoresheet.objects.get()
    assert (sheet.verified, sheet.flagged, sheet.held, sheet.label) == (
        True,
        False,
        False,
        "verified",
    )
    public = reverse("scoresheet", args=[division.tournament.slug, sheet.pk])
    player = reverse("player", args=[division.tournament.slug, "A", 1])
    assert f'<a href="{public}">verified</a>' in client.get(player).content.decode()
    assert client.get(public).status_code == 200


def test_a_scoresheet_is_labelled_by_its_findings() -> None:
    sheet = Scoresheet(verified=False, report={"findings": [{}, {}]})
    assert sheet.label == "2 findings"
    sheet = Scoresheet(verified=True, report={"findings": [{}]})
    assert sheet.label == "verified, 1 finding"
    assert Scoresheet(verified=True, report={}).label == "verified"
    assert Player  # the models the tests use
