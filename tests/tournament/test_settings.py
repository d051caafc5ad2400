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
