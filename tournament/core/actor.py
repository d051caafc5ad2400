"""Who makes a change, and who reads a page: the types every service takes them as.

An `Actor` is a signed-in user (a director or a scorekeeper), an anonymous user (who counts as
no one: `audit.record` logs no one), a player through their link (the phone), or None (the
system: the command line, a simulation). A `RequestUser` is what `request.user` is: a user or
an anonymous one, for the services that decide what someone may see or do.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias

from django.contrib.auth import get_user_model

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User

    from tournament.models import Player

Actor: TypeAlias = "User | AnonymousUser | Player | None"
RequestUser: TypeAlias = "User | AnonymousUser"


def signed_in(actor: Actor) -> User | None:
    """The user `actor` is, if a signed-in one; None for an anonymous user, a player or the
    system."""
    return actor if isinstance(actor, get_user_model()) else None
