"""Tests for scoring/tiles.py: the built-in tile sets, the file format and the tokeniser."""

from __future__ import annotations

import ast
import csv
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from scoring.tiles import (
    BLANK,
    DETECT_ORDER,
    TileSet,
    TileSetError,
    builtin_tilesets,
    detect_tileset,
    load_tileset,
    parse_tileset,
)

REPO = Path(__file__).resolve().parents[2]
SHARED = REPO.parent / "shared"
CORPUS = SHARED / "corpus" / "tiles"
RULES = SHARED / "reference" / "rules.md"
TILES_PY = REPO / "scoring" / "tiles.py"
DATA = REPO / "scoring" / "data" / "tiles"

# Independent numbers, copied by hand from rules.md section 8 (8.1 and the table in 8.2):
# name -> (tiles, blanks, face points).
EXPECTED = {
    "english": (100, 2, 187),
    "english_super": (200, 4, 381),
    "french": (102, 2, 197),
    "german": (102, 2, 202),
    "spanish": (100, 2, 192),
    "catalan": (100, 2, 189),
    "polish": (100, 2, 190),
    "norwegian": (100, 2, 202),
    "dutch": (102, 2, 230),
    "slovene": (100, 2, 180),
    "swedish": (100, 2, 194),
    "finnish": (100, 2, 210),
    "indonesian": (100, 2, 217),
}

HEADER = re.compile(r"^#.*?(\d+) tiles, (\d+) face points")


def corpus_file(*parts: str) -> Path:
    path = CORPUS.joinpath(*parts)
    if not path.is_file():
        pytest.skip(f"corpus file {path} is not available")
    return path


def as_table(tileset: TileSet) -> dict[str, tuple[int, int]]:
    return {letter: (tileset.counts[letter], tileset.values[letter]) for letter in tileset.counts}


# -- English ----------------------------------------------------------------------------------


def test_english_has_100_tiles_worth_187_face_points_with_two_blanks():
    english = load_tileset("english")
    assert english.size == 100
    assert english.face_points == 187
    assert english.count(BLANK) == 2
    assert english.blanks == 2
    assert english.counts["?"] == 2
    assert english.values["?"] == 0


def test_english_letter_values_and_counts():
    english = load_tileset("english")
    assert english.value("Q") == 10
    assert english.value("Z") == 10
    assert english.value("A") == 1
    assert english.value("K") == 5
    assert english.count("E") == 12
    assert english.count("Q") == 1
    assert len(english.letters) == 26


def test_a_blank_written_as_question_mark_or_lower_case_letter_is_worth_zero():
    english = load_tileset("english")
    assert english.value("?") == 0
    assert english.value("q") == 0
    assert english.value("z") == 0


def test_value_of_an_unknown_tile_raises_key_error():
    english = load_tileset("english")
    for tile in ("Ñ", "CH", ".", "", "1"):
        with pytest.raises(KeyError):
            english.value(tile)


def test_count_of_a_lower_case_letter_is_the_number_of_blanks_and_unknown_is_zero():
    english = load_tileset("english")
    assert english.count("a") == 2
    assert english.count("Ñ") == 0
    assert english.count("ñ") == 0
    assert english.count("CH") == 0


def test_knows_is_case_insensitive_and_includes_the_blank():
    english = load_tileset("english")
    assert english.knows("A")
    assert english.knows("a")
    assert english.knows("?")
    assert not english.knows("Ñ")
    assert not english.knows(".")
    spanish = load_tileset("spanish")
    assert spanish.knows("CH")
    assert spanish.knows("ch")
    assert spanish.knows("Ch")
    assert spanish.knows("ñ")


def test_rack_value_sums_tiles_with_blanks_worth_zero():
    english = load_tileset("english")
    assert english.rack_value(["Q", "Z", "?", "a"]) == 20
    assert english.rack_value("QZ?") == 20
    assert english.rack_value([]) == 0
    spanish = load_tileset("spanish")
    assert spanish.rack_value("CHURRO") == 5 + 1 + 8 + 1
    assert spanish.rack_value(spanish.split("chuRRo")) == 8
    with pytest.raises(KeyError):
        english.rack_value("AÑ")


def test_english_split_keeps_upper_case_tiles_and_lower_case_blanks():
    english = load_tileset("english")
    assert english.split("QUIxOTE") == ["Q", "U", "I", "x", "O", "T", "E"]
    assert english.split("AB?.C") == ["A", "B", "?", ".", "C"]
    assert english.split("") == []


