"""The errors the engine reports to a caller (re-exported by :mod:`.core`)."""

from __future__ import annotations


class EngineError(Exception):
    """Base class for errors the engine reports to a caller."""

    code = "engine_error"

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class IllegalAction(EngineError):
    """The action is not legal now. ``reason`` is safe to show to the acting seat."""

    code = "illegal_action"


class NotYourTurn(IllegalAction):
    """The seat has no decision to make right now."""

    code = "not_your_turn"


class InvalidOptions(EngineError):
    """The match options or seat count are not acceptable for this game."""

    code = "invalid_options"


__all__ = ["EngineError", "IllegalAction", "InvalidOptions", "NotYourTurn"]
