"""The tables of the public pages (django-tables2), built from the rows of services and queries."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from html import escape
from typing import Any

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext, pgettext
from django.utils.translation import gettext_lazy as _

from tournament.core.html import bdi_html, ltr_html
from tournament.models import Division, Player
from tournament.standings import cache_once, memos, read_model
from tournament.standings.queries import CrossRow, PlayerGame, Side, sides_of, signed


class DivisionTable(tables.Table):
    """A table of one division's players: it links each name to the player's page."""

    def __init__(self, data: Any, division: Division, **kwargs: Any) -> None:
        self.division = division
        self._player_url_prefix: str | None = None
        super().__init__(data, **kwargs)

    def player_url(self, player: Player | None) -> str | None:
        if player is None:
            return None
        if self._player_url_prefix is None:
            # Reversed once a table: a 500-player table reversed 500 addresses otherwise.
            first = reverse("player", args=[self.division.tournament.slug, self.division.name, 1])
            assert first.endswith("/1/")  # noqa: S101 - the address ends with the number
            self._player_url_prefix = first[: -len("1/")]
        return f"{self._player_url_prefix}{player.number}/"

    class Meta:
        attrs = {"class": "data"}
        orderable = False
        empty_text = _("Nothing yet.")


# Every name in a table is isolated in its own direction (`<bdi>`, the `bdi` filter's markup):
# "سارا احمدی (first)" keeps its order on an English page and "Ada (اول)" on a Persian one.
# Records and spreads are kept left to right (`<bdi dir="ltr">`, the `ltr` filter's): "2–1 -13"
# never reads "13- 1–2". Written as strings: a 500-player crosstable has 500 of each.


def _name(name: str) -> SafeString:
    return mark_safe(bdi_html(name))  # noqa: S308 - escaped in bdi_html


def _ltr(text: str) -> SafeString:
    return mark_safe(ltr_html(text))  # noqa: S308 - escaped in ltr_html


def _player_link(table: DivisionTable, player: Player | None, text: str) -> str:
    """`text` (a name, or a name with its "(first)") linked to the player's page."""
    url = table.player_url(player)
    # As format_html writes it, without its cost: a 500-player round has 1,500 links.
    return mark_safe(_link(url, text))  # noqa: S308 - escaped


class StandingsTable(DivisionTable):
    rank = tables.Column(verbose_name="#", default="–", attrs={"td": {"class": "num"}})
    name = tables.Column(
        verbose_name=_("Player"),
        linkify=lambda record, table: table.player_url(record.player),
    )
    record = tables.Column(verbose_name=_("Record"), order_by=("wins", "-losses"))
    spread = tables.Column(verbose_name=_("Spread"), attrs={"td": {"class": "num"}})
    rating = tables.Column(verbose_name=_("Rating"), attrs={"td": {"class": "num"}})

    class Meta(DivisionTable.Meta):
        orderable = True

    def render_name(self, value: str) -> str:
        return _name(value)

    def render_record(self, value: str) -> str:
        return _ltr(value)

    def render_spread(self, value: int) -> str:
        return _ltr(signed(value))


class RatingsTable(DivisionTable):
    name = tables.Column(
        verbose_name=_("Player"),
        linkify=lambda record, table: table.player_url(record.player),
    )
    before = tables.Column(verbose_name=_("Before"), attrs={"td": {"class": "num"}})
    after = tables.Column(verbose_name=_("After"), attrs={"td": {"class": "num"}})
    change = tables.Column(verbose_name=_("Change"), attrs={"td": {"class": "num"}})

    class Meta(DivisionTable.Meta):
        orderable = True

    def render_name(self, value: str) -> str:
        return _name(value)

    def render_change(self, value: int) -> str:
        return _ltr(signed(value))


class PairingsByTableTable(DivisionTable):
    class Meta(DivisionTable.Meta):  # styled as a data table, not sortable
        pass

    table = tables.Column(verbose_name=_("Table"), default="", attrs={"td": {"class": "num"}})
    player = tables.Column(verbose_name=_("Player"), empty_values=())
    score_text = tables.Column(accessor="score_penalty_text", verbose_name=_("Score"), default="")
    opponent = tables.Column(verbose_name=_("Opponent"), empty_values=())

    def render_table(self, record: Side) -> Any:
        return table_cell(record)

    def render_player(self, record: Side) -> str:
        return _player_link(self, record.player, _with_first(record.player.name, record.first))

    def render_opponent(self, record: Side) -> str:
        if record.opponent is None:
            return record.opponent_text  # a bye or a forfeit: the page's own word
        other = {1: 2, 2: 1}.get(record.first, 0)
        return _player_link(self, record.opponent, _with_first(record.opponent_text, other))


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


