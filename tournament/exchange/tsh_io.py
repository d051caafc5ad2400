"""TSH's files in and out: an event imported from its config.tsh and `.t` files, each checked
against Spread's bounds first; an event written back as a `.t` file per division and a config.tsh,
atomically. The formats themselves are read and written by the pure `interchange.tsh`."""

from __future__ import annotations

import datetime
import os
import re
import tempfile
from dataclasses import replace
from pathlib import Path

from django.contrib.auth.models import User
from django.db import DatabaseError, models, transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext

from tournament.core import audit, tsh_settings
from tournament.core.sentences import isolate
from tournament.engine import pairing
from tournament.engine import ratings as ratings_engine
from tournament.interchange import files, tsh
from tournament.models import Change, Division, Game, Player, Tournament
from tournament.people import services as people


class ImportError_(ValueError):
    """A file that cannot be imported; the message says where and why."""


# Limits on numbers read from a tsh file, checked before anything is saved: beyond them a value
# is a typing slip or a hostile file, and would overflow a column. Ratings may be as large as
# their column holds (Woogles exports its own, up to nine digits); no Scrabble score or spread
# reaches six digits.
MAX_RATING = 2**31 - 1


MAX_SCORE = 99_999


MAX_ROUNDS = 1_000


MAX_COUNT = 1_000_000  # lifetime games, table numbers, prize bands


def _lifetime_games(player: tsh.TshPlayer) -> int | None:
    values = player.extra("lifeg")
    return tsh.whole_number(values[0]) if values else None


def _first_second(player: tsh.TshPlayer, round_index: int) -> int:
    """tsh's `p12` for a round: 1 first, 2 second; anything else is not known."""
    values = player.extra("p12") or []
    if round_index < len(values) and values[round_index] in ("1", "2"):
        return int(values[round_index])
    return 0


def _max_length(model: type[models.Model], name: str) -> int:
    field = model._meta.get_field(name)
    assert isinstance(field, models.Field) and field.max_length is not None
    return field.max_length


# Time penalties in a `.t` file: tsh's own `penalty` field (`Player::Penalty`, "the spread
# penalty applied to the player" in a round), one value a round, stored negative. tsh adds it
# to the spread on top of the scores, which it keeps as played: so the file's score is the
# scoresheet's before the penalty, and Spread's counted score is that plus the (negative)
# value. Written only for a player who has a penalty; a file without keeps its bytes.
TIME_PENALTY = "penalty"
MAX_TIME_PENALTY = 1000


def _check_tfile(tfile: tsh.TFile, source: str) -> None:
    """Every value of the file fits its column and its range, or TshFormatError names the line
    (checked before saving: a database refuses some of these only at the end, and some it
    takes and the pages then fail on)."""

    def refuse(line: int, message: str) -> None:
        raise tsh.TshFormatError(line, message, source=source)

    for p in tfile.players:
        for what, text, model, column in (
            ("the name", p.name, Player, "name"),
            ("the rating", p.rating, Player, "rating_text"),
            ("the team", " ".join(p.extra("team") or []), Player, "team"),
        ):
            limit = _max_length(model, column)
            if len(text) > limit:
                refuse(
                    p.line,
                    gettext("%(what)s is %(count)s characters long; at most %(limit)s are kept")
                    % {"what": what, "count": len(text), "limit": limit},
                )
        if p.rating_value > MAX_RATING:
            refuse(
                p.line,
                gettext("the rating %(rating)s is above %(highest)s, the highest accepted")
                % {"rating": p.rating, "highest": MAX_RATING},
            )
        if len(p.opponents) > MAX_ROUNDS or len(p.scores) > MAX_ROUNDS:
            refuse(p.line, gettext("more than %(most)s rounds") % {"most": MAX_ROUNDS})
        for score in p.scores:
            if score is not None and abs(score) > MAX_SCORE:
                refuse(
                    p.line,
                    gettext("the score %(score)s is beyond ±%(most)s")
                    % {"score": score, "most": MAX_SCORE},
                )
        lifeg = _lifetime_games(p)
        if lifeg is not None and not 0 <= lifeg <= MAX_COUNT:
            refuse(
                p.line,
                gettext("lifeg %(lifeg)s is not 0 to %(most)s")
                % {"lifeg": lifeg, "most": MAX_COUNT},
            )
        for board in p.extra_numbers("board") or []:
            if board is not None and not 0 <= board <= MAX_COUNT:
                refuse(
                    p.line,
                    gettext("board %(board)s is not 0 to %(most)s")
                    % {"board": board, "most": MAX_COUNT},
                )
        for points in p.extra_numbers(TIME_PENALTY) or []:
            if points is not None and not -MAX_TIME_PENALTY <= points <= MAX_TIME_PENALTY:
                refuse(
                    p.line,
                    gettext("the penalty %(points)s is beyond ±%(most)s")
                    % {"points": points, "most": MAX_TIME_PENALTY},
                )


