"""Scoresheets at the desk: checking a record with the rules engine, attaching it to a game,
matching a record to its game, and flagging a sheet that disagrees with the entered result.
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import re
import unicodedata
from dataclasses import asdict
from typing import Any

from django.db import transaction
from django.utils.translation import gettext
from django.utils.translation import gettext as _

import scoring
from scoring import gcg
from scoring.lexicon import LexiconError
from tournament.core import audit, bounds
from tournament.core.actor import Actor, signed_in
from tournament.core.bounds import MAX_SCORESHEET_BYTES as MAX_SCORESHEET_BYTES
from tournament.core.errors import EntryError
from tournament.core.sentences import isolate
from tournament.core.sheet_report import SheetFinding, SheetPlayer, SheetReport
from tournament.models import Change, Division, Game, Player, Scoresheet

logger = logging.getLogger(__name__)


def _words(text: str) -> list[str]:
    plain = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in plain if not unicodedata.combining(c))
    return re.findall(r"[a-z0-9]+", plain.lower())


def name_matches(player_name: str, nick: str, name: str) -> bool:
    """Whether a scoresheet's player (nick and full name) is the division's player.

    The full name matches whatever its order ("Smylie, Jackson" is "Jackson Smylie"); the nick
    matches a name of the player's or all of them run together ("jackson", "jacksonsmylie").
    """
    words = _words(player_name)
    if not words:
        return False
    full = set(_words(name))
    if full and (full == set(words) or len(full & set(words)) >= 2):
        return True
    joined = "".join(_words(nick))
    return bool(joined) and (joined in words or joined in ("".join(words), "".join(words[::-1])))


def report_key(division: Division, text: str) -> str:
    """What a stored report was computed from: the engine's version, the division's ruleset,
    tile set and word lists, and the record's text. A report under another key is out of date."""
    raw = "\0".join(
        [scoring.ENGINE_VERSION, division.ruleset, division.tile_set, division.lexicons, text]
    )
    return hashlib.sha256(raw.encode("utf-8", "surrogatepass")).hexdigest()


def scoresheet_text(data: str | bytes) -> str:
    text = gcg.decode(data)[0] if isinstance(data, bytes) else data
    return text.replace("\x00", "")  # PostgreSQL cannot store NUL in text


@functools.lru_cache(maxsize=16)
def _load_lexicon(spec: str) -> scoring.Lexicon:
    return scoring.load_lexicon(spec)


def engine_settings(
    division: Division,
) -> tuple[scoring.Ruleset | str, scoring.TileSet | str, scoring.Lexicons, list[dict]]:
    """The division's ruleset, tile set and word lists; a note for each that cannot be loaded
    (the checks of a record and the board entry's placing, `board_entry.py`)."""
    notes = []

    def note(**params: str) -> None:
        notes.append(asdict(SheetFinding(0, scoring.WARNING, "desk_settings", params)))

    try:
        rules: scoring.Ruleset | str = scoring.load_rules(division.ruleset)
    except (ValueError, OSError):
        note(case="ruleset", ruleset=division.ruleset)
        rules = "auto"
    try:
        tiles: scoring.TileSet | str = scoring.load_tileset(division.tile_set)
    except (ValueError, OSError):
        note(case="tiles", tiles=division.tile_set)
        tiles = "auto"
    lexicons = []
    for spec in division.lexicons.splitlines():
        if spec.strip():
            try:
                lexicons.append(_load_lexicon(spec.strip()))
            except LexiconError as error:
                note(case="lexicon", error=str(error))
    return rules, tiles, scoring.Lexicons(lexicons), notes


def _json_safe(data: Any) -> Any:
    return json.loads(json.dumps(data, default=str))


def check_scoresheet(division: Division, data: str | bytes) -> SheetReport:
    """The engine's report on a record, as stored with a scoresheet; never raises.

    `report.as_dict()` plus each turn (recorded and computed score and total, and what the
    game viewer draws it from: tiles placed and taken back, rack, notes, unseen tiles), the
    board after the last move, and how the game ended.
    """
    rules, tiles, lexicons, notes = engine_settings(division)
    try:
        report = scoring.verify(data, rules=rules, tiles=tiles, lexicons=lexicons)
    except Exception as error:  # the engine promises never to raise; if it does, keep the sheet
        logger.exception("the rules engine failed on a scoresheet")
        failure = SheetFinding(0, scoring.ERROR, "engine_failure", {"error": str(error)})
        return SheetReport.from_dict(
            _json_safe({"verified": False, "findings": notes + [asdict(failure)]})
        )
    result = report.as_dict()
    result["findings"] = notes + result["findings"]
    rack_size = report.rules.rack_size
    turns = report.turns
    result["turns"] = [
        {
            "line": t.line,
            "nick": t.nick,
            "kind": t.kind,
            "text": t.text,
            "recorded_score": t.recorded_score,
            "computed_score": t.computed_score,
            "recorded_total": t.recorded_total,
            "computed_total": t.computed_total,
            "number": t.number,
            "rack": t.event.rack,
            "notes": list(t.event.notes),
            "placed": [list(p) for p in t.placed],
            "removed": [list(r) for r in t.removed],
            "unseen": t.unseen,
            "bingo": len(t.placed) >= rack_size,
            "withdrawn": bool(t.placed)
            and k + 1 < len(turns)
            and turns[k + 1].kind == gcg.PHONY
            and bool(turns[k + 1].removed),
        }
        for k, t in enumerate(turns)
    ]
    result["board"] = report.board.render()
    result["ended"] = report.ended
    result["layout"] = report.board.layout.name
    result["unseen"] = report.unseen
    result["values"] = {t: report.tiles.value(t) for t in report.tiles.counts if t != "?"}
    return SheetReport.from_dict(_json_safe(result))


