"""Personal links are kept as a keyed digest (looked up by) and sealed (reprinted from), never as
the token itself; another secret key opens neither; the migration converts the links stored
before."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.urls import reverse

import tournament.migrations as migrations_package
from tournament.core import tokens
from tournament.models import Division, PlayerLink
from tournament.phone import services as phone


def _stored(link: PlayerLink) -> str:
    return json.dumps(
        list(PlayerLink.objects.filter(pk=link.pk).values().get().values()), default=str
    )


def test_no_column_holds_the_token(division: Division) -> None:
    ada = division.players.get(number=1)
    token = phone.issue_link(ada)
    link = PlayerLink.objects.get(player=ada)

    assert token not in _stored(link)
    assert link.token_hash == tokens.digest(token) and len(link.token_hash) == 64
    assert tokens.unseal(link.token_sealed) == token


def test_the_link_works_and_the_desk_reprints_the_same_token(division: Division) -> None:
    ada = division.players.get(number=1)
    token = phone.issue_link(ada)

    assert phone.player_for(token) == ada
    assert phone.live_token(ada) == token
    assert Client().get(reverse("phone", args=[token])).status_code == 200
    assert phone.player_for(token[:-1] + ("A" if token[-1] != "A" else "B")) is None
    phone.revoke_links(ada)
    assert phone.player_for(token) is None


def test_another_secret_key_opens_no_link_and_the_desk_issues_new_ones(
    division: Division, settings
) -> None:
    ada = division.players.get(number=1)
    token = phone.issue_link(ada)
    settings.SECRET_KEY = "another-server-with-another-secret-key-" + "x" * 20

    assert phone.player_for(token) is None
    assert Client().get(reverse("phone", args=[token])).status_code == 404
    new = phone.live_token(ada)  # the slips and the desk's list issue a new link
    assert new != token
    assert phone.player_for(new) == ada
    assert PlayerLink.objects.filter(player=ada, revoked=None).count() == 1


def test_a_rotated_key_keeps_the_links_while_it_is_a_fallback(division: Division, settings) -> None:
    ada = division.players.get(number=1)
    old_key = settings.SECRET_KEY
    token = phone.issue_link(ada)
    settings.SECRET_KEY = "the-rotated-secret-key-" + "y" * 30
    settings.SECRET_KEY_FALLBACKS = [old_key]

    assert phone.player_for(token) == ada
    assert phone.live_token(ada) == token
    assert phone.poll_state(token) is not None


def test_playerlinks_new_issues_every_player_a_new_link(division: Division) -> None:
    before = {p.number: phone.live_token(p) for p in division.players.all()}
    out = io.StringIO()

    call_command("playerlinks", "spring-open", "--division", "A", "--json", "--new", stdout=out)
    rows = json.loads(out.getvalue())

    assert [r["number"] for r in rows] == list(range(1, 8))
    for row in rows:
        token = row["url"].rstrip("/").rsplit("/", 1)[1]
        assert token != before[row["number"]]
        assert phone.player_for(token).number == row["number"]
        assert phone.player_for(before[row["number"]]) is None


def _this_migration() -> str:
    # Found by its name, whatever number the migration ends up with.
    (path,) = Path(migrations_package.__file__).parent.glob("*_bounds.py")
    return path.stem


@pytest.mark.django_db(transaction=True)
def test_the_migration_converts_the_tokens_stored_before_and_back() -> None:
    mine = _this_migration()
    executor = MigrationExecutor(connection)
    (before,) = executor.loader.graph.node_map[("tournament", mine)].parents
    executor.migrate([before.key])
    old = executor.loader.project_state([before.key]).apps
    tournament = old.get_model("tournament", "Tournament").objects.create(name="T", slug="t")
    division = old.get_model("tournament", "Division").objects.create(
        tournament=tournament, name="A"
    )
    Player = old.get_model("tournament", "Player")
    ada = Player.objects.create(division=division, number=1, name="Quill, Ada")
    ben = Player.objects.create(division=division, number=2, name="Crane, Ben")
    Link = old.get_model("tournament", "PlayerLink")
    Link.objects.create(player=ada, token="ada-token-from-before")
    Link.objects.create(player=ben, token="ben-token-from-before")

    # Forward to the latest migration, so that the current models below match the tables.
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    executor.loader.build_graph()
    links = {p.player.number: p for p in PlayerLink.objects.select_related("player")}

    try:
        assert phone.player_for("ada-token-from-before").name == "Quill, Ada"
        assert phone.live_token(links[2].player) == "ben-token-from-before"
        assert links[1].token_hash == tokens.digest("ada-token-from-before")
        assert "ada-token-from-before" not in _stored(links[1])

        executor = MigrationExecutor(connection)
        executor.migrate([before.key])
        back = MigrationExecutor(connection).loader.project_state([before.key]).apps
        tokens_back = set(
            back.get_model("tournament", "PlayerLink").objects.values_list("token", flat=True)
        )
        assert tokens_back == {"ada-token-from-before", "ben-token-from-before"}
    finally:
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())
