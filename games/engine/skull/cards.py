"""Skull's cards.

Every player owns one set of four cards: three flowers and one skull. The cards of a set are
interchangeable, so the engine stores a card as its kind ("flower" or "skull"), never as an
id: showing a player the kinds they hold reveals nothing beyond what they hold.
"""

from __future__ import annotations

FLOWER = "flower"
SKULL = "skull"
KINDS = (FLOWER, SKULL)

#: One player's set, in the canonical (sorted) order used for hands.
FULL_SET = (FLOWER, FLOWER, FLOWER, SKULL)
CARDS_PER_PLAYER = len(FULL_SET)


def kinds(cards: list[str]) -> list[str]:
    """The distinct kinds among ``cards``, in canonical order (flower before skull)."""
    return [k for k in KINDS if k in cards]


def complement(cards: list[str]) -> list[str]:
    """The cards of a full set that are not among ``cards`` (what its owner has lost)."""
    rest = list(FULL_SET)
    for card in cards:
        rest.remove(card)
    return rest
