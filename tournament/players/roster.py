"""The roster before and around the start: a pasted list of players, check-in, a player's
edit or removal before round 1, and a move to another division. Late entries, withdrawals and
absences are in `services.py`."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Max, Q
from django.utils.translation import gettext
from django.utils.translation import gettext as _

from tournament.core import audit, bounds
from tournament.core.actor import Actor
from tournament.core.errors import PeopleRefused
from tournament.core.sentences import isolate
from tournament.interchange import names
from tournament.models import Change, Division, Game, Player
from tournament.pairing import services as pairing
from tournament.people import services as people
from tournament.players.services import NewPlayer, late_entry, names_last_first
from tournament.standings import stamps


class PasteError(ValueError):
    """Lines of a pasted list that cannot be read: one message a line, with its number."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


def _fields(line: str) -> list[str]:
    if "\t" in line:
        return [f.strip() for f in line.split("\t")]
    if "," in line:
        return [f.strip() for f in line.split(",")]
    return line.split()


def read_player_list(text: str) -> list[NewPlayer]:
    """Players pasted one a line: name, rating, optional club.

    Fields are split by tabs (a spreadsheet's copy), else commas, else spaces. The rating is the
    first whole number after the name, so a name written “Last, First” keeps its comma; what
    follows the rating is the club. A line without a rating is refused.
    """
    players: list[NewPlayer] = []
    problems: list[str] = []
    seen: set[str] = set()
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        fields = [f for f in _fields(line) if f]
        at = next(
            (i for i, f in enumerate(fields) if i > 0 and bounds.plain_number(f) is not None),
            None,
        )
        if at is None:
            problems.append(
                gettext("line %(number)s: a name, then a rating (e.g. “Quill, Ada, 1650”)")
                % {"number": number}
            )
            continue
        separator = ", " if "," in line and "\t" not in line else " "
        name = " ".join(separator.join(fields[:at]).split())
        rating = bounds.plain_number(fields[at])
        assert rating is not None
        if rating > 3000:
            problems.append(
                gettext("line %(number)s: a rating of at most 3000, not %(rating)s")
                % {"number": number, "rating": rating}
            )
            continue
        club = " ".join(" ".join(fields[at + 1 :]).split())
        if len(name) > 200 or len(club) > 100:
            problems.append(
                gettext("line %(number)s: a name of at most 200 characters, a club of 100")
                % {"number": number}
            )
            continue
        if name.lower() in seen:
            problems.append(
                gettext("line %(number)s: %(name)s is listed twice")
                % {"number": number, "name": name}
            )
            continue
        seen.add(name.lower())
        players.append(NewPlayer(name=name, rating=rating, club=club))
    if problems:
        raise PasteError(problems)
    if not players:
        raise PasteError(["the list is empty: one player a line, name then rating"])
    return players


def add_players(
    division: Division, text: str, user: Actor, rewritten: list[str] | None = None
) -> list[Player]:
    """The pasted players added to the division, all or (on any bad line) none, every name in
    the division's one style: the style of its names, or for its first players the style of
    most of the list's (`names.in_style`: “Last, First” or “First Last”). Each name written
    otherwise than pasted is listed in `rewritten`, as it is written now."""
    new = read_player_list(text)
    with transaction.atomic():
        pairing.locked_division(division)
        style = names_last_first(division)
        if style is None:
            style = names.style_of(p.name for p in new)
        added = []
        for number, player in enumerate(new, 1):
            try:
                added.append(late_entry(division, player, user, last_first=style))
            except pairing.PairingRefused as refused:
                raise PasteError([f"player {number}: {refused}"]) from refused
            if rewritten is not None and added[-1].name != player.name:
                rewritten.append(added[-1].name)
    return added


def set_checked_in(player: Player, checked_in: bool, user: Actor) -> Player:
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player.pk)
        if player.checked_in == checked_in:
            return player
        player.checked_in = checked_in
        player.checked_in_by = "desk" if checked_in else ""
        player.save(update_fields=["checked_in", "checked_in_by", "updated"])
        audit.record(
            player.division,
            Change.Action.CHECK_IN,
            actor=user,
            before={"player": player.number, "checked_in": not checked_in},
            after={"player": player.number, "checked_in": checked_in},
            reason=f"{isolate(player.name)} {'checked in' if checked_in else 'not checked in'}",
        )
    return player


