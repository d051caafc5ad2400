"""Board entry of a scoresheet (issue 26): a turn given as the square its word starts on, Across
or Down and the word as a player writes it, placed and scored by the engine and written as the
standard GCG line; the other turns (pass, exchange, a phony challenged off, a challenge bonus, a
time penalty, the end with the rack points by the rules); a turn that cannot stand refused with
its reason and nothing added; a turn changed and the turns after it scored again; the phone's
and the desk's endpoint, charged and bounded as the live check is.

Scores worked out by hand beside each case (standard board: D8 and G7 double letters, H8 the
centre's double word; D2 J8 I1 N1 S1 W4 T1 H4 Y4)."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import translation
from scoring_support import SIX_SCORELESS, corpus_game

import scoring
from scoring import gcg
from tournament.core import bounds
from tournament.models import Change, Division, Game, Round, Scoresheet
from tournament.phone import services as phone
from tournament.scoresheets import board_entry, entry
from tournament.scoresheets.entry import Refusal, Spec

HEADER = "#player1 Ada Ada Quill\n#player2 Ben Ben Crane\n"
NASPA = scoring.load_rules("naspa")
WESPA = scoring.load_rules("wespa")
VS_JOSH = "liwords/pkg__omgwords__testdata__vs_josh.gcg"
FIVEPOINT = "quackle/test__positions__fivepoint.gcg"


def play(row: int, col: int, word: str, across: bool = True, **more) -> Spec:
    return Spec("play", row - 1, ord(col) - ord("A"), across, word, **more)


def lines(*specs: Spec, record: str = HEADER, rules: scoring.Ruleset = NASPA) -> list[str]:
    added = entry.add_turns(record, list(specs), rules=rules, tiles="english")
    return [line for turn in added.lines for line in turn]


def refused(*specs: Spec, record: str = HEADER, rules: scoring.Ruleset = NASPA) -> Refusal:
    with pytest.raises(Refusal) as caught:
        entry.add_turns(record, list(specs), rules=rules, tiles="english")
    return caught.value


def sentence(refusal: Refusal) -> str:
    with translation.override("en"):
        return board_entry.refusal_text(refusal)


def prefix(name: str, events: int) -> str:
    """A corpus record's header and its first `events` moves."""
    text = corpus_game(name).decode()
    kept, seen = [], 0
    for line in text.splitlines():
        if line.startswith(">"):
            seen += 1
            if seen > events:
                break
        kept.append(line)
    return "\n".join(kept) + "\n"


# -- plays ------------------------------------------------------------------------------------


def test_a_play_across_and_one_down_are_written_with_the_engines_scores_and_totals() -> None:
    # DJINN from 8D: D on the double letter 2x2=4, J 8, I 1, N 1, N on the centre 1: 15, x2 = 30.
    # WITHY down from I7: W 4x2 (I7 a double letter) = 8, I 1, T 1x2 (I9) = 2, H 4, Y 4 = 19,
    # and the I at I8 makes DJINNI: 2 + 8 + 1 + 1 + 1 + 1 = 14; 19 + 14 = 33.
    assert lines(play(8, "D", "DJINN"), play(7, "I", "WITHY", across=False)) == [
        ">Ada: 8D DJINN +30 30",
        ">Ben: I7 WITHY +33 33",
    ]


def test_letters_already_on_the_board_are_typed_as_they_are_or_as_dots() -> None:
    # DJINNS from 8D through DJINN: only the S is new, on I8 (no premium): 2+8+1+1+1+1 = 14.
    first = play(8, "D", "DJINN")
    assert lines(first, play(8, "D", "DJINNS"))[1] == ">Ben: 8D .....S +14 14"
    assert lines(first, play(8, "D", ".....S"))[1] == ">Ben: 8D .....S +14 14"
    assert lines(first, play(8, "D", "(DJINN)S"))[1] == ">Ben: 8D .....S +14 14"
    # In lower case too: what the paper says of a tile on the board is the tile there.
    assert lines(first, play(8, "D", "djinnS"))[1] == ">Ben: 8D .....S +14 14"