def sheet_players(game: Game, report: SheetReport) -> tuple[SheetPlayer, SheetPlayer] | None:
    """The scoresheet's players in the game's order (player1, player2), where known.

    By the players' names; else by who went first (the record's first player); else None.
    """
    if len(report.players) != 2 or game.player2_id is None:
        return None
    a, b = report.players

    def matches(p: SheetPlayer, player: Player) -> bool:
        return name_matches(player.name, p.nick, p.name)

    one, two = game.player1, game.player2
    assert two is not None  # player2_id is set
    if matches(a, one) and matches(b, two) and not (matches(a, two) and matches(b, one)):
        return a, b
    if matches(a, two) and matches(b, one) and not (matches(a, one) and matches(b, two)):
        return b, a
    if game.first == 1:
        return a, b
    if game.first == 2:
        return b, a
    return None


def sheet_scores(game: Game, report: SheetReport) -> tuple[int | None, int | None] | None:
    """The scoresheet's final scores in the game's order (player1, player2), where known."""
    found = sheet_players(game, report)
    return None if found is None else (found[0].final, found[1].final)


def sheet_time_penalties(game: Game, report: SheetReport) -> tuple[int | None, int | None] | None:
    """The time penalties the scoresheet's `(time)` lines take off, in the game's order (None
    for a player without such a line), where its players are known (`sheet_players`)."""
    found = sheet_players(game, report)
    if found is None:
        return None
    taken = {
        t.nick: -t.recorded_score
        for t in report.turns
        if t.kind == gcg.TIME and t.recorded_score is not None
    }
    return taken.get(found[0].nick), taken.get(found[1].nick)


def penalty_differences(game: Game, report: SheetReport) -> list[str]:
    """Where a scoresheet's `(time)` line and the game's entered time penalty differ, a
    sentence a player naming both; a player without a `(time)` line is not compared."""
    if game.player2 is None or game.kind != Game.PLAYED or not game.has_result:
        return []
    penalties = sheet_time_penalties(game, report)
    if penalties is None:
        return []
    found = []
    for player, sheet, entered in zip(
        (game.player1, game.player2), penalties, (game.penalty1, game.penalty2), strict=True
    ):
        if sheet is not None and sheet != entered:
            found.append(
                gettext(
                    "%(name)s's time penalty is %(sheet)s on the scoresheet and %(entered)s "
                    "in the entered result."
                )
                % {"name": isolate(player.name), "sheet": sheet, "entered": entered}
            )
    return found


def differs(game: Game, report: SheetReport) -> bool:
    """Whether a scoresheet's final scores, or its time penalties, differ from the game's
    entered result."""
    players = report.players
    if game.player2_id is None or not game.has_result or len(players) != 2:
        return False
    scores = sheet_scores(game, report)
    if scores is not None:
        return scores != (game.score1, game.score2) or bool(penalty_differences(game, report))
    # The same two scores in either order (a sheet's players not matched to the game's).
    finals = (players[0].final, players[1].final)
    return finals not in ((game.score1, game.score2), (game.score2, game.score1))


def _sheet_summary(sheet: Scoresheet) -> dict[str, Any]:
    report = sheet.engine_report
    return {
        "scoresheet": sheet.pk,
        "file": report.file,
        "verified": sheet.verified,
        "flagged": sheet.flagged,
        "resolved": sheet.resolved,
        "released": sheet.released,
        "findings": len(report.findings),
        "players": [[p.nick, p.final] for p in report.players],
    }


def _report(division: Division, text: str, file: str = "") -> SheetReport:
    """The report to store with a record's text, under its key."""
    report = check_scoresheet(division, text)
    report.key = report_key(division, text)
    report.file = file.replace("\x00", "")
    return report


