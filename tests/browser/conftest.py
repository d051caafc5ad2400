"""The browser tests' live server and headless Chromium (Debian's, at /usr/bin/chromium)."""

from __future__ import annotations

import os
import shutil

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
# Playwright's sync API runs an event loop in this thread; the ORM calls of the test itself
# are plain synchronous ones.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture
def live_url(transactional_db):
    """A server for this test alone, so that its database connections close with it."""
    from django.contrib.staticfiles.handlers import StaticFilesHandler
    from django.db import connections
    from django.test.testcases import LiveServerThread

    shared = {}
    for conn in connections.all():
        if conn.vendor == "sqlite" and conn.is_in_memory_db():
            conn.inc_thread_sharing()  # the in-memory test database is visible to one connection
            shared[conn.alias] = conn
    # The app's static files found where they are, as StaticLiveServerTestCase serves them.
    thread = LiveServerThread("127.0.0.1", StaticFilesHandler, shared, port=0)
    thread.daemon = True
    thread.start()
    thread.is_ready.wait()
    if thread.error:
        raise thread.error
    yield f"http://127.0.0.1:{thread.port}"
    thread.terminate()
    for conn in shared.values():
        conn.dec_thread_sharing()


@pytest.fixture
def page():
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
            ],
        )
        tab = browser.new_page()
        tab.set_default_timeout(15_000)
        yield tab
        # The test's own queries ran while Playwright's event loop was running, on connections
        # of that context: closed in it, so that the test database can be dropped after the run.
        from django.db import connections

        connections.close_all()
        browser.close()
