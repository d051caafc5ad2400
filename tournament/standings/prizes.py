"""Prizes and rating classes of a division as the read model reads them: the players' classes,
their ranks within their class, who takes each prize (`engine/prizes.py` decides), and the
certificates of the prize-winners with the signed codes that confirm them. The reports (the
prize table, the ceremony's slides, the certificates' pages) build on these."""

from __future__ import annotations

import base64
import re
from dataclasses import dataclass, replace
from typing import Any

from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.translation import gettext, gettext_lazy

from tournament.engine import prizes as engine
from tournament.engine.text import ordinal
from tournament.interchange import tsh
from tournament.models import Division, Game, Player
from tournament.standings import keys, read_model
from tournament.standings import stamps as division_stamps
from tournament.standings.cache_once import get_or_compute
from tournament.standings.rows import Row
from tournament.standings.stamps import DivisionStamps


def own_class(player: Player) -> str:
    """The `class` field of the player's .t line, if any."""
    found = ""
    for key, values in player.tsh_extras or []:
        if key == "class" and values:
            found = str(values[0])
    return found


def bands(division: Division) -> list[tuple[str, int]]:
    return [(str(name), int(lowest)) for name, lowest in division.class_bands or []]


def by_rating_order(division: Division, players: list[Player] | None = None) -> dict[int, str]:
    """tsh's `classes DIV N` (`division.rating_classes`): the classes of the division's active
    players by rating order (`engine.classes_by_rating`); empty when the division has none, or
    has rating bands (which come first)."""
    if not division.rating_classes or division.class_bands:
        return {}
    everyone = players if players is not None else list(division.players.all())
    active = [(p.pk, p.rating) for p in everyone if p.withdrawn_from_round is None]
    found = engine.classes_by_rating(active, division.rating_classes)
    return {int(str(k)): v for k, v in found.items()}


def player_class(division: Division, player: Player, ordered: dict[int, str] | None = None) -> str:
    """The player's class: by the division's rating bands, else by rating order (tsh's
    `classes` line; `ordered` from `by_rating_order` if the caller has it), else their own."""
    if not division.class_bands and division.rating_classes:
        if ordered is None:
            ordered = by_rating_order(division)
        return ordered.get(player.pk, "")
    return engine.rating_class(player.rating, bands(division), own_class(player))


def has_classes(division: Division, players: list[Player] | None = None) -> bool:
    if division.class_bands or division.rating_classes:
        return True
    everyone = players if players is not None else list(division.players.all())
    return any(own_class(p) for p in everyone)


@dataclass(frozen=True)
class ClassRow:
    row: Row
    player_class: str
    class_rank: int | None  # None: withdrawn, not ranked


def class_standings(
    division: Division,
    after: int | None = None,
    public: bool = False,
    rows: list[Row] | None = None,
    *,
    stamps: DivisionStamps,
) -> list[ClassRow]:
    """The standings (`rows` if the caller has them, else read under the request's `stamps`)
    with each player's class and rank within it, in the standings' order."""
    if rows is None:
        rows = read_model.division_standings(division, after, public=public, stamps=stamps)
    ordered = by_rating_order(division)
    contenders = _contenders(division, rows, ordered)
    ranks = engine.class_ranks(contenders)
    classes = {c.id: c.player_class for c in contenders}
    return [
        ClassRow(
            r,
            classes.get(r.player.pk, player_class(division, r.player, ordered)),
            ranks.get(r.player.pk),
        )
        for r in rows
    ]


def _contenders(
    division: Division, rows: list[Row], ordered: dict[int, str] | None = None
) -> list[engine.Contender]:
    if ordered is None:
        ordered = by_rating_order(division)
    return [
        engine.Contender(r.player.pk, r.name, r.rank, player_class(division, r.player, ordered))
        for r in rows
        if r.rank is not None
    ]


LAYOUT = engine.LAYOUT
NAMES = {
    "highgame": gettext_lazy("high game"),
    "highwin": gettext_lazy("high win"),
    "highloss": gettext_lazy("high loss"),
    "lowwin": gettext_lazy("low win"),
    "lowloss": gettext_lazy("low loss"),
    "tuffluck": gettext_lazy("Tuff Luck"),
    "luckystiff": gettext_lazy("Lucky Stiff"),
    "roundrecord": gettext_lazy("best record"),
    "brlh": gettext_lazy("best record of the lower half"),
    "spread": gettext_lazy("most spread"),
    "overseed": gettext_lazy("most places over seed"),
    "overexp": gettext_lazy("most wins over expectation"),
    "highratingchange": gettext_lazy("highest rating gain"),
    "handicap": gettext_lazy("handicap"),
    "upset": gettext_lazy("biggest upset"),
    "totalteam": gettext_lazy("best team"),
}


