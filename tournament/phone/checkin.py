"""Self check-in: a division's switch, "Players may check themselves in", turned on and off at
the desk's check-in page by its directors, and a player's check-in from their own link.

The switch is `Division.check_in_open`; check-in by phone is open while it is on and round 1 is
not paired (`is_open`): pairing round 1 closes it with nothing to remember, and the desk's page
says so. Every check-in is logged (`Change.Action.CHECK_IN`, the player its actor) and kept
with how it was made (`Player.checked_in_by`: "desk" or "phone"), which the desk's list shows.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext

from tournament.core import audit
from tournament.core.actor import Actor
from tournament.core.errors import EntryError
from tournament.core.sentences import isolate
from tournament.models import Change, Division, Game, Player
from tournament.phone import offline


class CheckInRefused(EntryError):
    """A check-in, or the switch, refused; the message says why in a sentence."""


def round_1_paired(division: Division) -> bool:
    """Whether the division's first round is paired: check-in by phone is then over."""
    return Game.objects.filter(division_id=division.pk).exists()


def is_open(division: Division) -> bool:
    """Whether the division's players may check themselves in now: the switch is on and round
    1 is not paired yet."""
    return division.check_in_open and not round_1_paired(division)


def set_open(division: Division, on: bool, user: Actor) -> bool:
    """Turn the division's self check-in on or off (a director at the desk's check-in page),
    logged; whether anything changed. Refused on once round 1 is paired."""
    with transaction.atomic():
        division = Division.objects.select_for_update().get(pk=division.pk)
        if on and round_1_paired(division):
            raise CheckInRefused(
                gettext("Round 1 is paired: players can no longer check themselves in.")
            )
        if division.check_in_open == on:
            return False
        division.check_in_open = on
        division.save(update_fields=["check_in_open", "stamp"])
        audit.record(
            division,
            Change.Action.DIVISION,
            actor=user,
            before={"check_in_open": not on},
            after={"check_in_open": on},
            reason=(
                gettext("Division %(name)s: players may check themselves in")
                if on
                else gettext("Division %(name)s: players may no longer check themselves in")
            )
            % {"name": isolate(division.name)},
        )
    return True


def check_in(player: Player, key: str | None = None) -> bool:
    """The player checks in from their own link; whether they were not checked in before.

    Refused unless the division's self check-in is open (`is_open`). Checking in again changes
    nothing and logs nothing, so a repeated request (a retry, a second tap) is harmless.

    `key`: the phone's idempotency key (`offline.key_of`); sent again, the first answer.
    """
    answer = offline.refusals_kept(player, key, lambda: {"new": _check_in(player)}, CheckInRefused)
    return bool(answer["new"])


def _check_in(player: Player) -> bool:
    with transaction.atomic():
        player = (
            Player.objects.select_for_update(of=("self",))
            .select_related("division__tournament")
            .get(pk=player.pk)
        )
        if not player.division.check_in_open:
            raise CheckInRefused(gettext("Check-in is not open: see the desk."))
        if round_1_paired(player.division):
            raise CheckInRefused(gettext("Round 1 is paired: check-in is over. See the desk."))
        if player.withdrawn_from_round is not None:
            raise CheckInRefused(gettext("You are withdrawn: see the desk."))
        if player.checked_in:
            return False
        player.checked_in, player.checked_in_by = True, "phone"
        player.save(update_fields=["checked_in", "checked_in_by", "updated"])
        audit.record(
            player.division,
            Change.Action.CHECK_IN,
            actor=player,
            before={"player": player.number, "checked_in": False},
            after={"player": player.number, "checked_in": True, "by": "phone"},
            reason=f"{isolate(player.name)} checked in by phone",
        )
    return True
