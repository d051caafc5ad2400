"""The public pages, cached whole for visitors who are not signed in.

A page is kept under its address and the stamps of its tournament's divisions (one small query),
which every change to a division replaces in the same transaction (`tournament/stamps.py`): a
result entered is on the next request to any worker, and with REDIS_URL to any server. The stamp
is also the page's ETag, so a phone that asks again with If-None-Match gets a 304 at the cost of
that query. A page is kept once per language (`tournament/language.py` decides it, before the
cache is read: the tournament's default language comes with the stamps). Signed-in users
(directors see hidden tournaments and a logout form with a CSRF token) and requests carrying
messages get the page rendered for them, uncached.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from functools import wraps

from django.http import HttpRequest, HttpResponse, HttpResponseBase, HttpResponseNotModified
from django.utils import translation
from django.utils.cache import patch_cache_control

from tournament.cache_once import get_or_compute
from tournament.language import apply_tournament_language
from tournament.models import Division

# Long enough to outlive a day's play; a stamp replaced leaves its pages to expire unread.
PAGE_TIMEOUT = 6 * 3600

View = Callable[..., HttpResponseBase]


def _stamps(slug: str) -> tuple[list[str], str]:
    """The stamps of a public tournament's divisions (none if it is not public or has none),
    and the tournament's default language."""
    rows = Division.objects.filter(tournament__slug=slug, tournament__public=True).order_by("pk")
    pairs = list(rows.values_list("stamp", "tournament__language"))
    return [stamp for stamp, _language in pairs], (pairs[0][1] if pairs else "")


def _page_key(request: HttpRequest, stamps: list[str]) -> str:
    raw = "\n".join([request.get_full_path(), translation.get_language(), *stamps])
    return "page:" + hashlib.sha256(raw.encode()).hexdigest()


def _etag_matches(request: HttpRequest, etag: str) -> bool:
    wanted = request.headers.get("If-None-Match", "")
    return any(tag.strip().removeprefix("W/") == etag for tag in wanted.split(","))


def cached_public_page(view: View) -> View:
    """Serve `view`'s page from the cache, for anyone not signed in, until a division changes."""

    @wraps(view)
    def wrapper(request: HttpRequest, slug: str, *args: object, **kwargs: object):
        cacheable = (
            request.method in ("GET", "HEAD")
            and "messages" not in request.COOKIES
            and not request.user.is_authenticated
        )
        stamps, language = _stamps(slug) if cacheable else ([], "")
        if not stamps:
            return view(request, slug, *args, **kwargs)
        apply_tournament_language(request, language)
        key = _page_key(request, stamps)
        etag = f'"{key.removeprefix("page:")[:32]}"'
        if _etag_matches(request, etag):
            response: HttpResponseBase = HttpResponseNotModified()
        else:
            rendered: list[HttpResponseBase] = []

            def render() -> tuple[bytes, str] | None:
                rendered.append(view(request, slug, *args, **kwargs))
                page = rendered[0]
                if page.status_code != 200 or not isinstance(page, HttpResponse):
                    return None  # an error or a redirect is not kept
                return page.content, page["Content-Type"]

            # Many viewers ask for a page just renewed at once: one renders, the others wait.
            kept = get_or_compute(key, render, PAGE_TIMEOUT)
            if rendered:
                response = rendered[0]
                if kept is None:
                    return response
            elif kept is None:
                return view(request, slug, *args, **kwargs)
            else:
                content, content_type = kept
                response = HttpResponse(content, content_type=content_type)
        response["ETag"] = etag
        # A browser may keep the page but must ask again each time: results change any minute.
        patch_cache_control(response, no_cache=True)
        return response

    return wrapper
