"""The leaderboards: which boards there are, what each one ranks in each game, and who is on it.

Every game has the ``rating`` and ``wins`` boards. The bluff boards (``bluffer``, ``detective``,
``boldest``; :data:`games.engine.core.BLUFF_BOARDS`) divide two of the game's own statistics,
and each engine names them (``Rules.bluff_boards``): Fab Fib's "bluffs that stood" is
``bluffs_passed``, Fibber's ``fibs_stood``. A board a game's statistics cannot express (Skull
records no "bluff that stood") is not offered for that game.

A player's value on each board is computed here from their career and stored with it
(``Career.board_*``, null while they are not on the board), so a board is read through one
index. Only the player's own decisions count: what bots decided for them is left out.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from django.conf import settings

from .engine import registry
from .engine.core import BLUFF_BOARDS, StatSum, stat_total


@dataclasses.dataclass(frozen=True)
class Board:
    id: str
    title: str
    #: What the value is, in words (the OpenAPI description and docs/ratings.md).
    description: str


#: Every board, in the order clients list them.
BOARDS: dict[str, Board] = {
    "rating": Board(
        "rating",
        "Rating",
        "the conservative rating mu - 3 sigma (openskill's ordinal), once it is no longer "
        "provisional",
    ),
    "wins": Board(
        "wins", "Wins", "first places, not counting matches in which bots took most decisions"
    ),
    "bluffer": Board("bluffer", "Best bluffer", BLUFF_BOARDS["bluffer"]),
    "detective": Board("detective", "Best detective", BLUFF_BOARDS["detective"]),
    "boldest": Board("boldest", "Boldest", BLUFF_BOARDS["boldest"]),
}
BOARD_IDS = tuple(BOARDS)


@dataclasses.dataclass(frozen=True)
class Thresholds:
    """Who is on a board (docs/ratings.md): settings ``PROVISIONAL_MATCHES``,
    ``BOARD_MIN_MATCHES`` and ``BOARD_MIN_ATTEMPTS``."""

    provisional: int
    min_matches: int
    min_attempts: int

    @classmethod
    def current(cls) -> Thresholds:
        config = settings.FIBSERVER
        return cls(
            provisional=config["PROVISIONAL_MATCHES"],
            min_matches=config["BOARD_MIN_MATCHES"],
            min_attempts=config["BOARD_MIN_ATTEMPTS"],
        )


def boards_of(game: str) -> list[str]:
    """The boards ``game`` offers, in :data:`BOARDS` order."""
    bluff = registry.get(game).bluff_boards
    return [b for b in BOARD_IDS if b in ("rating", "wins") or b in bluff]


def terms(game: str, board: str) -> tuple[StatSum, StatSum] | None:
    """The (numerator, denominator) statistics of a bluff board in ``game``; ``None`` for the
    rating and wins boards and for a board the game does not offer."""
    return registry.get(game).bluff_boards.get(board)


def ratio_parts(game: str, board: str, stats: Mapping[str, Any]) -> tuple[int, int] | None:
    """The numerator and denominator of a bluff board from summed statistics."""
    spec = terms(game, board)
    if spec is None:
        return None
    return stat_total(stats, spec[0]), stat_total(stats, spec[1])


def values(
    game: str,
    *,
    matches: int,
    wins: int,
    assisted_wins: int,
    rated_matches: int,
    rating: float,
    stats: Mapping[str, Any],
    thresholds: Thresholds,
) -> dict[str, float | None]:
    """A player's value on every board (``None``: not on it)."""
    out: dict[str, float | None] = dict.fromkeys(BOARD_IDS)
    if rated_matches >= thresholds.provisional:
        out["rating"] = rating
    if matches >= thresholds.min_matches:
        out["wins"] = float(wins - assisted_wins)
        for board in registry.get(game).bluff_boards:
            parts = ratio_parts(game, board, stats)
            assert parts is not None
            numerator, denominator = parts
            if denominator >= max(1, thresholds.min_attempts):
                out[board] = numerator / denominator
    return out
