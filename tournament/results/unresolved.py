"""What still needs the desk, in one list: TSH's `missing`, and the rest a director must settle.

The dashboard shows it for the whole tournament and each round's entry page for its round, so
that nothing unresolved is out of sight:

- results missing in a round under way (published, or with a result already);
- players' reports that disagree, or that only one player has sent, side by side;
- players' word that a recorded result is wrong (`Dispute`, from their links), with their words;
- scoresheets flagged (their final scores differ from the result) or held from the public;
- rounds paired from results that have changed since (`Round.stale`, `pairing.services.revisit`).

Every item says what it is in a sentence, names isolated (`sentences.isolate`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import F, Q
from django.utils.translation import gettext, ngettext

from tournament.core.changes import stale_text
from tournament.core.sentences import isolate
from tournament.models import Claim, Dispute, Division, Game, Round, Scoresheet, Tournament
from tournament.results import claims as reports

# A game without a table (a bye, a forfeit) first, on every database (SQLite and PostgreSQL
# sort NULL at opposite ends).
BY_TABLE = (F("table").asc(nulls_first=True), "pk")

MISSING, CLAIMS, DISPUTE, SHEET, STALE = "missing", "claims", "dispute", "sheet", "stale"


@dataclass
class Item:
    """One thing the desk must still do."""

    kind: str  # MISSING, CLAIMS, DISPUTE, SHEET or STALE
    division: Division
    round: int
    sentence: str
    games: list[Game] = field(default_factory=list)  # MISSING: the games without a result
    claims: list[Claim] = field(default_factory=list)  # CLAIMS: each player's report
    sheet: Scoresheet | None = None  # SHEET
    dispute: Dispute | None = None  # DISPUTE
    more: int = 0  # MISSING: the games without a result past the first `MISSING_SHOWN`


# The games without a result a missing item links to, the first by table: the rest are counted.
MISSING_SHOWN = 30


def game_text(game: Game) -> str:
    """A game as the desk names it: `table 3: 4 Ada v 9 Ben` (a bye or forfeit: its player)."""
    one = f"{game.player1.number} {isolate(game.player1.name)}"
    if game.player2 is None:
        who = f"{one} ({game.get_kind_display()})"
    else:
        who = gettext("%(one)s v %(two)s") % {
            "one": one,
            "two": f"{game.player2.number} {isolate(game.player2.name)}",
        }
    if game.table is None:
        return who
    return gettext("table %(table)s: %(game)s") % {"table": game.table, "game": who}


def _missing(division: Division, games: list[Game], states: dict[int, Round]) -> list[Item]:
    by_round: dict[int, list[Game]] = {}
    for g in games:
        by_round.setdefault(g.round, []).append(g)
    items = []
    for number, round_games in sorted(by_round.items()):
        state = states.get(number)
        played = [g for g in round_games if g.has_result]
        if state is not None and not state.published and not played:
            continue  # paired, not published, nothing entered: not under way yet
        missing = [g for g in round_games if not g.has_result and g.kind != Game.VOID]
        if missing:
            items.append(_missing_item(division, number, missing[:MISSING_SHOWN], len(missing)))
    return items


def _missing_item(division: Division, number: int, shown: list[Game], count: int) -> Item:
    sentence = ngettext(
        "Round %(round)s: %(count)s result missing.",
        "Round %(round)s: %(count)s results missing.",
        count,
    ) % {"round": number, "count": count}
    return Item(MISSING, division, number, sentence, games=shown, more=count - len(shown))


def _missing_in_round(division: Division, number: int, states: dict[int, Round]) -> list[Item]:
    """`_missing` for one round, counted in the database: a round's entry page asks after every
    save, and reads the first games without a result alone, not the round's every game."""
    games = division.games.filter(round=number)
    done = Q(score1__isnull=False) & (Q(player2__isnull=True) | Q(score2__isnull=False))
    state = states.get(number)
    if state is not None and not state.published and not games.filter(done).exists():
        return []  # paired, not published, nothing entered: not under way yet
    missing = games.exclude(done).exclude(kind=Game.VOID)
    shown = list(missing.select_related("player1", "player2").order_by(*BY_TABLE)[:MISSING_SHOWN])
    if not shown:
        return []
    count = len(shown) if len(shown) < MISSING_SHOWN else missing.count()
    return [_missing_item(division, number, shown, count)]


