"""Middleware of the site itself, before any tournament's code."""

from __future__ import annotations

from collections.abc import Callable

from django.http import Http404, HttpRequest, HttpResponse
from django.utils.translation import gettext


class RefuseNulInPath:
    """A path holding a NUL byte (`%00`) names no page: 404, before any session or query.

    A URL part reaches the database as text (a division's name, a player's token), and
    PostgreSQL refuses text holding NUL outright: the query would fail with a 500. No name, slug
    or token Spread makes can hold one, so no such page exists.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if "\x00" in request.path_info:
            raise Http404(gettext("No page has a NUL byte in its address."))
        return self.get_response(request)
