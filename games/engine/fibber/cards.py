"""Fibber's cards and noses.

24 cards: four each of Bigfoot, Ghost, Alien, Witch, Dragon and four Wild. A card is stored as
an id 0..23 (``rank * 4 + copy``), which never leaves the engine: views show only rank names.
Hands are kept sorted by id, so they are sorted by rank and a position into a hand means the
same rank in every state a player cannot tell apart.
"""

from __future__ import annotations

DECK_SIZE = 24
COPIES = 4
PLAIN_NOSES = 10

#: The five ranks a play can announce, in the order the Silver Nose cycles through them.
RANKS: tuple[str, ...] = ("bigfoot", "ghost", "alien", "witch", "dragon")
WILD = 5
NAMES: tuple[str, ...] = (*RANKS, "wild")
BIGFOOT = 0


def rank(card: int) -> int:
    return card // COPIES


def name(card: int) -> str:
    return NAMES[card // COPIES]


def names(cards: list[int]) -> list[str]:
    """Cards as a player sees them, sorted by rank (so their order tells nothing)."""
    return [NAMES[c // COPIES] for c in sorted(cards)]


def rank_label(index: int) -> str:
    return RANKS[index].capitalize()


def is_fib(cards: list[int], announced: int) -> bool:
    """A play is a fib when any card is neither the announced rank nor Wild."""
    return any(c // COPIES not in (announced, WILD) for c in cards)


def next_rank(index: int) -> int:
    """Bigfoot → Ghost → Alien → Witch → Dragon → Bigfoot."""
    return (index + 1) % len(RANKS)


def deal_sizes(seats: int) -> tuple[int, int]:
    """Cards per hand and cards set aside (24 deal evenly except to 5: four are set aside)."""
    return DECK_SIZE // seats, DECK_SIZE % seats