def prize_name(prize: engine.Prize, bands: list[int] | None = None) -> str:
    """A prize as the prize table, the slides and the certificates name it: `2nd place (band
    2–3)`, `1st place, class B`, `1st Tuff Luck`, `1st best record, rounds 1–7`."""
    place = prize.place
    if prize.kind in LAYOUT:
        return prize.value
    if prize.kind == "rank" and isinstance(place, int):
        label = gettext("%(ordinal)s place") % {"ordinal": ordinal(place)}
        if prize.player_class:
            return label + gettext(", class %(class)s") % {"class": prize.player_class}
        ends = sorted(bands or [])
        band = next((b for b in ends if place <= b), None)
        if band is not None:
            first = max([b for b in ends if b < place], default=0) + 1
            if band > first:
                label += gettext(" (band %(first)s–%(last)s)") % {"first": first, "last": band}
        return label
    name = str(NAMES.get(prize.kind, prize.kind))
    label = f"{ordinal(place)} {name}" if isinstance(place, int) else f"{name} {place}".strip()
    if prize.first or prize.last:
        first, last = prize.first or 1, prize.last
        if last is None:
            label += gettext(", from round %(first)s") % {"first": first}
        elif first == last:
            label += gettext(", round %(round)s") % {"round": first}
        else:
            label += gettext(", rounds %(first)s–%(last)s") % {"first": first, "last": last}
    if prize.player_class:
        label += gettext(", class %(class)s") % {"class": prize.player_class}
    return label


def prize_of(item: dict[str, Any]) -> engine.Prize:
    """A prize as Division.prizes keeps it (`tsh.prize_fields`), as the engine takes it."""

    def number(key: str) -> int | None:
        value = item.get(key)
        return value if isinstance(value, int) and value > 0 else None

    refused = ""
    if item.get("memberfile"):
        refused = gettext(
            "memberfile= is not read (a file named in config.tsh): list the players with members="
        )
    return engine.Prize(
        str(item.get("kind", "rank")),
        item.get("place", ""),
        str(item.get("value", "")),
        str(item.get("class", "") or ""),
        str(item.get("note", "")),
        first=number("first"),
        last=number("last"),
        rounds=number("rounds"),
        members=tuple(str(m) for m in item.get("members") or ()),
        exclusive=str(item.get("exclusive", "") or ""),
        order=number("order"),
        unrated_ok=bool(item.get("unratedok")),
        refused=refused,
    )


def _handicap(player: Player) -> int:
    for key, values in player.tsh_extras or []:
        if key == "handicap" and values:
            try:
                return int(str(values[0]))
            except ValueError:
                return 0
    return 0


@dataclass
class Inputs:
    """What the prize engine takes for a division after a round."""

    rows: list[Row]
    contenders: list[engine.Contender]
    games: list[engine.GameScore]
    earlier: dict[int, dict[Any, int]]