def _with_first(name: str, first: int) -> SafeString:
    """The name, isolated, and "(first)" after it when its player goes first."""
    if first != 1:
        return _name(name)
    return mark_safe(escape(gettext("%(name)s (first)")) % {"name": bdi_html(name)})  # noqa: S308 - escaped


class PairingsByNameTable(DivisionTable):
    class Meta(DivisionTable.Meta):  # styled as a data table, not sortable
        pass

    player = tables.Column(
        verbose_name=_("Player"), linkify=lambda record, table: table.player_url(record.player)
    )
    table = tables.Column(verbose_name=_("Table"), default="", attrs={"td": {"class": "num"}})
    opponent = tables.Column(verbose_name=_("Opponent"), empty_values=())
    first_text = tables.Column(verbose_name=_("1st/2nd"), default="")
    score_text = tables.Column(accessor="score_penalty_text", verbose_name=_("Score"), default="")

    def render_player(self, value: Player) -> str:
        return _name(value.name)

    def render_table(self, record: Side) -> Any:
        return table_cell(record)

    def render_opponent(self, record: Side) -> str:
        return _opponent(self, record)


def _opponent(table: DivisionTable, side: Side) -> str:
    """The opponent's name linked to their page, or what the game was instead (a bye)."""
    if side.opponent is None:
        return side.opponent_text
    return _player_link(table, side.opponent, _name(side.opponent_text))


class PlayerGamesTable(DivisionTable):
    class Meta(DivisionTable.Meta):  # styled as a data table, not sortable
        pass

    round = tables.Column(
        accessor="side__round", verbose_name=_("Rd"), attrs={"td": {"class": "num"}}
    )
    opponent = tables.Column(accessor="side__opponent", verbose_name=_("Opponent"), empty_values=())
    first = tables.Column(accessor="side__first_text", verbose_name=_("1st/2nd"), default="")
    score = tables.Column(accessor="side__score_penalty_text", verbose_name=_("Score"), default="")
    result = tables.Column(accessor="side__result", verbose_name=_("Result"), default="")
    record = tables.Column(verbose_name=_("Record"), empty_values=())
    scoresheet = tables.Column(verbose_name=_("Scoresheet"), empty_values=())

    def render_opponent(self, record: PlayerGame) -> str:
        return _opponent(self, record.side)

    def render_result(self, value: str) -> str:
        return RESULT_WORDS[value]() if value in RESULT_WORDS else value

    def render_record(self, record: PlayerGame) -> str:
        return _ltr(f"{record.record} {signed(record.spread)}")

    def render_scoresheet(self, record: PlayerGame) -> str:
        sheet = record.scoresheet
        if sheet is None:
            return ""
        url = reverse("scoresheet", args=[self.division.tournament.slug, sheet.pk])
        return format_html('<a href="{}">{}</a>', url, sheet.label)


# The crosstable's marks stay W, L and T in every language, as the records and TSH write them
# (the page's note says what they mean, in the reader's language).
RESULT_LETTERS = {"win": "W", "loss": "L", "tie": "T"}
RESULT_WORDS = {
    "win": lambda: pgettext("result", "win"),
    "loss": lambda: pgettext("result", "loss"),
    "tie": lambda: pgettext("result", "tie"),
}


class RoundColumn(tables.Column):
    """A crosstable cell: result, opponent's number and score of one round."""

    def __init__(self, number: int) -> None:
        super().__init__(
            accessor=f"cells__{number - 1}",
            verbose_name=gettext("R%(number)s") % {"number": number},
            orderable=False,
            default="",
            attrs={"td": {"class": "cell"}},
        )

    def render(self, value: Side) -> str:
        return _cross_cell(value)


def _cross_cell(value: Side) -> str:
    opponent = value.opponent
    against = value.opponent_text.lower() if opponent is None else f"#{opponent.number}"
    return _cross_cell_html(RESULT_LETTERS.get(value.result, ""), against, value.score_text)


@lru_cache(maxsize=65536)
def _cross_cell_html(letter: str, against: str, score: str) -> SafeString:
    # A big crosstable has a few thousand distinct cells among its tens of thousands.
    return mark_safe(f"{escape(letter)} {escape(against)}<br><small>{escape(score)}</small>")  # noqa: S308 - escaped here


