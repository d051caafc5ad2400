"""WESPA events: a tournament from a `.tou` results file, and WESPA's printed ratings.

The reading is pure (`tournament.interchange.tou`, `tournament.interchange.wespa`); this module
saves what was read in one transaction, so a file that cannot be read leaves nothing behind.

A round a player is paired with their own number (no opponent) is saved as a game without a
second player, counted by the division's settings:
- a score of 2000 or more (2001, 2100 …) is a bye: a win worth `bye_spread`;
- 1000-1999 (1350 …) and 0 are an absence: a game with no spread, neither won nor lost;
- 1-999 (2, 100 …) is a forfeit: a loss worth `forfeit_spread`;
- below 0 (-50 …) is a penalty written on a forfeit: a forfeit loss by that much.
A negative score against an opponent is a loss with that score. Either is said in a note.
The code as written is kept with the game, so an export writes it back unchanged.

A game counts its result digits (2 a win, 1 a tie) and its spread from the scores; the two
agree but in a few files, where the digits are kept with the game and counted.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from django.db import transaction

from tournament.exchange.tsh_io import ImportError_
from tournament.interchange import files, tou
from tournament.interchange import wespa as printout_reader
from tournament.models import Division, Game, Player, Tournament
from tournament.people import services as people

WESPA_BYE_SPREAD = 100  # tsh's WESPA realm preset


@dataclass(frozen=True)
class Imported:
    tournament: Tournament
    notes: list[str]  # what the import read past, one line each


def unopposed(code: int, division: Division) -> tuple[str, int]:
    """A self-pairing's kind and the spread the standings count (module doc)."""
    if code < 0:
        return Game.FORFEIT, code
    if code >= 2000:
        return Game.BYE, division.bye_spread
    if code == 0 or code >= 1000:
        return Game.BYE, 0
    return Game.FORFEIT, -division.forfeit_spread


def _scores(a: tou.TouEntry, b: tou.TouEntry, results_only: bool) -> tuple[int, int]:
    if not results_only:
        return a.score, b.score
    # Only wins and losses were recorded: a result with no spread beyond its sign.
    return (1, 0) if a.result > b.result else (0, 1) if a.result < b.result else (0, 0)


def _rating(text: str) -> int:
    digits = "".join(ch for ch in text if ch.isascii() and ch.isdigit())
    return int(digits) if digits else 0


def _read(path: Path) -> bytes:
    """A file given to the import: a regular file under the cap (`files.read_file`)."""
    try:
        return files.read_file(path)
    except files.FileRefused as refused:
        raise ImportError_(str(refused)) from refused


def import_tou(
    path: str | Path, slug: str, name: str | None = None, printout: str | Path | None = None
) -> Imported:
    """A tournament from a `.tou` file, with WESPA's printed ratings if a printout is given."""
    path = Path(path)
    if Tournament.objects.filter(slug=slug).exists():
        raise ImportError_(f"the slug {slug!r} is already taken by another tournament")
    try:
        event = tou.read(_read(path))
        games = [tou.section_games(s) for s in event.sections]
    except tou.TouFormatError as error:
        raise ImportError_(f"{path.name}: {error}") from error
    ratings: dict[tuple[str, str], printout_reader.PrintoutRow] = {}
    notes: list[str] = []
    if printout is not None:
        printout = Path(printout)
        text = tou.decode_text(_read(printout))
        try:
            rows = printout_reader.read_printout(text, [s.name for s in event.sections])
        except printout_reader.PrintoutError as error:
            raise ImportError_(f"{printout.name}: {error}") from error
        ratings = {(r.section, r.name): r for r in rows}
    for section, found in zip(event.sections, games, strict=True):
        notes.extend(f"{path.name}: {n}" for n in found.notes)
        if printout is not None:
            for row in section.rows:
                if (section.name, row.name) not in ratings:
                    notes.append(
                        f"{printout.name}: no rating printed for {row.name} (line {row.line})"
                    )
    with transaction.atomic():
        tournament = Tournament.objects.create(
            name=name or event.event or path.stem,
            slug=slug,
            start_date=event.date,
            end_date=event.date,
        )
        for position, (section, found) in enumerate(zip(event.sections, games, strict=True)):
            _save_division(tournament, position, section, found, event.results_only, ratings)
        people.link_tournament(tournament)
    return Imported(tournament, notes)


def _save_division(
    tournament: Tournament,
    position: int,
    section: tou.TouSection,
    found: tou.TouGames,
    results_only: bool,
    ratings: dict[tuple[str, str], printout_reader.PrintoutRow],
) -> Division:
    division = Division.objects.create(
        tournament=tournament,
        name=section.name[:50],
        position=position,
        planned_rounds=found.rounds,
        bye_spread=WESPA_BYE_SPREAD,
        tou={
            "results_only": results_only,
            "high_word": section.high_word,
            "compact": found.compact,
            "notes": list(found.notes),
        },
    )
    players = []
    for number, row in enumerate(section.rows, start=1):
        printed = ratings.get((section.name, row.name))
        players.append(
            Player(
                division=division,
                number=number,
                name=row.name,
                rating=_rating(printed.old) if printed else 0,
                rating_text=printed.old if printed else "",
                wespa=printed.figures() if printed else {},
            )
        )
    Player.objects.bulk_create(players)
    saved = list(division.players.order_by("number"))
    rows = section.rows
    out = []
    for pairing in found.pairings:
        p, i = pairing.a
        mine = rows[p].entries[i]
        raw: dict[str, list[int | float | None]] = {"1": [mine.code, mine.opponent, mine.first]}
        if pairing.b is None:
            kind, spread = unopposed(mine.code, division)
            raw["scores"] = [spread, None]
            out.append(
                Game(
                    division=division,
                    round=pairing.round,
                    player1=saved[p],
                    score1=spread,
                    kind=kind,
                    tou=raw,
                )
            )
            continue
        q, j = pairing.b
        theirs = rows[q].entries[j]
        raw["2"] = [theirs.code, theirs.opponent, theirs.first]
        score1, score2 = _scores(mine, theirs, results_only)
        raw["scores"] = [score1, score2]
        if (score1 > score2) - (score1 < score2) != mine.result - 1 or (
            mine.result + theirs.result != 2
        ):
            # The result digits disagree with the scores: the digits count (WESPA's rule).
            raw["results"] = [mine.result / 2, theirs.result / 2]
        # Who went first is known when exactly one of the two lines says so.
        first = {(True, False): 1, (False, True): 2}.get((mine.first, theirs.first), 0)
        out.append(
            Game(
                division=division,
                round=pairing.round,
                player1=saved[p],
                player2=saved[q],
                score1=score1,
                score2=score2,
                first=first,
                tou=raw,
            )
        )
    Game.objects.bulk_create(out)
    return division