def test_split_returns_unknown_characters_one_at_a_time():
    english = load_tileset("english")
    assert english.split("AÑ1-") == ["A", "Ñ", "1", "-"]
    german = load_tileset("german")
    assert german.split("STRAßE") == ["S", "T", "R", "A", "ß", "E"]


# -- Every built-in ----------------------------------------------------------------------------


def test_the_built_in_tile_sets_are_the_thirteen_shipped_files():
    assert builtin_tilesets() == sorted(EXPECTED)
    assert sorted(p.stem for p in DATA.glob("*.tiles")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_every_built_in_matches_the_totals_in_its_header(name):
    path = DATA / f"{name}.tiles"
    first = path.read_text(encoding="utf-8").splitlines()[0]
    match = HEADER.match(first)
    assert match, f"{path.name}: first line does not state '<n> tiles, <m> face points'"
    tileset = load_tileset(name)
    assert (tileset.size, tileset.face_points) == (int(match[1]), int(match[2]))
    assert tileset.description == first.lstrip("# ").strip()


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_every_built_in_matches_the_totals_in_rules_md(name):
    tileset = load_tileset(name)
    assert (tileset.size, tileset.blanks, tileset.face_points) == EXPECTED[name]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_every_built_in_header_names_its_source(name):
    text = (DATA / f"{name}.tiles").read_text(encoding="utf-8")
    comments = [line for line in text.splitlines() if line.startswith("#")]
    assert any(line.startswith("# Source: ") and "commit" in line for line in comments)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_every_built_in_has_blanks_worth_zero_and_upper_case_letters(name):
    tileset = load_tileset(name)
    assert tileset.values[BLANK] == 0
    for letter in tileset.letters:
        assert letter == letter.upper() != letter.lower()
        assert tileset.value(letter.lower()) == 0


def test_the_numbers_copied_into_these_tests_match_rules_md():
    if not RULES.is_file():
        pytest.skip(f"{RULES} is not available")
    text = RULES.read_text(encoding="utf-8")
    table = {}
    for row in re.finditer(r"^\| (\w+) \| (\d+) \| (\d+) \| (\d+) \|", text, re.M):
        table[row[1]] = (int(row[2]), int(row[3]), int(row[4]))
    for name in ("finnish", "indonesian"):
        heading = re.search(rf"\*\*{name.title()}\*\* \[I\]: (\d+) tiles, (\d+) face points", text)
        assert heading, name
        table[name] = (int(heading[1]), 2, int(heading[2]))
    assert {name: table[name] for name in EXPECTED} == EXPECTED


RULES_LANGUAGES = {
    "English": "english",
    "French": "french",
    "German": "german",
    "Spanish": "spanish",
    "Polish": "polish",
    "Finnish": "finnish",
    "Indonesian": "indonesian",
}


@pytest.mark.parametrize("title", sorted(RULES_LANGUAGES))
def test_letter_tables_match_rules_md_section_8_1(title):
    if not RULES.is_file():
        pytest.skip(f"{RULES} is not available")
    text = RULES.read_text(encoding="utf-8")
    start = re.search(rf"^\*\*{title}\b.*$", text, re.M)
    assert start, title
    table: dict[str, tuple[int, int]] = {}
    for line in text[start.end() :].lstrip("\n").splitlines():
        row = re.match(r"- (\d+) pt: (.*)", line)
        if not row:
            break
        for item in row[2].split(","):
            letter, count = item.strip().split("×")
            table["?" if letter == "blank" else letter] = (int(count), int(row[1]))
    tileset = load_tileset(RULES_LANGUAGES[title])
    ours = {letter: cv for letter, cv in as_table(tileset).items() if cv[0] > 0}
    assert ours == table


# -- Agreement with the engines' files in the corpus (skipped when the corpus is absent) --------

MACONDO = [n for n in sorted(EXPECTED) if n not in ("finnish", "indonesian")]


@pytest.mark.parametrize("name", MACONDO)
def test_built_in_matches_macondo_distribution(name):
    path = corpus_file("macondo", f"{name}.csv")
    table = {}
    for row in csv.reader(path.read_text(encoding="utf-8").splitlines()):
        if row:
            table[row[0].strip("[]")] = (int(row[1]), int(row[2]))
    assert as_table(load_tileset(name)) == table


@pytest.mark.parametrize(
    "name", ["english", "english_super", "french", "norwegian", "polish", "swedish"]
)
def test_built_in_matches_quackle_alphabet(name):
    path = corpus_file("quackle", f"{name}.quackle_alphabet")
    table = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        fields = line.split()
        if not fields or line.startswith("#"):
            continue
        if fields[0] == "blank":
            table["?"] = (int(fields[2]), int(fields[1]))
        else:
            table[fields[0]] = (int(fields[3]), int(fields[2]))
    assert as_table(load_tileset(name)) == table


@pytest.mark.parametrize("name", ["catalan", "english", "english_super", "french", "polish"])
def test_built_in_matches_magpie_distribution(name):
    path = corpus_file("magpie_2024", f"{name}.csv")
    table = {}
    for row in csv.reader(path.read_text(encoding="utf-8").splitlines()):
        if row:
            table[row[0]] = (int(row[2]), int(row[3]))
    assert as_table(load_tileset(name)) == table


@pytest.mark.parametrize(
    ("name", "edition"),
    [("finnish", "Suomalainen_Scrabble"), ("indonesian", "Indonesian_Scrabble")],
)
def test_built_in_matches_xanado_edition(name, edition):
    path = corpus_file("xanado", f"xanado_{edition}.json")
    bag = json.loads(path.read_text(encoding="utf-8"))["bag"]
    table = {entry.get("letter", "?"): (entry["count"], entry["score"]) for entry in bag}
    assert as_table(load_tileset(name)) == table


def test_finnish_ships_the_100_tile_table_and_says_why():
    finnish = load_tileset("fi")
    assert finnish.size == 100
    assert finnish.face_points == 210
    assert finnish.value("Ä") == 2
    assert finnish.value("Ö") == 7
    assert finnish.value("C") == 10
    assert not finnish.knows("Q")
    assert "101" in (DATA / "finnish.tiles").read_text(encoding="utf-8")


def test_indonesian_values():
    indonesian = load_tileset("id")
    assert indonesian.count("A") == 19
    assert indonesian.value("J") == 10
    assert indonesian.value("C") == 8
    assert not indonesian.knows("Q")


# -- Spanish, Catalan, Polish, Norwegian -------------------------------------------------------


def test_spanish_split_of_churro_uses_the_ch_and_rr_tiles():
    spanish = load_tileset("spanish")
    assert spanish.split("CHURRO") == ["CH", "U", "RR", "O"]


def test_spanish_split_keeps_lower_case_digraphs_as_blanks():
    spanish = load_tileset("spanish")
    assert spanish.split("chuRRo") == ["ch", "u", "RR", "o"]
    assert spanish.value("ch") == 0
    assert spanish.value("CH") == 5
    assert spanish.value("RR") == 8


def test_spanish_split_accepts_bracketed_digraphs():
    spanish = load_tileset("spanish")
    assert spanish.split("[CH]A") == ["CH", "A"]
    assert spanish.split("[ch]A") == ["ch", "A"]
    assert spanish.split("CA[LL]E") == ["C", "A", "LL", "E"]
    assert spanish.split("[?]") == ["?"]


def test_spanish_split_of_mixed_case_digraph_is_two_tiles():
    spanish = load_tileset("spanish")
    assert spanish.split("Ch") == ["C", "h"]
    assert spanish.split("[Ch]") == ["[", "C", "h", "]"]


def test_spanish_split_handles_enye_play_through_and_rack_blanks():
    spanish = load_tileset("es")
    assert spanish.split("NIÑO") == ["N", "I", "Ñ", "O"]
    assert spanish.split("..ñ?LL") == [".", ".", "ñ", "?", "LL"]
    assert spanish.value("Ñ") == 8
    assert spanish.value("ñ") == 0


def test_split_normalises_decomposed_accents():
    spanish = load_tileset("spanish")
    assert spanish.split("N\u0303") == ["Ñ"]


def test_catalan_split_of_l_dot_l_ny_and_qu():
    catalan = load_tileset("catalan")
    assert catalan.split("COL·LEGA") == ["C", "O", "L·L", "E", "G", "A"]
    assert catalan.split("QUANY") == ["QU", "A", "NY"]
    assert catalan.split("l·lÇç") == ["l·l", "Ç", "ç"]
    assert catalan.value("L·L") == 10
    assert catalan.value("Ç") == 10


def test_polish_letters_have_their_values():
    polish = load_tileset("polish")
    assert polish.value("Ą") == 5
    assert polish.value("Ż") == 5
    assert polish.value("Ź") == 9
    assert polish.value("Ń") == 7
    assert polish.value("Ć") == 6
    assert polish.value("ą") == 0
    assert polish.count("ż") == 2
    assert polish.split("ŻÓŁw") == ["Ż", "Ó", "Ł", "w"]


def test_norwegian_keeps_count_zero_letters_as_known():
    norwegian = load_tileset("norwegian")
    assert norwegian.knows("Q")
    assert norwegian.count("Q") == 0
    assert norwegian.value("Q") == 0
    assert norwegian.count("Æ") == 1
    assert norwegian.value("Ø") == 5


# -- Directors' files ---------------------------------------------------------------------------

DIRECTOR_FILE = """\
# Club house rules, 10 tiles.
# second comment

? 1 0
A 4 1
b 2 3     # lower case is accepted
[CH] 1 5
Z 2 10
"""


def test_a_directors_file_is_parsed():
    tileset = parse_tileset(DIRECTOR_FILE, name="club")
    assert tileset.name == "club"
    assert tileset.description == "Club house rules, 10 tiles."
    assert dict(tileset.counts) == {"?": 1, "A": 4, "B": 2, "CH": 1, "Z": 2}
    assert dict(tileset.values) == {"?": 0, "A": 1, "B": 3, "CH": 5, "Z": 10}
    assert tileset.size == 10
    assert tileset.face_points == 4 + 6 + 5 + 20
    assert tileset.split("CHAb") == ["CH", "A", "b"]


def test_a_directors_file_with_comma_separators_is_parsed():
    text = "# Commas\n?,2,0\nA, 9, 1\nB ,2 ,3\n"
    tileset = parse_tileset("\ufeff" + text)
    assert tileset.name == "custom"
    assert dict(tileset.counts) == {"?": 2, "A": 9, "B": 2}
    assert tileset.face_points == 9 + 6


def test_a_directors_file_without_blanks_has_zero_blanks():
    tileset = parse_tileset("A 3 1\nB 1 4\n")
    assert tileset.count("?") == 0
    assert tileset.count("a") == 0
    assert tileset.value("?") == 0
    assert tileset.size == 4


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("? 2 0\nA x 1\n", 2, "bad count"),
        ("? 2 0\nA -1 1\n", 2, "bad count"),
        ("# c\n? 2 0\n\nA 9 1\nB 2\n", 5, "missing value"),
        ("A 9 1\nB\n", 2, "missing count"),
        ("A 9 1\nB 2 3.5\n", 2, "bad value"),
        ("A 9 1\nB 2 3 4\n", 2, "too many fields"),
        ("A 9 1\nB 2 3\na 1 1\n", 3, "duplicate letter"),
        ("CH 1 5\n[CH] 1 5\n", 2, "duplicate letter"),
        ("? 2 5\nA 9 1\n", 1, "blank must be worth 0"),
        ("A 9 1\n1 2 3\n", 2, "no upper/lower case"),
        ("", 1, "no letters"),
        ("# only a comment\n\n", 2, "no letters"),
        ("? 2 0\n", 1, "no letters"),
        ("A 0 1\n", 1, "no tiles"),
    ],
)
def test_each_parse_error_raises_tile_set_error_naming_the_line(text, line, words):
    with pytest.raises(TileSetError) as caught:
        parse_tileset(text, name="bad.tiles")
    assert caught.value.line == line
    assert f"line {line}" in str(caught.value)
    assert "bad.tiles" in str(caught.value)
    assert words in str(caught.value)


