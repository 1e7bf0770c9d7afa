"""Skull: rules, cards and bots of one game (RULES.md, section "Skull")."""

from . import bots  # noqa: F401  (registers the basic and strong bots)