def current_report(sheet: Scoresheet) -> SheetReport:
    """The scoresheet's stored report; checked again, and stored, only if the record, its
    division's ruleset, tile set or word lists, or the engine changed since it was made."""
    division = sheet.game.division
    stored = sheet.engine_report
    if stored.key == report_key(division, sheet.gcg):
        return stored
    if bounds.refusal(sheet.gcg, saving=False):
        return stored  # a record over the bounds, saved before they were set: not checked again
    report = _report(division, sheet.gcg, stored.file)
    data = report.as_dict()
    # Not over a record a director changed in the meantime: that save stored its own report.
    Scoresheet.objects.filter(pk=sheet.pk, gcg=sheet.gcg).update(
        report=data, verified=report.verified
    )
    sheet.report, sheet.verified = data, report.verified
    return report


class DuplicateScoresheet(EntryError):
    """The same record is already saved with the game: `sheet` is that scoresheet."""

    def __init__(self, sheet: Scoresheet) -> None:
        super().__init__(
            f"This scoresheet is already saved with {sheet.game} (scoresheet {sheet.pk}): "
            "not saved again."
        )
        self.sheet = sheet


def same_record(a: str, b: str) -> bool:
    """Two records are the same upload if they differ only in line endings or trailing space."""

    def lines(text: str) -> list[str]:
        return [line.rstrip() for line in text.strip().splitlines()]

    return lines(a) == lines(b)


def live_check(game: Game, data: str) -> dict[str, Any]:
    """What the typing pages' script shows as a record is typed (the desk's and the player's),
    never the record itself: whether it is verified, the players' final totals (recorded and
    the engine's), how many errors, the first `bounds.FINDINGS_SHOWN` findings with their
    sentences (each quoting at most `bounds.QUOTED` characters of the record) and how many more
    there are (`more`), each turn as [line, recorded score, engine's score, recorded total,
    engine's total], the board after the last move, and whether the final scores differ from
    the game's entered result. A record over a bound is refused (`bounds.RecordRefused`)."""
    report = check_scoresheet(game.division, bounds.record_text(data, saving=False))
    findings = report.findings
    shown = findings[: bounds.FINDINGS_SHOWN]
    return {
        "verified": report.verified,
        "differs": differs(game, report),
        "players": [
            {"nick": bounds.quoted(p.nick), "final": p.final, "computed": p.computed}
            for p in report.players
        ],
        "errors": sum(1 for f in findings if f.severity == scoring.ERROR),
        # The script shows each finding's sentence: made here from its code and parameters.
        "findings": [_quoted(f).as_json() for f in shown],
        "more": len(findings) - len(shown),
        "turns": [
            [t.line, t.recorded_score, t.computed_score, t.recorded_total, t.computed_total]
            for t in report.turns
        ],
        "board": report.board,
    }


def _quoted(finding: SheetFinding) -> SheetFinding:
    """The finding with what it quotes of the record cut short (`bounds.quoted`)."""
    return SheetFinding(
        finding.line,
        finding.severity,
        finding.code,
        {k: bounds.quoted(v) for k, v in finding.params.items()},
        bounds.quoted(finding.player),
        bounds.quoted(finding.expected),
        bounds.quoted(finding.recorded),
    )


def attach_scoresheet(game: Game, data: str | bytes, user: Actor, file: str = "") -> Scoresheet:
    """Save a record with the game, checked under its division's rules; logged as an upload.

    `user` is a director, or a player of the game sending it from their personal link (kept as
    the sheet's `sent_by` and the change's actor).

    A malformed record is saved too, with its findings; one over a bound (`tournament.bounds`)
    is refused (`bounds.RecordRefused`, an `EntryError`), and so is the same record uploaded
    again to the same game (`DuplicateScoresheet`).
    """
    text = bounds.record_text(data)
    report = _report(game.division, text, file)
    with transaction.atomic():
        # Compared with the result as stored now, not as the page saw it.
        game = (
            Game.objects.select_for_update(of=("self",))
            .select_related("player1", "player2")
            .get(pk=game.pk)
        )
        for earlier in game.scoresheets.all():
            if same_record(earlier.gcg, text):
                raise DuplicateScoresheet(earlier)
        sheet = Scoresheet.objects.create(
            game=game,
            gcg=text,
            uploaded_by=signed_in(user),
            sent_by=user if isinstance(user, Player) else None,
            verified=report.verified,
            report=report.as_dict(),
            flagged=differs(game, report),
        )
        audit.record(
            game.division,
            Change.Action.UPLOAD,
            actor=user,
            game=game,
            scoresheet=sheet,
            after=_sheet_summary(sheet),
        )
    return sheet


