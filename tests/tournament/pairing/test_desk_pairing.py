"""Pairing a round at the desk: pair, check the warnings, swap, publish; withdrawals and late
entries; and the `pair` command.

The desk's division (conftest): seven players, round 1 paired 1 v 2, 3 v 4, 5 v 6 and 7 a bye.
Round 1's results, entered below, rank them Cora (+200), Gus (+100), Ada (+50), Hal (bye, +50),
Ben (−50), Fay (−100), Eli (−200): everyone is unrated, so Ada (seed 1) is above Hal (seed 7).
"""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse
from text_support import plain

from tournament.engine.pairing.messages import render_all
from tournament.models import Change, Division, Game, Player, Round
from tournament.pairing import services as pairing
from tournament.results import services as results

ROUND_1 = ["1 400 2 350", "3 500 4 300", "6 450 5 350", "7 bye"]


@pytest.fixture
def played(division: Division, director) -> Division:
    for line in ROUND_1:
        results.enter_line(division, 1, line, director)
    return division


def url(name: str, division: Division, *args) -> str:
    return reverse(name, args=[division.tournament.slug, division.pk, *args])


def pairs_of(division: Division, round_number: int) -> set[tuple[int, int | None]]:
    return {
        (g.player1.number, g.player2.number if g.player2 else None)
        for g in division.games.filter(round=round_number).select_related("player1", "player2")
    }


def firsts_free(pairs: set[tuple[int, int | None]]) -> set[frozenset]:
    return {frozenset(p) for p in pairs}


def test_koth_round_2_from_round_1(desk: Client, played: Division):
    response = desk.post(url("desk-pair", played), {"round": 2, "system": "koth"})
    assert response.status_code == 302
    assert response.url == url("desk-round-pairings", played, 2)
    # 1v2, 3v4 down the standings; the bye to Eli, the lowest-ranked of those without one.
    assert firsts_free(pairs_of(played, 2)) == {
        frozenset({3, 6}),
        frozenset({1, 7}),
        frozenset({2, 5}),
        frozenset({4, None}),
    }
    # Who goes first: fewer starts first; level on starts, the lower-placed player.
    assert (7, 1) in pairs_of(played, 2)  # Hal had a bye; Ada went first
    assert (6, 3) in pairs_of(played, 2)  # Cora and Gus both went first: Gus is placed lower
    assert (5, 2) in pairs_of(played, 2)  # Ben and Fay both went second: Fay is placed lower
    state = Round.objects.get(division=played, number=2)
    assert (state.system, state.based_on, state.published) == ("koth", 1, False)
    # Why: the bye's reason, and each table's, stored as codes and written as sentences.
    notes = plain(pairing.note_lines(state))
    assert any(n.startswith("Moss, Eli") and "bye" in n for n in notes)
    assert any(n.startswith("Stone, Gus v Vale, Cora: ") for n in notes)
    assert {n["code"] for n in state.notes} == {"has_bye_none", "table"}
    page = desk.get(url("desk-round-pairings", played, 2)).content.decode()
    assert "Stone, Gus v Vale, Cora: " in plain(page)
    assert Change.objects.filter(action=pairing.PAIR).count() == 1


def test_unpublished_round_is_hidden_until_published(desk: Client, played: Division):
    desk.post(url("desk-pair", played), {"round": 2, "system": "koth"})
    public = Client()
    assert public.get("/t/spring-open/A/round/2/").status_code == 404
    page = public.get("/t/spring-open/A/").content.decode()
    assert "/t/spring-open/A/round/2/" not in plain(page)
    # Eli's round 2 bye is not on his page either.
    assert "Round 2" not in public.get("/t/spring-open/A/player/4/").content.decode()
    assert desk.post(url("desk-publish", played, 2)).status_code == 302
    assert public.get("/t/spring-open/A/round/2/").status_code == 200
    bye = played.games.get(round=2, player2=None)
    assert (bye.player1.number, bye.kind, bye.score1) == (4, Game.BYE, 50)
    # Publishing twice is refused with a message, not an error page.
    page = desk.post(url("desk-publish", played, 2), follow=True).content.decode()
    assert "Round 2 is already published." in plain(page)


