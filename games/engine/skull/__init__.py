"""Skull: rules, cards and bots of one game (docs/rules/skull.md)."""

from . import bots, expert  # noqa: F401  (registers the basic, strong and expert bots)
