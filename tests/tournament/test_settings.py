from config.settings import database_from_env


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