def test_a_corpus_play_through_a_blank_is_the_same_typed_three_ways() -> None:
    # The corpus's josh: ?AELMRT 1H MA.TERLy +131, through the blank s of sCRIEVE at J1.
    record = prefix(VS_JOSH, 3)
    for typed in ("MA.TERLy", "MASTERLy", "MAsTERL?Y"):
        assert lines(play(1, "H", typed, rack="?AELMRT"), record=record) == [
            ">josh: ?AELMRT 1H MA.TERLy +131 164"
        ], typed


def test_a_blank_is_a_lower_case_letter_or_a_letter_after_a_question_mark() -> None:
    # cesar: ?CEEIRV J1 sCRIEVE +80 110 in the corpus.
    record = prefix(VS_JOSH, 2)
    for typed in ("sCRIEVE", "?sCRIEVE", "?SCRIEVE"):
        assert lines(play(1, "J", typed, across=False), record=record) == [
            ">cesar: J1 sCRIEVE +80 110"
        ], typed


def test_the_players_own_score_is_kept_and_the_engines_differs_as_a_finding() -> None:
    added = entry.add_turns(HEADER, [play(8, "D", "DJINN", score=32)], rules=NASPA)
    assert added.lines == [[">Ada: 8D DJINN +32 32"]]
    assert [(f.code, f.expected, f.recorded) for f in added.report.errors] == [
        ("wrong_score", 30, 32)
    ]


def test_a_bingo_shows_its_bonus_and_the_premiums_it_covers() -> None:
    # RETAINS from 8D: R 1x2 = 2, E T A I N S 6: 8, x2 (H8) = 16, + 50 = 66.
    added = entry.add_turns(HEADER, [play(8, "D", "RETAINS")], rules=NASPA)
    placed = added.placed
    assert placed is not None
    assert (placed.position, placed.word, placed.score, placed.bingo) == ("8D", "RETAINS", 66, True)
    assert placed.premiums == [("8D", 2, 1), ("8H", 1, 2)]
    with translation.override("en"):
        answer = board_entry.board_answer(Game(), added)
    assert answer["preview"]["text"] == (
        "RETAINS at 8D scores 66. Words formed: RETAINS. Premium squares: 8D double letter, "
        "8H double word. Bingo: +50."
    )


# -- what cannot be added ---------------------------------------------------------------------


def test_a_word_off_the_board_not_touching_or_disagreeing_is_refused_with_the_reason() -> None:
    first = play(8, "D", "DJINN")
    cases = [
        ((play(8, "M", "QUIZ"),), "Not added: QUIZ at 8M runs off the board."),
        ((play(1, "A", "QI"),), "Not added: the first play must cover the centre square 8H."),
        (
            (first, play(1, "A", "QI")),
            "Not added: QI at 1A does not touch any tile on the board.",
        ),
        (
            (first, play(8, "D", "DRINKS")),
            "Not added: DRINKS at 8D puts R on 8E, which already holds J.",
        ),
        (
            (first, play(8, "E", "JINNS")),
            "Not added: JINNS at 8E is not the whole word: the tiles next to it on the board "
            "belong to it.",
        ),
        (
            (first, play(8, "C", ".DJINN")),
            "Not added: .DJINN at 8C marks 8C as a tile on the board, but it is empty.",
        ),
        (
            (play(8, "D", "DJ?"),),
            "Not added: in ⁨DJ?⁩ a ? is not followed by the letter the blank stands for.",
        ),
        (
            (play(8, "D", "DJ1NN"),),
            "Not added: ⁨DJ1NN⁩ holds a character that is not a letter: "
            "type letters, a dot for a letter already on the board, and ? before a blank's letter.",
        ),
        ((Spec("play", word="DJINN"),), "Not added: tap the square where the word starts first."),
        ((Spec("play", 7, 3),), "Not added: type the word first."),
        (
            (Spec("phony"),),
            "Not added: Challenged off takes back the play just made, and the "
            "last turn is not a play.",
        ),
        ((Spec("end"),), "Not added: the game is not over yet."),
        (
            (first, Spec("exchange")),
            "Not added: type the tiles exchanged in Tiles, or how many there were.",
        ),
        (
            (first, Spec("challenge")),
            "Not added: under the ⁨naspa⁩ rules a wrong challenge "
            "earns no points: the challenger loses their turn, so enter it as a Pass.",
        ),
        (
            (first, Spec("time", player=0, minutes=2)),
            "Not added: a time penalty belongs after the end of the game.",
        ),
    ]
    for specs, said in cases:
        assert sentence(refused(*specs)) == said, specs


