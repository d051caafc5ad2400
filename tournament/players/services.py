"""A division's players after the start: withdrawals, reinstatements, late entries one by one or
from a roster file. Each change is logged as a `Change`, like every result and pairing."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import models, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext as _

from tournament.core import audit, sentences
from tournament.core.actor import Actor
from tournament.core.sentences import isolate
from tournament.core.signals import announced
from tournament.interchange import names, roster
from tournament.models import Change, Division, Game, Player
from tournament.pairing import missed as missing
from tournament.pairing import services as pairing
from tournament.people import services as people
from tournament.results import services as results
from tournament.results.services import snapshot
from tournament.standings import stamps

# Change.action values written here.
WITHDRAW = Change.Action.WITHDRAW
REINSTATE = Change.Action.REINSTATE
LATE_ENTRY = Change.Action.LATE_ENTRY


def withdraw(player: Player, from_round: int, user: Actor) -> Player:
    """The player takes no part from `from_round` on: not paired, not ranked (as tsh's `off`).

    Their results so far stand. Pairings already made for later rounds are left for the
    director to re-pair; the pairing checks warn about them.
    """
    return announced(player.division, user, lambda: _withdraw(player, from_round, user))


def _withdraw(player: Player, from_round: int, user: Actor) -> Player:
    if from_round < 1:
        raise pairing.PairingRefused(gettext("A player withdraws from round 1 or later."))
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player.pk)
        played = player.division.games.filter(round__gte=from_round).exclude(score1=None)
        mine = [g for g in played if player.pk in (g.player1_id, g.player2_id)]
        if mine:
            raise pairing.PairingRefused(
                gettext(
                    "%(name)s has a result in round %(round)s: withdraw them from a "
                    "later round, or delete that result first."
                )
                % {"name": player.name, "round": mine[0].round}
            )
        reason = f"{isolate(player.name)} withdrawn from round {from_round}"
        return _set_withdrawn(player, from_round, user, WITHDRAW, reason)


def reinstate(player: Player, user: Actor) -> Player:
    """The player takes part again from the next round paired. The rounds paired while they
    were withdrawn, where they have no game, give them what the division gives a player who
    misses a round (`pairing.missed`), in the same change."""
    return announced(player.division, user, lambda: _reinstate(player, user))


def _reinstate(player: Player, user: Actor) -> Player:
    with transaction.atomic():
        division = pairing.locked_division(player.division)
        player = Player.objects.select_for_update().get(pk=player.pk)
        withdrawn = player.withdrawn_from_round
        reason = f"{isolate(player.name)} reinstated"
        given: list[tuple[int, missing.Missed, Game | None]] = []
        if withdrawn is not None:
            # Taking part again: the rounds they missed are given as to anyone who misses one.
            player.withdrawn_from_round = None
            missed_rounds = missing.rounds_missed(division, player, since=withdrawn)
            given = missing.give(division, player, missed_rounds, missing.REINSTATED)
        said = [
            sentences.message(note)
            for r, result, _game in given
            for note in missing.notes(division, r, [(player, result)])
        ]
        if said:
            reason += ": " + " ".join(said)
        made = [game for _r, _result, game in given if game is not None]
        return _set_withdrawn(player, None, user, REINSTATE, reason, made, before=withdrawn)


def _set_withdrawn(
    player: Player,
    from_round: int | None,
    user: Actor,
    action: str,
    reason: str,
    made: Sequence[Game] = (),
    before: int | None = None,
) -> Player:
    """The player's withdrawal set to `from_round` (None: taking part), logged with the rows
    it `made`; `before` is the withdrawal it replaces, when the caller has already changed it."""
    before = player.withdrawn_from_round if before is None else before
    player.withdrawn_from_round = from_round
    player.save(update_fields=["withdrawn_from_round", "updated"])
    after: dict[str, Any] = {"player": player.number, "withdrawn_from_round": from_round}
    if made:
        after["games"] = [snapshot(g) for g in made]
    pairing.log_change(
        player.division,
        user,
        action,
        {"player": player.number, "withdrawn_from_round": before},
        after,
        reason,
    )
    return player


@dataclass
class NewPlayer:
    name: str
    rating: int = 0
    club: str = ""
    team: str = ""
    membership_id: str = ""


# What a late entry gets for the rounds already under way: the director's choice.
MISSED = {
    "forfeits": "a forfeit loss",
    "byes": "a bye",
    "nothing": "nothing (the rounds count as not played)",
}


def names_last_first(division: Division) -> bool | None:
    """Whether the division writes names “Last, First” (most of its names have a comma), or
    “First Last” (False); None while it has no player."""
    return names.style_of(division.players.values_list("name", flat=True))


def late_entry(
    division: Division,
    new: NewPlayer,
    user: Actor,
    missed: str | None = None,
    last_first: bool | None = None,
) -> Player:
    """Add a player after the start: for every round already paired or played, what the
    division gives a player who misses a round (`pairing.missed`: a forfeit loss, or nothing),
    or what the director chose (`missed`: forfeits, byes, nothing).

    The name is written in the division's style (`names.in_style`: “Ada Quill” is saved as
    “Quill, Ada” where the names are written “Last, First”), or in `last_first` when given
    (a pasted list's style).
    A round paired but neither published nor played is marked stale by the change to its
    field (or paired again, if the division paired it by itself), so that the newcomer can be
    paired in it; until then they have their missed round's result there too, so that no
    round leaves them with nothing by accident.
    """
    return announced(division, user, lambda: _late_entry(division, new, user, missed, last_first))


def _late_entry(
    division: Division,
    new: NewPlayer,
    user: Actor,
    missed: str | None = None,
    last_first: bool | None = None,
) -> Player:
    if missed is not None and missed not in MISSED:
        raise pairing.PairingRefused(
            gettext("%(missed)r is not a choice: %(join)s.")
            % {"missed": missed, "join": ", ".join(MISSED)}
        )
    name = " ".join(new.name.split())
    if not name:
        raise pairing.PairingRefused(gettext("A new player needs a name."))
    with transaction.atomic():
        division = pairing.locked_division(division)
        style = names_last_first(division) if last_first is None else last_first
        name = names.in_style(name, style)[:200]
        if division.players.filter(name__iexact=name).exists():
            raise pairing.PairingRefused(
                gettext("%(name)s is already in division %(name2)s.")
                % {"name": name, "name2": division.name}
            )
        number = (division.players.aggregate(n=Max("number"))["n"] or 0) + 1
        player = Player.objects.create(
            division=division,
            number=number,
            name=name,
            rating=new.rating,
            rating_text=str(new.rating),
            club=new.club,
            team=new.team,
            membership_id=new.membership_id,
        )
        _enter_late(division, player, user, missed)
        people.link_player(player)
        return player


def import_roster(division: Division, data: bytes, filename: str, user: Actor) -> list[Player]:
    """Players from a roster file (`tournament.interchange.roster.read_players`: xlsx, CSV or a
    tsh `.t` file), numbered after the last one where the file gives no number; any added after
    the start are late entries, given the division's missed-round result for every round already
    paired (`_enter_late`). A bad file saves nothing."""
    lengths: dict[str, int] = {}
    for name in ("name", "club", "team", "membership_id"):
        column = Player._meta.get_field(name)
        assert isinstance(column, models.Field) and column.max_length is not None
        lengths[name] = column.max_length
    entries = roster.read_players(data, filename, lengths)
    with transaction.atomic():
        division = pairing.locked_division(division)
        taken = set(division.players.values_list("number", flat=True))
        clash = [e for e in entries if e.number in taken]
        if clash:
            raise roster.RosterError(
                [f"row {e.row}: the division already has a player number {e.number}" for e in clash]
            )
        given = {e.number for e in entries if e.number is not None}
        next_number = max([division.players.aggregate(m=Max("number"))["m"] or 0, *given]) + 1
        # One style of name for the division: its own, or for its first players the file's.
        style = names_last_first(division)
        if style is None:
            style = names.style_of(e.name for e in entries)
        added = []
        for e in entries:
            number = e.number
            if number is None:
                number = next_number
                next_number += 1
            added.append(
                Player(
                    division=division,
                    number=number,
                    name=names.in_style(e.name, style)[: lengths["name"]],
                    rating=e.rating,
                    club=e.club,
                    team=e.team,
                    membership_id=e.membership_id,
                    xtid=e.xtid,
                )
            )
        added = Player.objects.bulk_create(added)
        for player in added:
            _enter_late(division, player, user)
        people.link_players(added)
        return added


def _enter_late(
    division: Division, player: Player, user: Actor, missed: str | None = None
) -> list[Game]:
    """A new player's results for the rounds already paired or played: what the division gives
    a player who misses a round (`pairing.missed`), or the director's choice (`missed`:
    forfeits, byes, nothing), logged as their entry with the round's sentence."""
    given = missing.give(
        division, player, missing.rounds_missed(division, player), missing.LATE, missed
    )
    made = [game for _r, _result, game in given if game is not None]
    reason = f"{isolate(player.name)} added as player {player.number}"
    for kind, what in (
        (Game.FORFEIT, "forfeit losses in"),
        (Game.BYE, "byes in"),
        (None, "nothing for"),
    ):
        numbers = [str(r) for r, result, _game in given if result.kind == kind]
        if numbers:
            reason += f", {what} rounds {', '.join(numbers)}"
    after: dict[str, Any] = {
        "player": player.number,
        "name": player.name,
        "games": [snapshot(g) for g in made],
    }
    nothing = [r for r, result, _game in given if result.nothing]
    if nothing:  # the rounds given nothing, for the consistency check (`event/checks.py`)
        after.update(division=division.name, nothing=nothing)
    pairing.log_change(division, user, LATE_ENTRY, None, after, reason)
    return made


