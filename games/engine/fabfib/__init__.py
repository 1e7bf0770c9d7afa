"""Fab Fib: rules, cards and bots of one game."""

from . import bots, expert  # noqa: F401  (registers the basic, strong and expert bots)