def test_tile_set_error_is_a_value_error():
    assert issubclass(TileSetError, ValueError)


def test_load_tileset_with_a_path(tmp_path):
    path = tmp_path / "house.tiles"
    path.write_text("# House set\n? 2 0\nÑ 3 8\nA 5 1\n", encoding="utf-8")
    for argument in (path, str(path)):
        tileset = load_tileset(argument)
        assert tileset.name == "house"
        assert tileset.description == "House set"
        assert tileset.size == 10
        assert tileset.value("Ñ") == 8


def test_load_tileset_with_a_bad_file_names_the_line(tmp_path):
    path = tmp_path / "broken.tiles"
    path.write_text("? 2 0\nA nine 1\n", encoding="utf-8")
    with pytest.raises(TileSetError, match=r"broken, line 2: bad count"):
        load_tileset(path)


def test_load_tileset_of_an_unknown_name_raises_tile_set_error():
    with pytest.raises(TileSetError, match="no built-in tile set"):
        load_tileset("klingon")


# -- Names, aliases, caching --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("alias", "name"),
    [
        ("en", "english"),
        ("English", "english"),
        (" ENGLISH ", "english"),
        ("english-super", "english_super"),
        ("fr", "french"),
        ("de", "german"),
        ("es", "spanish"),
        ("pl", "polish"),
        ("fi", "finnish"),
        ("id", "indonesian"),
        ("nl", "dutch"),
        ("no", "norwegian"),
        ("sv", "swedish"),
        ("ca", "catalan"),
        ("sl", "slovene"),
        ("spanish.tiles", "spanish"),
    ],
)
def test_load_tileset_accepts_names_and_aliases_case_insensitively(alias, name):
    assert load_tileset(alias).name == name


