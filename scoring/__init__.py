"""Spread's rules engine: board, tiles, rulesets, GCG records and their verification.

A library of its own: it never imports Django or the tournament app.
"""

from .board import Board, Layout, load_layout, parse_position
from .findings import ERROR, WARNING, Finding
from .gcg import GameRecord, parse
from .lexicon import Lexicon, Lexicons, load_lexicon
from .replay import Report, Turn, canonical_gcg, verify
from .rules import Ruleset, builtin_rulesets, load_rules
from .tiles import TileSet, builtin_tilesets, detect_tileset, load_tileset

# Raised whenever a change to the engine can change a report: stored reports are checked again.
ENGINE_VERSION = "2"

__all__ = [
    "ERROR",
    "WARNING",
    "Board",
    "Finding",
    "GameRecord",
    "Layout",
    "Lexicon",
    "Lexicons",
    "Report",
    "Ruleset",
    "TileSet",
    "Turn",
    "builtin_rulesets",
    "builtin_tilesets",
    "canonical_gcg",
    "detect_tileset",
    "load_layout",
    "load_lexicon",
    "load_rules",
    "load_tileset",
    "parse",
    "parse_position",
    "verify",
]
