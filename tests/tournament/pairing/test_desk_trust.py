"""The desk a director can trust late in the day: a correction never leaves a stale pairing,
what is unresolved is listed where the director looks, and every refusal says why.

The division (conftest): seven players, round 1 paired 1 v 2, 3 v 4, 5 v 6 and 7 a bye, three
rounds planned. The trap: a typo in round 1 (39 for 390) makes the division pair round 2 by
itself from it; the director then corrects the typo.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone
from text_support import plain

from tournament.models import Change, Claim, Division, Game, Scoresheet
from tournament.pairing import services as pairing
from tournament.phone import services as phone

JSON = {"HTTP_ACCEPT": "application/json"}
TYPO = ("1 39 2 350", "3 400 4 300", "5 400 6 300", "7 bye")
# Round 2 as Swiss pairs it from the typo (Ben 1–0 +311, Ada 0–1 -311), and from the right
# result (Ada 1–0 +40, Ben 0–1 -40): tables and numbers, the bye last.
FROM_TYPO = [(1, 5, 2), (2, 7, 3), (3, 4, 6), (None, 1, None)]
FROM_FIX = [(1, 7, 3), (2, 5, 1), (3, 4, 2), (None, 6, None)]


def enter_url(division: Division, number: int = 1) -> str:
    return f"/desk/spring-open/division/{division.pk}/round/{number}/enter"


def pairs(division: Division, number: int) -> list[tuple[int | None, int, int | None]]:
    games = division.games.filter(round=number).select_related("player1", "player2")
    rows = [(g.table, g.player1.number, g.player2.number if g.player2 else None) for g in games]
    return sorted(rows, key=lambda r: (r[0] is None, r[0] or 0, r[1]))


def typo_then_auto_pair(desk: Client, division: Division) -> None:
    division.auto_pair = True
    division.save()
    for line in TYPO:
        assert desk.post(enter_url(division), {"line": line}, **JSON).json()["ok"]
    assert pairs(division, 2) == FROM_TYPO
    assert division.rounds.get(number=2).auto


def correct_typo(desk: Client, division: Division) -> dict:
    fix = {"line": "1 390 2 350", "reason": "39 for 390"}
    return desk.post(enter_url(division), fix, **JSON).json()


# -- 1. a correction never leaves a stale pairing ---------------------------------------------


def test_the_divisions_own_round_is_paired_again_from_the_corrected_result(
    desk: Client, division: Division
) -> None:
    typo_then_auto_pair(desk, division)

    data = correct_typo(desk, division)

    said = "Round 2 paired again from the changed results: 3 of 4 pairs changed."
    assert plain(data["pairings"]) == [said]
    assert plain(data["records"]) == f"Now: Quill, Ada 1–0 +40; Crane, Ben 0–1 -40. {said}"
    assert pairs(division, 2) == FROM_FIX
    state = division.rounds.get(number=2)
    assert (state.auto, state.published, state.stale) == (True, False, [])
    # Its reasons are those of the corrected results: Ada is on one win, Ben on none.
    tables = {n["params"]["first"]: n["params"] for n in state.notes if n["code"] == "table"}
    assert {"code": "same_wins", "params": {"wins": 1.0}} in tables["North, Fay"]["reasons"]
    assert tables["North, Fay"]["second"] == "Quill, Ada"
    # Every step is one logged change: four results, the pairing, the correction, the pairing.
    actions = list(Change.objects.order_by("pk").values_list("action", flat=True))
    assert actions == ["create"] * 4 + ["pair", "correct", "pair"]


def test_undo_of_the_correction_restores_the_earlier_pairing(
    desk: Client, division: Division
) -> None:
    typo_then_auto_pair(desk, division)
    correct_typo(desk, division)

    undone = desk.post(f"/desk/spring-open/division/{division.pk}/undo", {"round": "1"}, **JSON)

    assert plain(undone.json()["message"]) == (
        "Undone: back to 1 Quill, Ada 39 – 2 Crane, Ben 350, Quill, Ada first "
        "Round 2 paired again from the changed results: 3 of 4 pairs changed."
    )
    assert pairs(division, 2) == FROM_TYPO
    assert list(Change.objects.order_by("pk").values_list("action", flat=True))[-2:] == [
        "undo",
        "pair",
    ]


def test_a_hand_swapped_round_is_marked_stale_and_publishing_it_asks(
    desk: Client, division: Division
) -> None:
    typo_then_auto_pair(desk, division)
    swap_url = f"/desk/spring-open/division/{division.pk}/round/2/swap"
    assert desk.post(swap_url, {"a": "4", "b": "1"}).status_code == 302
    swapped = pairs(division, 2)
    assert not division.rounds.get(number=2).auto

    data = correct_typo(desk, division)

    changed = (
        "1 Quill, Ada 39 – 2 Crane, Ben 350, Quill, Ada first → "
        "1 Quill, Ada 390 – 2 Crane, Ben 350, Quill, Ada first"
    )
    assert plain(data["pairings"]) == [
        f"Round 2 was paired from results that have changed ({changed}): it is left as it is. "
        "Pair it again on its pairing page if it should change."
    ]
    assert pairs(division, 2) == swapped  # not touched
    correction = Change.objects.get(action="correct")
    assert division.rounds.get(number=2).stale == [{"change": correction.pk, "rounds": [1]}]

    # The dashboard, the round's pairing page and the entry page say so and offer to pair again.
    stale = f"Round 2 was paired from results that have changed since: {changed}."
    for url in (
        "/desk/spring-open/",
        f"/desk/spring-open/division/{division.pk}/round/1/",
        f"/desk/spring-open/division/{division.pk}/round/2/",
    ):
        page = plain(desk.get(url).content.decode())
        assert stale in page, url
        assert f"/desk/spring-open/division/{division.pk}/round/2/pairings/" in page, url
    pairing_page = plain(desk.get(f"/desk/spring-open/division/{division.pk}/round/2/pairings/"))
    text = pairing_page.content.decode()
    assert 'id="pair-again-form"' in text and 'name="stale_ok" value="1" required' in text

    # Publishing asks first: refused without the confirmation, done with it.
    publish = f"/desk/spring-open/division/{division.pk}/round/2/publish"
    refused = desk.post(publish, follow=True)
    assert (
        "Round 2 was paired from results that have changed since "
        f"({changed}). Pair it again, or confirm that it is to be published as it is."
    ) in plain(refused.content.decode())
    assert not division.rounds.get(number=2).published
    assert desk.post(publish, {"stale_ok": "1"}).status_code == 302
    assert division.rounds.get(number=2).published


def test_an_undo_takes_the_stale_mark_off(desk: Client, division: Division) -> None:
    typo_then_auto_pair(desk, division)
    pairing.publish(division, 2, None)
    correct_typo(desk, division)
    assert division.rounds.get(number=2).stale  # published: left as it is, marked

    undone = desk.post(f"/desk/spring-open/division/{division.pk}/undo", {"round": "1"}, **JSON)

    assert plain(undone.json()["message"]).endswith(
        "Round 2 is up to date again with the results it was paired from."
    )
    assert division.rounds.get(number=2).stale == []
    assert pairs(division, 2) == FROM_TYPO


def test_pairing_again_from_the_stale_mark_uses_the_results_as_they_are(
    desk: Client, division: Division
) -> None:
    typo_then_auto_pair(desk, division)
    desk.post(f"/desk/spring-open/division/{division.pk}/round/2/swap", {"a": "4", "b": "1"})
    correct_typo(desk, division)

    desk.post(
        f"/desk/spring-open/division/{division.pk}/pairing/pair", {"round": "2", "based_on": "1"}
    )

    assert pairs(division, 2) == FROM_FIX
    assert division.rounds.get(number=2).stale == []


def test_a_late_entry_pairs_the_divisions_own_round_again(desk: Client, division: Division) -> None:
    typo_then_auto_pair(desk, division)
    url = f"/desk/spring-open/division/{division.pk}/players/add"
    page = desk.post(url, {"name": "Ash, Ivy", "rating": "0", "missed": "forfeits"}, follow=True)

    assert "Round 2 paired again from the changed results" in plain(page.content.decode())
    ivy = division.players.get(name="Ash, Ivy")
    assert (
        division.games.filter(round=2, player1=ivy).exists()
        or division.games.filter(round=2, player2=ivy).exists()
    )
    assert division.games.filter(round=2, player2=None).count() == 0  # eight players: no bye


def test_the_pairing_page_says_which_results_the_round_was_paired_from(
    desk: Client, division: Division
) -> None:
    typo_then_auto_pair(desk, division)
    last = Change.objects.filter(action="create").order_by("-pk").first()
    page = desk.get(f"/desk/spring-open/division/{division.pk}/round/2/pairings/")
    assert (
        f"Its reasons and warnings are those of the results as they stood at change {last.pk} "
        "of the log."
    ) in page.content.decode()


# -- 2. one list of what is unresolved ----------------------------------------------------------


@pytest.fixture
def reports(division: Division) -> Division:
    """Round 1 with players' reports: 1 v 2 disagree, 3 v 4 reported by Cora only."""
    division.self_report = True
    division.save()
    players = {p.number: p for p in division.players.all()}
    game = {n: division.games.get(round=1, player1__number=n) for n in (1, 3)}
    phone.report(players[1], game[1], 433, 377)
    phone.report(players[2], game[1], 434, 377)
    phone.report(players[3], game[3], 400, 390)
    return division