def _before_round_1(player: Player, what: str) -> None:
    if Game.objects.filter(division_id=player.division_id).exists():
        raise pairing.PairingRefused(
            gettext(
                "Round 1 of division %(name)s is paired: players can no longer be "
                "%(what)s (withdraw them instead, or unpair round 1 first)."
            )
            % {"name": player.division.name, "what": what}
        )


def edit_player(player: Player, new: NewPlayer, user: Actor) -> Player:
    """A player's name, rating and club corrected before round 1 is paired."""
    name = " ".join(new.name.split())
    if not name:
        raise pairing.PairingRefused(gettext("A player needs a name."))
    with transaction.atomic():
        division = pairing.locked_division(player.division)
        player = Player.objects.select_for_update().get(pk=player.pk)
        _before_round_1(player, "edited")
        if division.players.exclude(pk=player.pk).filter(name__iexact=name).exists():
            raise pairing.PairingRefused(
                gettext("%(name)s is already in division %(name2)s.")
                % {"name": name, "name2": division.name}
            )
        before = {
            "player": player.number,
            "name": player.name,
            "rating": player.rating,
            "club": player.club,
        }
        if name != player.name:
            # A new name is spelled in Latin letters afresh, to be checked again.
            player.latin_name, player.latin_checked = "", False
        player.name, player.rating, player.club = name, new.rating, new.club
        player.rating_text = str(new.rating)
        player.save()
        after = {"player": player.number, "name": name, "rating": new.rating, "club": new.club}
        audit.record(
            division,
            Change.Action.EDIT_PLAYER,
            actor=user,
            before=before,
            after=after,
            reason=(
                f"Player {player.number} edited: {isolate(before['name'])} became {isolate(name)}"
            )
            if before["name"] != name
            else f"Player {player.number} ({isolate(name)}) edited",
        )
        if before["name"] != name:
            people.link_player(player, renamed=True)
    return player


def remove_player(player: Player, user: Actor) -> None:
    """A player taken off the roster before round 1 is paired; the others keep their numbers."""
    with transaction.atomic():
        division = pairing.locked_division(player.division)
        player = Player.objects.select_for_update().get(pk=player.pk)
        _before_round_1(player, "removed")
        before = {"player": player.number, "name": player.name, "rating": player.rating}
        player.delete()
        audit.record(
            division,
            Change.Action.REMOVE_PLAYER,
            actor=user,
            before=before,
            reason=f"Player {before['player']} ({isolate(before['name'])}) removed before round 1",
        )


def move_player(player: Player, target: Division, user: Actor) -> Player:
    """A player moved to another division of the tournament before they have played: they have
    no game (not even a pairing) in their division, and the target has no round paired; they
    take the next number there. Their old number in the division they leave stays free."""
    with transaction.atomic():
        source = pairing.locked_division(player.division)
        target = pairing.locked_division(target)
        player = Player.objects.select_for_update().get(pk=player.pk)
        if target.tournament_id != source.tournament_id or target.pk == source.pk:
            raise PeopleRefused(_("Choose another division of the tournament."))
        if source.games.filter(Q(player1=player) | Q(player2=player)).exists():
            raise PeopleRefused(
                _(
                    "%(name)s is paired or has played in division %(division)s: a player moves "
                    "only before their first pairing (unpair the round first)."
                )
                % {"name": player.name, "division": source.name}
            )
        if target.games.exists():
            raise PeopleRefused(
                _(
                    "Division %(division)s has rounds paired: add %(name)s there as a late "
                    "entry instead."
                )
                % {"name": player.name, "division": target.name}
            )
        if target.players.filter(name__iexact=player.name).exists():
            raise PeopleRefused(
                _("%(name)s is already in division %(division)s.")
                % {"name": player.name, "division": target.name}
            )
        before = {"division": source.name, "player": player.number, "name": player.name}
        player.division = target
        player.number = (target.players.aggregate(n=Max("number"))["n"] or 0) + 1
        player.absent_rounds = []
        player.save()
        after = {"division": target.name, "player": player.number, "name": player.name}
        reason = _("%(name)s moved from division %(source)s to %(target)s as player %(number)d") % {
            "name": player.name,
            "source": source.name,
            "target": target.name,
            "number": player.number,
        }
        stamps.touch([source.pk])  # the player's save renewed the target's stamp
        audit.record(
            target, Change.Action.MOVE_PLAYER, actor=user, before=before, after=after, reason=reason
        )
    return player
