"""The tables of the public pages, each declared once as its columns (`Column`: header, cell,
class, sort keys) and written by one renderer (`table_html`) from the rows of services and
queries. Written as strings, not through a template engine: a 500-player crosstable has 15,500
cells, and django-tables2 took 27 to 115 times as long to write the same tables, a Jinja2
template 2 to 5 times (bench/RESULTS.md, "One way to write a table")."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from html import escape
from typing import Any

from django.http import QueryDict
from django.urls import reverse
from django.utils.functional import Promise
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext, pgettext
from django.utils.translation import gettext_lazy as _

from tournament.core.html import bdi_html, ltr_html
from tournament.models import Division, Player
from tournament.standings import cache_once, memos
from tournament.standings.queries import PlayerGame, Side, sides_of, signed
from tournament.standings.rows import DivisionRead, RatingRow, Row

EMPTY_TEXT = _("Nothing yet.")
SORT = "sort"  # the query parameter of a sortable table's order: `?sort=-spread`


class Links:
    """The addresses a division's tables link to."""

    def __init__(self, division: Division) -> None:
        self.division = division
        # Reversed once a table: a 500-player table reversed 500 addresses otherwise.
        first = reverse("player", args=[division.tournament.slug, division.name, 1])
        assert first.endswith("/1/")  # noqa: S101 - the address ends with the number
        self._player_prefix = first[: -len("1/")]

    def player(self, player: Player) -> str:
        return f"{self._player_prefix}{player.number}/"

    def scoresheet(self, pk: int) -> str:
        return reverse("scoresheet", args=[self.division.tournament.slug, pk])


# A cell: a row's content of one column as HTML, escaped.
Cell = Callable[[Any, Links], str]


@dataclass(frozen=True)
class Column:
    """A column of a table: its header, its cells, their class and how it sorts."""

    name: str  # its name in `?sort=`
    header: str | Promise
    cell: Cell
    css: str = ""  # the class of its cells
    # The row attributes it sorts by, most significant first ("-": descending); none: not sortable.
    order_by: tuple[str, ...] = ()
    whole: bool = False  # the cell is the whole `<td>` element (the crosstable's kept cells)

    @property
    def opening(self) -> str:
        return f'<td class="{escape(self.css)}">' if self.css else "<td >"


def table_html(
    columns: Sequence[Column],
    rows: Iterable[Any],
    links: Links,
    query: QueryDict | None = None,
) -> str:
    """The table of `rows`, one `<tr>` a row (`odd` and `even`), in the order `query` asks for
    (`?sort=`, its columns that sort), its sortable headers linking to the other order; "Nothing
    yet." when there is no row. Every cell is escaped by its column."""
    asked = _asked_order(columns, query)
    rows = _ordered(rows, columns, asked)
    lines = [
        '<div class="table-container">\n<table class="data">\n<thead>\n<tr>',
        *(_header(column, query, asked) for column in columns),
        "</tr>\n</thead>\n<tbody>",
    ]
    # The whole cell, or its content between the column's `<td>` and `</td>`.
    cells = [
        (column.cell, *(("", "") if column.whole else (column.opening, "</td>")))
        for column in columns
    ]
    for i, row in enumerate(rows):
        tds = "".join([f"{opening}{cell(row, links)}{closing}" for cell, opening, closing in cells])
        lines.append(f'<tr class="{"odd" if i % 2 else "even"}">{tds}</tr>')
    if not rows:
        lines.append(f'<tr><td colspan="{len(columns)}">{escape(str(EMPTY_TEXT))}</td></tr>')
    lines.append("</tbody>\n</table>\n</div>")
    return "\n".join(lines)


def _asked_order(columns: Sequence[Column], query: QueryDict | None) -> list[str]:
    """The order `?sort=` asks for (`name`, `-name`; several if given): its sortable columns."""
    if query is None:
        return []
    sortable = {column.name for column in columns if column.order_by}
    return [alias for alias in query.getlist(SORT) if alias.removeprefix("-") in sortable]


