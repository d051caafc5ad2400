"""A division's statistics from the database: its played games, and the plays of the
scoresheets stored with them (each turn's score as the rules engine computed it, read from the
stored report; no record is checked again here). The figures are `engine/statistics.py`'s."""

from __future__ import annotations

import re
from functools import cache

from scoring.rules import RulesError, load_rules
from tournament.core.sheet_report import SheetReport
from tournament.engine import statistics as engine
from tournament.models import Division, Game, Scoresheet
from tournament.scoresheets import services as scoresheets

_SCORE = re.compile(r"[+-]\d+")
_NOT_A_TILE = re.compile(r"[^\w.\[\]]")


def division_statistics(
    division: Division, public: bool = False, after: int | None = None
) -> engine.Statistics:
    """The statistics of the division's played games (up to round `after` if given); on a
    public page, of the published rounds only (`Game.objects.published()`)."""
    games = division.games.filter(kind=Game.PLAYED, player2__isnull=False)
    if after is not None:
        games = games.filter(round__lte=after)
    games = games.exclude(score1=None).exclude(score2=None)
    if public:
        games = games.published()
    rows = list(games.select_related("player1", "player2"))
    entrants = [engine.Entrant(p.pk, p.name, p.rating) for p in division.players.all()]
    played = [
        engine.Played(g.round, g.player1_id, g.player2_id, g.score1, g.score2, g.first)
        for g in rows
    ]
    plays, sheet_games = _plays(rows, public)
    return engine.statistics(entrants, played, plays, sheet_games, rack_size=_rack_size(division))


def _plays(
    games: list[Game], public: bool = False
) -> tuple[list[engine.Play], list[tuple[int, int, int]]]:
    """The scored plays of each game's latest scoresheet whose players can be told apart (on
    a public page, of the sheets not held for the director: `Scoresheet.held`)."""
    by_game = {g.pk: g for g in games}
    latest: dict[int, SheetReport] = {}
    sheets = (Scoresheet.objects.public() if public else Scoresheet.objects).filter(
        game__in=list(by_game)
    )
    sheets = sheets.order_by("game", "-uploaded", "-pk")
    for game_id, report in sheets.values_list("game_id", "report"):
        latest.setdefault(game_id, SheetReport.from_dict(report))
    plays: list[engine.Play] = []
    sheet_games = []
    for game_id, report in latest.items():
        game = by_game[game_id]
        order = scoresheets.sheet_players(game, report)
        if order is None:
            continue
        assert game.player2_id is not None  # only games between two players are read
        ids = {order[0].nick: game.player1_id, order[1].nick: game.player2_id}
        sheet_games.append((game.round, game.player1_id, game.player2_id))
        last_play: dict[str, int] = {}  # each player's last play, by its index in `plays`
        withdrawn: set[int] = set()
        for turn in report.turns:
            if turn.kind == "phony" and turn.nick in last_play:
                # A play challenged off the board was never scored: it is no high play.
                withdrawn.add(last_play.pop(turn.nick))
            if turn.kind != "play" or turn.computed_score is None or turn.nick not in ids:
                continue
            word = _word(turn.text)
            if word is None:
                continue
            player = ids[turn.nick]
            opponent = game.player2_id if player == game.player1_id else game.player1_id
            last_play[turn.nick] = len(plays)
            plays.append(
                engine.Play(
                    game.round,
                    player,
                    opponent,
                    turn.computed_score,
                    _play_text(turn.text),
                    engine.tiles_placed(word),
                )
            )
    return [p for i, p in enumerate(plays) if i not in withdrawn], sheet_games


def _body(text: str) -> list[str] | None:
    """A canonical play line's tokens between the player and the score: [rack] position word."""
    tokens = text.split()
    for i, token in enumerate(tokens[1:], start=1):
        if _SCORE.fullmatch(token):
            return tokens[1:i] if i >= 3 else None
    return None


def _word(text: str) -> str | None:
    body = _body(text)
    return None if body is None else _NOT_A_TILE.sub("", body[-1])


def _play_text(text: str) -> str:
    """The play as a list shows it: its position and word ("8D ZOEA")."""
    body = _body(text) or []
    return " ".join(body[-2:])


@cache
def _rack_size_of(rules: str) -> int:
    try:
        return load_rules(rules).rack_size
    except RulesError:  # a ruleset that no longer loads: the common rack
        return 7


def _rack_size(division: Division) -> int:
    return _rack_size_of(division.ruleset)