class CrosstableTable(DivisionTable):
    class Meta(DivisionTable.Meta):  # styled as a data table, not sortable
        pass

    rank = tables.Column(
        accessor="standing__rank", verbose_name="#", default="–", attrs={"td": {"class": "num"}}
    )
    number = tables.Column(
        accessor="player__number", verbose_name=_("No"), attrs={"td": {"class": "num"}}
    )
    name = tables.Column(
        accessor="player__name",
        verbose_name=_("Player"),
        linkify=lambda record, table: table.player_url(record.player),
    )
    record = tables.Column(accessor="standing__record", verbose_name=_("Record"))
    spread = tables.Column(
        accessor="standing__spread", verbose_name=_("Spread"), attrs={"td": {"class": "num"}}
    )

    def __init__(self, data: list[CrossRow], division: Division, rounds: int) -> None:
        columns = [(f"r{n}", RoundColumn(n)) for n in range(1, rounds + 1)]
        super().__init__(data, division, extra_columns=columns)

    def render_name(self, value: str) -> str:
        return _name(value)

    def render_record(self, value: str) -> str:
        return _ltr(value)

    def render_spread(self, value: int) -> str:
        return _ltr(signed(value))


class MovesTable(tables.Table):
    line = tables.Column(
        accessor="turn__line", verbose_name=_("Line"), attrs={"td": {"class": "num"}}
    )
    nick = tables.Column(accessor="turn__nick", verbose_name=_("Player"))
    move = tables.Column(
        accessor="turn__text", verbose_name=_("Move"), attrs={"td": {"class": "gcg"}}
    )
    score = tables.Column(
        accessor="turn__recorded_score", verbose_name=_("Score"), attrs={"td": {"class": "num"}}
    )
    engine_score = tables.Column(
        accessor="turn__computed_score",
        verbose_name=_("Engine"),
        default="?",
        attrs={"td": {"class": lambda record: "num differs" if record.score_differs else "num"}},
    )
    total = tables.Column(
        accessor="turn__recorded_total", verbose_name=_("Total"), attrs={"td": {"class": "num"}}
    )
    engine_total = tables.Column(
        accessor="turn__computed_total",
        verbose_name=_("Engine"),
        attrs={"td": {"class": lambda record: "num differs" if record.total_differs else "num"}},
    )
    findings = tables.Column(verbose_name=_("Findings"), empty_values=(), default="")

    class Meta:
        attrs = {"class": "data moves"}
        orderable = False
        row_attrs = {"class": lambda record: "wrong" if record.findings else ""}

    def render_nick(self, value: str) -> str:
        return _name(value)

    def render_findings(self, value: list) -> str:
        if not value:
            return ""
        return format_html_join(
            "",
            '<div class="finding {}">{}: {}</div>',
            ((f.severity, f.code, f.message) for f in value),
        )


def _written_rows(table: DivisionTable, request: Any, cells: Callable[[Any], list[str]]) -> str:
    """`table` as django-tables2 renders it (the same elements and attributes), its rows written
    here: tables2's template loop and per-cell machinery are nearly all of a big table's cold
    render (a 500-player crosstable's 15,500 cells: 2.5 s). The header is tables2's own, from
    the table rendered without rows; `cells(record)` gives one row's `<td>` elements."""
    empty = type(table)([], table.division, *_extra_args(table))
    if table.orderable:
        empty.order_by = table.order_by  # the header shows the order asked for
    shell = empty.as_html(request)
    if not table.rows:
        return shell
    start = shell.index("<tbody")
    lines = [shell[:start], shell[start : shell.index(">", start) + 1]]
    for i, record in enumerate(table.data):
        lines.append(
            '<tr class="{}">{}</tr>'.format("odd" if i % 2 else "even", "".join(cells(record)))
        )
    lines.append(shell[shell.index("</tbody>") :])
    return "\n".join(lines)


def _extra_args(table: DivisionTable) -> tuple[int, ...]:
    return (len(table.columns) - 5,) if isinstance(table, CrosstableTable) else ()


def _cell_text(value: object) -> str:
    """As format_html puts a value in: escaped unless it is safe HTML already."""
    if value is None:
        return ""
    html = getattr(value, "__html__", None)
    return html() if html is not None else escape(str(value))


def _td(value: object, css: str = "") -> str:
    # Written out rather than with format_html: a big crosstable has tens of thousands of cells.
    return _html_td(_cell_text(value), css)


def _html_td(html: str, css: str = "") -> str:
    """A cell of HTML written already (escaped)."""
    if css:
        return f'<td class="{escape(css)}">{html}</td>'
    return f"<td >{html}</td>"