def _ordered(rows: Iterable[Any], columns: Sequence[Column], asked: list[str]) -> list[Any]:
    """`rows` sorted by the columns asked, the first most significant; a missing value (None)
    first in an ascending order; rows that compare equal keep their order."""
    rows = list(rows)
    by_name = {column.name: column for column in columns}
    keys: list[str] = []
    for alias in asked:
        declared = by_name[alias.removeprefix("-")].order_by
        keys += [_opposite(key) for key in declared] if alias.startswith("-") else declared
    for key in reversed(keys):  # stable: the least significant first
        attribute = key.removeprefix("-")
        rows.sort(
            key=lambda row: _sort_value(getattr(row, attribute, None)),
            reverse=key.startswith("-"),
        )
    return rows


def _sort_value(value: Any) -> tuple[bool, Any]:
    return (value is not None, value)


def _opposite(alias: str) -> str:
    return alias[1:] if alias.startswith("-") else f"-{alias}"


def _header(column: Column, query: QueryDict | None, asked: list[str]) -> str:
    """A column's header: a sortable one links to its order, or to the opposite when the table
    is in its order already (classed `asc` or `desc`), the other parameters kept."""
    text = escape(str(column.header))
    if not column.order_by or query is None:
        return f"<th>{text}</th>"
    current = next((a for a in asked if a.removeprefix("-") == column.name), None)
    classes = "orderable"
    if current is not None:
        classes = f"{'desc' if current.startswith('-') else 'asc'} orderable"
    params = query.copy()
    params[SORT] = column.name if current is None else _opposite(current)
    url = escape(f"?{params.urlencode()}")
    return f'<th class="{classes}"><a href="{url}">{text}</a></th>'


# Every name in a table is isolated in its own direction (`<bdi>`, the `bdi` filter's markup):
# "سارا احمدی (first)" keeps its order on an English page and "Ada (اول)" on a Persian one.
# Records and spreads are kept left to right (`<bdi dir="ltr">`, the `ltr` filter's): "2–1 -13"
# never reads "13- 1–2".


def _text(value: object) -> str:
    """As a template puts a value in: escaped unless it is safe HTML already; None is empty."""
    if value is None:
        return ""
    html = getattr(value, "__html__", None)
    return html() if html is not None else escape(str(value))


def _td(value: object, css: str = "") -> str:
    """A whole cell (the crosstable's cells are kept so)."""
    return f'<td class="{escape(css)}">{_text(value)}</td>' if css else f"<td >{_text(value)}</td>"


def _link(url: str, html: str) -> str:
    """`html` (escaped already) linked to `url`."""
    return f'<a href="{escape(url)}">{html}</a>'


def _name_link(player: Player, name: str, links: Links) -> str:
    """The name, isolated, linked to the player's page."""
    return _link(links.player(player), bdi_html(name))


def _with_first(name: str, first: int) -> str:
    """The name, isolated, and "(first)" after it when its player goes first."""
    if first != 1:
        return bdi_html(name)
    return escape(gettext("%(name)s (first)")) % {"name": bdi_html(name)}


def _opponent(side: Side, links: Links) -> str:
    """The opponent's name linked to their page, or what the game was instead (a bye)."""
    if side.opponent is None:
        return escape(side.opponent_text)  # a bye or a forfeit: the page's own word
    return _name_link(side.opponent, side.opponent_text, links)


def _rank(rank: int | None) -> str:
    return "–" if rank is None else str(rank)


# A standings or ratings row's player, linked to their page.
PLAYER = Column(
    "name", _("Player"), lambda row, links: _name_link(row.player, row.name, links), "", ("name",)
)

STANDINGS = (
    Column("rank", "#", lambda row, links: _rank(row.rank), "num", ("rank",)),
    PLAYER,
    Column("record", _("Record"), lambda row, links: ltr_html(row.record), "", ("wins", "-losses")),
    Column(
        "spread", _("Spread"), lambda row, links: ltr_html(signed(row.spread)), "num", ("spread",)
    ),
    Column("rating", _("Rating"), lambda row, links: _text(row.rating), "num", ("rating",)),
)

