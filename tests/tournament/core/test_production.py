"""Serving in production: the secret key, `check --deploy` with the README's environment, the
health check, errors on stderr, security headers, and the public pages' cache,
which must stay exact."""

from __future__ import annotations

import gzip
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.db import OperationalError
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from config import serve
from tournament.models import Division, Player, Tournament
from tournament.pairing import services as pairing
from tournament.results import services as results
from tournament.scoresheets import services as scoresheets

ROOT = Path(__file__).resolve().parents[3]
KEY = "a-test-key-that-is-long-and-random-enough-0123456789-abcdefghijklmnop"


def run_python(code: str, env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    """`code` in a fresh interpreter beside manage.py, with only `env` set of Spread's settings."""
    # The browser test allows async-unsafe calls for its own process: check --deploy rejects it.
    unset = ("DEBUG", "SECRET_KEY", "DJANGO_ALLOW_ASYNC_UNSAFE")
    base = {k: v for k, v in os.environ.items() if k not in unset}
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=ROOT,
        env={**base, "DJANGO_SETTINGS_MODULE": "config.settings", **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


# -- starting ----------------------------------------------------------------------------------


@pytest.mark.parametrize("key", [None, "django-insecure-spread-development-key-do-not-deploy"])
def test_without_debug_it_refuses_to_start_without_a_secret_key_of_its_own(key) -> None:
    env = {"DEBUG": "False"} | ({"SECRET_KEY": key} if key else {})

    done = run_python("from config import serve; raise SystemExit(serve.main([]))", env)

    assert done.returncode == 1
    assert "spread: cannot start: DEBUG is off and SECRET_KEY is not set" in done.stderr
    assert "Traceback" not in done.stderr


def test_with_a_secret_key_the_settings_load_without_debug() -> None:
    code = "import django; django.setup(); from django.conf import settings; print(settings.DEBUG)"

    done = run_python(code, {"DEBUG": "False", "SECRET_KEY": KEY})

    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


def readme_production_environment() -> dict[str, str]:
    """The `export NAME=value` lines of the README's production section."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Production", 1)[1].split("\n## ", 1)[0]
    return dict(re.findall(r"^export (\w+)=(\S*)", section, flags=re.MULTILINE))


def test_check_deploy_is_clean_with_the_readme_environment() -> None:
    env = readme_production_environment()
    assert {"SECURE_PROXY_SSL_HEADER", "SECURE_HSTS_SECONDS", "CSRF_TRUSTED_ORIGINS"} <= set(env)
    env["SECRET_KEY"] = KEY  # the README's is a placeholder to replace
    code = "from django.core.management import execute_from_command_line as run; run()"
    check = ("check", "--deploy", "--fail-level", "WARNING")

    clean = run_python(code, env, *check)
    bare = run_python(code, {"DEBUG": "False", "SECRET_KEY": KEY}, *check)

    assert clean.returncode == 0, clean.stderr
    assert "System check identified no issues" in clean.stdout
    assert bare.returncode != 0  # without the README's environment the check does complain
    assert "security.W004" in bare.stderr  # no HSTS


# -- health, errors ----------------------------------------------------------------------------


@pytest.mark.django_db
def test_healthz_says_ok_while_the_database_answers(client: Client) -> None:
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.content == b"ok\n"


class _DeadConnection:
    def cursor(self):
        raise OperationalError("connection refused")


def test_healthz_is_503_when_the_database_does_not_answer(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("config.views.connection", _DeadConnection())

    response = client.get("/healthz")

    assert response.status_code == 503
    assert response.content == b"database unavailable\n"


BOOM_URLS = """
from django.urls import path

def boom(request):
    return 1 // 0

urlpatterns = [path("boom", boom)]
"""

SERVE_BOOM = """
import sys
sys.path.insert(0, sys.argv[1])
import django
django.setup()
from django.test import Client
from django.test.utils import override_settings
with override_settings(ROOT_URLCONF="boom_urls", ALLOWED_HOSTS=["testserver"]):
    response = Client(raise_request_exception=False).get("/boom")
print(response.status_code)
"""


def test_without_debug_every_500_is_logged_with_its_traceback_to_stderr(tmp_path: Path) -> None:
    (tmp_path / "boom_urls.py").write_text(BOOM_URLS)
    env = {"DEBUG": "False", "SECRET_KEY": KEY, "DATABASE_URL": f"sqlite:///{tmp_path}/db"}

    done = run_python(SERVE_BOOM, env, str(tmp_path))

    assert done.stdout.strip() == "500"
    assert "ERROR django.request: Internal Server Error: /boom" in done.stderr
    assert "Traceback (most recent call last):" in done.stderr
    assert "ZeroDivisionError: integer division or modulo by zero" in done.stderr


# -- headers -----------------------------------------------------------------------------------


HEADERS = """
import django
django.setup()
from django.conf import settings
from django.test import Client
from django.test.utils import override_settings
# The pages link static files, which `make serve` collects at start: here they are not collected.
plain = {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}
storages = {**settings.STORAGES, "staticfiles": plain}
with override_settings(ALLOWED_HOSTS=["testserver"], STORAGES=storages):
    response = Client().get("/accounts/login/")
for name in ("Content-Security-Policy", "Content-Security-Policy-Report-Only",
             "X-Content-Type-Options", "X-Frame-Options", "Referrer-Policy"):
    print(f"{name}: {response.get(name, '-')}")
"""


def test_without_debug_pages_enforce_a_strict_content_security_policy(tmp_path: Path) -> None:
    env = {"DEBUG": "False", "SECRET_KEY": KEY, "DATABASE_URL": f"sqlite:///{tmp_path}/db"}

    done = run_python(HEADERS, env)

    headers = dict(line.split(": ", 1) for line in done.stdout.splitlines())
    policy = headers["Content-Security-Policy"]
    assert "default-src 'self'" in policy
    assert "script-src 'self'" in policy
    assert "style-src 'self'" in policy
    assert "frame-ancestors 'none'" in policy
    assert "unsafe-inline" not in policy
    assert headers["Content-Security-Policy-Report-Only"] == "-"
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["X-Frame-Options"] == "DENY"
    assert headers["Referrer-Policy"] == "same-origin"


@pytest.mark.django_db
def test_the_policy_is_enforced_with_debug_too(client: Client) -> None:
    # No template carries inline script or style, so `make run` enforces the same policy.
    response = client.get(reverse("home"))

    assert "Content-Security-Policy-Report-Only" not in response
    assert "script-src 'self'" in response["Content-Security-Policy"]


# -- the public pages' cache -------------------------------------------------------------------


def standings_page(client: Client):
    return client.get(reverse("standings", args=["spring-open", "A"]))


@pytest.mark.django_db
def test_a_result_entered_is_on_the_next_request(
    client: Client, division: Division, director: User
) -> None:
    before = standings_page(client)
    again = standings_page(client)

    results.enter_line(division, 1, "1 400 2 350", director)
    after = standings_page(client)

    assert again.content == before.content  # from the cache
    assert "+50" not in before.text
    assert "+50" in after.text and "−50" in after.text or "-50" in after.text


@pytest.mark.django_db
def test_a_correction_and_a_player_renamed_are_on_the_next_request(
    client: Client, division: Division, director: User
) -> None:
    results.enter_line(division, 1, "1 400 2 350", director)
    standings_page(client)

    results.enter_line(division, 1, "1 420 2 350", director, reason="misread")
    corrected = standings_page(client)
    ada = Player.objects.get(division=division, number=1)
    ada.name = "Quill-Smith, Ada"
    ada.save()
    renamed = standings_page(client)

    assert "+70" in corrected.text
    assert "Quill-Smith, Ada" in renamed.text


@pytest.mark.django_db
def test_a_round_published_is_on_the_next_request(
    client: Client, division: Division, director: User
) -> None:
    players = {p.number: p for p in division.players.all()}
    pairs = [(players[1], players[3]), (players[2], players[4]), (players[5], players[7])]
    pairing.save_pairings(division, 2, [*pairs, (players[6], None)], director)
    page = reverse("tournament", args=["spring-open"])
    round_two = reverse("pairings", args=["spring-open", "A", 2])
    hidden = client.get(page)

    pairing.publish(division, 2, director)
    shown = client.get(page)

    assert round_two not in hidden.text
    assert round_two in shown.text


@pytest.mark.django_db
def test_a_scoresheet_attached_is_on_the_player_page_at_once(
    client: Client, division: Division, director: User, game_of, record
) -> None:
    page = reverse("player", args=["spring-open", "A", 1])
    without = client.get(page)

    sheet = scoresheets.attach_scoresheet(game_of(1), record(), director)
    with_sheet = client.get(page)

    link = reverse("scoresheet", args=["spring-open", sheet.pk])
    assert link not in without.text
    assert link in with_sheet.text


@pytest.mark.django_db
def test_a_tournament_made_private_is_gone_on_the_next_request(
    client: Client, tournament: Tournament
) -> None:
    assert standings_page(client).status_code == 200

    tournament.public = False
    tournament.save()

    assert standings_page(client).status_code == 404


@pytest.mark.django_db
def test_a_director_signed_in_gets_the_page_rendered_for_them(
    client: Client, desk: Client, tournament: Tournament
) -> None:
    anonymous = standings_page(client)

    theirs = standings_page(desk)

    assert "Log out" not in anonymous.text
    assert "Log out" in theirs.text


@pytest.mark.django_db
def test_a_page_asked_again_with_its_etag_is_304_until_a_result_changes_it(
    client: Client, division: Division, director: User
) -> None:
    first = standings_page(client)
    etag = first["ETag"]
    url = reverse("standings", args=["spring-open", "A"])

    unchanged = client.get(url, headers={"If-None-Match": etag})
    results.enter_line(division, 1, "1 400 2 350", director)
    changed = client.get(url, headers={"If-None-Match": etag})

    assert "no-cache" in first["Cache-Control"]
    assert unchanged.status_code == 304
    assert unchanged.content == b""
    assert changed.status_code == 200
    assert changed["ETag"] != etag
    assert "+50" in changed.text


@pytest.mark.django_db
def test_a_page_is_sent_gzipped_to_a_browser_that_accepts_it_and_plain_to_one_that_does_not(
    client: Client, division: Division, director: User
) -> None:
    url = reverse("standings", args=["spring-open", "A"])
    results.enter_line(division, 1, "1 400 2 350", director)

    rendered = client.get(url, headers={"Accept-Encoding": "gzip, deflate, br"})
    kept = client.get(url, headers={"Accept-Encoding": "gzip, deflate, br"})
    plain = client.get(url)
    refused = client.get(url, headers={"Accept-Encoding": "gzip;q=0, identity"})

    for compressed in (rendered, kept):
        assert compressed["Content-Encoding"] == "gzip"
        assert gzip.decompress(compressed.content) == plain.content
    assert "+50" in plain.text
    assert not plain.has_header("Content-Encoding")
    assert refused.content == plain.content and not refused.has_header("Content-Encoding")
    assert "Accept-Encoding" in kept["Vary"]
    assert kept["ETag"] == plain["ETag"]


@pytest.mark.django_db
def test_a_division_saved_from_an_old_copy_still_gets_a_new_stamp(
    division: Division, director: User
) -> None:
    old_copy = Division.objects.get(pk=division.pk)
    first = old_copy.stamp
    results.enter_line(division, 1, "1 400 2 350", director)
    after_result = Division.objects.get(pk=division.pk).stamp

    old_copy.max_repeats = 1
    old_copy.save()

    assert after_result != first
    assert Division.objects.get(pk=division.pk).stamp not in (first, after_result)


@pytest.mark.django_db
def test_pairing_a_round_stamps_its_division_once(
    division: Division, director: User, django_assert_num_queries
) -> None:
    from django.db import connection

    players = {p.number: p for p in division.players.all()}
    pairs = [(players[1], players[3]), (players[2], players[4]), (players[5], players[7])]
    with CaptureQueriesContext(connection) as queries:
        pairing.save_pairings(division, 2, [*pairs, (players[6], None)], director)

    stamped = [q for q in queries if q["sql"].startswith('UPDATE "tournament_division"')]
    assert len(stamped) == 1


# -- the venue laptop --------------------------------------------------------------------------


def test_the_hall_page_holds_the_address_and_its_qr_code(tmp_path: Path) -> None:
    page = tmp_path / "hall-qr.html"

    serve.qr_page("http://192.168.1.23:8000/", page)

    html = page.read_text()
    assert "http://192.168.1.23:8000/" in html
    assert "<svg" in html and "<path" in html
    assert not page.with_suffix(".tmp").exists()


def test_the_hall_keeps_one_secret_key_readable_by_its_owner_only(tmp_path: Path) -> None:
    first = serve.hall_secret_key(tmp_path / ".secret_key")
    second = serve.hall_secret_key(tmp_path / ".secret_key")

    assert first == second
    assert len(first) >= 50
    assert (tmp_path / ".secret_key").stat().st_mode & 0o777 == 0o600


def test_the_hall_offers_addresses_other_machines_can_reach() -> None:
    addresses = serve.hall_addresses()

    assert addresses
    assert all(re.fullmatch(r"\d+\.\d+\.\d+\.\d+", a) for a in addresses)
    assert addresses == ["127.0.0.1"] or not any(a.startswith("127.") for a in addresses)


def test_a_worker_freezes_the_loaded_application_and_collects_garbage_less_often() -> None:
    import gc

    from config import gunicorn_conf

    before = gc.get_threshold()
    try:
        gunicorn_conf.post_worker_init(None)
        assert gc.get_threshold() == gunicorn_conf.GC_THRESHOLDS == (50_000, 20, 10)
        assert gc.get_freeze_count() > 10_000  # Django and the app, out of every collection
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


def test_make_serve_gives_gunicorn_the_workers_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[list[str]] = []
    monkeypatch.setattr(serve.os, "execv", lambda _exe, argv: started.append(argv))
    import django.core.management

    monkeypatch.setattr(django.core.management, "call_command", lambda *a, **k: None)
    monkeypatch.setenv("DEBUG", "True")
    monkeypatch.delenv("WEB_THREADS", raising=False)
    monkeypatch.delenv("WEB_KEEPALIVE", raising=False)

    serve.main([])

    argv = started[0]
    assert argv[argv.index("--config") + 1] == "python:config.gunicorn_conf"
    assert argv[argv.index("--worker-class") + 1] == "gthread"
    assert argv[argv.index("--threads") + 1] == "256"
    # A connection outlives the 3 s a phone waits between two polls of its live feed.
    assert argv[argv.index("--keep-alive") + 1] == "5"