def test_swap_shows_the_rematch_and_swapping_back_clears_it(desk: Client, played: Division):
    desk.post(url("desk-pair", played), {"round": 2, "system": "koth"})
    page = desk.get(url("desk-round-pairings", played, 2)).content.decode()
    assert 'id="no-warnings"' in plain(page)
    # Ben in Hal's seat: Ben meets Ada again, over the division's limit of no rematches.
    page = desk.post(url("desk-swap", played, 2), {"a": 7, "b": 2}, follow=True).content.decode()
    assert "Swapped Reed, Hal and Crane, Ben; 1 warning." in plain(page)
    assert 'data-code="repeat_limit"' in plain(page)
    assert frozenset({1, 2}) in firsts_free(pairs_of(played, 2))
    state = Round.objects.get(division=played, number=2)
    assert state.warnings == [
        {
            "code": "repeat_limit",
            "params": {"a": "Crane, Ben", "b": "Quill, Ada", "met": 1, "limit": 0},
            "players": [played.players.get(number=2).pk, played.players.get(number=1).pk],
        }
    ]
    assert render_all(state.warnings) == [
        "Crane, Ben and Quill, Ada have met 1 time(s); the division allows no rematches."
    ]
    page = desk.post(url("desk-swap", played, 2), {"a": 7, "b": 2}, follow=True).content.decode()
    assert 'id="no-warnings"' in plain(page)
    assert Change.objects.filter(action=pairing.SWAP).count() == 2


def test_a_round_with_results_is_not_paired_again(desk: Client, played: Division, director):
    desk.post(url("desk-pair", played), {"round": 2, "system": "koth"})
    desk.post(url("desk-publish", played, 2))
    results.enter_line(played, 2, "3 420 6 400", director)
    before = pairs_of(played, 2)
    response = desk.post(url("desk-pair", played), {"round": 2, "system": "swiss"})
    assert response.status_code == 409
    assert "Round 2 already has 1 result: it cannot be paired again." in response.content.decode()
    assert pairs_of(played, 2) == before
    response = desk.post(url("desk-swap", played, 2), {"a": 3, "b": 1}, follow=True)
    assert "has a result: it cannot be swapped" in response.content.decode()


def test_pairing_needs_the_results_it_is_based_on(desk: Client, division: Division):
    response = desk.post(url("desk-pair", division), {"round": 2, "system": "swiss"})
    assert response.status_code == 409
    assert "some games have no result yet (round 1: 4)" in response.content.decode()
    assert not division.games.filter(round=2).exists()


def test_forfeit_turns_a_pairing_into_a_loss_and_a_win(desk: Client, played: Division):
    desk.post(url("desk-pair", played), {"round": 2, "system": "koth"})
    desk.post(url("desk-forfeit", played, 2), {"player": 6})
    games = {(g.player1.number, g.kind, g.score1) for g in played.games.filter(round=2)}
    assert (6, Game.FORFEIT, -50) in games
    assert (3, Game.FORFEIT, 50) in games


def test_manual_pairings_with_warnings(desk: Client, played: Division):
    text = "1 2\n3 4\n5 6\n7 bye\n"
    response = desk.post(url("desk-pair-manual", played, 2), {"pairs": text}, follow=True)
    page = response.content.decode()
    assert pairs_of(played, 2) == {(1, 2), (3, 4), (5, 6), (7, None)}
    codes = [w["code"] for w in Round.objects.get(division=played, number=2).warnings]
    assert codes.count("repeat_limit") == 3
    # Ada and Gus went first in round 1 and are first again; Cora too, against Eli who had not.
    assert codes.count("first_imbalance") == 2
    assert "second_bye" in codes  # Hal already had one while others have none
    assert 'data-code="repeat_limit"' in plain(page)
    bad = desk.post(url("desk-pair-manual", played, 2), {"pairs": "1 2\n2 3\n"}, follow=True)
    assert "Player 2 Crane, Ben is paired twice." in plain(bad.content.decode())
    bad = desk.post(url("desk-pair-manual", played, 2), {"pairs": "1 two\n"}, follow=True)
    assert "Line 1: “1 two” is not two player numbers or “N bye”." in bad.content.decode()


def test_withdrawn_players_are_not_paired(desk: Client, played: Division):
    desk.post(url("desk-withdraw", played), {"player": 4, "from_round": 2})
    assert Player.objects.get(division=played, number=4).withdrawn_from_round == 2
    desk.post(url("desk-pair", played), {"round": 2, "system": "koth"})
    pairs = pairs_of(played, 2)
    assert all(4 not in p for p in pairs)
    assert len(pairs) == 3 and all(None not in p for p in pairs)  # six players: no bye
    desk.post(url("desk-reinstate", played, 4))
    assert Player.objects.get(division=played, number=4).withdrawn_from_round is None


