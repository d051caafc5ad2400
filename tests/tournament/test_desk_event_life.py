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

from tournament import events, players, results, rounds, scoresheets, services
from tournament.models import Change, Division, Game, Player, Scoresheet, Tournament


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
)


def test_a_tsh_t_file_adds_its_players_at_the_desk(desk: Client, director: User) -> None:
    fresh = events.create_tournament(director, "Fresh Open", [events.NewDivision(name="A")])
    division = fresh.divisions.get()

    upload = SimpleUploadedFile("roster.t", T_FILE)
    page = desk.post(desk_url("desk-roster", division), {"file": upload}, follow=True)

    assert "3 players added to division A." in page.content.decode()
    rows = list(division.players.values_list("number", "name", "rating", "team", "membership_id"))
    assert rows == [
        (1, "Quill, Ada", 1650, "", ""),
        (2, "Crane, Ben", 1480, "Owls", "AA001234"),
        (3, "Vale, Cora", 0, "", ""),
    ]


def test_a_bad_t_file_adds_no_one_and_names_the_line(desk: Client, director: User) -> None:
    fresh = events.create_tournament(director, "Fresh Open", [events.NewDivision(name="A")])
    division = fresh.divisions.get()
    bad = SimpleUploadedFile("roster.t", b"Quill, Ada 1650 ;\nno rating here\n")

    page = desk.post(desk_url("desk-roster", division), {"file": bad}, follow=True)

    assert "Nothing imported: roster.t: line 2:" in html.unescape(page.content.decode())
    assert not division.players.exists()


# -- a player absent for a round ---------------------------------------------------------------


def test_a_player_absent_for_a_round_gets_a_forfeit_loss_instead_of_a_pairing(
    division: Division, director: User
) -> None:
    play_round_1(division, director)
    results.enter_line(division, 1, "7 bye", director)
    cora = division.players.get(number=3)
    players.set_absent(cora, 2, True, director)

    rounds.pair(division, 2, director, system="koth")

    found = table_of(division, 2)
    assert found[3] == (None, None, Game.FORFEIT)
    assert division.games.get(round=2, player1=cora).score1 == -50
    # The six others are paired at three tables, with no bye: Cora's absence evens the field.
    assert sorted(t for n, (t, _, k) in found.items() if n != 3) == [1, 1, 2, 2, 3, 3]
    assert rounds.current_warnings(division, 2) == []
    # The round can be paired again: the absence's forfeit is made again, not a result.
    rounds.pair(division, 2, director, system="koth")
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

    rounds.pair(division, 2, director, system="koth")

    assert 3 not in table_of(division, 2)
    assert division.games.filter(round=2).count() == 3
    assert rounds.current_warnings(division, 2) == []


def test_absence_is_marked_before_the_round_is_paired(
    desk: Client, division: Division, director: User
) -> None:
    page = desk.post(
        desk_url("desk-absent", division), {"player": 3, "round": 1, "absent": "1"}, follow=True
    )

    assert (
        "Round 1 of division A is paired already: unpair it first, or record a forfeit on its "
        "pairings page." in html.unescape(page.content.decode())
    )
    page = desk.post(
        desk_url("desk-absent", division), {"player": 3, "round": 2, "absent": "1"}, follow=True
    )
    text = html.unescape(page.content.decode())
    assert "Vale, Cora is absent in round 2: a forfeit loss when it is paired." in text
    assert "absent in round 2" in text
    assert division.players.get(number=3).absent_rounds == [2]


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
    rows = {r.player.number: (r.wins, r.spread) for r in services.division_standings(division)}
    assert rows[1] == (1, 55) and rows[2] == (0, -55) and rows[4] == (1, 20)
    assert check.correction and check.after.startswith("1 Quill, Ada 60 – 2 Crane, Ben 0")


def test_a_three_field_line_is_refused_when_scores_are_entered(division: Division) -> None:
    check = results.check_line(division, 1, "1 +55 2")

    assert check.errors == ["The score of player 2 is missing: P S Q T."]


def test_the_entry_page_says_how_to_type_a_spread(desk: Client, division: Division) -> None:
    division.entry_mode = "spread"
    division.save()

    page = desk.get(desk_url("desk-entry", division, 1)).content.decode()

    assert "player 12 beat player 7 by 55 (recorded 55–0, as TSH does)" in page


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

    rounds.pair(division, 2, director, system="koth")

    found = table_of(division, 2)
    assert found[5][0] == 12
    assert sorted(t for t, _, k in found.values() if t is not None) == [11, 11, 12, 12, 13, 13]
    # A swap that moves Fay keeps her at table 12.
    partner = found[5][1]
    other = next(n for n, (t, _, _) in found.items() if t == 11)
    rounds.swap(
        division, 2, division.players.get(number=5), division.players.get(number=other), director
    )
    assert table_of(division, 2)[5][0] == 12
    assert table_of(division, 2)[partner][0] == 11
    # The printed pairings show the table.
    state = division.rounds.get(number=2)
    rounds.publish(division, 2, director)
    assert state.pk
    pdf = desk.get(
        reverse("desk-report", args=[division.tournament.slug, division.pk, "pairings", "xlsx"]),
        {"round": 2},
    )
    assert pdf.status_code == 200