# -- absent for a round, fixed tables -----------------------------------------------------------


def pairing_of(player: Player, round_number: int) -> Game | None:
    """The player's game in a round already paired (None: not paired in it)."""
    games = player.division.games.filter(round=round_number).exclude(kind=Game.VOID)
    return (
        games.filter(models.Q(player1=player) | models.Q(player2=player))
        .select_related("player1", "player2")
        .first()
    )


def absence_question(player: Player, game: Game) -> str:
    """What marking the player absent does to their pairing, naming both players: the
    question the desk asks before it does it."""
    division = player.division
    opponent = game.player2 if game.player1_id == player.pk else game.player1
    values = {
        "name": player.name,
        "round": game.round,
        "spread": division.forfeit_spread,
        "bye": division.bye_spread,
        "other": opponent.name if opponent else "",
    }
    if opponent is None:
        return (
            _(
                "%(name)s has the bye in round %(round)d. Marked absent, it becomes a forfeit "
                "loss (−%(spread)d). Record it?"
            )
            % values
        )
    if division.absent_result == "forfeit":
        return (
            _(
                "%(name)s is paired with %(other)s in round %(round)d. Marked absent, %(name)s "
                "gets a forfeit loss (−%(spread)d) and %(other)s a forfeit win (+%(spread)d). "
                "Record it?"
            )
            % values
        )
    return (
        _(
            "%(name)s is paired with %(other)s in round %(round)d. Marked absent, %(name)s "
            "gets no result and %(other)s a bye (+%(bye)d). Record it?"
        )
        % values
    )


