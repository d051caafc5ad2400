import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from subprocess import PIPE

from config.settings import database_from_env

ROOT = Path(__file__).resolve().parents[3]


def test_it_uses_postgresql_when_database_url_is_set() -> None:
    env = {"DATABASE_URL": "postgres://director:secret@db.example:5433/spread"}

    database = database_from_env(env)

    assert database["ENGINE"] == "django.db.backends.postgresql"
    assert database["NAME"] == "spread"
    assert database["USER"] == "director"
    assert database["HOST"] == "db.example"
    assert database["PORT"] == 5433


def test_it_uses_a_sqlite_file_when_database_url_is_absent() -> None:
    database = database_from_env({})

    assert database["ENGINE"] == "django.db.backends.sqlite3"
    assert str(database["NAME"]).endswith("db.sqlite3")


def test_it_keeps_postgresql_connections_open_between_requests() -> None:
    database = database_from_env({"DATABASE_URL": "postgres://director@db.example/spread"})

    assert database["CONN_MAX_AGE"] == 600
    assert database["CONN_HEALTH_CHECKS"] is True
    env = {"DATABASE_URL": "postgres://director@db.example/spread", "CONN_MAX_AGE": "0"}
    assert database_from_env(env)["CONN_MAX_AGE"] == 0


WRITER = """
import sys, time, django
django.setup()
from django.db import connection, transaction
for n in range(15):
    with transaction.atomic():  # read, then write: the desk's saves and the login throttle do
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM counted")
            seen = cursor.fetchone()[0]
            time.sleep(0.02)
            cursor.execute("INSERT INTO counted VALUES (%s)", [seen])
print("ok")
"""


def test_two_workers_writing_one_sqlite_file_wait_their_turn(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    with sqlite3.connect(path) as made:
        made.execute("CREATE TABLE counted (seen integer)")
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("DJANGO", "DATABASE"))},
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": f"sqlite:///{path}",
    }
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER], cwd=ROOT, env=env, stdout=PIPE, stderr=PIPE, text=True
        )
        for _ in range(2)
    ]
    said = [writer.communicate(timeout=120) for writer in writers]

    assert [
        (writer.returncode, out, err) for writer, (out, err) in zip(writers, said, strict=True)
    ] == [
        (0, "ok\n", ""),
        (0, "ok\n", ""),
    ]
    with sqlite3.connect(path) as written:
        seen = [row[0] for row in written.execute("SELECT seen FROM counted ORDER BY rowid")]
    assert seen == list(range(30))  # each transaction saw every one before it: none overlapped


def test_a_sqlite_database_takes_its_write_lock_when_a_transaction_begins() -> None:
    for env in ({}, {"DATABASE_URL": "sqlite:////tmp/elsewhere.sqlite3"}):
        options = database_from_env(env)["OPTIONS"]
        assert options == {"transaction_mode": "IMMEDIATE", "timeout": 20}