def test_two_players_cannot_share_a_fixed_table(division: Division, director: User) -> None:
    players.set_fixed_table(division.players.get(number=1), 1, director)

    with pytest.raises(rounds.PairingRefused, match="Quill, Ada already sits at table 1."):
        players.set_fixed_table(division.players.get(number=2), 1, director)


# -- divisions ---------------------------------------------------------------------------------


def test_a_division_is_added_renamed_and_removed_while_empty(
    desk: Client, tournament: Tournament
) -> None:
    url = reverse("desk-divisions", args=[tournament.slug])

    desk.post(url, {"action": "add", "name": "B"})
    b = tournament.divisions.get(name="B")
    page = desk.post(url, {"action": "rename", "division": b.pk, "name": "Lower"}, follow=True)
    assert "Division B is now Lower." in page.content.decode()
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
    fresh = events.create_tournament(
        director, "Fresh Open", [events.NewDivision(name="A"), events.NewDivision(name="B")]
    )
    a, b = fresh.divisions.order_by("position")
    events.add_players(a, "Ann Ash, 1500\nBo Birch, 1400", director)
    events.add_players(b, "Cy Cole, 1300", director)

    page = desk.post(desk_url("desk-move-player", a), {"player": 2, "division": b.pk}, follow=True)

    assert "Bo Birch moved to division B as player 2." in page.content.decode()
    assert list(b.players.values_list("number", "name")) == [(1, "Cy Cole"), (2, "Bo Birch")]
    assert list(a.players.values_list("number", "name")) == [(1, "Ann Ash")]
    # Once division A is paired, Ann has a pairing there and stays.
    rounds.save_pairings(a, 1, [(a.players.get(), None)], director)
    with pytest.raises(events.PeopleRefused, match="Ann Ash is paired or has played"):
        events.move_player(a.players.get(), b, director)


# -- the summary and the rating submission -----------------------------------------------------


def test_the_summary_names_the_winners_the_high_game_and_the_files_to_submit(
    desk: Client, division: Division, director: User
) -> None:
    play_round_1(division, director)
    results.enter_line(division, 1, "7 bye", director)

    page = desk.get(reverse("desk-summary", args=[division.tournament.slug]))
    text = html.unescape(page.content.decode())

    assert page.status_code == 200
    assert "Division A: rounds 2, 3 not played (of 3)" in text
    assert "<strong>420</strong> North, Fay against Stone, Gus (300), round 1" in text
    leaders = text.split('class="desk-table leaders"')[1].split("</table>")[0]
    assert [line for line in ("North, Fay", "Reed, Hal", "Quill, Ada") if line in leaders] == [
        "North, Fay",
        "Reed, Hal",
        "Quill, Ada",
    ]
    assert reverse("desk-tou", args=[division.tournament.slug]) in text
    assert reverse("desk-tsh", args=[division.tournament.slug]) in text


def test_the_tsh_archive_reads_back_as_the_same_event(
    desk: Client, division: Division, director: User, tmp_path: Path
) -> None:
    play_round_1(division, director)
    results.enter_line(division, 1, "7 bye", director)

    response = desk.get(reverse("desk-tsh", args=[division.tournament.slug]))
    path = tmp_path / "config.tsh"
    path.write_bytes(response.content)
    again = services.import_tsh(path, slug="again", name="Again")

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


def test_standings_just_after_publishing_say_the_round_is_in_play(
    client: Client, division: Division, director: User
) -> None:
    play_round_1(division, director)
    results.enter_line(division, 1, "7 bye", director)
    rounds.pair(division, 2, director, system="koth")
    rounds.publish(division, 2, director)  # 7 players: round 2's bye is scored now
    bye = division.games.get(round=2, kind=Game.BYE)
    url = reverse("standings", args=[division.tournament.slug, division.name])

    page = html.unescape(client.get(url).content.decode())

    assert "Standings after round 1 (round 2 in play)" in page
    rows = {r.player.pk: r for r in services.division_standings(division, 1, public=True)}
    assert rows[bye.player1_id].wins == (1 if bye.player1.number in (1, 4, 5, 7) else 0)
    # Once a game of round 2 has a result, the round counts, with its bye.
    game = division.games.filter(round=2, kind=Game.PLAYED).first()
    results.enter_line(
        division, 2, f"{game.player1.number} 400 {game.player2.number} 300", director
    )
    page = html.unescape(client.get(url).content.decode())
    assert "Standings after round 2</h3>" in page


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