def check_division_name(name: str) -> str | None:
    """Why `name` cannot name a division (its URLs could not be built), or None if it can."""
    limit = _max_length(Division, "name")
    if not name.strip():
        return gettext("a division needs a name")
    if len(name) > limit:
        return gettext("the division name is %(count)s characters long; at most %(limit)s") % {
            "count": len(name),
            "limit": limit,
        }
    if "/" in name or "\\" in name or name.strip(".") == "":
        return gettext("a division name cannot be %(name)r (no '/' or '\\', and not only dots)") % {
            "name": name
        }
    return None


def _check_config(config: tsh.ConfigFile, source: str) -> None:
    """The divisions and the settings Spread stores fit their columns and ranges."""

    def refuse(line: int, message: str) -> None:
        raise tsh.TshFormatError(line, message, source=source)

    seen: dict[str, tsh.DivisionLine] = {}
    for line in config.divisions:
        if problem := check_division_name(line.name):
            refuse(line.number, problem)
        if len(line.file) > _max_length(Division, "tsh_file"):
            refuse(
                line.number,
                gettext("the file name is longer than %(limit)s")
                % {"limit": _max_length(Division, "tsh_file")},
            )
        # tsh matches division names without regard to case, and so does Spread.
        other = seen.get(line.name.casefold())
        if other is not None:
            refuse(
                line.number,
                gettext(
                    "division %(name)r is division %(name2)r of line %(number)s again "
                    "(names are the same in any case)"
                )
                % {"name": line.name, "name2": other.name, "number": other.number},
            )
        seen[line.name.casefold()] = line
    ranges = {
        "max_rounds": (1, MAX_ROUNDS),
        "bye_spread": (-MAX_SCORE, MAX_SCORE),
        "spread_cap": (0, MAX_SCORE),
        "standings_spread_cap": (0, MAX_SCORE),
        "gibson_spread": (0, MAX_SCORE),
        "prize_bands": (1, MAX_COUNT),
    }
    for setting in config.settings:
        if setting.key not in ranges:
            continue
        low, high = ranges[setting.key]
        value = setting.value
        for number in value if isinstance(value, list) else [value]:
            if isinstance(number, (int, float)) and not low <= number <= high:
                shown = (
                    str(number) if len(str(number)) <= 12 else f"a {len(str(number))}-digit number"
                )
                refuse(
                    setting.number,
                    gettext("config %(key)s: %(shown)s is not %(low)s to %(high)s")
                    % {"key": setting.key, "shown": shown, "low": low, "high": high},
                )
    title = config.value("event_name")
    if isinstance(title, str) and len(title) > _max_length(Tournament, "name"):
        event_name = config.setting("event_name")
        assert event_name is not None
        refuse(
            event_name.number,
            gettext("config event_name is longer than %(limit)s")
            % {"limit": _max_length(Tournament, "name")},
        )


