"""What every report says, as plain tables: the PDF and the spreadsheet are drawn from these.

Each builder loads what it needs through the services and queries (never computing a standing
or a rating itself) and returns a `Report`: a heading and tables of typed cells. A number stays
a number here; how it is shown (a spread with its sign, a half win) is the column's `style`.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from tournament.core import tsh_settings
from tournament.core.sentences import isolate
from tournament.engine import prizes as engine
from tournament.engine.ratings import performance_rating
from tournament.engine.text import ordinal
from tournament.interchange import tou
from tournament.models import Division, Game, Player, Scoresheet, Tournament
from tournament.phone import services as phone
from tournament.playoffs import services as playoff_service
from tournament.reports import prizes as ceremony
from tournament.scoresheets import viewer
from tournament.standings import prizes as prize_service
from tournament.standings import queries, read_model
from tournament.standings import stamps as division_stamps
from tournament.standings.gibson import gibsonized
from tournament.standings.rows import GameRow, RatingRow
from tournament.standings.stamps import DivisionStamps
from tournament.standings.statistics import division_statistics
from tournament.standings.tables import FIXED_MARK, fixed_table_legend

Cell = str | int | float | None


class ReportError(ValueError):
    """A report that cannot be made as asked (no such round, nothing to report); the message
    is a sentence for the director."""


@dataclass(frozen=True)
class Column:
    header: str
    numeric: bool = False
    # A flexible column (a name) takes the room the others leave, and shrinks or wraps its text
    # when that is too little; the others are as wide as their widest cell.
    flexible: bool = False
    style: str = ""  # "signed": +12 / -3; "half": 7.5 kept, 7.0 shown as 7
    # Key columns are repeated on every slice of a table too wide for the page (the crosstable).
    key: bool = False


@dataclass
class Table:
    title: str  # also the spreadsheet's sheet name
    columns: list[Column]
    rows: list[list[Cell]]
    note: str = ""  # a line printed under the table (e.g. whose ratings these are)


@dataclass
class Card:
    """A player's scorecard: who they are, and a ruled row for every round of the event."""

    player: Player
    heading: str
    details: str
    table: Table
    link: str = ""  # the player's personal link, printed as a QR code; empty: none printed


@dataclass(frozen=True)
class Slip:
    """A player's slip: their personal link as a QR code and as text, with who they are."""

    number: int
    name: str
    division: str
    link: str


@dataclass
class Report:
    kind: str
    tournament: str
    division: str
    heading: str  # "Standings after round 12"
    round: int | None
    tables: list[Table] = field(default_factory=list)
    cards: list[Card] = field(default_factory=list)
    slips: list[Slip] = field(default_factory=list)
    landscape: bool = False
    extra: dict[str, Any] = field(default_factory=dict)
    # A sentence printed before the tables, or alone when there is nothing to tabulate
    # ("Division A has no prizes set.").
    message: str = ""


def display(value: Cell, style: str = "") -> str:
    """A cell as printed."""
    if value is None:
        return ""
    if isinstance(value, float) and value == int(value):
        value = int(value)
    if style == "signed" and isinstance(value, int):
        return f"{value:+d}" if value else "0"
    return str(value)


NAME_CHARS = 60  # a name printed longer than this is cut with "…"
NOTE_CHARS = 300  # a finding likewise


def short(text: str, most: int = NAME_CHARS) -> str:
    """`text` cut to `most` characters, "…" last: a record's names and nicks are whatever was
    typed, and a page cannot hold a name of thousands of characters."""
    return text if len(text) <= most else text[: most - 1] + "…"


def _half(x: float) -> int | float:
    """7.0 → 7, 7.5 stays: wins and losses count a tie as a half."""
    return int(x) if x == int(x) else x


# -- rounds ----------------------------------------------------------------------------------


def _games(division: Division, public: bool) -> QuerySet[Game]:
    games = division.games.all()
    return games.published() if public else games


def _paired_rounds(division: Division, public: bool) -> list[int]:
    return sorted(set(_games(division, public).values_list("round", flat=True)))


def _after_round(
    division: Division, number: int | None, public: bool, stamps: DivisionStamps
) -> int:
    # The rounds the standings count, by the division's `byes_count`: a round with only its
    # byes scored is not "after round N" unless they count already.
    last = read_model.rounds_counted(division, public, stamps=stamps)
    if number is None:
        return last
    if number < 0 or number > last:
        raise ReportError(
            _("division %(division)s has results up to round %(last)s only, not round %(number)s")
            % {"division": division.name, "last": last, "number": number}
            if last
            else _("division %(division)s has no results yet") % {"division": division.name}
        )
    return number


# -- pairings --------------------------------------------------------------------------------


