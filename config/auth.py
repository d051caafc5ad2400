"""Login throttling by django-axes, for logins over the web, by the client's own address."""

from __future__ import annotations

from functools import cache
from typing import Any

from axes.backends import AxesStandaloneBackend
from django.conf import settings
from django.http import HttpRequest
from python_ipware import IpWare


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


@cache
def _forwarded(proxies: int) -> IpWare:
    # python-ipware counts the proxies after the client within the header: the last of ours
    # (the one the server hears from) is the connection itself, not a header entry.
    return IpWare(precedence=("HTTP_X_FORWARDED_FOR",), leftmost=True, proxy_count=proxies - 1)


def client_address(request: HttpRequest) -> str | None:
    """The address django-axes throttles a login by (AXES_CLIENT_IP_CALLABLE).

    Each of the `PROXY_COUNT` proxies in front of the server adds the address it was reached from
    to the end of X-Forwarded-For, so the client is the `PROXY_COUNT`-th address from the end:
    whatever stands before it the client wrote itself, and may be anything, so it is never read.
    With no proxy (0, the default), or a request that did not come through them all (fewer
    addresses than proxies), the address is the connection's own.
    """
    proxies = settings.PROXY_COUNT
    if proxies > 0:
        found, _ = _forwarded(proxies).get_client_ip(request.META, strict=False)
        if found is not None:
            return str(found)
    return request.META.get("REMOTE_ADDR")
