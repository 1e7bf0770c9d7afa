"""Skull ``expert``: determinized rollouts to the end of the round
(games/engine/search.py); a seat's score counts a success as four cards."""

from __future__ import annotations

from ..search import Adapter, Budget, register_expert
from .rules import Skull

SUCCESS = 4.0

ADAPTER = Adapter(
    round_of=lambda state: state.round,
    score=lambda rules, state, seat: (
        SUCCESS * state.successes[seat] + len(state.hands[seat]) + len(state.stacks[seat])
    ),
    budget=Budget(samples=10, steps=100),
)

register_expert(Skull(), ADAPTER)
