"""The `.tou` results file rating bodies take (tsh's AUPAIR command writes it).

Layout, a division after another, lines ending in CR LF, ASCII only:

    *M<DD.MM.YYYY> <tournament name>
    *<division name>
    <38 spaces>0                   (the high word line: Spread records none)
    <name, 20 wide> <game> <game> …  one line a player, in player-number order
    *** END OF FILE ***

A game is `<result><score> <opponent>`: the result 2 won, 1 drew, a space lost; the score
modulo 1000 in three places; a space; the opponent's line number (1 is the division's first
player) right-aligned in three places (four when the division has more than 99 players),
led by `+` when the player went first. A game with no opponent (a bye, a forfeit) is written
against the player's own number, as rating programs skip such games: a bye as its spread and
no result mark, a forfeit lost as the forfeit's spread without its sign. A round with no result
(not played, withdrawn) is written as a zero against the player's own number, so that every
line keeps one column a round.

This follows the only public writer of the format known to us (Woogles' TOU export, whose
golden file it reproduces); tsh's own AUPAIR code is not public.
"""

from __future__ import annotations

import datetime
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

# Letters NFKD cannot take apart into a Latin letter and accents.
_LATIN = {
    "ł": "l",
    "Ł": "L",
    "ß": "ss",
    "æ": "ae",
    "Æ": "AE",
    "œ": "oe",
    "Œ": "OE",
    "ø": "o",
    "Ø": "O",
    "đ": "d",
    "Đ": "D",
    "þ": "th",
    "Þ": "Th",
    "ð": "d",
    "‘": "'",
    "’": "'",
    "“": '"',
    "”": '"',
    "–": "-",
    "—": "-",
}

NAME_WIDTH = 20
CRLF = "\r\n"


@dataclass(frozen=True)
class TouGame:
    """A round of one player: `opponent` None for a bye, a forfeit or no game."""

    opponent: int | None  # the opponent's line number, 1-based
    score: int | None  # None: no result; for a bye or forfeit, its spread
    opponent_score: int | None
    went_first: bool = False


@dataclass(frozen=True)
class TouPlayer:
    name: str
    games: list[TouGame]


@dataclass(frozen=True)
class TouDivision:
    name: str
    players: list[TouPlayer]


def ascii_text(text: str) -> str:
    """Accents dropped, other Latin letters spelled out; letters of other scripts left out."""
    out = []
    for ch in text:
        ch = _LATIN.get(ch, ch)
        for part in unicodedata.normalize("NFKD", ch):
            if part.isascii() and (part.isprintable()):
                out.append(part)
    return "".join(out).strip()


class TouError(ValueError):
    """A result the format cannot hold; the message says which."""


def _game(player: int, game: TouGame, wide: bool) -> str:
    if game.score is None:
        result, score, opponent = " ", 0, str(player)
    elif game.opponent is None:
        result, score, opponent = " ", abs(game.score), str(player)
    else:
        mine, theirs = game.score, game.opponent_score or 0
        result = "2" if mine > theirs else "1" if mine == theirs else " "
        score = mine
        opponent = f"+{game.opponent}" if game.went_first else str(game.opponent)
    if not 0 <= score < 1000:
        raise TouError(f"player {player}: a score of {score} cannot be written in a .tou file")
    return f"{result}{score:3d} {opponent:>{4 if wide else 3}}"


def write(tournament: str, date: datetime.date, divisions: Iterable[TouDivision]) -> str:
    lines = []
    for division in divisions:
        lines.append(f"*M{date:%d.%m.%Y} {ascii_text(tournament)}")
        lines.append(f"*{ascii_text(division.name)}")
        lines.append(" " * 38 + "0")
        wide = len(division.players) > 99
        for number, player in enumerate(division.players, start=1):
            name = ascii_text(player.name)[:NAME_WIDTH] or f"Player {number}"
            games = "".join(" " + _game(number, g, wide) for g in player.games)
            lines.append(f"{name:<{NAME_WIDTH}}{games}")
    lines.append("*** END OF FILE ***")
    return CRLF.join(lines) + CRLF