def update_scoresheet(sheet: Scoresheet, text: str, user: Actor, reason: str = "") -> Scoresheet:
    """Replace a scoresheet's record (typed corrections), checked again; logged. The same
    record saved again changes nothing."""
    game = sheet.game
    text = bounds.record_text(text)
    if same_record(sheet.gcg, text):
        return sheet
    report = _report(game.division, text, sheet.engine_report.file)
    with transaction.atomic():
        sheet = Scoresheet.objects.select_for_update().get(pk=sheet.pk)
        before = _sheet_summary(sheet)
        sheet.gcg = text
        sheet.report = report.as_dict()
        sheet.verified = report.verified
        sheet.flagged = differs(game, report) and not sheet.resolved
        sheet.save()
        audit.record(
            game.division,
            Change.Action.CORRECT,
            actor=user,
            game=game,
            scoresheet=sheet,
            before=before,
            after=_sheet_summary(sheet),
            reason=reason.strip(),
        )
    return sheet


def resolve_scoresheet(sheet: Scoresheet, user: Actor, reason: str = "") -> Change:
    """Take a flagged scoresheet off the dashboard: the director has dealt with it."""
    with transaction.atomic():
        sheet = (
            Scoresheet.objects.select_for_update(of=("self",))
            .select_related("game__division")
            .get(pk=sheet.pk)
        )
        if not sheet.flagged or sheet.resolved:
            raise EntryError(gettext("The scoresheet is not flagged."))
        before = _sheet_summary(sheet)
        sheet.resolved = True
        sheet.save(update_fields=["resolved"])
        return audit.record(
            sheet.game.division,
            Change.Action.RESOLVE,
            actor=user,
            game=sheet.game,
            scoresheet=sheet,
            before=before,
            after=_sheet_summary(sheet),
            reason=reason.strip(),
        )


def release_scoresheet(sheet: Scoresheet, user: Actor, reason: str = "") -> Change:
    """Publish a held scoresheet anyway (`Scoresheet.held`): the public pages show it, with
    its findings."""
    with transaction.atomic():
        sheet = (
            Scoresheet.objects.select_for_update(of=("self",))
            .select_related("game__division")
            .get(pk=sheet.pk)
        )
        if not sheet.held:
            raise EntryError(_("The scoresheet is not held from the public pages."))
        before = _sheet_summary(sheet)
        sheet.released = True
        sheet.save(update_fields=["released"])
        return audit.record(
            sheet.game.division,
            Change.Action.RELEASE,
            actor=user,
            game=sheet.game,
            scoresheet=sheet,
            before=before,
            after=_sheet_summary(sheet),
            reason=reason.strip() or _("published with its findings"),
        )


def _last_totals(record: gcg.GameRecord) -> dict[str, int]:
    totals: dict[str, int] = {}
    for event in record.events:
        totals[event.nick] = event.total
    return totals


def match_game(
    division: Division, data: str | bytes, round_number: int | None = None
) -> tuple[Game | None, list[Game]]:
    """The game a record is of, by its players' names and nicks, and the candidates found.

    Where the same two players met in several rounds, a game whose entered result equals the
    record's final totals, else the only one without a scoresheet, is taken; else none is.
    """
    record = gcg.parse(data)
    if len(record.players) != 2:
        return None, []
    players = list(division.players.all())
    sides = [
        {p.pk for p in players if name_matches(p.name, rp.nick, rp.name)} for rp in record.players
    ]
    games = division.games.filter(player2__isnull=False).select_related("player1", "player2")
    if round_number:
        games = games.filter(round=round_number)
    candidates = [
        g
        for g in games.filter(player1__in=sides[0] | sides[1], player2__in=sides[0] | sides[1])
        if (g.player1_id in sides[0] and g.player2_id in sides[1])
        or (g.player1_id in sides[1] and g.player2_id in sides[0])
    ]
    if len(candidates) == 1:
        return candidates[0], candidates
    totals = sorted(_last_totals(record).values())
    same = [g for g in candidates if g.has_result and sorted([g.score1, g.score2]) == totals]
    if len(same) == 1:
        return same[0], candidates
    bare = [g for g in candidates if not g.scoresheets.exists()]
    if len(bare) == 1:
        return bare[0], candidates
    return None, candidates


def scoresheet_header(game: Game) -> str:
    """The #player lines a typed scoresheet starts with: who went first is #player1."""
    players = [game.player1] + ([game.player2] if game.player2 else [])
    if game.first == 2 and len(players) == 2:
        players.reverse()
    lines = []
    nicks: list[str] = []
    for i, p in enumerate(players, 1):
        given = p.name.split(",", 1)[1] if "," in p.name else p.name  # "Last, First" → First
        nick = re.sub(r"[^\w-]", "", (given.split() or [""])[0]) or f"p{p.number}"
        if nick in nicks:
            nick = f"{nick}{p.number}"
        nicks.append(nick)
        lines.append(f"#player{i} {nick} {p.name}\n")
    return "".join(lines)
