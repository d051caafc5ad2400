"""`manage.py photos SLUG --division A PATH`: the players' photos from a folder or a zip, each
file named by the player's number or name (`hall/photos.match_file`); says what matched."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import CommandError, CommandParser

from tournament.hall import images, photos
from tournament.hall.images import PhotoRefused
from tournament.management.base import DivisionCommand


class Command(DivisionCommand):
    help = "Players' photos from a folder or a zip, named by number or by name."

    def add_arguments(self, parser: CommandParser) -> None:
        super().add_arguments(parser)
        parser.add_argument("path")

    def _members(self, path: Path) -> tuple[list[images.Member], list[str]]:
        if path.is_dir():
            members, skipped = [], []
            for f in sorted(path.iterdir()):
                if not f.is_file() or f.name.startswith("."):
                    continue
                if not f.name.lower().endswith(images.EXTENSIONS):
                    skipped.append(f.name)
                elif f.stat().st_size > images.MAX_UPLOAD_BYTES:
                    skipped.append(f"{f.name} (over {images.MAX_UPLOAD_BYTES // 2**20} MB)")
                else:
                    members.append(images.Member(f.name, f.read_bytes()))
            return members, skipped
        if path.is_file() and path.stat().st_size <= images.MAX_ZIP_BYTES:
            return images.zip_members(path.read_bytes())
        raise CommandError(f"{path}: not a folder, or a zip of at most 64 MB")

    def handle(self, *args: object, **options: object) -> None:
        division = self.division(str(options["slug"]), str(options["division"]))
        try:
            members, skipped = self._members(Path(str(options["path"])))
        except PhotoRefused as refused:
            raise CommandError(photos.refusal_text(refused)) from refused
        result = photos.save_batch(division, members, None)
        for name, player in result.saved:
            self.stdout.write(f"saved   {name} -> {player.number} {player.name}")
        for name in result.unmatched:
            self.stdout.write(f"no one  {name}")
        for name, found in result.ambiguous:
            self.stdout.write(f"several {name}: " + ", ".join(str(p.number) for p in found))
        for name, why in result.refused:
            self.stdout.write(f"refused {name}: {why}")
        for name in skipped:
            self.stdout.write(f"skipped {name}")
        self.stdout.write(f"{len(result.saved)} photos saved")