def test_late_entry_gets_forfeit_losses_and_is_paired(desk: Client, played: Division):
    response = desk.post(
        url("desk-late-entry", played), {"name": "Young, Zed", "rating": 1500}, follow=True
    )
    assert "Young, Zed added as player 8, with forfeit losses in 1 round." in (
        response.content.decode()
    )
    zed = Player.objects.get(division=played, number=8)
    loss = zed.games_as_1.get()
    assert (loss.round, loss.kind, loss.score1) == (1, Game.FORFEIT, -50)
    desk.post(url("desk-pair", played), {"round": 2, "system": "koth"})
    pairs = pairs_of(played, 2)
    assert len(pairs) == 4 and all(None not in p for p in pairs)  # eight players: no bye
    assert any(8 in p for p in pairs)
    again = desk.post(url("desk-late-entry", played), {"name": "young,  zed", "rating": 0})
    assert again.status_code == 409


def test_only_directors_pair(client_for, other_director, stranger, played: Division):
    for user in (other_director, stranger):
        client = client_for(user)
        assert client.get(url("desk-pairing", played)).status_code == 403
        assert client.post(url("desk-pair", played), {"round": 2}).status_code == 403
        assert client.post(url("desk-publish", played, 1)).status_code == 403
        assert (
            client.post(url("desk-withdraw", played), {"player": 1, "from_round": 2}).status_code
            == 403
        )
    assert not played.games.filter(round=2).exists()
    anonymous = Client().post(url("desk-pair", played), {"round": 2})
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous.url


def test_pages_render(desk: Client, played: Division):
    assert desk.get(url("desk-pairing", played)).status_code == 200
    assert desk.get(url("desk-players", played)).status_code == 200
    assert desk.get(url("desk-round-pairings", played, 1)).status_code == 200
    assert desk.get(url("desk-round-pairings", played, 5)).status_code == 200


# -- the command line ---------------------------------------------------------------------------


def pair_command(*args: str) -> str:
    out = StringIO()
    call_command("pair", "spring-open", "--division", "A", *args, stdout=out)
    return out.getvalue()


def test_pair_command_dry_run_json(played: Division):
    data = json.loads(pair_command("--round", "2", "--system", "koth", "--dry-run", "--json"))
    assert {frozenset((d["first"], d["second"])) for d in data} == {
        frozenset({"Vale, Cora", "Stone, Gus"}),
        frozenset({"Quill, Ada", "Reed, Hal"}),
        frozenset({"Crane, Ben", "North, Fay"}),
        frozenset({"Moss, Eli", None}),
    }
    assert [d["table"] for d in data if d["second"]] == [1, 2, 3]
    assert not played.games.filter(round=2).exists()  # nothing saved


def test_pair_command_saves_unpublished(played: Division):
    text = pair_command("--round", "2", "--system", "koth")
    assert "Round 2 of division A, koth from round 1:" in plain(text)
    assert len(pairs_of(played, 2)) == 4
    assert Round.objects.get(division=played, number=2).published is False


def test_pair_command_based_on_an_earlier_round(played: Division):
    # From round 0 (ratings and seeds only) yet still away from round 1's opponents.
    data = json.loads(
        pair_command("--round", "2", "--based-on", "0", "--system", "koth", "--dry-run", "--json")
    )
    met = {frozenset({"Quill, Ada", "Crane, Ben"}), frozenset({"Vale, Cora", "Moss, Eli"})}
    met.add(frozenset({"North, Fay", "Stone, Gus"}))
    assert not any(frozenset((d["first"], d["second"])) in met for d in data)


def test_pair_command_errors(division: Division):
    with pytest.raises(CommandError, match=r"some games have no result yet \(round 1: 4\)"):
        pair_command("--round", "2")
    with pytest.raises(CommandError, match="no division 'A' in tournament 'nowhere'"):
        call_command("pair", "nowhere", "--division", "A", "--round", "2")
    with pytest.raises(CommandError, match="not round 3"):
        pair_command("--round", "2", "--based-on", "3")


# -- settings -----------------------------------------------------------------------------------


def test_settings_are_saved_and_used(desk: Client, played: Division):
    form = {
        "planned_rounds": 5,
        "max_repeats": 1,
        "gibson": "on",
        "avoid_same": "",
        "bye_spread": 50,
        "forfeit_spread": 50,
        "rating_system": "nsa2008",
        "schedule": "1-3 swiss\n4- koth repeats=2",
        "gibson_spread_text": "400",
        "prize_bands_text": "1, 2, 3",
        "forbidden": "3 6",
        "entry_mode": "spread",
        "absent_result": "nothing",
        "byes_count": "published",
        "first_table": 11,
        "last_table": 20,
    }
    response = desk.post(url("desk-division-settings", played), form)
    assert response.status_code == 302
    played.refresh_from_db()
    assert (played.entry_mode, played.absent_result, played.first_table, played.last_table) == (
        "spread",
        "nothing",
        11,
        20,
    )
    assert played.byes_count == "published"
    assert played.pairing_schedule == [
        {"rounds": "1-3", "system": "swiss"},
        {"rounds": "4-", "system": "koth", "repeats": 2},
    ]
    assert (played.max_repeats, played.gibson_spread, played.prize_bands) == (1, 400, [1, 2, 3])
    assert played.forbidden_pairs == [[3, 6]]
    page = desk.get(url("desk-division-settings", played)).content.decode()
    assert "4- koth repeats=2" in plain(page)
    # KOTH would put Cora (1st) with Gus (2nd): they are a forbidden pair now.
    desk.post(url("desk-pair", played), {"round": 2, "system": "koth"})
    assert not {frozenset({3, 6})} & firsts_free(pairs_of(played, 2))
    assert Round.objects.get(division=played, number=2).warnings == []


