"""What depends on the game, as schema components: options, actions, legal-action entries and
their domains, the public and private parts of a view, statistics.

Built from the engines' own constants (claims, ranks, scores, stat keys, option bounds), and
checked against real views of random matches of every game and variant by
``tests/api/test_openapi_views.py``.
"""

from __future__ import annotations

from .actions import GAME_ACTIONS, LEGAL_ACTION
from .common import ENDINGS, GAME, MATCH_END_REASON, NAMES, PLACEMENTS, SEAT, SEATS
from .options import OPTIONS
from .views import BOT_STATS, GAME_VIEW, PRIVATE, PUBLIC, STAT_KEYS, STATS, VIEWS, per_game

__all__ = [
    "BOT_STATS",
    "ENDINGS",
    "GAME",
    "GAME_ACTIONS",
    "GAME_VIEW",
    "LEGAL_ACTION",
    "MATCH_END_REASON",
    "NAMES",
    "OPTIONS",
    "PLACEMENTS",
    "PRIVATE",
    "PUBLIC",
    "SEAT",
    "SEATS",
    "STATS",
    "STAT_KEYS",
    "VIEWS",
    "per_game",
]
