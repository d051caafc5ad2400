"""Players' photos (tournament/hall/images.py, photos.py, desk.py): checked, shrunk, stripped."""

from __future__ import annotations

import io
import struct
import subprocess
import sys
import textwrap
import zipfile
import zlib
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from PIL import Image

from tournament.hall import images, photos
from tournament.hall.images import PhotoRefused
from tournament.models import Change, Division, Player, PlayerPhoto, Tournament


def _png(size=(300, 200), colour=(200, 10, 10)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, colour).save(out, "PNG")
    return out.getvalue()


def _jpeg_with_exif() -> bytes:
    """A 400 × 200 JPEG, left half red, EXIF orientation 6 (turn 90° clockwise) and a GPS tag."""
    image = Image.new("RGB", (400, 200), (0, 0, 255))
    image.paste((255, 0, 0), (0, 0, 200, 200))
    exif = Image.Exif()
    exif[0x0112] = 6
    exif[0x8825] = {1: "N", 2: (51.0, 30.0, 0.0)}  # GPSInfo
    out = io.BytesIO()
    image.save(out, "JPEG", exif=exif, quality=95)
    return out.getvalue()


def test_png_made_a_square_jpeg() -> None:
    photo = images.make_photo(_png())
    image = Image.open(io.BytesIO(photo.data))
    assert image.format == "JPEG" and image.size == (256, 256) == (photo.width, photo.height)
    r, g, b = image.getpixel((128, 128))
    assert r > 180 and g < 40 and b < 40


def test_exif_orientation_applied_then_every_metadata_gone() -> None:
    data = _jpeg_with_exif()
    assert Image.open(io.BytesIO(data)).getexif().get(0x0112) == 6
    image = Image.open(io.BytesIO(images.make_photo(data).data))
    assert dict(image.getexif()) == {}
    assert "exif" not in image.info and "icc_profile" not in image.info
    # Turned clockwise, the red left half is the top: the top centre red, the bottom blue.
    top, bottom = image.getpixel((128, 10)), image.getpixel((128, 245))
    assert top[0] > 200 and top[2] < 60
    assert bottom[2] > 200 and bottom[0] < 60


def test_animated_gif_gives_its_first_frame() -> None:
    frames = [Image.new("RGB", (100, 100), c) for c in [(0, 200, 0), (200, 0, 0)]]
    out = io.BytesIO()
    frames[0].save(out, "GIF", save_all=True, append_images=frames[1:], duration=100, loop=0)
    assert Image.open(io.BytesIO(out.getvalue())).n_frames == 2
    r, g, b = Image.open(io.BytesIO(images.make_photo(out.getvalue()).data)).getpixel((128, 128))
    assert g > 150 and r < 60


@pytest.mark.parametrize(
    "data",
    [b"<?php echo 'hi'; ?>", b"\xff\xd8\xff\xe0not really a jpeg", b"GIF89a" + b"\x00" * 20, b""],
)
def test_a_file_that_only_claims_to_be_an_image_is_refused(data: bytes) -> None:
    with pytest.raises(PhotoRefused) as refused:
        images.make_photo(data)
    assert refused.value.code in ("not-image", "damaged")
    assert "not an image" in photos.refusal_text(PhotoRefused("not-image"))


