"""Fibber: rules (standard and the ``easy`` variant) and cards of one game."""