def test_a_later_turn_that_no_longer_fits_after_a_change_names_its_number() -> None:
    # DJINN moved one square right (8E) puts N on I8, where WITHY wants its I.
    found = refused(play(8, "E", "DJINN"), play(7, "I", "WITHY", across=False))
    assert found.turn == 1
    with translation.override("en"):
        assert board_entry.refusal_text(found, 2) == (
            "Not added: turn 2: WITHY at I7 puts I on 8I, which already holds N."
        )


# -- a changed turn ---------------------------------------------------------------------------


def test_changing_a_turn_scores_the_turns_after_it_again() -> None:
    # DJINNI from 8D: 4 + 8 + 1 + 1 + 1 + 1 = 16, x2 = 32. WITHY then plays through its I:
    # W 8 + I 1 + T 2 + H 4 + Y 4 = 19, and forms no other word.
    assert lines(play(8, "D", "DJINNI"), play(7, "I", "WITHY", across=False)) == [
        ">Ada: 8D DJINNI +32 32",
        ">Ben: I7 W.THY +19 19",
    ]


# -- the other turns --------------------------------------------------------------------------


def test_a_phony_challenged_off_takes_the_play_back_with_its_rack() -> None:
    # The corpus: cesar: AEIMPYZ H11 MAZEY +67 177, then -- -67 110.
    record = prefix(VS_JOSH, 4)
    assert lines(
        play(11, "H", "MAZEY", across=False, rack="AEIMPYZ"), Spec("phony"), record=record
    ) == [
        ">cesar: AEIMPYZ H11 MAZEY +67 177",
        ">cesar: AEIMPYZ -- -67 110",
    ]
    # The turn after it is the opponent's: josh: AAEGL H11 ALGAE +26 190.
    after = record + ">cesar: AEIMPYZ H11 MAZEY +67 177\n>cesar: AEIMPYZ -- -67 110\n"
    assert lines(play(11, "H", "ALGAE", across=False), record=after) == [">josh: H11 ALGAE +26 190"]


def test_an_exchange_of_tiles_or_of_a_count_scores_nothing() -> None:
    first = play(8, "D", "DJINN")
    assert lines(first, Spec("exchange", tiles="abc", rack="ABCEHTW")) == [
        ">Ada: 8D DJINN +30 30",
        ">Ben: ABCEHTW -ABC +0 0",
    ]
    assert lines(first, Spec("exchange", tiles="4"), Spec("pass"))[1:] == [
        ">Ben: -4 +0 0",
        ">Ada: - +0 30",
    ]


def test_a_challenge_bonus_follows_the_ruleset() -> None:
    first = play(8, "D", "DJINN")
    assert lines(first, Spec("challenge"), rules=WESPA)[1] == ">Ada: (challenge) +5 35"
    assert lines(first, Spec("challenge", words=2), rules=WESPA)[1] == ">Ada: (challenge) +10 40"
    auto = scoring.load_rules("auto")
    assert sentence(refused(first, Spec("challenge"), rules=auto)) == (
        "Not added: type the bonus's points."
    )
    assert lines(first, Spec("challenge", points=7), rules=auto)[1] == ">Ada: (challenge) +7 37"


def test_the_six_scoreless_turns_end_with_each_players_rack_taken_off() -> None:
    # scoring_support.SIX_SCORELESS: ann AEIOQRT 16, 66 - 16 = 50; bob GLNOPUY 13, 0 - 13.
    record = "".join(SIX_SCORELESS.splitlines(keepends=True)[:-2])
    assert sentence(refused(Spec("end"), record=record)) == (
        "Not added: type the tiles left on ⁨ann⁩'s rack in Tiles."
    )
    assert lines(Spec("end", tiles="AEIOQRT"), Spec("end", tiles="glnopuy"), record=record) == [
        ">ann: (AEIOQRT) -16 50",
        ">bob: (GLNOPUY) -13 -13",
    ]
    added = entry.add_turns(
        record, [Spec("end", tiles="AEIOQRT"), Spec("end", tiles="GLNOPUY")], rules=NASPA
    )
    assert added.report.verified
    assert sentence(refused(Spec("end", tiles="E"), record=added.text)) == (
        "Not added: the end of the game is entered already."
    )


