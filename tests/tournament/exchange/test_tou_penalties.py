"""A negative score in a `.tou` file: a penalty, as WESPA's files record on a forfeit and WESPA
rated. The line is imported with a note that says what it holds; the file is not refused."""

from __future__ import annotations

import re
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from tests.tournament.wespa_support import WESPA, events
from tournament.exchange import tsh_io
from tournament.exchange.tou import import_tou
from tournament.interchange import tou
from tournament.models import Game, Tournament
from tournament.reports.data import tou_text
from tournament.standings import read_model
from tournament.standings.stamps import read as read_stamps

# Round 1: Zoë, going first, beats Bob 420-380; Cara has a bye (2001).
# Round 2: Zoë against her own number, -50: a penalty on a forfeit; Bob, going first, beats
# Cara 400-350.
# Round 3: Zoë -10 against Cara's 100 (Cara first); Bob is absent (0).
LINES = [
    "*M07.03.2015 Club Night",
    "*A",
    " " * 38 + "0",
    "Zoë Müller           2420  +2  -50   1  -10   3",
    "Bob Bell              380   1 2400  +3    0   2",
    "Cara Cole            2001   3  350   2 2100  +1",
    "*** END OF FILE ***",
    "",
]


@pytest.fixture
def penalties(db: None, tmp_path: Path) -> Path:
    path = tmp_path / "pen.tou"
    path.write_bytes("\r\n".join(LINES).encode("latin-1"))
    return path


def test_a_negative_score_is_imported_with_a_note_saying_what_it_holds(penalties: Path) -> None:
    out = StringIO()
    call_command("importtou", str(penalties), slug="pen", stdout=out)
    assert out.getvalue().splitlines() == [
        "note: pen.tou: line 4: Zoë Müller has a negative score, -50, in round 2 (a penalty): "
        "read as a forfeit loss by 50",
        "note: pen.tou: line 4: Zoë Müller has a negative score, -10, in round 3 (a penalty): "
        "read as a loss to Cara Cole, -10 to 100",
        "Imported Club Night as pen: A (3 players)",
        "People: 0 linked by an identifier, 0 by the name, 3 new, 0 to be confirmed, "
        "0 linked before.",
    ]
    club = Tournament.objects.get(slug="pen")
    division = club.divisions.get()
    zoe = division.players.get(name="Zoë Müller")
    games = Game.objects.filter(division=division, player1=zoe).order_by("round")
    assert [(g.round, g.kind, g.score1, g.score2) for g in games] == [
        (1, Game.PLAYED, 420, 380),
        (2, Game.FORFEIT, -50, None),
        (3, Game.PLAYED, -10, 100),
    ]
    rows = read_model.division_standings(division, stamps=read_stamps(division))
    assert [(r.name, r.wins, r.losses, r.spread) for r in rows] == [
        ("Cara Cole", 2.0, 1.0, 160),  # the bye +100, -50, +110
        ("Bob Bell", 1.0, 1.0, 10),  # -40, +50, absent
        ("Zoë Müller", 1.0, 2.0, -120),  # +40, the penalty -50, -110
    ]
    assert division.tou["notes"] == [
        "line 4: Zoë Müller has a negative score, -50, in round 2 (a penalty): read as a "
        "forfeit loss by 50",
        "line 4: Zoë Müller has a negative score, -10, in round 3 (a penalty): read as a loss "
        "to Cara Cole, -10 to 100",
    ]


def test_the_export_writes_the_negative_scores_back_as_they_came(penalties: Path) -> None:
    club = import_tou(penalties, slug="pen").tournament
    assert tou_text(club).split("\r\n")[3:6] == [
        "Zoe Muller           2420  +2  -50   1  -10   3",
        "Bob Bell              380   1 2400  +3    0   2",
        "Cara Cole            2001   3  350   2 2100  +1",
    ]


def test_a_negative_score_entered_at_the_desk_is_written_with_its_sign() -> None:
    lost = tou.TouGame(opponent=2, score=-10, opponent_score=100, went_first=False)
    assert tou.write(
        "Club",
        tou.datetime.date(2015, 3, 7),
        [
            tou.TouDivision(
                "A",
                [
                    tou.TouPlayer("Ann", [lost]),
                    tou.TouPlayer("Bo", [tou.TouGame(1, 100, -10, True)]),
                ],
            )
        ],
    ).split("\r\n")[3:5] == ["Ann                   -10   2", "Bo                   2100  +1"]
    with pytest.raises(tou.TouError, match="a score of -10 cannot be written"):
        tou.write(
            "Club",
            tou.datetime.date(2015, 3, 7),
            [tou.TouDivision("A", [tou.TouPlayer("Ann", [tou.TouGame(2, -10, -20)])])],
        )


def test_a_score_below_minus_999_is_still_refused(db: None, tmp_path: Path) -> None:
    lines = list(LINES)
    lines[3] = "Zoë Müller           2420  +2 -1050   1  -10   3"
    path = tmp_path / "bad.tou"
    path.write_bytes("\r\n".join(lines).encode("latin-1"))
    with pytest.raises(tsh_io.ImportError_) as error:
        import_tou(path, slug="bad")
    assert str(error.value) == (
        "bad.tou: line 4: Zoë Müller: '-1050' is not a score (-999 to 2999)"
    )
    assert not Tournament.objects.exists()


_NEGATIVE = re.compile(r"(?:^|\s)-[0-9]")


def _with_negative_scores() -> list[str]:
    found = []
    for stem in events():
        text = (WESPA / f"{stem}.tou").read_bytes().decode("latin-1")
        if any(_NEGATIVE.search(line[tou.NAME_WIDTH :]) for line in text.splitlines()[1:]):
            found.append(stem)
    return found


@pytest.mark.django_db
def test_a_real_wespa_file_with_a_negative_score_imports_with_its_notes() -> None:
    stems = _with_negative_scores()
    if not stems:
        pytest.skip("no .tou file of ../shared/corpus/wespa records a negative score")
    for n, stem in enumerate(stems):
        source = WESPA / f"{stem}.tou"
        imported = import_tou(source, slug=f"event-{n}")
        negatives = [
            e
            for section in tou.read(source.read_bytes()).sections
            for row in section.rows
            for e in row.entries
            if e.code < 0
        ]
        said = [note for note in imported.notes if "has a negative score" in note]
        assert len(said) == len(negatives), stem
