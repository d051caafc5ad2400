"""Tests for tournament/interchange/tsh.py, and standings checked against the ranks tsh wrote.

The real tsh files are read from the shared corpus beside the project (never copied into it);
the tests that need them are skipped where it is absent.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tournament.engine.standings import Game, GameKind, Player, ranks_by_round
from tournament.interchange.tsh import (
    AutopairLine,
    ConfigFile,
    ConfigSetting,
    DivisionLine,
    ExtraField,
    OtherLine,
    TFile,
    TshFormatError,
    TshPlayer,
    TshResult,
    TshText,
    format_player,
    perl_value,
    read_config,
    read_config_file,
    read_player_line,
    read_t,
    read_t_file,
    write_config,
    write_t,
    write_t_file,
)

CORPUS = Path(__file__).resolve().parents[4] / "shared" / "corpus" / "tsh"

T_FILES = [
    "jvc56_tournament_pairing_algorithms/test_data_a.t.86aeb79",
    "jvc56_tournament_pairing_algorithms/test_data_a.t.ea43fb0.EDITED_NOT_REAL",
    "jvc56_tournament_pairing_algorithms/a.t",
    "jvc56_tournament_pairing_algorithms/b.t",
    "domino14_tsh-parser/a.t",
    "e4c5_team_pairings/tournament1_a.t",
    "e4c5_team_pairings/anon1.t",
]
CONFIG_FILES = ["domino14_tsh-parser/config.tsh", "e4c5_team_pairings/tournament1_config.tsh"]


def corpus_file(name: str) -> Path:
    path = CORPUS / name
    if not path.is_file():
        pytest.skip(f"the shared tsh corpus is not beside the project ({path} is absent)")
    return path


# --------------------------------------------------------------------------- real files


@pytest.mark.parametrize("name", T_FILES)
def test_reading_then_writing_a_real_t_file_gives_back_its_bytes(name: str) -> None:
    path = corpus_file(name)

    tfile = read_t_file(path)

    # Player lines are rebuilt from their fields (the writer has no copy of the line to fall
    # back on), so this also shows that every field of every line was read.
    assert write_t(tfile).encode(tfile.encoding) == path.read_bytes()


@pytest.mark.parametrize("name", CONFIG_FILES)
def test_reading_then_writing_a_real_config_gives_back_its_bytes(name: str) -> None:
    path = corpus_file(name)

    config = read_config_file(path)

    assert write_config(config).encode(config.encoding) == path.read_bytes()


def test_a_real_player_line_is_read_into_its_fields() -> None:
    tfile = read_t_file(corpus_file("jvc56_tournament_pairing_algorithms/test_data_a.t.86aeb79"))

    logan = tfile.player(1)

    assert (logan.number, logan.name, logan.rating, logan.rating_value) == (
        1,
        "Logan, Adam",
        "2182",
        2182,
    )
    assert logan.opponents[:5] == [21, 16, 11, 12, 14]
    assert logan.scores[:5] == [526, 460, 417, 336, 482]
    assert [e.key for e in logan.extras] == [
        "board",
        "class",
        "excwins",
        "lifeg",
        "newr",
        "p12",
        "rrank",
        "rtime",
        "time",
    ]
    assert logan.extra("class") == ["A"]
    assert logan.extra("excwins") == ["2.45394589055584"]
    assert logan.extra_numbers("rrank")[:4] == [1, 8, 5, 2]
    assert len(tfile.players) == 24 and tfile.rounds == 23


def test_team_names_withdrawals_and_missing_values_are_read_from_real_files() -> None:
    mgi = read_t_file(corpus_file("domino14_tsh-parser/a.t"))
    anonymised = read_t_file(corpus_file("e4c5_team_pairings/tournament1_a.t"))

    assert mgi.player(1).extra("team") == ["Airpop", "Alpha"]
    cox = anonymised.player(38)
    assert (cox.name, cox.inactive, cox.extra("off")) == ("Jon Cox", True, ["0"])
    assert cox.extra_numbers("rcrank")[:3] == [None, 18, 28]  # "00": no rank before round 1
    assert anonymised.player(10).withdrawn_from_round == 11
    assert anonymised.player(1).withdrawn_from_round is None


def test_the_real_configs_give_the_settings_the_tournament_needs() -> None:
    mgi = read_config_file(corpus_file("domino14_tsh-parser/config.tsh"))
    anonymised = read_config_file(corpus_file("e4c5_team_pairings/tournament1_config.tsh"))

    assert [(d.name, d.file) for d in mgi.divisions] == [("A", "a.t"), ("B", "b.t")]
    assert (mgi.bye_spread, mgi.max_rounds, mgi.gibson_spread, mgi.realm) == (100, 12, [400], "nga")
    assert mgi.spread_cap is None
    assert mgi.value("max_div_rounds", "B") == 12
    assert mgi.value("division_label", "b") == "Open"  # written `Config division_label{'B'}=`
    assert mgi.value("pairing_system") == "manual"

    assert [(d.name, d.file) for d in anonymised.divisions] == [("a", "a.t")]
    assert anonymised.bye_spread == 1 and anonymised.max_rounds == 18
    assert anonymised.spread_cap == [200] + [700] * 17
    assert anonymised.value("gibson") == "strict"  # the later of two `config gibson` lines
    assert anonymised.bom
    autopairs = anonymised.autopairs
    assert len(autopairs) == 18
    first = autopairs[0]
    assert (first.division, first.source_round, first.target_round) == ("a", 0, 1)
    assert (first.command, first.args) == ("ns", ["0", "0", "a"])
    assert autopairs[5].text == "autopair a 5 6 ns 0 5 a "  # kept as written, trailing space too


# --------------------------------------------------------------------------- ranks


@dataclass(frozen=True)
class Event:
    t_file: str
    rank_field: str  # "rrank" or "rcrank"
    config: str | None = None
    rank_inactive: bool = False
    values_checked: int = 0
    # (player number, round) -> why tsh wrote a rank no single standings table can give
    tsh_differs: dict[tuple[int, int], str] = field(default_factory=dict)


EVENTS = [
    Event("jvc56_tournament_pairing_algorithms/test_data_a.t.86aeb79", "rrank", values_checked=576),
    Event(
        "jvc56_tournament_pairing_algorithms/a.t",
        "rrank",
        values_checked=621,
        tsh_differs={
            # Keras (5-15, -718) forfeited round 20 and was then made inactive (`off -50`).
            # Her rank 25 was written while she was still active, when Sinanan (5-15, -1089)
            # was 26th; tsh later recomputed round 20 without her, giving Sinanan 25, and
            # ComputeRanks never clears the rank of a player it leaves out.
            (16, 20): "a rank left over from before the player was made inactive",
        },
    ),
    Event("domino14_tsh-parser/a.t", "rrank", "domino14_tsh-parser/config.tsh", values_checked=780),
    # tsh wrote rcrank for every round with inactive players ranked (this event sets
    # `show_inactive`), and rrank only after rounds 15-17, leaving them out. Its `spread_cap`
    # is a full cap: tsh records no uncapped spread, so rrank is capped too.
    Event(
        "e4c5_team_pairings/tournament1_a.t",
        "rcrank",
        "e4c5_team_pairings/tournament1_config.tsh",
        rank_inactive=True,
        values_checked=684,
    ),
    Event(
        "e4c5_team_pairings/tournament1_a.t",
        "rrank",
        "e4c5_team_pairings/tournament1_config.tsh",
        values_checked=93,
    ),
]


def engine_input(tfile: TFile) -> tuple[list[Player], list[list[Game]]]:
    players = [
        Player(p.number, p.name, p.rating_value, p.number, p.withdrawn_from_round)
        for p in tfile.players
    ]
    rounds = [[engine_game(r) for r in results] for results in tfile.results()]
    return players, rounds


def engine_game(r: TshResult) -> Game:
    if r.opponent is not None:
        kind = GameKind.PLAYED
    else:
        kind = GameKind.BYE if r.score > 0 else GameKind.FORFEIT
    return Game(r.player, r.opponent, r.score, r.opponent_score, kind)


def spread_cap_for(config: ConfigFile | None, rank_field: str) -> int | list[int] | None:
    if config is None:
        return None
    # `spread_cap` caps every spread tsh keeps; `standings_spread_cap` only the capped ranks.
    if rank_field == "rcrank":
        return config.spread_cap or config.standings_spread_cap
    return config.spread_cap


@pytest.mark.parametrize("event", EVENTS, ids=lambda e: f"{e.t_file}:{e.rank_field}")
def test_standings_after_every_round_give_the_ranks_tsh_wrote(event: Event) -> None:
    tfile = read_t_file(corpus_file(event.t_file))
    config = read_config_file(corpus_file(event.config)) if event.config else None
    players, rounds = engine_input(tfile)

    ranks = ranks_by_round(
        players,
        rounds,
        spread_cap=spread_cap_for(config, event.rank_field),
        rank_withdrawn=event.rank_inactive,
    )

    checked = 0
    differences: dict[tuple[int, int], tuple[int, int | None]] = {}
    for p in tfile.players:
        written = p.extra_numbers(event.rank_field) or []
        # One pre-event rank, then one per round; "00" where tsh wrote none.
        for after_round, tsh_rank in enumerate(written):
            if tsh_rank is None:
                continue
            checked += 1
            ours = ranks[p.number][after_round]
            if ours != tsh_rank:
                differences[(p.number, after_round)] = (tsh_rank, ours)
    assert checked == event.values_checked
    assert set(differences) == set(event.tsh_differs), differences


def test_keras_rank_after_round_20_is_the_one_she_had_while_still_active() -> None:
    tfile = read_t_file(corpus_file("jvc56_tournament_pairing_algorithms/a.t"))
    players, rounds = engine_input(tfile)
    still_active = [Player(p.id, p.name, p.rating, p.seed) for p in players]

    before = ranks_by_round(still_active, rounds)
    after = ranks_by_round(players, rounds)

    keras, sinanan = 16, 24
    assert tfile.player(keras).extra_numbers("rrank")[20] == before[keras][20] == 25
    assert tfile.player(sinanan).extra_numbers("rrank")[20] == after[sinanan][20] == 25
    assert before[sinanan][20] == 26 and after[keras][20] is None


# --------------------------------------------------------------------------- .t reading


LOGAN = (
    "Logan, Adam             2182 21 16 0 00; 526 460 50; board 1 1 1; class A; "
    "newr 2183 2184 2186; rrank 1 8 5 2"
)


def test_a_player_line_keeps_every_field_in_order() -> None:
    p = read_player_line(LOGAN)

    assert (p.number, p.name, p.rating, p.gap) == (1, "Logan, Adam", "2182", " " * 13)
    assert p.opponents == [21, 16, 0, None]  # 0 a bye, 00 no opponent yet
    assert p.scores == [526, 460, 50]
    assert p.extras == [
        ExtraField("board", ["1", "1", "1"]),
        ExtraField("class", ["A"]),
        ExtraField("newr", ["2183", "2184", "2186"]),
        ExtraField("rrank", ["1", "8", "5", "2"]),
    ]
    assert format_player(p) == LOGAN


def test_a_name_with_spaces_and_digits_is_read_as_tsh_reads_it() -> None:
    p = read_player_line("Nathan Murphy V            0 0; 1")

    assert (p.name, p.rating, p.opponents, p.scores) == ("Nathan Murphy V", "0", [0], [1])


def test_escaped_semicolons_and_backslashes_in_a_field_are_read_and_written_back() -> None:
    line = r"Chew, John              1800 ; ; note a\;b c\\d; empty"

    p = read_player_line(line)

    assert p.extras == [ExtraField("note", ["a;b", "c\\d"]), ExtraField("empty")]
    assert format_player(p) == line


def test_an_empty_field_is_kept_so_the_line_comes_back_as_it_was() -> None:
    line = "Cynthia Gonzalez           0 15 36; 162 153; ; p12 3 3"

    p = read_player_line(line)

    assert p.extras == [ExtraField(""), ExtraField("p12", ["3", "3"])]
    assert p.extra("p12") == ["3", "3"] and format_player(p) == line


def test_a_player_added_is_written_in_tsh_layout() -> None:
    p = TshPlayer(3, "Chew, John", "1800", [2], [400], [ExtraField("p12", ["1"])])

    assert format_player(p) == "Chew, John              1800 2; 400; p12 1"
    assert format_player(TshPlayer(4, "Newcomer, A", "0")) == "Newcomer, A                0 ; "


@pytest.mark.parametrize(
    "player",
    [
        TshPlayer(1, "Player 2", "1500"),  # would be read as "Player", rated 2
        TshPlayer(1, "X", "1500"),  # tsh reads names of two characters or more
        TshPlayer(1, "Chew, John", "1800", extras=[ExtraField("note", ["two words"])]),
        TshPlayer(1, "Chew, John", "1800", extras=[ExtraField("a key", ["1"])]),
    ],
)
def test_a_line_tsh_would_read_back_differently_is_not_written(player: TshPlayer) -> None:
    with pytest.raises(ValueError, match="would not read this line back"):
        format_player(player)


def test_the_last_of_repeated_fields_is_the_one_used() -> None:
    p = read_player_line("A, B  1500 ; ; off 0; off -50")

    assert p.extra("off") == ["-50"] and p.extra("rrank") is None


def test_comment_and_blank_lines_are_kept_and_are_not_players() -> None:
    text = "# division A\nAl, B  1500 2; 400\n\n  # note\nCy, D  1400 1; 300\n"

    tfile = read_t(text)

    assert [p.number for p in tfile.players] == [1, 2]
    assert [type(line) for line in tfile.lines] == [TshText, TshPlayer, TshText, TshText, TshPlayer]
    assert tfile.player(2).line == 5
    assert write_t(tfile) == text


def test_line_endings_a_bom_and_a_missing_last_line_ending_are_kept() -> None:
    text = "\ufeffAl, B  1500 2; 400\r\nCy, D  1400 1; 300\n# end"

    tfile = read_t(text)

    assert tfile.bom and write_t(tfile) == text


def test_a_line_added_after_a_last_line_without_an_ending_starts_a_new_line() -> None:
    tfile = read_t("A, B  1500 ; ")
    tfile.lines.append(TshPlayer(2, "C, D", "1400"))

    assert write_t(tfile) == "A, B  1500 ; \nC, D                    1400 ; \n"


def test_results_give_each_game_once_and_byes_and_forfeits_with_no_opponent() -> None:
    text = "Al  1500 2 3; 400 50\nBo  1400 1 0; 300 -50\nCy  1300 0 1; 60 350\n"

    rounds = read_t(text).results()

    assert rounds == [
        [TshResult(1, 1, 2, 400, 300), TshResult(1, 3, None, 60, 0)],
        [TshResult(2, 1, 3, 50, 350), TshResult(2, 2, None, -50, 0)],
    ]


def test_a_game_waiting_for_a_score_is_not_a_result_yet() -> None:
    rounds = read_t("Al  1500 2; 400\nBo  1400 1;\n").results()

    assert rounds == [[]]


def test_withdrawal_is_dated_from_the_byes_that_end_an_inactive_players_line() -> None:
    text = "Al  1500 2 0 0; 400 -50 -50; off -50\nBo  1400 1 0 0; 300 50 50\n"

    a, b = read_t(text).players

    assert (a.withdrawn_from_round, b.withdrawn_from_round) == (2, None)


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("Al  1500 2; 400\nnot a player\n", 2, "not a player line"),
        ("Al  1500 2; 400\nBo  1400 1; 3x0\n", 2, "not a player line"),
        ("Al  1500 2; 4-0\nBo  1400 1; 300\n", 1, "score '4-0' is not a number"),
        ("# header\nAl  1500 3; 400\nBo  1400 0; 50\n", 2, "opponent 3, but the file has 2"),
        ("Al  1500 1; 400\n", 1, "paired with themselves"),
        ("Al  1500 2; 400\nBo  1400 0; 50\n", 1, "whose opponent that round is 0"),
        ("Al  1500 0 2; 50 400\nBo  1400 0; 50\n", 1, "round 2: paired with player 2 .line 2.*00"),
    ],
)
def test_a_bad_t_file_raises_an_error_naming_the_line(text: str, line: int, message: str) -> None:
    with pytest.raises(TshFormatError, match=message) as caught:
        read_t(text, source="a.t")

    assert caught.value.line == line
    assert str(caught.value).startswith(f"a.t: line {line}: ")


def test_a_bad_rank_list_raises_an_error_naming_the_players_line() -> None:
    (p,) = read_t("\nAl  1500 ; ; rrank 1 x").players

    with pytest.raises(TshFormatError, match="rrank") as caught:
        p.extra_numbers("rrank")

    assert caught.value.line == 2


# --------------------------------------------------------------------------- config.tsh

CONFIG = """\
# an event
division A a.t
 Division b b.t
