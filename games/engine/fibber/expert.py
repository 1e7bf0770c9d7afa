"""Fibber ``expert``: belief-weighted calls and determinized rollouts for plays.

**Calls** (standard rules). Whether to call turns on the cards just played, and a uniform
sample of the hidden cards says nothing about them. The expert weighs the player's possible
hands by how likely the strong bot's policy makes that player's plays since the pile was last
picked up (games/engine/fibber/belief.py), which gives the chance that the play is a fib; it
then weighs the call as the strong bot does (what a right call costs the player, what a wrong
one costs this seat), with that chance in place of the strong bot's own estimate, weighed with
the player's public record of calls. Each sample is also weighed under the basic bot's rules
(all true cards of the rank, else one Wild, else one card), so a player who plays like that
is judged by it (a mixture of the two policies, by how well each explains the window). The
expert counts the player's loss as its own gain once (four times at three seats) when it is
the last seat to answer, and half of that before: it leaves calls to seats that may still make
them, and a table of experts still calls (its belief finds fibs the strong estimate misses).

**Robustness.** The belief assumes the players are strong bots; the counts they play are
scored against a player choosing any count alike, and while the sum over the match is below
``-MISFIT`` (or the basic rules' against the strong policy's), the call is weighed by the strong
bot's estimate for this seat alone. (Without this the expert won 12.8 % of 200 matches against
three basic bots, the strong bot 57.8 % of 400; with calls by the strong bot's rule alone it
had won 53.5 % of 40.)

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
from .belief import fib_posterior_fits
from .bots import StandardMind
from .rules import Fibber

CARD = 0.15
#: The expert's calls (belief): the player's loss counted as its own gain this many times when
#: it is the last seat to answer (once, but four times at three seats, where honest plays are
#: common and hands empty fast: a table of experts would otherwise run to the safety end in
#: 40 % of its matches), half of that while others may still call.
TABLE = {3: 4.0}
EARLY = 0.5
#: Weighted hand samples per call decision (games/engine/fibber/belief.py).
CALL_SAMPLES = 48
#: Calls are weighed by the belief only while the plays seen in call windows fit the strong
#: bot's policy at least this well against a uniform chooser (log-likelihood ratio summed over
#: the windows of the match, :func:`fib_posterior_fit`); otherwise as the strong bot does.
MISFIT = 2.0


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
    """The strong bot's weighing of a call, with the belief model's chance of a fib; the
    player's loss counts as this seat's gain :data:`TABLE` times when it is the last seat to
    answer, and :data:`EARLY` of that while other seats may still call."""

    def __init__(self, view: JSON, rng: random.Random, p: float) -> None:
        super().__init__(view, rng)
        self.p = p
        self.table = TABLE.get(self.seats, 1.0)
        self.early = EARLY

    def fib_chance(self, seat: int, count: int, rank: int, hand_before: int) -> float:
        return self.by_record(seat, self.p)


class PlainMind(StandardMind):
    """The strong bot's call, weighed for this seat alone (a table that does not play like the
    strong bots: the expert does not carry its calls)."""

    def __init__(self, view: JSON, rng: random.Random) -> None:
        super().__init__(view, rng)
        self.table = 1.0


class FibberExpert(SearchBot):
    """Level ``expert`` for Fibber: belief-weighted calls, searched plays."""

    def __init__(self, rules: Rules, adapter: Adapter, rng: random.Random) -> None:
        super().__init__(rules, adapter, rng)
        self.believed = 0
        #: The latest fit of each window seen: (deal, first play, player) -> log ratio.
        self.fits: dict[tuple[Any, int, int], float] = {}
        #: Likewise, the strong policy against the basic bot's rules.
        self.basic_fits: dict[tuple[Any, int, int], float] = {}
        self.misfit = MISFIT

    def choose(self, view: JSON) -> Action:
        public = view["public"]
        if public["variant"] != "easy" and public["phase"] == "call":
            seed = self.rng.getrandbits(64)
            out = fib_posterior_fits(view, random.Random(seed), CALL_SAMPLES)
            if out is not None:
                p, fit, against_basic = out
                player = public["last_play"]["seat"]
                start = public["plays"] - len(public["pile_plays"])
                key = (public.get("deal"), start, player)
                self.fits[key] = fit
                self.basic_fits[key] = against_basic
                if (
                    sum(self.fits.values()) >= -self.misfit
                    and sum(self.basic_fits.values()) >= -self.misfit
                ):
                    self.believed += 1
                    return BeliefMind(view, random.Random(seed), p).answer()
            return PlainMind(view, random.Random(seed)).answer()
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
