"""The rulesets and rating systems a director picks at the desk are described in words, read from
what each does (tournament/core/choices.py): a new tournament's divisions, a division added, a
division's settings."""

from __future__ import annotations

import html
import re

import pytest
from django.contrib.auth.models import Permission, User
from django.test import Client
from django.urls import reverse

from scoring.rules import Ruleset
from tournament.core import choices
from tournament.engine.ratings import rating_system_names
from tournament.models import Division, Tournament

NASPA = (
    "North American (NASPA): double challenge, going out gains twice the opponent's rack, "
    "6 scoreless turns in a row end the game, 10 points a minute over time"
)
WESPA = (
    "International (WESPA): 5 points a word for a wrong challenge, going out gains the "
    "opponent's rack and the opponent loses it, 6 scoreless turns in a row end the game, "
    "10 points a minute over time"
)
HOME = (
    "Home rules (\u20682–4\u2069 players): double challenge, going out gains the others' racks "
    "and each loses their own, the game ends when every player has passed 2 times in a row, "
    "no clock"
)
NSA2008 = "NASPA 2008 (nsa2008): NASPA's ratings, as TSH computes them"
CSW = "NASPA Collins (naspa-csw): NASPA 2008's formula without its floor of 1"


def _options(page: str, name: str) -> list[tuple[str, str, bool]]:
    """The (value, label, checked) of each radio button named `name`, in the page's order."""
    found = re.findall(
        rf'<input type="radio" name="{name}" value="([^"]*)"[^>]*?( checked)?>\s*([^<]*)</label>',
        page,
    )
    assert found, name
    return [(value, html.unescape(label.strip()), bool(checked)) for value, checked, label in found]


def test_each_built_in_ruleset_is_described_by_what_it_does() -> None:
    assert choices.ruleset_choices() == [("naspa", NASPA), ("wespa", WESPA), ("home", HOME)]


def test_a_ruleset_s_words_follow_its_settings() -> None:
    variant = Ruleset(
        name="club",
        challenge="penalty",
        challenge_points=1,
        end_out="double",
        scoreless_turns=1,
        time_penalty_per_minute=0,
        max_players=3,
    )
    assert choices.ruleset_words(variant) == [
        "1 point a word for a wrong challenge",
        "going out gains twice the others' racks",
        "1 scoreless turn ends the game",
        "no clock",
    ]


def test_every_rating_system_has_words_not_only_its_code() -> None:
    labels = dict(choices.rating_system_choices())
    assert set(labels) == set(rating_system_names())
    assert list(labels.items()) == [("nsa2008", NSA2008), ("naspa-csw", CSW)]


@pytest.fixture
def creator(db: None) -> User:
    user = User.objects.create_user("dora")
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    return user


def test_a_new_tournament_s_divisions_offer_rulesets_and_rating_systems_in_words(
    creator: User,
) -> None:
    client = Client()
    client.force_login(creator)

    page = client.get(reverse("desk-new-tournament")).content.decode()

    assert _options(page, "div-0-ruleset") == [
        ("naspa", NASPA, True),
        ("wespa", WESPA, False),
        ("home", HOME, False),
    ]
    assert _options(page, "div-0-rating_system") == [
        ("nsa2008", NSA2008, True),
        ("naspa-csw", CSW, False),
    ]


def test_a_division_added_at_the_desk_takes_the_rules_chosen_in_words(
    desk: Client, tournament: Tournament
) -> None:
    url = reverse("desk-divisions", args=[tournament.slug])

    page = desk.get(url).content.decode()
    added = desk.post(
        url,
        {
            "action": "add",
            "name": "Open",
            "planned_rounds": "7",
            "ruleset": "wespa",
            "tile_set": "english",
            "bye_spread": "75",
            "rating_system": "naspa-csw",
        },
    )

    assert _options(page, "ruleset") == [
        ("naspa", NASPA, True),
        ("wespa", WESPA, False),
        ("home", HOME, False),
    ]
    assert _options(page, "rating_system") == [
        ("nsa2008", NSA2008, True),
        ("naspa-csw", CSW, False),
    ]
    assert added.status_code == 302
    made = tournament.divisions.get(name="Open")
    assert (made.planned_rounds, made.ruleset, made.bye_spread, made.rating_system) == (
        7,
        "wespa",
        75,
        "naspa-csw",
    )


def test_a_division_added_by_name_alone_takes_the_defaults(
    desk: Client, tournament: Tournament
) -> None:
    desk.post(reverse("desk-divisions", args=[tournament.slug]), {"action": "add", "name": "B"})

    made = tournament.divisions.get(name="B")
    assert (made.planned_rounds, made.ruleset, made.tile_set, made.rating_system) == (
        None,
        "naspa",
        "english",
        "nsa2008",
    )


def test_an_unknown_ruleset_is_refused_in_a_sentence(desk: Client, tournament: Tournament) -> None:
    response = desk.post(
        reverse("desk-divisions", args=[tournament.slug]),
        {"action": "add", "name": "C", "ruleset": "/etc/passwd"},
    )

    assert response.status_code == 409
    assert "Select a valid choice. /etc/passwd is not one of the available choices." in (
        html.unescape(response.content.decode())
    )
    assert not tournament.divisions.filter(name="C").exists()


def test_the_division_settings_offer_the_rating_systems_in_words(
    desk: Client, division: Division
) -> None:
    page = desk.get(reverse("desk-division-settings", args=["spring-open", division.pk]))

    assert _options(page.content.decode(), "rating_system") == [
        ("nsa2008", NSA2008, True),
        ("naspa-csw", CSW, False),
    ]
