"""Fab Fib: rules, cards and bots of one game."""

from . import bots  # noqa: F401  (registers the basic and strong bots)
