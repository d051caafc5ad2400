"""The header's link to the desk: to the tournament's own desk when the signed-in user directs
or keeps score at the tournament the page is about, else to the desk's index; and the sentence
every desk page of a locked tournament shows."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse

from tournament.core.access import locked_sentence
from tournament.models import Tournament

register = template.Library()


@register.simple_tag(takes_context=True)
def desk_url(context: Any) -> str:
    user = context.get("user")
    tournament = context.get("tournament")
    if (
        isinstance(tournament, Tournament)
        and user is not None
        and (tournament.is_director(user) or tournament.is_scorekeeper(user))
    ):
        return reverse("desk-dashboard", args=[tournament.slug])
    return reverse("desk")


@register.simple_tag
def locked_text(tournament: Tournament) -> str:
    """Why nothing on this desk page can be changed (`locked_sentence`): the banner of every
    desk page of a locked tournament (desk_layout.html)."""
    return locked_sentence(tournament)
