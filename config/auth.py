"""Login throttling by django-axes, for logins over the web."""

from __future__ import annotations

from typing import Any

from axes.backends import AxesStandaloneBackend
from django.http import HttpRequest


class LoginThrottle(AxesStandaloneBackend):
    """django-axes' check, for logins that come with a request (every one over the web).

    A login without a request (a management command, a script) has no address to throttle:
    django-axes would refuse it outright; here the next backend checks the password as usual.
    """

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> None:
        if request is None:
            return None
        return super().authenticate(request, username, password, **kwargs)