@transaction.atomic
def import_division(tournament: Tournament, name: str, tfile: tsh.TFile, **settings) -> Division:
    """A division and its players and games from a read `.t` file."""
    # An imported event keeps the rule it was read under: a round's byes count once any of its
    # games has a result (the results of a finished tsh event are the same under every rule).
    settings.setdefault("byes_count", "any")
    division = Division.objects.create(tournament=tournament, name=name, **settings)
    players = {}
    for p in tfile.players:
        # A name's `:XT<digits>` is the player's cross-tables id, not their name (written back).
        name, xtid, _ = tsh.player_xtid(p)
        players[p.number] = Player.objects.create(
            division=division,
            number=p.number,
            name=name,
            xtid=xtid,
            rating=int(p.rating_value),
            rating_text=p.rating,
            lifetime_games=_lifetime_games(p),
            team=" ".join(p.extra("team") or []),
            withdrawn_from_round=p.withdrawn_from_round,
            tsh_extras=[
                [e.key, e.values]
                for e in p.extras
                if e.key != TIME_PENALTY or not _time_penalties_of(p)
            ],
        )
    games = []
    for p in tfile.players:
        boards = p.extra_numbers("board") or []
        for index, opponent in enumerate(p.opponents):
            if opponent is None:
                continue
            score = p.scores[index] if index < len(p.scores) else None
            round_number = index + 1
            board = boards[index] if index < len(boards) else None
            if opponent == tsh.BYE:
                # A bye paired but not scored yet is kept, so that exporting gives it back.
                kind = Game.FORFEIT if score is not None and score < 0 else Game.BYE
                games.append(
                    Game(
                        division=division,
                        round=round_number,
                        table=board,
                        player1=players[p.number],
                        score1=score,
                        kind=kind,
                    )
                )
                continue
            if opponent < p.number:
                continue  # the game is made from the lower-numbered player's side
            other = tfile.player(opponent)
            their = other.scores[index] if index < len(other.scores) else None
            first = _first_second(p, index)
            games.append(
                Game(
                    division=division,
                    round=round_number,
                    table=board,
                    player1=players[p.number],
                    player2=players[opponent],
                    score1=score,
                    score2=their,
                    first=first,
                )
            )
    _time_penalties(games, tfile)
    Game.objects.bulk_create(games)
    return division


def _time_penalties_of(p: tsh.TshPlayer) -> list[int] | None:
    """A player's `penalty` field as time penalties, a value a round (points, ≥ 0), when every
    value is one: 0 or below, and in a round the player played. Else None, and the field is
    kept as it was read and written back, counted by nothing (as a spread penalty on a bye)."""
    values = p.extra_numbers(TIME_PENALTY)
    if values is None:
        return None
    points = []
    for index, value in enumerate(values):
        played = index < len(p.opponents) and (p.opponents[index] or 0) > 0
        scored = index < len(p.scores) and p.scores[index] is not None
        if value is None or value > 0 or (value < 0 and not (played and scored)):
            return None
        points.append(-value)
    return points


def _time_penalties(games: list[Game], tfile: tsh.TFile) -> None:
    """Each played game's time penalties from its players' `penalty` fields, taken off the
    scores as the file writes them (before the penalty), so that the scores are as they count."""
    given = {p.number: _time_penalties_of(p) or [] for p in tfile.players}

    def points(number: int, round_number: int) -> int:
        values = given.get(number) or []
        return values[round_number - 1] if round_number <= len(values) else 0

    for game in games:
        if game.player2 is None or game.kind != Game.PLAYED or not game.has_result:
            continue
        game.penalty1 = points(game.player1.number, game.round)
        game.penalty2 = points(game.player2.number, game.round)
        game.score1 = (game.score1 or 0) - game.penalty1
        game.score2 = (game.score2 or 0) - game.penalty2


def _schedule(config: tsh.ConfigFile, division: str) -> list[dict]:
    """The division's `autopair` lines as a pairing schedule. A command Spread does not pair
    by leaves the schedule empty (the lines stay in the kept config.tsh)."""
    try:
        return pairing.schedule_from_autopair(config.autopairs, division)
    except ValueError:
        return []


def _unique_slug(base: str) -> str:
    base = base[: _max_length(Tournament, "slug") - 8].strip("-")  # room for "-n"
    slug = base or "tournament"
    if slug in Tournament.RESERVED_SLUGS:  # the desk's own pages, e.g. /desk/people/
        base = slug = f"{slug}-event"
    n = 2
    while Tournament.objects.filter(slug=slug).exists():
        slug = f"{base}-{n}"
        n += 1
    return slug


