"""Who makes a change."""

from __future__ import annotations

from typing import TypeAlias

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from tournament.models import Player

# A director or scorekeeper (a signed-in user), a player through their link, or the system (None;
# an anonymous user counts as no one).
Actor: TypeAlias = AbstractBaseUser | AnonymousUser | Player | None
