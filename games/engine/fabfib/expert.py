"""Fab Fib ``expert``: determinized rollouts to the end of the round
(games/engine/search.py); a seat's score is its life."""

from __future__ import annotations

from ..core import JSON
from ..search import Adapter, Budget, register_expert
from .rules import FabFib


def worth(view: JSON) -> bool:
    """Claims and exchanges, with the hand in front of the seat. Calling or accepting turns on
    a hand nobody shows, which a uniform sample cannot weigh by what the claim says about it;
    the strong bot's claim model does, so it decides those."""
    return view["private"]["hand"] is not None


ADAPTER = Adapter(
    round_of=lambda state: state.round,
    score=lambda rules, state, seat: float(state.life[seat]),
    worth=worth,
    rollout_level="basic",
    budget=Budget(samples=16, steps=250),
)

register_expert(FabFib(), ADAPTER)
