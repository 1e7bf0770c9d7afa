"""Fibber: rules (standard and the ``easy`` variant), cards and bots of one game."""

from . import bots  # noqa: F401  (registers the basic and strong levels)
