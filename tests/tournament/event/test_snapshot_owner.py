"""A snapshot belongs to its tournament, not to its slug: an event made under a deleted event's
slug neither lists nor downloads the deleted one's snapshots, and deleting an event removes
them. Through the desk, with Django's test client."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client, override_settings
from django.urls import reverse

from tournament.event import services as event
from tournament.exchange import snapshots
from tournament.models import Tournament


def _files(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())


@pytest.fixture
def director(db: None) -> User:
    return User.objects.create_user("nasrin", password="x")


def _demo(director: User) -> Tournament:
    made = event.create_tournament(director, "Demo", [])
    assert made.slug == "demo"
    return made


def test_an_event_under_a_deleted_events_slug_sees_none_of_its_snapshots(
    director: User, tmp_path: Path, django_capture_on_commit_callbacks
) -> None:
    desk = Client()
    desk.force_login(director)
    with override_settings(SNAPSHOT_DIR=str(tmp_path)):
        old = _demo(director)
        with django_capture_on_commit_callbacks(execute=True):
            locked = desk.post(reverse("desk-lock", args=["demo"]), {"locked": "1"})
        assert locked.status_code == 302
        taken = snapshots.listed(old)
        assert [s.what for s in taken] == ["locked"]
        name = taken[0].name
        # In the tournament's own folder, `<id>-<token>`, never at the top by its slug.
        files = _files(tmp_path)
        assert len(files) == 1 and files[0].endswith("/" + name)
        assert files[0].startswith(f"{old.pk}-")
        assert len(files[0].split("/")[0]) == len(f"{old.pk}-") + 24
        assert desk.get(reverse("desk-snapshot", args=["demo", name])).status_code == 200
        with django_capture_on_commit_callbacks(execute=True):
            deleted = desk.post(reverse("desk-delete-demo", args=["demo"]))
        assert deleted.status_code == 302
        # Deleting the event removed its snapshots with their folder.
        assert _files(tmp_path) == []
        assert list(tmp_path.iterdir()) == []
        new = _demo(director)
        assert new.pk != old.pk
        assert snapshots.listed(new) == []
        page = desk.get(reverse("desk-dashboard", args=["demo"])).content.decode()
        assert name not in page
        assert desk.get(reverse("desk-snapshot", args=["demo", name])).status_code == 404


def test_files_left_by_an_earlier_event_are_never_served(
    director: User, tmp_path: Path, django_capture_on_commit_callbacks
) -> None:
    """Snapshots an event with the same slug left (written before snapshots had folders of
    their own, or put there by hand), and another event's folder: none is the new event's."""
    desk = Client()
    desk.force_login(director)
    with override_settings(SNAPSHOT_DIR=str(tmp_path)):
        other = event.create_tournament(director, "Other", [])
        with django_capture_on_commit_callbacks(execute=True):
            desk.post(reverse("desk-lock", args=["other"]), {"locked": "1"})
        theirs = snapshots.listed(other)[0].name
        legacy = "demo-20260101T000000000000Z-locked.zip"
        (tmp_path / legacy).write_bytes(b"an earlier event's backup")
        demo = _demo(director)
        assert snapshots.listed(demo) == []
        for name in (legacy, theirs):
            assert desk.get(reverse("desk-snapshot", args=["demo", name])).status_code == 404
        folder = f"{other.pk}-" + str(snapshots.own_folder(other)).rsplit("-", 1)[1]
        for name in ("..%2F" + legacy, f"..%2F{folder}%2F{theirs}"):
            assert desk.get(f"/desk/demo/snapshots/{name}").status_code == 404
        # The files go when the deletion commits, not before (a deletion rolled back keeps them).
        was = Tournament(pk=other.pk, created=other.created)
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            other.delete()
        assert [s.name for s in snapshots.listed(was)] == [theirs]
        for callback in callbacks:
            callback()
        assert _files(tmp_path) == [legacy]