def pairings(division: Division, number: int | None = None, public: bool = False) -> Report:
    """A round's pairings by table, with who goes first, and by player in alphabetical order."""
    rounds = _paired_rounds(division, public)
    if not rounds:
        raise ReportError(
            _("division %(division)s has no paired round yet") % {"division": division.name}
        )
    number = rounds[-1] if number is None else number
    if number not in rounds:
        raise ReportError(
            _("division %(division)s has no round %(number)s")
            % {"division": division.name, "number": number}
        )
    games = list(_games(division, public).filter(round=number).select_related("player1", "player2"))
    players = queries._players_of(games)
    by_table: list[list[Cell]] = []
    sides = [s for g in games for s in queries.sides_of(g, players)]
    fixed = {s.game.pk for s in sides if s.fixed_table}

    def table_of(game: Game | GameRow) -> Cell:
        # A fixed table is marked, as on the pairings pages; the legend is the table's note.
        return f"{game.table}{FIXED_MARK}" if game.pk in fixed else game.table

    for game in sorted(games, key=lambda g: (g.table is None, g.table or 0, g.pk)):
        one = players[game.player1_id]
        two = players.get(game.player2_id) if game.player2_id is not None else None
        note = ""
        if two is None:
            note = _("forfeit") if game.kind == Game.FORFEIT else _("bye")
        elif game.first == 2:
            one, two = two, one
        elif game.first != 1:
            note = _("first not known")
        by_table.append(
            [
                table_of(game),
                one.number,
                one.name,
                two.number if two else None,
                two.name if two else note.capitalize(),
                note,
            ]
        )
    by_name: list[list[Cell]] = []
    for side in sorted(sides, key=lambda s: (s.player.name.casefold(), s.player.number)):
        by_name.append(
            [
                side.player.name,
                side.player.number,
                table_of(side.game),
                side.opponent.number if side.opponent else None,
                side.opponent_text,
                side.first_text,
            ]
        )
    table_columns = [
        Column(_("Table"), numeric=True),
        Column(_("No."), numeric=True),
        Column(_("Goes first"), flexible=True),
        Column(_("No."), numeric=True),
        Column(_("Goes second"), flexible=True),
        Column(_("Note")),
    ]
    name_columns = [
        Column(_("Player"), flexible=True),
        Column(_("No."), numeric=True),
        Column(_("Table"), numeric=True),
        Column(_("No."), numeric=True),
        Column(_("Opponent"), flexible=True),
        Column(_("Goes")),
    ]
    legend = fixed_table_legend() if fixed else ""
    return Report(
        "pairings",
        division.tournament.name,
        division.name,
        _("Pairings, round %(number)s") % {"number": number},
        number,
        [
            Table(_("By table"), table_columns, by_table, note=legend),
            Table(_("By player"), name_columns, by_name, note=legend),
        ],
    )


def wall(division: Division, number: int | None = None, public: bool = False) -> Report:
    """The wall sheet: a round's pairings by name in large print, to tape to the wall, so a
    crowd finds its tables from a few steps away: name, table, opponent, who goes first."""
    made = pairings(division, number, public)
    by_name = made.tables[1]
    columns = [
        Column(_("Player"), flexible=True),
        Column(_("Table"), numeric=True),
        Column(_("Opponent"), flexible=True),
        Column(_("Goes")),
    ]
    rows: list[list[Cell]] = [
        [
            f"{isolate(name)} ({no})",
            table,
            opponent if opp_no is None else f"{isolate(opponent)} ({opp_no})",
            goes,
        ]
        for name, no, table, opp_no, opponent, goes in by_name.rows
    ]
    return Report(
        "wall",
        division.tournament.name,
        division.name,
        _("Round %(round)s: find your table") % {"round": made.round},
        made.round,
        [Table(_("Round %(round)s") % {"round": made.round}, columns, rows)],
    )


# -- standings and ratings -------------------------------------------------------------------


def _ratings_after(
    division: Division, after: int, public: bool, stamps: DivisionStamps
) -> dict[int, RatingRow]:
    if not after:
        return {}
    return {
        r.player.pk: r
        for r in read_model.division_ratings(division, after, public=public, stamps=stamps)
    }


def standings(division: Division, number: int | None = None, public: bool = False) -> Report:
    """Rank, name, wins, losses, spread, rating, and the rating after the round with its change."""
    stamps = division_stamps.read(division)
    after = _after_round(division, number, public, stamps)
    rows = read_model.division_standings(division, after, public=public, stamps=stamps)
    rated = _ratings_after(division, after, public, stamps)
    columns = [
        Column(_("Rank"), numeric=True),
        Column(_("No."), numeric=True),
        Column(_("Name"), flexible=True),
        Column(pgettext("wins", "W"), numeric=True, style="half"),
        Column(pgettext("losses", "L"), numeric=True, style="half"),
        Column(_("Spread"), numeric=True, style="signed"),
        Column(_("Rating"), numeric=True),
    ]
    note = tsh_settings.ratings_note(division) if rated else None
    if rated:
        new = (
            _("New (%(note)s)") % {"note": _not_asked(division)}
            if note
            else pgettext("rating", "New")
        )
        columns += [Column(new, numeric=True), Column(_("Change"), numeric=True, style="signed")]

    classes = (
        {
            c.row.player.pk: c
            for c in prize_service.class_standings(division, after, public, stamps=stamps)
        }
        if prize_service.has_classes(division)
        else {}
    )
    if classes:
        columns += [Column(_("Class")), Column(_("Cl. rank"), numeric=True)]
    gibsons = {g.player.pk: g for g in gibsonized(division, after, public, stamps=stamps)}
    if gibsons:
        columns.append(Column(_("Gibson")))
    table = []
    for row in rows:
        line: list[Cell] = [
            row.rank,
            row.player.number,
            row.name,
            _half(row.wins),
            _half(row.losses),
            row.spread,
            row.rating,
        ]
        if rated:
            r = rated[row.player.pk]
            line += [r.after, r.change]
        if classes:
            line += [classes[row.player.pk].player_class, classes[row.player.pk].class_rank]
        if gibsons:
            g = gibsons.get(row.player.pk)
            line.append(_("%(ordinal)s settled") % {"ordinal": ordinal(g.place)} if g else None)
        table.append(line)
    heading = (
        _("Standings after round %(after)s") % {"after": after}
        if after
        else _("Standings before round 1")
    )
    notes = [note or ""] + [f"{isolate(g.player.name)}: {g.rule}." for g in gibsons.values()]
    return Report(
        "standings",
        division.tournament.name,
        division.name,
        heading,
        after,
        [Table(_("Standings"), columns, table, note=" ".join(n for n in notes if n))],
    )