def _rating_system(config: tsh.ConfigFile) -> str | None:
    """The system Spread rates by for `config rating_system`: that one if Spread computes it,
    else None (the default, with a note on every ratings page and report)."""
    asked = config.value("rating_system")
    if isinstance(asked, str) and asked.strip().lower() in ratings_engine.rating_system_names():
        return asked.strip().lower()
    return None


def _config_beside(path: Path) -> tsh.ConfigFile | None:
    """The config.tsh in a lone `.t` file's folder, when there is one that reads; else None."""
    try:
        return tsh.read_config(
            tsh.decode(files.read_beside(path.parent, "config.tsh"))[0], source="config.tsh"
        )
    except (files.FileRefused, tsh.TshFormatError, ValueError, OSError):
        return None


def _stamp_day(path: Path) -> datetime.date | None:
    """The day (in the site's time zone) a file was last modified; None if it cannot be told."""
    try:
        seconds = os.stat(path).st_mtime
        moment = datetime.datetime.fromtimestamp(seconds, tz=datetime.UTC)
    except (OSError, ValueError, OverflowError):
        return None
    return timezone.localtime(moment).date()


def _event_dates(
    config: tsh.ConfigFile | None, stamped: list[Path], notes: list[str] | None
) -> tuple[datetime.date | None, datetime.date | None]:
    """The event's first and last day: from config.tsh's `event_date` when it reads as a date,
    else from the days the files were last modified (the earliest and the latest); a note says
    when an `event_date` could not be read."""
    text = config.value("event_date") if config is not None else None
    if isinstance(text, str) and text.strip():
        found = tsh.event_dates(text)
        if found is not None:
            return found
        if notes is not None:
            notes.append(
                gettext(
                    "config event_date %(text)r is not a date Spread reads: the dates are the "
                    "files' modification days; change them at the desk if they are not right."
                )
                % {"text": text}
            )
    days = sorted(day for day in (_stamp_day(p) for p in stamped) if day is not None)
    if not days:
        return None, None
    return days[0], days[-1]


def _directed_by(tournament: Tournament, director: User | None, source: str) -> None:
    """The user who imported the event made its director, logged as the event's creation."""
    if director is None:
        return
    tournament.directors.add(director)
    audit.record(
        tournament,
        Change.Action.CREATE,
        actor=director,
        after={"tournament": tournament.name, "imported": source},
        reason=f"{isolate(tournament.name)} imported from {isolate(source)} by "
        f"{isolate(director.get_username())}",
    )


def no_name_refusal(file_name: str) -> str:
    return gettext(
        "%(file)s: a .t file alone does not say its event's name, and no config.tsh beside it "
        "does (event_name): give the event a name."
    ) % {"file": file_name}


