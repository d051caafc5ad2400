"""Players' photos: one uploaded at the desk, a zip of them (or a folder, `manage.py photos`)
matched to the division's players by number or by name, and the photo's public address.

Every photo goes through `images.make_photo` (checked, bounded in memory, cropped, stripped of
its metadata); each saved or removed photo is one transaction logged as `Change.Action.PHOTO`
and renews the division's stamp, so the cards and tourney.js show it on their next request.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from django.db import transaction
from django.urls import reverse
from django.utils.translation import gettext

from tournament.core import audit
from tournament.core.actor import Actor
from tournament.core.sentences import isolate
from tournament.hall import images
from tournament.hall.images import PhotoRefused
from tournament.interchange.ratinglist import name_key
from tournament.models import Change, Division, Player, PlayerPhoto, new_stamp
from tournament.standings import stamps


def refusal_text(refused: PhotoRefused) -> str:
    """The sentence for a refused photo or zip, in the reader's language."""
    p = refused.params
    texts = {
        "too-large": gettext("The file is over %(most)s MB, the most a photo may be."),
        "not-image": gettext(
            "The file is not an image Spread reads (JPEG, PNG, GIF or WebP), whatever its "
            "name says."
        ),
        "too-many-pixels": gettext(
            "The image is too large to read (%(width)s × %(height)s pixels); send a smaller one."
        ),
        "damaged": gettext("The image is damaged: it cannot be read to its end."),
        "zip-too-large": gettext("The zip is over %(most)s MB."),
        "not-zip": gettext("The file is not a zip file, or it is damaged."),
        "zip-too-many": gettext("The zip holds over %(most)s files."),
        "member-too-large": gettext("%(name)s in the zip is over %(most)s MB."),
        "zip-unpacks-too-far": gettext("The zip unpacks to over %(most)s MB."),
        "member-damaged": gettext("%(name)s in the zip is damaged."),
        "zip-too-many-photos": gettext(
            "The zip holds %(count)s photos, more than the %(most)s read at once: send them in "
            "smaller zips."
        ),
        "zip-too-many-pixels": gettext(
            "The zip's photos hold %(megapixels)s megapixels together, more than the %(most)s "
            "read at once: send them in smaller zips, or smaller photos."
        ),
    }
    text = texts.get(refused.code, texts["not-image"])
    return text % p if p else text


def save_photo(player: Player, data: bytes, user: Actor, source: str = "") -> PlayerPhoto:
    """The player's photo made from `data` and saved (replacing any), logged; PhotoRefused
    with the reason if the file cannot be one."""
    photo = images.make_photo(data)
    with transaction.atomic():
        player = Player.objects.select_for_update().select_related("division").get(pk=player.pk)
        had = PlayerPhoto.objects.filter(player=player).exists()
        kept, _ = PlayerPhoto.objects.update_or_create(
            player=player,
            defaults={
                "data": photo.data,
                "width": photo.width,
                "height": photo.height,
                "stamp": new_stamp(),
            },
        )
        audit.record(
            player.division,
            Change.Action.PHOTO,
            actor=user,
            before={"player": player.number, "photo": had},
            after={"player": player.number, "photo": True, "bytes": len(photo.data)},
            reason=f"Photo of player {player.number} ({isolate(player.name)})"
            + (f" from {source}" if source else ""),
        )
        stamps.touch([player.division_id])
    return kept


def remove_photo(player: Player, user: Actor) -> bool:
    """The player's photo removed, logged; False if there was none."""
    with transaction.atomic():
        player = Player.objects.select_for_update().select_related("division").get(pk=player.pk)
        deleted, _ = PlayerPhoto.objects.filter(player=player).delete()
        if not deleted:
            return False
        audit.record(
            player.division,
            Change.Action.PHOTO,
            actor=user,
            before={"player": player.number, "photo": True},
            after={"player": player.number, "photo": False},
            reason=f"Photo of player {player.number} ({isolate(player.name)}) removed",
        )
        stamps.touch([player.division_id])
    return True


@dataclass
class BatchResult:
    """What a zip or folder of photos did: each file matched to a player (and saved), and the
    files that matched no one, more than one player, or were refused, with why."""

    saved: list[tuple[str, Player]] = field(default_factory=list)
    unmatched: list[str] = field(default_factory=list)
    ambiguous: list[tuple[str, list[Player]]] = field(default_factory=list)
    refused: list[tuple[str, str]] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # not image files, by their names


_NUMBER = re.compile(r"[0-9]{1,6}")


def _stem(filename: str) -> str:
    return filename.rsplit(".", 1)[0] if "." in filename else filename


def match_file(filename: str, players: list[Player]) -> list[Player]:
    """The players a file's name names: its stem as a player number ("12.jpg", "012.png"), else
    as a name matched as the rating list matches names (`ratinglist.name_key`: case, accents,
    punctuation and the order of the words aside; "smith_john.jpg" is "Smith, John")."""
    stem = _stem(filename).strip()
    if _NUMBER.fullmatch(stem):
        number = int(stem)
        return [p for p in players if p.number == number]
    key = name_key(stem)
    if not key:
        return []
    return [p for p in players if name_key(p.name) == key]


def save_batch(division: Division, files: list[images.Member], user: Actor) -> BatchResult:
    """Each file matched to one player of the division and saved as their photo; every file
    is reported: saved, matched no one, matched several, or refused (and why)."""
    players = list(division.players.all())
    result = BatchResult()
    for member in files:
        found = match_file(member.name, players)
        if not found:
            result.unmatched.append(member.name)
            continue
        if len(found) > 1:
            result.ambiguous.append((member.name, found))
            continue
        try:
            save_photo(found[0], member.data, user, source=member.name)
        except PhotoRefused as refused:
            result.refused.append((member.name, refusal_text(refused)))
            continue
        result.saved.append((member.name, found[0]))
    return result


def save_zip(division: Division, data: bytes, user: Actor) -> BatchResult:
    """A zip of photos (`images.zip_members`: capped, zip bombs refused) saved by `save_batch`."""
    members, skipped = images.zip_members(data)
    result = save_batch(division, members, user)
    result.skipped = skipped
    return result


def photo_url(division: Division, number: int, photo_stamp: str) -> str:
    """The photo of player `number`'s public address: it carries the photo's stamp, so that a
    browser keeps it a year and a new photo has a new address."""
    return reverse(
        "player-photo", args=[division.tournament.slug, division.name, number, photo_stamp]
    )


def photo_stamps(division: Division) -> dict[int, str]:
    """Each player's photo stamp by the player's primary key (one query, no image data)."""
    return dict(
        PlayerPhoto.objects.filter(player__division=division).values_list("player_id", "stamp")
    )


def set_xtid(player: Player, xtid: int | None, user: Actor) -> Player:
    """The player's cross-tables id set (None: taken off), at any time of the event; logged.
    A TSH export writes it back where the file had it (`exchange/tsh_io.py`)."""
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player.pk)
        if player.xtid == xtid:
            return player
        before = {"player": player.number, "xtid": player.xtid}
        player.xtid = xtid
        player.save(update_fields=["xtid", "updated"])
        audit.record(
            player.division,
            Change.Action.EDIT_PLAYER,
            actor=user,
            before=before,
            after={"player": player.number, "xtid": xtid},
            reason=f"Player {player.number} ({isolate(player.name)}): cross-tables id "
            + (str(xtid) if xtid is not None else "taken off"),
        )
    return player
