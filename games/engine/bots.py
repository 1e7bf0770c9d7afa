"""Bots see exactly what a player sees: the seat's view, never the state.

A bot is any object with ``choose(view) -> action``. The random-legal bot needs no game
knowledge at all: it picks an entry of ``view["legal_actions"]`` and a value from each domain,
which is always a legal action (an action built from the domains of an entry is legal).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from .core import JSON, Action, EngineError


class Bot(Protocol):
    def choose(self, view: JSON) -> Action: ...


def random_value(domain: JSON, rng: random.Random) -> object:
    """A uniformly chosen value of one legal-action domain."""
    if "one_of" in domain:
        return rng.choice(domain["one_of"])
    if "subset_of" in domain:
        size = rng.randint(domain["min"], domain["max"])
        return rng.sample(domain["subset_of"], size)
    if "range" in domain:
        lo, hi = domain["range"]
        return rng.randint(lo, hi)
    raise ValueError(f"unknown domain {domain!r}")


def random_action(legal_actions: list[JSON], rng: random.Random) -> Action:
    """Any legal action, chosen at random: an entry first, then a value from each domain."""
    if not legal_actions:
        raise EngineError("There is no legal action to choose from.")
    spec = rng.choice(legal_actions)
    action: Action = {"type": spec["type"]}
    for name, domain in spec["params"].items():
        action[name] = random_value(domain, rng)
    return action


class RandomBot:
    """Plays a uniformly random legal action. Level ``random``."""

    level = "random"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: JSON) -> Action:
        return random_action(view["legal_actions"], self.rng)


BotFactory = Callable[[random.Random], Bot]

# game id -> level -> factory; games add their own levels next to their rules.
_LEVELS: dict[str, dict[str, BotFactory]] = {}
_GENERIC: dict[str, BotFactory] = {"random": RandomBot}


def register_bot(game_id: str, level: str, factory: BotFactory) -> None:
    _LEVELS.setdefault(game_id, {})[level] = factory


def bot_levels(game_id: str) -> list[str]:
    return sorted({**_GENERIC, **_LEVELS.get(game_id, {})})


def make_bot(game_id: str, level: str, rng: random.Random) -> Bot:
    """A bot of ``level`` for ``game_id``; ``EngineError`` for an unknown level."""
    factories = {**_GENERIC, **_LEVELS.get(game_id, {})}
    if level not in factories:
        raise EngineError(
            f"Unknown bot level {level!r} for {game_id}; levels: {', '.join(sorted(factories))}."
        )
    return factories[level](rng)
