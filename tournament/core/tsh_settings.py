"""The TSH settings an event's config.tsh carries that change what Spread shows: withdrawn players
kept in the standings, the rating system and the rating list the event asks for."""

from __future__ import annotations

import functools
from typing import Any

from tournament.engine import ratings as ratings_engine
from tournament.interchange import tsh
from tournament.models import Division, Tournament


def shows_inactive(tournament: Tournament) -> bool:
    """tsh's `config show_inactive`: withdrawn players keep a rank in the standings."""
    if not tournament.tsh_config:
        return False
    try:
        value = _config_value(tournament.tsh_config, "show_inactive")
    except tsh.TshFormatError:
        return False  # the config was read when imported; an edit that broke it sets nothing
    return perl_true(value)


@functools.lru_cache(maxsize=64)
def _config_value(config: str, key: str) -> Any:
    """A setting of a config.tsh text, read once per process (the pages ask for it each time);
    not to be changed by the caller."""
    return tsh.read_config(config).value(key)


def rating_system_asked(tournament: Tournament) -> str | None:
    """The rating system the event's config.tsh names (`config rating_system`), if any."""
    if not tournament.tsh_config:
        return None
    try:
        value = _config_value(tournament.tsh_config, "rating_system")
    except tsh.TshFormatError:
        return None
    return value.strip() if isinstance(value, str) and value.strip() else None


# tsh's `config rating_list`: the folder of tsh's lib/ratings/ whose current.txt the event's
# ratings are looked up in (Division::RatingList); tsh's UPDATERATINGS fills `nsa` and
# `naspa-csw` from scrabbleplayers.org/ratings/data/full (and /csw/full), NASPA's lists, and
# `wespa` with WESPA's. The others it knows (absp, pak, ken, nor) Spread does not read.
RATING_LIST_FORMATS = {"nsa": "naspa", "naspa-csw": "naspa", "wespa": "wespa"}


def rating_list_asked(division: Division) -> tuple[str, str | None] | None:
    """The rating list the event's config.tsh names (`config rating_list = 'nsa'`, or per
    division `config rating_list{'A'}`), and the format of `interchange.ratinglist` that reads
    it (None: one Spread does not read); None when the config names none."""
    tournament = division.tournament
    if not tournament.tsh_config:
        return None
    try:
        config = tsh.read_config(tournament.tsh_config)
        value = config.value("rating_list", tsh.canonical_division(division.name))
        if value is None:
            value = config.value("rating_list")
    except tsh.TshFormatError:
        return None
    if isinstance(value, dict):
        wanted = tsh.canonical_division(division.name)
        mine = [v for k, v in value.items() if tsh.canonical_division(str(k)) == wanted]
        value = mine[0] if mine else None
    if not isinstance(value, str) or not value.strip():
        return None
    name = value.strip()
    return name, RATING_LIST_FORMATS.get(name.lower())


def ratings_note(division: Division) -> str | None:
    """One line saying that the ratings shown are not those of the system the event asks for,
    or None when they are: Spread never passes off one system's figures as another's."""
    asked = rating_system_asked(division.tournament)
    used = division.rating_system
    if asked is None or asked.lower() == used.lower():
        return None
    if asked.lower() not in ratings_engine.rating_system_names():
        return (
            f"The event asks for {asked} ratings, which Spread does not compute: "
            f"these are {used} figures, not {asked}'s."
        )
    return f"The event asks for {asked} ratings: these are {used} figures, not {asked}'s."


def perl_true(value: object) -> bool:
    return value not in (None, 0, "", "0")
