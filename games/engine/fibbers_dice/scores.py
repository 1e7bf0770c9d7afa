"""Fibber's Dice scores: the 21 legal announcements and how a roll reads.

A roll of two dice is read high die first. Its score is one of 21, lowest to highest::

    31 32 41 42 43 51 52 53 54 61 62 63 64 65
    double 1s … double 6s
    max            (the roll 2+1, the highest of all)

Score ids, as sent and shown by the API, are the strings ``"31"`` … ``"65"`` for the
non-doubles, ``"double 1s"`` … ``"double 6s"`` for the doubles (doubles are not numbers,
so double 3s is never ``"33"``) and ``"max"`` for 2+1. They compare by their place in
:data:`SCORES`, never as numbers or strings.
"""

from __future__ import annotations

MAX = "max"

#: Every legal announcement, lowest first.
SCORES: tuple[str, ...] = (
    *(f"{high}{low}" for high in range(3, 7) for low in range(1, high)),
    *(f"double {face}s" for face in range(1, 7)),
    MAX,
)
RANK: dict[str, int] = {score: rank for rank, score in enumerate(SCORES)}


def is_score(value: object) -> bool:
    return isinstance(value, str) and value in RANK


def rank(score: str) -> int:
    """The place of ``score`` in the order, 0 (``"31"``) to 20 (``"max"``)."""
    return RANK[score]


def read(dice: list[int]) -> str:
    """The score two dice show: high die first; a pair is a double; 2+1 is Max."""
    high, low = max(dice), min(dice)
    if high == low:
        return f"double {high}s"
    if (high, low) == (2, 1):
        return MAX
    return f"{high}{low}"


def scores_above(score: str | None) -> list[str]:
    """The scores strictly higher than ``score`` (all 21 when there is none yet)."""
    if score is None:
        return list(SCORES)
    return list(SCORES[rank(score) + 1 :])


def at_least(dice: list[int], score: str) -> bool:
    """Whether ``dice`` show ``score`` or better (a called announcement then stands)."""
    return rank(read(dice)) >= rank(score)


def suggestion(value: str) -> str | None:
    """The score a player probably meant by a number that is not a score, if there is one.

    ``"26"`` → ``"62"`` (read high die first), ``"33"`` → ``"double 3s"`` (doubles are not
    numbers), ``"21"`` or ``"12"`` → ``"max"``.
    """
    if len(value) != 2 or not all(c in "123456" for c in value):
        return None
    return read([int(value[0]), int(value[1])])


def _distribution() -> tuple[float, ...]:
    counts = [0] * len(SCORES)
    for first in range(1, 7):
        for second in range(1, 7):
            counts[rank(read([first, second]))] += 1
    return tuple(c / 36 for c in counts)


# Two dice give 36 equally likely outcomes: a non-double score and Max each come from 2 of
# them, a double from 1.
#: Chance that a roll reads exactly rank r.
P_EQ: tuple[float, ...] = _distribution()
#: Chance that a roll is at least rank r (an announcement of r stands when called).
P_GE: tuple[float, ...] = tuple(sum(P_EQ[r:]) for r in range(len(SCORES)))
#: Chance that a roll is at most rank r.
P_LE: tuple[float, ...] = tuple(sum(P_EQ[: r + 1]) for r in range(len(SCORES)))