def _huge_png(width: int, height: int) -> bytes:
    """A valid grayscale PNG of width × height written row by row (a few MB of memory)."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (
            struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
        )

    packer = zlib.compressobj(9)
    row = b"\x00" + b"\x80" * width
    idat = b"".join(packer.compress(row) for _ in range(height)) + packer.flush()
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")
    )


def test_a_50_megapixel_png_is_refused_before_decoding() -> None:
    data = _huge_png(10_000, 5_000)
    assert len(data) < images.MAX_UPLOAD_BYTES
    with pytest.raises(PhotoRefused) as refused:
        images.make_photo(data)
    assert refused.value.code == "too-many-pixels"
    assert "10000 × 5000" in photos.refusal_text(refused.value)


def test_a_50_megapixel_jpeg_is_shrunk_in_bounded_memory(tmp_path: Path) -> None:
    """Decoded at 1/8 scale by the JPEG decoder: its peak memory is a small part of the 150 MB
    the whole image would take. Measured in a process of its own (ru_maxrss)."""
    source = tmp_path / "big.jpg"
    make = (
        "from PIL import Image; Image.new('RGB', (10000, 5000), (9, 99, 199)).save(%r, quality=70)"
    )
    subprocess.run([sys.executable, "-c", make % str(source)], check=True)
    probe = textwrap.dedent(
        f"""
        import resource, sys
        sys.path.insert(0, {str(Path.cwd())!r})
        from tournament.hall import images
        data = open({str(source)!r}, "rb").read()
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        photo = images.make_photo(data)
        after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        print(after - before, photo.width, photo.height)
        """
    )
    out = subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True, text=True)
    grown_kb, width, height = map(int, out.stdout.split())
    assert (width, height) == (256, 256)
    assert grown_kb < 40 * 1024, f"{grown_kb} KB"  # the whole image decoded: 146,484 KB


def test_zip_bomb_and_oversized_members_are_refused() -> None:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("1.jpg", b"\x00" * (images.MAX_UPLOAD_BYTES + 10))
    with pytest.raises(PhotoRefused) as refused:
        images.zip_members(out.getvalue())
    assert refused.value.code == "member-too-large"
    with pytest.raises(PhotoRefused) as refused:
        images.zip_members(b"PK\x03\x04 not a zip")
    assert refused.value.code == "not-zip"
    # A member that lies about its size: declared small, actually over the cap.
    data = bytearray(out.getvalue())
    info = zipfile.ZipFile(io.BytesIO(bytes(data))).infolist()[0]
    central = data.rfind(b"PK\x01\x02")
    data[central + 24 : central + 28] = struct.pack("<I", 1000)  # the declared size
    data[info.header_offset + 22 : info.header_offset + 26] = struct.pack("<I", 1000)
    with pytest.raises(PhotoRefused) as refused:
        images.zip_members(bytes(data))
    assert refused.value.code in ("member-too-large", "member-damaged")


@pytest.fixture
def setup(db: None, django_user_model):
    director = django_user_model.objects.create_user("dee")
    stranger = django_user_model.objects.create_user("eve")
    t = Tournament.objects.create(name="Photo Open", slug="photo-open")
    t.directors.add(director)
    d = Division.objects.create(tournament=t, name="A")
    for n, name in enumerate(["Smith, John", "رضا محمدی", "김민준", "Smith, Jane"], 1):
        Player.objects.create(division=d, number=n, name=name)
    return d, director, stranger


def _zip(files: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as zf:
        for name, data in files.items():
            zf.writestr(name, data)
    return out.getvalue()


def test_zip_matched_by_number_and_name(setup) -> None:
    d, director, _ = setup
    data = _zip(
        {
            "photos/3.png": _png(),
            "john_smith.jpg": _jpeg_with_exif(),
            "رضا محمدی.png": _png(),
            "Nobody Here.png": _png(),
            "99.png": _png(),
            "notes.txt": b"hello",
            "4.jpg": b"just text",
        }
    )
    result = photos.save_zip(d, data, director)
    assert [(f, p.number) for f, p in result.saved] == [
        ("3.png", 3),
        ("john_smith.jpg", 1),
        ("رضا محمدی.png", 2),
    ]
    assert result.unmatched == ["Nobody Here.png", "99.png"]
    assert result.skipped == ["notes.txt"]
    assert [f for f, _ in result.refused] == ["4.jpg"]
    assert sorted(PlayerPhoto.objects.values_list("player__number", flat=True)) == [1, 2, 3]
    assert Change.objects.filter(action=Change.Action.PHOTO).count() == 3


def test_desk_upload_permissions_and_public_address(setup) -> None:
    d, director, stranger = setup
    url = f"/desk/photo-open/division/{d.pk}/players/1/photo"
    upload = SimpleUploadedFile("me.png", _png(), content_type="image/png")
    c = Client()
    c.force_login(stranger)
    assert c.post(url, {"photo": upload}).status_code == 403
    assert not PlayerPhoto.objects.exists()
    c.force_login(director)
    upload = SimpleUploadedFile("me.png", _png(), content_type="image/png")
    assert c.post(url, {"photo": upload}).status_code == 302
    kept = PlayerPhoto.objects.get()
    address = f"/t/photo-open/A/photo/1/{kept.stamp}.jpg"
    public = Client().get(address)
    assert public.status_code == 200 and public["Content-Type"] == "image/jpeg"
    assert public["Cache-Control"] == "public, max-age=31536000, immutable"
    assert bytes(public.content) == bytes(kept.data)
    assert Client().get("/t/photo-open/A/photo/1/old.jpg").status_code == 404
    feed = Client().get("/api/v1/t/photo-open/A/scoreboard").json()
    assert [c["photo"] for c in feed["players"] if c["number"] == 1] == [address]
    fake = SimpleUploadedFile("x.jpg", b"MZ\x90\x00 an exe", content_type="image/jpeg")
    page = c.post(url, {"photo": fake}, follow=True).content.decode()
    assert "not an image" in page
    zip_page = c.post(
        f"/desk/photo-open/division/{d.pk}/photos/",
        {"action": "zip", "zip-photos": SimpleUploadedFile("p.zip", _zip({"9.png": _png()}))},
    )
    assert zip_page.status_code == 200 and "9.png" in zip_page.content.decode()
    assert c.post(url, {"action": "remove"}).status_code == 302
    assert not PlayerPhoto.objects.exists()
    Tournament.objects.filter(pk=d.tournament_id).update(public=False)
    assert Client().get(address).status_code == 404


def test_manage_py_photos_from_a_folder(setup, tmp_path: Path) -> None:
    from django.core.management import call_command

    d, _, _ = setup
    (tmp_path / "2.png").write_bytes(_png())
    (tmp_path / "Smith, Jane.png").write_bytes(_png())
    (tmp_path / "zz.png").write_bytes(_png())
    out = io.StringIO()
    call_command("photos", "photo-open", str(tmp_path), division="A", stdout=out)
    assert sorted(PlayerPhoto.objects.values_list("player__number", flat=True)) == [2, 4]
    assert "zz.png" in out.getvalue()