@transaction.atomic
def import_tsh(
    path: str | Path,
    slug: str | None = None,
    name: str | None = None,
    *,
    director: User | None = None,
    notes: list[str] | None = None,
    folder_name: str | None = None,
) -> Tournament:
    """A tournament from a `config.tsh` (its divisions and settings) or a single `.t` file.

    A config.tsh may carry its `.t` files inside, each between `#begin_file name=X.t` and
    `#end_file name=X.t` (tsh's archive, and how Woogles exports an event); a division whose
    file is not carried is read from the file beside it. Everything is checked before it is
    saved; any error leaves nothing saved and says where in one line.

    The event is called `name`, else config.tsh's `event_name` (for a lone `.t`, the
    config.tsh beside it), else a config's folder's name (`folder_name` instead when given;
    "" refuses); a lone `.t` without either is refused, never named after its file.
    Its dates are config.tsh's `event_date`, else the days its files were last modified.
    `director`, a user, becomes its director (logged); `notes` receives what the import chose.
    """
    path = Path(path)
    if slug is not None and Tournament.objects.filter(slug=slug).exists():
        raise ImportError_(f"the slug {slug!r} is already taken by another tournament")
    try:
        if path.suffix == ".t" or path.name.endswith(".t"):
            tfile = tsh.read_t_file(path)
            _check_tfile(tfile, path.name)
            if problem := check_division_name(path.stem):
                raise ImportError_(f"{path.name}: {problem}")
            beside = _config_beside(path)
            title = name or (beside.value("event_name") if beside is not None else None)
            if not isinstance(title, str) or not title.strip():
                raise ImportError_(no_name_refusal(path.name))
            title = title.strip()[: _max_length(Tournament, "name")]
            start, end = _event_dates(beside, [path], notes)
            tournament = Tournament.objects.create(
                name=title,
                slug=slug or _unique_slug(slugify(title)),
                start_date=start,
                end_date=end,
            )
            import_division(tournament, path.stem, tfile, tsh_file=path.name)
            _directed_by(tournament, director, path.name)
            people.link_tournament(tournament)
            return tournament
        config = tsh.read_config_file(path)
        _check_config(config, path.name)
        folder = path.parent
        tfiles = []
        stamped = []
        for line in config.divisions:
            carried = config.attachment(line.file)
            if carried is not None:
                source = f"{path.name} ({line.file})"
                tfile = tsh.read_t(carried.text, source=source, first_line=carried.first_line)
                stamped.append(path)
            else:
                source = line.file
                try:
                    data = files.read_beside(folder, line.file)
                except files.FileRefused as refused:
                    raise ImportError_(
                        f"{path.name}: line {line.number}: {line.text.strip()}: {refused.reason}"
                    ) from refused
                tfile = tsh.read_t_data(data, source=source)
                stamped.append(folder / line.file)
            _check_tfile(tfile, source)
            tfiles.append(tfile)
        title = name or config.value("event_name")
        if not title and folder_name == "":
            raise ImportError_(
                gettext("%(file)s does not name its event (event_name): give the event a name.")
                % {"file": path.name}
            )
        title = title or folder_name or folder.name
        start, end = _event_dates(config, stamped or [path], notes)
        tournament = Tournament.objects.create(
            name=str(title),
            slug=slug or _unique_slug(slugify(str(title))),
            start_date=start,
            end_date=end,
            # The .t files are the divisions now: an export writes them beside the config.
            tsh_config=tsh.write_config(config.without_attachments()),
        )
        caps = config.standings_spread_cap or config.spread_cap
        system = _rating_system(config)
        for position, (line, tfile) in enumerate(zip(config.divisions, tfiles, strict=True)):
            import_division(
                tournament,
                line.name,
                tfile,
                position=position,
                tsh_file=line.file,
                bye_spread=config.effective_bye_spread,
                planned_rounds=config.max_rounds,
                spread_cap=[caps] if isinstance(caps, int) else caps,
                prize_bands=config.prize_bands(line.name),
                prizes=config.prizes(line.name),
                rating_classes=config.classes(line.name),
                gibson=tsh_settings.perl_true(config.value("gibson")),
                gibson_spread=config.gibson_spread,
                pairing_schedule=_schedule(config, line.name),
                **({"rating_system": system} if system else {}),
            )
        _directed_by(tournament, director, path.name)
        people.link_tournament(tournament)
        return tournament
    except tsh.TshFormatError as error:
        # A config value is read when asked for, by which time the line knows no file name.
        source = error.source or path.name
        raise ImportError_(f"{source}: line {error.line}: {error.message}") from error
    except files.FileRefused as refused:
        raise ImportError_(str(refused)) from refused
    except OSError as error:
        raise ImportError_(f"cannot read {error.filename}: {error.strerror}") from error
    except DatabaseError as error:
        # The transaction is rolled back; the database's own message may run over lines.
        reason = (str(error).strip().splitlines() or [type(error).__name__])[0]
        raise ImportError_(
            f"the database failed during the import, nothing was saved: {reason}"
        ) from error


def tsh_name(player: tsh.TshPlayer, latin: str = "") -> str:
    """The player's name as a `.t` line can hold it so that tsh (and Spread) read it back:
    the name itself when it can; else with line breaks and runs of spaces made one space,
    a number ending it joined on with `-` ("Smith 2" → "Smith-2": tsh would read a number
    after a space as the rating), a one-letter name given a `.`; a name that still cannot be
    written (one starting with `#`, or with `;` before a number) is written with its letters,
    digits, spaces and `.,'-` only, or failing that as its name in Latin letters (`latin`)."""

    def fits(name: str) -> bool:
        try:
            tsh.format_player(replace(player, name=name, gap=None))
        except ValueError:
            return False
        return True

    def mended(name: str) -> str:
        words = name.split()
        while len(words) > 1 and re.fullmatch(r"[\d.+]+", words[-1]):
            words[-2:] = [f"{words[-2]}-{words[-1]}"]
        name = " ".join(words)
        return name + "." if len(name) == 1 else name

    def plain(name: str) -> str:
        return "".join(ch if ch.isalnum() or ch in ".,'-" else " " for ch in name).strip(".,'- ")

    if fits(player.name):
        return player.name
    for name in (player.name, plain(player.name), latin, plain(latin)):
        if name.strip() and fits(mended(name)):
            return mended(name)
    # Not reached by any name tried (tests/tournament/players/test_latin_names.py): a name without a
    # letter or digit fits once a `.` is added, and the plain one fits when it has one.
    return player.name


