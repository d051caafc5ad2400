"""Every player's personal link at once, for the directors: the desk's links page, its CSV
(number, name, Latin name, absolute link) and its text to paste into a message (a line a
player).

A player who has never had a link is given one, as the slips do; one whose link was revoked
has none (an empty link) until a director makes a new one. A CSV cell never starts a formula:
a name a player gave cannot run in the spreadsheet it is opened in (`csv_cell`).
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from tournament.core.access import get_desk_division
from tournament.core.language import ltr_text
from tournament.core.sentences import isolate, unmarked
from tournament.models import Division, Player, PlayerLink
from tournament.phone import services as phone

# What a spreadsheet reads as the start of a formula (or of a DDE call): such a cell is
# written after an apostrophe, which spreadsheets show as text (OWASP's "CSV injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


@dataclass
class Row:
    player: Player
    url: str  # "" for a player whose link was revoked


def rows(request: HttpRequest, division: Division) -> list[Row]:
    """Every player of the division with their current link as an absolute address."""
    players = list(division.players.order_by("number"))
    links = list(
        PlayerLink.objects.filter(player__division=division).values_list("player_id", "revoked")
    )
    had = {pk for pk, revoked in links}
    live = {pk for pk, revoked in links if revoked is None}
    found = []
    for player in players:
        url = ""
        if player.pk in live or player.pk not in had:
            token = phone.live_token(player)
            url = request.build_absolute_uri(reverse("phone", args=[token]))
        found.append(Row(player, url))
    return found


def csv_cell(text: str) -> str:
    """A text as a CSV cell that a spreadsheet shows and never runs: one starting with
    `FORMULA_STARTS` after an apostrophe; isolation marks taken off (a cell holds one name)."""
    text = unmarked(text)
    return "'" + text if text.lstrip(" ").startswith(FORMULA_STARTS) else text


def csv_text(found: list[Row]) -> str:
    """The links as CSV: a header row, then number, name, Latin name, link a player."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(
        [
            csv_cell(h)
            for h in (_("number"), _("name"), _("Latin name"), pgettext("a web address", "link"))
        ]
    )
    for row in found:
        p = row.player
        writer.writerow([p.number, csv_cell(p.name), csv_cell(p.latin_name), csv_cell(row.url)])
    return out.getvalue()


def message_text(found: list[Row]) -> str:
    """The links as lines to paste into a message: "1 Quill, Ada: https://…", the name in its
    own direction and the link left to right, whatever the language around them."""
    return "\n".join(
        _("%(number)s %(name)s: %(link)s")
        % {
            "number": row.player.number,
            "name": isolate(row.player.name),
            "link": ltr_text(row.url) if row.url else _("no link (revoked)"),
        }
        for row in found
    )


def _file_name(division: Division, extension: str) -> str:
    """An ASCII file name: the tournament's slug and the division's name, as far as they go."""
    name = re.sub(r"[^A-Za-z0-9_-]+", "-", division.name).strip("-")
    return f"{division.tournament.slug}-{name or division.pk}-links.{extension}"


@login_required
def links_csv(request: HttpRequest, slug: str, division_id: int) -> HttpResponse:
    """The division's links as CSV, for its directors alone (a scorekeeper is refused, as for
    the links page and the slips)."""
    division = get_desk_division(request, slug, division_id)
    # A byte-order mark, so that a spreadsheet reads the names as UTF-8.
    body = "\ufeff" + csv_text(rows(request, division))
    response = HttpResponse(body.encode(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{_file_name(division, "csv")}"'
    response["Cache-Control"] = "no-store"  # every player's link
    return response
