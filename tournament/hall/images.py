"""A player's photo made fit for the hall: checked, decoded within a bounded memory, turned as
its EXIF orientation says, centre-cropped to a fixed square and written as a JPEG without any
metadata (no EXIF, no GPS, no ICC profile, no comment). Pure: bytes in, bytes out, through
Pillow; `photos.py` saves what it makes.

Memory: `Image.open` is lazy and reads only the header, so the declared size is checked before
a pixel is decoded. A JPEG is decoded at a reduced scale (`Image.draft`: 1/2 to 1/8, by the
decoder itself), so a 50-megapixel photo from a camera costs what a 1-megapixel one does; any
other format is decoded whole and so is refused over `MAX_DECODE_PIXELS`.
"""

from __future__ import annotations

import io
import warnings
import zipfile
from dataclasses import dataclass

from PIL import Image, ImageOps, UnidentifiedImageError

SIZE = 256  # the stored photo: SIZE × SIZE pixels
QUALITY = 85
MAX_UPLOAD_BYTES = 8 * 2**20  # one photo as uploaded (and one member of a zip)
MAX_ZIP_BYTES = 64 * 2**20  # a zip of photos as uploaded
MAX_ZIP_MEMBERS = 1000
MAX_ZIP_TOTAL = 256 * 2**20  # all of a zip's members, unpacked
# A zip's photos are made in one request: at ~25 ns a declared pixel (a 12-megapixel JPEG takes
# ~0.3 s) and ~30 ms a small photo, these bound its work to ~10 s, well within a worker's 30 s.
MAX_ZIP_PHOTOS = 500
MAX_ZIP_PIXELS = 400_000_000  # the photos' declared pixels together
MAX_DECLARED_PIXELS = 120_000_000  # refused before decoding, whatever the format
MAX_DECODE_PIXELS = 16_000_000  # decoded whole: 64 MB at 4 bytes a pixel, at most
FORMATS = ("JPEG", "PNG", "GIF", "WEBP")
EXTENSIONS = (".jpg", ".jpeg", ".png", ".gif", ".webp")


class PhotoRefused(ValueError):
    """A file that cannot be a player's photo; the message says why, in one sentence (English;
    the caller translates by `code`)."""

    def __init__(self, code: str, **params: object) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


@dataclass(frozen=True)
class Photo:
    data: bytes  # a baseline JPEG, SIZE × SIZE, no metadata
    width: int
    height: int


