"""Answers shared by the public feeds."""

from __future__ import annotations

from typing import Any

from django.http import JsonResponse


def public_json(data: Any) -> JsonResponse:
    """A public feed's JSON, names as they are written (not escaped to \\u…), readable from any
    origin: read-only and public, so that a stream's overlay may read it."""
    response = JsonResponse(data, safe=False, json_dumps_params={"ensure_ascii": False})
    response["Access-Control-Allow-Origin"] = "*"
    return response