def test_the_corpus_six_pass_end_is_entered_turn_by_turn() -> None:
    record = corpus_game("magpie/test__testdata__success_six_pass.gcg").decode()
    header, specs = entry.specs_of(record, rules=NASPA, tiles="english")
    added = entry.add_turns(header, specs, rules=NASPA, tiles="english")
    assert [(p.final, p.computed) for p in added.report.players] == [(-6, -6), (-16, -16)]
    assert added.lines[-2:] == [
        [">Marlon_Hill: (?AEEOTT) -6 -6"],
        [">Ben_Schoenbrun: (EIOQRRT) -16 -16"],
    ]


def test_going_out_scores_twice_the_rack_under_north_american_rules() -> None:
    # The corpus: cesar goes out with VULPINE, josh holds BLNOST: 3+1+1+1+1+1 = 8, x2 = 16.
    record = prefix(VS_JOSH, 24)
    assert lines(Spec("end"), record=record) == [">cesar: (BLNOST) +16 457"]


def test_going_out_under_international_rules_adds_and_takes_off_the_rack() -> None:
    # The same game under WESPA rules: cesar +8 (449), josh -8 (389).
    record = prefix(VS_JOSH, 24)
    assert lines(Spec("end"), record=record, rules=WESPA) == [
        ">cesar: (BLNOST) +8 449",
        ">josh: (BLNOST) -8 389",
    ]
    # And the corpus's own international end: Paul goes out, Ganesh holds a T.
    record = prefix(FIVEPOINT, 25)
    added = entry.add_turns(record, [Spec("end")], rules=WESPA, tiles="english")
    assert added.lines == [[">Paul: (T) +1 360", ">Ganesh: (T) -1 452"]]
    assert added.report.verified


def test_a_time_penalty_after_the_end_is_ten_points_a_minute() -> None:
    record = corpus_game("magpie/test__testdata__success_standard.gcg").decode()
    record = record[: record.index(">RightBehindYou:  (time)")]
    assert lines(Spec("time", player=1, minutes=2), record=record) == [
        ">RightBehindYou: (time) -20 358"
    ]
    home = scoring.load_rules("home")
    assert sentence(refused(Spec("time", player=1, minutes=2), record=record, rules=home)) == (
        "Not added: the ⁨home⁩ rules have no time penalties."
    )


@pytest.mark.parametrize(
    ("name", "rules"),
    [
        (VS_JOSH, "naspa"),
        (FIVEPOINT, "wespa"),
        ("magpie/test__testdata__success_standard.gcg", "naspa"),
        ("macondo/gcgio__testdata__noah_vs_peter.gcg", "naspa"),
    ],
)
def test_a_corpus_game_read_back_as_turns_is_entered_again_to_the_same_scores(
    name: str, rules: str
) -> None:
    record = corpus_game(name)
    ruleset = scoring.load_rules(rules)
    original = scoring.verify(record, rules=ruleset)
    header, specs = entry.specs_of(record.decode(), rules=ruleset, tiles="english")
    text = header
    for spec in specs:  # one turn at a time, as a phone sends them
        text = entry.add_turns(text, [spec], rules=ruleset, tiles="english").text
    again = scoring.verify(text, rules=ruleset)
    assert again.verified, [f.text() for f in again.findings]
    assert [(p.final, p.computed) for p in again.players] == [
        (p.final, p.computed) for p in original.players
    ]
    assert [e.kind for e in gcg.parse(text).events] == [e.kind for e in gcg.parse(record).events]


def test_a_turn_is_read_from_json_with_its_types_and_sizes_checked() -> None:
    assert entry.read_spec({"kind": "play", "row": "7", "col": 3, "word": " dj inn "}) == Spec(
        "play", 7, 3, True, "djinn"
    )
    for bad in (
        None,
        [],
        {"kind": "resign"},
        {"kind": "play", "row": -1},
        {"kind": "play", "row": "٧"},
        {"kind": "play", "row": True},
        {"kind": "play", "across": "yes"},
        {"kind": "play", "word": "A" * 200},
        {"kind": "time", "player": 2},
    ):
        with pytest.raises(Refusal):
            entry.read_spec(bad)