def _opened(data: bytes) -> Image.Image:
    if len(data) > MAX_UPLOAD_BYTES:
        raise PhotoRefused("too-large", most=MAX_UPLOAD_BYTES // 2**20)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data), formats=FORMATS)
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise PhotoRefused("too-many-pixels", width=0, height=0) from None
    except UnidentifiedImageError:
        raise PhotoRefused("not-image") from None
    except (OSError, ValueError, SyntaxError):
        raise PhotoRefused("not-image") from None
    width, height = image.size
    if width < 1 or height < 1 or width * height > MAX_DECLARED_PIXELS:
        raise PhotoRefused("too-many-pixels", width=width, height=height)
    return image


def _decoded(image: Image.Image) -> Image.Image:
    """The first frame, decoded: a JPEG at the smallest scale still over twice SIZE."""
    if image.format == "JPEG":
        image.draft("RGB", (2 * SIZE, 2 * SIZE))
    width, height = image.size
    if width * height > MAX_DECODE_PIXELS:
        raise PhotoRefused("too-many-pixels", width=width, height=height)
    try:
        image.seek(0)  # an animated GIF or WebP: its first frame
        image.load()
    except (OSError, ValueError, SyntaxError, EOFError, Image.DecompressionBombError):
        raise PhotoRefused("damaged") from None
    return image


def make_photo(data: bytes) -> Photo:
    """`data` (an uploaded file's bytes) as the stored photo, or PhotoRefused."""
    image = _decoded(_opened(data))
    try:
        exif_orientation = image.getexif().get(0x0112)
    except Exception:  # noqa: BLE001 - a damaged EXIF block: the photo as it stands
        exif_orientation = None
    if exif_orientation:
        image = ImageOps.exif_transpose(image)
    if image.mode in ("RGBA", "LA", "P", "PA"):
        rgba = image.convert("RGBA")
        white = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        image = Image.alpha_composite(white, rgba)
    image = image.convert("RGB")
    if max(image.size) > 4 * SIZE:  # a quick halving first, then the fine resampling
        image = image.reduce(max(1, min(image.size) // (2 * SIZE)) or 1)
    square = ImageOps.fit(image, (SIZE, SIZE), Image.Resampling.LANCZOS, centering=(0.5, 0.5))
    clean = Image.new("RGB", square.size)  # a new image: nothing of the file's info carried
    clean.paste(square)
    out = io.BytesIO()
    clean.save(out, "JPEG", quality=QUALITY, optimize=True)
    return Photo(out.getvalue(), SIZE, SIZE)


@dataclass(frozen=True)
class Member:
    name: str  # the file's name without its folders
    data: bytes


def zip_members(data: bytes) -> tuple[list[Member], list[str]]:
    """The image files of a zip of photos (by their extension), and the names of the files it
    skipped (other files); each member's declared and actual size checked against the caps
    before and while it is read, so that a zip bomb is refused after reading at most the cap.
    The photos' count (`MAX_ZIP_PHOTOS`, before a member is read) and their pixels as their
    headers declare them (`MAX_ZIP_PIXELS`, before one is decoded) bound the work they take."""
    if len(data) > MAX_ZIP_BYTES:
        raise PhotoRefused("zip-too-large", most=MAX_ZIP_BYTES // 2**20)
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        infos = archive.infolist()
    except (zipfile.BadZipFile, ValueError, OSError, EOFError):
        raise PhotoRefused("not-zip") from None
    if len(infos) > MAX_ZIP_MEMBERS:
        raise PhotoRefused("zip-too-many", most=MAX_ZIP_MEMBERS)
    members: list[Member] = []
    skipped: list[str] = []
    total = 0
    photos = sum(1 for info in infos if _photo_name(info).endswith(EXTENSIONS))
    if photos > MAX_ZIP_PHOTOS:
        raise PhotoRefused("zip-too-many-photos", count=photos, most=MAX_ZIP_PHOTOS)
    for info in infos:
        name = info.filename.replace("\\", "/").rsplit("/", 1)[-1]
        if info.is_dir() or not name or name.startswith(".") or "__MACOSX/" in info.filename:
            continue
        if not name.lower().endswith(EXTENSIONS):
            skipped.append(name)
            continue
        if info.file_size > MAX_UPLOAD_BYTES:
            raise PhotoRefused("member-too-large", name=name, most=MAX_UPLOAD_BYTES // 2**20)
        total += info.file_size
        if total > MAX_ZIP_TOTAL:
            raise PhotoRefused("zip-unpacks-too-far", most=MAX_ZIP_TOTAL // 2**20)
        try:
            with archive.open(info) as member:
                raw = member.read(MAX_UPLOAD_BYTES + 1)  # the actual size, whatever it declares
        except (zipfile.BadZipFile, ValueError, OSError, EOFError, NotImplementedError):
            raise PhotoRefused("member-damaged", name=name) from None
        if len(raw) > MAX_UPLOAD_BYTES:
            raise PhotoRefused("member-too-large", name=name, most=MAX_UPLOAD_BYTES // 2**20)
        members.append(Member(name, raw))
    pixels = sum(declared_pixels(m.data) for m in members)
    if pixels > MAX_ZIP_PIXELS:
        raise PhotoRefused(
            "zip-too-many-pixels",
            megapixels=(pixels + 999_999) // 1_000_000,
            most=MAX_ZIP_PIXELS // 1_000_000,
        )
    return members, skipped


def _photo_name(info: zipfile.ZipInfo) -> str:
    """A member's name in lower case, without its folders; "" for what is never a photo."""
    name = info.filename.replace("\\", "/").rsplit("/", 1)[-1]
    if info.is_dir() or not name or name.startswith(".") or "__MACOSX/" in info.filename:
        return ""
    return name.lower()


def declared_pixels(data: bytes) -> int:
    """The pixels an image's header declares (read lazily: nothing decoded); 0 for a file that
    is not one (refused on its own when it is made)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data), formats=FORMATS) as image:
                width, height = image.size
    except Image.DecompressionBombError:
        return MAX_DECLARED_PIXELS
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError):
        return 0
    return max(0, width) * max(0, height)
