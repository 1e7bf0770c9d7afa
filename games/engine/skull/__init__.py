"""Skull: rules, cards and bots of one game (docs/rules/skull.md)."""

from . import bots  # noqa: F401  (registers the basic and strong bots)
