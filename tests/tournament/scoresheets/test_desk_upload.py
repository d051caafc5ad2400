"""Many scoresheets at once: each file goes to the game its players' names or nicks point to;
the director picks the game for the others."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from tournament.models import Change, Division, Game, Scoresheet
from tournament.results import services as results
from tournament.scoresheets import services as scoresheets


def gcg(name: str, text: str) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, text.encode())


def upload_url(division: Division) -> str:
    return f"/desk/spring-open/division/{division.pk}/upload/"


def test_several_files_are_matched_to_their_games_by_names_and_nicks(
    desk: Client, division: Division, game_of: Callable[[int], Game], record: Callable[..., str]
) -> None:
    files = [
        gcg("ada-ben.gcg", record()),  # full names, first name as nick
        gcg("r1t2.gcg", record("cora", "", "moss", "")),  # nicks only, no full names
        gcg("gus-fay.gcg", record("g", "Gus Stone", "f", "Fay North")),  # names, bare nicks
    ]

    response = desk.post(upload_url(division), {"action": "upload", "files": files})

    assert response.status_code == 200
    sheets = {s.report["file"]: s.game for s in Scoresheet.objects.all()}
    assert sheets == {
        "ada-ben.gcg": game_of(1),
        "r1t2.gcg": game_of(3),
        "gus-fay.gcg": game_of(5),
    }
    assert response.context["pending"] == []
    assert Change.objects.filter(action="upload").count() == 3


def test_a_file_that_names_no_game_waits_for_the_director_to_pick_one(
    desk: Client, division: Division, game_of: Callable[[int], Game], record: Callable[..., str]
) -> None:
    text = record("zed", "Zed Unknown", "yan", "Yan Nobody")
    files = [gcg("ada-ben.gcg", record()), gcg("who.gcg", text)]

    first = desk.post(upload_url(division), {"action": "upload", "files": files})

    pending = first.context["pending"]
    assert [(p["name"], p["text"], p["candidates"]) for p in pending] == [("who.gcg", text, [])]
    assert Scoresheet.objects.count() == 1
    page = first.content.decode()
    assert 'name="game_0"' in page and 'name="text_0"' in page

    second = desk.post(
        upload_url(division),
        {
            "action": "assign",
            "count": "1",
            "name_0": "who.gcg",
            "text_0": text,
            "game_0": str(game_of(3).pk),
        },
    )

    assert second.status_code == 200
    sheet = Scoresheet.objects.get(game=game_of(3))
    assert (sheet.gcg, sheet.report["file"]) == (text, "who.gcg")


def test_a_file_left_without_a_game_is_not_saved(
    desk: Client, division: Division, record: Callable[..., str]
) -> None:
    response = desk.post(
        upload_url(division),
        {"action": "assign", "count": "1", "name_0": "who.gcg", "text_0": record(), "game_0": ""},
    )

    assert response.context["errors"] == ["who.gcg: no game chosen, not saved."]
    assert not Scoresheet.objects.exists()


def test_the_same_players_in_two_rounds_are_told_apart_by_the_round_or_the_result(
    desk: Client,
    division: Division,
    director: User,
    game_of: Callable[[int, int], Game],
    record: Callable[..., str],
) -> None:
    one = game_of(1)
    again = Game.objects.create(
        division=division, round=2, player1=one.player2, player2=one.player1
    )
    results.enter_line(division, 2, "2 24 1 20", director)  # the record's 20-24 is round 2's

    found, candidates = scoresheets.match_game(division, record())
    assert (found, set(candidates)) == (again, {one, again})
    assert scoresheets.match_game(division, record(), round_number=1) == (one, [one])

    response = desk.post(
        upload_url(division), {"action": "upload", "round": "1", "files": [gcg("a.gcg", record())]}
    )
    assert Scoresheet.objects.get().game == one
    assert response.status_code == 200


def test_with_the_same_players_twice_and_nothing_to_tell_them_apart_the_director_picks(
    desk: Client, division: Division, game_of: Callable[[int], Game], record: Callable[..., str]
) -> None:
    one = game_of(1)
    Game.objects.create(division=division, round=2, player1=one.player1, player2=one.player2)

    response = desk.post(
        upload_url(division), {"action": "upload", "files": [gcg("a.gcg", record())]}
    )

    assert [len(p["candidates"]) for p in response.context["pending"]] == [2]
    assert not Scoresheet.objects.exists()


def test_a_malformed_file_among_many_is_saved_with_its_findings(
    desk: Client, division: Division, game_of: Callable[[int], Game], record: Callable[..., str]
) -> None:
    broken = record().replace(">Ben: ABHITWY I7 WITHY +33 33", ">Ben: WITHY")
    files = [gcg("ok.gcg", record("Eli", "Eli Moss", "Cora", "Cora Vale")), gcg("bad.gcg", broken)]

    response = desk.post(upload_url(division), {"action": "upload", "files": files})

    assert response.status_code == 200
    bad = Scoresheet.objects.get(report__file="bad.gcg")
    assert bad.game == game_of(1)
    assert bad.verified is False
    assert (4, "malformed_line") in [(f["line"], f["code"]) for f in bad.report["findings"]]
    assert Scoresheet.objects.get(report__file="ok.gcg").verified is True


def test_a_file_too_large_to_be_a_scoresheet_is_refused(desk: Client, division: Division) -> None:
    big = SimpleUploadedFile("big.gcg", b"#" * (scoresheets.MAX_SCORESHEET_BYTES + 1))

    response = desk.post(upload_url(division), {"action": "upload", "files": [big]})

    assert response.context["errors"] == ["big.gcg is too large to be a scoresheet."]
    assert not Scoresheet.objects.exists()


def test_the_name_matcher_reads_names_in_either_order_and_nicks() -> None:
    assert scoresheets.name_matches("Smylie, Jackson", "js", "Jackson Smylie")
    assert scoresheets.name_matches("Smylie, Jackson", "jackson", "")
    assert scoresheets.name_matches("Smylie, Jackson", "JacksonSmylie", "")
    assert scoresheets.name_matches("Smylie, Jackson", "smyliejackson", "")
    assert scoresheets.name_matches("Núñez, José", "jose", "")
    assert not scoresheets.name_matches("Smylie, Jackson", "jack", "Jack Smith")
    assert not scoresheets.name_matches("Smylie, Jackson", "", "")
