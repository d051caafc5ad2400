"""The rating-list readers (NASPA's and WESPA's lists) and matching players by name."""

from __future__ import annotations

from tournament.interchange import ratinglist
from tournament.interchange.ratinglist import Entry, match, name_key, read

# A WESPA list in the layout ASPA's page on its ratings program shows (invented players).
WESPA = b"""NICKstateNAME vic24.tou 20240612
AQUI UK Ada Quill 412 2105 20240601
BCRA NZ Ben Crane 38 1720 20231105
CVAL  Cora Vale 7 1488 20240315
ZED UK Bad Rating 12 2x00 20240101
ZZZ UK
JOSE ESP Jos\xc3\xa9 N\xc3\xba\xc3\xb1ez 100 1900 20240401
"""

# As tsh's Ratings::LoadFileToHash reads NASPA's current.txt: name, rating, rank, expiry, games,
# separated by tabs.
NASPA = (
    "QUILL, ADA\t1850\t120\t2026-12-31\t412\n"
    "CRANE, BEN\t1721\t300\t2026-06-30\t90\n"
    "CRANE, BEN\t1300\t2100\t2025-01-31\t12\n"
    "O'NEIL-SMYTHE, DEV (EXP)\t1580\t700\n"
    "VALE, CORA\t1640\n"
    "NO RATING HERE 1500\n"
    "PATEL, RAJ\t12345\n"
    "SHAH, ANU\t1400\t900\t2026-01-31\tmany\n"
)


def test_the_wespa_list_is_read_with_its_columns_and_a_bad_line_is_a_problem() -> None:
    found = read(WESPA, "wespa")
    assert found.entries == (
        Entry(2, "Ada Quill", 2105, 412, "", "UK", "20240601"),
        Entry(3, "Ben Crane", 1720, 38, "", "NZ", "20231105"),
        Entry(4, "Cora Vale", 1488, 7, "", "", "20240315"),
        Entry(7, "José Núñez", 1900, 100, "", "ESP", "20240401"),
    )
    assert [p.text for p in found.problems] == [
        "line 5: the rating '2x00' is not a whole number from 0 to 9999",
        "line 6: a WESPA line is NICK STATE NAME GAMES RATING DATE; this one has 2 fields",
    ]


def test_the_naspa_list_is_read_with_tsh_columns() -> None:
    found = read(NASPA.encode(), "naspa")
    assert [(e.line, e.name, e.rating, e.games, e.member_id) for e in found.entries] == [
        (1, "QUILL, ADA", 1850, 412, ""),
        (2, "CRANE, BEN", 1721, 90, ""),
        (3, "CRANE, BEN", 1300, 12, ""),
        (4, "O'NEIL-SMYTHE, DEV", 1580, None, ""),  # tsh drops "(EXP)"
        (5, "VALE, CORA", 1640, None, ""),
    ]
    assert [p.text for p in found.problems] == [
        "line 6: no tab on this line: NASPA's list has its columns separated by tabs",
        "line 7: the rating '12345' is not a whole number from 0 to 9999",
        "line 8: the games 'many' are not a whole number",
    ]
    # A first line without a digit names the columns, in any order (tsh does the same).
    named = read(b"games\tid\tname\trating\n412\tAA000101\tQUILL, ADA\t1850\n", "naspa")
    assert [(e.line, e.name, e.rating, e.games, e.member_id) for e in named.entries] == [
        (2, "QUILL, ADA", 1850, 412, "AA000101")
    ]


def test_names_match_without_case_accents_punctuation_or_order() -> None:
    assert name_key("Smith, John") == name_key("JOHN SMITH") == ("john", "smith")
    assert name_key("Jöhn Smith") == ("john", "smith")
    assert name_key("O'Brien, Pat") == name_key("Pat OBrien")
    assert name_key("Janota-Bzowski, Jan") == ("bzowski", "jan", "janota")
    assert name_key("Smith, John:AA000083") == ("john", "smith")
    assert name_key("John A. Smith") != name_key("John Smith")


def test_matching_updates_keeps_and_lists_the_unmatched_and_the_ambiguous() -> None:
    found = read(NASPA, "naspa")
    with_ids = read(b"name\trating\tid\nCRANE, BEN\t1721\tAA000102\n"
                    b"CRANE, BEN\t1300\tAA000199\n", "naspa")  # fmt: skip
    found = ratinglist.RatingList(
        "naspa", found.entries[:1] + with_ids.entries + found.entries[3:], (), 0
    )
    players = [
        (1, "Ada Quill", 1800, ""),
        (2, "Ben Crane", 1700, ""),  # two entries, two ratings: ambiguous
        (3, "Ben Crane", 1700, "aa000199"),  # the member ID tells them apart
        (4, "Dev O'Neil-Smythe", 1580, ""),  # already the list's rating
        (5, "Cora Vale", 0, ""),
        (6, "Nobody Here", 1234, ""),
    ]
    out = match(players, found)
    assert [(m.player, m.outcome, m.new) for m in out] == [
        (1, "update", 1850),
        (2, "ambiguous", None),
        (3, "update", 1300),
        (4, "same", 1580),
        (5, "update", 1640),
        (6, "unmatched", None),
    ]
    assert [e.line for e in out[1].entries] == [2, 3]


def test_nothing_raises_on_hostile_bytes() -> None:
    for data in (b"", b"\x00\xff\xfe", b"\t\t\t\n", b"9" * 50 + b"\n", "\u0663\u0664 x".encode()):
        for fmt in ratinglist.FORMATS:
            read(data, fmt)
    too_big = read(b" " * (ratinglist.MAX_BYTES + 1), "naspa")
    assert too_big.entries == ()
    assert too_big.problems[0].code == "too-big"