def _claims(division: Division, round_number: int | None) -> list[Item]:
    items = []
    for game, claims in reports.pending(division):
        if round_number is not None and game.round != round_number:
            continue
        if len(claims) == 1:
            sentence = gettext(
                "Round %(round)s, %(game)s: only %(name)s has reported (%(claims)s)."
            ) % {
                "round": game.round,
                "game": game_text(game),
                "name": isolate(claims[0].player.name),
                "claims": reports.claims_text(claims),
            }
        else:
            sentence = gettext("Round %(round)s, %(game)s: the reports disagree: %(claims)s.") % {
                "round": game.round,
                "game": game_text(game),
                "claims": reports.claims_text(claims),
            }
        items.append(Item(CLAIMS, division, game.round, sentence, claims=claims))
    return items


def _disputes(division: Division, round_number: int | None) -> list[Item]:
    """The disputes not answered yet: the game, who says its result is wrong, and their words
    (plain text, isolated), until the desk answers that it stands or corrects the result."""
    found = (
        Dispute.objects.filter(game__division=division, answer=Dispute.OPEN)
        .select_related("game__player1", "game__player2", "player")
        .order_by("game__round", "game__table", "game_id", "pk")
    )
    if round_number is not None:
        found = found.filter(game__round=round_number)
    return [
        Item(
            DISPUTE,
            division,
            d.game.round,
            gettext("Round %(round)s, %(game)s: %(name)s says the result is wrong: %(text)s")
            % {
                "round": d.game.round,
                "game": game_text(d.game),
                "name": isolate(d.player.name),
                "text": isolate(d.text),
            },
            games=[d.game],
            dispute=d,
        )
        for d in found
    ]


def _sheets(division: Division, round_number: int | None) -> list[Item]:
    sheets = (
        Scoresheet.objects.filter(game__division=division)
        .filter(Q(flagged=True, resolved=False) | Q(verified=False, released=False))
        .select_related("game__player1", "game__player2")
        .defer("gcg")
        .order_by("game__round", "game__table", "pk")
    )
    if round_number is not None:
        sheets = sheets.filter(game__round=round_number)
    items = []
    for sheet in sheets:
        game = sheet.game
        if sheet.flagged and not sheet.resolved:
            finals = " – ".join(
                f"{isolate(p.get('nick'))} {p.get('final')}"
                for p in (sheet.report.get("players") or [])
                if isinstance(p, dict)
            )
            sentence = gettext(
                "Round %(round)s, %(game)s: the scoresheet says %(finals)s, not the result entered."
            ) % {"round": game.round, "game": game_text(game), "finals": finals}
        else:
            sentence = gettext(
                "Round %(round)s, %(game)s: the scoresheet is held from the public (%(label)s)."
            ) % {"round": game.round, "game": game_text(game), "label": sheet.label}
        items.append(Item(SHEET, division, game.round, sentence, sheet=sheet))
    return items


def _stale(division: Division, states: dict[int, Round]) -> list[Item]:
    return [
        Item(
            STALE,
            division,
            state.number,
            gettext("Round %(round)s was paired from results that have changed since: %(changes)s.")
            % {"round": state.number, "changes": stale_text(state)},
        )
        for number, state in sorted(states.items())
        if state.stale
    ]


def for_division(division: Division, round_number: int | None = None) -> list[Item]:
    """What the division's desk must still do; for one round's entry page, what of that round
    (and every stale round of the division, which that round's results may be the cause of)."""
    states = {r.number: r for r in division.rounds.all()}
    if round_number:
        missing = _missing_in_round(division, round_number, states)
    else:
        games = list(
            division.games.select_related("player1", "player2").order_by("round", *BY_TABLE)
        )
        missing = _missing(division, games, states)
    return [
        *_stale(division, states),
        *missing,
        *_claims(division, round_number),
        *_disputes(division, round_number),
        *_sheets(division, round_number),
    ]


def for_tournament(tournament: Tournament) -> list[Item]:
    """What the whole tournament's desk must still do, division by division."""
    return [item for d in tournament.divisions.all() for item in for_division(d)]