def _absent_from_pairing(player: Player, game: Game, user: Actor) -> None:
    """A player marked absent in a round already paired and not yet played: their pairing
    becomes their forfeit loss and the opponent's forfeit win (as the desk's forfeit does), or,
    when the division gives absent players nothing, the opponent's bye. One change, with the
    mark: undo takes both back."""
    division = player.division
    round_number = game.round
    mark = {"player": player.number, "round": round_number}
    reason = _("%(name)s absent in round %(round)d") % {"name": player.name, "round": round_number}
    player.absent_rounds = sorted({*(player.absent_rounds or []), round_number})
    player.save(update_fields=["absent_rounds", "updated"])
    if game.player2_id is None or division.absent_result == "forfeit":
        results.enter_line(
            division, round_number, f"{player.number} forfeit", user, reason=reason, absent=mark
        )
        return
    opponent = game.player2 if game.player1_id == player.pk else game.player1
    assert opponent is not None  # a game of two players: one of one is answered above
    before = snapshot(game)
    game.player1, game.player2 = opponent, None
    game.kind, game.score1, game.score2, game.first = Game.BYE, division.bye_spread, None, 0
    game.version += 1
    game.save()
    audit.record(
        division,
        Change.Action.CORRECT,
        actor=user,
        game=game,
        before={"games": [before]},
        after={"games": [snapshot(game)], "absent": mark},
        reason=reason,
    )


