"""Fab Fib: rules, cards and bots of one game."""
