"""Fibber's Dice ``expert``: determinized rollouts to the end of the sequence
(games/engine/search.py); a seat's score is its points."""

from __future__ import annotations

from ..core import JSON
from ..search import Adapter, Budget, register_expert
from .bots import StrongBot
from .rules import FibbersDice


def worth(view: JSON) -> bool:
    """Announcements only. Whether to believe or call turns on the announcer's dice, which a
    uniform sample cannot weigh by what the announcement says about them; the strong bot's
    opponent models do, so it decides those. An announcer's own dice are known and the next
    seats have not rolled yet, so a sample is as good as the truth there."""
    return any(spec["type"] == "announce" for spec in view["legal_actions"])


class RolloutBot(StrongBot):
    """The strong bot with the prior opponent models, for rollouts: it does not learn from
    the sampled views, so its tables are always the precomputed ones (a rollout step then
    costs microseconds instead of a table rebuild)."""

    def observe(self, view: JSON) -> None:
        return None


ADAPTER = Adapter(
    round_of=lambda state: state.sequence,
    score=lambda rules, state, seat: float(state.points[seat]),
    worth=worth,
    rollout_bot=RolloutBot,
    budget=Budget(samples=8, steps=200),
)

register_expert(FibbersDice(), ADAPTER)