def set_absent(player: Player, round_number: int, absent: bool, user: Actor) -> Player:
    """Mark the player absent for a round (or take the mark back). A round not paired yet
    leaves them out when it is paired and gives them the division's `absent_result` (a forfeit
    loss, or nothing); in a round paired and not yet played, their pairing is changed at once
    (`_absent_from_pairing`, after the desk's confirmation: `absence_question`)."""
    return announced(player.division, user, lambda: _set_absent(player, round_number, absent, user))


def _set_absent(player: Player, round_number: int, absent: bool, user: Actor) -> Player:
    if round_number < 1:
        raise pairing.PairingRefused(_("A player is absent for round 1 or later."))
    with transaction.atomic():
        division = pairing.locked_division(player.division)
        player = Player.objects.select_for_update().get(pk=player.pk)
        marked = sorted(set(player.absent_rounds or []))
        if (round_number in marked) == absent:
            return player
        if division.games.filter(round=round_number).exists():
            game = pairing_of(player, round_number) if absent else None
            if game is not None and not game.has_result:
                _absent_from_pairing(player, game, user)
                player.refresh_from_db()
                return player
            values = {"round": round_number, "division": division.name, "name": player.name}
            if game is not None:
                raise pairing.PairingRefused(
                    _(
                        "%(name)s already has a result in round %(round)d: correct it on the "
                        "entry page instead."
                    )
                    % values
                )
            if not absent:
                raise pairing.PairingRefused(
                    _(
                        "Round %(round)d of division %(division)s is paired already: undo the "
                        "forfeit at the desk, or correct the result, to bring %(name)s back."
                    )
                    % values
                )
        before = {"player": player.number, "absent_rounds": marked}
        marked = sorted({*marked, round_number} if absent else set(marked) - {round_number})
        player.absent_rounds = marked
        player.save(update_fields=["absent_rounds", "updated"])
        reason = (
            _("%(name)s absent in round %(round)d")
            if absent
            else _("%(name)s present in round %(round)d")
        ) % {"name": player.name, "round": round_number}
        audit.record(
            division,
            Change.Action.ABSENT,
            actor=user,
            before=before,
            after={"player": player.number, "absent_rounds": marked},
            reason=reason,
        )
    return player


def set_fixed_table(player: Player, table: int | None, user: Actor) -> Player:
    """The table the player always sits at (accessibility), or None; pairings made from now on
    keep it."""
    if table is not None and table < 1:
        raise pairing.PairingRefused(_("A table number is 1 or more."))
    with transaction.atomic():
        division = pairing.locked_division(player.division)
        player = Player.objects.select_for_update().get(pk=player.pk)
        if table is not None:
            other = division.players.exclude(pk=player.pk).filter(fixed_table=table).first()
            if other is not None:
                raise pairing.PairingRefused(
                    _("%(name)s already sits at table %(table)d.")
                    % {"name": other.name, "table": table}
                )
        before = {"player": player.number, "fixed_table": player.fixed_table}
        player.fixed_table = table
        player.save(update_fields=["fixed_table", "updated"])
        audit.record(
            division,
            Change.Action.EDIT_PLAYER,
            actor=user,
            before=before,
            after={"player": player.number, "fixed_table": table},
            reason=(
                _("%(name)s always at table %(table)d") % {"name": player.name, "table": table}
                if table is not None
                else _("%(name)s has no fixed table") % {"name": player.name}
            ),
        )
    return player


