"""Fibber ``expert``: belief-weighted calls and determinized rollouts for plays.

**Calls** (standard rules). Whether to call turns on the cards just played, and a uniform
sample of the hidden cards says nothing about them. The expert weighs the player's possible
hands by how likely the strong bot's policy makes that player's plays since the pile was last
picked up (games/engine/fibber/belief.py), which gives the chance that the play is a fib; it
then weighs the call as the strong bot does (what a right call costs the player, what a wrong
one costs this seat), with that chance in place of the strong bot's own estimate.

**Plays**: determinized rollouts over one turn of the table (a play by every seat, calls
resolved; games/engine/search.py). A seat's score: minus its noses (standard: the Silver Nose
counts as one; easy: this round's and the finished rounds'), and a little for every card still
in hand (an empty hand hands the noses back)."""

from __future__ import annotations

import random
from typing import Any

from ..bots import register_bot
from ..core import JSON, Action, Rules
from ..search import Adapter, Budget, SearchBot
from .belief import fib_posterior
from .bots import StandardMind
from .rules import Fibber

CARD = 0.15
#: Weighted hand samples per call decision (games/engine/fibber/belief.py).
CALL_SAMPLES = 48


def score(rules: Rules, state: Any, seat: int) -> float:
    if state.options["variant"] == "easy":
        noses = state.scores[seat] + state.noses[seat]
    else:
        noses = state.noses[seat] + (state.silver == seat)
    return -float(noses) - CARD * len(state.hands[seat])


def worth(view: JSON) -> bool:
    """Plays only (calls are decided by the belief model, or under the easy rules by the
    strong bot)."""
    return any(spec["type"] == "play" for spec in view["legal_actions"])


class BeliefMind(StandardMind):
    """The strong bot's weighing of a call, with the belief model's chance of a fib."""

    def __init__(self, view: JSON, rng: random.Random, p: float) -> None:
        super().__init__(view, rng)
        self.p = p

    def fib_chance(self, seat: int, count: int, rank: int, hand_before: int) -> float:
        return self.p


class FibberExpert(SearchBot):
    """Level ``expert`` for Fibber: belief-weighted calls, searched plays."""

    def __init__(self, rules: Rules, adapter: Adapter, rng: random.Random) -> None:
        super().__init__(rules, adapter, rng)
        self.believed = 0

    def choose(self, view: JSON) -> Action:
        public = view["public"]
        if public["variant"] != "easy" and public["phase"] == "call":
            seed = self.rng.getrandbits(64)
            p = fib_posterior(view, random.Random(seed), CALL_SAMPLES)
            if p is not None:
                self.believed += 1
                return BeliefMind(view, random.Random(seed), p).answer()
        return super().choose(view)


ADAPTER = Adapter(
    round_of=lambda state: state.plays,
    score=score,
    span=3,
    worth=worth,
    budget=Budget(samples=16, steps=400),
)

_RULES = Fibber()
register_bot("fibber", "expert", lambda rng: FibberExpert(_RULES, ADAPTER, rng))
