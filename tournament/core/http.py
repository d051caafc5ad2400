"""Answers shared by the public feeds."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse, JsonResponse


def public_json(data: Any) -> JsonResponse:
    """A public feed's JSON, names as they are written (not escaped to \\u…), readable from any
    origin: read-only and public, so that a stream's overlay may read it."""
    response = JsonResponse(data, safe=False, json_dumps_params={"ensure_ascii": False})
    _public(response)
    return response


def public_json_text(text: str | bytes) -> HttpResponse:
    """`public_json` of a feed's JSON text (bytes: in UTF-8), written already
    (`hall/cards.scoreboard_json`)."""
    response = HttpResponse(text, content_type="application/json")
    _public(response)
    return response


def _public(response: HttpResponse) -> None:
    response["Access-Control-Allow-Origin"] = "*"