def inputs(
    division: Division,
    prizes: list[engine.Prize],
    after: int | None = None,
    public: bool = False,
    *,
    stamps: DivisionStamps,
) -> Inputs:
    """The standings, every result (both sides of a game), the new ratings when a prize needs
    them and the earlier standings a `brlh` needs, as every page computes them, under the
    request's `stamps`."""
    rows = read_model.division_standings(division, after, public=public, stamps=stamps)
    kinds = {p.kind for p in prizes}
    games = division.games.exclude(kind=Game.VOID).exclude(score1=None)
    if after is not None:
        games = games.filter(round__lte=after)
    if public:
        games = games.published()
    names = {r.player.pk: r.name for r in rows}
    scores = []
    for g in games.only("round", "player1_id", "player2_id", "score1", "score2", "kind"):
        if g.player2_id is None:
            # A bye or forfeit without an opponent: its spread counts in records only.
            spread = g.score1 or 0
            scores.append(engine.GameScore(g.player1_id, g.round, spread, 0, played=False))
            continue
        if g.score2 is None:
            continue
        played = g.kind == Game.PLAYED
        for me, them, mine, theirs in (
            (g.player1_id, g.player2_id, g.score1, g.score2),
            (g.player2_id, g.player1_id, g.score2, g.score1),
        ):
            scores.append(
                engine.GameScore(
                    me, g.round, mine, theirs, names.get(them, ""), them, played=played
                )
            )
    new_ratings: dict[int, int] = {}
    if "highratingchange" in kinds:
        new_ratings = {
            r.player.pk: r.after
            for r in read_model.division_ratings(division, after, public=public, stamps=stamps)
        }
    earlier: dict[int, dict[Any, int]] = {}
    for p in prizes:
        before = (p.first or 1) - 1
        if p.kind == "brlh" and before > 0 and before not in earlier:
            earlier[before] = {
                r.player.pk: r.rank
                for r in read_model.division_standings(
                    division, before, public=public, stamps=stamps
                )
                if r.rank is not None
            }
    ordered = by_rating_order(division)
    contenders = [
        engine.Contender(
            r.player.pk,
            r.name,
            r.rank,
            player_class(division, r.player, ordered),
            number=r.player.number,
            rating=r.player.rating,
            new_rating=new_ratings.get(r.player.pk),
            team=r.player.team,
            handicap=_handicap(r.player),
        )
        for r in rows
        if r.rank is not None
    ]
    return Inputs(rows, contenders, scores, earlier)


def awards(
    division: Division, after: int | None = None, public: bool = False, *, stamps: DivisionStamps
) -> tuple[list[engine.Award], dict[engine.PlayerId, Row]]:
    """Who takes each of the division's prizes after the round, in the order they are listed
    (`engine.listing`); and the standings' rows by player."""
    prizes = [prize_of(p) for p in division.prizes or []]
    given = inputs(division, prizes, after, public, stamps=stamps)
    found = engine.award(
        prizes,
        given.contenders,
        given.games,
        division.prizes_more_than_one,
        earlier_ranks=given.earlier,
        minimum_team=_minimum_team(division),
    )
    rows: dict[engine.PlayerId, Row] = {r.player.pk: r for r in given.rows}
    return engine.listing(found), rows


def ranking(
    division: Division,
    prize: engine.Prize,
    after: int | None = None,
    public: bool = False,
    *,
    stamps: DivisionStamps,
) -> list[tuple[Row, engine.Entry]]:
    """Every contender for the prize, best first, with their standings row."""
    given = inputs(division, [prize], after, public, stamps=stamps)
    by_player: dict[engine.PlayerId, Row] = {r.player.pk: r for r in given.rows}
    found = engine.ranking(
        prize, given.contenders, given.games, given.earlier, _minimum_team(division)
    )
    return [(by_player[e.id], e) for e in found]


# -- certificates: a page a prize-winner, with a short signed code that confirms it ----------

_CODE = re.compile(r"^(\d{1,9})-(\d{1,6})-(\d{1,4})-([a-z2-7]{10})$")


@dataclass(frozen=True)
class Certificate:
    division: Division
    player: Player
    prize: str  # its name
    value: str
    figure: str
    code: str
    after: int | None
    participation: bool = False


def _signature(division_pk: int, number: int, index: int, prize: engine.Prize) -> str:
    message = f"{division_pk}:{number}:{index}:{prize.kind}:{prize.place}:{prize.value}"
    digest = salted_hmac("spread.prize-certificate", message, algorithm="sha256").digest()
    return base64.b32encode(digest).decode()[:10].lower()


def certificate_code(division: Division, player: Player, index: int, prize: engine.Prize) -> str:
    """`division-player-prize-signature`: the prize's line in the prize table (1-based), signed
    with the site's secret over the prize's kind, place and value, so that a code cannot be
    made up and a code of a prize since changed no longer confirms."""
    signature = _signature(division.pk, player.number, index, prize)
    return f"{division.pk}-{player.number}-{index}-{signature}"


def certificates(
    division: Division, after: int | None = None, public: bool = False, *, stamps: DivisionStamps
) -> list[Certificate]:
    """A certificate for each winner of each prize awarded, in the prize table's order (a
    team's prize: one for each of its players)."""
    found, rows = awards(division, after, public, stamps=stamps)
    if after is None:
        after = read_model.rounds_counted(division, public, stamps=stamps)
    bands = sorted(division.prize_bands or [])
    made = []
    for index, a in enumerate(found, start=1):
        if a.prize.kind in LAYOUT:
            continue
        for pk in a.winners:
            row = rows[pk]
            figure = a.detail
            if a.prize.kind == "rank" and len(a.winners) == 1:
                figure = f"{row.record} {row.spread:+d}"
            made.append(
                Certificate(
                    division,
                    row.player,
                    prize_name(a.prize, bands),
                    a.prize.value,
                    figure,
                    certificate_code(division, row.player, index, a.prize),
                    after,
                )
            )
    return made