def ratings(division: Division, number: int | None = None, public: bool = False) -> Report:
    """Every player's rating before the event, after the round, and the change, best first."""
    stamps = division_stamps.read(division)
    after = _after_round(division, number, public, stamps)
    rows = read_model.division_ratings(division, after, public=public, stamps=stamps)
    columns = [
        Column(_("No."), numeric=True),
        Column(_("Name"), flexible=True),
        Column(_("Before"), numeric=True),
        Column(_("After"), numeric=True),
        Column(_("Change"), numeric=True, style="signed"),
    ]
    note = tsh_settings.ratings_note(division)
    if note:
        columns[3] = Column(_("After (%(note)s)") % {"note": _not_asked(division)}, numeric=True)
    table: list[list[Cell]] = [[r.player.number, r.name, r.before, r.after, r.change] for r in rows]
    return Report(
        "ratings",
        division.tournament.name,
        division.name,
        _("Ratings after round %(after)s (%(system)s)")
        % {"after": after, "system": division.rating_system},
        after,
        [Table(_("Ratings"), columns, table, note=note or "")],
    )


def _not_asked(division: Division) -> str:
    """A rating column's header note when the event asks for a system Spread did not use."""
    return _("%(used)s, not %(asked)s") % {
        "used": division.rating_system,
        "asked": tsh_settings.rating_system_asked(division.tournament),
    }


# -- a player's games ------------------------------------------------------------------------


def _sides_by_player(
    games: Sequence[Game | GameRow], players: dict[int, Player]
) -> dict[int, list]:
    found: dict[int, list] = defaultdict(list)
    for game in games:
        for side in queries.sides_of(game, players):
            found[side.player.pk].append(side)
    return found


def _with_penalty(score: int | None, penalty: int) -> Cell:
    """A score on a scorecard, with the time penalty taken off it after it: `360 (−20)`."""
    return f"{score} (−{penalty})" if penalty else score


def _planned(division: Division, games: list[Game]) -> int:
    return max([division.planned_rounds or 0] + [g.round for g in games])


def player_links(division: Division, base: str) -> dict[int, str]:
    """Each player's personal link (by player pk) under the site's address `base`, issuing a
    link to a player who has none; none at all without an address."""
    from django.urls import reverse

    base = base.rstrip("/")
    if not base:
        return {}
    return {
        p.pk: base + reverse("phone", args=[phone.live_token(p)])
        for p in division.players.all()
    }


def slips(
    division: Division, number: int | None = None, public: bool = False, base: str = ""
) -> Report:
    """A slip per player, in number order, to hand out or leave at the tables: the player's
    personal link as a QR code and as text, their name, number and division."""
    links = player_links(division, base)
    if not links:
        raise ReportError(_("slips need the address the players open (the site's own)"))
    players = division.players.order_by("number")
    return Report(
        "slips",
        division.tournament.name,
        division.name,
        _("Players' personal links"),
        None,
        slips=[Slip(p.number, p.name, division.name, links[p.pk]) for p in players],
    )


def scorecards(
    division: Division, number: int | None = None, public: bool = False, base: str = ""
) -> Report:
    """A card per player, as tsh prints them: a row per round with the opponent once paired, and
    the score, the opponent's, the spread and the running record once played; the rows of rounds
    to come are left empty to be written in. With the site's address (`base`) each card has the
    player's personal link as a QR code."""
    links = player_links(division, base)
    stamps = division_stamps.read(division)
    after = _after_round(division, number, public, stamps) if number is not None else None
    players = {p.pk: p for p in division.players.all()}
    games = list(_games(division, public))
    sides = _sides_by_player(games, players)
    rounds = _planned(division, games)
    columns = [
        Column(_("Rd"), numeric=True),
        Column(_("Tbl"), numeric=True),
        Column(_("1st/2nd")),
        Column(_("No."), numeric=True),
        Column(_("Opponent"), flexible=True),
        Column(_("Rtg"), numeric=True),
        Column(_("W/L")),
        Column(_("For"), numeric=True),
        Column(_("Agn"), numeric=True),
        Column(_("Spread"), numeric=True, style="signed"),
        Column(_("Won-Lost")),
        Column(_("Cumul."), numeric=True, style="signed"),
    ]
    cards = []
    for player in sorted(players.values(), key=lambda p: p.number):
        mine = {s.round: s for s in sides.get(player.pk, [])}
        wins = losses = 0.0
        cumulative = 0
        timed = False  # some score of the card had a time penalty taken off
        rows: list[list[Cell]] = []
        for r in range(1, rounds + 1):
            side = mine.get(r)
            if side is None:
                rows.append([r] + [None] * (len(columns) - 1))
                continue
            opponent = side.opponent
            line: list[Cell] = [
                r,
                side.table,
                {1: "1st", 2: "2nd"}.get(side.first, ""),
                opponent.number if opponent else None,
                side.opponent_text,
                opponent.rating if opponent else None,
            ]
            if side.has_result and (after is None or r <= after):
                result = side.result
                wins += 1 if result == "win" else 0.5 if result == "tie" else 0
                losses += 1 if result == "loss" else 0.5 if result == "tie" else 0
                cumulative += side.spread
                timed = timed or bool(opponent and (side.penalty or side.opponent_penalty))
                line += [
                    {"win": "W", "loss": "L", "tie": "T"}.get(result, ""),
                    _with_penalty(side.score, side.penalty) if opponent else None,
                    _with_penalty(side.opponent_score, side.opponent_penalty) if opponent else None,
                    side.spread,
                    f"{display(_half(wins))}-{display(_half(losses))}",
                    cumulative,
                ]
            else:
                line += [None] * 6
            rows.append(line)
        details = _("Rating %(rating)s") % {"rating": player.rating}
        if player.club:
            details += f" · {isolate(player.club)}"
        if player.team:
            details += f" · {isolate(player.team)}"
        cards.append(
            Card(
                player,
                f"{player.number}. {isolate(player.name)}",
                details,
                Table(
                    _("Scorecard %(number)s") % {"number": player.number},
                    columns,
                    rows,
                    _("(−20): a time penalty, already taken off the score.") if timed else "",
                ),
                links.get(player.pk, ""),
            )
        )
    heading = (
        _("Scorecards after round %(after)s") % {"after": after}
        if after is not None
        else _("Scorecards")
    )
    return Report(
        "scorecards", division.tournament.name, division.name, heading, after, cards=cards
    )


