"""Every report of a real 60-player event, read back from the PDF with pypdf: every player is
named and every number is the services' own."""

from __future__ import annotations

import pytest

from tests.tournament.reports.report_support import corpus_file, pdf_lines, pdf_text
from tournament import reports
from tournament.interchange.tsh import read_t_file
from tournament.models import Division
from tournament.reports.data import display
from tournament.standings import queries, read_model
from tournament.standings.stamps import read as read_stamps


def _signed(n: int) -> str:
    return display(n, "signed")


def _half(x: float) -> str:
    return display(x)


@pytest.mark.parametrize("after", [None, 5])
def test_the_standings_pdf_gives_each_players_rank_record_spread_rating_and_rating_change(
    mgi: Division, after: int | None
) -> None:
    made = reports.make(mgi, "standings", "pdf", after)
    lines = set(pdf_lines(made.content))
    rows = read_model.division_standings(mgi, after, stamps=read_stamps(mgi))
    rated = {
        r.player.pk: r for r in read_model.division_ratings(mgi, after, stamps=read_stamps(mgi))
    }
    assert len(rows) == 60
    for row in rows:
        r = rated[row.player.pk]
        expected = (
            f"{row.rank} {row.player.number} {row.name} {_half(row.wins)} {_half(row.losses)} "
            f"{_signed(row.spread)} {row.rating} {r.after} {_signed(r.change)}"
        )
        assert expected in lines
    assert f"Standings after round {after or 12}" in pdf_text(made.content)


def test_the_winner_is_the_one_tsh_ranked_first(mgi: Division) -> None:
    lines = pdf_lines(reports.make(mgi, "standings", "pdf").content)
    tfile = read_t_file(corpus_file("a.t"))
    first = next(p for p in tfile.players if (p.extra_numbers("rrank") or [])[-1] == 1)
    assert any(line.startswith(f"1 {first.number} {first.name} 10 2 +747") for line in lines)


def test_the_pairings_pdf_lists_every_table_with_who_goes_first_and_every_player_by_name(
    mgi: Division,
) -> None:
    made = reports.make(mgi, "pairings", "pdf", 3)
    lines = set(pdf_lines(made.content))
    found = queries.round_pairings(mgi, 3, stamps=read_stamps(mgi))
    assert len(found.by_table) == 30
    for side in found.by_table:
        first, second = (side.player, side.opponent)
        if side.first == 2:
            first, second = second, first
        assert f"{side.table} {first.number} {first.name} {second.number} {second.name}" in lines
    text_lines = pdf_lines(made.content)
    start = text_lines.index("By player")
    where = []
    for side in found.by_name:
        line = (
            f"{side.player.name} {side.player.number} {side.table} {side.opponent.number} "
            f"{side.opponent.name} {side.first_text}"
        )
        where.append(text_lines.index(line.strip(), start))
    # Alphabetically, so that a player finds their table at a glance.
    names = [s.player.name for s in found.by_name]
    assert names == sorted(names, key=str.casefold)
    assert where == sorted(where)


def test_a_scorecard_lists_the_players_real_opponents_scores_and_running_record(
    mgi: Division,
) -> None:
    tfile = read_t_file(corpus_file("a.t"))
    text = pdf_text(reports.make(mgi, "scorecards", "pdf").content)
    lines = [" ".join(line.split()) for line in text.splitlines()]
    karo = tfile.player(1)
    start = lines.index("1. Karo, Eta")
    card = [line for line in lines[start : start + 40] if line]
    wins = losses = spread = 0
    for r, (opp, score) in enumerate(zip(karo.opponents, karo.scores, strict=True), start=1):
        other = tfile.player(opp)
        theirs = other.scores[r - 1]
        wins += score > theirs
        losses += score < theirs
        spread += score - theirs
        first = {"1": "1st", "2": "2nd"}[karo.extra("p12")[r - 1]]
        board = karo.extra("board")[r - 1]
        result = "W" if score > theirs else "L"
        expected = (
            f"{r} {board} {first} {opp} {other.name} {int(other.rating_value)} {result} "
            f"{score} {theirs} {_signed(score - theirs)} {wins}-{losses} {_signed(spread)}"
        )
        assert expected in card
    # Every player has a card.
    for p in tfile.players:
        assert f"{p.number}. {p.name}" in lines


