"""The seeds' own content against the engine's data: the rules texts the project started from
(``shared/seeds/``, in Indonesian, Korean, Finnish and Persian) name tile counts, letter values,
end-of-game rules, the notation and the validity marks; each fact is read from the seed's own
words here and checked against the tile sets, rulesets, board and word-list marks Spread ships.
Where a seed and Spread differ, the test says so and docs/formats.md ("The language seeds")
explains it."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scoring_support import SHARED  # noqa: E402

import scoring  # noqa: E402
from scoring import load_tileset, parse  # noqa: E402
from scoring.board import builtin_layout  # noqa: E402
from scoring.lexicon import COLLINS, NORTH_AMERICAN, OFFENSIVE, Lexicon, Lexicons  # noqa: E402
from scoring.rules import load_rules  # noqa: E402

SEEDS = SHARED / "seeds"
INDONESIAN = SEEDS / "000_c22ce7e16b17829a.txt"
KOREAN = SEEDS / "002_55b433acb13e9a4c.txt"
FINNISH = SEEDS / "003_5a8366bd83f7f725.txt"
PERSIAN = SEEDS / "004_a8d26c33ea907620.txt"
PERSIAN_DIGITS = str.maketrans("۰۱۲۳۴۵۶۷۸۹", "0123456789")


def seed(path: Path) -> str:
    if not path.is_file():
        pytest.skip(f"the seeds are not beside the project ({path} is absent)")
    return " ".join(path.read_text(encoding="utf-8").split())


def _letter_tiles(name: str) -> int:
    tiles = load_tileset(name)
    return tiles.size - tiles.blanks


# -- Indonesian (seeds/000): an English set, described in Indonesian -------------------------


def test_the_indonesian_seed_describes_the_english_set_tile_for_tile() -> None:
    text = seed(INDONESIAN)
    total, lettered, blanks = map(
        int,
        re.search(
            r"dimainkan dengan (\d+) ubin\. (\d+) dari ubin-ubin ini .*? dan ada (\d+) ubin kosong",
            text,
        ).groups(),
    )
    values: dict[str, int] = {}
    for points, letters in re.findall(r"(\d+) Points? - ([A-Z, ]+?(?: dan [A-Z])?)\. ", text):
        for letter in re.split(r", | dan ", letters):
            values[letter] = int(points)
    for points, letters in re.findall(r"(\d+) Poin - ([A-Z, ]+?(?: dan [A-Z])?)\. ", text):
        for letter in re.split(r", | dan ", letters):
            values[letter] = int(points)
    english = load_tileset("english")

    assert (total, lettered, blanks) == (100, 98, 2)
    assert (english.size, _letter_tiles("english"), english.blanks) == (100, 98, 2)
    assert sorted(values) == [chr(c) for c in range(ord("A"), ord("Z") + 1)]
    assert values == {letter: english.value(letter) for letter in values}
    assert "0 Poin – Ubin kosong" in text and english.value("?") == 0
    # Spread's Indonesian set is another one: the Indonesian edition's letters and values.
    indonesian = load_tileset("indonesian")
    assert (indonesian.size, indonesian.face_points) == (100, 217)
    assert indonesian.value("K") == 2 and values["K"] == 5


def test_the_indonesian_seeds_game_rules_are_the_home_rules() -> None:
    text = seed(INDONESIAN)
    home = load_rules("home")
    assert "semua pemain mengatakan “pass” dua kali berturut-turut, maka permainan berakhir" in text
    assert home.pass_rounds == 2
    assert "diberi bonus poin sebesar 50" in text and home.bingo_bonus == 50
    assert "tujuh huruf" in text and home.rack_size == 7


# -- Korean (seeds/002): the English set again ---------------------------------------------


def test_the_korean_seed_counts_the_english_set() -> None:
    text = seed(KOREAN)
    assert "98개의 문자 타일들" in text
    assert "두 개의 블랭크 타일이 있다" in text and "합쳐서 100개의 타일이 있다" in text
    english = load_tileset("english")
    assert (_letter_tiles("english"), english.blanks, english.size) == (98, 2, 100)
    assert "블랭크는 원하는 문자로 선언하고 놓을 수 있으며, 점수는 0이다" in text
    assert english.value("?") == 0
    home = load_rules("home")
    assert "모든 플레이어가 연속해서 두번 패스하면 게임이 끝난다" in text and home.pass_rounds == 2
    assert "50점의 보너스 점수" in text and home.bingo_bonus == 50
    assert "보드는 15x15" in text and builtin_layout("standard15").size == 15


# -- Finnish (seeds/003): 101 tiles in the text, 100 in the published table ----------------


def test_the_finnish_seed_counts_one_tile_more_than_the_finnish_set() -> None:
    text = seed(FINNISH)
    found = re.search(
        r"yhteensä (\d+) laattaa: (\d+) kirjainlaattaa, .*? ja kaksi tyhjää laattaa", text
    )
    assert found is not None
    total, lettered = map(int, found.groups())
    finnish = load_tileset("finnish")

    assert (total, lettered) == (101, 99)  # the seed, in two places
    assert "101 kirjainlaattaa" in text
    assert (finnish.size, _letter_tiles("finnish"), finnish.blanks) == (100, 98, 2)
    assert finnish.face_points == 210
    # The seed gives no table; the one Spread ships (A×10 … C×1) is the published one.
    assert {k: finnish.count(k) for k in "AINTESKLOÄUMHJPRVYDÖBCFG"} == {
        "A": 10, "I": 10, "N": 9, "T": 9, "E": 8, "S": 7, "K": 5, "L": 5, "O": 5, "Ä": 5,
        "U": 4, "M": 3, "H": 2, "J": 2, "P": 2, "R": 2, "V": 2, "Y": 2,
        "D": 1, "Ö": 1, "B": 1, "C": 1, "F": 1, "G": 1,
    }  # fmt: skip
    header = Path(scoring.__file__).parent / "data" / "tiles" / "finnish.tiles"
    assert "101 tiles" in header.read_text(encoding="utf-8")  # the difference is written down


def test_the_finnish_seeds_game_rules() -> None:
    text = seed(FINNISH)
    home = load_rules("home")
    assert "kaikki pelaajat jättävät vuoronsa väliin kaksi kertaa peräkkäin, peli päättyy" in text
    assert home.pass_rounds == 2
    assert "hän saa 50 lisäpistettä" in text and home.bingo_bonus == 50
    assert "Vaihtaminen onnistuu vain, jos pussissa on vielä laattoja" in text
    # The seed takes 10 points off a wrong challenger; no built-in ruleset does that (WESPA gives
    # the challenged player 5 a word instead), see docs/formats.md.
    assert "haastajalta vähennetään 10 pistettä" in text
    assert {load_rules(n).challenge for n in ("naspa", "wespa", "home")} == {"double", "penalty"}


# -- Persian (seeds/004): the notation and the validity marks -------------------------------


def test_the_persian_seeds_validity_marks_are_the_engines() -> None:
    text = seed(PERSIAN)
    marks = re.findall(r"• ([*#$!]) به معنای", text)
    assert marks == ["*", "#", "$", "!"]
    assert "به معنای کلمه غیرمجاز یا ساختگی است" in text  # * a phony
    assert "فقط در واژهنامه بریتیش (CSW12)" in text  # # Collins only
    assert "فقط در واژهنامه امریکن (TWL2)" in text  # $ North American only
    assert "توهینآمیز" in text  # ! offensive
    lists = Lexicons(
        [
            Lexicon("csw", COLLINS, frozenset({"QI", "ZA", "CH"})),
            Lexicon("twl", NORTH_AMERICAN, frozenset({"QI", "ZA", "DA"})),
            Lexicon("offensive", OFFENSIVE, frozenset({"ZA"})),
        ]
    )
    assert [lists.mark(w) for w in ("XQ", "CH", "DA", "ZA", "QI")] == ["*", "#", "$", "!", ""]


def test_the_persian_seeds_notation_reads_as_gcg() -> None:
    text = seed(PERSIAN).translate(PERSIAN_DIGITS)
    # Columns A–O and rows 1–15: the board's coordinates.
    assert "ستونها با حروف A-O" in text and "ردیفها با اعداد 1-15" in text
    layout = builtin_layout("standard15")
    assert [layout.column_name(c) for c in range(15)] == list("ABCDEFGHIJKLMNO")
    # An exchange is the letters after a minus sign (printed "UII-" in the right-to-left text).
    assert "EIIISTU" in text and "UII-" in text
    record = parse("#player1 a Ann\n#player2 b Bo\n>a: EIIISTU -UII +0 0\n")
    (exchange,) = record.events
    assert (exchange.kind, exchange.rack, exchange.tiles, exchange.score) == (
        "exchange",
        "EIIISTU",
        "UII",
        0,
    )
    # A blank's letter is written in lower case, as GCG writes it.
    assert "با حروف کوچک" in text and load_tileset("english").value("q") == 0


def test_the_persian_seeds_tournament_rules_are_naspas() -> None:
    text = seed(PERSIAN).translate(PERSIAN_DIGITS)
    naspa = load_rules("naspa")
    assert "دستکم هفت کاشی در کیسه باقی مانده باشد" in text and naspa.exchange_min_bag == 7
    assert "دستکم شش نوبتِ بدون امتیاز" in text and naspa.scoreless_turns == 6
    assert "دو برابر امتیاز حروف باقیمانده رقیب" in text and naspa.end_out == "double"
    assert "بیشتر از ده دقیقه" in text  # the game ends ten minutes over: the clock's limit
    assert naspa.time_penalty_per_minute == 10