def crosstable(division: Division, number: int | None = None, public: bool = False) -> Report:
    """Every player in rank order with each round's result: W/L/T, the opponent's number and
    the scores; the spreadsheet has the opponent and both scores as numbers."""
    stamps = division_stamps.read(division)
    after = _after_round(division, number, public, stamps)
    standing = read_model.division_standings(division, after, public=public, stamps=stamps)
    players = {row.player.pk: row.player for row in standing}
    # The games as the standings read them (plain rows, no model instances: 62,000 sides at
    # 2,000 players and 31 rounds), in the same order as a query of the division's games.
    read = read_model.division_read(division, public, stamps=stamps)
    games = [g for number, rows in read.rows.items() if number <= after for g in rows]
    sides = _sides_by_player(games, players)
    columns = [
        Column(_("Rank"), numeric=True, key=True),
        Column(_("No."), numeric=True, key=True),
        Column(_("Name"), flexible=True, key=True),
        Column(pgettext("wins", "W"), numeric=True, style="half", key=True),
        Column(pgettext("losses", "L"), numeric=True, style="half", key=True),
        Column(_("Spread"), numeric=True, style="signed", key=True),
    ]
    columns += [Column(_("R%(number)s") % {"number": r}) for r in range(1, after + 1)]
    rows: list[list[Cell]] = []
    cells: list[list[tuple[Cell, Cell, Cell, str]]] = []
    for row in standing:
        mine = {s.round: s for s in sides.get(row.player.pk, [])}
        line: list[Cell] = [
            row.rank,
            row.player.number,
            row.name,
            _half(row.wins),
            _half(row.losses),
            row.spread,
        ]
        typed: list[tuple[Cell, Cell, Cell, str]] = []
        for r in range(1, after + 1):
            side = mine.get(r)
            line.append(_cross_cell(side))
            if side is None or not side.has_result:
                typed.append((None, None, None, ""))
            else:
                typed.append(
                    (
                        side.opponent.number if side.opponent else None,
                        side.score if side.opponent else None,
                        side.opponent_score if side.opponent else None,
                        {"win": "W", "loss": "L", "tie": "T"}.get(side.result, "")
                        if side.opponent
                        else f"{side.opponent_text} {display(side.spread, 'signed')}",
                    )
                )
        rows.append(line)
        cells.append(typed)
    return Report(
        "crosstable",
        division.tournament.name,
        division.name,
        _("Crosstable after round %(after)s") % {"after": after},
        after,
        [Table(_("Crosstable"), columns, rows)],
        landscape=True,
        extra={"typed_cells": cells, "rounds": after},
    )


def _cross_cell(side: queries.Side | None) -> str:
    """Two lines: the result and the opponent's number; the scores."""
    if side is None:
        return ""
    if not side.has_result:
        return _("void") if side.game.kind == Game.VOID else ""
    if side.opponent is None:
        return f"{side.opponent_text}\n{display(side.spread, 'signed')}"
    mark = {"win": "W", "loss": "L", "tie": "T"}.get(side.result, "")
    return f"{mark} {side.opponent.number}\n{side.score}-{side.opponent_score}"


# -- statistics ------------------------------------------------------------------------------


def _one_place(x: float | None) -> float | None:
    return None if x is None else round(x, 1)


def _score_table(title: str, scores: list, combined: bool = False) -> Table:
    columns = [Column(_("Rd"), numeric=True)]
    if combined:
        columns.append(Column(_("Total"), numeric=True))
    columns += [
        Column(_("Player"), flexible=True),
        Column(_("Score"), numeric=True),
        Column(_("Opponent"), flexible=True),
        Column(_("Score"), numeric=True),
    ]
    rows: list[list[Cell]] = []
    for s in scores:
        line: list[Cell] = [s.round]
        if combined:
            line.append(s.combined)
        rows.append(line + [s.player.name, s.score, s.opponent.name, s.opponent_score])
    return Table(title, columns, rows)


def stats(division: Division, number: int | None = None, public: bool = False) -> Report:
    """The division's statistics (`engine/statistics.py`): averages, high and low scores,
    upsets, the first player's wins, winning streaks, and the scoresheets' plays and bingos."""
    stamps = division_stamps.read(division)
    after = _after_round(division, number, public, stamps)
    if not after:
        raise ReportError(
            _("division %(division)s has no results yet") % {"division": division.name}
        )
    st = division_statistics(division, public, after)
    tables = [
        _summary_table(st),
        _averages_table(st),
        _score_table(_("High games"), st.high_games),
        _score_table(_("High losses"), st.high_losses),
        _score_table(_("Low wins"), st.low_wins),
        _score_table(_("High combined"), st.high_combined, combined=True),
        _upsets_table(st),
        _streaks_table(st),
    ]
    if st.sheets:
        tables += _sheet_tables(st)
    return Report(
        "stats",
        division.tournament.name,
        division.name,
        _("Statistics after round %(after)s") % {"after": after},
        after,
        tables,
    )


def _summary_table(st: Any) -> Table:
    """The division's figures: games, average scores, the first player's wins, scoresheets."""
    rate = st.first_win_rate
    summary: list[list[Cell]] = [
        [_("Games played"), st.games],
        [_("Average score"), _one_place(st.average_score)],
        [_("Average winning score"), _one_place(st.average_winning)],
        [_("Average losing score"), _one_place(st.average_losing)],
        [_("Games whose first player is known"), st.first_games],
        [_("Won by the player going first"), _half(st.first_wins)],
        [_("First player's win rate (%)"), None if rate is None else round(100 * rate, 1)],
        [_("Games with a scoresheet"), st.sheets],
    ]
    return Table(
        _("Summary"),
        [Column(_("Figure"), flexible=True), Column(_("Value"), numeric=True)],
        summary,
    )


