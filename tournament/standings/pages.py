"""The public pages, cached whole for visitors who are not signed in.

A page is kept under its address and the stamps of its tournament's divisions (one small query),
which every change to a division replaces in the same transaction (`standings/stamps.py`): a
result entered is on the next request to any worker, and with REDIS_URL to any server. A page
that shows one round's games alone (the round's pairings, a scoresheet) is kept under the
divisions' frame stamps and that round's own stamp instead (`one_round`, `sheet_round`): a result
in round 7 leaves round 3's pairings cached, and is on round 7's next request all the same.
The stamp is also the page's ETag, so a phone that asks again with If-None-Match gets a 304 at
the cost of that query. A page is kept once per language (`tournament/core/language.py` decides it
before the cache is read: the tournament's default language comes with the stamps). Signed-in
users (directors see hidden tournaments and a logout form with a CSRF token) and requests
carrying messages get the page rendered for them, uncached.

The view gets what the cache read as one typed object, its `Page`: the divisions' stamps (read
once a request and passed down to the read model), what the page's scope worked out on the way
(a player's parts), and whether the page it rendered may be kept under its key.

A page is kept gzip-compressed, compressed once when it is rendered: it is sent so to every
browser that accepts gzip (all do), and unpacked for a client that does not. A 500-player
crosstable is 958 KB of HTML and 165 KB compressed: less to read from Redis on every request,
and less to send over a hall's Wi-Fi.
"""

from __future__ import annotations

import gzip
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import wraps
from typing import Any, Generic, TypeVar

from django.http import HttpRequest, HttpResponse, HttpResponseBase, HttpResponseNotModified
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.translation import get_language

from tournament.core.language import apply_tournament_language
from tournament.models import Division, Scoresheet
from tournament.standings import keys
from tournament.standings import stamps as division_stamps
from tournament.standings.cache_once import get_or_compute
from tournament.standings.stamps import DivisionStamps

# Long enough to outlive a day's play; a stamp replaced leaves its pages to expire unread.
PAGE_TIMEOUT = 6 * 3600

View = Callable[..., HttpResponseBase]


T = TypeVar("T")


@dataclass
class Page(Generic[T]):
    """What the page cache hands its view, as one object.

    `divisions`: the stamps of the tournament's divisions as this request read them (once; none
    yet for a page rendered for a signed-in user, which reads a division's when first asked).
    `scoped`: what the page's scope worked out on the way (a player's parts), for the view to
    show exactly that. `keep`: whether the page rendered may be kept under the key its scope
    gave; the view clears it when what it shows is newer than the key says."""

    divisions: list[DivisionStamps] = field(default_factory=list)
    scoped: T | None = None
    keep: bool = True

    def named(self, name: str) -> DivisionStamps | None:
        """The stamps read of the division called `name`, if any."""
        return next((d for d in self.divisions if d.name == name), None)

    def stamps(self, division: Division) -> DivisionStamps:
        """The division's stamps as read for this request, else read now, once."""
        found = next((d for d in self.divisions if d.pk == division.pk), None)
        if found is None:
            found = division_stamps.read(division)
            self.divisions.append(found)
        return found


@dataclass(frozen=True)
class Scoped:
    """A page kept under its divisions' frame stamps (`keys.of_divisions`), not their stamps:
    with the one round whose games it shows (its own stamp), or what it shows of the results
    (`shows`, a fingerprint)."""

    one_round: tuple[DivisionStamps, int] | None = None
    shows: str = ""


# What a page is kept under: from the page (its divisions' stamps) and the view's arguments;
# None for every division's stamp.
Scope = Callable[[Page[Any], dict[str, Any]], Scoped | None]


def _round_of(page: Page[Any], division: DivisionStamps | None, number: int) -> Scoped | None:
    if division is None:
        return None
    return Scoped(one_round=(division, number))


def one_round(page: Page[Any], kwargs: dict[str, Any]) -> Scoped | None:
    """A round's pairings page (`division`, `number`): the frame stamps and the round's."""
    return _round_of(page, page.named(kwargs.get("division", "")), int(kwargs["number"]))