PARTICIPATION = engine.Prize("participation", 0)


def participations(
    division: Division, after: int | None = None, public: bool = False, *, stamps: DivisionStamps
) -> list[Certificate]:
    """A participation certificate for each player in the standings, in their order: the
    place and record they finished with (the code's prize line is 0)."""
    rows = read_model.division_standings(division, after, public=public, stamps=stamps)
    if after is None:
        after = read_model.rounds_counted(division, public, stamps=stamps)
    return [
        Certificate(
            division,
            r.player,
            gettext("Participation"),
            "",
            gettext("%(ordinal)s place, %(record)s %(spread)s")
            % {"ordinal": ordinal(r.rank), "record": r.record, "spread": f"{r.spread:+d}"},
            certificate_code(division, r.player, 0, PARTICIPATION),
            after,
            participation=True,
        )
        for r in rows
        if r.rank is not None
    ]


def listed_prizes(division: Division) -> list[engine.Prize]:
    """The division's prizes in the order they are listed (`engine.listing` of the order of
    award): a certificate's prize line is its place here. Known from the prize table alone,
    so that a code's signature is checked before any result is read."""
    prizes = [prize_of(p) for p in division.prizes or []]
    placed = [engine.Award(p, shared=0) for p in engine.award_order(prizes)]
    return [a.prize for a in engine.listing(placed)]


@dataclass(frozen=True)
class Signed:
    """A code whose signature is the site's: its division (with its tournament), its player's
    number and its prize line. Whether that player still takes that prize is `confirm`'s."""

    division: Division
    number: int
    index: int
    code: str


def signed(code: str) -> Signed | None:
    """The code if it was made here, else None: the signature is checked against the prize
    line it names, in one query (the division's row, with its tournament) whatever the code,
    before any result is read, so that a guess costs what the cheapest page costs."""
    given = code.strip().lower()
    match = _CODE.match(given)
    if not match:
        return None
    division_pk, number, index = (int(g) for g in match.groups()[:3])
    division = Division.objects.filter(pk=division_pk).select_related("tournament").first()
    if division is None:
        return None
    if index == 0:
        prize = PARTICIPATION
    else:
        listed = listed_prizes(division)
        if index > len(listed) or listed[index - 1].kind in LAYOUT:
            return None
        prize = listed[index - 1]
    if not constant_time_compare(_signature(division_pk, number, index, prize), match.group(4)):
        return None
    return Signed(division, number, index, given)


# A day: a stamp replaced (every change to the division, its prizes included) leaves its
# certificates to expire unread.
CERTIFICATES_TIMEOUT = 24 * 3600


def confirm(code: str) -> Certificate | None:
    """The certificate a code stands for, from the published results as they stand; None for
    a code not made here (a forged signature: `signed`), or whose prize or winner has changed
    since. The division's certificates are computed once under its stamp (`standings/stamps`),
    as every public read is: a second look at a code reads two rows, not the results."""
    found = signed(code)
    return None if found is None else confirmed(found)


def confirmed(found: Signed) -> Certificate | None:
    """The certificate of a code whose signature is good (`signed`), if its player still takes
    its prize in the published results."""
    division = found.division
    stamps = division_stamps.read(division)
    participation = found.index == 0
    key = keys.of_division("certificates", stamps, public=True, participation=participation)

    def made() -> dict[str, Certificate]:
        listed = participations if participation else certificates
        return {c.code: c for c in listed(division, public=True, stamps=stamps)}

    kept = get_or_compute(key, made, CERTIFICATES_TIMEOUT) or {}
    c = kept.get(found.code)
    if c is None or not constant_time_compare(c.code, found.code):
        return None
    return replace(c, division=division)


def _minimum_team(division: Division) -> int:
    """TSH's `config minimum_prize_team`: the fewest players a team needs for `totalteam`."""
    try:
        value = tsh.read_config(division.tournament.tsh_config or "").value("minimum_prize_team")
    except (tsh.TshFormatError, ValueError):
        return 1
    return value if isinstance(value, int) and value > 0 else 1