def _averages_table(st: Any) -> Table:
    """Each player's games, average scores for and against, and points for and against."""
    return Table(
        _("Averages"),
        [
            Column(_("Player"), flexible=True),
            Column(_("Games"), numeric=True),
            Column(_("Avg for"), numeric=True),
            Column(_("Avg against"), numeric=True),
            Column(_("For"), numeric=True),
            Column(_("Against"), numeric=True),
        ],
        [
            [
                a.player.name,
                a.games,
                _one_place(a.average_for),
                _one_place(a.average_against),
                a.points_for,
                a.points_against,
            ]
            for a in st.averages
        ],
    )


def _streaks_table(st: Any) -> Table:
    """The winning streaks, a row each: how long, from and to which round, still running."""
    return Table(
        _("Winning streaks"),
        [
            Column(_("Player"), flexible=True),
            Column(_("Wins"), numeric=True),
            Column(_("From rd"), numeric=True),
            Column(_("To rd"), numeric=True),
            Column(_("Note")),
        ],
        [
            [s.player.name, s.length, s.start, s.end, _("running") if s.running else ""]
            for s in st.streaks
        ],
    )


def _sheet_tables(st: Any) -> list[Table]:
    """What the scoresheets tell: the high plays, the bingos, and each player's bingos."""
    play_columns = [
        Column(_("Rd"), numeric=True),
        Column(_("Player"), flexible=True),
        Column(_("Score"), numeric=True),
        Column(_("Play")),
        Column(_("Opponent"), flexible=True),
    ]
    tables = []
    for title, plays in ((_("High plays"), st.high_plays), (_("Bingos"), st.bingos)):
        rows = [[h.round, h.player.name, h.score, h.text, h.opponent.name] for h in plays]
        tables.append(Table(title, play_columns, rows))
    tables.append(
        Table(
            _("Bingos by player"),
            [
                Column(_("Player"), flexible=True),
                Column(_("Bingos"), numeric=True),
                Column(_("Sheets"), numeric=True),
            ],
            [[c.player.name, c.bingos, c.games] for c in st.bingo_counts],
            note=_("Plays and bingos from the scoresheets given, scored by the rules engine."),
        )
    )
    return tables


# -- prizes ----------------------------------------------------------------------------------


def prizes(division: Division, number: int | None = None, public: bool = False) -> Report:
    """The division's prizes as listed (the order of award, `order=` applied) and who takes each
    after the round (`engine/prizes.py`), one row a prize: its name, value, winner or winners
    (a team's name for `totalteam`) and the figure it was won by; a place prize's single
    winner with their record. One prize a player unless the division allows more or the
    lines' `exclusive=` groups say otherwise."""

    if not division.prizes:  # a page that says so: the director prints it to check
        return Report(
            "prizes",
            division.tournament.name,
            division.name,
            _("Prizes"),
            None,
            message=_("Division %(division)s has no prizes set.")
            % {"division": isolate(division.name)},
        )
    stamps = division_stamps.read(division)
    after = _after_round(division, number, public, stamps)
    found, rows_by_player = prize_service.awards(division, after, public, stamps=stamps)
    bands = sorted(division.prize_bands or [])
    columns = [
        Column(_("Prize"), flexible=True),
        Column(_("Value"), flexible=True),
        Column(_("No."), numeric=True),
        Column(_("Winner"), flexible=True),
        Column(pgettext("wins", "W"), numeric=True, style="half"),
        Column(pgettext("losses", "L"), numeric=True, style="half"),
        Column(_("Spread"), numeric=True, style="signed"),
        Column(_("Figure"), flexible=True),
    ]
    rows: list[list[Cell]] = []
    for a in found:
        prize = a.prize
        label = prize_service.prize_name(prize, bands)
        if prize.kind in prize_service.LAYOUT:
            rows.append([label, "", None, "", None, None, None, ""])
            continue
        note = "; ".join(x for x in (prize.note, a.detail) if x)
        winners = [rows_by_player[pk] for pk in a.winners]
        name = a.team or " · ".join(r.name for r in winners)
        alone = winners[0] if len(winners) == 1 else None
        rank_prize = prize.kind == "rank" and alone is not None
        rows.append(
            [
                label,
                prize.value,
                alone.player.number if alone else None,
                name,
                _half(alone.wins) if rank_prize and alone else None,
                _half(alone.losses) if rank_prize and alone else None,
                alone.spread if rank_prize and alone else None,
                note,
            ]
        )
    heading = _("Prizes after round %(after)s") % {"after": after}
    if bands:
        heading += " · " + _("bands end at ranks %(ranks)s") % {
            "ranks": ", ".join(str(b) for b in bands)
        }
    if not division.prizes_more_than_one:
        heading += " · " + _("one prize a player")
    return Report(
        "prizes",
        division.tournament.name,
        division.name,
        heading,
        after,
        [Table(_("Prizes"), columns, rows)],
    )


# -- TSH's prize reports: the leaders for a prize type, and performance ratings ------------

RANKING_KINDS = {
    "tuffluck": "tuffluck",
    "luckystiff": "luckystiff",
    "overseed": "overseed",
    "highratingchange": "highratingchange",
}


def _ranking(kind: str) -> Any:
    def build(division: Division, number: int | None = None, public: bool = False) -> Report:
        """The ten best for the prize type and all level with the tenth, with their figures
        (TSH's TUFFluck, OVERSEED, HighRatingChange … report commands)."""
        stamps = division_stamps.read(division)
        after = _after_round(division, number, public, stamps)
        if not after:
            raise ReportError(
                _("division %(division)s has no results yet") % {"division": division.name}
            )
        prize = engine.Prize(RANKING_KINDS[kind], 1)
        found = prize_service.ranking(division, prize, after, public, stamps=stamps)
        shown = {id(e) for e in engine.leading([e for _, e in found])}
        rows: list[list[Cell]] = []
        place = 0
        last: tuple[float, ...] | None = None
        for position, (row, entry) in enumerate(found, start=1):
            if id(entry) not in shown:
                continue
            if entry.key != last:
                place, last = position, entry.key
            rows.append([place, row.player.number, row.name, entry.figure])
        columns = [
            Column(_("Rank"), numeric=True),
            Column(_("No."), numeric=True),
            Column(_("Player"), flexible=True),
            Column(_("Figure"), flexible=True),
        ]
        name = str(prize_service.NAMES[RANKING_KINDS[kind]])
        heading = _("%(prize)s after round %(after)s") % {"prize": name, "after": after}
        if not rows:
            heading += " · " + _("no player qualifies")
        return Report(
            kind,
            division.tournament.name,
            division.name,
            heading,
            after,
            [Table(name, columns, rows)],
        )

    return build


