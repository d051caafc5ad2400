"""The events the report tests print: the real 60-player event of the shared corpus, imported
as its config.tsh describes it, and small hand-made ones."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from django.contrib.auth.models import User

from tests.tournament.reports.report_support import corpus_file
from tournament.exchange import tsh_io
from tournament.models import Division, Tournament


@pytest.fixture
def mgi(db: None, tmp_path: Path) -> Division:
    """MGI Scrabble Premier League 2022, Match Day One: 60 players, 12 rounds. Its config.tsh
    names a division B whose file the corpus does not have; A's file stands in for it."""
    shutil.copyfile(corpus_file("config.tsh"), tmp_path / "config.tsh")
    shutil.copyfile(corpus_file("a.t"), tmp_path / "a.t")
    shutil.copyfile(corpus_file("a.t"), tmp_path / "b.t")
    tournament = tsh_io.import_tsh(tmp_path / "config.tsh", slug="mgi")
    return tournament.divisions.get(name="A")


@pytest.fixture
def director(db: None) -> User:
    return User.objects.create_user("alice")


@pytest.fixture
def stranger(db: None) -> User:
    return User.objects.create_user("eve")


@pytest.fixture
def mgi_directed(mgi: Division, director: User) -> Division:
    mgi.tournament.directors.add(director)
    return mgi


@pytest.fixture
def small(db: None) -> Tournament:
    return Tournament.objects.create(name="Spring Open", slug="spring-open")