RATINGS = (
    PLAYER,
    Column("before", _("Before"), lambda row, links: _text(row.before), "num", ("before",)),
    Column("after", _("After"), lambda row, links: _text(row.after), "num", ("after",)),
    Column(
        "change", _("Change"), lambda row, links: ltr_html(signed(row.change)), "num", ("change",)
    ),
)


def standings_html(division: Division, rows: Iterable[Row], query: QueryDict) -> str:
    """The public standings, in the order `query` asks for."""
    return table_html(STANDINGS, rows, Links(division), query)


def ratings_html(division: Division, rows: Iterable[RatingRow], query: QueryDict) -> str:
    """The public ratings, in the order `query` asks for."""
    return table_html(RATINGS, rows, Links(division), query)


FIXED_MARK = "*"  # after a fixed table's number, in every printed pairing; the legend says so


def fixed_table_legend() -> str:
    """What the mark after a table number means, printed under pairings that have one."""
    return gettext("%(mark)s a fixed table: the player sits there every round.") % {
        "mark": FIXED_MARK
    }


def table_cell(side: Side) -> Any:
    """A game's table in the pairings, marked when it is a player's fixed table."""
    if side.table is None or not side.fixed_table:
        return side.table
    return format_html(
        '{}<abbr class="fixed-table" title="{}">{}</abbr>',
        side.table,
        gettext("fixed table"),
        FIXED_MARK,
    )


def _other(first: int) -> int:
    return {1: 2, 2: 1}.get(first, 0)


def _paired_opponent(side: Side, links: Links) -> str:
    """The opponent, "(first)" after the name when they go first; or what the game was instead."""
    if side.opponent is None:
        return escape(side.opponent_text)
    return _link(links.player(side.opponent), _with_first(side.opponent_text, _other(side.first)))


PAIRINGS_BY_TABLE = (
    Column("table", _("Table"), lambda side, links: _text(table_cell(side)), "num"),
    Column(
        "player",
        _("Player"),
        lambda side, links: _link(
            links.player(side.player), _with_first(side.player.name, side.first)
        ),
    ),
    Column("score_text", _("Score"), lambda side, links: _text(side.score_penalty_text)),
    Column("opponent", _("Opponent"), _paired_opponent),
)

PAIRINGS_BY_NAME = (
    Column(
        "player", _("Player"), lambda side, links: _name_link(side.player, side.player.name, links)
    ),
    Column("table", _("Table"), lambda side, links: _text(table_cell(side)), "num"),
    Column("opponent", _("Opponent"), _opponent),
    Column("first_text", _("1st/2nd"), lambda side, links: _text(side.first_text)),
    Column("score_text", _("Score"), lambda side, links: _text(side.score_penalty_text)),
)


def pairings_by_table_html(division: Division, sides: Iterable[Side]) -> str:
    """A round's pairings by table, each game once (`queries.round_pairings`' `by_table`)."""
    return table_html(PAIRINGS_BY_TABLE, sides, Links(division))


def pairings_by_name_html(division: Division, sides: Iterable[Side]) -> str:
    """A round's pairings by name, every player once (`queries.round_pairings`' `by_name`)."""
    return table_html(PAIRINGS_BY_NAME, sides, Links(division))


# The crosstable's marks stay W, L and T in every language, as the records and TSH write them
# (the page's note says what they mean, in the reader's language).
RESULT_LETTERS = {"win": "W", "loss": "L", "tie": "T"}
RESULT_WORDS = {
    "win": lambda: pgettext("result", "win"),
    "loss": lambda: pgettext("result", "loss"),
    "tie": lambda: pgettext("result", "tie"),
}


def _result(value: str) -> str:
    return escape(RESULT_WORDS[value]() if value in RESULT_WORDS else value)


def _scoresheet(game: PlayerGame, links: Links) -> str:
    sheet = game.scoresheet
    if sheet is None:
        return ""
    return format_html('<a href="{}">{}</a>', links.scoresheet(sheet.pk), sheet.label)