def upsets(division: Division, number: int | None = None, public: bool = False) -> Report:
    """The biggest upsets of the division (TSH's UPSETs): the statistics' list."""
    stamps = division_stamps.read(division)
    after = _after_round(division, number, public, stamps)
    if not after:
        raise ReportError(
            _("division %(division)s has no results yet") % {"division": division.name}
        )
    st = division_statistics(division, public, after)
    heading = _("Upsets after round %(after)s") % {"after": after}
    return Report(
        "upsets", division.tournament.name, division.name, heading, after, [_upsets_table(st)]
    )


def performance(division: Division, number: int | None = None, public: bool = False) -> Report:
    """Each player's performance rating (TSH's PerformanceRATings): the rating at which the
    nsa2008 expectation against their rated opponents' pre-event ratings equals their wins
    (a perfect or zero score aims at 95% or 5%), highest first."""
    stamps = division_stamps.read(division)
    after = _after_round(division, number, public, stamps)
    if not after:
        raise ReportError(
            _("division %(division)s has no results yet") % {"division": division.name}
        )
    given = prize_service.inputs(division, [engine.Prize("rank", 1)], after, public, stamps=stamps)
    ratings = {c.id: c.rating for c in given.contenders}
    ratings.update({r.player.pk: r.player.rating for r in given.rows})
    mine: dict[Any, list[engine.GameScore]] = defaultdict(list)
    for g in given.games:
        if g.played and g.opponent_id is not None and ratings.get(g.opponent_id):
            mine[g.player].append(g)
    found = []
    for row in given.rows:
        games = mine.get(row.player.pk, [])
        opponents = [ratings[g.opponent_id] for g in games]
        wins = sum(g.won for g in games)
        rating = performance_rating(opponents, wins)
        average = round(sum(opponents) / len(opponents)) if opponents else None
        found.append((row, len(games), wins, average, rating))
    found.sort(key=lambda f: (f[4] is None, -(f[4] or 0), f[0].player.number))
    rows: list[list[Cell]] = [
        [row.player.number, row.name, row.player.rating or None, n, _half(w), avg, perf]
        for row, n, w, avg, perf in found
    ]
    columns = [
        Column(_("No."), numeric=True),
        Column(_("Player"), flexible=True),
        Column(_("Rating"), numeric=True),
        Column(_("Games"), numeric=True),
        Column(_("Wins"), numeric=True, style="half"),
        Column(_("Avg opp."), numeric=True),
        Column(_("Performance"), numeric=True),
    ]
    heading = _("Performance ratings after round %(after)s") % {"after": after}
    table = Table(
        _("Performance"),
        columns,
        rows,
        note=_("Games against rated opponents, by their ratings before the event."),
    )
    return Report("performance", division.tournament.name, division.name, heading, after, [table])


def slides(division: Division, number: int | None = None, public: bool = False) -> Report:
    """The prize ceremony's slides (`prizes.slides`), one a page, for a projector without a
    browser."""

    if not division.prizes:
        raise ReportError(
            _("division %(division)s has no prizes set") % {"division": division.name}
        )
    stamps = division_stamps.read(division)
    after = _after_round(division, number, public, stamps)
    found = ceremony.slides(division, after, public, stamps=stamps)
    heading = _("Prizes after round %(after)s") % {"after": after}
    return Report(
        "slides",
        division.tournament.name,
        division.name,
        heading,
        after,
        landscape=True,
        extra={"slides": found},
    )


def certificates(
    division: Division,
    number: int | None = None,
    public: bool = False,
    base: str = "",
    kind: str = "certificates",
) -> Report:
    """A certificate a page for each prize-winner (`standings/prizes.certificates`), or of
    participation for each player (`kind="participation"`), each with the short signed code and
    a QR code of the public page that confirms it."""
    from django.urls import reverse

    if not base:
        raise ReportError(_("certificates need the address that confirms them (the site's own)"))
    if kind == "certificates" and not division.prizes:
        raise ReportError(
            _("division %(division)s has no prizes set") % {"division": division.name}
        )
    stamps = division_stamps.read(division)
    after = _after_round(division, number, public, stamps)
    if kind == "participation":
        found = prize_service.participations(division, after, public, stamps=stamps)
    else:
        found = prize_service.certificates(division, after, public, stamps=stamps)
    made = [
        {
            "name": c.player.name,
            "prize": c.prize,
            "value": c.value,
            "figure": c.figure,
            "code": c.code,
            "link": base.rstrip("/") + reverse("certificate", args=[c.code]),
        }
        for c in found
    ]
    heading = _("Certificates after round %(after)s") % {"after": after}
    return Report(
        kind,
        division.tournament.name,
        division.name,
        heading,
        after,
        extra={"certificates": made},
    )


def _upsets_table(st: Any) -> Table:
    """The statistics' biggest upsets: a win over a higher-rated player, by the difference of
    their pre-event ratings; the ten biggest and all level with the tenth."""
    return Table(
        _("Upsets"),
        [
            Column(_("Rd"), numeric=True),
            Column(_("Diff."), numeric=True),
            Column(_("Winner"), flexible=True),
            Column(_("Rtg"), numeric=True),
            Column(_("Loser"), flexible=True),
            Column(_("Rtg"), numeric=True),
            Column(_("Score")),
        ],
        [
            [
                u.game.round,
                u.difference,
                u.game.player.name,
                u.game.player.rating,
                u.game.opponent.name,
                u.game.opponent.rating,
                f"{u.game.score}-{u.game.opponent_score}",
            ]
            for u in st.upsets
        ],
        note=_("By the difference of the players' ratings before the event."),
    )


