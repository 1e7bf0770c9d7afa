"""Fab Fib's deck and claims.

50 cards: five copies of each digit 0–9; of the five copies of a digit, three show one skull,
one shows two skulls and one shows three. A card is stored as an id 0..49 (``digit * 5 +
copy``), which never leaves the engine: views show only (digit, skulls).
"""

from __future__ import annotations

from itertools import combinations_with_replacement

DECK_SIZE = 50
SKULLS_BY_COPY = (1, 1, 1, 2, 3)

#: Every legal claim, lowest first: three digits in non-increasing order ("000" … "999").
ALL_CLAIMS: tuple[str, ...] = tuple(
    sorted(
        "".join(sorted(combo, reverse=True))
        for combo in combinations_with_replacement("0123456789", 3)
    )
)
_CLAIM_SET = frozenset(ALL_CLAIMS)
MAX_CLAIM = "999"


def digit(card: int) -> int:
    return card // 5


def skulls(card: int) -> int:
    return SKULLS_BY_COPY[card % 5]


def show(card: int) -> dict[str, int]:
    """A card as a player sees it."""
    return {"digit": digit(card), "skulls": skulls(card)}


def show_all(cards: list[int]) -> list[dict[str, int]]:
    return [show(c) for c in cards]


def reading(cards: list[int]) -> str:
    """The only claim that is true for these three cards: their digits, highest first."""
    return "".join(str(d) for d in sorted((digit(c) for c in cards), reverse=True))


def skull_total(cards: list[int]) -> int:
    return sum(skulls(c) for c in cards)


def is_thousand(cards: list[int]) -> bool:
    """Three actual zeros: the special 1000."""
    return len(cards) == 3 and all(digit(c) == 0 for c in cards)


def is_claim(value: object) -> bool:
    return isinstance(value, str) and value in _CLAIM_SET


def claims_above(claim: str | None) -> list[str]:
    """Legal claims strictly higher than ``claim`` (all claims when there is none yet)."""
    if claim is None:
        return list(ALL_CLAIMS)
    return [c for c in ALL_CLAIMS if c > claim]
