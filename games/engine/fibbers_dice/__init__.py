"""Fibber's Dice: rules and scores of one game."""