def _link(url: str | None, text: str) -> str:
    return f'<a href="{escape(url)}">{_cell_text(text)}</a>' if url else _cell_text(text)


def _name_td(table: DivisionTable, player: Player, name: str) -> str:
    """A cell of the player's name, isolated, linked to their page."""
    url = table.player_url(player)
    return f'<td ><a href="{escape(url)}">{bdi_html(name)}</a></td>' if url else _html_td(name)


def crosstable_html(table: CrosstableTable, request: Any) -> str:
    """The public crosstable, cell for cell as django-tables2 renders it, 5 times cheaper."""

    def cells(row: CrossRow) -> list[str]:
        standing = row.standing
        player = standing.player
        return [
            _td("–" if standing.rank is None else standing.rank, "num"),
            _td(player.number, "num"),
            _name_td(table, player, player.name),
            _html_td(ltr_html(standing.record)),
            _html_td(ltr_html(signed(standing.spread)), "num"),
            *(_td("" if side is None else _cross_cell(side), "cell") for side in row.cells),
        ]

    return _written_rows(table, request, cells)


def crosstable_cells(
    division: Division, read: read_model.DivisionRead
) -> dict[int, dict[int, str]]:
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


def standings_crosstable_html(
    division: Division, rows: list[Any], cells: dict[int, dict[int, str]], request: Any
) -> str:
    """The crosstable of the standings `rows` and the cells of `crosstable_cells`: the same
    HTML as `crosstable_html`, without a Side for each of the division's games."""
    rounds = max(cells, default=0)
    table = CrosstableTable(rows, division, rounds)
    empty = _td("", "cell")
    columns = [cells.get(n, {}) for n in range(1, rounds + 1)]

    def row_cells(row: Any) -> list[str]:
        player = row.player
        return [
            _td("–" if row.rank is None else row.rank, "num"),
            _td(player.number, "num"),
            _name_td(table, player, player.name),
            _html_td(ltr_html(row.record)),
            _html_td(ltr_html(signed(row.spread)), "num"),
            *(column.get(player.pk, empty) for column in columns),
        ]

    return _written_rows(table, request, row_cells)


def pairings_by_table_html(table: PairingsByTableTable, request: Any) -> str:
    """A round's pairings by table, cell for cell as django-tables2 renders them."""

    def cells(side: Side) -> list[str]:
        return [
            _td(table_cell(side), "num"),
            _td(table.render_player(side)),
            _td(side.score_penalty_text),
            _td(table.render_opponent(side)),
        ]

    return _written_rows(table, request, cells)


def pairings_by_name_html(table: PairingsByNameTable, request: Any) -> str:
    """A round's pairings by name, cell for cell as django-tables2 renders them."""

    def cells(side: Side) -> list[str]:
        return [
            _name_td(table, side.player, side.player.name),
            _td(table_cell(side), "num"),
            _td(table.render_opponent(side)),
            _td(side.first_text),
            _td(side.score_penalty_text),
        ]

    return _written_rows(table, request, cells)


def ratings_html(table: RatingsTable, request: Any) -> str:
    """The public ratings in the order asked for (`RequestConfig`), cell for cell as
    django-tables2 renders them (a 500-player table: 0.2 s in tables2)."""

    def cells(row: Any) -> list[str]:
        return [
            _name_td(table, row.player, row.name),
            _td(row.before, "num"),
            _td(row.after, "num"),
            _html_td(ltr_html(signed(row.change)), "num"),
        ]

    return _written_rows(table, request, cells)


def standings_html(table: StandingsTable, request: Any) -> str:
    """The public standings in the order asked for, cell for cell as django-tables2 renders them."""

    def cells(row: Any) -> list[str]:
        return [
            _td("–" if row.rank is None else row.rank, "num"),
            _name_td(table, row.player, row.name),
            _html_td(ltr_html(row.record)),
            _html_td(ltr_html(signed(row.spread)), "num"),
            _td(row.rating, "num"),
        ]

    return _written_rows(table, request, cells)


def player_games_html(table: PlayerGamesTable, request: Any) -> str:
    """A player's games, cell for cell as django-tables2 renders them."""

    def cells(row: PlayerGame) -> list[str]:
        side = row.side
        return [
            _td(side.round, "num"),
            _td(table.render_opponent(row)),
            _td(side.first_text),
            _td(side.score_penalty_text),
            _td(table.render_result(side.result)),
            _td(table.render_record(row)),
            _td(table.render_scoresheet(row)),
        ]

    return _written_rows(table, request, cells)
