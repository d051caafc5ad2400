"""Shared fixtures for the whole suite; pytest-django provides client, db and settings."""

import pytest
from browser_support import live_url, page, touch_page  # noqa: F401
from django.core.cache import cache


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    # Test databases reuse primary keys, so a cached standings table must not outlive a test;
    # nor what a process keeps of it in memory.
    from tournament.standings import memos

    cache.clear()
    memos.clear_all()


@pytest.fixture(autouse=True)
def _snapshots_in_line():
    # A snapshot written by a thread of its own would read the test's uncommitted rows through
    # another connection: in the suite it is written in line (one test takes the thread path).
    # Not through pytest-django's `settings`: some tests take a parameter of that name.
    from django.test import override_settings

    with override_settings(SNAPSHOT_BACKGROUND=False):
        yield


@pytest.fixture(autouse=True)
def _english_after_each_test():
    # A request in another language leaves that language active in the thread (LocaleMiddleware
    # does not deactivate it): the next test starts in English, the default, again.
    yield
    from django.utils import translation

    translation.activate("en")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # Every test that drives Chromium (takes the `page` fixture of browser_support), wherever
    # its folder: `pytest -m "not browser"` leaves them out.
    for item in items:
        if {"page", "touch_page"} & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.browser)
