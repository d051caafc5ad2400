"""A director's zip of photos is bounded in its work before any photo is made: the number of
photos (before a member is read) and their pixels as their headers declare them (before one is
decoded); the desk says so in a sentence. 300 large photos ran past a worker's timeout."""

from __future__ import annotations

import io
import zipfile

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from PIL import Image

from tournament.hall import images, photos
from tournament.models import Division, Player, PlayerPhoto, Tournament


def _png(width: int, height: int) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), (40, 90, 160)).save(out, "PNG")
    return out.getvalue()


def _zip(files: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in files.items():
            zf.writestr(name, data)
    return out.getvalue()


@pytest.fixture
def hall(db: None) -> tuple[Division, Client]:
    director = User.objects.create_user("dee")
    t = Tournament.objects.create(name="Photo Open", slug="photo-open")
    t.directors.add(director)
    d = Division.objects.create(tournament=t, name="A")
    Player.objects.bulk_create(
        [Player(division=d, number=n, name=f"Player {n}") for n in range(1, 301)]
    )
    desk = Client()
    desk.force_login(director)
    return d, desk


def _send(desk: Client, division: Division, data: bytes):
    upload = SimpleUploadedFile("photos.zip", data, content_type="application/zip")
    return desk.post(
        f"/desk/photo-open/division/{division.pk}/photos/", {"action": "zip", "zip-photos": upload}
    )


def _messages(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def test_300_large_photos_are_refused_before_one_is_made(hall, monkeypatch) -> None:
    division, desk = hall
    made: list[int] = []
    monkeypatch.setattr(images, "make_photo", lambda data: made.append(1))
    # 12 megapixels each, as a camera takes them (a one-colour PNG: small to send).
    large = _png(4000, 3000)
    data = _zip({f"{n}.png": large for n in range(1, 301)})
    answer = _send(desk, division, data)
    assert answer.status_code == 400
    assert _messages(answer) == [
        "The zip's photos hold 3600 megapixels together, more than the 400 read at once: send "
        "them in smaller zips, or smaller photos."
    ]
    assert made == [] and not PlayerPhoto.objects.exists()
    # 33 of them (396 megapixels) are read.
    monkeypatch.undo()
    few = _zip({f"{n}.png": large for n in range(1, 34)})
    members, skipped = images.zip_members(few)
    assert (len(members), skipped) == (33, [])


def test_more_photos_than_a_request_makes_are_refused_before_one_is_read(hall, monkeypatch) -> None:
    division, desk = hall
    read: list[int] = []
    monkeypatch.setattr(images, "declared_pixels", lambda data: read.append(1) or 1)
    tiny = _png(1, 1)
    files = {f"photos/{n}.png": tiny for n in range(1, 502)}
    files["notes.txt"] = b"not a photo: not counted"
    answer = _send(desk, division, _zip(files))
    assert answer.status_code == 400
    assert _messages(answer) == [
        "The zip holds 501 photos, more than the 500 read at once: send them in smaller zips."
    ]
    assert read == [] and not PlayerPhoto.objects.exists()


def test_a_zip_within_the_bounds_is_saved(hall) -> None:
    division, desk = hall
    answer = _send(desk, division, _zip({"1.png": _png(600, 400), "2.png": _png(300, 300)}))
    assert answer.status_code == 200
    assert sorted(PlayerPhoto.objects.values_list("player__number", flat=True)) == [1, 2]
    assert photos.refusal_text(images.PhotoRefused("zip-too-many-photos", count=2, most=1)) == (
        "The zip holds 2 photos, more than the 1 read at once: send them in smaller zips."
    )