# -- names in Latin letters -----------------------------------------------------------------------


@dataclass
class LatinName:
    """A player's name in Latin letters as the desk's form sends it, and whether the director
    marked it checked."""

    number: int
    latin: str
    checked: bool


class LatinRefused(ValueError):
    """Names in Latin letters that cannot be saved: one sentence each."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


@dataclass
class LatinToCheck:
    """The players whose name in Latin letters is only the automatic spelling, unchecked: how
    many in all, and each division that has some with its count (the desk's warning)."""

    total: int
    divisions: list[tuple[Division, int]]

    def __bool__(self) -> bool:
        return self.total > 0


def latin_to_check(tournament: Any) -> LatinToCheck:
    """The tournament's players whose Latin name no director has checked yet."""
    counts: dict[int, int] = {}
    unchecked = Player.objects.filter(division__tournament=tournament, latin_checked=False)
    for division_id, name in unchecked.values_list("division_id", "name"):
        if names.needs_check(name):
            counts[division_id] = counts.get(division_id, 0) + 1
    divisions = [(d, counts[d.pk]) for d in tournament.divisions.all() if d.pk in counts]
    return LatinToCheck(sum(counts.values()), divisions)


def set_latin_names(division: Division, given: list[LatinName], user: Actor) -> list[Player]:
    """The players' names in Latin letters as the director wrote or checked them, in one
    change: a name changed here counts as checked. Any name that is not in Latin letters
    refuses them all (`LatinRefused`)."""
    problems = []
    cleaned = []
    for g in given:
        text = " ".join(g.latin.split())
        problem = names.latin_problem(text)
        if problem == "empty":
            problems.append(
                _("Player %(number)s: a name in Latin letters is needed.") % {"number": g.number}
            )
        elif problem:
            problems.append(
                _("Player %(number)s: “%(letters)s” are not Latin letters.")
                % {"number": g.number, "letters": problem}
            )
        elif len(text) > 200:
            problems.append(
                _("Player %(number)s: a name of at most 200 characters.") % {"number": g.number}
            )
        cleaned.append(LatinName(g.number, text, g.checked))
    if problems:
        raise LatinRefused(problems)
    with transaction.atomic():
        division = pairing.locked_division(division)
        numbers = [g.number for g in cleaned]
        players = {p.number: p for p in division.players.filter(number__in=numbers)}
        before, after, changed = [], [], []
        for g in cleaned:
            player = players.get(g.number)
            if player is None:
                continue
            checked = g.checked or g.latin != player.name_in_latin
            if (g.latin, checked) == (player.latin_name, player.latin_checked):
                continue
            before.append([player.number, player.latin_name, player.latin_checked])
            player.latin_name, player.latin_checked = g.latin, checked
            after.append([player.number, player.latin_name, player.latin_checked])
            changed.append(player)
        if not changed:
            return []
        now = timezone.now()
        for player in changed:
            player.updated = now
        Player.objects.bulk_update(changed, ["latin_name", "latin_checked", "updated"])
        stamps.touch([division.pk])
        audit.record(
            division,
            Change.Action.EDIT_PLAYER,
            actor=user,
            before={"latin_names": before},
            after={"latin_names": after},
            reason=ngettext(
                "%(count)s name in Latin letters saved: %(names)s",
                "%(count)s names in Latin letters saved: %(names)s",
                len(changed),
            )
            % {
                "count": len(changed),
                "names": "; ".join(f"{p.number} {p.latin_name}" for p in changed[:10])
                + (" …" if len(changed) > 10 else ""),
            },
        )
    return changed