def test_settings_refuse_a_bad_schedule_and_unknown_players(desk: Client, played: Division):
    form = {
        "planned_rounds": 5,
        "max_repeats": 0,
        "bye_spread": 50,
        "forfeit_spread": 50,
        "rating_system": "nsa2008",
        "avoid_same": "",
        "schedule": "1-3 swiss\n3-5 chess",
        "forbidden": "3 99",
    }
    response = desk.post(url("desk-division-settings", played), form)
    assert response.status_code == 400
    page = response.content.decode()
    assert "schedule entry 2: unknown pairing system &#x27;chess&#x27;" in plain(page)
    assert "Line 1: no player 99." in plain(page)
    played.refresh_from_db()
    assert played.pairing_schedule == [] and played.forbidden_pairs == []


def test_same_club_players_are_kept_apart(desk: Client, played: Division):
    played.avoid_same = "club"
    played.save()
    Player.objects.filter(division=played, number__in=[3, 6]).update(club="Toronto")
    desk.post(url("desk-pair", played), {"round": 2, "system": "koth"})
    assert frozenset({3, 6}) not in firsts_free(pairs_of(played, 2))
    assert frozenset({3, 1}) in firsts_free(pairs_of(played, 2))  # Cora plays the next, Ada


def test_the_schedule_decides_the_system_and_the_division_the_repeats(played: Division):
    played.pairing_schedule = [{"rounds": "2-", "system": "koth"}]
    played.save()
    proposal = pairing.plan(played, 2)
    assert (proposal.result.system, proposal.result.based_on) == ("koth", 1)
    assert pairing.rules(played, pairing.schedule_entry(played, 2)).max_repeats == 0
    played.max_repeats = 2
    played.save()
    assert pairing.rules(played, pairing.schedule_entry(played, 2)).max_repeats == 2
    played.pairing_schedule = [{"rounds": "2-", "system": "koth", "repeats": 1}]
    played.save()
    assert pairing.rules(played, pairing.schedule_entry(played, 2)).max_repeats == 1


def test_a_roster_file_adds_players_at_the_desk(desk: Client, played: Division):
    from django.core.files.uploadedfile import SimpleUploadedFile

    good = SimpleUploadedFile("roster.csv", b'Name,Rating,Club\n"Young, Zed",1500,Owls\n')
    page = desk.post(url("desk-roster", played), {"file": good}, follow=True).content.decode()
    assert (
        "1 player added to division A. "
        "1 of them with forfeit losses for the rounds already under way." in plain(page)
    )
    zed = Player.objects.get(division=played, name="Young, Zed")
    assert (zed.number, zed.rating, zed.club) == (8, 1500, "Owls")
    loss = zed.games_as_1.get()  # round 1 was played before Zed came
    assert (loss.round, loss.kind, loss.score1) == (1, Game.FORFEIT, -50)
    bad = SimpleUploadedFile("roster.csv", b"Name,Rating\nAda Two,15OO\n")
    page = desk.post(url("desk-roster", played), {"file": bad}, follow=True).content.decode()
    assert "Nothing imported: row 2: the rating &#x27;15OO&#x27; is not a whole number" in plain(
        page
    )
    assert played.players.count() == 8


def test_another_system_than_the_schedules_leaves_the_schedules_options(played: Division):
    # Round 2 is scheduled for Initial Fontes, with options (start, rounds) koth does not take.
    played.pairing_schedule = [
        {"rounds": "1-3", "system": "fontes", "relax_repeats": True},
    ]
    played.save()

    proposal = pairing.plan(played, 2, system="koth")

    assert proposal.result.system == "koth"
    assert len(proposal.result.pairings) == 4
    with pytest.raises(pairing.PairingRefused, match="koth takes no option 'depth'"):
        played.pairing_schedule = [{"rounds": "1-3", "system": "koth", "depth": 2}]
        played.save()
        pairing.plan(played, 2)