# -- the endpoints ----------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    cache.clear()


@pytest.fixture
def on(division: Division) -> Division:
    division.self_report = True
    division.save()
    Round.objects.create(division=division, number=1, published=True)
    return division


def _phone(on: Division, game: Game, number: int = 1) -> tuple[Client, str, str]:
    token = phone.issue_link(on.players.get(number=number))
    return (
        Client(),
        reverse("phone-sheet-turn", args=[token, game.pk]),
        reverse("phone-sheet", args=[token, game.pk]),
    )


def _turns(*specs: Spec) -> str:
    return json.dumps([s.as_dict() for s in specs])


def test_the_phone_and_the_desk_answer_a_turn_alike(
    on: Division, game_of: Callable[..., Game], desk: Client
) -> None:
    game = game_of(1)
    client, url, _page = _phone(on, game)
    sent = {"gcg": HEADER, "turns": _turns(play(8, "D", "DJINN"))}

    mine = client.post(url, sent).json()
    theirs = desk.post(f"/desk/spring-open/games/{game.pk}/scoresheet/turn", sent).json()

    assert mine == theirs
    assert mine["lines"] == [[">Ada: 8D DJINN +30 30"]]
    assert mine["turns"] == [
        {
            "line": 3,
            "nick": "Ada",
            "kind": "play",
            "move": "8D DJINN",
            "score": 30,
            "computed": 30,
            "totals": [30, 0],
            "findings": [],
            "wrong": False,
        }
    ]
    assert mine["status"] == "Turn 2: ⁨Ben⁩ to play."
    assert mine["summary"] == "Nothing wrong so far."
    assert [7, 3, "D"] in mine["board"] and len(mine["board"]) == 5


def test_a_refused_turn_says_why_and_adds_nothing(
    on: Division, game_of: Callable[..., Game]
) -> None:
    client, url, _page = _phone(on, game_of(1))
    answer = client.post(url, {"gcg": HEADER, "turns": _turns(play(8, "M", "QUIZ"))}).json()
    assert answer == {"refused": "Not added: QUIZ at 8M runs off the board.", "turn": 0}
    unread = client.post(url, {"gcg": HEADER, "turns": "[{"}).json()
    assert unread == {"refused": "Not added: the turns sent could not be read.", "turn": 0}


def test_the_refusal_and_the_turns_speak_the_players_language(
    on: Division, game_of: Callable[..., Game]
) -> None:
    on.tournament.language = "fa"
    on.tournament.save()
    client, url, _page = _phone(on, game_of(1))
    answer = client.post(url, {"gcg": HEADER, "turns": _turns(play(8, "M", "QUIZ"))}).json()
    with translation.override("fa"):
        said = board_entry.refusal_text(
            Refusal("off_board", {"word": "QUIZ", "position": "8M"}, engine=True)
        )
    assert answer["refused"] == said
    assert "8M" in said and "QUIZ" in said and not said.startswith("Not added")


def test_a_link_is_charged_for_its_turns_and_refused_past_its_budget(
    on: Division, game_of: Callable[..., Game], monkeypatch
) -> None:
    client, url, _page = _phone(on, game_of(1))
    cost = board_entry.turns_cost(HEADER, 1)
    assert cost == bounds.check_cost(HEADER) * 3
    monkeypatch.setattr(bounds, "CHECK_BUDGET", cost * 2)
    monkeypatch.setattr(phone.spend, "__defaults__", (cost * 2, "check"))
    sent = {"gcg": HEADER, "turns": _turns(play(8, "D", "DJINN"))}
    assert client.post(url, sent).status_code == 200
    assert client.post(url, sent).status_code == 200
    third = client.post(url, sent)
    assert third.status_code == 429
    assert third.json() == {"error": "Too many checks in a minute: wait a moment."}


def test_a_record_over_its_bounds_is_refused_before_any_turn(
    on: Division, game_of: Callable[..., Game]
) -> None:
    client, url, _page = _phone(on, game_of(1))
    huge = HEADER + "#note x\n" * (bounds.MAX_RECORD_LINES + 1)
    answer = client.post(url, {"gcg": huge, "turns": _turns(play(8, "D", "DJINN"))})
    assert answer.status_code == 413
    assert "not checked" in answer.json()["error"]