config max_rounds = 7;
config spread_cap = [200, 700]
config realm = 'wespa'
config prize_bands{'A'} = [1, 2, 3]
classes a 2
autopair A 0 1 if 3 a
autopair b 3 4 koth 0 3 b
prize rank 1 A $100
begin esb A
config gibson_spread = 500
"""


def test_each_kind_of_config_line_is_read() -> None:
    config = read_config(CONFIG)

    kinds = [
        line.kind if isinstance(line, OtherLine) else type(line).__name__ for line in config.lines
    ]
    assert kinds == [
        "comment",
        "DivisionLine",
        "DivisionLine",
        "ConfigSetting",
        "ConfigSetting",
        "ConfigSetting",
        "ConfigSetting",
        "classes",
        "AutopairLine",
        "AutopairLine",
        "prize",
        "begin",
        "ConfigSetting",
    ]
    assert [(d.name, d.key, d.file) for d in config.divisions] == [
        ("A", "A", "a.t"),
        ("b", "B", "b.t"),
    ]
    assert (config.max_rounds, config.spread_cap, config.realm) == (7, [200, 700], "wespa")
    assert config.gibson_spread == 500 and config.value("prize_bands", "a") == [1, 2, 3]
    koth = config.autopairs[1]
    assert isinstance(koth, AutopairLine)
    assert (koth.division, koth.source_round, koth.target_round, koth.command) == (
        "b",
        3,
        4,
        "koth",
    )
    assert write_config(config) == CONFIG


def test_bye_spread_is_the_configured_one_else_the_realms_else_50() -> None:
    assert read_config("config bye_spread = 75\nconfig realm = 'absp'\n").effective_bye_spread == 75
    assert read_config("config realm = 'absp'\n").effective_bye_spread == 100
    assert read_config("config realm = 'naspa'\n").effective_bye_spread == 50
    assert read_config("").effective_bye_spread == 50


def test_setting_a_value_rewrites_only_that_value() -> None:
    config = read_config(" config bye_spread = 50 ;  \r\nconfig max_rounds = 7\n")

    line = config.set_value("bye_spread", "100")

    assert isinstance(line, ConfigSetting) and line.value == 100
    assert write_config(config) == " config bye_spread = 100 ;  \r\nconfig max_rounds = 7\n"


def test_a_setting_not_in_the_file_is_added_at_the_end() -> None:
    config = read_config("division A a.t")

    config.set_value("max_div_rounds", "12", subkey="a")

    assert config.value("max_div_rounds", "A") == 12
    assert write_config(config) == "division A a.t\nconfig max_div_rounds{'A'} = 12\n"


def test_a_value_tsh_could_not_read_back_is_refused() -> None:
    config = read_config("config bye_spread = 50\n")

    with pytest.raises(ValueError):
        config.set_value("bye_spread", "[1, 2")


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("division A a.t\nparty on\n", 2, "tsh does not know this line"),
        ("division A a.t\nautopair B 0 1 if 3 b\n", 2, "division 'B' is not declared"),
        ("division A a.t\nautopair A 2 2 koth 0 2 a\n", 2, "round 2 cannot be paired from"),
        ("division A a.t\nautopair A zero 1 if 3 a\n", 2, "autopair wants"),
        ("division A a.t\nclasses A lots\n", 2, "not 1 to 26"),
        ("\nconfig bye_spread = 'lots'\n", 2, "bye_spread should be a whole number"),
        ("config realm = 3\n", 1, "realm should be a quoted string"),
        ("config spread_cap = [200, 'x']\n", 1, "spread_cap should be a number or a list"),
        ("config max_rounds = 7 +\n", 1, "config max_rounds"),
        ("#begin_file name=a.t\nAl  1500 ; \n", 2, "no '#end_file name=a.t'"),
    ],
)
def test_a_bad_config_raises_an_error_naming_the_line(text: str, line: int, message: str) -> None:
    with pytest.raises(TshFormatError, match=message) as caught:
        read_config(text, source="config.tsh")

    assert caught.value.line == line


def test_a_t_file_carried_inside_a_config_is_kept_verbatim() -> None:
    text = "#begin_file name=a.t\nAl  1500 ; \n#end_file name=a.t\ndivision A a.t\n"

    config = read_config(text)

    assert [getattr(line, "kind", "") for line in config.lines[:3]] == ["attachment"] * 3
    assert isinstance(config.lines[3], DivisionLine)
    assert write_config(config) == text


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("12", 12),
        ("-1.5", -1.5),
        ("'st a;rat a'", "st a;rat a"),
        ('"it\\"s"', 'it"s'),
        ("[200, 700,700]", [200, 700, 700]),
        ("['auto','auto',]", ["auto", "auto"]),
        ("{'A' => [1, 12], 'B' => 3}", {"A": [1, 12], "B": 3}),
        ("undef", None),
    ],
)
def test_perl_values_in_configs_are_read(text: str, value: object) -> None:
    assert perl_value(text) == value


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-le", "utf-8-sig", "cp1252"])
def test_a_t_file_saved_as_utf_16_or_windows_1252_is_read_and_written_back_alike(
    tmp_path: Path, codec: str
) -> None:
    # A Windows editor saves "Unicode" (UTF-16, with or without a byte-order mark) or ANSI.
    text = "Müller, Zoë  1500 2; 400\r\nCrâne, Ben  1400 1; 300\r\n"
    path = tmp_path / "a.t"
    path.write_bytes(text.encode(codec))

    tfile = read_t_file(path)

    assert [(p.number, p.name, p.rating, p.scores) for p in tfile.players] == [
        (1, "Müller, Zoë", "1500", [400]),
        (2, "Crâne, Ben", "1400", [300]),
    ]
    write_t_file(tfile, tmp_path / "b.t")
    assert (tmp_path / "b.t").read_bytes() == path.read_bytes()