def sheet_round(page: Page[Any], kwargs: dict[str, Any]) -> Scoped | None:
    """A scoresheet's page (`pk`): the frame stamps and its game's round's (one more query)."""
    found = Scoresheet.objects.filter(pk=kwargs["pk"]).values_list("game__division", "game__round")
    for division_pk, number in found:
        division = next((d for d in page.divisions if d.pk == division_pk), None)
        return _round_of(page, division, number)
    return None


def _page_key(request: HttpRequest, page: Page[Any], scoped: Scoped | None) -> str:
    # The page's language is part of its address: the same URL reads differently in Persian.
    address, language = request.get_full_path(), get_language() or ""
    if scoped is None:
        return keys.of_divisions("page", page.divisions, address=address, language=language)
    return keys.of_divisions(
        "page",
        page.divisions,
        frames=True,
        one_round=scoped.one_round,
        shows=scoped.shows,
        address=address,
        language=language,
    )


def _accepts_gzip(request: HttpRequest) -> bool:
    """Whether the request's Accept-Encoding names gzip (or `*`) with a weight above 0."""
    for part in request.headers.get("Accept-Encoding", "").split(","):
        name, _, params = part.partition(";")
        if name.strip().lower() not in ("gzip", "*"):
            continue
        weight = params.strip().lower().removeprefix("q=")
        try:
            return not params.strip() or float(weight) > 0
        except ValueError:
            return False
    return False


def _kept_response(content: bytes, content_type: str, request: HttpRequest) -> HttpResponse:
    """The response for a page kept compressed: as kept, or unpacked if gzip is not accepted."""
    if not _accepts_gzip(request):
        return HttpResponse(gzip.decompress(content), content_type=content_type)
    response = HttpResponse(content, content_type=content_type)
    response["Content-Encoding"] = "gzip"
    return response


def _etag_matches(request: HttpRequest, etag: str) -> bool:
    wanted = request.headers.get("If-None-Match", "")
    return any(tag.strip().removeprefix("W/") == etag for tag in wanted.split(","))


def cached_public_page(view: View, scope: Scope | None = None) -> View:
    """Serve `view`'s page from the cache, for anyone not signed in, until a division changes
    (or, with `scope`, until the stamps it names change)."""

    @wraps(view)
    def wrapper(request: HttpRequest, slug: str, *args: object, **kwargs: Any):
        cacheable = (
            request.method in ("GET", "HEAD")
            and "messages" not in request.COOKIES
            and not request.user.is_authenticated
        )
        page: Page[Any] = Page(division_stamps.of_public_tournament(slug) if cacheable else [])
        if not page.divisions:
            return view(request, Page(), slug, *args, **kwargs)
        apply_tournament_language(request, page.divisions[0].language)
        scoped = scope(page, kwargs) if scope is not None else None
        key = _page_key(request, page, scoped)
        # Weak: the page is sent compressed or not, byte for byte different, the same page.
        etag = f'W/"{key.removeprefix("page:")[:32]}"'
        if _etag_matches(request, etag.removeprefix("W/")):
            response: HttpResponseBase = HttpResponseNotModified()
        else:
            rendered: list[HttpResponseBase] = []

            def render() -> tuple[bytes, str] | None:
                rendered.append(view(request, page, slug, *args, **kwargs))
                response = rendered[0]
                if response.status_code != 200 or not isinstance(response, HttpResponse):
                    return None  # an error or a redirect is not kept
                if not page.keep:
                    return None  # the view knows its page is not the one of this key
                # The fastest level: a page is compressed each time it changes, and level 6's
                # smaller page (a 500-player crosstable: 124 KB, not 165 KB) costs 4 times as much.
                return gzip.compress(response.content, 1, mtime=0), response["Content-Type"]

            # Many viewers ask for a page just renewed at once: one renders, the others wait.
            kept = get_or_compute(key, render, PAGE_TIMEOUT)
            if kept is None:
                return rendered[0] if rendered else view(request, page, slug, *args, **kwargs)
            if not rendered:
                response = _kept_response(*kept, request)
            else:
                response = rendered[0]
                if _accepts_gzip(request) and isinstance(response, HttpResponse):
                    response.content = kept[0]
                    response["Content-Encoding"] = "gzip"
        response["ETag"] = etag
        patch_vary_headers(response, ["Accept-Encoding"])
        # A browser may keep the page but must ask again each time: results change any minute.
        patch_cache_control(response, no_cache=True)
        return response

    return wrapper
