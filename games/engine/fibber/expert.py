"""Fibber ``expert``: determinized rollouts over one turn of the table (a play by every
seat, calls resolved; games/engine/search.py). A seat's score: minus its noses (standard: the
Silver Nose counts as one; easy: this round's and the finished rounds'), and a little for every
card still in hand (an empty hand hands the noses back)."""

from __future__ import annotations

from typing import Any

from ..core import JSON, Rules
from ..search import Adapter, Budget, register_expert
from .rules import Fibber

CARD = 0.15


def score(rules: Rules, state: Any, seat: int) -> float:
    if state.options["variant"] == "easy":
        noses = state.scores[seat] + state.noses[seat]
    else:
        noses = state.noses[seat] + (state.silver == seat)
    return -float(noses) - CARD * len(state.hands[seat])


def worth(view: JSON) -> bool:
    """Plays only. A call turns on the cards just played, which a uniform sample cannot
    weigh by what the play says about them; the strong bot decides calls."""
    return any(spec["type"] == "play" for spec in view["legal_actions"])


ADAPTER = Adapter(
    round_of=lambda state: state.plays,
    score=score,
    span=3,
    worth=worth,
    budget=Budget(samples=16, steps=400),
)

register_expert(Fibber(), ADAPTER)