def test_the_dashboard_and_the_entry_page_list_what_the_desk_must_settle(
    desk: Client, reports: Division
) -> None:
    d = reports.pk
    disagree = (
        "Round 1, table 1: 1 Quill, Ada v 2 Crane, Ben: the reports disagree: "
        "Quill, Ada: 433–377 · Crane, Ben: 434–377."
    )
    one_sided = (
        "Round 1, table 2: 3 Vale, Cora v 4 Moss, Eli: only Vale, Cora has reported "
        "(Vale, Cora: 400–390)."
    )
    for url in ("/desk/spring-open/", f"/desk/spring-open/division/{d}/round/1/"):
        response = desk.get(url)
        items = [(i.kind, plain(i.sentence)) for i in response.context["unresolved"]]
        assert items == [
            ("missing", "Round 1: 4 results missing."),
            ("claims", disagree),
            ("claims", one_sided),
        ], url
        page = response.content.decode()
        claims = {c.player.number: c.pk for c in Claim.objects.all()}
        for n in (1, 2):
            assert f'name="claim" value="{claims[n]}"' in page
        assert 'Accept <bdi>Quill, Ada</bdi>: <bdi dir="ltr">433–377</bdi>' in page


def test_a_result_typed_over_a_disagreement_says_it_settles_it(
    desk: Client, reports: Division
) -> None:
    data = desk.post(enter_url(reports), {"line": "1 433 2 377"}, **JSON).json()

    assert plain(data["records"]) == (
        "Now: Quill, Ada 1–0 +56; Crane, Ben 0–1 -56. It settles the players' reports "
        "(Quill, Ada: 433–377 · Crane, Ben: 434–377)."
    )
    assert not Claim.objects.filter(game__player1__number=1).exists()
    kinds = [i.kind for i in desk.get("/desk/spring-open/").context["unresolved"]]
    assert kinds == ["missing", "claims"]  # Cora's report of 3 v 4 still waits