def test_built_ins_are_cached():
    assert load_tileset("en") is load_tileset("english")


def test_tile_sets_are_immutable_and_hashable():
    english = load_tileset("english")
    with pytest.raises(AttributeError):
        english.name = "x"  # type: ignore[misc]
    with pytest.raises(TypeError):
        english.counts["A"] = 99  # type: ignore[index]
    assert english == parse_tileset((DATA / "english.tiles").read_text("utf-8"), "english")
    assert len({english, load_tileset("english"), load_tileset("french")}) == 2


def test_a_tile_set_can_be_built_directly():
    tileset = TileSet("mini", counts={"?": 1, "a": 2, "[QU]": 1}, values={"A": 1, "QU": 10})
    assert dict(tileset.counts) == {"?": 1, "A": 2, "QU": 1}
    assert tileset.value("QU") == 10
    assert tileset.split("QUa") == ["QU", "a"]
    with pytest.raises(ValueError):
        TileSet("broken", counts={"A": 1}, values={})


# -- detect_tileset ---------------------------------------------------------------------------


def test_detect_tileset_picks_english_for_plain_letters():
    assert detect_tileset("QUIXOTE").name == "english"
    assert detect_tileset(["A", "b", "?", "."]).name == "english"
    assert detect_tileset([]).name == "english"