def _extras_with_xtid(p: Player) -> list[tsh.ExtraField]:
    """The player's `.t` fields, an `xtid` field among them holding the id as it is now (taken
    out when the id is); an id the file gave as a name's `:XT` suffix is written there."""
    extras = []
    for key, values in p.tsh_extras:
        if key == "xtid":
            if p.xtid is None:
                continue
            if tsh.whole_number(values[0] if values else "") != p.xtid:
                values = [str(p.xtid)]
        extras.append(tsh.ExtraField(key, list(values)))
    return extras


def division_tfile(division: Division, renamed: list[str] | None = None) -> tsh.TFile:
    """The division as a `.t` file: every player's line with its opponents, scores and fields.
    A name a `.t` line cannot hold is written as `tsh_name` gives it, and said in `renamed`."""
    players = list(division.players.all())
    number_of = {p.pk: p.number for p in players}
    rounds = max((g.round for g in division.games.all()), default=0)
    opponents: dict[int, list[int | None]] = {p.pk: [None] * rounds for p in players}
    scores: dict[int, list[int | None]] = {p.pk: [None] * rounds for p in players}
    penalties: dict[int, list[int]] = {p.pk: [0] * rounds for p in players}
    for g in division.games.all():
        i = g.round - 1
        if g.player2_id is not None:
            penalties[g.player1_id][i] = g.penalty1
            penalties[g.player2_id][i] = g.penalty2
        if g.player2_id is None:
            opponents[g.player1_id][i] = tsh.BYE
            scores[g.player1_id][i] = g.score1
        else:
            opponents[g.player1_id][i] = number_of[g.player2_id]
            opponents[g.player2_id][i] = number_of[g.player1_id]
            # tsh keeps the scores before a time penalty (`TIME_PENALTY`).
            scores[g.player1_id][i] = _before_penalty(g.score1, g.penalty1)
            scores[g.player2_id][i] = _before_penalty(g.score2, g.penalty2)
    lines: list[tsh.TshLine] = []
    for p in players:
        opp = opponents[p.pk]
        sc = scores[p.pk]
        while sc and sc[-1] is None:  # rounds paired but not played keep their opponents only
            sc.pop()
        while opp and opp[-1] is None:
            opp.pop()
        line = tsh.TshPlayer(
            number=p.number,
            name=p.name,
            rating=p.rating_text or str(p.rating),
            opponents=opp,
            scores=sc,
            extras=_with_time_penalties(_extras_with_xtid(p), penalties[p.pk][: len(opp)]),
        )
        name = tsh_name(line, p.name_in_latin)
        if name != p.name and renamed is not None:
            renamed.append(
                gettext("division %(name)s, player %(number)s: %(name2)r written as %(name3)r")
                % {"name": division.name, "number": p.number, "name2": p.name, "name3": name}
            )
        if not any(e.key == "xtid" for e in line.extras):
            name = tsh.with_xtid(name, p.xtid)  # as the roster downloads write it
        line.name = name
        lines.append(line)
    return tsh.TFile(lines)


def _before_penalty(score: int | None, penalty: int) -> int | None:
    return None if score is None else score + penalty


def _with_time_penalties(extras: list[tsh.ExtraField], points: list[int]) -> list[tsh.ExtraField]:
    """A player's kept fields, and their time penalties as tsh's `penalty` field (negative, a
    value a round) when they have any, in the keys' order as tsh writes them. A `penalty` field
    kept as it was read gives way to the penalties entered since."""
    if any(points):
        extras = [e for e in extras if e.key != TIME_PENALTY]
        at = next((i for i, e in enumerate(extras) if e.key > TIME_PENALTY), len(extras))
        extras.insert(at, tsh.ExtraField(TIME_PENALTY, [str(-n) for n in points]))
    return extras