def results(division: Division, number: int | None = None, public: bool = False) -> Report:
    """Every game with a result, round by round: both players, both scores, who went first."""
    stamps = division_stamps.read(division)
    after = _after_round(division, number, public, stamps)
    games = (
        _games(division, public)
        .filter(round__lte=after)
        .exclude(score1=None)
        .select_related("player1", "player2")
        .order_by("round", "table", "pk")
    )
    columns = [
        Column(_("Round"), numeric=True),
        Column(_("Table"), numeric=True),
        Column(_("No."), numeric=True),
        Column(_("Player"), flexible=True),
        Column(_("Score"), numeric=True),
        Column(_("No."), numeric=True),
        Column(_("Opponent"), flexible=True),
        Column(_("Score"), numeric=True),
        Column(_("Spread"), numeric=True, style="signed"),
        Column(_("Kind")),
        Column(_("First"), numeric=True),
    ]
    rows: list[list[Cell]] = []
    for g in games:
        assert g.score1 is not None  # the query excludes a game without a result
        two = g.player2
        first = {1: g.player1.number, 2: two.number if two else None}.get(g.first)
        spread = g.score1 - (g.score2 or 0) if g.kind != Game.VOID else None
        rows.append(
            [
                g.round,
                g.table,
                g.player1.number,
                g.player1.name,
                g.score1,
                two.number if two else None,
                two.name if two else "",
                g.score2 if two else None,
                spread,
                g.kind,
                first,
            ]
        )
    return Report(
        "results",
        division.tournament.name,
        division.name,
        _("Results up to round %(after)s") % {"after": after},
        after,
        [Table(_("Results"), columns, rows)],
    )


# -- a game record ---------------------------------------------------------------------------


def _move_text(turn: Any) -> str:
    from scoring import gcg

    event = turn.event
    if event.kind == gcg.PLAY:
        return f"{turn.position or event.position.upper()} {turn.word or event.word}{event.marks}"
    if event.kind == gcg.PASS:
        return _("pass")
    if event.kind == gcg.EXCHANGE:
        return _("exchange %(tiles)s") % {
            "tiles": str(event.count) if event.count is not None else event.tiles
        }
    if event.kind == gcg.PHONY:
        return _("phony withdrawn")
    if event.kind == gcg.CHALLENGE:
        return _("challenge bonus")
    if event.kind == gcg.TIME:
        return _("time penalty")
    return f"({event.tiles})"


def game_record(scoresheet: Scoresheet, move: int | None = None) -> Report:
    """A scoresheet replayed by the engine: the board after the last move (or after move
    `move`), every move with the recorded and the engine's scores, and what the engine found."""
    import scoring

    game = scoresheet.game
    division = game.division
    replay = viewer.replay_scoresheet(scoresheet, division)
    turns = replay.turns
    if move is not None and not 1 <= move <= len(turns):
        raise ReportError(
            _("the game has moves 1 to %(last)s, not move %(move)s")
            % {"last": len(turns), "move": move}
        )
    board = replay.report.board
    if move is not None and move < len(turns):
        upto = scoring.verify(
            scoresheet.gcg, rules=division.ruleset, tiles=division.tile_set, upto=move
        )
        board = upto.board
    columns = [
        Column(_("#"), numeric=True),
        Column(_("Player")),
        Column(_("Rack")),
        Column(_("Move"), flexible=True),
        Column(_("Score"), numeric=True, style="signed"),
        Column(_("Engine"), numeric=True, style="signed"),
        Column(_("Total"), numeric=True),
        Column(_("Findings"), flexible=True),
    ]
    rows: list[list[Cell]] = []
    for n, line in enumerate(turns, start=1):
        t = line.turn
        assert isinstance(t, scoring.Turn)  # replayed by the engine, not read from a saved report
        rows.append(
            [
                n,
                short(t.nick),
                short(t.event.rack),
                short(_move_text(t), NOTE_CHARS),
                t.recorded_score,
                t.computed_score,
                t.recorded_total,
                short("; ".join(f"{f.severity}: {f.message}" for f in line.findings), NOTE_CHARS),
            ]
        )
    tables = [Table(_("Moves"), columns, rows)]
    if replay.other_findings:
        tables.append(
            Table(
                _("Findings on the whole record"),
                [Column(_("Line"), numeric=True), Column(_("Finding"), flexible=True)],
                [
                    [f.line or None, short(f"{f.severity}: {f.code}: {f.message}", NOTE_CHARS)]
                    for f in replay.other_findings
                ],
            )
        )
    scores = ", ".join(
        f"{isolate(short(p.name or p.nick))} {p.final}"
        + (" " + _("(engine %(score)s)") % {"score": p.computed} if p.computed != p.final else "")
        for p in replay.report.players
    )
    errors = len(replay.report.errors)
    verdict = (
        _("verified")
        if replay.report.verified
        else ngettext("%(count)s error", "%(count)s errors", errors) % {"count": errors}
    )
    if game.player2:
        title = _("Table %(table)s: %(player1)s v %(player2)s") % {
            "table": game.table or "–",
            "player1": isolate(short(game.player1.name)),
            "player2": isolate(short(game.player2.name)),
        }
    else:
        title = _("Table %(table)s: %(player1)s") % {
            "table": game.table or "–",
            "player1": isolate(short(game.player1.name)),
        }
    return Report(
        "game",
        division.tournament.name,
        division.name,
        title,
        game.round,
        tables,
        extra={
            "board": board,
            "board_caption": (
                _("The board after move %(move)s") % {"move": move}
                if move is not None
                else _("The board after the last move")
            ),
            "summary": f"{scores} · {verdict}",
        },
    )