def test_detect_tileset_picks_polish_for_z_acute():
    assert detect_tileset(["A", "Ź"]).name == "polish"
    assert detect_tileset(["ź"]).name == "polish"


def test_detect_tileset_picks_spanish_for_enye_and_digraphs():
    assert detect_tileset(["N", "Ñ"]).name == "spanish"
    assert detect_tileset(["ñ"]).name == "spanish"
    assert detect_tileset(["[CH]", "A"]).name == "spanish"
    assert detect_tileset(["rr"]).name == "spanish"


def test_detect_tileset_for_other_languages():
    assert detect_tileset("ÄÖÜ").name == "german"
    assert detect_tileset("Ç").name == "catalan"
    assert detect_tileset(["L·L"]).name == "catalan"
    assert detect_tileset("ÆØ").name == "norwegian"
    assert detect_tileset("Å").name == "norwegian"
    assert detect_tileset("ÅÄ").name == "swedish"  # Norwegian knows Ä but has no Ä tile
    assert detect_tileset("ČŠŽ").name == "slovene"


def test_detect_tileset_falls_back_to_the_set_knowing_most_letters():
    assert detect_tileset("ŹÑ").name == "polish"
    assert detect_tileset(["Ω"]).name == "english"


def test_detect_order_starts_with_english_then_polish_german_spanish_french():
    assert DETECT_ORDER[:5] == ("english", "polish", "german", "spanish", "french")
    assert sorted(DETECT_ORDER) == sorted(EXPECTED)


# -- The module itself ------------------------------------------------------------------------


def test_the_module_imports_only_the_standard_library():
    tree = ast.parse(TILES_PY.read_text(encoding="utf-8"))
    modules = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            modules.add(node.module.split(".")[0])
    assert modules <= set(sys.stdlib_module_names) | {"__future__"}
    assert "django" not in modules


def test_importing_the_module_loads_no_tile_set_and_no_django():
    code = (
        "import sys, scoring.tiles as t; "
        "print(t._load_builtin.cache_info().currsize, 'django' in sys.modules)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True
    )
    assert result.stdout.split() == ["0", "False"]
