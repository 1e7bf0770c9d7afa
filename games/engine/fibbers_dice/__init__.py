"""Fibber's Dice: rules, scores and bots of one game."""

from . import bots  # noqa: F401  (registers the basic and strong bots)