PLAYER_GAMES = (
    Column("round", _("Rd"), lambda game, links: _text(game.side.round), "num"),
    Column("opponent", _("Opponent"), lambda game, links: _opponent(game.side, links)),
    Column("first", _("1st/2nd"), lambda game, links: _text(game.side.first_text)),
    Column("score", _("Score"), lambda game, links: _text(game.side.score_penalty_text)),
    Column("result", _("Result"), lambda game, links: _result(game.side.result)),
    Column(
        "record",
        _("Record"),
        lambda game, links: ltr_html(f"{game.record} {signed(game.spread)}"),
    ),
    Column("scoresheet", _("Scoresheet"), _scoresheet),
)


def player_games_html(division: Division, games: Iterable[PlayerGame]) -> str:
    """A player's games (`queries.player_games`), in round order."""
    return table_html(PLAYER_GAMES, games, Links(division))


def _cross_cell(value: Side) -> str:
    opponent = value.opponent
    against = value.opponent_text.lower() if opponent is None else f"#{opponent.number}"
    return _cross_cell_html(RESULT_LETTERS.get(value.result, ""), against, value.score_text)


@lru_cache(maxsize=65536)
def _cross_cell_html(letter: str, against: str, score: str) -> SafeString:
    # A big crosstable has a few thousand distinct cells among its tens of thousands.
    return mark_safe(f"{escape(letter)} {escape(against)}<br><small>{escape(score)}</small>")  # noqa: S308 - escaped here


def crosstable_cells(division: Division, read: DivisionRead) -> dict[int, dict[int, str]]:
    """Each round's crosstable cells (round → player → `<td>`) of the division's published
    games and players as this process read them (`read_model.division_read`), kept in the cache
    under the frame stamp and each round's own stamp they were read under: a result entered
    renews its round's cells alone. No query: the rounds not kept are written from `read`."""
    # A cell's words (a bye, a forfeit) are in the page's language: kept once per language.
    language = get_language()
    where = f"crosscells:{language}:{division.pk}:{read.frame}"
    keys = {n: f"{where}:{n}:{read.round_stamps.get(str(n), '')}" for n in read.rows}
    found = cache_once.get_many(memos.CROSSTABLE_CELLS, list(keys.values()))
    by_round = {n: found[k] for n, k in keys.items() if k in found}
    missing = [n for n in read.rows if n not in by_round]
    if missing:
        players = {p.pk: p for p in read.players}
        fresh: dict[int, dict[int, str]] = {n: {} for n in missing}
        for n in missing:
            for game in read.rows[n]:
                for side in sides_of(game, players):
                    fresh[n][side.player.pk] = _td(_cross_cell(side), "cell")
        cache_once.set_many(
            memos.CROSSTABLE_CELLS, {keys[n]: cells for n, cells in fresh.items()}, 24 * 3600
        )
        by_round.update(fresh)
    return by_round


CROSSTABLE = (
    Column("rank", "#", lambda row, links: _rank(row.rank), "num"),
    Column("number", _("No"), lambda row, links: str(row.player.number), "num"),
    Column("name", _("Player"), lambda row, links: _name_link(row.player, row.name, links)),
    Column("record", _("Record"), lambda row, links: ltr_html(row.record)),
    Column("spread", _("Spread"), lambda row, links: ltr_html(signed(row.spread)), "num"),
)


def _round_column(number: int, cells: Mapping[int, str]) -> Column:
    """A round of the crosstable: each player's result, opponent's number and score."""
    empty = _td("", "cell")
    return Column(
        f"r{number}",
        gettext("R%(number)s") % {"number": number},
        lambda row, links: cells.get(row.player.pk, empty),
        whole=True,
    )


def crosstable_html(
    division: Division, rows: Sequence[Row], cells: dict[int, dict[int, str]]
) -> str:
    """The crosstable of the standings `rows` and the cells of `crosstable_cells`: a player a
    row in the standings' order, a column a round."""
    rounds = [_round_column(n, cells.get(n, {})) for n in range(1, max(cells, default=0) + 1)]
    return table_html((*CROSSTABLE, *rounds), rows, Links(division))