def test_only_the_games_players_may_enter_its_sheet(
    on: Division, game_of: Callable[..., Game]
) -> None:
    client, url, _page = _phone(on, game_of(1), number=3)
    assert client.post(url, {"gcg": HEADER, "turns": "[]"}).status_code == 404


def test_the_sheet_page_draws_the_board_with_named_squares_and_buttons(
    on: Division, game_of: Callable[..., Game]
) -> None:
    client, _url, page = _phone(on, game_of(1))
    html = client.get(page).content.decode()
    for label in (
        'aria-label="8H, double word"',
        'aria-label="1A, triple word"',
        'aria-label="2B, double word"',
        'aria-label="1B"',
        'aria-label="15O, triple word"',
    ):
        assert label in html, label
    assert html.count('class="sq') == 225
    for name in ("Across", "Down", "Add", "Pass", "Exchange", "Challenged off", "Undo", "Save"):
        assert f">{name}</button>" in html, name
    for name in ("Word", "Tiles"):
        assert f">{name}</label>" in html, name
    data = json.loads(
        html.split('id="board-data" type="application/json">')[1].split("</script>")[0]
    )
    assert data["header"] == ["#player1 Ada Quill, Ada", "#player2 Ben Crane, Ben"]
    assert data["entries"] == []


def test_the_persian_sheet_page_names_its_buttons_in_persian_and_its_squares_as_ever(
    on: Division, game_of: Callable[..., Game]
) -> None:
    on.tournament.language = "fa"
    on.tournament.save()
    client, _url, page = _phone(on, game_of(1))
    html = client.get(page).content.decode()
    with translation.override("fa"):
        names = [translation.gettext(n) for n in ("Across", "Down", "Add", "Word", "Tiles")]
    assert names[0] != "Across"
    for name in names:
        assert f">{name}</" in html, name
    assert 'aria-label="8H, ' in html and 'aria-label="1B"' in html


def test_a_saved_sheet_starts_the_board_again_and_saving_it_twice_changes_nothing(
    on: Division, game_of: Callable[..., Game], record: Callable[..., str]
) -> None:
    game = game_of(1)
    client, _url, page = _phone(on, game)
    board = {"HTTP_X_SPREAD_BOARD": "save"}
    saved = client.post(page, {"gcg": record()}, **board)
    assert saved.json() == {"saved": page.rsplit("/games/", 1)[0] + "/"}
    changes = Change.objects.count()
    again = client.post(page, {"gcg": record()}, **board)
    assert again.status_code == 200
    assert (Scoresheet.objects.count(), Change.objects.count()) == (1, changes)

    html = client.get(page).content.decode()
    data = json.loads(
        html.split('id="board-data" type="application/json">')[1].split("</script>")[0]
    )
    assert [e["spec"]["kind"] for e in data["entries"]] == ["play", "play"] + ["pass"] * 6 + [
        "end",
        "end",
    ]
    assert data["answer"]["summary"] == "Verified: the engine finds nothing wrong."


def test_an_empty_sheet_saved_from_the_board_says_why_in_json(
    on: Division, game_of: Callable[..., Game]
) -> None:
    client, _url, page = _phone(on, game_of(1))
    answer = client.post(page, {"gcg": ""}, HTTP_X_SPREAD_BOARD="save")
    assert answer.status_code == 400
    assert answer.json() == {"error": "The scoresheet is empty: type your moves or choose a file."}


def test_the_desk_saves_a_sheet_from_the_board_once(
    on: Division, game_of: Callable[..., Game], desk: Client, record: Callable[..., str]
) -> None:
    game = game_of(1)
    url = f"/desk/spring-open/games/{game.pk}/scoresheet/"
    first = desk.post(url, {"gcg": record()}, HTTP_X_SPREAD_BOARD="save").json()
    sheet = Scoresheet.objects.get()
    assert first["saved"] == f"/desk/spring-open/scoresheets/{sheet.pk}/"
    again = desk.post(url, {"gcg": record()}, HTTP_X_SPREAD_BOARD="save").json()
    assert again["saved"] == first["saved"]
    assert Scoresheet.objects.count() == 1
    page = desk.get(url).content.decode()
    assert 'id="board-entry"' in page and 'data-turn-url="/desk/spring-open/games/' in page
