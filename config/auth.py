"""Login throttling by django-axes, for logins over the web, by the client's own address: the
username and the address together (AXES_FAILURE_LIMIT), and overall limits for the username
from any addresses and for the address for any usernames (`overall_lockout`)."""

from __future__ import annotations

from functools import cache
from typing import Any

from axes.backends import AxesStandaloneBackend
from axes.exceptions import AxesBackendPermissionDenied
from django.conf import settings
from django.db.models import Sum, Value
from django.db.models.functions import Least
from django.http import HttpRequest
from django.utils import timezone
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
        super().authenticate(request, username, password, **kwargs)  # the pair's own limit
        why = overall_lockout(request, username)
        if why:
            # As django-axes refuses: the middleware answers with the lockout page (429), and
            # the refused attempt is not counted (it would only lengthen the lock).
            request.axes_locked_out = True  # type: ignore[attr-defined]
            request.spread_lockout = why  # type: ignore[attr-defined]
            raise AxesBackendPermissionDenied("refused by the overall limit of " + why)
        return None


def overall_lockout(request: HttpRequest, username: str | None) -> str:
    """Why a login is refused beyond django-axes' limit for the username and the address
    together: "username" when the account has failed AXES_USERNAME_FAILURE_LIMIT times from
    any addresses within AXES_COOLOFF_TIME (guesses spread over many addresses), "address"
    when the address has failed AXES_ADDRESS_FAILURE_LIMIT times for any usernames (one
    address trying many accounts); "" when neither. An address the account has signed in from
    before is never refused by these: a director keeps signing in from their own, as the hall's
    people behind one venue address do from theirs."""
    from axes.models import AccessAttempt, AccessLog

    address = client_address(request)
    if username and AccessLog.objects.filter(username=username, ip_address=address).exists():
        return ""
    since = timezone.now() - settings.AXES_COOLOFF_TIME
    recent = AccessAttempt.objects.filter(attempt_time__gte=since)
    # Each username and address together counts up to its own limit: what is tried past it is
    # refused already, and one address hammering one account must not lock its owner out.
    counted = Sum(Least("failures_since_start", Value(settings.AXES_FAILURE_LIMIT)))
    if username:
        failed = recent.filter(username=username).aggregate(n=counted)["n"]
        if (failed or 0) >= settings.AXES_USERNAME_FAILURE_LIMIT:
            return "username"
    if address:
        failed = recent.filter(ip_address=address).aggregate(n=counted)["n"]
        if (failed or 0) >= settings.AXES_ADDRESS_FAILURE_LIMIT:
            return "address"
    return ""


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