def test_a_flagged_scoresheet_is_on_the_list(
    desk: Client, division: Division, director: User
) -> None:
    game = division.games.get(round=1, player1__number=1)
    Scoresheet.objects.create(
        game=game,
        gcg="#player1 Ada Ada\n",
        verified=True,
        flagged=True,
        report={"players": [{"nick": "Ada", "final": 420}, {"nick": "Ben", "final": 377}]},
    )
    items = desk.get("/desk/spring-open/").context["unresolved"]
    assert [plain(i.sentence) for i in items if i.kind == "sheet"] == [
        "Round 1, table 1: 1 Quill, Ada v 2 Crane, Ben: the scoresheet says Ada 420 – Ben 377, "
        "not the result entered."
    ]


def test_nothing_unresolved_is_said(desk: Client, division: Division) -> None:
    for line in TYPO:
        desk.post(enter_url(division), {"line": line}, **JSON)
    page = desk.get("/desk/spring-open/").content.decode()
    assert 'id="nothing-unresolved"' in page


# -- 3. every refusal says why ------------------------------------------------------------------


def test_a_save_while_locked_answers_the_lock_sentence(
    desk: Client, division: Division, director: User
) -> None:
    desk.post("/desk/spring-open/lock", {"locked": "1"})
    at = timezone.localtime(Change.objects.get(action="lock").at).strftime("%H:%M")
    sentence = (
        f"Spring Open is locked (by alice at {at}): nothing can be changed until one of its "
        "directors unlocks it on its desk dashboard."
    )

    page = desk.get(f"/desk/spring-open/division/{division.pk}/round/1/").content.decode()
    assert sentence in plain(page) and 'id="locked"' in page

    saved = desk.post(enter_url(division), {"line": "1 400 2 350"}, **JSON)
    assert saved.status_code == 403
    assert saved["Content-Type"] == "application/json"
    assert plain(saved.json()) == {"ok": False, "error": sentence, "refused": True}

    undo = desk.post(f"/desk/spring-open/division/{division.pk}/undo", {"round": "1"}, **JSON)
    assert (undo.status_code, plain(undo.json()["error"])) == (403, sentence)
    assert not division.games.exclude(score1=None).exists()