def playoffs(division: Division, number: int | None = None, public: bool = False) -> Report:
    """The division's playoff (`playoffs/services.py`): each match's series with its games,
    stage by stage, and the champion once the final is decided. `public`: only once the
    director has published the playoff (its games then show as they are entered); `number`
    changes nothing."""
    now = playoff_service.state(division, public=public)
    if now is None:
        raise ReportError(_("division %(name)s has no playoff") % {"name": division.name})
    columns = [
        Column("Match", numeric=True),
        Column("Seed", numeric=True),
        Column("Player", flexible=True),
        Column("Seed", numeric=True),
        Column("Opponent", flexible=True),
        Column("Series"),
        Column("Games", flexible=True),
        Column("Winner", flexible=True),
    ]
    seed_of = {pk: n for n, pk in enumerate(now.playoff.seeds, start=1)}
    tables = []
    for stage in now.stages:
        rows: list[list[Cell]] = []
        for m in stage:
            if m.series is None:
                bye = now.players[int(str(m.bye))]
                rows.append([m.slot, seed_of[bye.pk], bye.name, None, "bye", "", "", bye.name])
                continue
            one = now.players[int(str(m.series.seed1))]
            two = now.players[int(str(m.series.seed2))]
            games = ", ".join(f"{g.score1}–{g.score2}" for g in m.series.games)
            winner = now.players[int(str(m.winner))].name if m.winner is not None else ""
            rows.append(
                [
                    m.slot,
                    seed_of[one.pk],
                    one.name,
                    seed_of[two.pk],
                    two.name,
                    m.series.result,
                    games,
                    winner,
                ]
            )
        tables.append(Table(now.stage_name(stage[0].stage), columns, rows))
    heading = _("Playoff, best of %(games)s, seeded after round %(round)s") % {
        "games": now.playoff.length,
        "round": now.playoff.seeded_after,
    }
    if now.champion is not None:
        heading += " · " + _("won by %(name)s") % {"name": isolate(now.champion.name)}
    return Report("playoffs", division.tournament.name, division.name, heading, None, tables)


BUILDERS = {
    "pairings": pairings,
    "standings": standings,
    "scorecards": scorecards,
    "slips": slips,
    "wall": wall,
    "crosstable": crosstable,
    "ratings": ratings,
    "prizes": prizes,
    "results": results,
    "stats": stats,
    "playoffs": playoffs,
    **{kind: _ranking(kind) for kind in RANKING_KINDS},
    "upsets": upsets,
    "performance": performance,
    "slides": slides,
    "certificates": certificates,
    "participation": lambda division, number=None, public=False, base="": certificates(
        division, number, public, base, kind="participation"
    ),
}
PUBLIC_KINDS = ("pairings", "standings", "stats", "playoffs")
# A spreadsheet of scorecards would be a picture of paper: those are PDF only.
XLSX_KINDS = (
    "pairings",
    "standings",
    "crosstable",
    "ratings",
    "results",
    "stats",
    "playoffs",
    "prizes",
    *RANKING_KINDS,
    "upsets",
    "performance",
)


# Reports that print the players' personal links: never public, and made with the site's address.
LINK_KINDS = ("scorecards", "slips", "certificates", "participation")


def build(
    kind: str,
    division: Division,
    number: int | None = None,
    public: bool = False,
    base: str = "",
) -> Report:
    try:
        builder = BUILDERS[kind]
    except KeyError:
        raise ReportError(_("there is no %(kind)r report") % {"kind": kind}) from None
    if kind in LINK_KINDS:
        return builder(division, number, public, base=base)  # type: ignore[call-arg]
    return builder(division, number, public)


# -- the rating body's file ------------------------------------------------------------------


def tou_text(tournament: Tournament, date: datetime.date | None = None) -> str:
    """The tournament's results as a `.tou` file: every division, every player in number order,
    a column a round up to the division's last round with a result.

    Each name is the player's name in Latin letters (`Player.latin_name`). A game imported
    from a `.tou` file whose scores are unchanged is written as its lines had it (scores,
    opponents, firsts, self-pairings); a division whose lines listed only the rounds played is
    written the same way."""
    divisions = []
    results_only = False
    for division in tournament.divisions.all():
        players = list(division.players.order_by("number"))
        line_of = {p.pk: n for n, p in enumerate(players, start=1)}
        last = read_model.last_result_round(division)
        games = list(division.games.filter(round__lte=last).exclude(kind=Game.VOID))
        rows: dict[int, list[tou.TouGame | None]] = {p.pk: [None] * last for p in players}
        for g in games:
            if not g.has_result:
                continue
            i = g.round - 1
            raw = _tou_entries(g)
            if g.player2_id is None:
                rows[g.player1_id][i] = tou.TouGame(None, g.score1, None, raw=raw.get("1"))
                continue
            rows[g.player1_id][i] = tou.TouGame(
                line_of[g.player2_id], g.score1, g.score2, g.first == 1, raw.get("1")
            )
            rows[g.player2_id][i] = tou.TouGame(
                line_of[g.player1_id], g.score2, g.score1, g.first == 2, raw.get("2")
            )
        compact = bool(division.tou.get("compact"))
        results_only = results_only or bool(division.tou.get("results_only"))
        empty = tou.TouGame(None, None, None)
        lines = [
            tou.TouPlayer(
                p.name_in_latin,
                [g for g in rows[p.pk] if g is not None]
                if compact
                else [g or empty for g in rows[p.pk]],
            )
            for p in players
        ]
        divisions.append(tou.TouDivision(division.name, lines, division.tou.get("high_word", "")))
    when = date or tournament.start_date or tournament.end_date or datetime.date.today()
    return tou.write(tournament.name, when, divisions, results_only)


def _tou_entries(game: Game) -> dict:
    """An imported game's entries as its lines wrote them, while its scores are unchanged."""
    raw = game.tou or {}
    if raw.get("scores") != [game.score1, game.score2]:
        return {}
    return {side: tou.TouEntry(*raw[side]) for side in ("1", "2") if side in raw}
