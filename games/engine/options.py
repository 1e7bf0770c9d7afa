"""A game's options, declared once: the engine checks them with these declarations, and the API
derives from the same declarations its request shapes, its OpenAPI components and the GraphQL
description (``api.play.matches``, ``api.rest.openapi.games.options``).

An option is a whole number within bounds, a boolean or one of some words. It may apply only
with some values of the game's ``variant`` option, or be set only by the server (a tournament
marks its rounds), never by a match's creator.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import InvalidOptions

#: What a missing value is replaced with when the game chooses it (``Option.default``).
CHOSEN = object()


@dataclass(frozen=True)
class Option:
    """One option: its ``key``, what it is (``about``, a sentence fragment such as "Starting
    life"), its kind and bounds, and its default (``None``: no default, the option is only
    there when given; :data:`CHOSEN`: the game chooses it, as ``default_about`` says)."""

    key: str
    about: str
    kind: type  # int, bool or str
    default: Any = None
    lo: int = 0
    hi: int = 0
    choices: tuple[str, ...] = ()
    #: The ``variant`` values it applies with (empty: every one).
    variants: tuple[str, ...] = ()
    #: Set by the server only (a tournament's rounds), never by a match's creator.
    server_only: bool = False
    #: How the game chooses a default (with ``default=CHOSEN``).
    default_about: str = ""
    #: A note for whoever creates a match (what the option changes, when it is refused).
    note: str = ""

    def check(self, value: Any) -> Any:
        """``value`` if the option allows it, else :class:`InvalidOptions` saying what would."""
        if self.kind is bool:
            if type(value) is not bool:
                raise InvalidOptions(f"'{self.key}' must be true or false.")
        elif self.kind is int:
            if type(value) is not int or not self.lo <= value <= self.hi:
                raise InvalidOptions(
                    f"'{self.key}' must be a whole number from {self.lo} to {self.hi}."
                )
        elif value not in self.choices or type(value) is not str:
            raise InvalidOptions(f"'{self.key}' must be one of: {', '.join(self.choices)}.")
        return value

    def take(self, options: dict[str, Any], default: Any = None) -> Any:
        """Remove the option from ``options`` and answer it checked; absent, its default (or
        ``default``, the game's choice, for :data:`CHOSEN`)."""
        if self.key not in options:
            chosen = default if self.default is CHOSEN else self.default
            return chosen
        return self.check(options.pop(self.key))

    def default_text(self) -> str:
        """The default in words (for documentation), or ``""`` without one."""
        if self.default is CHOSEN:
            return self.default_about
        if self.default is None:
            return ""
        if isinstance(self.default, bool):
            return "true" if self.default else "false"
        if isinstance(self.default, str):
            return f"`{self.default}`"
        return str(self.default)

    def applies_to(self, variant: str | None) -> bool:
        return not self.variants or variant in self.variants


def declared(options: tuple[Option, ...], key: str) -> Option:
    """The option ``key`` of a game's declarations."""
    for option in options:
        if option.key == key:
            return option
    raise KeyError(key)