def test_a_refusal_of_a_stranger_is_said_in_json_too(division: Division, stranger: User) -> None:
    client = Client()
    client.force_login(stranger)
    answer = client.post(enter_url(division), {"line": "1 400 2 350"}, **JSON)
    assert answer.status_code == 403
    assert plain(answer.json()["error"]) == (
        "Only the directors and scorekeepers of Spring Open may use its desk. Ask its directors "
        "alice, bob to add you by your username."
    )


def test_the_entry_script_tells_a_refusal_from_a_lost_connection() -> None:
    from pathlib import Path

    from django.conf import settings

    script = (Path(settings.BASE_DIR) / "static" / "desk-entry.js").read_text()
    # Every answer goes through `answer`, which reads JSON or says the status; the network's
    # sentence is only in the catch of a request that got no answer.
    assert script.count(".then(answer)") == 2
    assert "r.json(); })" not in script
    assert script.count('say("tNoAnswer")') == 2


def test_no_game_changes_are_lost_when_the_round_cannot_be_paired_again(
    desk: Client, division: Division
) -> None:
    typo_then_auto_pair(desk, division)
    # Taking the result away leaves round 1 incomplete: round 2 cannot be paired from it.
    game = division.games.get(round=1, player1__number=1)
    url = f"/desk/spring-open/games/{game.pk}/"
    form = {"score1": "", "score2": "", "first": "1", "version": game.version, "reason": "slip"}
    desk.post(url, form)

    assert Game.objects.get(pk=game.pk).score1 is None
    state = division.rounds.get(number=2)
    assert pairs(division, 2) == FROM_TYPO and len(state.stale) == 1


# -- 4. names in any script stay whole ----------------------------------------------------------


def test_persian_names_are_isolated_on_the_entry_page_and_in_the_json_message(
    desk: Client, division: Division
) -> None:
    sara = division.players.get(number=1)
    sara.name = "سارا احمدی"
    sara.save()

    data = desk.post(enter_url(division), {"line": "1 39 2 350"}, **JSON).json()

    assert data["message"] == (
        "Saved: 1 \u2068سارا احمدی\u2069 39 – 2 \u2068Crane, Ben\u2069 350, "
        "\u2068سارا احمدی\u2069 first"
    )
    assert data["records"] == (
        "Now: \u2068سارا احمدی\u2069 \u20680–1\u2069 \u2068-311\u2069; "
        "\u2068Crane, Ben\u2069 \u20681–0\u2069 \u2068+311\u2069."
    )
    [row] = data["rows"].values()  # the saved game's row, patched into the page
    assert "<td>1 <bdi>سارا احمدی</bdi></td>" in row
    page = desk.get(f"/desk/spring-open/division/{division.pk}/round/1/").content.decode()
    assert "<td>1 <bdi>سارا احمدی</bdi></td>" in page
    # The undo label and the change log say the same, the names isolated.
    assert "1 <bdi>سارا احمدی</bdi> 39 – 2 <bdi>Crane, Ben</bdi> 350" in page
