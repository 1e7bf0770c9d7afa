"""Game id → rules object. Every game registers here, explicitly."""

from __future__ import annotations

from .core import EngineError, Rules
from .fabfib.rules import FabFib
from .fibber.rules import Fibber
from .fibbers_dice.rules import FibbersDice
from .skull.rules import Skull


class UnknownGame(EngineError):
    code = "unknown_game"


_GAMES: dict[str, Rules] = {
    rules.game_id: rules
    for rules in (
        FabFib(),
        Fibber(),
        FibbersDice(),
        Skull(),
    )
}


def get(game_id: str) -> Rules:
    """The rules of ``game_id``; :class:`UnknownGame` if there is no such game."""
    try:
        return _GAMES[game_id]
    except (KeyError, TypeError):
        known = ", ".join(sorted(_GAMES))
        raise UnknownGame(f"Unknown game {game_id!r}; known games: {known}.") from None


def game_ids() -> list[str]:
    return sorted(_GAMES)


def all_rules() -> list[Rules]:
    return [_GAMES[g] for g in game_ids()]