def test_the_crosstable_pdf_gives_every_players_result_of_every_round(mgi: Division) -> None:
    text = pdf_text(reports.make(mgi, "crosstable", "pdf").content)
    lines = [" ".join(line.split()) for line in text.splitlines()]
    rows, rounds = queries.crosstable(mgi, stamps=read_stamps(mgi))
    assert rounds == 12
    slices = [i for i, line in enumerate(lines) if line.startswith("Crosstable: R")]
    assert slices  # on A4 the twelve rounds do not fit beside the names: two slices
    for row in rows:
        head = f"{row.standing.rank} {row.player.number} {row.player.name} "
        # The player's line in every slice, and the scores under it.
        found = [i for i, text_line in enumerate(lines) if text_line.startswith(head)]
        assert len(found) == len(slices)
        shown_marks = " ".join(lines[i][len(head) :].split(" ", 3)[3] for i in found)
        shown_scores = " ".join(lines[i + 1] for i in found)
        marks = " ".join(
            f"{ {'win': 'W', 'loss': 'L', 'tie': 'T'}[s.result] } {s.opponent.number}"
            for s in row.cells
        )
        scores = " ".join(f"{s.score}-{s.opponent_score}" for s in row.cells)
        assert shown_marks == marks
        assert shown_scores == scores


def test_the_ratings_pdf_gives_each_players_rating_before_after_and_change(mgi: Division) -> None:
    lines = set(pdf_lines(reports.make(mgi, "ratings", "pdf").content))
    rows = read_model.division_ratings(mgi, stamps=read_stamps(mgi))
    assert len(rows) == 60
    for r in rows:
        assert f"{r.player.number} {r.name} {r.before} {r.after} {_signed(r.change)}" in lines


def test_the_prizes_from_config_tsh_go_to_the_top_five(mgi: Division) -> None:
    assert mgi.prize_bands == [1, 2, 3, 4, 5]
    assert mgi.prizes[0] == {"kind": "rank", "place": 1, "value": "1,500,000+TROPHY", "note": ""}
    assert [p["value"] for p in mgi.prizes] == [
        "1,500,000+TROPHY",
        "800,000",
        "500,000",
        "300,000",
        "200,000",
    ]
    lines = set(pdf_lines(reports.make(mgi, "prizes", "pdf").content))
    top = read_model.division_standings(mgi, stamps=read_stamps(mgi))[:5]
    for place, (row, prize) in enumerate(zip(top, mgi.prizes, strict=True), start=1):
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(place, "th")
        assert (
            f"{place}{suffix} place {prize['value']} {row.player.number} {row.name} "
            f"{_half(row.wins)} {_half(row.losses)} {_signed(row.spread)}"
        ) in lines


def test_every_page_has_the_header_and_its_number(mgi: Division) -> None:
    from tests.tournament.reports.report_support import pdf_pages

    pages = pdf_pages(reports.make(mgi, "scorecards", "pdf").content)
    assert len(pages) > 1
    for n, page in enumerate(pages, start=1):
        assert "MGI SCRABBLE PREMIER LEAGUE 2022 - MATCH DAY ONE" in page
        assert "Division A" in page
        assert f"Page {n} of {len(pages)}" in page


def test_the_table_header_is_repeated_on_every_page(mgi: Division) -> None:
    from tests.tournament.reports.report_support import pdf_pages

    pages = pdf_pages(reports.make(mgi, "standings", "pdf").content)
    assert len(pages) == 2
    for page in pages:
        assert "Rank No. Name W L Spread Rating New Change" in " ".join(page.split())