def _write_atomically(path: Path, data: bytes) -> None:
    """Write `path` whole or not at all: a reader never sees half a file."""
    with tempfile.NamedTemporaryFile(dir=path.parent, prefix=f".{path.name}.", delete=False) as f:
        f.write(data)
    try:
        os.replace(f.name, path)
    except OSError:
        os.unlink(f.name)
        raise


def _inside(file: str) -> Path:
    """A division's file as config.tsh names it, kept inside the export's folder: a path going
    out of it (`../x.t`, `/x.t`) is cut to its file name."""
    path = Path(file)
    return Path(path.name) if path.is_absolute() or ".." in path.parts else path


def _prizes_as_set(config_text: str, divisions: list[Division]) -> str:
    """config.tsh with the `prize` lines of each division whose prizes were changed at the desk
    written afresh; a file whose prizes are as imported is written back as it was."""
    try:
        config = tsh.read_config(config_text)
    except tsh.TshFormatError:
        config = None
    changed = {
        d.name: d.prizes or []
        for d in divisions
        if config is None or config.prizes(d.name) != (d.prizes or [])
    }
    return tsh.with_prizes(config_text, changed) if changed else config_text


def _classes_as_set(config_text: str, divisions: list[Division]) -> str:
    """config.tsh with the `classes` line of each division whose number of classes was changed
    at the desk written afresh (as `_prizes_as_set` does for prizes)."""
    try:
        config = tsh.read_config(config_text)
    except tsh.TshFormatError:
        config = None
    changed = {
        d.name: d.rating_classes
        for d in divisions
        if (config.classes(d.name) if config else 0) != d.rating_classes
    }
    return tsh.with_classes(config_text, changed) if changed else config_text


def _config_text(tournament: Tournament, divisions: list[Division]) -> str:
    config_text = tournament.tsh_config or "".join(
        f"division {d.name} {_t_name(d)}\n" for d in divisions
    )
    return _classes_as_set(_prizes_as_set(config_text, divisions), divisions)


def _t_name(division: Division) -> str:
    return str(_inside(division.tsh_file or f"{slugify(division.name) or 'division'}.t"))


def tsh_archive(tournament: Tournament, renamed: list[str] | None = None) -> str:
    """The whole event in one file, as tsh's own archive writes it: config.tsh with each
    division's `.t` file carried inside between `#begin_file name=X.t` and `#end_file
    name=X.t` (`import_tsh` reads it back). What a NASPA submission is made from."""
    divisions = list(tournament.divisions.all())
    text = _config_text(tournament, divisions)
    if text and not text.endswith("\n"):
        text += "\n"
    parts = [text]
    for division in divisions:
        name = _t_name(division)
        body = tsh.write_t(division_tfile(division, renamed)).lstrip("\ufeff")
        if body and not body.endswith("\n"):
            body += "\n"
        parts.append(f"#begin_file name={name}\n{body}#end_file name={name}\n")
    return "".join(parts)


def export_tsh(
    tournament: Tournament, folder: str | Path, renamed: list[str] | None = None
) -> list[Path]:
    """Write `config.tsh` and a `.t` file per division into `folder`; the files written. Names
    a `.t` line cannot hold as they are are written as `tsh_name` gives them, listed in
    `renamed`. A division's file is written where config.tsh names it, inside `folder`."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    divisions = list(tournament.divisions.all())
    for division in divisions:
        target = folder / _inside(division.tsh_file or f"{slugify(division.name) or 'division'}.t")
        target.parent.mkdir(parents=True, exist_ok=True)
        tfile = division_tfile(division, renamed)
        _write_atomically(target, tsh.write_t(tfile).encode(tfile.encoding))
        written.append(target)
    config_text = _config_text(tournament, divisions)
    config_path = folder / "config.tsh"
    _write_atomically(config_path, config_text.encode("utf-8"))
    written.append(config_path)
    return written
